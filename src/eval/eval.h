// husk's evaluation tools, a layer above the library: they score what the
// library produces against gold sets.
//
// Extraction against gold text: the
// article-extraction-benchmark score (scrapinghub, evaluate.py), exactly.
//
// Per page: the multisets of 4-token shingles (tokens: word_tokens(), husk/normalize.h)
// of gold and prediction give tp, fp, fn, normalised to sum 1. Precision is
// the mean over pages with tp+fp > 0 of tp/(tp+fp) (1 when fp = fn = 0, 0
// when tp = fp = 0); recall likewise over pages with tp+fn > 0; F1 is the
// harmonic mean of the two means. Accuracy is the share of pages whose
// token sequences are identical.
//
// Dedup: clusters against a gold standard (the comparison of Zelenkov &
// Segalovich that Sergukova's Mail.Ru lecture «Поиск дубликатов» shows).
//
// Gold is either labelled pairs, one JSON object a line, as
//   {"a": {"id": A}, "b": {"id": B}, "label": 1|0, "variant": ...}   or
//   {"id_a": A, "id_b": B, "label": 1|0}
// or a gold clustering, one {"members": [ID, ...]} a line. A pair is
// predicted a duplicate when both pages share a predicted cluster.
// - pairwise precision / recall / F1: over the judged pairs (pair gold), or
//   over all pairs inside gold and predicted clusters (clustering gold);
// - for a clustering, the lecture's URL-level scores: recall = share of the
//   gold duplicate pages found in some cluster, precision = share of the
//   pages found that are gold duplicates.
// Page ids are compared as gold_key() spells them (file names without
// directory and .html/.htm/.gz).
#pragma once

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <map>
#include <string>
#include <unordered_map>
#include <string_view>
#include <vector>

#include "husk/status.h"

