// Corpus-scale minhash dedup: pages in, clusters out, in memory bounded by
// a budget and on any number of processes (ranks) with the same result.
//
// The search is the map and reduce of Sergukova's lecture made concrete:
//   map      each rank keys its own pages by their LSH band keys (the
//            banding of lsh_bands_for) and sends each key to the rank that
//            owns it (key hash mod ranks); a page keeps, in memory, only
//            the offset of its record in an on-disk store (id, rank,
//            boilerplate, language, length, bottom-k sketch)
//   group    each rank sorts its keys in partitions no larger than its
//            budget (spilled to disk, as an external hash-partitioned sort,
//            when they do not fit) and pairs the pages of each key; a key
//            shared by 64 or more pages pairs copies (equal sketches) as a
//            star around the first and compares only distinct texts
//   verify   a candidate pair (a, b) goes to the owner of b, which attaches
//            b's sketch and sends it to the owner of a, which keeps the
//            pair when the sketches' Jaccard similarity reaches the
//            threshold (and languages and lengths allow)
//   cluster  connected components by union-find: each rank reduces its
//            pairs to a forest (page -> smallest page of its tree), and the
//            forests are merged pairwise up a binary tree to rank 0; the
//            greedy clusterings (centre, degree) take the pairs to rank 0
//            and run there, as their definition is sequential
// Pages are numbered by their position in the whole input (the ordinal);
// the rank that adds a page is ordinal mod ranks, and clusters list pages
// in ordinal order, so the output does not depend on the number of ranks.
#pragma once

#include <cstdint>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "husk/dedup.h"
#include "husk/status.h"

namespace husk {

// The ranks of one run and the messages between them; a run of one
// process is one rank. Every call is collective: all ranks make it, in the
// same order.
class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // out[r] goes to rank r; returns what each rank sent to this one.
  virtual std::vector<std::string> all_to_all(std::vector<std::string> out) = 0;
  // The sum over all ranks, on every rank.
  virtual uint64_t sum(uint64_t value) = 0;
};

// A run of one rank.
std::unique_ptr<Exchange> one_process_exchange();

struct CorpusOptions {
  // method must be "minhash"; threshold, sketch, cluster, main,
  // length_window and within_language apply as in find_pairs.
  DedupOptions dedup;
  // Minima per page (SignOptions::minhash_permutations); a page with
  // another count is an error.
  uint32_t minhash_permutations = 128;
  // This rank's memory budget in bytes: band keys beyond a quarter of it
  // are partitioned to disk.
  uint64_t memory = uint64_t(1) << 30;
  // Where spill files go (a private subdirectory, removed at the end);
  // empty: default_work_dir().
  std::string work_dir;
  unsigned jobs = 0;  // verification threads, 0: one per core
  bool singletons = false;
  bool keep_pairs = false;  // return the verified pairs (rank 0)
  // Stage reports ("grouped ... keys (12.5 s)"), on rank 0, with the
  // seconds since `started` (unset: since dedup() began).
  std::function<void(const std::string&)> progress;
  std::chrono::steady_clock::time_point started{};
};

struct CorpusCluster {
  std::string main;
  std::vector<std::string> members;  // in input order, main included
  std::vector<std::string> urls;     // each member's URL ("" when its record had none)
};

// A cluster as husk dedup writes it, one JSON object: {"cluster": index,
// "size", "main", "members", "urls"} (Python's husk.dedup gives the same
// as dicts).
std::string cluster_json(std::size_t index, const CorpusCluster& cluster);

// Where spill files go when CorpusOptions::work_dir is empty: $TMPDIR, or
// /tmp.
std::string default_work_dir();

struct CorpusPair {
  std::string a, b;          // a before b in the input
  std::string url_a, url_b;  // their URLs
  float score = 0;
  uint8_t contained = 0;  // with the containment measure, as Pair::contained
};

struct CorpusResult {
  // Rank 0 only: clusters ordered by their first member; pairs ordered by
  // (a, b) when keep_pairs.
  std::vector<CorpusCluster> clusters;
  std::vector<CorpusPair> pairs;
  // Over all ranks (the in-memory engine across ranks: rank 0's figures,
  // which are every page's, and none on the others).
  uint64_t pages = 0;
  uint64_t keys = 0;
  uint64_t candidates = 0;
  uint64_t verified = 0;
  uint64_t spilled_bytes = 0;
};

class CorpusDedup {
 public:
  static Result<std::unique_ptr<CorpusDedup>> make(const CorpusOptions& options, Exchange& exchange);
  ~CorpusDedup();
  CorpusDedup(const CorpusDedup&) = delete;
  CorpusDedup& operator=(const CorpusDedup&) = delete;

  // One page of this rank's share (ordinal mod ranks == rank, ordinals
  // increasing), with its minhash signature (and sketch). The page's id,
  // rank, boilerplate and language are kept; its text and other
  // signatures are not.
  Status add(uint64_t ordinal, const DedupPage& page);

  // The search; collective. Called once.
  Result<CorpusResult> finish();

  struct Impl;

 private:
  explicit CorpusDedup(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// ---- husk::dedup: clusters from pages, the engine chosen here ----

// A page of the run: its ordinal (its position among all pages of the
// run) and the page with its signatures and language (the sink may take it
// over). Languages are the source's to give (page_language, husk/metadata.h):
// no engine identifies one.
using DedupSink = std::function<Status(uint64_t ordinal, DedupPage& page)>;
// Calls the sink once for each page of this rank's share (ordinal mod
// ranks == rank), in ordinal order; a page the sink refuses is that page's
// error, and the source goes on.
using DedupSource = std::function<Status(const DedupSink& sink)>;

// The engine dedup() runs: the corpus engine (within CorpusOptions::memory,
// spilling to disk, on any number of ranks) for minhash with the Jaccard
// measure; every other method and measure in memory.
bool runs_in_corpus_engine(const DedupOptions& options);
// Whether a run may have more than one rank: minhash with either measure
// (the containment search runs in memory on rank 0, each rank reading and
// signing its own share). Other methods sign with the collection's
// statistics, which one rank's share does not hold.
bool runs_across_ranks(const DedupOptions& options);

// The clusters (and, with keep_pairs, the verified pairs) of the source's
// pages, on rank 0, by the engine runs_in_corpus_engine() names, so that
// the CLI, MPI runs and Python reach the same engine for the same options.
// Collective: every rank calls it. Fails on more than one rank unless
// runs_across_ranks().
struct DedupRun {
  std::string engine;  // "corpus" or "memory"
  CorpusResult result;
};
Result<DedupRun> dedup(const DedupSource& source, const CorpusOptions& options, Exchange& exchange);

}  // namespace husk
