// Training husk's learned models from gold sets: WCXB-layout splits
// (html/NNNN.html.gz beside ground-truth/NNNN.json) and the
// article-extraction-benchmark's layout (ground-truth.json {id:
// {articleBody, url}} beside html/<id>.html.gz). Each page gives its block
// features with the share of each block the gold text covers, grouped by
// domain for cross-validation.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "husk/processor.h"
#include "husk/status.h"

namespace husk {

class FeatureExtractor;

// A page of the split, as the block model sees it.
struct TrainingPage {
  std::string id;      // "0001"
  std::string source;  // the gold set's directory name ("wcxb-dev")
  std::string domain;  // the gold URL's host, less "www."
  std::string type;    // the gold page type (collection for "category"; article without one)
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

// Every page of the gold sets (a WCXB split's directory or a benchmark's
// ground-truth.json each) through the processor's analysis and the density
// extractor, with features and gold coverage; `jobs` threads.
Result<std::vector<TrainingPage>> collect_training_pages(const std::vector<std::string>& gold_sets,
                                                         const Processor& processor, const FeatureExtractor& features,
                                                         unsigned jobs);

// The benchmark's word F1 of keeping the given blocks of a page.
double kept_f1(const TrainingPage& page, const std::vector<uint8_t>& keep);

// Gradient-boosted trees (XGBoost): row and column sampling of its "hist"
// method as its parameter guide suggests them for tabular data; depth,
// rounds and step per model below. Rounds are what a page pays for at
// extraction time: 150 rounds at step 0.2 scored within 0.001 of 300 at
// 0.1 in cross-validation on WCXB dev and the article-extraction-benchmark
// (README, "The learned extractor"), in half the prediction time.
struct TreeOptions {
  int rounds = 150;
  int max_depth = 6;
  double eta = 0.2;
  double subsample = 0.8;
  double colsample = 0.8;
  int folds = 5;
  unsigned threads = 1;  // 1: the same model on every machine
  uint64_t seed = 1;
};

// The block model. Each block is labelled content when the gold covers at
// least `label_cover` of it, and weighted by its share of its page's
// tokens, so that every page counts the same, as in the benchmark's mean
// of page F1s.
struct BlockModelOptions : TreeOptions {
  double label_cover = 0.5;
  std::vector<double> thresholds = {0.3, 0.35, 0.4, 0.45, 0.5, 0.55};
};

// The page-type classifier: one row per page, seven classes; shallower
// trees and fewer rounds for 1,500 rows than for 400,000.
struct PageTypeOptions : TreeOptions {
  PageTypeOptions() {
    rounds = 80;
    max_depth = 4;
    colsample = 0.6;
  }
};

// Cross-validation grouped by domain: no domain has pages on both sides.
struct CrossValidation {
  double threshold = 0.5;                    // the one with the best mean F1
  std::map<double, double> f1;               // threshold -> mean page F1
  std::map<std::string, double> f1_by_type;  // at `threshold`
  std::map<std::string, double> f1_by_source;
  std::size_t folds = 0;
};

// Folds of the pages, grouped by domain: domains by page count, each to the
// fold with the fewest pages so far.
std::vector<int> domain_folds(const std::vector<TrainingPage>& pages, int folds);

// Cross-validates (when `cv` is given), then trains on every page. The
// model carries the feature names and, as attributes, the chosen
// threshold and how it was trained; returned in XGBoost's UBJSON.
Result<std::string> train_block_model(const std::vector<TrainingPage>& pages, const std::vector<std::string>& names,
                                      const BlockModelOptions& options, CrossValidation* cv);

// Cross-validation of the page-type classifier, grouped by domain.
struct PageTypeValidation {
  std::vector<std::string> types;                  // sorted
  std::vector<std::vector<std::size_t>> confusion;  // [gold][predicted]
  std::map<std::string, double> accuracy_by_source;
  double accuracy = 0;
  std::size_t folds = 0;
};

// Cross-validates (when `cv` is given), then trains on every page; the
// model carries the page feature names and the types, in class order, as
// its "types" attribute.
Result<std::string> train_page_type_model(const std::vector<TrainingPage>& pages, const FeatureExtractor& features,
                                          const PageTypeOptions& options, PageTypeValidation* cv);

}  // namespace husk
