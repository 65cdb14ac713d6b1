// husk hook (the post-fetch hook over a pipe), husk serve (over HTTP) and
// husk db (the index's maintenance).
#include <httplib.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/records.h"
#include "husk/hook.h"

namespace husk::cli {

namespace {

std::string result_json(const HookResult& r, bool with_text) {
  nlohmann::ordered_json j;
  j["id"] = r.id;
  j["url"] = r.url;
  j["title"] = r.title;
  if (with_text) j["text"] = r.text;
  j["sig"] = nlohmann::json::parse(r.sig_json);
  if (r.duplicate_of) {
    j["duplicate_of"] = {{"id", *r.duplicate_of}, {"url", *r.duplicate_url}, {"measure", *r.duplicate_measure}};
  } else {
    j["duplicate_of"] = nullptr;
  }
  j["cluster"] = r.cluster.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.cluster);
  j["warnings"] = r.warnings;
  if (!r.error.empty()) j["error"] = r.error;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string error_json(const std::string& message) { return nlohmann::json({{"error", message}}).dump(); }

Result<std::unique_ptr<Hook>> open_hook(const std::string& db, bool fsync_each_commit = false,
                                        const std::string& templates = "") {
  HookOptions options;
  options.db = db;
  options.fsync_each_commit = fsync_each_commit;
  options.templates = templates;
  return Hook::open(options);
}

// ---- husk hook ----

struct HookArgs {
  std::string db;
  bool text = true;
};

int run_hook(const HookArgs& args) {
  auto hook = open_hook(args.db);
  if (!hook.ok()) {
    std::fprintf(stderr, "husk hook: %s\n", hook.status().message().c_str());
    return 1;
  }
  std::ios::sync_with_stdio(false);
  std::vector<Status> errors = for_each_line({"-"}, [&](RecordLine&& line) {
    nlohmann::json j = nlohmann::json::parse(line.text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("html") || !j["html"].is_string()) {
      std::cout << error_json(line.source + ": expected {\"url\", \"html\"}") << '\n' << std::flush;
      return;
    }
    RawPage page;
    page.url = j.value("url", "");
    page.bytes = j["html"].get<std::string>();
    page.is_unicode = true;
    std::vector<RawPage> one{std::move(page)};
    std::cout << result_json((*hook)->process_batch(one).front(), args.text) << '\n' << std::flush;
  });
  for (const Status& st : errors) std::fprintf(stderr, "husk hook: %s\n", st.message().c_str());
  return 0;
}

// ---- husk serve ----

struct ServeArgs {
  std::string listen = "127.0.0.1:8080";
  std::string db;
  std::size_t max_body = 64u << 20;   // the page limit of husk extract
  std::size_t max_inflight = 64;      // concurrent requests before 503
  unsigned threads = 0;               // HTTP worker threads (0: 2 per core)
  int read_timeout_s = 10;            // a body slower than this is cut (slow loris)
  bool fsync = false;                 // flush to disk before each acknowledgement
  std::string templates;              // a template store to extract known sites with
};

// Prometheus text exposition: counters and a latency histogram.
struct Metrics {
  std::mutex mutex;
  std::map<std::string, uint64_t> requests;  // "endpoint status"
  std::map<std::string, uint64_t> errors;    // by kind
  std::vector<double> bounds{0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};
  std::vector<uint64_t> buckets = std::vector<uint64_t>(12, 0);
  double latency_sum = 0;
  uint64_t latency_count = 0;

