// Manku's permuted tables, made recursive for skewed buckets.
//
// Pigeonhole: split the B free bits of the fingerprints into k + m blocks;
// two fingerprints within Hamming distance k agree exactly on at least m of
// them. One table per choice of m blocks, sorted on those blocks: every
// pair within distance k shares a run of equal keys in some table, so only
// pairs inside runs are compared. m is chosen per (k, n) to minimise
// tables x (1 + expected run length) (Manku 2007, section 3.1).
//
// A run longer than (1 + mu) x the table's average run («Simhash算法优化») is not
// compared pair by pair: its members agree on the table's blocks, so any
// pair within distance k differs only in the remaining bits, and the same
// search runs again on those bits alone (less the bits nearly all members
// share). Unlike re-hashing a fixed part of
// the remaining bits, this loses no pair: the result equals the brute
// force's, which the tests check.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

#include "dedup/search.h"

namespace husk {

namespace {

constexpr std::size_t kBruteForceBelow = 32;

uint64_t combinations(uint32_t n, uint32_t r) {
  uint64_t c = 1;
  for (uint32_t i = 1; i <= r; ++i) c = c * (n - r + i) / i;
  return c;
}

// The table a run came from: its blocks and the chosen ones. A pair
// agreeing on several choices is compared only in the first of them, so
// every candidate is counted once.
struct Table {
  const std::vector<uint64_t>* blocks = nullptr;
  const std::vector<uint32_t>* choice = nullptr;
};

bool first_table_of(uint64_t diff, const Table& t) {
  if (t.blocks == nullptr) return true;
  std::size_t matched = 0;
  for (uint32_t b = 0; b < t.blocks->size() && matched < t.choice->size(); ++b) {
    if (diff & (*t.blocks)[b]) continue;
    if ((*t.choice)[matched] != b) return false;
    ++matched;
  }
  return true;
}

struct Search {
  const std::vector<uint64_t>& fp;
  uint32_t k;
  double mu;
  std::vector<Pair>& out;
  DedupStats* stats;

  void compare_all(const uint32_t* ids, std::size_t n, const Table& table) {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        uint64_t diff = fp[ids[i]] ^ fp[ids[j]];
        if (!first_table_of(diff, table)) continue;
        int d = std::popcount(diff);
        if (stats) {
          ++stats->candidates;
          ++stats->distance_histogram[static_cast<std::size_t>(d)];
        }
        if (d <= static_cast<int>(k)) {
          uint32_t a = std::min(ids[i], ids[j]), b = std::max(ids[i], ids[j]);
          out.push_back({a, b, static_cast<float>(d)});
        }
      }
  }

  // All pairs within distance k among `ids`, which agree on every bit
  // outside `free_mask`.
  void run(std::vector<uint32_t> ids, uint64_t free_mask) {
    const std::size_t n = ids.size();
    // Blocks are cut from the bits that tell members apart: a bit set in
    // fewer than 1/16 or more than 15/16 of them (a skewed bucket's shared
    // prefix, give or take an intruder) would make every table on it one
    // run again. Any subset of the bits is sound: two fingerprints within
    // distance k are within k on any subset too, so the pigeonhole holds.
    {
      std::array<uint32_t, 64> ones{};
      for (uint32_t id : ids)
        for (uint64_t v = fp[id]; v != 0; v &= v - 1) ++ones[static_cast<std::size_t>(std::countr_zero(v))];
      const std::size_t floor = n / 16;
      for (uint32_t bit = 0; bit < 64; ++bit) {
        std::size_t c = ones[bit];
        if (std::min(c, n - c) <= floor) free_mask &= ~(1ull << bit);
      }
    }
    const uint32_t free_bits = static_cast<uint32_t>(std::popcount(free_mask));
    if (n < kBruteForceBelow || free_bits <= k + 1) {
      compare_all(ids.data(), n, Table{});
      return;
    }
    const SimhashTables tables = simhash_tables(free_mask, k, simhash_tables_m(k, free_bits, static_cast<double>(n)));
    std::vector<std::pair<uint64_t, uint32_t>> table(n);
    for (std::size_t tab = 0; tab < tables.key_masks.size(); ++tab) {
      const uint64_t key_mask = tables.key_masks[tab];
      for (std::size_t i = 0; i < n; ++i) table[i] = {fp[ids[i]] & key_mask, ids[i]};
      std::sort(table.begin(), table.end());
      std::size_t runs = 0;
      for (std::size_t i = 0; i < n; ++i) runs += i == 0 || table[i].first != table[i - 1].first;
      const double limit = (1.0 + mu) * static_cast<double>(n) / static_cast<double>(runs);
      std::vector<uint32_t> run_ids;
      for (std::size_t i = 0; i < n;) {
        std::size_t j = i + 1;
        while (j < n && table[j].first == table[i].first) ++j;
        if (j - i > 1) {
          run_ids.clear();
          for (std::size_t t = i; t < j; ++t) run_ids.push_back(table[t].second);
          if (static_cast<double>(j - i) > limit && j - i >= kBruteForceBelow && j - i < n) {
            run(run_ids, free_mask & ~key_mask);
          } else {
            compare_all(run_ids.data(), run_ids.size(), Table{&tables.blocks, &tables.choices[tab]});
          }
        }
        i = j;
      }
    }
  }
};

void sort_unique(std::vector<Pair>& pairs) {
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
}

}  // namespace

