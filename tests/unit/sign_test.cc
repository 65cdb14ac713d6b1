// Signers against their slow, obviously-correct twins: exact Jaccard for
// minhash, the angle between weight vectors for simhash, the S-curve for
// LSH banding; plus known answers and edge cases.
#include <cmath>
#include <random>
#include <set>

#include "husk/sign.h"
#include "sign/context.h"
#include "base/hash_sort.h"
#include "sign/hashing.h"
#include "sign/minima.h"
#include "unit/test_util.h"

namespace husk {
namespace {

NormalizedText text_of(const std::vector<std::string>& terms) {
  NormalizedText t;
  t.terms = terms;
  if (!terms.empty()) t.sentences.push_back({0, static_cast<uint32_t>(terms.size())});
  return t;
}

std::vector<std::string> tokens(const std::vector<int>& ids) {
  std::vector<std::string> out;
  for (int id : ids) out.push_back(test::token("w", id));
  return out;
}

// Two sets of `size` elements sharing `shared`: Jaccard shared / (2 size - shared).
std::pair<std::vector<int>, std::vector<int>> pair_with_overlap(int size, int shared, int& next_id) {
  std::vector<int> a, b;
  for (int i = 0; i < shared; ++i) {
    a.push_back(next_id);
    b.push_back(next_id++);
  }
  for (int i = shared; i < size; ++i) a.push_back(next_id++);
  for (int i = shared; i < size; ++i) b.push_back(next_id++);
  return {a, b};
}

SignOptions set_options() {
  SignOptions o;
  o.minhash_shingle = 1;  // shingles are the terms: the signature is over the set itself
  return o;
}

TEST(Minhash, EstimateMatchesExactJaccardWithinTheBinomialBound) {
  SignOptions options = set_options();
  options.signers = {"minhash"};
  std::mt19937 rng(7);
  int next_id = 0;
  int outside = 0, pairs = 0;
  double total_error = 0;
  for (int trial = 0; trial < 300; ++trial) {
    int size = 50 + static_cast<int>(rng() % 150);
    int shared = static_cast<int>(rng() % (size + 1));
    auto [a, b] = pair_with_overlap(size, shared, next_id);
    double exact = static_cast<double>(shared) / (2.0 * size - shared);
    Signatures sa = sign(text_of(tokens(a)), options, nullptr);
    Signatures sb = sign(text_of(tokens(b)), options, nullptr);
    ASSERT_EQ(sa.minhash.size(), 128u);
    int equal = 0;
    for (std::size_t i = 0; i < 128; ++i) equal += sa.minhash[i] == sb.minhash[i];
    double estimate = equal / 128.0;
    // Each element agrees with probability J: Binomial(128, J) / 128.
    double sigma = std::sqrt(exact * (1 - exact) / 128.0);
    if (std::abs(estimate - exact) > 3 * sigma + 1.0 / 128) ++outside;
    total_error += estimate - exact;
    ++pairs;
  }
  EXPECT_LE(outside, pairs / 50) << "more than 2% of pairs outside 3 sigma";
  EXPECT_LT(std::abs(total_error / pairs), 0.01) << "the estimate is biased";
}

TEST(Minhash, LshCandidateRateFollowsTheSCurve) {
  SignOptions options = set_options();
  options.signers = {"minhash"};
  const double b = options.minhash_bands, r = options.minhash_rows;
  int next_id = 0;
  for (double s : {0.3, 0.5, 0.7, 0.8, 0.9}) {
    const int trials = 400;
    int candidates = 0;
    for (int t = 0; t < trials; ++t) {
      // size n, shared k with k / (2n - k) = s exactly: n = 100 k-values chosen to hit s.
      int shared = static_cast<int>(std::lround(200 * s / (1 + s)));
      auto [x, y] = pair_with_overlap(100, shared, next_id);
      Signatures sx = sign(text_of(tokens(x)), options, nullptr);
      Signatures sy = sign(text_of(tokens(y)), options, nullptr);
      bool shared_band = false;
      for (std::size_t i = 0; i < sx.minhash_bands.size(); ++i) shared_band |= sx.minhash_bands[i] == sy.minhash_bands[i];
      candidates += shared_band;
    }
    double exact_s = std::lround(200 * s / (1 + s)) / (200.0 - std::lround(200 * s / (1 + s)));
    double p = 1 - std::pow(1 - std::pow(exact_s, r), b);
    double rate = static_cast<double>(candidates) / trials;
    double sigma = std::sqrt(p * (1 - p) / trials);
    EXPECT_NEAR(rate, p, 4 * sigma + 0.01) << "Jaccard " << exact_s;
  }
}

// The minima against their definition, computed the slow way: for each
// permutation i, the least (a_i x + b_i) mod (2^31 - 1) over the shingle
// hashes x (reduced mod 2^31 - 1 first), with a_i and b_i drawn from the
// seed's SplitMix64 stream and every product taken in 128 bits. The fast
// loop folds in 32-bit lanes eight permutations at a time; texts of 1 to
// 400 words give it every remainder of the permutation count and shingle
// sets of every size.
// Documents signed under settings taken at random, so that one thread
// meets each seed and count after others (the permutations drawn from a
// seed are kept per thread): two seeds share a count of 128.
TEST(Minhash, MinimaAreTheirDefinition) {
  const uint64_t p = (1ull << 31) - 1;
  std::mt19937 rng(17);
  struct Setting {
    SignOptions options;
    std::vector<uint64_t> a, b;
  };
  std::vector<Setting> settings;
  for (uint32_t permutations : {128u, 128u, 100u, 13u, 7u}) {
    Setting setting;
    setting.options.minhash_permutations = permutations;
    setting.options.seed = rng();
    uint64_t state = setting.options.seed;
    for (uint32_t i = 0; i < permutations; ++i) {
      setting.a.push_back(splitmix64(state) % (p - 1) + 1);
      setting.b.push_back(splitmix64(state) % p);
    }
    settings.push_back(std::move(setting));
  }
  for (int trial = 0; trial < 200; ++trial) {
    const Setting& setting = settings[rng() % settings.size()];
    const uint32_t permutations = setting.options.minhash_permutations;
    std::vector<int> ids;
    const int words = 1 + static_cast<int>(rng() % 400);
    for (int w = 0; w < words; ++w) ids.push_back(static_cast<int>(rng() % 5000));
    NormalizedText text = text_of(tokens(ids));
    SignContext context(text, setting.options, nullptr);
    const std::vector<uint64_t>& minima = context.minima();
    const std::vector<uint64_t>& shingles = context.shingle_set();
    ASSERT_EQ(minima.size(), permutations);
    for (uint32_t i = 0; i < permutations; ++i) {
      uint64_t least = p;
      for (uint64_t h : shingles) {
        const unsigned __int128 v = static_cast<unsigned __int128>(setting.a[i]) * (h % p) + setting.b[i];
        least = std::min(least, static_cast<uint64_t>(v % p));
      }
      ASSERT_EQ(minima[i], least) << "permutation " << i << " of " << permutations << ", seed "
                                  << setting.options.seed << ", trial " << trial;
    }
  }
}

// Every kernel this processor runs, not only the one chosen, against the
// definition in 128-bit arithmetic: permutation counts that fill the
// vector blocks and that leave tails, minima that start below p, and the
// extremes of a, b and x.
TEST(Minhash, KernelsAreTheirDefinition) {
  const uint64_t p = (1ull << 31) - 1;
  std::mt19937_64 rng(29);
  int kernels_run = 0;
  for (MinimaKernel kernel : {MinimaKernel::kPortable, MinimaKernel::kAvx2, MinimaKernel::kAvx512}) {
    if (!minima_kernel_runs(kernel)) continue;
    ++kernels_run;
    for (uint32_t n : {128u, 100u, 33u, 32u, 16u, 13u, 1u}) {
      for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{150}}) {
        std::vector<uint32_t> a(n), b(n), m(n), xs(count);
        for (uint32_t i = 0; i < n; ++i) {
          a[i] = i == 0 ? static_cast<uint32_t>(p - 1) : static_cast<uint32_t>(rng() % (p - 1) + 1);
          b[i] = i == 1 ? static_cast<uint32_t>(p - 1) : static_cast<uint32_t>(rng() % p);
          m[i] = i % 3 == 0 ? static_cast<uint32_t>(p) : static_cast<uint32_t>(rng() % p);
        }
        for (std::size_t s = 0; s < count; ++s)
          xs[s] = s == 0 ? static_cast<uint32_t>(p - 1) : s == 1 ? 0u : static_cast<uint32_t>(rng() % p);
        std::vector<uint32_t> expected = m;
        for (uint32_t i = 0; i < n; ++i)
          for (uint32_t x : xs) {
            const unsigned __int128 v = static_cast<unsigned __int128>(a[i]) * x + b[i];
            expected[i] = std::min<uint32_t>(expected[i], static_cast<uint32_t>(v % p));
          }
        permuted_minima(kernel, a.data(), b.data(), m.data(), n, xs.data(), xs.size());
        ASSERT_EQ(m, expected) << "kernel " << static_cast<int>(kernel) << ", " << n << " permutations, " << count
                               << " shingles";
      }
    }
  }
  EXPECT_GE(kernels_run, 1);
  EXPECT_TRUE(minima_kernel_runs(best_minima_kernel()));
}

