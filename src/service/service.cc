#include "service/service.h"

#include <cstdio>

#include <chrono>
#include <exception>
#include <nlohmann/json.hpp>

#include "base/text_util.h"
#include "husk/dedup.h"
#include "record/record.h"
#include "record/signature_json.h"

namespace husk {

namespace {

// Latency histogram bounds in seconds (Prometheus' default buckets).
constexpr double kBounds[] = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};

std::string error_json(const std::string& message) {
  return nlohmann::json({{"error", message}}).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

ServiceResponse error_response(int status, const std::string& message) {
  return ServiceResponse{status, "application/json", error_json(message)};
}

// "/v1/pages/ID" -> "ID". The path arrives percent-decoded (the HTTP
// layer decodes it), so every id a page was stored under, a batch line's
// "doc-1" or "a/b" included, is addressed by its percent-encoding.
std::optional<std::string> id_after(std::string_view path, std::string_view prefix) {
  if (!path.starts_with(prefix) || path.size() == prefix.size()) return std::nullopt;
  return std::string(path.substr(prefix.size()));
}

// A page posted as JSON without saying so (curl -d sends
// application/x-www-form-urlencoded): an object with "html" is never a
// page's HTML.
bool looks_like_json_page(std::string_view body) {
  const std::size_t first = body.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || body[first] != '{') return false;
  nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  return j.is_object() && j.contains("html");
}

std::string header(const ServiceRequest& r, const std::string& name) {
  auto it = r.headers.find(name);
  return it == r.headers.end() ? std::string() : it->second;
}

}  // namespace

Service::Service(const Processor& processor, Index& index, ServiceOptions options)
    : processor_(processor), index_(index), options_(options), buckets_(std::size(kBounds) + 1, 0) {}

std::vector<Posted> Service::post(const std::vector<RawPage>& pages) {
  std::vector<Posted> out(pages.size());
  for (std::size_t i = 0; i < pages.size(); ++i) out[i].page = processor_.process(pages[i]);
  std::vector<const PageResult*> indexable;
  std::vector<std::size_t> where;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const PageResult& p = out[i].page;
    if (!p.status.ok()) {
      out[i].verdict = p.status;
    } else if (!p.signatures) {
      out[i].verdict = Status(Code::kInvalidArgument, "no text to sign: not indexed");
    } else {
      indexable.push_back(&p);
      where.push_back(i);
    }
  }
  if (!indexable.empty()) {
    std::vector<Result<Verdict>> verdicts = index_.add(indexable);
    for (std::size_t k = 0; k < where.size(); ++k) out[where[k]].verdict = std::move(verdicts[k]);
  }
  return out;
}

std::string Service::answer_json(const Posted& posted, bool with_text) {
  const PageResult& p = posted.page;
  nlohmann::ordered_json j = page_record(p, with_text);
  const Verdict* v = posted.verdict.ok() ? &*posted.verdict : nullptr;
  add_verdict(j, p.signatures, v);
  std::vector<std::string> warnings = p.warnings;
  if (v != nullptr && v->paragraphs_dropped > 0) {
    if (with_text && v->text) j["text"] = *v->text;
    warnings.push_back(seen_paragraphs_warning(v->paragraphs_dropped));
  }
  // A page with nothing to sign is answered, not indexed: a warning. Any
  // other failure to index is the page's error.
  const bool unsigned_page = p.status.ok() && !p.signatures;
  if (unsigned_page) warnings.push_back(posted.verdict.status().message());
  Status error = p.status;
  if (error.ok() && !posted.verdict.ok() && !unsigned_page) error = posted.verdict.status();
  add_outcome(j, warnings, error);
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void Service::count_error(const std::string& kind) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++errors_[kind];
}

ServiceResponse Service::handle(const ServiceRequest& request) {
  auto start = std::chrono::steady_clock::now();
  std::string endpoint = "other";
  ServiceResponse response;
  if (++inflight_ > options_.max_inflight) {
    response = error_response(503, "too many requests in flight; retry later");
    count_error("overloaded");
  } else {
    // Whatever a handler throws is this request's error, never the
    // service's end.
    try {
      response = route(request, endpoint);
    } catch (const std::exception& e) {
      response = error_response(500, std::string("internal: ") + e.what());
      count_error("internal");
    }
  }
  --inflight_;
  if (endpoint == "metrics") return response;
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::lock_guard<std::mutex> lock(mutex_);
  ++requests_[endpoint + "\t" + std::to_string(response.status)];
  std::size_t i = 0;
  while (i < std::size(kBounds) && seconds > kBounds[i]) ++i;
  ++buckets_[i];
  latency_sum_ += seconds;
  ++latency_count_;
  return response;
}

