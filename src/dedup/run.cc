// husk::dedup (husk/corpus.h): the one place that chooses the engine, so
// that the CLI, MPI runs and Python get the same clusters for the same
// options.
#include <utility>

#include "husk/corpus.h"
#include "husk/metadata.h"

namespace husk {

bool runs_in_corpus_engine(const DedupOptions& options) {
  return options.method == "minhash" && options.measure == "jaccard";
}

namespace {

Result<CorpusResult> in_corpus_engine(const DedupSource& source, const CorpusOptions& options, Exchange& exchange) {
  auto engine = CorpusDedup::make(options, exchange);
  if (!engine.ok()) return engine.status();
  // A page the search refuses is that page's error; a store that cannot
  // be written ends the run.
  Status failed;
  Status read = source([&](uint64_t ordinal, DedupPage& page, std::string_view probe) {
    if (!failed.ok()) return Status();
    Status st = (*engine)->add(ordinal, page, probe);
    if (st.code() != Code::kIo) return st;
    failed = std::move(st);
    return Status();
  });
  if (!failed.ok()) return failed;
  if (!read.ok()) return read;
  return (*engine)->finish();
}

Result<CorpusResult> in_memory(const DedupSource& source, const CorpusOptions& options, Exchange& exchange) {
  if (exchange.size() > 1)
    return Status(Code::kInvalidArgument, "only --method minhash with --measure jaccard runs across ranks; run --method " +
                                              options.dedup.method + " --measure " + options.dedup.measure +
                                              " as one process");
  std::vector<DedupPage> pages;
  Status read = source([&](uint64_t, DedupPage& page, std::string_view probe) {
    page.language = page_language(page.language, probe);
    pages.push_back(std::move(page));
    return Status();
  });
  if (!read.ok()) return read;
  DedupStats stats;
  Result<std::vector<Pair>> pairs = find_pairs(pages, options.dedup, &stats);
  if (!pairs.ok()) return pairs.status();
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
