// Evaluation of extraction against gold text: the
// article-extraction-benchmark score (scrapinghub, evaluate.py), exactly.
//
// Per page: the multisets of 4-token shingles (tokens: husk/word_tokens.h)
// of gold and prediction give tp, fp, fn, normalised to sum 1. Precision is
// the mean over pages with tp+fp > 0 of tp/(tp+fp) (1 when fp = fn = 0, 0
// when tp = fp = 0); recall likewise over pages with tp+fn > 0; F1 is the
// harmonic mean of the two means. Accuracy is the share of pages whose
// token sequences are identical.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "husk/status.h"

namespace husk {

struct ShingleMatch {
  double tp = 0, fp = 0, fn = 0;  // normalised to sum 1 (all 0 for two empty texts)
  bool exact = false;             // identical token sequences
};

ShingleMatch match_shingles(std::string_view gold, std::string_view prediction, std::size_t n = 4);

struct PageScore {
  std::string id;
  ShingleMatch match;
  bool predicted = true;  // false when the prediction file had no record for the page
};

struct ExtractScore {
  double precision = 0, recall = 0, f1 = 0, accuracy = 0;
  std::size_t pages = 0;    // gold pages
  std::size_t missing = 0;  // gold pages with no prediction (scored as empty)
  std::vector<PageScore> per_page;
};

ExtractScore score_pages(std::vector<PageScore> pages);

// gold_path: {"<id>": {"articleBody": "...", ...}, ...} (the benchmark's
// ground-truth.json). pred_path: husk extract JSONL; a record matches a gold
// key by its id, or by its id's file name without .html/.htm/.gz.
Result<ExtractScore> evaluate_extraction(const std::string& gold_path, const std::string& pred_path);

// The gold key a prediction id maps to: "dir/abc.html.gz" -> "abc".
std::string gold_key(std::string_view id);

}  // namespace husk
