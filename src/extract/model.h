// A gradient-boosted tree model over rows of features: the learned
// extractor's block model and the page-type classifier. Models are trained
// by husk train (XGBoost) and compiled into husk in XGBoost's format and
// packed (TreeModel::packed); each carries the names of the features it
// was trained on and husk's own settings (the block model's threshold) as
// attributes.
//
// husk reads the trees and walks them itself. XGBoost's prediction call
// parses a JSON configuration, adapts the rows and enters OpenMP on every
// call, and loading a model through it starts OpenMP's threads: for a
// page's few hundred rows that cost more than the trees. The walk gives
// XGBoost's scores to the bit (tests/e2e/learned_test.cc holds it to
// XGBoost's own prediction on real rows), so every decision is the one
// measured; `husk extract -j1` takes 0.87x the CPU time it took through
// XGBoost on AEB and on WCXB dev, and a start 0.65x (docs/evaluation.md,
// "The trees walked by husk").
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

struct TreeArrays;  // a tree's node arrays as XGBoost saves them

class TreeModel {
 public:
  // A model in XGBoost's JSON or UBJSON format.
  static Result<std::shared_ptr<const TreeModel>> load(std::string_view bytes, const std::string& source);

  // The same model in husk's packed form: its trees as husk walks them and
  // its names and attributes, read back by load_packed() without parsing
  // XGBoost's format. The models compiled into husk are packed when it is
  // built (src/extract/pack_model_main.cc): reading their UBJSON took a
  // third of the CPU of a run over one page. The form is the building
  // machine's (byte order, float layout), never a file exchanged.
  std::string packed() const;
  // `original` is the model as XGBoost saved it, for reference_margins();
  // both views must outlive the model (the binary's read-only data).
  static Result<std::shared_ptr<const TreeModel>> load_packed(std::string_view packed, std::string_view original,
                                                              const std::string& source);
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

  // XGBoost's own prediction of the same raw scores as margins(), base
  // included: the twin the trees husk walks itself are tested against
  // (husk itself never calls XGBoost to predict).
  Result<std::vector<float>> reference_margins(const float* rows, std::size_t n, std::size_t columns, int begin,
                                               int end) const;

  struct Handle;

 private:
  // A node of a tree as husk walks it: a split sends a row to `left` when
  // its feature is below `value` (to `default_left`'s side when the
  // feature is missing, NaN); a leaf holds its score in `value` and is its
  // own child on both sides, so that a walk takes its tree's depth in
  // steps whichever leaf it reaches (TreeModel::walk).
  struct Node {
    float value = 0;
    uint32_t feature = 0;  // the column; kDefaultLeft set when a missing value goes left
    uint32_t left = 0;
    uint32_t right = 0;
    // The node a row whose feature is `v` goes to from here (from a leaf:
    // the leaf).
    uint32_t next(float v) const;
  };
  static constexpr uint32_t kDefaultLeft = 1u << 31;

  TreeModel();
  Status build_trees(const std::map<std::string, std::string>& params, const std::string& objective,
                     const std::string& booster, const std::vector<double>& tree_info,
                     const std::vector<TreeArrays>& trees);
  // The raw scores of trees [begin, end) of the rounds, base included, one
  // per class and row.
  std::vector<float> walk(const float* rows, std::size_t n, int begin, int end) const;
  Status check_columns(std::size_t columns) const;

  std::string owned_bytes_;                 // load()'s copy of the bytes it was given
  std::string_view bytes_;                  // the model as XGBoost saved it, for reference_margins
  std::unique_ptr<Handle> handle_;          // XGBoost's booster, made by reference_margins
  std::vector<std::string> feature_names_;
  std::map<std::string, std::string> attributes_;
  int rounds_ = 0;
  float base_margin_ = 0;
  // The trees in XGBoost's order, each a run of nodes from its root.
  std::vector<Node> nodes_;
  std::vector<std::size_t> tree_start_;
  std::vector<uint32_t> tree_class_;
  std::vector<uint32_t> tree_depth_;  // splits on the tree's longest path
  std::size_t classes_ = 1;
  std::size_t features_ = 0;
  bool softmax_ = false;
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
//
// An article is never emptied: on a page the page-type classifier types as
// an article whose best block is under the threshold but not one the model
// rejects outright (at least kEmptiedArticleBest, the lower edge of the
// band the quality score counts as unsure), the threshold is scaled the
// same way and the page keeps its best blocks. News pages unlike any the
// model was trained on (Chinese portals) are otherwise left with no text
// although the gold holds an article; error, consent and empty category
// pages, whose gold is empty, have no block at 0.2 out of fold. Measured
// out of fold (docs/evaluation.md, "An article is never emptied"): first
// on pages typed as articles with 0.9 or more, then on every page typed
// as one.
inline constexpr double kSureProbability = 0.98;
inline constexpr double kEmptiedArticleBest = 0.2;
inline double page_threshold(double threshold, double best_probability, bool article = false) {
  if (best_probability >= kSureProbability) return threshold;
  if (best_probability < threshold && !(article && best_probability >= kEmptiedArticleBest)) return threshold;
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
// `page_cut`, the page's threshold; with `best`, the page's best block's
// probability (exact when under kSureProbability; at least that otherwise).
// `article`: the page is typed as an article (page_threshold).
Result<std::vector<uint8_t>> above_threshold(const TreeModel& model, const std::vector<float>& rows,
                                             std::size_t columns, double threshold, const StagedDecision& staged,
                                             const Deadline& deadline = {}, std::vector<float>* probability = nullptr,
                                             double* page_cut = nullptr, double* best = nullptr, bool article = false);

// Whether a page the page-type classifier types as other than an article
// is scored by the second block model (BlockModels::others,
// src/eval/train.h): only when the classifier gives it less than
// kOthersArticleProbability of being an article and the articles' model is
// sure of none of its blocks (its best under kSureProbability). The
// second model is fitted to listings, shops, threads and service pages
// alone and keeps too little of an article: a news article the classifier
// hesitates over, or whose body's paragraphs the articles' model is sure
// of, keeps the articles' model's verdict. Measured with daniel-dev left
// out of training (its articles typed by a classifier that never saw
// news in those languages, 27% as other types): 0.880 with one model,
// 0.822 with every such page taken by the second model, 0.837 with the
// model's guard alone, 0.866 with both; cross-validated by domain WCXB dev
// keeps nearly the whole gain with both (0.8645 against 0.8647;
// docs/evaluation.md, "A model of its own for pages that are not
// articles").
inline constexpr double kOthersArticleProbability = 0.1;
inline bool scored_by_others(std::string_view type, double article_probability, double articles_best) {
  return !type.empty() && type != kArticleType && article_probability < kOthersArticleProbability &&
         articles_best < kSureProbability;
}

// The models compiled into husk (config/models/), or an error saying why
// one cannot be loaded. The block model for pages typed as other than
// articles is a not-found error when none was compiled in.
Result<std::shared_ptr<const TreeModel>> builtin_block_model();
Result<std::shared_ptr<const TreeModel>> builtin_others_block_model();
Result<std::shared_ptr<const TreeModel>> builtin_page_type_model();

// Where the block model for pages typed as other than articles lies beside
// a block model's file (husk train extract --others writes it there, and
// the learned extractor reads it from there): "_others" before the
// extension, blocks.ubj -> blocks_others.ubj.
std::string others_model_path(const std::string& block_model_path);

}  // namespace husk
