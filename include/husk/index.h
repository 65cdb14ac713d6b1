// The persistent near-duplicate index behind the crawler's post-fetch hook:
// pages with their signatures go in, each is told which indexed page it
// near-duplicates and which cluster it joins, and everything survives a
// killed process.
//
// One LMDB environment (a directory):
//   docs        page id -> the page's record (JSON: id, url, title, text,
//               sig, cluster, duplicate_of)
//   minhash     page id -> what verification reads: its language, its
//               arrival number, its minima and its shingle sketch
//   bands       (band, key) -> page ids: the minhash LSH buckets, banded
//               as husk dedup bands them for the threshold; with the
//               containment measure (254, sketch value) -> page ids
//   simhash     (table, key bits, fingerprint) -> page ids: Manku's
//               permuted tables for k, the same block layout husk dedup's
//               search uses, as sorted keys so a table lookup is a range
//               scan (filled only with `simhash` on)
//   clusters    cluster id -> its main page id and URL
//   members     cluster id -> page ids
//   cluster_of  page id -> cluster id
//   paragraphs  paragraph hash -> how many stored texts hold it, and
//   counted     page ids whose paragraphs are counted there (both filled
//               only with dedup_paragraphs on)
//   host_lines  host line key -> how many stored pages hold it (a host's
//               document key: how many pages it has), and
//   framed      page id -> the keys its text was counted for (both filled
//               only for pages given as text, with host_lines on)
//   meta        counters and the index's settings
//
// The decision is husk dedup's, made one page at a time (dedup/search.h,
// near_duplicate): candidates share a minhash band (and, with `simhash`,
// a simhash table key within k); a candidate is a near-duplicate only when
// the shingle sketches' Jaccard similarity reaches `threshold` (a page of
// few distinct shingles: only when the shingles are the same), in the
// same language when both are known. A signature collision alone never
// decides. With the containment measure (IndexOptions::measure) the
// candidates share two sketch values and the decision is husk dedup
// --measure containment's. Clusters are the connected components of the verified pairs
// (husk dedup's default), keyed by their earliest-indexed page: a page
// joins the clusters of the pages it near-duplicates (two or more become
// one) and is answered duplicate_of the earliest of those pages; a page
// that near-duplicates none starts a cluster of its own; when a page
// leaves, the rest of its cluster is clustered again. Fed the same pages,
// the index gives every page the cluster husk dedup gives it, whatever the
// order.
// Posting a page id again replaces the page.
//
// Every write (add and remove) goes through one writer thread that commits
// every request waiting at that moment in one transaction (group commit);
// add() returns only after the commit that holds its pages, so an
// acknowledged page survives a crash of the process. Any number of threads
// may call add(), remove() and the readers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "husk/dedup.h"
#include "husk/processor.h"
#include "husk/sign.h"
#include "husk/status.h"

