#include "record/record.h"

#include <cmath>
#include <optional>

#include "husk/corpus.h"
#include "record/signature_json.h"

namespace husk {

namespace {

using Json = nlohmann::ordered_json;
using Value = std::optional<Json>;  // nullopt: the record leaves the field out

Json or_null(const std::string& s) { return s.empty() ? Json() : Json(s); }

Json or_null(const std::vector<std::string>& v) { return v.empty() ? Json() : Json(v); }

Value or_absent(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return Json(s);
}

Json rounded(double x, double scale) { return std::round(x * scale) / scale; }

// A page-part field: its declaration and its value (PageResult -> JSON).
struct PageField {
  RecordField field;
  Value (*value)(const PageResult& r);
};

constexpr RecordPart kPage = RecordPart::kPage;

// The page part, in record order: the page's own fields, then its metadata
// (null when the page does not say; docs/cli.md, "Metadata", gives each
// one's sources).
const PageField kPageFields[] = {
    {{"id", "string", "always: the input's id (a WARC record's, a JSON record's), else a hash of the URL, else of the bytes", kPage},
     [](const PageResult& r) -> Value { return Json(r.id); }},
    {{"url", "string", "always; empty when the page came without one", kPage},
     [](const PageResult& r) -> Value { return Json(r.url); }},
    {{"status", "integer or null", "the HTTP status of a WARC response or a fetched URL, else null", kPage},
     [](const PageResult& r) -> Value { return r.http_status != 0 ? Json(r.http_status) : Json(); }},
    {{"title", "string", "always: the headline", kPage}, [](const PageResult& r) -> Value { return Json(r.title); }},
    {{"text", "string", "always, but for the service's answers with text=false: the clean text", kPage},
     [](const PageResult& r) -> Value { return Json(r.text); }},
    {{"markdown", "string", "with --with-markdown (Python: format=\"markdown\"), when there is text", kPage},
     [](const PageResult& r) -> Value { return or_absent(r.markdown); }},
    {{"html", "string", "with --with-html (Python: format=\"html\"), when there is text", kPage},
     [](const PageResult& r) -> Value { return or_absent(r.html); }},
    {{"comments", "string", "with --comments, when the page has a comment section", kPage},
     [](const PageResult& r) -> Value { return or_absent(r.comments); }},
    {{"extractor", "string", "always: the extractor that labelled the page", kPage},
     [](const PageResult& r) -> Value { return Json(r.extractor); }},
    {{"boilerplate", "number", "always: the share of the page's visible words extraction removed, 0-1", kPage},
     [](const PageResult& r) -> Value { return rounded(r.boilerplate, 10000.0); }},
    {{"quality", "number", "always: how likely the text is right, 0-1", kPage},
     [](const PageResult& r) -> Value { return rounded(r.quality, 10000.0); }},
    {{"page_type", "string or null", "article, collection, documentation, forum, listing, product or service; null without text", kPage},
     [](const PageResult& r) -> Value { return or_null(r.page_type); }},
    {{"language", "string or null", "the clean text's language, a BCP 47 tag (\"en\", \"zh-Hant\")", kPage},
     [](const PageResult& r) -> Value { return or_null(r.language.code); }},
    {{"language_confidence", "number or null", "0-1, null when language is", kPage},
     [](const PageResult& r) -> Value {
       return r.language.code.empty() ? Json() : rounded(r.language.confidence, 100.0);
     }},
// The metadata, one row per field of husk/metadata.h's list.
#define HUSK_METADATA_ROW(member, key, type, json_type, present) \
  {{key, json_type, present, kPage}, [](const PageResult& r) -> Value { return or_null(r.metadata.member); }},
    HUSK_METADATA_FIELDS(HUSK_METADATA_ROW)
#undef HUSK_METADATA_ROW
};

// The verdict and the outcome: written by add_verdict and add_outcome,
// whose inputs are not the page's.
const RecordField kOtherFields[] = {
    {"sig", "object or null", "the page's signatures (encoding: docs/cli.md, husk sign); null without", RecordPart::kVerdict},
    {"duplicate_of", "object or null", "{id, url, measure, score} of the stored page this one nearly repeats, else null", RecordPart::kVerdict},
    {"cluster", "string or null", "the id of the page's cluster in the index, null without a verdict", RecordPart::kVerdict},
    {"warnings", "list of strings", "when there are any", RecordPart::kOutcome},
    {"error", "string", "when the page failed (its text is then empty)", RecordPart::kOutcome},
};

}  // namespace

const std::vector<RecordField>& record_fields() {
  static const std::vector<RecordField> fields = [] {
    std::vector<RecordField> out;
    for (const PageField& f : kPageFields) out.push_back(f.field);
    for (const RecordField& f : kOtherFields) out.push_back(f);
    return out;
  }();
  return fields;
}

nlohmann::ordered_json page_record(const PageResult& r, bool with_text) {
  Json j;
  for (const PageField& f : kPageFields) {
    if (!with_text && f.field.name == "text") continue;
    if (Value v = f.value(r)) j[std::string(f.field.name)] = std::move(*v);
  }
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
    if (!m.contained.empty()) j["duplicate_of"]["contained"] = m.contained;
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

nlohmann::ordered_json cluster_record(const nlohmann::ordered_json& cluster, const std::string& main,
                                      const std::vector<std::string>& members,
                                      const std::vector<std::string>* urls) {
  Json j;
  j["cluster"] = cluster;
  j["size"] = members.size();
  j["main"] = main;
  j["members"] = members;
  if (urls != nullptr) j["urls"] = *urls;
  return j;
}

std::string index_stats_json(const IndexStats& s, int indent) {
  const nlohmann::ordered_json j{{"pages", s.pages},
                                 {"clusters", s.clusters},
                                 {"duplicates", s.duplicates},
                                 {"band_postings", s.band_postings},
                                 {"simhash_postings", s.simhash_postings},
                                 {"bytes_on_disk", s.bytes_on_disk},
                                 {"used_bytes", s.used_bytes}};
  return j.dump(indent);
}

nlohmann::ordered_json pair_record(const std::string& a, const std::string& b, const std::string& url_a,
                                   const std::string& url_b, const std::string& measure, float score,
                                   uint8_t contained) {
  Json j;
  j["a"] = a;
  j["b"] = b;
  j["url_a"] = url_a;
  j["url_b"] = url_b;
  j["measure"] = measure;
  j["score"] = score;
  if (contained != 0) j["contained"] = contained == 1 ? "a" : "b";
  return j;
}

std::string cluster_json(std::size_t index, const CorpusCluster& cluster) {
  return json_line(cluster_record(index, cluster.main, cluster.members, &cluster.urls));
}

std::string json_line(const nlohmann::ordered_json& record) {
  return record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace husk