// Word shingles, four computed side by side, against their definition one
// at a time: each shingle is w mixes of its terms' hashes in order, and a
// text shorter than w one shingle of all its terms.
TEST(Minhash, WordShinglesAreTheirDefinition) {
  std::mt19937 rng(37);
  for (uint32_t w : {1u, 2u, 3u, 5u, 8u}) {
    for (int words : {0, 1, 2, 4, 5, 6, 7, 8, 9, 13, 150}) {
      std::vector<int> ids;
      for (int i = 0; i < words; ++i) ids.push_back(static_cast<int>(rng() % 50));
      NormalizedText text = text_of(tokens(ids));
      SignOptions options;
      SignContext context(text, options, nullptr);
      std::vector<uint64_t> expected;
      const std::size_t n = text.terms.size();
      for (std::size_t i = 0; n > 0 && i < (n >= w ? n - w + 1 : 1); ++i) {
        uint64_t h = w;
        for (std::size_t k = i; k < std::min<std::size_t>(i + w, n); ++k) {
          uint64_t mixed = h ^ xxh64(text.terms[k], 0);
          h = splitmix64(mixed);
        }
        expected.push_back(h);
      }
      EXPECT_EQ(context.word_shingles(w), expected) << w << "-shingles of " << words << " words";
    }
  }
}

