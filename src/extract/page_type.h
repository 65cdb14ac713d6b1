// The page-type classifier: which of the seven kinds of page of the WCXB
// benchmark (article, collection, documentation, forum, listing, product,
// service) a page is, from its page row (FeatureExtractor::page_row:
// schema.org and OpenGraph types, URL shape, how much of it lists, tables,
// code, prices and repeated items hold, where its words sit). Gradient-
// boosted trees trained by husk train page-type, compiled into husk.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "extract/features.h"
#include "extract/model.h"

namespace husk {

struct PageType {
  std::string name;        // "article", ...; empty when no classifier is compiled in
  float probability = 0;   // the classifier's for that type
};

class PageTyper {
 public:
  // The classifier compiled into husk; fails when it was not trained on
  // the features husk computes.
  static Result<std::unique_ptr<PageTyper>> builtin(const FeatureExtractor& features);

  PageType classify(const FeatureExtractor& features, const std::vector<float>& rows) const;
  const std::vector<std::string>& types() const { return types_; }

 private:
  std::shared_ptr<const TreeModel> model_;
  std::vector<std::string> types_;
};

}  // namespace husk