uint32_t simhash_tables_m(uint32_t k, uint32_t free_bits, double n, uint64_t max_tables) {
  uint32_t best_m = 1;
  double best_cost = 1e300;
  for (uint32_t m = 1; m <= 8 && k + m <= free_bits; ++m) {
    if (m > 1 && combinations(k + m, m) > max_tables) break;
    double key_bits = static_cast<double>(free_bits) * m / (k + m);
    double cost = static_cast<double>(combinations(k + m, m)) * (1.0 + n / std::exp2(std::min(key_bits, 60.0)));
    if (cost < best_cost) {
      best_cost = cost;
      best_m = m;
    }
  }
  return best_m;
}

SimhashTables simhash_tables(uint64_t free_mask, uint32_t k, uint32_t m) {
  SimhashTables t;
  const uint32_t free_bits = static_cast<uint32_t>(std::popcount(free_mask));
  const uint32_t blocks = std::max(1u, std::min(k + m, free_bits));
  m = std::min(m, blocks);
  t.blocks.assign(blocks, 0);
  // Blocks: k + m runs of consecutive free bits, as even as possible.
  uint32_t bit_no = 0;
  for (uint32_t bit = 0; bit < 64; ++bit) {
    if (!((free_mask >> bit) & 1)) continue;
    t.blocks[bit_no * blocks / std::max(1u, free_bits)] |= 1ull << bit;
    ++bit_no;
  }
  // Every choice of m blocks, in lexicographic order.
  std::vector<uint32_t> choice(m);
  for (uint32_t i = 0; i < m; ++i) choice[i] = i;
  for (;;) {
    uint64_t key_mask = 0;
    for (uint32_t c : choice) key_mask |= t.blocks[c];
    t.choices.push_back(choice);
    t.key_masks.push_back(key_mask);
    int pos = static_cast<int>(m) - 1;
    while (pos >= 0 && choice[static_cast<std::size_t>(pos)] == blocks - m + static_cast<uint32_t>(pos)) --pos;
    if (pos < 0) break;
    ++choice[static_cast<std::size_t>(pos)];
    for (uint32_t i = static_cast<uint32_t>(pos) + 1; i < m; ++i) choice[i] = choice[i - 1] + 1;
  }
  return t;
}

std::vector<Pair> simhash_table_pairs(const std::vector<uint64_t>& fingerprints, uint32_t k, double mu,
                                      DedupStats* stats) {
  std::vector<Pair> out;
  if (stats && stats->distance_histogram.size() < 65) stats->distance_histogram.assign(65, 0);
  std::vector<uint32_t> ids(fingerprints.size());
  for (uint32_t i = 0; i < ids.size(); ++i) ids[i] = i;
  Search{fingerprints, std::min<uint32_t>(k, 64), mu, out, stats}.run(std::move(ids), ~0ull);
  sort_unique(out);
  return out;
}

std::vector<Pair> simhash_brute_pairs(const std::vector<uint64_t>& fingerprints, uint32_t k) {
  std::vector<Pair> out;
  for (uint32_t i = 0; i < fingerprints.size(); ++i)
    for (uint32_t j = i + 1; j < fingerprints.size(); ++j) {
      int d = std::popcount(fingerprints[i] ^ fingerprints[j]);
      if (d <= static_cast<int>(k)) out.push_back({i, j, static_cast<float>(d)});
    }
  return out;
}

}  // namespace husk
