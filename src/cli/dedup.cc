// husk dedup: signatures in, clusters of near-duplicate pages out.
#include <pthread.h>
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>
#include <unordered_map>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/dedup_input.h"
#include "cli/exchange.h"
#include "cli/progress.h"
#include "eval/report.h"
#include "record/record.h"

namespace husk::cli {

namespace {

struct DedupArgs {
  std::vector<std::string> inputs;
  DedupOptions options;
  std::string cluster = cluster_method_name(DedupOptions{}.cluster);
  std::string main = "first";
  bool k_given = false;
  bool threshold_given = false;
  std::string report;
  std::string pairs;
  std::string output = "-";
  bool singletons = false;
  unsigned jobs = 0;
  uint64_t memory = uint64_t(1) << 30;
  std::string work_dir;
  HostLineOptions frame;
  bool identify_languages = false;
};

std::string setting_of(const DedupOptions& o) {
  if (o.method == "simhash" || o.method == "simhash_hyperplane") return "k=" + std::to_string(o.k);
  if (o.method == "minhash" || o.method == "spotsigs") {
    char buf[48];
    std::snprintf(buf, sizeof(buf), "%s=%g", o.method == "minhash" && o.measure == "containment" ? "containment" : "threshold",
                  o.threshold);
    return buf;
  }
  return "exact";
}

// The settings the report's histograms cover (the homework's k = 3, 5, 10,
// 15 for simhash).
std::vector<DedupOptions> report_settings(const DedupOptions& o) {
  std::vector<DedupOptions> out;
  if (o.method == "simhash" || o.method == "simhash_hyperplane") {
    for (uint32_t k : {3u, 5u, 10u, 15u}) {
      DedupOptions v = o;
      v.k = k;
      out.push_back(v);
    }
  } else if (o.method == "minhash" || o.method == "spotsigs") {
    for (double t : {0.9, 0.8, 0.7, 0.5}) {
      DedupOptions v = o;
      v.threshold = t;
      out.push_back(v);
    }
  } else {
    out.push_back(o);
  }
  return out;
}

// The measure a method's pairs are scored on.
std::string measure_of(const DedupOptions& o) {
  if (o.method == "simhash" || o.method == "simhash_hyperplane") return "hamming";
  if (o.method == "minhash") return o.measure;
  if (o.method == "spotsigs") return "jaccard";
  return "equal";  // the hash joins: the signature values are equal
}

// The HTML report of a run (histograms of the signer's measure, clusters
// at the report's settings), from the loaded pages: the run's clusters,
// and the search's statistics measured again on those pages.
Status write_report(const DedupArgs& args, const std::vector<DedupPage>& pages, const std::vector<std::string>& texts,
                    const CorpusResult& result, double seconds) {
  DedupReport report;
  report.method = args.options.method;
  report.setting = setting_of(args.options);
  report.pages = pages.size();
  report.seconds = seconds;
  report.measure = measure_of(args.options);
  Result<std::vector<Pair>> pairs = find_pairs(pages, args.options, &report.stats);
  if (!pairs.ok()) return pairs.status();
  report.pairs = std::move(*pairs);
  for (const DedupOptions& v : report_settings(args.options)) {
    auto vp = find_pairs(pages, v);
    if (vp.ok()) report.settings.emplace_back(setting_of(v), cluster_pages(pages, *vp, v));
  }
  std::unordered_map<std::string, uint32_t> index;
  for (std::size_t i = 0; i < pages.size(); ++i) index.emplace(pages[i].id, static_cast<uint32_t>(i));
  for (const CorpusCluster& c : result.clusters) {
    Cluster& cluster = report.clusters.emplace_back();
    cluster.main = index[c.main];
    for (const std::string& m : c.members) cluster.members.push_back(index[m]);
  }
  return write_dedup_report(args.report, report, pages, texts);
}

// Every rank's counters summed element-wise, on every rank (each sends its
// own to the others).
void sum_over_ranks(Exchange& exchange, HostLines& lines) {
  if (exchange.size() == 1) return;
  std::vector<uint32_t>& counters = lines.counters();
  const std::string mine(reinterpret_cast<const char*>(counters.data()), counters.size() * sizeof(uint32_t));
  std::vector<std::string> out(exchange.size());
  for (int r = 0; r < exchange.size(); ++r)
    if (r != exchange.rank()) out[r] = mine;
  std::vector<std::string> in = exchange.all_to_all(std::move(out));
  for (const std::string& part : in) {
    if (part.size() != mine.size()) continue;  // this rank's own slot
    for (std::size_t i = 0; i < counters.size(); ++i) {
      uint32_t v = 0;
      std::memcpy(&v, part.data() + i * sizeof v, sizeof v);
      counters[i] = v > UINT32_MAX - counters[i] ? UINT32_MAX : counters[i] + v;
    }
  }
}

// Spill files run to gigabytes (band keys past a quarter of --memory, and
// every page's sketch), and a run stopped with Ctrl-C or SIGTERM left them
// in the work directory. The run's spill files go to a directory of its
// own, made here inside the one it was given; SIGINT, SIGTERM and SIGHUP
// (its terminal closed) are taken by a thread of their own (blocked on
// every other thread: call this before any starts), which removes the
// directory and ends the process as the signal would have (status 128 +
// the signal). A signal the run was started ignoring (SIGHUP under nohup,
// SIGINT in a shell's background job) stays ignored: Linux queues a
// blocked signal even when it is ignored, so it is left out of the set.
// kill -9 cannot be caught: its directory stays behind, named husk-run-*.
class SpillDirectory {
 public:
  Status make(const std::string& base) {
    sigset_t stop;
    sigemptyset(&stop);
    for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction now {};
      if (sigaction(signal, nullptr, &now) == 0 && now.sa_handler != SIG_IGN) sigaddset(&stop, signal);
    }
    pthread_sigmask(SIG_BLOCK, &stop, nullptr);
    std::string pattern = base + "/husk-run-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr)
      return Status(Code::kIo, "cannot make a work directory in " + base + ": " + std::strerror(errno));
    path_ = pattern;
    std::thread([stop, dir = path_] {
      int received = 0;
      if (sigwait(&stop, &received) != 0) return;
      // The run goes on writing while this removes: a file made after the
      // listing leaves the directory non-empty, so it is read again.
      std::error_code ec;
      for (int pass = 0; pass < 5 && std::filesystem::exists(dir, ec); ++pass) std::filesystem::remove_all(dir, ec);
      std::fprintf(stderr, "husk dedup: stopped (%s); its spill files are removed\n", strsignal(received));
      std::_Exit(128 + received);
    }).detach();
    return Status();
  }
  const std::string& path() const { return path_; }
  ~SpillDirectory() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }

 private:
  std::string path_;
};

// The run: the library's dedup() chooses the engine (husk/corpus.h); this
// reads the inputs for it (streamed, each rank its share, for minhash;
// loaded whole, with collection statistics for the signers that need
// them, for the other methods), writes the clusters and pairs, and the
// report from the loaded pages.
int run_dedup(DedupArgs args) {
  auto cluster = cluster_method_named(args.cluster);
  auto main = main_page_named(args.main);
  if (!cluster.ok()) return fail("dedup", cluster.status().message(), 2);
  if (!main.ok()) return fail("dedup", main.status().message(), 2);
  args.options.cluster = *cluster;
  args.options.main = *main;
  if (!args.threshold_given) args.options.threshold = default_threshold(args.options.measure);
  // Only the corpus engine spills. Before MPI's threads start, so that
  // they too leave the stop signals to the spill directory's thread.
  SpillDirectory spill;
  if (runs_in_corpus_engine(args.options))
    if (Status st = spill.make(args.work_dir.empty() ? default_work_dir() : args.work_dir); !st.ok())
      return fail("dedup", st.message(), 1);
  auto launched = launcher_exchange();
  if (!launched.ok()) return fail("dedup", launched.status().message(), 2);
  Exchange& exchange = **launched;
  const int rank = exchange.rank();
  // minhash texts are signed as they are read, each rank its own share
  // (no collection statistics): the corpus engine's input, and the
  // containment search's, which rank 0 runs in memory.
  const bool streams = runs_across_ranks(args.options);
  if (!streams && exchange.size() > 1) {
    // Only rank 0 says why, once.
    if (rank == 0)
      fail("dedup", "only --method minhash runs across MPI ranks; run --method " + args.options.method +
                        " as one process",
           2);
    return 2;
  }
  auto start = std::chrono::steady_clock::now();
  auto say = [&](const std::string& line) {
    if (rank == 0) std::fprintf(stderr, "husk dedup: %s\n", line.c_str());
  };
  // A fatal error on one rank ends them all: the others would wait for it.
  auto fatal = [&](const std::string& message) -> int {
    std::fprintf(stderr, "husk dedup: %s%s\n", exchange.size() > 1 ? ("rank " + std::to_string(rank) + ": ").c_str() : "",
                 message.c_str());
    if (exchange.size() > 1) abort_ranks(1);
    return 1;
  };
  CorpusOptions options;
  options.dedup = args.options;
  options.memory = args.memory;
  options.work_dir = spill.path();
  options.jobs = args.jobs;
  options.singletons = args.singletons;
  options.keep_pairs = !args.pairs.empty();
  options.progress = say;
  options.started = start;
  const SignOptions sign_options;
  options.minhash_permutations = sign_options.minhash_permutations;
  options.dedup.sketch = sign_options.minhash_sketch;
  if (exchange.size() > 1) say("running on " + std::to_string(exchange.size()) + " ranks");

  Output output;
  if (rank == 0) {
    if (Status st = output.open(args.output, args.inputs); !st.ok()) return fatal(st.message());
    if (Status st = not_an_input(args.pairs, args.inputs); !st.ok()) return fatal(st.message());
  }
  // What was read: pages handed on, pages without signatures, errors.
  uint64_t read_pages = 0, without_signature = 0;
  FrameStats frame;
  std::vector<Status> input_errors, record_errors, page_errors;
  LoadedPages loaded;
  // The in-memory engine reads every page, signed with the collection's
  // statistics; minhash streams, and rank 0, which writes --report, loads
  // the pages for it beside.
  const bool load = !streams || (!args.report.empty() && rank == 0);
  // Reading a corpus takes minutes: the records and pages read (and the
  // texts signed with the collection's statistics) are drawn on a
  // terminal, by rank 0, pass by pass, and cleared before the stage lines.
  auto reading = [](const std::string& pass) { return std::make_unique<Progress>("dedup" + pass); };
  auto drawn = [rank](const std::unique_ptr<Progress>& p) { return rank == 0 ? p.get() : nullptr; };
  if (load) {
    const auto progress = reading("");
    loaded = load_dedup_pages(args.inputs, args.jobs, /*keep_texts=*/!args.report.empty(), args.frame,
                              args.identify_languages, drawn(progress));
    without_signature = loaded.without_signature;
    frame = loaded.frame;
    input_errors = loaded.errors;
    record_errors = loaded.record_errors;
    page_errors = loaded.page_errors;
  }
  DedupSource source = [&](const DedupSink& sink) {
    if (!streams) {
      // The in-memory engine takes the loaded pages over; the report reads
      // its own copy.
      std::vector<DedupPage> pages = args.report.empty() ? std::move(loaded.pages) : loaded.pages;
      for (std::size_t i = 0; i < pages.size(); ++i)
        if (Status st = sink(i, pages[i]); !st.ok()) record_errors.push_back(std::move(st));
      read_pages = pages.size();
      return Status();
    }
    // Frame lines: a first pass counts every rank's texts' host lines.
    std::unique_ptr<HostLines> lines;
    if (args.frame.min_documents > 0) {
      lines = std::make_unique<HostLines>();
      const auto progress = reading(": counting host lines");
      std::vector<Status> errors = count_host_lines(args.inputs, args.jobs, rank, exchange.size(), *lines, drawn(progress));
      progress->finish();
      for (Status& st : errors)
        if (rank == 0) fail("dedup", st.message(), 1);
      sum_over_ranks(exchange, *lines);
    }
    const auto progress = reading("");
    StreamedPages streamed = stream_dedup_pages(args.inputs, args.jobs, rank, exchange.size(), sign_options, sink,
                                                lines.get(), args.frame, args.identify_languages, drawn(progress));
    progress->finish();
    frame = streamed.frame;
    read_pages = streamed.pages;
    without_signature = streamed.without_signature;
    input_errors = std::move(streamed.errors);
    record_errors = std::move(streamed.record_errors);
    page_errors = std::move(streamed.page_errors);
    return Status();
  };
  Result<DedupRun> run = dedup(source, options, exchange);
  if (!run.ok()) return fatal(run.status().message());
  for (const Status& st : input_errors) fail("dedup", st.message(), 1);
  for (const Status& st : record_errors) fail("dedup", st.message(), 1);
  for (const Status& st : page_errors) fail("dedup", st.message() + " (left out)", 1);
  // Only texts given as text carry their site's frame; pages extracted
  // from HTML left it behind, and a run of them has nothing to report.
  if (const uint64_t framed = exchange.sum(frame.texts); args.frame.min_documents > 0 && framed > 0) {
    const uint64_t lines = exchange.sum(frame.lines);
    char line[160];
    std::snprintf(line, sizeof line, "%llu frame lines left out of %llu texts before signing (--host-lines %u, --host-share %g)",
                  static_cast<unsigned long long>(lines), static_cast<unsigned long long>(framed),
                  args.frame.min_documents, args.frame.share);
    say(line);
  }
  const uint64_t pages_without = exchange.sum(without_signature);
  if (pages_without > 0 && rank == 0)
    std::fprintf(stderr, "husk dedup: %llu pages without text or signatures left out\n",
                 static_cast<unsigned long long>(pages_without));
  const uint64_t all_input_errors = exchange.sum(input_errors.size());
  const uint64_t all_record_errors = exchange.sum(record_errors.size());
  if (exchange.sum(read_pages) == 0 && all_input_errors > 0) return 1;
  const CorpusResult& result = run->result;
  if (rank == 0) {
    std::ostream& out = output.out();
    for (std::size_t c = 0; c < result.clusters.size(); ++c)
      out << cluster_json(c, result.clusters[c]);
    out.flush();
    if (!out) return fatal("write failed");
    if (!args.pairs.empty()) {
      std::ofstream p(args.pairs, std::ios::binary | std::ios::trunc);
      for (const CorpusPair& pair : result.pairs)
        p << json_line(pair_record(pair.a, pair.b, pair.url_a, pair.url_b, measure_of(args.options), pair.score, pair.contained));
      if (!p) return fatal(args.pairs + ": cannot write");
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!args.report.empty())
      if (Status st = write_report(args, loaded.pages, loaded.texts, result, seconds); !st.ok()) return fail("dedup", st.message(), 1);
    std::size_t clustered = 0;
    for (const CorpusCluster& c : result.clusters) clustered += c.members.size() >= 2 ? c.members.size() : 0;
    std::fprintf(stderr, "husk dedup: %llu pages, %llu pairs from %llu candidates, %zu pages in clusters, %.2f s in all\n",
                 static_cast<unsigned long long>(result.pages), static_cast<unsigned long long>(result.verified),
                 static_cast<unsigned long long>(result.candidates), clustered, seconds);
  }
  if (all_record_errors > 0) {
    if (rank == 0) fail("dedup", std::to_string(all_record_errors) + " malformed records left out", 1);
    return 1;
  }
  // An input that could not be read whole (a damaged signature file) fails
  // the run, after the clusters of what could be read.
  return all_input_errors > 0 ? 1 : 0;
}

}  // namespace

