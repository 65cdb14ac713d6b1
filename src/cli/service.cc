// husk hook (the post-fetch hook over a pipe), husk serve (over HTTP) and
// husk db (the index's maintenance): thin clients of the processor, the
// index and the service's request handling (service/service.h).
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "base/shared_library.h"
#include "base/text_util.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/progress.h"
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
  std::string measure = "jaccard";                           // or containment (text reuse)
  std::optional<double> threshold;                           // by the measure's default when not given
  uint32_t dedup_paragraphs = 0;                             // IndexOptions::dedup_paragraphs
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
  index_options.measure = o.measure;
  index_options.dedup_paragraphs = o.dedup_paragraphs;
  index_options.threshold = o.threshold.value_or(default_threshold(o.measure));
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
  unsigned max_connections = 1024;   // open connections before new ones are refused
  int read_timeout_s = 10;           // a request slower than this is cut (slow loris)
};

// The request line and headers of one request must fit in this much
// memory (libmicrohttpd's per-connection pool): a header flood is answered
// and closed, never read whole.
constexpr std::size_t kConnectionMemory = 64 << 10;

using Clock = std::chrono::steady_clock;

// A connection's state: when its current request's line arrived.
struct Connected {
  Clock::time_point request_line = Clock::now();
};

// One request on its way in: what the handler has read, and when its
// request line arrived (the request's deadline counts from there).
struct Arriving {
  ServiceRequest request;
  Clock::time_point started;
  int content_lengths = 0;  // Content-Length headers seen (the map keeps the first)
  bool chunked = false;     // a Transfer-Encoding header seen
};

// libmicrohttpd, opened when the service starts (base/shared_library.h).
struct Mhd {
  SharedLibrary library{"libmicrohttpd.so.12"};
  decltype(&MHD_start_daemon) start_daemon = HUSK_LIBRARY_SYMBOL(library, MHD_start_daemon);
  decltype(&MHD_quiesce_daemon) quiesce_daemon = HUSK_LIBRARY_SYMBOL(library, MHD_quiesce_daemon);
  decltype(&MHD_stop_daemon) stop_daemon = HUSK_LIBRARY_SYMBOL(library, MHD_stop_daemon);
  decltype(&MHD_get_connection_info) get_connection_info = HUSK_LIBRARY_SYMBOL(library, MHD_get_connection_info);
  decltype(&MHD_get_connection_values) get_connection_values =
      HUSK_LIBRARY_SYMBOL(library, MHD_get_connection_values);
  decltype(&MHD_create_response_from_buffer) create_response_from_buffer =
      HUSK_LIBRARY_SYMBOL(library, MHD_create_response_from_buffer);
  decltype(&MHD_add_response_header) add_response_header = HUSK_LIBRARY_SYMBOL(library, MHD_add_response_header);
  decltype(&MHD_queue_response) queue_response = HUSK_LIBRARY_SYMBOL(library, MHD_queue_response);
  decltype(&MHD_destroy_response) destroy_response = HUSK_LIBRARY_SYMBOL(library, MHD_destroy_response);
};

const Mhd& mhd() { return opened<Mhd>(); }

// The HTTP layer: libmicrohttpd gives each connection its own thread, so a
// slow or idle client holds its own thread and socket, never another
// client's (a shared pool of event loops would put two busy connections on
// one loop now and then and halve throughput at two clients, measured on
// AEB); it answers pipelined requests in order and bounds the header bytes
// of a request. This adapts its callbacks to Service::handle.
class HttpFront {
 public:
  HttpFront(Service& service, const ServeArgs& args) : service_(service), args_(args) {}

