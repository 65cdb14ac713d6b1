#include "extract/model.h"

#include <xgboost/c_api.h>

#include <cmath>
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
  return std::shared_ptr<const TreeModel>(std::move(model));
}

std::string TreeModel::attribute(const std::string& key) const {
  auto it = attributes_.find(key);
  return it == attributes_.end() ? std::string() : it->second;
}

Result<std::vector<float>> TreeModel::predict(const std::vector<float>& rows, std::size_t columns) const {
  std::vector<float> out;
  if (rows.empty() || columns == 0) return out;
  if (!feature_names_.empty() && columns != feature_names_.size())
    return Status(Code::kInvalidArgument, "the model takes " + std::to_string(feature_names_.size()) +
                                              " features, not " + std::to_string(columns));
  const std::size_t n = rows.size() / columns;
  char array[256];
  std::snprintf(array, sizeof(array),
                "{\"data\": [%llu, true], \"shape\": [%zu, %zu], \"typestr\": \"<f4\", \"version\": 3}",
                static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(rows.data())), n, columns);
  static const char* kConfig =
      "{\"type\": 0, \"training\": false, \"iteration_begin\": 0, \"iteration_end\": 0, \"strict_shape\": false, "
      "\"missing\": NaN, \"cache_id\": 0}";
  const bst_ulong* shape = nullptr;
  bst_ulong dim = 0;
  const float* result = nullptr;
  if (XGBoosterPredictFromDense(handle_->booster, array, kConfig, nullptr, &shape, &dim, &result) != 0)
    return xgboost_error("prediction");
  bst_ulong size = 1;
  for (bst_ulong d = 0; d < dim; ++d) size *= shape[d];
  out.assign(result, result + size);
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
