#include "extract/page_type.h"

#include <algorithm>

namespace husk {

Result<std::unique_ptr<PageTyper>> PageTyper::builtin(const FeatureExtractor& features) {
  Result<std::shared_ptr<const TreeModel>> model = builtin_page_type_model();
  if (!model.ok()) return model.status();
  if ((*model)->feature_names() != features.page_names())
    return Status(Code::kInvalidArgument,
                  "the page-type model was trained on other features than husk computes (retrain it: husk train "
                  "page-type)");
  auto typer = std::make_unique<PageTyper>();
  typer->model_ = *model;
  const std::string names = (*model)->attribute("types");
  for (std::size_t i = 0; i <= names.size();) {
    std::size_t j = names.find(',', i);
    if (j == std::string::npos) j = names.size();
    if (j > i) typer->types_.push_back(names.substr(i, j - i));
    i = j + 1;
  }
  if (typer->types_.size() < 2) return Status(Code::kInvalidArgument, "the page-type model names no types");
  typer->forum_ = static_cast<std::size_t>(std::find(typer->types_.begin(), typer->types_.end(), kForumType) -
                                           typer->types_.begin());
  typer->article_ = static_cast<std::size_t>(std::find(typer->types_.begin(), typer->types_.end(), kArticleType) -
                                             typer->types_.begin());
  return typer;
}

PageType PageTyper::classify(const FeatureExtractor& features, const std::vector<float>& rows) const {
  PageType out;
  std::vector<float> row = features.page_row(rows);
  Result<std::vector<float>> p = model_->predict(row, row.size());
  if (!p.ok() || p->size() != types_.size()) return out;
  std::size_t best = 0;
  for (std::size_t i = 1; i < p->size(); ++i)
    if ((*p)[i] > (*p)[best]) best = i;
  out.name = types_[best];
  out.probability = (*p)[best];
  if (forum_ < types_.size()) out.forum = (*p)[forum_];
  if (article_ < types_.size()) out.article = (*p)[article_];
  return out;
}

namespace {

// The least shape that settles a page of this type as an article, or
// kNone where its shape does not decide (settle_type, page_type.h).
ArticleShape settling_shape(const PageType& type) {
  if ((type.name == kArticleType && type.article < kSureArticleProbability) || type.name == "listing" ||
      (type.name == "collection" && type.article >= kOthersArticleProbability))
    return ArticleShape::kStory;
  if (type.name == "service") return ArticleShape::kDatedStory;
  return ArticleShape::kNone;
}

}  // namespace

bool shape_decides(const PageType& type) { return settling_shape(type) != ArticleShape::kNone; }

PageType settle_type(PageType type, ArticleShape shape) {
  const ArticleShape settling = settling_shape(type);
  if (settling != ArticleShape::kNone && shape >= settling) {
    type.classified_as = type.name;
    type.classified_article = type.article;
    type.name = std::string(kArticleType);
    type.article = std::max(type.article, kSureArticleProbability);
  }
  return type;
}

PageType settle_commented(PageType type, ArticleShape shape) {
  if (!taken_for_forum(type.name, type.forum) || type.article < kOthersArticleProbability ||
      shape < ArticleShape::kStory)
    return type;
  if (type.classified_as.empty()) {
    type.classified_as = type.name;
    type.classified_article = type.article;
  }
  type.name = std::string(kArticleType);
  type.article = std::max(type.article, kSureArticleProbability);
  type.forum = 0;
  type.comments_aside = true;
  return type;
}

}  // namespace husk
