// The persistent near-duplicate index behind the crawler's post-fetch hook:
// pages with their signatures go in, each is told which indexed page it
// near-duplicates and which cluster it joins, and everything survives a
// killed process.
//
// One LMDB environment (a directory):
//   docs        page id -> the page's record (JSON: id, url, title, text,
//               sig, cluster, duplicate_of)
//   minhash     page id -> its minima (raw), for verification
//   bands       (band, key) -> page ids: the minhash LSH buckets, banded
//               as husk dedup bands them for the threshold
//   simhash     (table, key bits, fingerprint) -> page ids: Manku's
//               permuted tables for k, the same block layout husk dedup's
//               search uses, as sorted keys so a table lookup is a range
//               scan
//   clusters    cluster id -> its main page id and URL
//   members     cluster id -> page ids
//   cluster_of  page id -> cluster id
//   meta        counters and the index's settings
// A page is a near-duplicate of an indexed one when their estimated
// Jaccard similarity is at least `threshold` or their simhash fingerprints
// are within Hamming distance `simhash_k` (husk dedup's measures); it joins
// that page's cluster. Posting a page id again replaces the page.
//
// Every write (add and remove) goes through one writer thread that commits
// every request waiting at that moment in one transaction (group commit);
// add() returns only after the commit that holds its pages, so an
// acknowledged page survives a crash of the process. Any number of threads
// may call add(), remove() and the readers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "husk/processor.h"
#include "husk/sign.h"
#include "husk/status.h"

namespace husk {

struct IndexOptions {
  std::string dir;  // the LMDB directory, created when missing
  // Jaccard similarity (estimated from minhash) for a duplicate: husk
  // dedup's default.
  double threshold = 0.5;
  // Hamming distance of 64-bit simhash fingerprints for a duplicate; 0-8
  // (Manku 2007 uses 3 for 8 billion pages). Larger k needs tables whose
  // keys are too short to prune at index scale, and is refused.
  uint32_t simhash_k = 3;
  // Minima per minhash signature (SignOptions::minhash_permutations).
  uint32_t minhash_permutations = 128;
  std::size_t map_size = std::size_t(8) << 30;  // LMDB address space (8 GiB, used as written)
  // A commit reaches the operating system before its pages are
  // acknowledged, so a killed process loses nothing. `fsync_each_commit`
  // also waits for the disk (a power cut loses nothing either) at the
  // price of one disk flush per commit (measured here: ~40 ms, so ~50
  // pages/s at 2 connections); without it the index is flushed every
  // `sync_interval_ms` (LMDB's MDB_NOSYNC: a system crash can undo the
  // last commits, never corrupt the index).
  bool fsync_each_commit = false;
  unsigned sync_interval_ms = 1000;
};

constexpr uint32_t kMaxIndexSimhashK = 8;

// An indexed page that a page near-duplicates.
struct Match {
  std::string id;
  std::string url;
  std::string measure;  // "jaccard 0.930" or "hamming 2"
};

// What the index says of a page it took.
struct Verdict {
  std::string cluster;                // the cluster id (its first page's id)
  std::optional<Match> duplicate_of;  // the cluster's main page, when the page joined one
};

struct IndexStats {
  uint64_t pages = 0;
  uint64_t clusters = 0;
  uint64_t duplicates = 0;  // pages indexed as a near-duplicate of another
  uint64_t band_postings = 0;
  uint64_t simhash_postings = 0;
  uint64_t bytes_on_disk = 0;
};

class Index {
 public:
  static Result<std::unique_ptr<Index>> open(const IndexOptions& options);
  ~Index();

  // Looks up and indexes pages in one commit. A page needs an id and
  // signatures with minhash minima; one without gets an error, as does
  // every page of a commit that fails.
  std::vector<Result<Verdict>> add(const std::vector<const PageResult*>& pages);
  // Removes a page from every table; false when it was not there.
  Result<bool> remove(const std::string& id);

  // The stored record (JSON) of a page, or nothing.
  std::optional<std::string> get(const std::string& id) const;
  // {"cluster", "main", "size", "members"} as JSON, or nothing.
  std::optional<std::string> cluster(const std::string& id) const;
  // Every indexed page that near-duplicates these signatures, by either
  // measure; the best first (highest Jaccard, then smallest distance).
  std::vector<Match> similar(const Signatures& signatures) const;

  IndexStats stats() const;
  // Checks that every posting points at a stored page and every stored
  // page has its postings; returns the problems found (none: clean).
  std::vector<std::string> verify() const;
  // Copies the environment, compacted, into an empty directory (a backup).
  Status compact_to(const std::string& dir) const;
  // Every stored record, one JSON line each, in id order.
  Status export_jsonl(std::ostream& out) const;

  struct Impl;

 private:
  explicit Index(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace husk
