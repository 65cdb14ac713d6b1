// The crawler's post-fetch hook: one page in, its clean text, signatures
// and near-duplicate verdict out, indexed persistently (DESIGN.md, user 1).
//
// The index is one LMDB environment (--db DIR):
//   docs      page id -> the page's record (JSON: url, title, text, sig,
//             cluster, duplicate_of)
//   minhash   page id -> its 128 minima (raw), for verification
//   bands     (band, key) -> page ids: the minhash LSH buckets
//   simhash   (table, 16-bit block, fingerprint) -> page ids: Manku's
//             permuted tables for k = 3 as sorted keys, so a table lookup
//             is a prefix range scan
//   clusters  cluster id -> its main page id
//   members   cluster id -> page ids
//   meta      counters
// A page is a near-duplicate of an indexed one when their estimated
// Jaccard similarity is at least 0.5 (husk dedup's default) or their
// simhash fingerprints are within Hamming distance 3; it joins that
// page's cluster. A page id is derived from its URL (or its bytes without
// one), so posting a page again replaces it instead of indexing it twice.
//
// Writes go through one writer thread that commits every page waiting at
// that moment in one transaction (group commit); process() returns only
// after the commit that holds its page, so an acknowledged page survives
// a crash of the process (see HookOptions::fsync_each_commit for the
// system). Any number of threads may call process() and the readers.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "husk/pipeline.h"
#include "husk/sign.h"
#include "husk/status.h"

namespace husk {

struct HookOptions {
  std::string db;  // LMDB directory, created when missing
  PipelineOptions pipeline;
  SignOptions sign;
  double threshold = 0.5;  // minhash Jaccard for a duplicate
  uint32_t simhash_k = 3;  // Manku's k for 64-bit fingerprints
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
  // A template store (husk extract --extractor template --state DIR): pages
  // of a site with a learned template are extracted with it.
  std::string templates;
};

struct HookResult {
  std::string id;
  std::string url;
  std::string title;
  std::string text;
  std::string sig_json;  // the "sig" object, or "null"
  std::string cluster;   // cluster id (its first page's id)
  // The cluster's main page when this page is a near-duplicate of an
  // indexed one: id, url, and the similarity that matched.
  std::optional<std::string> duplicate_of;
  std::optional<std::string> duplicate_url;
  std::optional<std::string> duplicate_measure;  // "jaccard 0.93" or "hamming 2"
  std::vector<std::string> warnings;
  std::string error;  // the page failed; nothing was indexed
};

struct IndexStats {
  uint64_t pages = 0;
  uint64_t clusters = 0;
  uint64_t duplicates = 0;  // pages indexed as a near-duplicate of another
  uint64_t band_postings = 0;
  uint64_t simhash_postings = 0;
  uint64_t bytes_on_disk = 0;
};

class Hook {
 public:
  static Result<std::unique_ptr<Hook>> open(const HookOptions& options);
  ~Hook();

  // Extracts, signs, looks up and indexes one page; thread-safe.
  HookResult process(std::string_view url, std::string_view bytes, std::string_view content_type = {});
  // Many pages, one commit.
  std::vector<HookResult> process_batch(const std::vector<RawPage>& pages);

  // The stored record (JSON) of a page, or nothing.
  std::optional<std::string> get(const std::string& id) const;
  // Removes a page from every table; false when it was not there.
  Result<bool> remove(const std::string& id);
  // {"cluster", "main", "members"} as JSON, or nothing.
  std::optional<std::string> cluster(const std::string& id) const;

  IndexStats stats() const;
  // Checks that every posting points at a stored page and every stored
  // page has its postings; returns the problems found (none: clean).
  std::vector<std::string> verify() const;
  // Copies the environment, compacted, into an empty directory (a backup).
  Status compact_to(const std::string& dir) const;
  // Every stored record, one JSON line each, in id order.
  Status export_jsonl(std::ostream& out) const;

  // The page id husk gives a URL (or, without one, the page's bytes).
  static std::string page_id(std::string_view url, std::string_view bytes);

 private:
  struct Impl;
  explicit Hook(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace husk
