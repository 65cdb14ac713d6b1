// A gradient-boosted tree model (XGBoost) over rows of features: the
// learned extractor's block model and the page-type classifier. Models are
// trained by husk train from a WCXB-layout split and compiled into husk;
// each carries the names of the features it was trained on and husk's own
// settings (the block model's threshold) as attributes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "husk/extract.h"
#include "husk/status.h"

namespace husk {

class TreeModel {
 public:
  // A model in XGBoost's JSON or UBJSON format.
  static Result<std::shared_ptr<const TreeModel>> load(std::string_view bytes, const std::string& source);
  ~TreeModel();

  // One output per row (a probability for a binary model), or one per
  // class and row for a multi-class one; rows are row-major, `columns` wide.
  Result<std::vector<float>> predict(const std::vector<float>& rows, std::size_t columns) const;

  // A binary model's raw scores (log-odds) from the trees of the boosting
  // rounds [begin, end) alone, without the model's base score: the scores
  // of consecutive ranges add up to the whole model's, less its base.
  Result<std::vector<float>> margins(const float* rows, std::size_t n, std::size_t columns, int begin, int end) const;
  int rounds() const { return rounds_; }
  float base_margin() const { return base_margin_; }

  const std::vector<std::string>& feature_names() const { return feature_names_; }
  // An attribute set at training ("threshold", "types"), or empty.
  std::string attribute(const std::string& key) const;

  struct Handle;

 private:
  TreeModel();
  std::unique_ptr<Handle> handle_;
  std::vector<std::string> feature_names_;
  std::map<std::string, std::string> attributes_;
  int rounds_ = 0;
  float base_margin_ = 0;

  Result<std::vector<float>> run(const float* rows, std::size_t n, std::size_t columns, int type, int begin,
                                 int end) const;
};

// Which rows a binary model scores at or above the page's threshold
// (page_threshold of `threshold`, a probability, and the best row's).
// Staged: the first `first_share` of the model's rounds score every row,
// and only rows whose score is then within `settled_margin` (log-odds) of
// the threshold are scored by the remaining rounds; the others are
// settled. first_share 0 (or 1) scores every row with every tree.
struct StagedDecision {
  double first_share = 0;
  float settled_margin = 2.0f;
};
// The learned extractor's: most blocks are settled long before the last
// tree. After the first sixth of the rounds, a block whose score is 2
// log-odds or more from the threshold keeps its side. Measured on the
// pages of WCXB dev and the article-extraction-benchmark, every tenth page
// (tests/e2e/learned_test.cc bounds it): 21 of 68,448 decisions (0.03%)
// differ from the whole model's (47 before the page's threshold had a
// doubted page's best blocks scored whole), at two thirds of its
// prediction time.
inline constexpr StagedDecision kStagedDecision{1.0 / 6, 2.0f};

// The threshold a page's blocks are held to. The model's threshold suits a
// page it is sure of, one with a block at 0.98 or more. On a page whose best
// block passes the threshold but is doubted (a listing, a shop, a page
// unlike those the model was trained on) every probability is lower, and
// the threshold is scaled by the best block's probability over 0.98: the
// page keeps what the model rates nearly as high as its best. A page with
// no block at the threshold keeps none, as before (error and consent pages
// have no main text). Measured out of fold (`husk train extract`, 5 folds
// grouped by domain, seeds 1-4, threshold 0.50): the mean of the four
// development collections gains 0.0015-0.0034, WCXB dev 0.005-0.007
// (listings and collections most), the snippet set 0.001-0.003; the news
// collections move within their seed spread (docs/evaluation.md, "The
// page's threshold").
inline constexpr double kSureProbability = 0.98;
inline double page_threshold(double threshold, double best_probability) {
  if (best_probability < threshold || best_probability >= kSureProbability) return threshold;
  return threshold * best_probability / kSureProbability;
}

// The threshold of a page of the given type (as the page-type classifier
// types it; empty when it was not): the model's threshold for an article,
// and for every other type the model's threshold for those, chosen beside
// it in the same cross-validation. The gold of a listing, a shop, a
// service page or a thread keeps the repeated items, specifications and
// sections that a news article's gold leaves out as teasers, so the block
// model, fitted to both, rates them lower than the gold wants on the pages
// whose content they are (docs/evaluation.md, "Pages that are not
// articles").
inline constexpr std::string_view kArticleType = "article";
inline double type_threshold(std::string_view type, double article_threshold, double other_threshold) {
  return type.empty() || type == kArticleType ? article_threshold : other_threshold;
}

// Rows are scored in chunks of kDeadlineRows, the deadline checked between
// them: a page of a million blocks stops within one chunk's time of it.
inline constexpr std::size_t kDeadlineRows = 8192;
// With `probability`, each row's probability as the trees that scored it
// give it (a settled row's from the first share of the rounds); with
// `page_cut`, the page's threshold.
Result<std::vector<uint8_t>> above_threshold(const TreeModel& model, const std::vector<float>& rows,
                                             std::size_t columns, double threshold, const StagedDecision& staged,
                                             const Deadline& deadline = {}, std::vector<float>* probability = nullptr,
                                             double* page_cut = nullptr);

// The models compiled into husk (config/models/), or an error saying why
// one cannot be loaded.
Result<std::shared_ptr<const TreeModel>> builtin_block_model();
Result<std::shared_ptr<const TreeModel>> builtin_page_type_model();

}  // namespace husk