namespace husk {

// ---- Extraction ----

struct ShingleMatch {
  double tp = 0, fp = 0, fn = 0;  // normalised to sum 1 (all 0 for two empty texts)
  bool exact = false;             // identical token sequences
};

// Chinese and Japanese are written without spaces, so a \w+ run is a
// whole clause and one wrong character costs it all. A page whose gold is
// Chinese or Japanese (at least 30% of its non-space characters are Han,
// Hiragana or Katakana) is also scored with each of those characters as a
// token (the character-level measure of CJK extraction benchmarks); the
// scores report both, the benchmark's own first.
bool is_cjk_gold(std::string_view text);
// `tokens` with every Han, Hiragana and Katakana character made a token of
// its own; other runs stay whole.
std::vector<std::string_view> cjk_char_tokens(const std::vector<std::string_view>& tokens);

ShingleMatch match_shingles(std::string_view gold, std::string_view prediction, std::size_t n = 4,
                            bool cjk_chars = false);

struct PageScore {
  std::string id;
  ShingleMatch match;
  bool cjk = false;        // the gold is Chinese or Japanese
  ShingleMatch match_cjk;  // with CJK characters as tokens (= match when not cjk)
  bool predicted = true;  // false when the prediction file had no record for the page
};

struct ExtractScore {
  double precision = 0, recall = 0, f1 = 0, accuracy = 0;
  std::size_t pages = 0;    // gold pages
  std::size_t missing = 0;  // gold pages with no prediction (scored as empty)
  std::size_t predictions = 0;  // records of the prediction file, those naming no gold page among them
  std::vector<PageScore> per_page;
  std::size_t cjk_pages = 0;  // pages whose gold is Chinese or Japanese
  double precision_cjk = 0, recall_cjk = 0, f1_cjk = 0;  // those pages scored by character
};

ExtractScore score_pages(std::vector<PageScore> pages);

// gold_path: {"<id>": {"articleBody": "...", ...}, ...} (the benchmark's
// ground-truth.json). pred_path: husk extract JSONL; a record matches a gold
// key by its id, or by its id's file name without .html/.htm/.gz.
Result<ExtractScore> evaluate_extraction(const std::string& gold_path, const std::string& pred_path);

// ---- Extraction against must-keep / must-drop snippets ----
//
// A snippet set (trafilatura's evaldata.json layout):
//   {"<key>": {"file": "<page file>", "with": [...], "without": [...]}, ...}
// A "with" snippet is main text an extractor must keep, a "without" snippet
// boilerplate it must drop. After white space is collapsed in snippet and
// text, a "with" snippet found in the page's text is a true positive, one
// not found a false negative; a "without" snippet found is a false
// positive, one not found a true negative. Precision, recall and F1 are
// pooled over the set, not averaged per page; a page with no prediction
// counts as empty text. A prediction matches a page by gold_key() of its
// id and of the page's "file".

struct SnippetPage {
  std::string id;  // gold_key of the page's file
  std::size_t with_found = 0, with_total = 0, without_found = 0, without_total = 0;
  bool predicted = true;
};

struct SnippetScore {
  std::size_t pages = 0, missing = 0;
  std::size_t predictions = 0;  // records of the prediction file, those naming no gold page among them
  std::size_t tp = 0, fn = 0, fp = 0, tn = 0;
  double precision = 0, recall = 0, f1 = 0;
  std::vector<SnippetPage> per_page;
};

// Whether a parsed gold file is a snippet set (its entries hold "with" or
// "without" lists) rather than the article-extraction-benchmark layout.
bool is_snippet_gold(const std::string& gold_path);
Result<SnippetScore> evaluate_snippets(const std::string& gold_path, const std::string& pred_path);

// The gold key a prediction id maps to: "dir/abc.html.gz" -> "abc".
std::string gold_key(std::string_view id);

// The text of every record of a husk extract JSONL file, by key_of(id).
Result<std::unordered_map<std::string, std::string>> read_predictions(
    const std::string& path, const std::function<std::string(const std::string&)>& key_of);

// The F1 of one page's match (precision and recall of its shingles).
double page_f1(const ShingleMatch& match);

// ---- Extraction, the WCXB way ----
//
// The Web Content eXtraction Benchmark's word score, as its README
// defines it: per page, the tokens are the \w+ runs (word_tokens()) of
// the lower-cased text (full Unicode lower case); precision = |pred ∩
// gold| / |pred| and recall = |pred ∩ gold| / |gold| over the token
// multisets, F1 from the two. A page whose gold is empty scores 1 when the
// prediction is empty too, else 0; an empty prediction scores 0. The set's
// precision, recall and F1 are the means over pages (the mean of the
// per-page F1s). Also: the share of the gold's "with" snippets (3-8 words a
// correct extraction contains) found in the prediction, and of its
// "without" snippets (boilerplate) found, both compared case-insensitively
// as substrings.

struct WordMatch {
  double precision = 0, recall = 0, f1 = 0;
};

WordMatch match_words(std::string_view gold, std::string_view prediction, bool cjk_chars = false);

struct WcxbPage {
  std::string id;    // the gold file's stem ("0001")
  std::string type;  // article, forum, product, collection, listing, documentation, service
  std::string language;  // the gold's "language", when it names one (daniel-dev does)
  double quality = -1;   // the record's "quality"; -1 when it has none
  bool predicted = true;
  WordMatch match;
  bool cjk = false;     // the gold is Chinese or Japanese
  WordMatch match_cjk;  // with CJK characters as tokens (= match when not cjk)
  std::size_t with_found = 0, with_total = 0;
  std::size_t without_found = 0, without_total = 0;
  // Metadata against the gold's title, author and publish_date: 1 right,
  // 0 wrong, -1 when the gold has none.
  int8_t title = -1, author = -1, date = -1;
};

// A metadata field's accuracy over the pages whose gold has it.
struct FieldScore {
  std::size_t correct = 0, total = 0;
  double accuracy() const { return total ? static_cast<double>(correct) / static_cast<double>(total) : 0.0; }
};

struct WcxbTotals {
  std::size_t pages = 0;
  double precision = 0, recall = 0, f1 = 0;
  double with_rate = 0, without_rate = 0;  // shares of all snippets
};

struct WcxbScore {
  WcxbTotals all;
  std::size_t missing = 0;                    // gold pages with no prediction (scored as empty)
  std::size_t predictions = 0;  // records of the prediction file, those naming no gold page among them
  std::map<std::string, WcxbTotals> by_type;  // by page type
  std::map<std::string, WcxbTotals> by_language;  // by the gold's language, when it names one
  std::vector<WcxbPage> per_page;
  // Title: the same sequence of lower-cased \w+ tokens; author: the gold
  // name equals one of the predicted authors after the same folding; date:
  // the same calendar day as date_published.
  FieldScore title, author, date;
  std::size_t cjk_pages = 0;  // pages whose gold is Chinese or Japanese
  WcxbTotals all_cjk;         // every page, those scored by character
  // Spearman's rank correlation of the records' "quality" with their page
  // F1, over the pages whose record has one (quality_pages); NaN when
  // fewer than two have.
  double quality_spearman = 0;
  std::size_t quality_pages = 0;
};

// The strings of a JSON array field (other values skipped); empty when the
// field is missing or not an array.
std::vector<std::string> strings_of(const nlohmann::json& j, const char* key);

// Spearman's rank correlation of two equally long series (ties take the
// mean of their ranks); NaN when either is constant or shorter than 2.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

// gold_dir: a WCXB split (its ground-truth/ folder of NNNN.json, or that
// folder itself); pred_path: husk extract JSONL, matched by gold_key(id).
// headline_first_line: a gold without a title opens its main text with the
// headline (daniel-dev's layout), and that line is scored as the title.
Result<WcxbScore> evaluate_wcxb(const std::string& gold_dir, const std::string& pred_path,
                                bool headline_first_line = false);

// The totals of a set of scored pages.
WcxbTotals wcxb_totals(const std::vector<const WcxbPage*>& pages);

// ---- Dedup ----

struct DedupScore {
  std::size_t tp = 0, fp = 0, fn = 0, tn = 0;
  double precision = 0, recall = 0, f1 = 0;
  bool clustering_gold = false;
  double url_precision = 0, url_recall = 0, url_f1 = 0;
  // Pair gold with a "variant" field: per variant, pairs judged and pairs
  // predicted duplicate.
  std::map<std::string, std::pair<std::size_t, std::size_t>> by_variant;
};

struct GoldDedup {
  struct LabelledPair {
    std::string a, b, variant;
    bool duplicate = false;
  };
  std::vector<LabelledPair> pairs;
  std::vector<std::vector<std::string>> clusters;  // when the gold is a clustering
};

Result<GoldDedup> load_gold_dedup(const std::string& path);
// Predicted clusters from `husk dedup` output.
Result<std::vector<std::vector<std::string>>> load_clusters(const std::string& path);

DedupScore score_dedup(const GoldDedup& gold, const std::vector<std::vector<std::string>>& clusters);

}  // namespace husk