  static void on_connection(void*, MHD_Connection*, void** socket_context, MHD_ConnectionNotificationCode code) {
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
      *socket_context = new Connected();
    } else {
      delete static_cast<Connected*>(*socket_context);
      *socket_context = nullptr;
    }
  }

  // A request line arrived: its request's clock starts.
  static void* on_request_line(void*, const char*, MHD_Connection* connection) {
    const MHD_ConnectionInfo* info = mhd().get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    if (info != nullptr && info->socket_context != nullptr)
      static_cast<Connected*>(info->socket_context)->request_line = Clock::now();
    return nullptr;
  }

  static void on_completed(void*, MHD_Connection*, void** state, MHD_RequestTerminationCode) {
    delete static_cast<Arriving*>(*state);
    *state = nullptr;
  }

  // Called once the headers are in, then once per piece of the body, then
  // once more with no data: the request is then whole and answered.
  static MHD_Result on_request(void* self, MHD_Connection* connection, const char* url, const char* method,
                               const char*, const char* upload, size_t* upload_size, void** state) {
    auto& front = *static_cast<HttpFront*>(self);
    if (*state == nullptr) {
      auto* arriving = new Arriving();
      const MHD_ConnectionInfo* info = mhd().get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
      arriving->started = info != nullptr && info->socket_context != nullptr
                              ? static_cast<Connected*>(info->socket_context)->request_line
                              : Clock::now();
      *state = arriving;
    }
    Arriving& a = *static_cast<Arriving*>(*state);
    // Headers and body together within --read-timeout of the request line,
    // however the bytes trickle in; past it the connection is closed.
    if (Clock::now() - a.started > std::chrono::seconds(front.args_.read_timeout_s)) return MHD_NO;
    if (a.request.method.empty()) {
      a.request.method = method;
      a.request.path = url;  // percent-decoded by libmicrohttpd
      mhd().get_connection_values(connection, MHD_HEADER_KIND, &HttpFront::header, &a);
      mhd().get_connection_values(connection, MHD_GET_ARGUMENT_KIND, &HttpFront::argument, &a.request.query);
      // Two Content-Lengths, or one beside Transfer-Encoding, frame the
      // body two ways: a proxy in front may read it the other way, so the
      // request is refused and the connection closed (RFC 9112, 6.1, 6.3).
      if (a.content_lengths > 1 || (a.content_lengths > 0 && a.chunked)) {
        front.service_.count_error("framing");
        return answer(connection, 400, "application/json",
                      nlohmann::json({{"error", "the body is framed twice (two Content-Lengths, or Content-Length "
                                                "with Transfer-Encoding)"}}).dump(),
                      true);
      }
      auto length = a.request.headers.find("content-length");
      if (length != a.request.headers.end() &&
          std::strtoull(length->second.c_str(), nullptr, 10) > front.args_.max_body)
        return front.too_large(connection);  // answered before the body is read, and closed
      return MHD_YES;
    }
    if (*upload_size > 0) {
      // A chunked body past the limit ends the connection: the rest is
      // never read.
      if (a.request.body.size() + *upload_size > front.args_.max_body) return MHD_NO;
      a.request.body.append(upload, *upload_size);
      *upload_size = 0;
      return MHD_YES;
    }
    ServiceResponse r = front.service_.handle(a.request);
    return answer(connection, r.status, r.content_type, r.body, false);
  }

 private:
  // One header line into the request, counting the lines that frame its body.
  static MHD_Result header(void* arriving, MHD_ValueKind, const char* key, const char* value) {
    auto& a = *static_cast<Arriving*>(arriving);
    std::string name = ascii_lower(key);
    a.content_lengths += name == "content-length";
    a.chunked = a.chunked || name == "transfer-encoding";
    a.request.headers.emplace(std::move(name), value ? value : "");
    return MHD_YES;
  }
  static MHD_Result argument(void* map, MHD_ValueKind, const char* key, const char* value) {
    static_cast<std::map<std::string, std::string>*>(map)->emplace(key, value ? value : "");
    return MHD_YES;
  }

  static MHD_Result answer(MHD_Connection* connection, int status, const std::string& type, const std::string& body,
                           bool close) {
    MHD_Response* response =
        mhd().create_response_from_buffer(body.size(), const_cast<char*>(body.data()), MHD_RESPMEM_MUST_COPY);
    if (response == nullptr) return MHD_NO;
    mhd().add_response_header(response, "Content-Type", type.c_str());
    if (close) mhd().add_response_header(response, "Connection", "close");
    MHD_Result queued = mhd().queue_response(connection, static_cast<unsigned>(status), response);
    mhd().destroy_response(response);
    return queued;
  }

  MHD_Result too_large(MHD_Connection* connection) {
    service_.count_error("too_large");
    return answer(connection, 413, "application/json",
                  nlohmann::json({{"error", "body over the limit of " + std::to_string(args_.max_body) + " bytes"}}).dump(),
                  true);
  }

  Service& service_;
  const ServeArgs& args_;
};

// ADDRESS:PORT as a socket address (a name is resolved; IPv6 in brackets).
Result<sockaddr_storage> listen_address(const std::string& listen) {
  const std::size_t colon = listen.rfind(':');
  int port = 0;
  if (colon != std::string::npos) {
    std::string_view digits = std::string_view(listen).substr(colon + 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (ec != std::errc() || end != digits.data() + digits.size()) port = 0;
  }
  if (port <= 0 || port > 65535) return Status(Code::kInvalidArgument, "--listen must be ADDRESS:PORT, not " + listen);
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (int rc = getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &found); rc != 0)
    return Status(Code::kInvalidArgument, "--listen " + listen + ": " + gai_strerror(rc));
  sockaddr_storage out{};
  std::memcpy(&out, found->ai_addr, found->ai_addrlen);
  freeaddrinfo(found);
  return out;
}