namespace husk {

struct IndexOptions {
  std::string dir;  // the LMDB directory, created when missing
  // "jaccard" (near-duplicates) or "containment" (text reuse: a page whose
  // shingles lie largely inside another's, a quotation or a paragraph of a
  // longer article), husk dedup --measure. With containment the postings
  // are the pages' sketch values instead of minhash bands (candidates
  // share two), as husk dedup's containment search takes them.
  std::string measure = "jaccard";
  // Jaccard similarity of the shingle sketches for a duplicate: husk
  // dedup's default. With containment, the smallest containment:
  // kContainmentThreshold is the measured default there.
  double threshold = DedupOptions{}.threshold;
  // Pages of fewer distinct shingles match only pages of the same
  // shingles (DedupOptions::min_shingles).
  uint32_t min_shingles = DedupOptions{}.min_shingles;
  // Pages in two known, different languages are never duplicates
  // (DedupOptions::within_language).
  bool within_language = true;
  // The simhash arm: Manku's tables as a second source of candidates,
  // verified like every other. Without collection statistics simhash
  // collapses texts dominated by one token (numbers masked to one term),
  // so clients turn it on only with an IDF file (husk serve --idf).
  bool simhash = false;
  // Hamming distance of 64-bit simhash fingerprints for a candidate; 0-8
  // (Manku 2007 uses 3 for 8 billion pages). Larger k needs tables whose
  // keys are too short to prune at index scale, and is refused.
  uint32_t simhash_k = 3;
  // Minima per minhash signature (SignOptions::minhash_permutations).
  uint32_t minhash_permutations = 128;
  // The bottom-k sketch size pages are signed with (SignOptions::minhash_sketch).
  uint32_t sketch = 256;
  // Open an existing index with the settings it was written with instead
  // of the ones above (husk db's maintenance reads any index).
  bool adopt_settings = false;
  // The most the index may hold (8 GiB). The file grows as pages are
  // written; past this, adds are refused with Code::kLimit (husk serve:
  // 507) while deletions go on in a reserve mapped beyond it.
  std::size_t map_size = std::size_t(8) << 30;
  // A commit reaches the operating system before its pages are
  // acknowledged, so a killed process loses nothing. `fsync_each_commit`
  // also waits for the disk (a power cut loses nothing either) at the
  // price of one disk flush per commit (measured here: ~40 ms, so ~50
  // pages/s at 2 connections); without it the index is flushed every
  // `sync_interval_ms` (LMDB's MDB_NOSYNC: a system crash can undo the
  // last commits, never corrupt the index).
  bool fsync_each_commit = false;
  unsigned sync_interval_ms = 1000;
  // Segment-level dedup across the crawl (husk extract --dedup-paragraphs
  // within a run): a page's stored and answered text leaves out the
  // paragraphs that this many pages indexed before it held; 0: off. The
  // counts persist in the index (a page that leaves, or is replaced, is
  // uncounted) and are kept only while this is on; the signatures are the
  // whole text's.
  uint32_t dedup_paragraphs = 0;
  // Frame lines, husk dedup's --host-lines and --host-share (HostLines): a
  // page given as text without signatures is signed here with `sign_text`
  // once the lines that recur in its URL host's pages have left it. The
  // index keeps the counts (per host: its pages and each line's pages,
  // exact, in the tables host_lines and framed, in the writer's
  // transaction; a page that leaves or is replaced is uncounted), so a
  // line becomes frame once the pages indexed so far hold it often enough
  // (pages indexed before that keep their signatures). Pages given with
  // their signatures (husk serve's and husk hook's, which husk extracted
  // from HTML, leaving the frame out) are taken as they are, as husk dedup
  // takes the records it does not sign. min_documents 0: off. Without
  // `sign_text`, a page without signatures is refused.
  HostLineOptions host_lines;
  std::function<Signatures(std::string_view text)> sign_text;
};

constexpr uint32_t kMaxIndexSimhashK = 8;

// An indexed page that a page near-duplicates.
struct Match {
  std::string id;
  std::string url;
  std::string measure = "jaccard";  // the measure that decided
  double score = 0;                 // its value: the sketches' Jaccard similarity or containment
  // With containment, which text lies inside the other: "page" (the page
  // answered, or the signatures looked up, inside this match) or "match"
  // (this match inside the page); empty with Jaccard.
  std::string contained;
};

// What the index says of a page it took.
struct Verdict {
  // The page's cluster: the connected component of its verified pairs,
  // keyed by the component's earliest-indexed page (its main page).
  std::string cluster;
  // The earliest-indexed page this one near-duplicates, when there is one.
  std::optional<Match> duplicate_of;
  // With IndexOptions::dedup_paragraphs, when paragraphs seen before left
  // the page's text: the text stored and answered, and how many left.
  std::optional<std::string> text;
  std::size_t paragraphs_dropped = 0;
  // With IndexOptions::host_lines, the frame lines that left a page given
  // as text before it was signed.
  std::size_t frame_lines = 0;
};

// {"duplicate_of": {"id", "url", "measure", "score"[, "contained"]} or
// null, "cluster"}: the verdict as every answer and stored record writes it.
std::string verdict_json(const Verdict& verdict);

struct IndexStats {
  uint64_t pages = 0;
  uint64_t clusters = 0;
  uint64_t duplicates = 0;  // pages indexed as a near-duplicate of another
  uint64_t band_postings = 0;
  uint64_t simhash_postings = 0;
  uint64_t bytes_on_disk = 0;
  uint64_t used_bytes = 0;   // held by the index's data (pages written less pages freed)
  uint64_t limit_bytes = 0;  // IndexOptions::map_size: adds are refused at this
};

// The counts as husk db stats prints them and DedupIndex.stats() returns
// them: {"pages", "clusters", "duplicates", "band_postings",
// "simhash_postings", "bytes_on_disk", "used_bytes"}; `indent` as
// nlohmann::json's dump takes it (-1: one line).
std::string index_stats_json(const IndexStats& stats, int indent = -1);

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

  // The stored record (JSON) of a page, or nothing; Code::kCorrupt when
  // the stored bytes are not a JSON object (a damaged file), so that no
  // reader is handed invalid JSON.
  Result<std::optional<std::string>> get(const std::string& id) const;
  // {"cluster", "main", "size", "members"} as JSON, or nothing.
  std::optional<std::string> cluster(const std::string& id) const;
  // Every indexed page that near-duplicates these signatures (of a page in
  // `language`, "" when unknown), by the index's decision; the best first
  // (highest similarity, then id).
  std::vector<Match> similar(const Signatures& signatures, const std::string& language = "") const;
  // A text as the index would sign it were it added under `url`: without
  // its host's frame lines (IndexOptions::host_lines), by the pages stored
  // now with this text among them; the text as it is when no line leaves.
  std::string without_frame_lines(std::string_view url, std::string_view text) const;

  IndexStats stats() const;
  // The options the index was opened with (its decision rule among them).
  const IndexOptions& options() const;
  // Where a pass over a large index stands, for a progress line (husk db
  // draws one on a terminal): the table being read ("pages", "band
  // postings", ...) and its entries read, of how many it holds. Called on
  // the calling thread, entry by entry; compact_to's from a thread of its
  // own, a few times a second.
  using Progress = std::function<void(const std::string& reading, uint64_t done, uint64_t total)>;
  // Checks that every posting points at a stored page and every stored
  // page has its postings, and that records, clusters and counters agree;
  // returns the problems found (none: clean). Reads every table in key
  // order, in bounded memory; `exhaustive` looks every posting up one by
  // one instead (the same problems, in the same order: the streamed
  // check's twin, with a resident set as large as the index).
  std::vector<std::string> verify(bool exhaustive = false, const Progress& progress = {}) const;
  // Copies the environment, compacted, into an empty directory (a backup).
  // Its progress is the bytes written ("bytes written") of those the index
  // uses; the last call gives the copy's size as both.
  Status compact_to(const std::string& dir, const Progress& progress = {}) const;
  // Every stored record, one JSON line each, in id order. A damaged record
  // is left out and named in the error returned after the others are
  // written.
  Status export_jsonl(std::ostream& out, const Progress& progress = {}) const;

  struct Impl;

 private:
  explicit Index(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace husk
