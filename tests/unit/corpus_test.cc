// The corpus-scale search against its in-memory twin (find_pairs and
// cluster_pages), on one rank and on several (threads standing in for MPI
// ranks), with and without spilling to disk; and its hostile cases.
#include <barrier>
#include <random>
#include <thread>

#include "dedup/search.h"
#include "husk/corpus.h"
#include "unit/test_util.h"

namespace husk {
namespace {

// Ranks as threads of one process: every collective call meets at a
// barrier, like MPI's.
class ThreadHub {
 public:
  explicit ThreadHub(int ranks)
      : ranks_(ranks), sync_(ranks), mail_(static_cast<std::size_t>(ranks * ranks)), sums_(static_cast<std::size_t>(ranks)) {}

  class Rank final : public Exchange {
   public:
    Rank(ThreadHub& hub, int rank) : hub_(hub), rank_(rank) {}
    int rank() const override { return rank_; }
    int size() const override { return hub_.ranks_; }
    std::vector<std::string> all_to_all(std::vector<std::string> out) override {
      for (int r = 0; r < hub_.ranks_; ++r) hub_.mail_[rank_ * hub_.ranks_ + r] = std::move(out[r]);
      hub_.sync_.arrive_and_wait();
      std::vector<std::string> in(static_cast<std::size_t>(hub_.ranks_));
      for (int r = 0; r < hub_.ranks_; ++r) in[r] = std::move(hub_.mail_[r * hub_.ranks_ + rank_]);
      hub_.sync_.arrive_and_wait();
      return in;
    }
    uint64_t sum(uint64_t value) override {
      hub_.sums_[rank_] = value;
      hub_.sync_.arrive_and_wait();
      uint64_t total = 0;
      for (uint64_t v : hub_.sums_) total += v;
      hub_.sync_.arrive_and_wait();
      return total;
    }

   private:
    ThreadHub& hub_;
    int rank_;
  };

 private:
  int ranks_;
  std::barrier<> sync_;
  std::vector<std::string> mail_;
  std::vector<uint64_t> sums_;
};

// Texts from a Zipfian vocabulary with planted near-copies (1-20% of words
// edited) and exact copies.
std::vector<DedupPage> planted_pages(std::size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> cdf(5000);
  double sum = 0;
  for (std::size_t i = 0; i < cdf.size(); ++i) cdf[i] = sum += 1.0 / static_cast<double>(i + 1);
  auto word = [&] {
    double u = static_cast<double>(rng() >> 11) * 0x1.0p-53 * sum;
    return "w" + std::to_string(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
  };
  std::vector<std::vector<std::string>> texts;
  std::vector<DedupPage> pages;
  const SignOptions options;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::string> t;
    if (!texts.empty() && rng() % 4 == 0) {
      t = texts[rng() % texts.size()];
      std::size_t edits = t.size() * (rng() % 21) / 100;
      for (std::size_t e = 0; e < edits; ++e) t[rng() % t.size()] = word();
    } else {
      for (std::size_t w = 0, len = 20 + rng() % 200; w < len; ++w) t.push_back(word());
    }
    NormalizedText text;
    text.terms = t;
    text.sentences.push_back({0, static_cast<uint32_t>(t.size())});
    DedupPage p;
    p.id = "p" + std::to_string(i);
    p.rank = static_cast<double>(rng() % 5);
    p.sig = sign(text, options, nullptr);
    pages.push_back(std::move(p));
    texts.push_back(std::move(t));
  }
  return pages;
}

struct CorpusRun {
  std::vector<CorpusCluster> clusters;
  std::vector<CorpusPair> pairs;
  uint64_t spilled = 0;
};

// The corpus search over `ranks` thread ranks; page i is added by rank i mod ranks.
CorpusRun corpus_run(const std::vector<DedupPage>& pages, int ranks, const DedupOptions& dedup, uint64_t memory,
               bool singletons = false) {
  ThreadHub hub(ranks);
  std::vector<CorpusRun> runs(static_cast<std::size_t>(ranks));
  std::vector<std::string> errors(static_cast<std::size_t>(ranks));
  auto work = [&](int r) {
    ThreadHub::Rank exchange(hub, r);
    CorpusOptions options;
    options.dedup = dedup;
    options.memory = memory;
    options.jobs = 2;
    options.keep_pairs = true;
    options.singletons = singletons;
    auto engine = CorpusDedup::make(options, exchange);
    if (!engine.ok()) {
      errors[r] = engine.status().message();
      return;
    }
    for (std::size_t i = static_cast<std::size_t>(r); i < pages.size(); i += static_cast<std::size_t>(ranks))
      if (Status st = (*engine)->add(i, pages[i]); !st.ok()) errors[r] = st.message();
    auto result = (*engine)->finish();
    if (!result.ok()) {
      errors[r] = result.status().message();
      return;
    }
    runs[r] = {std::move(result->clusters), std::move(result->pairs), result->spilled_bytes};
  };
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) threads.emplace_back(work, r);
  for (std::thread& t : threads) t.join();
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  return runs[0];
}

// The twin's clusters, as ids.
std::vector<CorpusCluster> twin_clusters(const std::vector<DedupPage>& pages, const DedupOptions& dedup,
                                         std::vector<Pair>* pairs_out = nullptr, bool singletons = false) {
  auto pairs = find_pairs(pages, dedup);
  EXPECT_TRUE(pairs.ok());
  if (pairs_out) *pairs_out = *pairs;
  std::vector<CorpusCluster> out;
  for (const Cluster& c : cluster_pages(pages, *pairs, dedup, singletons)) {
    CorpusCluster cc;
    cc.main = pages[c.main].id;
    for (uint32_t m : c.members) cc.members.push_back(pages[m].id);
    out.push_back(std::move(cc));
  }
  return out;
}

bool same(const std::vector<CorpusCluster>& a, const std::vector<CorpusCluster>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].main != b[i].main || a[i].members != b[i].members) return false;
  return true;
}

