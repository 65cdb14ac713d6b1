// The crawler's post-fetch hook as a service: pages in, their clean text,
// signatures and near-duplicate verdict out, indexed before the answer.
// Request handling is a function of the request alone (method, path,
// query, headers, body), so the HTTP server (husk serve), the pipe (husk
// hook) and the tests share it, sockets or not.
//
//   POST   /v1/pages         one page: HTML (X-Url header, Content-Type
//                            charset) or JSON {"url", "html"}; ?text=0
//                            leaves the text out of the answer
//   POST   /v1/pages:batch   JSONL of {"url", "html"}: one answer line per
//                            line, one commit for all
//   GET    /v1/pages/ID      the stored record
//   DELETE /v1/pages/ID
//   GET    /v1/clusters/ID   {"cluster", "size", "main", "members"}
//   GET    /healthz
//   GET    /metrics          Prometheus text: requests by endpoint and
//                            status, latency histogram, index counts
// Every answer but /metrics is JSON; every error is {"error": "..."}.
#pragma once

#include <atomic>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "husk/index.h"
#include "husk/processor.h"

namespace husk {

struct ServiceRequest {
  std::string method;  // "GET", "POST", "DELETE"
  std::string path;    // without the query
  std::map<std::string, std::string> query;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
};

struct ServiceResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

struct ServiceOptions {
  std::size_t max_inflight = 64;  // concurrent requests before 503
};

// A page as the service answers for it: the processor's result and the
// index's verdict (or why the page was not indexed).
struct Posted {
  PageResult page;
  Result<Verdict> verdict = Status(Code::kInvalidArgument, "not indexed");
};

class Service {
 public:
  Service(const Processor& processor, Index& index, ServiceOptions options = {});

  // Processes pages and indexes those that can be, in one commit.
  std::vector<Posted> post(const std::vector<RawPage>& pages);
  // The answer for a posted page, as one JSON line.
  static std::string answer_json(const Posted& posted, bool with_text);

  ServiceResponse handle(const ServiceRequest& request);

  // Counts a request the HTTP layer answered itself (a body over the
  // limit, a connection cut); `kind` names the error in /metrics.
  void count_error(const std::string& kind);

 private:
  ServiceResponse route(const ServiceRequest& request, std::string& endpoint);
  std::string metrics_text();

  const Processor& processor_;
  Index& index_;
  ServiceOptions options_;
  std::atomic<std::size_t> inflight_{0};
  std::mutex mutex_;
  std::map<std::string, uint64_t> requests_;  // "endpoint\tstatus"
  std::map<std::string, uint64_t> errors_;    // by kind
  std::vector<uint64_t> buckets_;
  double latency_sum_ = 0;
  uint64_t latency_count_ = 0;
};

}  // namespace husk
