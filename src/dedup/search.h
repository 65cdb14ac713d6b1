// The pieces of candidate search that husk dedup and the persistent index
// share, and the brute-force twins the differential tests hold the fast
// searches against.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "husk/dedup.h"

namespace husk {

// ---- simhash: Manku's permuted tables ----

// The pigeonhole (Manku, Jain, Das Sarma 2007, section 3.1): split the free
// bits into k + m blocks; two fingerprints within Hamming distance k agree
// exactly on at least m of them. One table per choice of m blocks, keyed on
// those blocks' bits.
struct SimhashTables {
  std::vector<uint64_t> blocks;                // k + m block masks, free bits dealt out in order
  std::vector<std::vector<uint32_t>> choices;  // per table, its m blocks (ascending)
  std::vector<uint64_t> key_masks;             // per table, the OR of its blocks
};

SimhashTables simhash_tables(uint64_t free_mask, uint32_t k, uint32_t m);

// The m that minimises tables x (1 + expected run length) for n
// fingerprints, among layouts of at most max_tables tables.
uint32_t simhash_tables_m(uint32_t k, uint32_t free_bits, double n, uint64_t max_tables = UINT64_MAX);

inline int hamming(uint64_t a, uint64_t b) { return std::popcount(a ^ b); }

// ---- minhash: LSH bands ----

// The key of one band: the band's rows hashed, seeded by the band number.
uint64_t band_key(const std::vector<uint32_t>& minhash, uint32_t band, uint32_t rows);

// Equal minima over the shared length: the Jaccard estimate (Broder 1997).
double estimated_jaccard(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b);

// Jaccard similarity from two bottom-k sketches (sorted distinct hashes; a
// sketch of k values may stand for a larger set). Every hash of either set
// up to tau is known, tau the smaller largest value of a full sketch (no
// limit when neither is full), so the shares of the union's hashes up to
// tau that both hold is exact when neither is full and a consistent
// sample of the union otherwise (Cohen & Kaplan, PODC 2007).
double sketch_jaccard(std::span<const uint32_t> a, std::span<const uint32_t> b, uint32_t k);

// Containment of a's shingles in b's, |A∩B| / |A|, from two bottom-k
// sketches: exact when neither is full (texts up to k shingles); else the
// sketches' Jaccard estimate j with each set's size estimated from its
// sketch, (k - 1) 2^32 / (k-th smallest hash) (Cohen & Kaplan 2007), and
// |A∩B| = j (|A| + |B|) / (1 + j).
double sketch_containment(std::span<const uint32_t> a, std::span<const uint32_t> b, uint32_t k);

// The similarity minhash verifies a pair on: the sketches' when both pages
// carry one, else the minima's estimate.
double minhash_similarity(const Signatures& a, const Signatures& b, uint32_t k);

// The one decision on a minhash candidate pair, made alike by husk dedup's
// in-memory and corpus searches and by the index: whether a similarity
// measured between two sketches makes a near-duplicate. A sketch of fewer
// than options.min_shingles distinct shingles carries too little to tell
// two texts apart by resemblance (a few words, or one row of masked
// numbers repeated): such a page is a duplicate only of a page with the
// very same shingles (similarity 1).
bool near_duplicate(double similarity, std::size_t shingles_a, std::size_t shingles_b, const DedupOptions& options);

// A page of fewer than options.min_shingles distinct shingles can only be a
// duplicate of a page with the same shingles, so every search keys it by
// its whole sketch alone (whole_sketch_key) instead of by LSH bands: pages
// sharing one stock phrase no longer fill one band bucket with N^2
// candidates that could never verify.
bool few_shingles(const Signatures& signatures, const DedupOptions& options);

// The distinct shingles a page's signature stands for: its sketch's size
// (a full sketch stands for at least that many), or, for signatures
// without a sketch, as many as it has minima.
inline std::size_t distinct_shingles(const Signatures& s) {
  return s.shingles.empty() ? s.minhash.size() : s.shingles.size();
}
uint64_t whole_sketch_key(const Signatures& signatures);

// A band bucket of this many pages or more is heavy: mostly copies of one
// text («Simhash算法优化»'s threshold of 64), reduced by pair_heavy_bucket.
// One gate for both of husk dedup's searches (the corpus engine sees one
// partition of a band at a time, so a gate relative to the band's mean
// bucket could not be the same there).
inline constexpr std::size_t kHeavyBucket = 64;

// The reduction of a band bucket too heavy to pair all its pages, shared
// by husk dedup's two searches: `pages` holds (hash of the page's whole
// sketch, page) and is reordered. Pages with equal sketches (verified
// alike against any page) are joined as a star around the first, and
// every page meets the first page of every other text in the bucket, so a
// copy meets whatever its text meets. Calls pair(a, b) for each candidate.
template <typename PairFn>
void pair_heavy_bucket(std::vector<std::pair<uint64_t, uint32_t>>& pages, PairFn&& pair) {
  std::sort(pages.begin(), pages.end());
  std::vector<uint32_t> firsts;  // the first page of each text
  std::vector<std::size_t> text_of(pages.size());
  for (std::size_t x = 0; x < pages.size();) {
    std::size_t y = x + 1;
    for (; y < pages.size() && pages[y].first == pages[x].first; ++y) {
      pair(pages[x].second, pages[y].second);
      text_of[y] = firsts.size();
    }
    text_of[x] = firsts.size();
    firsts.push_back(pages[x].second);
    x = y;
  }
  for (std::size_t x = 0; x < pages.size(); ++x)
    for (std::size_t t = 0; t < firsts.size(); ++t)
      if (t != text_of[x]) pair(pages[x].second, firsts[t]);
}

// Candidate pairs (a < b, sorted, unique): pages sharing a band key. In a
// heavy bucket (kHeavyBucket), pages with equal sketches are joined as a
// star and each page meets the first page of every other text in the
// bucket (husk dedup's two searches reduce buckets alike).
std::vector<Pair> lsh_candidates(const std::vector<const std::vector<uint32_t>*>& minhashes,
                                 const std::vector<const std::vector<uint32_t>*>& sketches, uint32_t bands,
                                 uint32_t rows);

// Whether two pages may be compared at all: the same language (when both
// are known and options.within_language holds) and term counts within
// options.length_window.
bool comparable_pages(const std::string& language_a, uint32_t terms_a, const std::string& language_b,
                      uint32_t terms_b, const DedupOptions& options);

// A cluster names its pages by id: both searches refuse two pages under
// one id with this error.
Status id_given_twice(const std::string& id);

// ---- twins ----

// Every pair within Hamming distance k by comparing all pairs.
std::vector<Pair> simhash_brute_pairs(const std::vector<uint64_t>& fingerprints, uint32_t k);

}  // namespace husk
