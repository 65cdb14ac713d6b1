// Training husk's learned models from a WCXB-layout split (html/NNNN.html.gz
// beside ground-truth/NNNN.json): the pages' block features with the share
// of each block the gold text covers, grouped by domain for
// cross-validation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "husk/processor.h"
#include "husk/status.h"

namespace husk {

class FeatureExtractor;

// A page of the split, as the block model sees it.
struct TrainingPage {
  std::string id;      // "0001"
  std::string domain;  // the gold URL's host, less "www."
  std::string type;    // the gold page type (collection for "category")
  std::vector<float> x;  // block features, row-major (features.h)
  std::vector<float> coverage;                  // per block: share of its tokens in the gold (3-gram aligned)
  std::vector<std::vector<uint32_t>> tokens;    // per block: its lower-cased \w+ tokens as ids
  std::vector<uint32_t> gold;                   // the gold's tokens as ids
  // The page's structure: each block's element, each element's parent and
  // block range (husk/html.h).
  std::vector<uint32_t> block_element;
  std::vector<uint32_t> parent, first_block, end_block;
};

// The share of each block's tokens that the gold text covers: the page's
// tokens in block order form one stream, and a token is covered when a
// 3-gram holding it occurs in the gold (unigrams for a gold of fewer than
// three tokens). Alignment by 3-grams keeps a common word of a menu from
// counting as content.
std::vector<float> gold_coverage(const Blocks& blocks, std::string_view gold);

// Lower-cased \w+ tokens, as ids shared through `dictionary`.
std::vector<uint32_t> token_ids(std::string_view text, std::unordered_map<std::string, uint32_t>& dictionary);

// Every page of the split through the processor's analysis and the
// density extractor, with features and gold coverage; `jobs` threads.
Result<std::vector<TrainingPage>> collect_training_pages(const std::string& split, const Processor& processor,
                                                         const FeatureExtractor& features, unsigned jobs);

// The benchmark's word F1 of keeping the given blocks of a page.
double kept_f1(const TrainingPage& page, const std::vector<uint8_t>& keep);

}  // namespace husk
