// A gradient-boosted tree model (XGBoost) over rows of features: the
// learned extractor's block model and the page-type classifier. Models are
// trained by husk train from a WCXB-layout split and compiled into husk;
// each carries the names of the features it was trained on and husk's own
// settings (the block model's threshold) as attributes.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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

  const std::vector<std::string>& feature_names() const { return feature_names_; }
  // An attribute set at training ("threshold", "types"), or empty.
  std::string attribute(const std::string& key) const;

  struct Handle;

 private:
  TreeModel();
  std::unique_ptr<Handle> handle_;
  std::vector<std::string> feature_names_;
  std::map<std::string, std::string> attributes_;
};

// The models compiled into husk (config/models/), or an error saying why
// one cannot be loaded.
Result<std::shared_ptr<const TreeModel>> builtin_block_model();
Result<std::shared_ptr<const TreeModel>> builtin_page_type_model();

}  // namespace husk
