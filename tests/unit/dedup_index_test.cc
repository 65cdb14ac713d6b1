// Candidate search against brute force: the fast indexes must find exactly
// the pairs an all-pairs comparison finds.
#include <random>

#include "husk/dedup.h"
#include "unit/test_util.h"

namespace husk {
namespace {

// Random 64-bit fingerprints with planted clusters: each planted member is
// its centre with up to `spread` random bits flipped.
std::vector<uint64_t> planted(std::size_t n, uint32_t spread, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> fp;
  while (fp.size() < n) {
    uint64_t centre = rng();
    fp.push_back(centre);
    std::size_t members = rng() % 6;
    for (std::size_t m = 0; m < members && fp.size() < n; ++m) {
      uint64_t v = centre;
      uint32_t flips = static_cast<uint32_t>(rng() % (spread + 1));
      for (uint32_t f = 0; f < flips; ++f) v ^= 1ull << (rng() % 64);
      fp.push_back(v);
    }
  }
  return fp;
}

TEST(SimhashTables, SamePairsAsBruteForceForEveryK) {
  std::vector<uint64_t> fp = planted(20000, 10, 42);
  for (uint32_t k = 0; k <= 8; ++k) {
    std::vector<Pair> fast = simhash_table_pairs(fp, k);
    std::vector<Pair> slow = simhash_brute_pairs(fp, k);
    ASSERT_EQ(fast.size(), slow.size()) << "k = " << k;
    EXPECT_TRUE(fast == slow) << "k = " << k;
    EXPECT_GT(slow.size(), 1000u) << "k = " << k << ": the planted clusters must give pairs";
  }
}

TEST(SimhashTables, SkewedBucketsAreResplitWithoutLosingPairs) {
  // Half the fingerprints share their top 40 bits: every table on those
  // bits has one huge run, which must be searched again, not dropped.
  std::mt19937_64 rng(9);
  std::vector<uint64_t> fp;
  for (int i = 0; i < 3000; ++i) fp.push_back(i % 2 ? (0xABCDEF1234ull << 24) | (rng() & 0xFFFFFF) : rng());
  for (uint32_t k : {2u, 3u, 5u}) {
    DedupStats stats;
    std::vector<Pair> fast = simhash_table_pairs(fp, k, 2.0, &stats);
    EXPECT_TRUE(fast == simhash_brute_pairs(fp, k)) << "k = " << k;
    EXPECT_LT(stats.candidates, 3000ull * 2999 / 2 / 4) << "k = " << k << ": re-splitting must prune";
  }
}

}  // namespace
}  // namespace husk