TEST(CorpusDedup, SamePairsAndClustersAsTheInMemorySearchOnAnyNumberOfRanks) {
  std::vector<DedupPage> pages = planted_pages(3000, 5);
  DedupOptions dedup;
  std::vector<Pair> twin_pairs;
  std::vector<CorpusCluster> twin = twin_clusters(pages, dedup, &twin_pairs);
  ASSERT_GT(twin.size(), 200u) << "the planted copies must make clusters";
  for (int ranks : {1, 2, 3, 4}) {
    CorpusRun run = corpus_run(pages, ranks, dedup, uint64_t(1) << 30);
    EXPECT_TRUE(same(run.clusters, twin)) << ranks << " ranks";
    ASSERT_EQ(run.pairs.size(), twin_pairs.size()) << ranks << " ranks";
    for (std::size_t i = 0; i < twin_pairs.size(); ++i) {
      EXPECT_EQ(run.pairs[i].a, pages[twin_pairs[i].a].id);
      EXPECT_EQ(run.pairs[i].b, pages[twin_pairs[i].b].id);
      EXPECT_FLOAT_EQ(run.pairs[i].score, twin_pairs[i].score);
    }
    EXPECT_EQ(run.spilled, 0u);
  }
}

// Two pages under one id are refused as the in-memory search refuses
// them, whichever ranks hold them; distinct ids whose pages are identical
// are not.
TEST(CorpusDedup, TwoPagesUnderOneIdAreRefusedOnEveryRank) {
  std::vector<DedupPage> pages = planted_pages(200, 5);
  pages[150].id = pages[7].id;
  const std::string expected = "the id \"" + pages[7].id + "\" is given twice: every page needs an id of its own";
  auto in_memory = find_pairs(pages, DedupOptions{});
  ASSERT_FALSE(in_memory.ok());
  EXPECT_EQ(in_memory.status().message(), expected);
  for (int ranks : {1, 2, 3}) {
    ThreadHub hub(ranks);
    std::vector<std::string> errors(static_cast<std::size_t>(ranks));
    auto work = [&](int r) {
      ThreadHub::Rank exchange(hub, r);
      CorpusOptions options;
      options.jobs = 1;
      auto engine = CorpusDedup::make(options, exchange);
      ASSERT_TRUE(engine.ok());
      for (std::size_t i = static_cast<std::size_t>(r); i < pages.size(); i += static_cast<std::size_t>(ranks))
        ASSERT_TRUE((*engine)->add(i, pages[i]).ok());
      auto result = (*engine)->finish();
      errors[r] = result.ok() ? "" : result.status().message();
    };
    std::vector<std::thread> threads;
    for (int r = 0; r < ranks; ++r) threads.emplace_back(work, r);
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(errors[0], expected) << ranks << " ranks";
    for (int r = 1; r < ranks; ++r) EXPECT_EQ(errors[r], "an id is given twice (rank 0 names it)") << ranks << " ranks";
  }
  pages[150].id = "another id";
  pages[150].sig = pages[7].sig;  // the same page under another id is a near-duplicate, not an error
  CorpusRun run = corpus_run(pages, 2, DedupOptions{}, uint64_t(1) << 30);
  EXPECT_FALSE(run.clusters.empty());
}

