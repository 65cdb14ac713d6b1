#include "extract/model.h"

#include <xgboost/c_api.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <cstdio>
#include <mutex>

// The model files of config/models/, linked in by src/extract/models.S.
extern "C" {
extern const char husk_block_model_begin[], husk_block_model_end[];
extern const char husk_page_type_model_begin[], husk_page_type_model_end[];
}

namespace husk {

struct TreeModel::Handle {
  BoosterHandle booster = nullptr;
  ~Handle() {
    if (booster != nullptr) XGBoosterFree(booster);
  }
};

namespace {

Status xgboost_error(const std::string& what) { return Status(Code::kInternal, what + ": " + XGBGetLastError()); }

// XGBoost logs to stderr by default; a library call says nothing.
void quiet() {
  static std::once_flag once;
  std::call_once(once, [] { XGBSetGlobalConfig("{\"verbosity\": 0}"); });
}

}  // namespace

TreeModel::TreeModel() : handle_(std::make_unique<Handle>()) {}
TreeModel::~TreeModel() = default;

Result<std::shared_ptr<const TreeModel>> TreeModel::load(std::string_view bytes, const std::string& source) {
  quiet();
  std::shared_ptr<TreeModel> model(new TreeModel());
  if (XGBoosterCreate(nullptr, 0, &model->handle_->booster) != 0) return xgboost_error(source);
  BoosterHandle h = model->handle_->booster;
  if (XGBoosterLoadModelFromBuffer(h, bytes.data(), bytes.size()) != 0) return xgboost_error(source + ": cannot load");
  // One thread per prediction: a page is small, and the caller runs pages
  // in parallel.
  if (XGBoosterSetParam(h, "nthread", "1") != 0) return xgboost_error(source);
  bst_ulong count = 0;
  const char** names = nullptr;
  if (XGBoosterGetStrFeatureInfo(h, "feature_name", &count, &names) != 0) return xgboost_error(source);
  for (bst_ulong i = 0; i < count; ++i) model->feature_names_.emplace_back(names[i]);
  const char** keys = nullptr;
  if (XGBoosterGetAttrNames(h, &count, &keys) != 0) return xgboost_error(source);
  for (bst_ulong i = 0; i < count; ++i) {
    const char* value = nullptr;
    int found = 0;
    if (XGBoosterGetAttr(h, keys[i], &value, &found) == 0 && found) model->attributes_[keys[i]] = value;
  }
  if (XGBoosterBoostedRounds(h, &model->rounds_) != 0) return xgboost_error(source);
  // The base score, in log-odds: the whole model's raw score is the base
  // plus every tree's, so two halves' scores together count it once more.
  if (model->rounds_ >= 2) {
    std::vector<float> zero(std::max<std::size_t>(1, model->feature_names_.size()), 0.0f);
    const int half = model->rounds_ / 2;
    Result<std::vector<float>> all = model->run(zero.data(), 1, zero.size(), 1, 0, model->rounds_);
    Result<std::vector<float>> first = model->run(zero.data(), 1, zero.size(), 1, 0, half);
    Result<std::vector<float>> second = model->run(zero.data(), 1, zero.size(), 1, half, model->rounds_);
    if (!all.ok() || !first.ok() || !second.ok() || all->empty() || first->empty() || second->empty())
      return Status(Code::kInvalidArgument, source + ": cannot score the model's trees");
    model->base_margin_ = (*first)[0] + (*second)[0] - (*all)[0];
  }
  return std::shared_ptr<const TreeModel>(std::move(model));
}

std::string TreeModel::attribute(const std::string& key) const {
  auto it = attributes_.find(key);
  return it == attributes_.end() ? std::string() : it->second;
}

Result<std::vector<float>> TreeModel::run(const float* rows, std::size_t n, std::size_t columns, int type, int begin,
                                          int end) const {
  std::vector<float> out;
  if (n == 0 || columns == 0) return out;
  if (!feature_names_.empty() && columns != feature_names_.size())
    return Status(Code::kInvalidArgument, "the model takes " + std::to_string(feature_names_.size()) +
                                              " features, not " + std::to_string(columns));
  char array[256];
  std::snprintf(array, sizeof(array),
                "{\"data\": [%llu, true], \"shape\": [%zu, %zu], \"typestr\": \"<f4\", \"version\": 3}",
                static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(rows)), n, columns);
  char config[256];
  std::snprintf(config, sizeof(config),
                "{\"type\": %d, \"training\": false, \"iteration_begin\": %d, \"iteration_end\": %d, "
                "\"strict_shape\": false, \"missing\": NaN, \"cache_id\": 0}",
                type, begin, end);
  const bst_ulong* shape = nullptr;
  bst_ulong dim = 0;
  const float* result = nullptr;
  if (XGBoosterPredictFromDense(handle_->booster, array, config, nullptr, &shape, &dim, &result) != 0)
    return xgboost_error("prediction");
  bst_ulong size = 1;
  for (bst_ulong d = 0; d < dim; ++d) size *= shape[d];
  out.assign(result, result + size);
  return out;
}

