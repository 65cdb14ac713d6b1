// Reading every page of the inputs and analysing it (decode, parse,
// segment) on `jobs` threads, in input order: for the commands that need
// all of a site's pages at once (template extraction, tune).
#pragma once

#include <string>
#include <vector>

#include "cli/ordered_batches.h"
#include "husk/ingest.h"
#include "husk/pipeline.h"

namespace husk::cli {

inline std::vector<Analyzed> analyze_all(const std::vector<std::string>& inputs, const IngestOptions& ingest_options,
                                         const Pipeline& pipeline, unsigned jobs, bool keep_dom, IngestStats& stats) {
  std::vector<Analyzed> analyzed;
  OrderedBatches<RawPage, Analyzed> analyze(
      OrderedBatches<RawPage, Analyzed>::resolve_jobs(jobs),
      [&](const RawPage& page) { return pipeline.analyze(page, keep_dom); },
      [&](const RawPage&, Analyzed& a) { analyzed.push_back(std::move(a)); });
  stats = ingest(inputs, ingest_options, [&](RawPage&& page) {
    std::size_t size = page.bytes.size();
    analyze.push(std::move(page), size);
    return true;
  });
  analyze.finish();
  return analyzed;
}

}  // namespace husk::cli
