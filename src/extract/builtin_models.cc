// The models of config/models/ compiled into husk (src/extract/models.S):
// each as XGBoost saved it and as husk packed it at build time
// (src/extract/pack_model_main.cc).
#include <string>

#include "extract/model.h"

extern "C" {
extern const char husk_block_model_begin[], husk_block_model_end[];
extern const char husk_block_trees_begin[], husk_block_trees_end[];
extern const char husk_others_block_model_begin[], husk_others_block_model_end[];
extern const char husk_others_block_trees_begin[], husk_others_block_trees_end[];
extern const char husk_page_type_model_begin[], husk_page_type_model_end[];
extern const char husk_page_type_trees_begin[], husk_page_type_trees_end[];
}

namespace husk {

namespace {

std::string_view between(const char* begin, const char* end) {
  return end > begin ? std::string_view(begin, static_cast<std::size_t>(end - begin)) : std::string_view();
}

Result<std::shared_ptr<const TreeModel>> builtin(std::string_view original, std::string_view packed,
                                                 const std::string& name) {
  if (original.empty() || packed.empty()) return Status(Code::kNotFound, "no " + name + " was compiled in");
  return TreeModel::load_packed(packed, original, name);
}

}  // namespace

// The built-in models live until the process ends and are never freed:
// XGBoost's own static objects may be gone by the time ours would be
// destroyed at exit.
Result<std::shared_ptr<const TreeModel>> builtin_block_model() {
  static const auto* model = new Result<std::shared_ptr<const TreeModel>>(
      builtin(between(husk_block_model_begin, husk_block_model_end),
              between(husk_block_trees_begin, husk_block_trees_end), "config/models/blocks.ubj"));
  return *model;
}

Result<std::shared_ptr<const TreeModel>> builtin_others_block_model() {
  static const auto* model = new Result<std::shared_ptr<const TreeModel>>(
      builtin(between(husk_others_block_model_begin, husk_others_block_model_end),
              between(husk_others_block_trees_begin, husk_others_block_trees_end), "config/models/blocks_others.ubj"));
  return *model;
}

Result<std::shared_ptr<const TreeModel>> builtin_page_type_model() {
  static const auto* model = new Result<std::shared_ptr<const TreeModel>>(
      builtin(between(husk_page_type_model_begin, husk_page_type_model_end),
              between(husk_page_type_trees_begin, husk_page_type_trees_end), "config/models/page_type.ubj"));
  return *model;
}

std::string others_model_path(const std::string& block_model_path) {
  const std::size_t slash = block_model_path.find_last_of('/');
  const std::size_t dot = block_model_path.find_last_of('.');
  const std::size_t at = dot == std::string::npos || (slash != std::string::npos && dot < slash) || dot == slash + 1
                             ? block_model_path.size()
                             : dot;
  return block_model_path.substr(0, at) + "_others" + block_model_path.substr(at);
}

}  // namespace husk