  void observe(const std::string& endpoint, int status, double seconds) {
    std::lock_guard<std::mutex> lock(mutex);
    ++requests[endpoint + "\t" + std::to_string(status)];
    std::size_t i = 0;
    while (i < bounds.size() && seconds > bounds[i]) ++i;
    ++buckets[i];
    latency_sum += seconds;
    ++latency_count;
  }
  void error(const std::string& kind) {
    std::lock_guard<std::mutex> lock(mutex);
    ++errors[kind];
  }
  std::string text(const IndexStats& s) {
    std::lock_guard<std::mutex> lock(mutex);
    std::string out = "# TYPE husk_requests_total counter\n";
    for (const auto& [key, n] : requests) {
      std::size_t tab = key.find('\t');
      out += "husk_requests_total{endpoint=\"" + key.substr(0, tab) + "\",status=\"" + key.substr(tab + 1) + "\"} " +
             std::to_string(n) + "\n";
    }
    out += "# TYPE husk_request_seconds histogram\n";
    uint64_t cumulative = 0;
    for (std::size_t i = 0; i < bounds.size(); ++i) {
      cumulative += buckets[i];
      out += "husk_request_seconds_bucket{le=\"" + std::to_string(bounds[i]) + "\"} " + std::to_string(cumulative) + "\n";
    }
    out += "husk_request_seconds_bucket{le=\"+Inf\"} " + std::to_string(latency_count) + "\n";
    out += "husk_request_seconds_sum " + std::to_string(latency_sum) + "\nhusk_request_seconds_count " +
           std::to_string(latency_count) + "\n";
    out += "# TYPE husk_errors_total counter\n";
    for (const auto& [kind, n] : errors) out += "husk_errors_total{kind=\"" + kind + "\"} " + std::to_string(n) + "\n";
    out += "# TYPE husk_pages_indexed gauge\nhusk_pages_indexed " + std::to_string(s.pages) + "\n";
    out += "# TYPE husk_clusters gauge\nhusk_clusters " + std::to_string(s.clusters) + "\n";
    out += "# TYPE husk_duplicates_found gauge\nhusk_duplicates_found " + std::to_string(s.duplicates) + "\n";
    return out;
  }
};

httplib::Server* g_server = nullptr;

void on_signal(int) {
  if (g_server != nullptr) g_server->stop();
}

// Refuses what is not a page: NUL bytes in the first 4 KiB are binary.
bool looks_binary(std::string_view body) {
  return body.substr(0, 4096).find('\0') != std::string_view::npos;
}

int run_serve(const ServeArgs& args) {
  auto opened = open_hook(args.db, args.fsync, args.templates);
  if (!opened.ok()) {
    std::fprintf(stderr, "husk serve: %s\n", opened.status().message().c_str());
    return 1;
  }
  Hook& hook = **opened;
  std::size_t colon = args.listen.rfind(':');
  if (colon == std::string::npos) {
    std::fprintf(stderr, "husk serve: --listen must be ADDRESS:PORT\n");
    return 2;
  }
  std::string host = args.listen.substr(0, colon);
  int port = std::atoi(args.listen.c_str() + colon + 1);

  httplib::Server server;
  Metrics metrics;
  std::atomic<std::size_t> inflight{0};
  unsigned threads = args.threads != 0 ? args.threads : std::max(2u, 2 * std::thread::hardware_concurrency());
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server.set_payload_max_length(args.max_body);
  server.set_tcp_nodelay(true);  // small answers must not wait for delayed ACKs (40 ms)
  server.set_read_timeout(args.read_timeout_s, 0);
  server.set_write_timeout(args.read_timeout_s, 0);

  // Every response is JSON (or Prometheus text); status and latency go to
  // the metrics.
  auto timed = [&](const std::string& endpoint, auto handler) {
    return [&, endpoint, handler](const httplib::Request& req, httplib::Response& res) {
      auto start = std::chrono::steady_clock::now();
      if (++inflight > args.max_inflight) {
        --inflight;
        res.status = 503;
        res.set_content(error_json("too many requests in flight; retry later"), "application/json");
        metrics.error("overloaded");
      } else {
        try {
          handler(req, res);
          if (res.status == -1) res.status = 200;
        } catch (const std::exception& e) {
          res.status = 500;
          res.set_content(error_json(std::string("internal: ") + e.what()), "application/json");
          metrics.error("internal");
        }
        --inflight;
      }
      metrics.observe(endpoint, res.status,
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    };
  };
  auto fail = [&](httplib::Response& res, int status, const std::string& kind, const std::string& message) {
    res.status = status;
    res.set_content(error_json(message), "application/json");
    metrics.error(kind);
  };
  // One page from a request body: raw HTML (X-Url header) or JSON {url, html}.
  auto page_of = [&](const httplib::Request& req, httplib::Response& res, RawPage& page) {
    std::string type = req.get_header_value("Content-Type");
    if (req.body.empty()) return fail(res, 400, "empty", "empty body: post a page's HTML or {\"url\", \"html\"}"), false;
    if (type.rfind("application/json", 0) == 0) {
      nlohmann::json j = nlohmann::json::parse(req.body, nullptr, false);
      if (j.is_discarded() || !j.is_object() || !j.contains("html") || !j["html"].is_string())
        return fail(res, 400, "bad_json", "malformed JSON: expected {\"url\": ..., \"html\": ...}"), false;
      page.url = j.value("url", "");
      page.bytes = j["html"].get<std::string>();
      page.is_unicode = true;
    } else if (type.empty() || type.rfind("text/html", 0) == 0 || type.rfind("application/xhtml", 0) == 0 ||
               type.rfind("text/plain", 0) == 0 || type.rfind("application/octet-stream", 0) == 0) {
      if (looks_binary(req.body)) return fail(res, 415, "binary", "the body is binary, not HTML"), false;
      page.url = req.get_header_value("X-Url");
      page.bytes = req.body;
      page.content_type = type;
    } else {
      return fail(res, 415, "content_type", "unsupported Content-Type " + type + ": send text/html or application/json"), false;
    }
    page.id = Hook::page_id(page.url, page.bytes);
    return true;
  };

  server.Post("/v1/pages", timed("pages", [&](const httplib::Request& req, httplib::Response& res) {
    RawPage page;
    if (!page_of(req, res, page)) return;
    std::vector<RawPage> one{std::move(page)};
    HookResult r = hook.process_batch(one).front();
    if (!r.error.empty()) metrics.error("page");
    res.status = r.error.empty() ? 200 : 422;
    res.set_content(result_json(r, req.get_param_value("text") != "0"), "application/json");
  }));
  server.Post("/v1/pages:batch", timed("batch", [&](const httplib::Request& req, httplib::Response& res) {
    if (req.body.empty()) return fail(res, 400, "empty", "empty body: post JSONL of {\"url\", \"html\"}");
    std::vector<RawPage> pages;
    std::vector<std::string> bad;  // per line, "" when the line is a page
    std::size_t start = 0;
    while (start < req.body.size()) {
      std::size_t nl = req.body.find('\n', start);
      if (nl == std::string::npos) nl = req.body.size();
      std::string_view line(req.body.data() + start, nl - start);
      start = nl + 1;
      if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.is_object() || !j.contains("html") || !j["html"].is_string()) {
        bad.push_back("malformed JSON line: expected {\"url\", \"html\"}");
        continue;
      }
      RawPage page;
      page.url = j.value("url", "");
      page.bytes = j["html"].get<std::string>();
      page.is_unicode = true;
      pages.push_back(std::move(page));
      bad.emplace_back();
    }
    std::vector<HookResult> results = hook.process_batch(pages);
    std::string out;
    bool with_text = req.get_param_value("text") != "0";
    for (std::size_t i = 0, r = 0; i < bad.size(); ++i)
      out += (bad[i].empty() ? result_json(results[r++], with_text) : error_json(bad[i])) + "\n";
    res.set_content(out, "application/x-ndjson");
  }));
  server.Get(R"(/v1/pages/([0-9a-f]+))", timed("get", [&](const httplib::Request& req, httplib::Response& res) {
    auto record = hook.get(req.matches[1]);
    if (!record) return fail(res, 404, "not_found", "no page " + std::string(req.matches[1]));
    res.set_content(*record, "application/json");
  }));
  server.Delete(R"(/v1/pages/([0-9a-f]+))", timed("delete", [&](const httplib::Request& req, httplib::Response& res) {
    Result<bool> removed = hook.remove(req.matches[1]);
    if (!removed.ok()) return fail(res, 500, "io", removed.status().message());
    if (!*removed) return fail(res, 404, "not_found", "no page " + std::string(req.matches[1]));
    res.set_content(nlohmann::json({{"deleted", req.matches[1]}}).dump(), "application/json");
  }));
  server.Get(R"(/v1/clusters/([0-9a-f]+))", timed("cluster", [&](const httplib::Request& req, httplib::Response& res) {
    auto c = hook.cluster(req.matches[1]);
    if (!c) return fail(res, 404, "not_found", "no cluster " + std::string(req.matches[1]));
    res.set_content(*c, "application/json");
  }));
  server.Get("/healthz", timed("healthz", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content("{\"status\":\"ok\"}", "application/json");
  }));
  server.Get("/metrics", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(metrics.text(hook.stats()), "text/plain; version=0.0.4");
  });
  server.set_error_handler([&](const httplib::Request&, httplib::Response& res) {
    if (res.status == 413) {
      res.set_content(error_json("body over the limit of " + std::to_string(args.max_body) + " bytes"), "application/json");
      metrics.error("too_large");
    } else if (res.body.empty()) {
      res.set_content(error_json("HTTP " + std::to_string(res.status)), "application/json");
    }
  });

