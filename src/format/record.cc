#include "format/record.h"

#include <cmath>

#include "sign/signature_json.h"

namespace husk {

namespace {

nlohmann::ordered_json or_null(const std::string& s) {
  return s.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(s);
}

nlohmann::ordered_json or_null(const std::vector<std::string>& v) {
  return v.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(v);
}

}  // namespace

nlohmann::ordered_json page_record(const PageResult& r, bool with_text) {
  nlohmann::ordered_json j = {{"id", r.id}, {"url", r.url}};
  j["status"] = r.http_status != 0 ? nlohmann::ordered_json(r.http_status) : nlohmann::ordered_json();
  j["title"] = r.title;
  if (with_text) j["text"] = r.text;
  if (!r.markdown.empty()) j["markdown"] = r.markdown;
  if (!r.html.empty()) j["html"] = r.html;
  if (!r.comments.empty()) j["comments"] = r.comments;
  j["extractor"] = r.extractor;
  j["boilerplate"] = std::round(r.boilerplate * 10000.0) / 10000.0;
  j["quality"] = std::round(r.quality * 10000.0) / 10000.0;
  add_metadata(j, r);
  return j;
}

void add_verdict(nlohmann::ordered_json& j, const std::optional<Signatures>& signatures, const Verdict* verdict) {
  j["sig"] = signatures ? signatures_to_json(*signatures) : nlohmann::ordered_json(nullptr);
  put_verdict(j, verdict);
}

void put_verdict(nlohmann::ordered_json& j, const Verdict* verdict) {
  if (verdict != nullptr && verdict->duplicate_of) {
    const Match& m = *verdict->duplicate_of;
    j["duplicate_of"] = {{"id", m.id}, {"url", m.url}, {"measure", m.measure}, {"score", m.score}};
  } else {
    j["duplicate_of"] = nullptr;
  }
  j["cluster"] = verdict != nullptr ? nlohmann::ordered_json(verdict->cluster) : nlohmann::ordered_json(nullptr);
}

std::string verdict_json(const Verdict& verdict) {
  nlohmann::ordered_json j;
  put_verdict(j, &verdict);
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void add_outcome(nlohmann::ordered_json& j, const std::vector<std::string>& warnings, const Status& error) {
  if (!warnings.empty()) j["warnings"] = warnings;
  if (!error.ok()) j["error"] = error.to_string();
}

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