ServiceResponse Service::route(const ServiceRequest& r, std::string& endpoint) {
  auto fail = [&](int status, const std::string& kind, const std::string& message) {
    count_error(kind);
    return error_response(status, message);
  };
  auto query = [&](const std::string& key) {
    auto it = r.query.find(key);
    return it == r.query.end() ? std::string() : it->second;
  };
  const bool with_text = query("text") != "0";
  if (r.method == "POST" && r.path == "/v1/pages") {
    endpoint = "pages";
    // Media types are case-insensitive (RFC 9110, section 8.3.1); the
    // charset parameter keeps its case for the decoder.
    const std::string type = header(r, "content-type");
    const std::string media = ascii_lower(trim(type.substr(0, type.find(';'))));
    if (r.body.empty()) return fail(400, "empty", "empty body: post a page's HTML or {\"url\", \"html\"}");
    RawPage page;
    // A type that names no format (curl's default for --data-binary is
    // application/x-www-form-urlencoded; plain text and octet streams are
    // what tools send when they do not know) is sniffed: the body is the
    // page's HTML unless it is binary.
    const bool generic = media.empty() || media == "application/x-www-form-urlencoded" ||
                         media == "application/octet-stream" || media == "text/plain";
    if (media == "application/json" || (generic && looks_like_json_page(r.body))) {
      Result<RawPage> parsed = page_from_json(r.body);
      if (!parsed.ok())
        return fail(400, "bad_json", "malformed JSON: " + parsed.status().message() + "; expected {\"url\": ..., \"html\": ...}");
      page = std::move(*parsed);
    } else if (generic || media == "text/html" || media == "application/xhtml+xml") {
      if (looks_binary(r.body, type)) return fail(415, "binary", "the body is binary, not HTML");
      page.url = header(r, "x-url");
      page.bytes = r.body;
      if (!generic) page.content_type = type;
    } else {
      return fail(415, "content_type", "unsupported Content-Type " + type + ": send text/html or application/json");
    }
    page.id = page_id(page.url, page.bytes);
    Posted posted = std::move(post({page}).front());
    int status = 200;
    if (!posted.page.status.ok()) {
      count_error(posted.page.status.code() == Code::kTimeout ? "timeout" : "page");
      status = 422;
    } else if (!posted.verdict.ok() && posted.page.signatures) {
      // A page the index refuses (an id too long) is the client's error;
      // a full index is 507 Insufficient Storage (RFC 4918, section
      // 11.5); any other failure to index is the server's.
      const Code code = posted.verdict.status().code();
      const bool refused = code == Code::kInvalidArgument;
      count_error(refused ? "page" : code == Code::kLimit ? "full" : "io");
      status = refused ? 422 : code == Code::kLimit ? 507 : 500;
    }
    return ServiceResponse{status, "application/json", answer_json(posted, with_text)};
  }
  if (r.method == "POST" && r.path == "/v1/pages:batch") {
    endpoint = "batch";
    if (r.body.empty()) return fail(400, "empty", "empty body: post JSONL of {\"url\", \"html\"}");
    std::vector<RawPage> pages;
    std::vector<std::string> bad;  // per line, "" when the line is a page
    std::size_t start = 0, line_no = 0;
    while (start < r.body.size()) {
      std::size_t nl = r.body.find('\n', start);
      if (nl == std::string::npos) nl = r.body.size();
      std::string_view line(r.body.data() + start, nl - start);
      start = nl + 1;
      ++line_no;
      if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      Result<RawPage> page = page_from_json(line);
      if (!page.ok()) {
        bad.push_back("line " + std::to_string(line_no) + ": " + page.status().message() +
                      "; expected {\"url\", \"html\"}");
        continue;
      }
      if (page->id.empty()) page->id = page_id(page->url, page->bytes);
      pages.push_back(std::move(*page));
      bad.emplace_back();
    }
    std::vector<Posted> posted = post(pages);
    std::string out;
    for (std::size_t i = 0, k = 0; i < bad.size(); ++i)
      out += (bad[i].empty() ? answer_json(posted[k++], with_text) : error_json(bad[i])) + "\n";
    return ServiceResponse{200, "application/x-ndjson", out};
  }
  if (auto id = id_after(r.path, "/v1/pages/")) {
    if (r.method == "GET") {
      endpoint = "get";
      auto record = index_.get(*id);
      if (!record.ok()) return fail(500, record.status().code() == Code::kCorrupt ? "damaged" : "io",
                                    record.status().message());
      if (!*record) return fail(404, "not_found", "no page " + *id);
      return ServiceResponse{200, "application/json", **record};
    }
    if (r.method == "DELETE") {
      endpoint = "delete";
      Result<bool> removed = index_.remove(*id);
      if (!removed.ok())
        return removed.status().code() == Code::kLimit ? fail(507, "full", removed.status().message())
                                                       : fail(500, "io", removed.status().message());
      if (!*removed) return fail(404, "not_found", "no page " + *id);
      return ServiceResponse{200, "application/json", nlohmann::json({{"deleted", *id}}).dump()};
    }
  }
  if (auto id = id_after(r.path, "/v1/clusters/"); id && r.method == "GET") {
    endpoint = "cluster";
    auto c = index_.cluster(*id);
    if (!c) return fail(404, "not_found", "no cluster " + *id);
    return ServiceResponse{200, "application/json", *c};
  }
  if (r.method == "GET" && r.path == "/healthz") {
    endpoint = "healthz";
    // A full index still answers and deletes, so the service is alive;
    // the status says that it takes no more pages.
    IndexStats s = index_.stats();
    const bool full = s.used_bytes >= s.limit_bytes;
    nlohmann::ordered_json j = {{"status", full ? "full" : "ok"}, {"used_bytes", s.used_bytes},
                                {"limit_bytes", s.limit_bytes}};
    return ServiceResponse{200, "application/json", j.dump()};
  }
  if (r.method == "GET" && r.path == "/metrics") {
    endpoint = "metrics";
    return ServiceResponse{200, "text/plain; version=0.0.4", metrics_text()};
  }
  return fail(404, "not_found", "no such endpoint: " + r.method + " " + r.path);
}