TEST(CorpusDedup, ATinyBudgetSpillsAndSplitsPartitionsWithoutChangingTheClusters) {
  std::vector<DedupPage> pages = planted_pages(3000, 6);
  DedupOptions dedup;
  std::vector<CorpusCluster> twin = twin_clusters(pages, dedup);
  for (int ranks : {1, 2}) {
    // 256 KB: a quarter (64 KB) holds 4,096 keys of the 126,000, and the
    // 64 partitions of ~2,000 keys fit in it; 16 KB (1,024 keys) splits
    // each partition again.
    for (uint64_t memory : {uint64_t(256) << 10, uint64_t(16) << 10}) {
      CorpusRun run = corpus_run(pages, ranks, dedup, memory);
      EXPECT_GT(run.spilled, 1000000u) << ranks << " ranks, memory " << memory;
      EXPECT_TRUE(same(run.clusters, twin)) << ranks << " ranks, memory " << memory;
    }
  }
}

TEST(CorpusDedup, GreedyClusteringsAndMainPagesMatchTheTwin) {
  std::vector<DedupPage> pages = planted_pages(2000, 7);
  for (ClusterMethod method : {ClusterMethod::kCentre, ClusterMethod::kDegree, ClusterMethod::kComponents})
    for (MainPage main : {MainPage::kFirst, MainPage::kRank}) {
      DedupOptions dedup;
      dedup.cluster = method;
      dedup.main = main;
      std::vector<CorpusCluster> twin = twin_clusters(pages, dedup, nullptr, true);
      for (int ranks : {1, 3}) {
        CorpusRun run = corpus_run(pages, ranks, dedup, uint64_t(1) << 30, true);
        EXPECT_TRUE(same(run.clusters, twin)) << static_cast<int>(method) << "/" << static_cast<int>(main) << ", "
                                              << ranks << " ranks";
      }
    }
}

TEST(CorpusDedup, RanksWithoutPagesAndAnEmptyCorpus) {
  std::vector<DedupPage> pages = planted_pages(2, 8);
  pages.push_back(pages[0]);
  pages.back().id = "copy";
  CorpusRun run = corpus_run(pages, 5, DedupOptions{}, uint64_t(1) << 30);
  ASSERT_EQ(run.clusters.size(), 1u);
  EXPECT_EQ(run.clusters[0].members.front(), "p0");
  EXPECT_EQ(run.clusters[0].members.back(), "copy");
  EXPECT_TRUE(same(run.clusters, twin_clusters(pages, DedupOptions{})));
  for (int ranks : {1, 3}) EXPECT_TRUE(corpus_run({}, ranks, DedupOptions{}, uint64_t(1) << 30).clusters.empty());
}

TEST(CorpusDedup, OnePageCopiedAHundredThousandTimesIsOneClusterWithoutQuadraticWork) {
  std::vector<DedupPage> one = planted_pages(1, 9);
  std::vector<DedupPage> pages(100000, one[0]);
  for (std::size_t i = 0; i < pages.size(); ++i) pages[i].id = "c" + std::to_string(i);
  ThreadHub hub(2);
  std::vector<uint64_t> candidates(2);
  auto work = [&](int r) {
    ThreadHub::Rank exchange(hub, r);
    CorpusOptions options;
    options.memory = 8 << 20;
    auto engine = CorpusDedup::make(options, exchange);
    ASSERT_TRUE(engine.ok());
    for (std::size_t i = static_cast<std::size_t>(r); i < pages.size(); i += 2) ASSERT_TRUE((*engine)->add(i, pages[i]).ok());
    auto result = (*engine)->finish();
    ASSERT_TRUE(result.ok());
    candidates[r] = result->candidates;
    if (r == 0) {
      ASSERT_EQ(result->clusters.size(), 1u);
      EXPECT_EQ(result->clusters[0].members.size(), 100000u);
      EXPECT_EQ(result->clusters[0].main, "c0");
    }
  };
  std::thread other(work, 1);
  work(0);
  other.join();
  // A star per band key: pages - 1 distinct pairs, not 5 * 10^9.
  EXPECT_EQ(candidates[0], 99999u);
}

TEST(CorpusDedup, RefusesPagesOutOfItsShareOrWithAnotherSignatureLength) {
  auto exchange = one_process_exchange();
  CorpusOptions options;
  auto engine = CorpusDedup::make(options, *exchange);
  ASSERT_TRUE(engine.ok());
  std::vector<DedupPage> pages = planted_pages(2, 10);
  ASSERT_TRUE((*engine)->add(3, pages[0]).ok());
  EXPECT_FALSE((*engine)->add(2, pages[1]).ok()) << "ordinals must increase";
  DedupPage short_sig = pages[1];
  short_sig.sig.minhash.resize(64);
  Status st = (*engine)->add(4, short_sig);
  EXPECT_NE(st.message().find("64 minhash minima, expected 128"), std::string::npos) << st.message();
  options.dedup.method = "simhash";
  EXPECT_FALSE(CorpusDedup::make(options, *exchange).ok());
}

}  // namespace
}  // namespace husk