Result<std::vector<float>> TreeModel::predict(const std::vector<float>& rows, std::size_t columns) const {
  if (columns == 0) return std::vector<float>();
  return run(rows.data(), rows.size() / columns, columns, 0, 0, 0);
}

Result<std::vector<float>> TreeModel::margins(const float* rows, std::size_t n, std::size_t columns, int begin,
                                              int end) const {
  Result<std::vector<float>> m = run(rows, n, columns, 1, begin, end);
  if (m.ok())
    for (float& v : *m) v -= base_margin_;
  return m;
}

namespace {

// How many of the first rounds' best rows are scored whole first when a
// page's best block is in doubt (above_threshold).
constexpr std::size_t kBestRows = 8;

// The margins of rows [0, n) for trees [begin, end), kDeadlineRows at a time.
Result<std::vector<float>> margins_by_chunk(const TreeModel& model, const float* rows, std::size_t n,
                                            std::size_t columns, int begin, int end, const Deadline& deadline) {
  std::vector<float> out;
  out.reserve(n);
  for (std::size_t from = 0; from < n; from += kDeadlineRows) {
    if (deadline.passed()) return Status(Code::kTimeout, "the page's time ran out while its blocks were scored");
    const std::size_t count = std::min(kDeadlineRows, n - from);
    Result<std::vector<float>> part = model.margins(rows + from * columns, count, columns, begin, end);
    if (!part.ok()) return part.status();
    if (part->size() != count) return Status(Code::kInternal, "the model gave " + std::to_string(part->size()) +
                                                                  " scores for " + std::to_string(count) + " rows");
    out.insert(out.end(), part->begin(), part->end());
  }
  return out;
}

}  // namespace

