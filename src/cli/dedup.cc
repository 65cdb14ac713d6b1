// husk dedup: signatures in, clusters of near-duplicate pages out.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/dedup_input.h"
#include "cli/exchange.h"
#include "eval/report.h"

namespace husk::cli {

namespace {

struct DedupArgs {
  std::vector<std::string> inputs;
  DedupOptions options;
  std::string cluster = "degree";
  std::string main = "first";
  bool k_given = false;
  std::string report;
  std::string pairs;
  std::string output = "-";
  bool singletons = false;
  unsigned jobs = 0;
  uint64_t memory = uint64_t(1) << 30;
  std::string work_dir;
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

// One output line of a cluster (each member's URL beside its id, so that a
// WARC record id can be acted on), and of a verified pair (the measure by
// name next to its value).
std::string cluster_line(std::size_t index, const std::string& main, const std::vector<std::string>& members,
                         const std::vector<std::string>& urls) {
  nlohmann::ordered_json j;
  j["cluster"] = index;
  j["size"] = members.size();
  j["main"] = main;
  j["members"] = members;
  j["urls"] = urls;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// The measure a method's pairs are scored on.
std::string measure_of(const DedupOptions& o) {
  if (o.method == "simhash" || o.method == "simhash_hyperplane") return "hamming";
  if (o.method == "minhash") return o.measure;
  if (o.method == "spotsigs") return "jaccard";
  return "equal";  // the hash joins: the signature values are equal
}

// A verified pair; with containment, "contained" names the member (a or b)
// whose text is contained in the other's.
std::string pair_line(const std::string& a, const std::string& b, const std::string& url_a, const std::string& url_b,
                      const DedupOptions& o, float score, uint8_t contained = 0) {
  nlohmann::ordered_json j;
  j["a"] = a;
  j["b"] = b;
  j["url_a"] = url_a;
  j["url_b"] = url_b;
  j["measure"] = measure_of(o);
  j["score"] = score;
  if (contained != 0) j["contained"] = contained == 1 ? "a" : "b";
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// minhash without --report: the corpus-scale search (husk/corpus.h),
// streaming, within --memory, on every rank an MPI launcher started.
int run_corpus_dedup(const DedupArgs& args, Exchange& exchange) {
  const int rank = exchange.rank();
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
  options.work_dir = args.work_dir;
  options.jobs = args.jobs;
  options.singletons = args.singletons;
  options.keep_pairs = !args.pairs.empty();
  options.progress = say;
  const SignOptions sign_options;
  options.minhash_permutations = sign_options.minhash_permutations;
  options.dedup.sketch = sign_options.minhash_sketch;
  auto engine = CorpusDedup::make(options, exchange);
  if (!engine.ok()) return fatal(engine.status().message());
  if (exchange.size() > 1) say("running on " + std::to_string(exchange.size()) + " ranks");

  Output output;
  if (rank == 0)
    if (Status st = output.open(args.output); !st.ok()) return fatal(st.message());
  Status failed;
  StreamedPages streamed = stream_dedup_pages(args.inputs, args.jobs, rank, exchange.size(), sign_options,
                                              [&](uint64_t ordinal, const DedupPage& page, std::string_view probe) {
                                                if (!failed.ok()) return Status();
                                                Status st = (*engine)->add(ordinal, page, probe);
                                                // A page the search refuses is that page's error; a
                                                // store that cannot be written ends the run.
                                                if (st.code() == Code::kIo) failed = st;
                                                return st.code() == Code::kIo ? Status() : st;
                                              });
  if (!failed.ok()) return fatal(failed.message());
  for (const Status& st : streamed.errors) fail("dedup", st.message(), 1);
  for (const Status& st : streamed.record_errors) fail("dedup", st.message(), 1);
  if (streamed.without_signature > 0)
    std::fprintf(stderr, "husk dedup: %llu pages without text or signatures left out\n",
                 static_cast<unsigned long long>(streamed.without_signature));
  const uint64_t input_errors = exchange.sum(streamed.errors.size());
  const uint64_t record_errors = exchange.sum(streamed.record_errors.size());
  const uint64_t pages = exchange.sum(streamed.pages);
  if (pages == 0 && input_errors > 0) return 1;

  Result<CorpusResult> result = (*engine)->finish();
  if (!result.ok()) return fatal(result.status().message());
  if (rank == 0) {
    std::ostream& out = output.out();
    for (std::size_t c = 0; c < result->clusters.size(); ++c)
      out << cluster_line(c, result->clusters[c].main, result->clusters[c].members, result->clusters[c].urls);
    out.flush();
    if (!out) return fatal("write failed");
    if (!args.pairs.empty()) {
      std::ofstream p(args.pairs, std::ios::binary | std::ios::trunc);
      for (const CorpusPair& pair : result->pairs)
        p << pair_line(pair.a, pair.b, pair.url_a, pair.url_b, args.options, pair.score);
      if (!p) return fatal(args.pairs + ": cannot write");
    }
    std::size_t clustered = 0;
    for (const CorpusCluster& c : result->clusters) clustered += c.members.size() >= 2 ? c.members.size() : 0;
    std::fprintf(stderr, "husk dedup: %llu pages, %llu pairs from %llu candidates, %zu pages in clusters, %.2f s in all\n",
                 static_cast<unsigned long long>(result->pages), static_cast<unsigned long long>(result->verified),
                 static_cast<unsigned long long>(result->candidates), clustered,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  if (record_errors > 0) {
    if (rank == 0) fail("dedup", std::to_string(record_errors) + " malformed records left out", 1);
    return 1;
  }
  return input_errors > 0 ? 1 : 0;
}

int run_dedup(DedupArgs args) {
  auto cluster = cluster_method_named(args.cluster);
  auto main = main_page_named(args.main);
  if (!cluster.ok()) return fail("dedup", cluster.status().message(), 2);
  if (!main.ok()) return fail("dedup", main.status().message(), 2);
  args.options.cluster = *cluster;
  args.options.main = *main;
  // The corpus-scale search serves minhash near-duplicates; containment,
  // the other methods and --report run in memory.
  if (args.options.method == "minhash" && args.options.measure == "jaccard" && args.report.empty()) {
    auto exchange = launcher_exchange();
    if (!exchange.ok()) return fail("dedup", exchange.status().message(), 2);
    return run_corpus_dedup(args, **exchange);
  }
  if (launched_by_mpi()) {
    // Only rank 0 says why, once.
    const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
    if (!rank || std::string(rank) == "0")
      fail("dedup", "only --method minhash without --report runs across MPI ranks; run --method " +
                        args.options.method + (args.report.empty() ? "" : " or --report") +
                        (args.options.measure == "jaccard" ? "" : " or --measure " + args.options.measure) +
                        " as one process",
           2);
    return 2;
  }
  auto start = std::chrono::steady_clock::now();
  LoadedPages loaded = load_dedup_pages(args.inputs, args.jobs);
  for (const Status& st : loaded.errors) fail("dedup", st.message(), 1);
  for (const Status& st : loaded.record_errors) fail("dedup", st.message(), 1);
  if (loaded.pages.empty() && !loaded.errors.empty()) return 1;
  if (loaded.without_signature > 0)
    std::fprintf(stderr, "husk dedup: %zu pages without text or signatures left out\n", loaded.without_signature);
  const std::vector<DedupPage>& pages = loaded.pages;

  auto search_start = std::chrono::steady_clock::now();
  DedupStats stats;
  Result<std::vector<Pair>> pairs = find_pairs(pages, args.options, &stats);
  if (!pairs.ok()) return fail("dedup", pairs.status().message(), 2);
  std::vector<Cluster> clusters = cluster_pages(pages, *pairs, args.options, args.singletons);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - search_start).count();

  Output output;
  if (Status st = output.open(args.output); !st.ok()) return fail("dedup", st.message(), 1);
  std::ostream* out = &output.out();
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    std::vector<std::string> members, urls;
    for (uint32_t m : clusters[c].members) {
      members.push_back(pages[m].id);
      urls.push_back(pages[m].url);
    }
    *out << cluster_line(c, pages[clusters[c].main].id, members, urls);
  }
  out->flush();
  if (!*out) return fail("dedup", "write failed", 1);
  if (!args.pairs.empty()) {
    std::ofstream p(args.pairs, std::ios::binary | std::ios::trunc);
    for (const Pair& pair : *pairs)
      p << pair_line(pages[pair.a].id, pages[pair.b].id, pages[pair.a].url, pages[pair.b].url, args.options,
                     pair.score, pair.contained);
    if (!p) return fail("dedup", args.pairs + ": cannot write", 1);
  }
  if (!args.report.empty()) {
    DedupReport report;
    report.method = args.options.method;
    report.setting = setting_of(args.options);
    report.pages = pages.size();
    report.seconds = seconds;
    report.stats = stats;
    for (const DedupOptions& v : report_settings(args.options)) {
      auto vp = find_pairs(pages, v);
      if (vp.ok()) report.settings.emplace_back(setting_of(v), cluster_pages(pages, *vp, v));
    }
    report.clusters = clusters;
    if (Status st = write_dedup_report(args.report, report, pages); !st.ok()) return fail("dedup", st.message(), 1);
  }
  std::size_t clustered = 0;
  for (const Cluster& c : clusters) clustered += c.members.size() >= 2 ? c.members.size() : 0;
  std::fprintf(stderr, "husk dedup: %zu pages, %zu pairs from %llu candidates, %zu pages in clusters, %.2f s (%.2f s in all)\n",
               pages.size(), pairs->size(), static_cast<unsigned long long>(stats.candidates), clustered, seconds,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (!loaded.record_errors.empty())
    return fail("dedup", std::to_string(loaded.record_errors.size()) + " malformed records left out", 1);
  // An input that could not be read whole (a damaged signature file) fails
  // the run as it does in the corpus search, after the clusters of what
  // could be read.
  return loaded.errors.empty() ? 0 : 1;
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
                  "minhash, spotsigs: smallest Jaccard similarity (with --measure containment: smallest containment)")
      ->check(CLI::Range(0.0, 1.0))
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
                "Also compare pages in different languages (by default each page is compared only within its "
                "language: the record's \"language\", else CLD2 on its text)");
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
  cmd->add_option("--work-dir", args->work_dir, "minhash: where spill files go (default: $TMPDIR or /tmp)");
  return {cmd, [args] { return run_dedup(*args); }};
}

}  // namespace husk::cli