std::string Service::metrics_text() {
  IndexStats s = index_.stats();
  std::lock_guard<std::mutex> lock(mutex_);
  std::string out = "# TYPE husk_requests_total counter\n";
  for (const auto& [key, n] : requests_) {
    std::size_t tab = key.find('\t');
    out += "husk_requests_total{endpoint=\"" + key.substr(0, tab) + "\",status=\"" + key.substr(tab + 1) + "\"} " +
           std::to_string(n) + "\n";
  }
  out += "# TYPE husk_request_seconds histogram\n";
  uint64_t cumulative = 0;
  for (std::size_t i = 0; i < std::size(kBounds); ++i) {
    cumulative += buckets_[i];
    out += "husk_request_seconds_bucket{le=\"" + std::to_string(kBounds[i]) + "\"} " + std::to_string(cumulative) + "\n";
  }
  out += "husk_request_seconds_bucket{le=\"+Inf\"} " + std::to_string(latency_count_) + "\n";
  out += "husk_request_seconds_sum " + std::to_string(latency_sum_) + "\nhusk_request_seconds_count " +
         std::to_string(latency_count_) + "\n";
  out += "# TYPE husk_errors_total counter\n";
  for (const auto& [kind, n] : errors_) out += "husk_errors_total{kind=\"" + kind + "\"} " + std::to_string(n) + "\n";
  out += "# TYPE husk_pages_indexed gauge\nhusk_pages_indexed " + std::to_string(s.pages) + "\n";
  out += "# TYPE husk_clusters gauge\nhusk_clusters " + std::to_string(s.clusters) + "\n";
  out += "# TYPE husk_duplicates_found gauge\nhusk_duplicates_found " + std::to_string(s.duplicates) + "\n";
  out += "# TYPE husk_index_used_bytes gauge\nhusk_index_used_bytes " + std::to_string(s.used_bytes) + "\n";
  out += "# TYPE husk_index_limit_bytes gauge\nhusk_index_limit_bytes " + std::to_string(s.limit_bytes) + "\n";
  // The decision rule, as an info metric: which candidates are searched,
  // the measure that decides and its threshold.
  const IndexOptions& o = index_.options();
  char threshold[32];
  std::snprintf(threshold, sizeof(threshold), "%g", o.threshold);
  const bool containment = o.measure == "containment";
  out += "# TYPE husk_dedup_decision gauge\nhusk_dedup_decision{candidates=\"" +
         std::string(containment ? "sketch_values" : o.simhash ? "minhash_bands+simhash_tables" : "minhash_bands") +
         "\",measure=\"" + o.measure + "\",threshold=\"" + threshold + "\",min_shingles=\"" + std::to_string(o.min_shingles) +
         "\"} 1\n";
  return out;
}

}  // namespace husk