// sort_hashes and sort_by_hash against std::sort: hash values of every
// size up to a page's shingle set and beyond, with repeats, values that
// crowd one bucket, all in a narrow range, and records whose keys repeat
// with ties broken by a second field (the corpus engine's band keys).
TEST(HashSort, OrdersAsStdSort) {
  std::mt19937_64 rng(31);
  std::vector<uint64_t> scratch;
  auto draw = [&](int kind, const std::vector<uint64_t>& so_far) -> uint64_t {
    switch (kind % 5) {
      case 0: return rng();
      case 1: return rng() % 8;                                   // few values, each repeated
      case 2: return (rng() >> 40) | 0x1234000000000000ull;      // a narrow range
      case 3: return rng() % 64 == 0 ? 0x00FF000000000000ull : (rng() >> 50);  // one crowded bucket
      default: return so_far.empty() || rng() % 3 ? rng() : so_far[rng() % so_far.size()];  // hashes with repeats
    }
  };
  for (int trial = 0; trial < 500; ++trial) {
    const std::size_t n = trial < 300 ? static_cast<std::size_t>(trial) : 300 + rng() % 5000;
    std::vector<uint64_t> values;
    for (std::size_t i = 0; i < n; ++i) values.push_back(draw(trial, values));
    std::vector<uint64_t> expected = values;
    std::sort(expected.begin(), expected.end());
    sort_hashes(values, scratch);
    ASSERT_EQ(values, expected) << "trial " << trial << ", " << n << " values";
  }
  struct Keyed {
    uint64_t key;
    uint32_t page;
    bool operator==(const Keyed&) const = default;
  };
  auto order = [](const Keyed& x, const Keyed& y) { return x.key != y.key ? x.key < y.key : x.page < y.page; };
  std::vector<Keyed> keyed_scratch;
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = rng() % 4000;
    std::vector<uint64_t> keys;
    std::vector<Keyed> records;
    for (std::size_t i = 0; i < n; ++i) {
      keys.push_back(draw(trial, keys));
      records.push_back({keys.back(), static_cast<uint32_t>(rng() % 100000)});
    }
    std::vector<Keyed> expected = records;
    std::sort(expected.begin(), expected.end(), order);
    sort_by_hash(records, keyed_scratch, [](const Keyed& k) { return k.key; }, order);
    ASSERT_EQ(records, expected) << "trial " << trial << ", " << n << " records";
  }
}

