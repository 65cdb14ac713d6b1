// Collection statistics: document frequencies of terms over a corpus, for
// the global signers (tfidf, heavy_sent, lexrand, imatch, simhash weights).
//
// Built in one streaming pass (`husk idf build`) with lossy counting
// (Manku & Motwani, "Approximate Frequency Counts over Data Streams", VLDB
// 2002): memory stays bounded by O(1/epsilon * log(epsilon * N)) entries for
// N (document, term) pairs, counts are exact until N reaches 1/epsilon and
// under-count by at most epsilon * N after that; only terms rarer than that
// are forgotten, and for IDF they weigh the most anyway.
//
// File format (text, UTF-8, one record per line):
//   husk-idf 1                version header
//   documents N               documents counted
//   epsilon E                 the lossy-counting error bound used
//   normalize OPTIONS         how terms were normalised (husk::describe)
//   TERM<TAB>DF               one line per term, sorted by term bytes
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "husk/string_set.h"

#include "husk/status.h"

namespace husk {

struct CollectionStats {
  uint64_t documents = 0;
  std::string normalize;  // the normalisation the terms went through
  StringMap<uint64_t> df;

  // log(N / df) (seed 003, "TF*IDF"); a term the collection never saw
  // counts as seen once.
  double idf(std::string_view term) const;
  // df / N, 0 for unseen terms.
  double df_share(std::string_view term) const;
};

class DfCounter {
 public:
  // epsilon 1e-6: exact below a million (document, term) pairs, about a
  // thousand documents of error on a billion.
  explicit DfCounter(double epsilon = 1e-6);
  // `terms` may repeat; each distinct term counts once for the document.
  void add_document(const std::vector<std::string>& terms);
  CollectionStats finish() const;
  std::size_t entries() const { return counts_.size(); }

 private:
  struct Entry {
    uint64_t count;
    uint64_t delta;
  };
  void prune();
  double epsilon_;
  uint64_t bucket_width_;
  uint64_t items_ = 0;
  uint64_t documents_ = 0;
  std::unordered_map<std::string, Entry> counts_;
};

Status save_collection_stats(const CollectionStats& stats, double epsilon, const std::string& path);
Result<CollectionStats> load_collection_stats(const std::string& path);

}  // namespace husk
