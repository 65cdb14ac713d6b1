#include "format/record.h"

#include <cmath>

namespace husk {

namespace {

nlohmann::ordered_json or_null(const std::string& s) {
  return s.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(s);
}

nlohmann::ordered_json or_null(const std::vector<std::string>& v) {
  return v.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(v);
}

}  // namespace

void add_metadata(nlohmann::ordered_json& j, const PageResult& r) {
  const Metadata& m = r.metadata;
  j["page_type"] = or_null(r.page_type);
  j["author"] = or_null(m.authors);
  j["date_published"] = or_null(m.date_published);
  j["date_modified"] = or_null(m.date_modified);
  j["sitename"] = or_null(m.sitename);
  j["description"] = or_null(m.description);
  j["language"] = or_null(r.language.code);
  j["language_confidence"] = r.language.code.empty()
                                 ? nlohmann::ordered_json()
                                 : nlohmann::ordered_json(std::round(r.language.confidence * 100.0) / 100.0);
  j["canonical_url"] = or_null(m.canonical_url);
  j["image"] = or_null(m.image);
  j["tags"] = or_null(m.tags);
  j["categories"] = or_null(m.categories);
  j["license"] = or_null(m.license);
}

}  // namespace husk