  g_server = &server;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  if (!server.bind_to_port(host, port)) {
    std::fprintf(stderr, "husk serve: cannot listen on %s\n", args.listen.c_str());
    return 1;
  }
  std::fprintf(stderr, "husk serve: listening on %s, index %s\n", args.listen.c_str(), args.db.c_str());
  server.listen_after_bind();
  // stop() lets in-flight requests finish; the Hook's destructor drains the
  // writer, so every acknowledged page is committed before exit.
  g_server = nullptr;
  std::fprintf(stderr, "husk serve: stopped\n");
  return 0;
}

// ---- husk db ----

struct DbArgs {
  std::string action;
  std::string db;
  std::string target;
};

int run_db(const DbArgs& args) {
  auto hook = open_hook(args.db);
  if (!hook.ok()) {
    std::fprintf(stderr, "husk db: %s\n", hook.status().message().c_str());
    return 1;
  }
  if (args.action == "stats") {
    IndexStats s = (*hook)->stats();
    nlohmann::ordered_json j{{"pages", s.pages},           {"clusters", s.clusters},
                             {"duplicates", s.duplicates}, {"band_postings", s.band_postings},
                             {"simhash_postings", s.simhash_postings}, {"bytes_on_disk", s.bytes_on_disk}};
    std::printf("%s\n", j.dump(1).c_str());
    return 0;
  }
  if (args.action == "verify") {
    std::vector<std::string> problems = (*hook)->verify();
    for (const std::string& p : problems) std::printf("%s\n", p.c_str());
    std::printf("%s\n", problems.empty() ? "ok" : (std::to_string(problems.size()) + " problems").c_str());
    return problems.empty() ? 0 : 1;
  }
  if (args.action == "compact") {
    if (args.target.empty()) {
      std::fprintf(stderr, "husk db compact: give an empty directory to write the compacted copy to\n");
      return 2;
    }
    Status st = (*hook)->compact_to(args.target);
    if (!st.ok()) std::fprintf(stderr, "husk db compact: %s\n", st.message().c_str());
    return st.ok() ? 0 : 1;
  }
  if (args.action == "export") {
    Status st = (*hook)->export_jsonl(std::cout);
    return st.ok() ? 0 : 1;
  }
  return 2;
}

}  // namespace

