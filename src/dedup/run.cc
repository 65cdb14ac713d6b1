// husk::dedup (husk/corpus.h): the one place that chooses the engine, so
// that the CLI, MPI runs and Python get the same clusters for the same
// options.
#include <algorithm>
#include <utility>

#include "base/bytes.h"
#include "dedup/stages.h"
#include "husk/corpus.h"
#include "record/signature_file.h"

namespace husk {

bool runs_in_corpus_engine(const DedupOptions& options) {
  return options.method == "minhash" && options.measure == "jaccard";
}

bool runs_across_ranks(const DedupOptions& options) { return options.method == "minhash"; }

namespace {

// Pages sent between ranks: each its ordinal, then its record in the
// signature file's form (record/signature_file.h).
void put_page(std::string& out, uint64_t ordinal, const DedupPage& page) {
  put_bytes(out, ordinal);
  append_signature_record(out, page);
}

Status take_pages(std::string_view in, std::vector<std::pair<uint64_t, DedupPage>>& out) {
  while (!in.empty()) {
    uint64_t ordinal = 0;
    DedupPage page;
    if (!take_bytes(in, ordinal) || !take_signature_record(in, page).ok())
      return Status(Code::kInternal, "a page sent between ranks did not read back");
    out.emplace_back(ordinal, std::move(page));
  }
  return Status();
}

Result<CorpusResult> in_corpus_engine(const DedupSource& source, const CorpusOptions& options, Exchange& exchange) {
  auto engine = CorpusDedup::make(options, exchange);
  if (!engine.ok()) return engine.status();
  // A page the search refuses is that page's error; a store that cannot
  // be written ends the run.
  Status failed;
  Status read = source([&](uint64_t ordinal, DedupPage& page) {
    if (!failed.ok()) return Status();
    Status st = (*engine)->add(ordinal, page);
    if (st.code() != Code::kIo) return st;
    failed = std::move(st);
    return Status();
  });
  if (!failed.ok()) return failed;
  if (!read.ok()) return read;
  return (*engine)->finish();
}

// The search in memory, on rank 0. Across ranks (minhash's containment
// measure), each rank reads and signs its own share and sends the pages to rank 0, which searches them in input
// order: the clusters one process finds.
Result<CorpusResult> in_memory(const DedupSource& source, const CorpusOptions& options, Exchange& exchange) {
  if (exchange.size() > 1 && !runs_across_ranks(options.dedup))
    return Status(Code::kInvalidArgument, "only --method minhash runs across ranks; run --method " +
                                              options.dedup.method + " as one process");
  const StageLines stages(options);
  std::vector<std::pair<uint64_t, DedupPage>> numbered;
  Status read = source([&](uint64_t ordinal, DedupPage& page) {
    numbered.emplace_back(ordinal, std::move(page));
    return Status();
  });
  if (exchange.size() > 1) {
    // Every rank takes part in the exchange, whatever it read.
    std::vector<std::string> out(static_cast<std::size_t>(exchange.size()));
    for (const auto& [ordinal, page] : numbered) put_page(out[0], ordinal, page);
    numbered.clear();
    std::vector<std::string> in = exchange.all_to_all(std::move(out));
    // The other ranks are done: their result is empty, the counts too.
    if (exchange.rank() != 0) return read.ok() ? Result<CorpusResult>(CorpusResult{}) : Result<CorpusResult>(read);
    for (const std::string& pages : in)
      if (Status st = take_pages(pages, numbered); !st.ok()) return st;
    std::sort(numbered.begin(), numbered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  }
  if (!read.ok()) return read;
  std::vector<DedupPage> pages;
  pages.reserve(numbered.size());
  for (auto& [ordinal, page] : numbered) pages.push_back(std::move(page));
  numbered.clear();
  // The stages of a long search in memory say when they end, as the
  // corpus engine's do.
  stages("read " + std::to_string(pages.size()) + " pages");
  DedupStats stats;
  Result<std::vector<Pair>> pairs = find_pairs(pages, options.dedup, &stats);
  if (!pairs.ok()) return pairs.status();
  stages("verified " + std::to_string(pairs->size()) + " pairs of " + std::to_string(stats.candidates) + " candidates");
  CorpusResult out;
  out.pages = pages.size();
  out.candidates = stats.candidates;
  out.verified = pairs->size();
  for (const Cluster& c : cluster_pages(pages, *pairs, options.dedup, options.singletons)) {
    CorpusCluster& cluster = out.clusters.emplace_back();
    cluster.main = pages[c.main].id;
    for (uint32_t m : c.members) {
      cluster.members.push_back(pages[m].id);
      cluster.urls.push_back(pages[m].url);
    }
  }
  stages("clustered: " + std::to_string(out.clusters.size()) + " clusters");
  if (options.keep_pairs)
    for (const Pair& p : *pairs)
      out.pairs.push_back({pages[p.a].id, pages[p.b].id, pages[p.a].url, pages[p.b].url, p.score, p.contained});
  return out;
}

}  // namespace

Result<DedupRun> dedup(const DedupSource& source, const CorpusOptions& options, Exchange& exchange) {
  DedupRun run;
  const bool corpus = runs_in_corpus_engine(options.dedup);
  run.engine = corpus ? "corpus" : "memory";
  Result<CorpusResult> result =
      corpus ? in_corpus_engine(source, options, exchange) : in_memory(source, options, exchange);
  if (!result.ok()) return result.status();
  run.result = std::move(*result);
  return run;
}

}  // namespace husk