TEST(Minhash, BandsAndSupershinglesAreFunctionsOfTheMinima) {
  std::vector<int> ids;
  for (int i = 0; i < 200; ++i) ids.push_back(i);
  SignOptions options = set_options();
  Signatures s = sign(text_of(tokens(ids)), options, nullptr);
  ASSERT_EQ(s.minhash_bands.size(), 16u);
  ASSERT_EQ(s.supershingles.size(), 6u);
  // Changing one minimum changes exactly the band that holds it.
  std::vector<int> other = ids;
  other.push_back(100000);
  Signatures t = sign(text_of(tokens(other)), options, nullptr);
  for (std::size_t band = 0; band < 16; ++band) {
    bool rows_equal = true;
    for (std::size_t row = band * 8; row < band * 8 + 8; ++row) rows_equal &= s.minhash[row] == t.minhash[row];
    EXPECT_EQ(rows_equal, s.minhash_bands[band] == t.minhash_bands[band]) << "band " << band;
  }
}

int hamming(uint64_t a, uint64_t b) { return __builtin_popcountll(a ^ b); }

TEST(Simhash, HammingDistanceTracksTheAngle) {
  // Charikar 2002: P(bit differs) = angle / pi for random hyperplanes; the
  // signer's hyperplanes come from feature hashes, so check the relation
  // on random weighted vectors: terms repeated `weight` times (no IDF:
  // every term weighs its tf).
  std::mt19937 rng(11);
  SignOptions options;
  options.signers = {"simhash"};
  double sum_diff = 0;
  int outside = 0;
  const int pairs = 300;
  for (int trial = 0; trial < pairs; ++trial) {
    const int dims = 300;
    std::vector<int> wa(dims), wb(dims);
    double mix = (rng() % 1000) / 1000.0;
    for (int d = 0; d < dims; ++d) {
      wa[d] = 1 + static_cast<int>(rng() % 10);
      wb[d] = (rng() % 1000) / 1000.0 < mix ? wa[d] : static_cast<int>(rng() % 11);
    }
    std::vector<std::string> ta, tb;
    for (int d = 0; d < dims; ++d) {
      for (int k = 0; k < wa[d]; ++k) ta.push_back(test::token(test::token("f", trial) + "_", d));
      for (int k = 0; k < wb[d]; ++k) tb.push_back(test::token(test::token("f", trial) + "_", d));
    }
    double dot = 0, na = 0, nb = 0;
    for (int d = 0; d < dims; ++d) {
      dot += double(wa[d]) * wb[d];
      na += double(wa[d]) * wa[d];
      nb += double(wb[d]) * wb[d];
    }
    double angle = std::acos(std::min(1.0, dot / std::sqrt(na * nb))) / M_PI;
    Signatures a = sign(text_of(ta), options, nullptr);
    Signatures b = sign(text_of(tb), options, nullptr);
    double observed = hamming(*a.simhash, *b.simhash) / 64.0;
    double sigma = std::sqrt(std::max(angle * (1 - angle), 1e-3) / 64.0);
    if (std::abs(observed - angle) > 4 * sigma) ++outside;
    sum_diff += observed - angle;
  }
  EXPECT_LE(outside, pairs / 50);
  EXPECT_LT(std::abs(sum_diff / pairs), 0.02);
}

TEST(Simhash, HyperplaneBitsAreBalanced) {
  // The homework seed's reason for hyperplanes: summed word hashes pile up
  // ones in the low bits; hyperplane bits are each set about half the time.
  SignOptions options;
  options.signers = {"simhash_hyperplane"};
  std::mt19937 rng(3);
  std::array<int, 64> ones{};
  const int docs = 400;
  for (int d = 0; d < docs; ++d) {
    std::vector<std::string> terms;
    for (int i = 0; i < 80; ++i) terms.push_back(test::token("t", rng() % 5000));
    uint64_t h = *sign(text_of(terms), options, nullptr).simhash_hyperplane;
    for (int bit = 0; bit < 64; ++bit) ones[static_cast<std::size_t>(bit)] += (h >> bit) & 1;
  }
  for (int bit = 0; bit < 64; ++bit) {
    EXPECT_GT(ones[static_cast<std::size_t>(bit)], docs / 4) << "bit " << bit;
    EXPECT_LT(ones[static_cast<std::size_t>(bit)], docs * 3 / 4) << "bit " << bit;
  }
}