Command add_hook_command(CLI::App& app) {
  auto args = std::make_shared<HookArgs>();
  CLI::App* cmd = app.add_subcommand(
      "hook",
      "The post-fetch hook over a pipe: {\"url\", \"html\"} JSON lines on stdin, one\n"
      "result line each on stdout (clean text, signatures, duplicate_of, cluster),\n"
      "indexed in --db before it is written.");
  cmd->add_option("--db", args->db, "Index directory (LMDB)")->required();
  cmd->add_flag("!--no-text", args->text, "Leave the text out of the results");
  return {cmd, [args] { return run_hook(*args); }};
}

Command add_serve_command(CLI::App& app) {
  auto args = std::make_shared<ServeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "serve",
      "The post-fetch hook as an HTTP service: POST /v1/pages (HTML with X-Url, or\n"
      "JSON {url, html}), POST /v1/pages:batch (JSONL), GET|DELETE /v1/pages/ID,\n"
      "GET /v1/clusters/ID, GET /healthz, GET /metrics. SIGTERM finishes in-flight\n"
      "requests and commits before exiting.");
  cmd->add_option("--listen", args->listen, "ADDRESS:PORT")->capture_default_str();
  cmd->add_option("--db", args->db, "Index directory (LMDB)")->required();
  cmd->add_option("--max-body", args->max_body, "Largest request body in bytes (413 beyond)")->capture_default_str();
  cmd->add_option("--max-inflight", args->max_inflight, "Concurrent requests before 503")->capture_default_str();
  cmd->add_option("--threads", args->threads, "HTTP worker threads (0: two per core)")->capture_default_str();
  cmd->add_option("--read-timeout", args->read_timeout_s, "Seconds a request may take to arrive")->capture_default_str();
  cmd->add_option("--templates", args->templates,
                  "Template store of husk extract --extractor template --state DIR: known sites use their template");
  cmd->add_flag("--fsync", args->fsync,
                "Flush each commit to disk before acknowledging (survives power loss; default: survives a killed process, "
                "flushed every second)");
  return {cmd, [args] { return run_serve(*args); }};
}

Command add_db_command(CLI::App& app) {
  auto args = std::make_shared<DbArgs>();
  CLI::App* cmd = app.add_subcommand(
      "db",
      "The index: stats (counts), verify (every posting and page consistent),\n"
      "compact DIR (a compacted copy: the backup), export (every record as JSONL).");
  cmd->add_option("ACTION", args->action, "stats | verify | compact | export")
      ->required()
      ->check(CLI::IsMember({"stats", "verify", "compact", "export"}));
  cmd->add_option("TARGET", args->target, "compact: the directory to write to");
  cmd->add_option("--db", args->db, "Index directory (LMDB)")->required()->check(CLI::ExistingDirectory);
  return {cmd, [args] { return run_db(*args); }};
}

}  // namespace husk::cli
