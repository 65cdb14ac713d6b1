// Candidate search against brute force: the fast indexes must find exactly
// the pairs an all-pairs comparison finds.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <random>
#include <set>

#include "dedup/search.h"
#include "unit/test_util.h"

namespace husk {
namespace {

TEST(SimhashTables, SamePairsAsBruteForceForEveryK) {
  std::vector<uint64_t> fp = test::planted_fingerprints(20000, 10, 42);
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

namespace husk {
namespace {

// Pages whose minhash signatures come from term sets.
DedupPage page_of(const std::vector<std::string>& terms, const std::string& id) {
  SignOptions options;
  options.minhash_shingle = 1;
  NormalizedText text;
  text.terms = terms;
  text.sentences.push_back({0, static_cast<uint32_t>(terms.size())});
  DedupPage p;
  p.id = id;
  p.sig = sign(text, options, nullptr);
  return p;
}

std::vector<std::string> words(int from, int to, const std::string& prefix = "w") {
  std::vector<std::string> out;
  for (int i = from; i < to; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

TEST(Lsh, CandidateRateFollowsTheSCurveOfTheChosenBands) {
  for (double threshold : {0.5, 0.8}) {
    auto [bands, rows] = lsh_bands_for(threshold, 128);
    EXPECT_EQ(bands * rows <= 128, true);
    EXPECT_GE(1 - std::pow(1 - std::pow(threshold, rows), bands), 0.99);
    int next = 0;
    for (double s : {0.2, 0.4, 0.6, 0.8, 0.95}) {
      // Pairs of 100-term sets with exact Jaccard near s.
      int shared = static_cast<int>(std::lround(200 * s / (1 + s)));
      double exact = shared / (200.0 - shared);
      std::vector<DedupPage> pages;
      const int pairs = 300;
      for (int t = 0; t < pairs; ++t) {
        std::vector<std::string> common = words(next, next + shared);
        next += shared;
        std::vector<std::string> a = common, b = common;
        for (const auto& w : words(next, next + 100 - shared)) a.push_back(w);
        next += 100 - shared;
        for (const auto& w : words(next, next + 100 - shared)) b.push_back(w);
        next += 100 - shared;
        pages.push_back(page_of(a, "a"));
        pages.push_back(page_of(b, "b"));
      }
      std::vector<const std::vector<uint32_t>*> minhashes, sketches;
      for (const DedupPage& p : pages) {
        minhashes.push_back(&p.sig.minhash);
        sketches.push_back(&p.sig.shingles);
      }
      std::vector<Pair> candidates = lsh_candidates(minhashes, sketches, bands, rows);
      std::size_t planted = 0;
      for (const Pair& c : candidates) planted += c.a % 2 == 0 && c.b == c.a + 1;
      double expected = 1 - std::pow(1 - std::pow(exact, rows), bands);
      double rate = static_cast<double>(planted) / pairs;
      EXPECT_NEAR(rate, expected, 4 * std::sqrt(expected * (1 - expected) / pairs) + 0.02)
          << "threshold " << threshold << ", Jaccard " << exact;
      // Unrelated pages (disjoint sets) never become candidates.
      EXPECT_EQ(candidates.size(), planted) << "threshold " << threshold;
    }
  }
}

TEST(Spotsigs, IndexFindsExactlyTheBruteForcePairs) {
  std::mt19937 rng(4);
  std::vector<DedupPage> pages;
  for (int i = 0; i < 400; ++i) {
    DedupPage p;
    p.id = std::to_string(i);
    std::set<uint32_t> spots;
    uint32_t base = (rng() % 40) * 1000;
    for (int k = 0; k < 30; ++k) spots.insert(base + rng() % 60);
    p.sig.spotsigs.assign(spots.begin(), spots.end());
    p.sig.terms = 100;
    pages.push_back(p);
  }
  DedupOptions options;
  options.method = "spotsigs";
  options.threshold = 0.3;
  auto fast = find_pairs(pages, options);
  ASSERT_TRUE(fast.ok());
  std::vector<Pair> slow;
  for (uint32_t i = 0; i < pages.size(); ++i)
    for (uint32_t j = i + 1; j < pages.size(); ++j) {
      const auto& a = pages[i].sig.spotsigs;
      const auto& b = pages[j].sig.spotsigs;
      std::vector<uint32_t> common;
      std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
      double jac = static_cast<double>(common.size()) / static_cast<double>(a.size() + b.size() - common.size());
      if (jac >= options.threshold) slow.push_back({i, j, 0});
    }
  ASSERT_EQ(fast->size(), slow.size());
  for (std::size_t i = 0; i < slow.size(); ++i) EXPECT_TRUE((*fast)[i] == slow[i]);
  EXPECT_GT(slow.size(), 100u);
}

TEST(ExactJoins, Md5GroupsBecomeClusters) {
  std::vector<DedupPage> pages(6);
  const char* md5s[] = {"a", "b", "a", "c", "a", "b"};
  for (int i = 0; i < 6; ++i) {
    pages[static_cast<std::size_t>(i)].id = test::token("p", i);
    pages[static_cast<std::size_t>(i)].sig.md5 = std::string(32, md5s[i][0]);
    pages[static_cast<std::size_t>(i)].sig.terms = 10;
  }
  DedupOptions options;
  options.method = "md5";
  auto pairs = find_pairs(pages, options);
  ASSERT_TRUE(pairs.ok());
  auto clusters = cluster_pages(pages, *pairs, options);
  ASSERT_EQ(clusters.size(), 2u);
  EXPECT_EQ(clusters[0].members, (std::vector<uint32_t>{0, 2, 4}));
  EXPECT_EQ(clusters[1].members, (std::vector<uint32_t>{1, 5}));
  options.method = "nope";
  EXPECT_FALSE(find_pairs(pages, options).ok());
}

// sketch_containment against the exact containment of the hashed sets it
// summarises: exact below the sketch size, within sampling error beyond.
TEST(Containment, SketchEstimateAgainstExactSets) {
  std::mt19937 rng(17);
  const uint32_t k = 256;
  auto sketch_of = [&](const std::vector<uint32_t>& set) {
    std::vector<uint32_t> s = set;
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    if (s.size() > k) s.resize(k);
    return s;
  };
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t na = 20 + rng() % (trial < 100 ? 200 : 3000), shared = rng() % (na + 1);
    const std::size_t nb = shared + rng() % (trial < 100 ? 200 : 6000);
    std::vector<uint32_t> a, b;
    for (std::size_t i = 0; i < shared; ++i) {
      uint32_t v = rng();
      a.push_back(v);
      b.push_back(v);
    }
    while (a.size() < na) a.push_back(rng());
    while (b.size() < nb) b.push_back(rng());
    const double exact = static_cast<double>(shared) / static_cast<double>(na);
    const double estimate = sketch_containment(sketch_of(a), sketch_of(b), k);
    if (na < k && nb < k) {
      EXPECT_DOUBLE_EQ(estimate, exact) << trial;
    } else {
      EXPECT_NEAR(estimate, exact, 0.2) << trial << ": |A| " << na << ", |B| " << nb << ", shared " << shared;
    }
  }
}

TEST(Clusters, ComponentsCentreAndDegree) {
  // A chain 0-1-2-3 and a star around 5 (4, 6, 7); 8 alone.
  std::vector<DedupPage> pages(9);
  for (std::size_t i = 0; i < pages.size(); ++i) pages[i].id = std::to_string(i);
  std::vector<Pair> pairs = {{0, 1, 0}, {1, 2, 0}, {2, 3, 0}, {4, 5, 0}, {5, 6, 0}, {5, 7, 0}};
  DedupOptions o;
  o.cluster = ClusterMethod::kComponents;
  auto c = cluster_pages(pages, pairs, o);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].members, (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(c[1].members, (std::vector<uint32_t>{4, 5, 6, 7}));
  o.cluster = ClusterMethod::kCentre;  // 0 takes 1; 2 takes 3; 4 takes 5; 6 and 7 are left alone
  c = cluster_pages(pages, pairs, o);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].members, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(c[1].members, (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(c[2].members, (std::vector<uint32_t>{4, 5}));
  o.cluster = ClusterMethod::kDegree;  // 5 (degree 3) first, then 1 or 2 (degree 2: 1 first)
  c = cluster_pages(pages, pairs, o);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].members, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(c[1].members, (std::vector<uint32_t>{4, 5, 6, 7}));
  EXPECT_EQ(cluster_pages(pages, pairs, o, /*singletons=*/true).size(), 4u);  // 3 and 8 alone
}

TEST(Clusters, MainPagePolicies) {
  std::vector<DedupPage> pages(3);
  for (std::size_t i = 0; i < 3; ++i) pages[i].id = std::to_string(i);
  pages[0].rank = 1;
  pages[1].rank = 5;
  pages[2].rank = 3;
  pages[0].boilerplate = 0.6;
  pages[1].boilerplate = 0.5;
  pages[2].boilerplate = 0.1;
  std::vector<Pair> pairs = {{0, 1, 0}, {1, 2, 0}};
  DedupOptions o;
  // first: a component's first page (the default clustering), or the
  // centre both others were verified against (max-degree).
  EXPECT_EQ(cluster_pages(pages, pairs, o)[0].main, 0u);
  o.cluster = ClusterMethod::kDegree;
  EXPECT_EQ(cluster_pages(pages, pairs, o)[0].main, 1u);
  o.cluster = ClusterMethod::kComponents;
  o.main = MainPage::kRank;
  EXPECT_EQ(cluster_pages(pages, pairs, o)[0].main, 1u);
  o.main = MainPage::kLeastBoilerplate;
  EXPECT_EQ(cluster_pages(pages, pairs, o)[0].main, 2u);
}

TEST(SignatureJson, RoundTrips) {
  Signatures s = sign(normalize("The council voted on Tuesday. The library opens in spring, said the mayor."),
                      SignOptions{}, nullptr);
  auto back = parse_signatures(signatures_json(s));
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(signatures_json(*back), signatures_json(s));
  EXPECT_FALSE(parse_signatures("{\"simhash\":\"xyz\"}").ok());
}

}  // namespace
}  // namespace husk