Result<std::vector<uint8_t>> above_threshold(const TreeModel& model, const std::vector<float>& rows,
                                             std::size_t columns, double threshold, const StagedDecision& staged,
                                             const Deadline& deadline, std::vector<float>* probability,
                                             double* page_cut) {
  std::vector<uint8_t> out;
  if (columns == 0 || rows.empty()) return out;
  const std::size_t n = rows.size() / columns;
  const float base = model.base_margin();
  auto margin_of = [&](double p) { return static_cast<float>(std::log(p / (1.0 - p))) - base; };
  const int all = model.rounds();
  const int share = static_cast<int>(staged.first_share * all);
  const int first = share > 0 && share < all ? share : all;
  Result<std::vector<float>> score = margins_by_chunk(model, rows.data(), n, columns, 0, first, deadline);
  if (!score.ok()) return score.status();
  if (score->size() != n) return Status(Code::kInternal, "the model gave " + std::to_string(score->size()) +
                                                             " scores for " + std::to_string(n) + " rows");
  // Rows the remaining rounds have scored (every row when there are none).
  std::vector<uint8_t> finished(n, first < all ? 0 : 1);
  auto finish = [&](auto&& wanted) -> Status {
    std::vector<std::size_t> open;
    std::vector<float> open_rows;
    for (std::size_t i = 0; i < n; ++i) {
      if (finished[i] || !wanted(i)) continue;
      open.push_back(i);
      open_rows.insert(open_rows.end(), rows.begin() + static_cast<std::ptrdiff_t>(i * columns),
                       rows.begin() + static_cast<std::ptrdiff_t>((i + 1) * columns));
    }
    if (open.empty()) return Status();
    Result<std::vector<float>> rest =
        margins_by_chunk(model, open_rows.data(), open.size(), columns, first, all, deadline);
    if (!rest.ok()) return rest.status();
    if (rest->size() != open.size()) return Status(Code::kInternal, "the model scored the wrong number of rows");
    for (std::size_t k = 0; k < open.size(); ++k) {
      (*score)[open[k]] += (*rest)[k];
      finished[open[k]] = 1;
    }
    return Status();
  };
  // The page's best block (page_threshold). Unless the first rounds already
  // put it beyond doubt, it is found by scoring whole the rows that may turn
  // out best: the remaining rounds move a row by less than the settled
  // margin, so a row that many log-odds below a whole score cannot overtake
  // it. The first rounds' few best go first; most pages need no more.
  float best = *std::max_element(score->begin(), score->end());
  const float sure = margin_of(kSureProbability);
  if (first < all && best < sure + staged.settled_margin) {
    std::vector<float> top(*score);
    const std::size_t few = std::min<std::size_t>(kBestRows, n);
    std::nth_element(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(few - 1), top.end(), std::greater<>());
    const float first_few = top[few - 1];
    if (Status st = finish([&](std::size_t i) { return (*score)[i] >= first_few; }); !st.ok()) return st;
    auto whole_best = [&] {
      float b = -std::numeric_limits<float>::infinity();
      for (std::size_t i = 0; i < n; ++i)
        if (finished[i]) b = std::max(b, (*score)[i]);
      return b;
    };
    best = whole_best();
    if (best < sure) {
      const float reach = best - staged.settled_margin;
      if (Status st = finish([&](std::size_t i) { return (*score)[i] > reach; }); !st.ok()) return st;
      best = whole_best();
    }
  }
  const double best_probability = 1.0 / (1.0 + std::exp(-(static_cast<double>(best) + base)));
  const double page = page_threshold(threshold, best_probability);
  if (page_cut != nullptr) *page_cut = page;
  const float cut = margin_of(page);
  if (Status st = finish([&](std::size_t i) { return std::fabs((*score)[i] - cut) < staged.settled_margin; });
      !st.ok())
    return st;
  out.resize(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = (*score)[i] >= cut;
  if (probability != nullptr) {
    probability->resize(n);
    for (std::size_t i = 0; i < n; ++i) (*probability)[i] = 1.0f / (1.0f + std::exp(-((*score)[i] + base)));
  }
  return out;
}

namespace {

Result<std::shared_ptr<const TreeModel>> builtin(const char* begin, const char* end, const std::string& name) {
  if (end <= begin) return Status(Code::kNotFound, "no " + name + " was compiled in");
  return TreeModel::load(std::string_view(begin, static_cast<std::size_t>(end - begin)), name);
}

}  // namespace

// The built-in models live until the process ends and are never freed:
// XGBoost's own static objects may be gone by the time ours would be
// destroyed at exit.
Result<std::shared_ptr<const TreeModel>> builtin_block_model() {
  static const auto* model = new Result<std::shared_ptr<const TreeModel>>(
      builtin(husk_block_model_begin, husk_block_model_end, "config/models/blocks.ubj"));
  return *model;
}

Result<std::shared_ptr<const TreeModel>> builtin_page_type_model() {
  static const auto* model = new Result<std::shared_ptr<const TreeModel>>(
      builtin(husk_page_type_model_begin, husk_page_type_model_end, "config/models/page_type.ubj"));
  return *model;
}

}  // namespace husk