int run_serve(const ServeArgs& args) {
  Result<sockaddr_storage> address = listen_address(args.listen);
  if (!address.ok()) return fail("serve", address.status().message(), 2);
  // SIGTERM and SIGINT are taken by this thread alone (sigwait below):
  // every thread started from here on (the index's writer, the server's)
  // starts with them blocked. A client that goes away mid-answer is that
  // connection's error, not the service's end.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);
  Result<Stack> stack = open_stack(args.stack);
  if (!stack.ok()) return fail("serve", stack.status().message(), 1);

  ServiceOptions service_options;
  service_options.max_inflight = args.max_inflight;
  Service service(*stack->processor, *stack->index, service_options);
  HttpFront front(service, args);
  if (!mhd().library.ok()) return fail("serve", mhd().library.error(), 1);
  errno = 0;
  unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL | MHD_USE_ITC;
  if (address->ss_family == AF_INET6) flags |= MHD_USE_IPv6;
  MHD_Daemon* daemon = mhd().start_daemon(
      flags, 0, nullptr, nullptr, &HttpFront::on_request, &front,
      MHD_OPTION_SOCK_ADDR, reinterpret_cast<const sockaddr*>(&*address),
      MHD_OPTION_CONNECTION_LIMIT, args.max_connections,
      MHD_OPTION_CONNECTION_TIMEOUT, static_cast<unsigned>(args.read_timeout_s),
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, kConnectionMemory,
      MHD_OPTION_NOTIFY_CONNECTION, &HttpFront::on_connection, nullptr,
      MHD_OPTION_URI_LOG_CALLBACK, &HttpFront::on_request_line, nullptr,
      MHD_OPTION_NOTIFY_COMPLETED, &HttpFront::on_completed, nullptr,
      MHD_OPTION_END);
  if (daemon == nullptr) {
    const int error = errno;  // the listening socket's bind, when that failed
    return fail("serve", "cannot listen on " + args.listen + (error != 0 ? std::string(": ") + std::strerror(error) : ""),
                1);
  }
  std::fprintf(stderr, "husk serve: listening on %s, index %s\n", args.listen.c_str(), args.stack.db.c_str());
  int received = 0;
  sigwait(&stop_signals, &received);
  // No new connections; the requests being handled finish, then the
  // server stops. The Index's destructor drains the writer, so every
  // acknowledged page is committed before exit.
  mhd().quiesce_daemon(daemon);
  mhd().stop_daemon(daemon);
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
    std::printf("%s\n", index_stats_json(index.stats(), 1).c_str());
    return 0;
  }
  // A pass over a large index takes minutes: where it stands is drawn on
  // a terminal, as husk extract draws its pages.
  Progress progress("db " + args.action);
  const Index::Progress drawn = [&progress](const std::string& reading, uint64_t done, uint64_t total) {
    progress.stage(reading, done, total);
  };
  if (args.action == "verify") {
    std::vector<std::string> problems = index.verify(false, drawn);
    progress.finish();
    for (const std::string& p : problems) std::printf("%s\n", p.c_str());
    std::printf("%s\n", problems.empty() ? "ok" : (std::to_string(problems.size()) + " problems").c_str());
    return problems.empty() ? 0 : 1;
  }
  if (args.action == "compact") {
    if (args.target.empty()) return fail("db compact", "give an empty directory to write the compacted copy to", 2);
    // Drawn in MiB: a copy is gigabytes.
    Status st = index.compact_to(args.target, [&progress](const std::string&, uint64_t done, uint64_t total) {
      progress.stage("MiB written", done >> 20, total >> 20);
    });
    progress.finish();
    return st.ok() ? 0 : fail("db compact", st.message(), 1);
  }
  if (args.action == "export") {
    // Its records go to stdout: on a terminal the line would be drawn among them.
    Status st = index.export_jsonl(std::cout, isatty(STDOUT_FILENO) == 1 ? Index::Progress() : drawn);
    progress.finish();
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
  cmd->add_option("--measure", o.measure,
                  "jaccard (near-duplicates) | containment (text reuse: a page whose shingles lie largely\n"
                  "inside another's; duplicate_of says which text is contained). An index keeps the measure\n"
                  "it was created with")
      ->check(CLI::IsMember({"jaccard", "containment"}))
      ->capture_default_str();
  cmd->add_option("--threshold", o.threshold,
                  "The smallest Jaccard similarity (default 0.5) or containment (default 0.1) of a duplicate;\n"
                  "an index keeps the threshold it was created with")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--dedup-paragraphs", o.dedup_paragraphs,
                  "Leave out of each page's text the paragraphs N pages indexed before it held (a site's\n"
                  "notices, a syndicated story's paragraphs), as husk extract --dedup-paragraphs does within a\n"
                  "run; the counts persist in the index; 0: off")
      ->capture_default_str();
  cmd->add_option("--page-timeout", o.page_timeout_ms,
                  "Milliseconds of CPU time one page may take, its own thread's (0: no limit); a page past it is answered with error \"timeout\"")
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
  cmd->add_option("--max-connections", args->max_connections, "Open connections before new ones are refused")
      ->capture_default_str();
  cmd->add_option("--read-timeout", args->read_timeout_s,
                  "Seconds a request (headers and body) may take to arrive, and an idle connection stays open")->capture_default_str();
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