TEST(Signers, KnownAnswersAndSmallTexts) {
  SignOptions options;
  Signatures s = sign(normalize("Hello, World!"), options, nullptr);
  EXPECT_EQ(s.terms, 2u);
  EXPECT_EQ(s.md5, "5eb63bbbe01eeed093cb22bb8f5acdc3");  // MD5("hello world")
  ASSERT_TRUE(s.long_sent.has_value());
  EXPECT_EQ(*s.long_sent, 0xaf083b2du) << std::hex << *s.long_sent;  // CRC32("hello world\n")
  Signatures empty = sign(normalize(" ... !!! "), options, nullptr);
  EXPECT_EQ(empty.terms, 0u);
  EXPECT_EQ(empty.md5, "");
  EXPECT_FALSE(empty.simhash.has_value());
}

TEST(Signers, SmallEditsMoveSimilarityNotIdentity) {
  std::string a =
      "The city council voted on Tuesday to turn the old harbour warehouses into a public library, ending a dispute "
      "that had lasted more than a decade and divided residents of the waterfront district.\n\nUnder the plan, the "
      "three brick buildings will keep their facades while the interiors are rebuilt around a reading hall, a "
      "children's floor and workshops for local craftspeople. Construction is expected to begin next spring and to "
      "take about two years.\n\nSupporters said the library would bring people back to a part of town that has "
      "been empty since the shipping companies moved to the new container port. Opponents argued that the money "
      "should go to repairing schools first.";
  std::string b = a + "\n\nUpdated 10:45.";
  SignOptions options;
  Signatures sa = sign(normalize(a), options, nullptr);
  Signatures sb = sign(normalize(b), options, nullptr);
  EXPECT_NE(sa.md5, sb.md5);
  EXPECT_LE(hamming(*sa.simhash, *sb.simhash), 8);
  int equal = 0;
  for (std::size_t i = 0; i < sa.minhash.size(); ++i) equal += sa.minhash[i] == sb.minhash[i];
  EXPECT_GT(equal, 64);
  EXPECT_EQ(sa.long_sent, sb.long_sent);  // the two longest sentences did not change
}

TEST(Spotsigs, SpotsAreStopWordChains) {
  SignOptions options;
  options.signers = {"spotsigs"};
  Signatures s = sign(normalize("The economy grew at a fast pace. Markets rose."), options, nullptr);
  // the:economy:grew, at:fast:pace (a is a stop word, skipped), a:fast:pace.
  EXPECT_EQ(s.spotsigs.size(), 3u);
  Signatures none = sign(normalize("Economy grew fast."), options, nullptr);
  EXPECT_TRUE(none.spotsigs.empty());
}

TEST(Signers, LexicalSignersUseTheCollection) {
  CollectionStats stats;
  stats.documents = 100;
  for (const char* t : {"harbour", "library", "council", "voted", "warehouses", "public", "dispute", "decade"}) stats.df[t] = 5;
  stats.df["the"] = 100;
  SignOptions options;
  NormalizedText text = normalize("The council voted to turn the harbour warehouses into a public library.");
  Signatures s = sign(text, options, &stats);
  ASSERT_FALSE(s.imatch.empty());
  // imatch: the sorted band terms, SHA-1.
  EXPECT_EQ(s.imatch.size(), 40u);
  EXPECT_FALSE(s.lexrand.empty());
  for (const auto& [copy, hash] : s.lexrand) {
    EXPECT_GE(copy, 1u);
    EXPECT_LE(copy, 10u);
  }
  // Dropping a term outside the band changes neither.
  Signatures t = sign(normalize("The council voted to turn the harbour warehouses into the public library."), options, &stats);
  EXPECT_EQ(s.imatch, t.imatch);
}

}  // namespace
}  // namespace husk