Command add_dedup_command(CLI::App& app) {
  auto args = std::make_shared<DedupArgs>();
  std::string methods;
  for (const std::string& m : dedup_methods()) methods += (methods.empty() ? "" : ", ") + m;
  CLI::App* cmd = app.add_subcommand(
      "dedup",
      "Group near-duplicate pages. INPUT: husk sign output (or extract output,\n"
      "or pages: they are extracted and signed first). Output: one JSON line per\n"
      "cluster of 2+ pages: {\"cluster\", \"size\", \"main\", \"members\"}.");
  cmd->add_option("INPUT", args->inputs, "Signed JSONL, extract JSONL, or pages")->required();
  cmd->add_option("--method", args->options.method, methods)->check(CLI::IsMember(dedup_methods()))->capture_default_str();
  cmd->add_option("--k", args->options.k, "simhash: largest Hamming distance")->capture_default_str();
  cmd->add_option("--threshold", args->options.threshold,
                  "minhash, spotsigs: smallest Jaccard similarity (with --measure containment: smallest containment, "
                  "0.1 unless given)")
      ->check(CLI::Range(0.0, 1.0))
      ->each([args](const std::string&) { args->threshold_given = true; })
      ->capture_default_str();
  cmd->add_option("--measure", args->options.measure,
                  "minhash: jaccard (near-duplicates) | containment (text reuse: the share of the smaller text's\n"
                  "shingles found in the other; pairs say which is contained)")
      ->check(CLI::IsMember({"jaccard", "containment"}))
      ->capture_default_str();
  cmd->add_option("--cluster", args->cluster, "components | centre | degree")->capture_default_str();
  cmd->add_option("--main", args->main, "Main page: first | rank | boilerplate")->capture_default_str();
  cmd->add_option("--length-window", args->options.length_window,
                  "Compare only pages whose lengths differ by at most this share (0: off)")
      ->capture_default_str();
  cmd->add_flag("--any-language", [args](std::int64_t) { args->options.within_language = false; },
                "Also compare pages in different languages (by default a page is compared only with pages of "
                "its language, as its record or husk's extraction names it, and with pages of none)");
  cmd->add_flag("--identify-languages", args->identify_languages,
                "Identify the language of each text whose record names none (CLD2 on its first 2 KB) as it is "
                "read, before the search; costs about 0.8x more CPU on short texts")
      ->excludes("--any-language");
  cmd->add_option("--report", args->report, "Write SVG/CSV/JSON reports to DIR");
  cmd->add_option("--pairs", args->pairs, "Write the verified pairs as JSONL to FILE");
  cmd->add_flag("--singletons", args->singletons, "Also list pages that have no duplicate");
  cmd->add_option("-o,--output", args->output, "Output file (- for stdout)")->capture_default_str();
  cmd->add_option("-j,--jobs", args->jobs, "Threads for reading and signing (0: one per core)")->capture_default_str();
  cmd->add_option("--memory", args->memory,
                  "minhash: memory budget per process (e.g. 512M, 2G); band keys beyond a quarter of it are "
                  "partitioned to disk")
      ->transform(CLI::AsSizeValue(false))
      ->default_str("1G");
  cmd->add_option("--work-dir", args->work_dir,
                  "minhash: an existing directory for the spill files (default: $TMPDIR or /tmp); they go to a\n"
                  "directory of the run's own in it, removed at the end and when the run is stopped (Ctrl-C, SIGTERM, SIGHUP)");
  cmd->add_option("--host-lines", args->frame.min_documents,
                  "Before signing a record's text, leave out the lines that recur in at least this many records\n"
                  "of its URL's host and in --host-share of them (the site's frame); 0: off")
      ->capture_default_str();
  cmd->add_option("--host-share", args->frame.share,
                  "The share of a host's documents a frame line occurs in, at least")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  return {cmd, [args] { return run_dedup(*args); }};
}

}  // namespace husk::cli
