// The stage lines of a dedup run (CorpusOptions::progress): what a stage
// did and the seconds since the run began ("read 1000000 pages (45.2 s)";
// CorpusOptions::started), alike from the corpus engine and the search in
// memory.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include "husk/corpus.h"

namespace husk {

class StageLines {
 public:
  explicit StageLines(const CorpusOptions& options)
      : options_(options),
        start_(options.started == std::chrono::steady_clock::time_point{} ? std::chrono::steady_clock::now()
                                                                          : options.started) {}

  // Called on rank 0 alone in a run across ranks.
  void operator()(const std::string& line) const {
    if (!options_.progress) return;
    char seconds[32];
    std::snprintf(seconds, sizeof(seconds), " (%.1f s)",
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
    options_.progress(line + seconds);
  }

 private:
  const CorpusOptions& options_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace husk
