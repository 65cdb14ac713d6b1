// husk hook (the post-fetch hook over a pipe), husk serve (over HTTP) and
// husk db (the index's maintenance): thin clients of the processor, the
// index and the service's request handling (service/service.h).
#include <httplib.h>
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <charconv>
#include <thread>

#include "base/text_util.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "service/service.h"

namespace husk::cli {

namespace {

// The processor and index the hook and the service run with: signing on,
// and the site templates of a store when one is given.
struct Stack {
  std::unique_ptr<Processor> processor;
  std::unique_ptr<Index> index;
};

// With an IDF file the pages are signed with its statistics and the
// index's simhash arm searches candidates too; without one simhash is off
// (it collapses texts dominated by one token), and the minhash bands alone
// find candidates. Either way the shingle sketches' Jaccard decides.
struct StackOptions {
  std::string db;
  bool fsync = false;     // flush to disk before each acknowledgement
  std::string templates;  // a template store to extract known sites with
  std::string idf;        // collection statistics: simhash candidates too
  std::size_t map_size_mib = IndexOptions{}.map_size >> 20;  // the index's limit
  uint32_t page_timeout_ms = kDefaultPageTimeoutMs;
};

Result<Stack> open_stack(const StackOptions& o) {
  ProcessorOptions options;
  options.sign = true;
  options.page_timeout_ms = o.page_timeout_ms;
  if (!o.idf.empty()) {
    Result<CollectionStats> stats = load_collection_stats(o.idf);
    if (!stats.ok()) return stats.status();
    options.stats = std::make_shared<const CollectionStats>(std::move(*stats));
  }
  if (!o.templates.empty()) {
    auto store = TemplateStore::open(o.templates);
    if (!store.ok()) return store.status();
    options.templates = std::move(*store);
  }
  IndexOptions index_options;
  index_options.dir = o.db;
  index_options.fsync_each_commit = o.fsync;
  index_options.map_size = o.map_size_mib << 20;
  index_options.minhash_permutations = options.signing.minhash_permutations;
  index_options.sketch = options.signing.minhash_sketch;
  index_options.simhash = options.stats != nullptr;
  Result<Processor> processor = Processor::make(options);
  if (!processor.ok()) return processor.status();
  Result<std::unique_ptr<Index>> index = Index::open(index_options);
  if (!index.ok()) return index.status();
  Stack stack;
  stack.processor = std::make_unique<Processor>(std::move(*processor));
  stack.index = std::move(*index);
  return stack;
}

// ---- husk hook ----

struct HookArgs {
  StackOptions stack;
  bool text = true;
};

int run_hook(const HookArgs& args) {
  Result<Stack> stack = open_stack(args.stack);
  if (!stack.ok()) return fail("hook", stack.status().message(), 1);
  Service service(*stack->processor, *stack->index);
  std::ios::sync_with_stdio(false);
  Status read = for_each_line("-", [&](Line&& line) {
    Result<RawPage> page = line.status.ok() ? page_from_json(line.text) : Result<RawPage>(line.status);
    if (!page.ok()) {
      std::cout << nlohmann::json({{"error", line.source + ": " + page.status().message() + "; expected {\"url\", \"html\"}"}})
                       .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                << '\n'
                << std::flush;
      return true;
    }
    if (page->id.empty()) page->id = page_id(page->url, page->bytes);
    std::cout << Service::answer_json(service.post({*page}).front(), args.text) << '\n' << std::flush;
    return true;
  });
  if (!read.ok()) return fail("hook", read.message(), 1);
  return 0;
}

// ---- husk serve ----

struct ServeArgs {
  StackOptions stack;
  std::string listen = "127.0.0.1:8080";
  std::size_t max_body = 64u << 20;  // the page limit of husk extract
  std::size_t max_inflight = 64;     // concurrent requests before 503
  unsigned threads = 0;              // HTTP worker threads (0: 2 per core)
  int read_timeout_s = 10;           // a body slower than this is cut (slow loris)
};

httplib::Server* g_server = nullptr;

void on_signal(int) {
  if (g_server != nullptr) g_server->stop();
}

ServiceRequest request_of(const httplib::Request& req) {
  ServiceRequest r;
  r.method = req.method;
  r.path = req.path;
  for (const auto& [k, v] : req.params) r.query.emplace(k, v);
  for (const auto& [k, v] : req.headers) r.headers.emplace(ascii_lower(k), v);
  r.body = req.body;
  return r;
}

int run_serve(const ServeArgs& args) {
  Result<Stack> stack = open_stack(args.stack);
  if (!stack.ok()) return fail("serve", stack.status().message(), 1);
  std::size_t colon = args.listen.rfind(':');
  int port = 0;
  if (colon != std::string::npos) {
    std::string_view digits = std::string_view(args.listen).substr(colon + 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (ec != std::errc() || end != digits.data() + digits.size()) port = 0;
  }
  if (port <= 0 || port > 65535) return fail("serve", "--listen must be ADDRESS:PORT, not " + args.listen, 2);
  std::string host = args.listen.substr(0, colon);

  ServiceOptions service_options;
  service_options.max_inflight = args.max_inflight;
  Service service(*stack->processor, *stack->index, service_options);
  httplib::Server server;
  unsigned threads = args.threads != 0 ? args.threads : std::max(2u, 2 * std::thread::hardware_concurrency());
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server.set_payload_max_length(args.max_body);
  server.set_tcp_nodelay(true);  // small answers must not wait for delayed ACKs (40 ms)
  server.set_read_timeout(args.read_timeout_s, 0);
  server.set_write_timeout(args.read_timeout_s, 0);
  auto too_large = [&](httplib::Response& res) {
    res.status = 413;
    res.set_content(nlohmann::json({{"error", "body over the limit of " + std::to_string(args.max_body) + " bytes"}}).dump(),
                    "application/json");
    service.count_error("too_large");
  };
  auto handler = [&](const httplib::Request& req, httplib::Response& res) {
    ServiceResponse r = service.handle(request_of(req));
    res.status = r.status;
    res.set_content(r.body, r.content_type);
  };
  // Bodies are read here, so that --max-body cuts a chunked body too (the
  // HTTP library checks the limit against Content-Length only): past the
  // limit the read stops, the connection closes, the answer is 413.
  auto post = [&](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& content) {
    ServiceRequest request = request_of(req);
    bool over = req.has_header("Content-Length") &&
                std::strtoull(req.get_header_value("Content-Length").c_str(), nullptr, 10) > args.max_body;
    const bool read = !over && content([&](const char* data, std::size_t length) {
      if (request.body.size() + length > args.max_body) {
        over = true;
        return false;
      }
      request.body.append(data, length);
      return true;
    });
    if (over) return too_large(res);
    if (!read) {
      res.status = 400;
      res.set_content(nlohmann::json({{"error", "the request body could not be read whole"}}).dump(), "application/json");
      return;
    }
    ServiceResponse r = service.handle(request);
    res.status = r.status;
    res.set_content(r.body, r.content_type);
  };
  server.Get(".*", handler);
  server.Post(".*", post);
  server.Delete(".*", handler);
  server.set_error_handler([&](const httplib::Request&, httplib::Response& res) {
    if (res.status == 413 && res.body.empty()) {
      too_large(res);
    } else if (res.body.empty()) {
      res.set_content(nlohmann::json({{"error", "HTTP " + std::to_string(res.status)}}).dump(), "application/json");
    }
  });

  g_server = &server;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  // A client that goes away mid-answer is that connection's error, not
  // the service's end.
  signal(SIGPIPE, SIG_IGN);
  if (!server.bind_to_port(host, port)) return fail("serve", "cannot listen on " + args.listen, 1);
  std::fprintf(stderr, "husk serve: listening on %s, index %s\n", args.listen.c_str(), args.stack.db.c_str());
  server.listen_after_bind();
  // stop() lets in-flight requests finish; the Index's destructor drains
  // the writer, so every acknowledged page is committed before exit.
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
  // Maintenance reads an index; it never creates one (an empty directory,
  // or a compaction target killed midway, holds none).
  std::error_code ec;
  if (!std::filesystem::is_regular_file(std::filesystem::path(args.db) / "data.mdb", ec))
    return fail(("db " + args.action).c_str(), "no index in " + args.db + " (no data.mdb)", 1);
  IndexOptions options;
  options.dir = args.db;
  options.adopt_settings = true;
  Result<std::unique_ptr<Index>> opened = Index::open(options);
  if (!opened.ok()) return fail("db", opened.status().message(), 1);
  Index& index = **opened;
  if (args.action == "stats") {
    IndexStats s = index.stats();
    nlohmann::ordered_json j{{"pages", s.pages},           {"clusters", s.clusters},
                             {"duplicates", s.duplicates}, {"band_postings", s.band_postings},
                             {"simhash_postings", s.simhash_postings}, {"bytes_on_disk", s.bytes_on_disk},
                             {"used_bytes", s.used_bytes}};
    std::printf("%s\n", j.dump(1).c_str());
    return 0;
  }
  if (args.action == "verify") {
    std::vector<std::string> problems = index.verify();
    for (const std::string& p : problems) std::printf("%s\n", p.c_str());
    std::printf("%s\n", problems.empty() ? "ok" : (std::to_string(problems.size()) + " problems").c_str());
    return problems.empty() ? 0 : 1;
  }
  if (args.action == "compact") {
    if (args.target.empty()) return fail("db compact", "give an empty directory to write the compacted copy to", 2);
    Status st = index.compact_to(args.target);
    return st.ok() ? 0 : fail("db compact", st.message(), 1);
  }
  if (args.action == "export") {
    Status st = index.export_jsonl(std::cout);
    return st.ok() ? 0 : fail("db export", st.message(), 1);
  }
  return 2;
}

}  // namespace

// The options the hook and the service share: the index and how pages
// are signed for it.
void add_stack_options(CLI::App* cmd, StackOptions& o) {
  cmd->add_option("--db", o.db, "Index directory (LMDB)")->required();
  cmd->add_option("--idf", o.idf,
                  "Collection statistics (husk idf build): pages are signed with them and simhash\n"
                  "finds candidates beside the minhash bands; the sketches' Jaccard decides either way")
      ->check(CLI::ExistingFile);
  cmd->add_option("--map-size", o.map_size_mib,
                  "The most the index may hold, in MiB; its file grows as pages arrive. When it is full a new\n"
                  "page is refused (serve: 507, hook: an error line) and deletions still go through")
      ->check(CLI::Range(std::size_t(1), std::size_t(1) << 30))
      ->capture_default_str();
  cmd->add_option("--page-timeout", o.page_timeout_ms,
                  "Milliseconds one page may take (0: no limit); a page past it is answered with error \"timeout\"")
      ->capture_default_str();
}

Command add_hook_command(CLI::App& app) {
  auto args = std::make_shared<HookArgs>();
  CLI::App* cmd = app.add_subcommand(
      "hook",
      "The post-fetch hook over a pipe: {\"url\", \"html\"} JSON lines on stdin, one\n"
      "result line each on stdout (clean text, signatures, duplicate_of, cluster),\n"
      "indexed in --db before it is written.");
  add_stack_options(cmd, args->stack);
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
  add_stack_options(cmd, args->stack);
  cmd->add_option("--max-body", args->max_body, "Largest request body in bytes (413 beyond)")->capture_default_str();
  cmd->add_option("--max-inflight", args->max_inflight, "Concurrent requests before 503")->capture_default_str();
  cmd->add_option("--threads", args->threads, "HTTP worker threads (0: two per core)")->capture_default_str();
  cmd->add_option("--read-timeout", args->read_timeout_s, "Seconds a request may take to arrive")->capture_default_str();
  cmd->add_option("--templates", args->stack.templates,
                  "Template store of husk extract --extractor template --state DIR: known sites use their template");
  cmd->add_flag("--fsync", args->stack.fsync,
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
