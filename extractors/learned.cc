// The learned extractor: gradient-boosted trees over block features
// (src/extract/features.h), trained by husk train extract on the WCXB
// development split with each block labelled by the gold text. The density
// extractor's verdict is one of the features, so the model starts from
// boilerpipe's answer and learns where pages of other kinds (service pages,
// listings, threads, products, documentation) need another one. A block is
// kept when its probability reaches its page's threshold: the model's own
// for an article, the model's threshold for other pages on a page the
// page-type classifier types as anything else (both chosen in
// cross-validation grouped by domain), scaled on a doubted page. A page
// typed as other than an article, of whose blocks the model is sure of
// none, is scored by the second model, fitted to such pages alone, when
// there is one (scored_by_others, src/extract/model.h).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "extract/features.h"
#include "extract/model.h"
#include "extract/page_type.h"
#include "extract/registry.h"

namespace husk {

namespace {

// The presets' block thresholds, for every page whatever its type (the
// model's own, chosen by cross-validation, are 0.50 and 0.30 for pages
// typed as other than articles; each is scaled on a doubted page,
// page_threshold). Measured with the built-in model (precision / recall,
// in-sample; docs/evaluation.md's presets table, which a test keeps true):
// 0.65 gives WCXB dev 0.912 / 0.910 and AEB 0.963 / 0.976 (0.876 / 0.949
// and 0.944 / 0.986 by default); 0.25 gives WCXB 0.841 / 0.962 and AEB
// 0.905 / 0.991. Past these points each side loses more of the other than
// it gains.
constexpr double kPrecisionThreshold = 0.65;
constexpr double kRecallThreshold = 0.25;

// A page under this many visible words that the model empties keeps what it
// shows (LearnedExtractor::emptied).
constexpr uint32_t kStubWords = 25;

class LearnedExtractor final : public Extractor {
 public:
  LearnedExtractor(const ExtractConfig& config, std::shared_ptr<const TreeModel> model,
                   std::shared_ptr<const TreeModel> others)
      : density_(make_density_extractor(config)),
        features_(config),
        model_(std::move(model)),
        others_(std::move(others)) {
    threshold_ = std::strtod(model_->attribute("threshold").c_str(), nullptr);
    if (threshold_ <= 0 || threshold_ >= 1) threshold_ = 0.5;
    // A model trained before page types had their own threshold has none.
    other_threshold_ = std::strtod(model_->attribute("other_threshold").c_str(), nullptr);
    if (other_threshold_ <= 0 || other_threshold_ >= 1) other_threshold_ = threshold_;
    if (config.preset == ExtractPreset::kPrecision) threshold_ = other_threshold_ = kPrecisionThreshold;
    if (config.preset == ExtractPreset::kRecall) threshold_ = other_threshold_ = kRecallThreshold;
  }

  std::string_view name() const override { return "learned"; }

  Labels extract(const PageView& page) const override {
    PageFeatures own;
    const PageFeatures* f = page.features;
    if (f == nullptr) {
      own = compute_page_features(features_, *density_, page);
      f = &own;
    }
    if (page.blocks.blocks.empty()) return f->density;
    std::vector<float> probability;
    double cut = 0, best = 0;
    const double threshold = type_threshold(page.page_type, threshold_, other_threshold_);
    const bool article = page.page_type == kArticleType;
    Result<std::vector<uint8_t>> keep = above_threshold(*model_, f->rows, features_.columns(), threshold,
                                                        kStagedDecision, page.deadline, &probability, &cut, &best,
                                                        article);
    if (keep.ok() && others_ && scored_by_others(page.page_type, page.article_probability, best))
      keep = above_threshold(*others_, f->rows, features_.columns(), threshold, kStagedDecision, page.deadline,
                             &probability, &cut);
    // Out of time: the processor fails the page; nothing more to compute.
    if (!keep.ok() && keep.status().code() == Code::kTimeout) return Labels{};
    if (!keep.ok() || keep->size() != page.blocks.blocks.size()) {
      Labels density = f->density;
      density.warnings.push_back("the block model failed (" + keep.status().message() + "); density used");
      return density;
    }
    Labels out;
    out.keep = std::move(*keep);
    out.threshold = cut;
    const bool kept_any = std::find(out.keep.begin(), out.keep.end(), 1) != out.keep.end();
    if (article && best < threshold && kept_any)
      out.warnings.push_back("the block model rated no block at its threshold; the page is an article, so it keeps "
                             "its best blocks");
    if (!kept_any && visible_words(page.blocks) < kStubWords) out = emptied(page, f->density);
    out.probability = std::move(probability);
    return out;
  }

  // A page of a few words the model empties (a notice, a stub, a fragment:
  // the gold sets hold too few for the model to learn that they are the
  // page) is what it shows: density's verdict, and when density keeps
  // nothing either, every block. Larger pages the model empties are left
  // empty: on WCXB dev, of 17 such pages 11 have an empty gold (error and
  // consent pages) and only those under kStubWords gained from a fallback.
  static Labels emptied(const PageView& page, const Labels& density) {
    Labels out = density;
    if (std::find(out.keep.begin(), out.keep.end(), 1) == out.keep.end())
      out.keep.assign(page.blocks.blocks.size(), 1);
    out.warnings.push_back("the block model kept nothing on this page; " +
                           std::string(out.keep == density.keep ? "density's blocks" : "every block") + " kept");
    return out;
  }

  // The model takes the features it was trained on, in order.
  Status check() const {
    if (model_->feature_names() != features_.names() || (others_ && others_->feature_names() != features_.names()))
      return Status(Code::kInvalidArgument,
                    "the block model was trained on other features than husk computes (retrain it: husk train extract)");
    return Status();
  }

 private:
  std::unique_ptr<Extractor> density_;
  FeatureExtractor features_;
  std::shared_ptr<const TreeModel> model_;
  std::shared_ptr<const TreeModel> others_;  // for pages typed as other than articles; may be null
  double threshold_ = 0.5, other_threshold_ = 0.5;
};

Result<std::shared_ptr<const TreeModel>> load_block_model(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(Code::kIo, path + ": cannot open the block model");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in.good() && !in.eof()) return Status(Code::kIo, path + ": read failed");
  return TreeModel::load(bytes.str(), path);
}

// The second model: the built-in one beside the built-in block model, the
// file beside a block model's file (others_model_path); null where there is
// none.
Result<std::shared_ptr<const TreeModel>> load_others_model(const std::string& path) {
  if (path.empty()) {
    Result<std::shared_ptr<const TreeModel>> builtin = builtin_others_block_model();
    if (!builtin.ok() && builtin.status().code() == Code::kNotFound) return std::shared_ptr<const TreeModel>();
    return builtin;
  }
  const std::string others = others_model_path(path);
  std::error_code ec;
  if (!std::filesystem::exists(others, ec)) return std::shared_ptr<const TreeModel>();
  return load_block_model(others);
}

}  // namespace

Result<std::unique_ptr<Extractor>> make_learned_extractor(const ExtractConfig& config) {
  Result<std::shared_ptr<const TreeModel>> model =
      config.block_model.empty() ? builtin_block_model() : load_block_model(config.block_model);
  if (!model.ok()) return model.status();
  Result<std::shared_ptr<const TreeModel>> others = load_others_model(config.block_model);
  if (!others.ok()) return others.status();
  auto extractor = std::make_unique<LearnedExtractor>(config, *model, *others);
  if (Status st = extractor->check(); !st.ok()) return st;
  return std::unique_ptr<Extractor>(std::move(extractor));
}

}  // namespace husk
