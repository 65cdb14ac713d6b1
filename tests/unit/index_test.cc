// The persistent index against its twins: its lookups must find exactly
// the pages brute force finds (simhash, every k it accepts) and exactly
// the pairs husk dedup finds on the same pages (minhash and simhash).
#include <lmdb.h>

#include <random>
#include <set>

#include "dedup/search.h"
#include "husk/index.h"
#include "husk/ingest.h"
#include "unit/test_util.h"

namespace husk {
namespace {

std::unique_ptr<Index> open_index(const test::TempDir& dir, const std::string& name, uint32_t k) {
  IndexOptions options;
  options.dir = dir.file(name);
  options.simhash_k = k;
  auto index = Index::open(options);
  EXPECT_TRUE(index.ok()) << index.status().to_string();
  return index.ok() ? std::move(*index) : nullptr;
}

// The processor the index's pages come from: extraction and signing.
Result<Processor> signing_processor() {
  ProcessorOptions options;
  options.sign = true;
  return Processor::make(options);
}

// What the index finds for page i, without i itself.
std::set<std::string> found(const Index& index, const PageResult& page) {
  std::set<std::string> out;
  for (const Match& m : index.similar(*page.signatures))
    if (m.id != page.id) out.insert(m.id);
  return out;
}

TEST(Index, SimhashLookupsEqualBruteForceForEveryK) {
  test::TempDir dir;
  const std::vector<uint64_t> fp = test::planted_fingerprints(1500, 10, 7);
  std::mt19937 rng(3);
  std::vector<PageResult> pages(fp.size());
  for (std::size_t i = 0; i < fp.size(); ++i) {
    pages[i].id = test::token("p", static_cast<long long>(i));
    Signatures s;
    s.terms = 100;
    s.simhash = fp[i];
    // Random minima: no two pages share a band, so only simhash matches.
    for (int m = 0; m < 128; ++m) s.minhash.push_back(rng());
    pages[i].signatures = s;
  }
  std::vector<const PageResult*> all;
  for (const PageResult& p : pages) all.push_back(&p);
  for (uint32_t k = 0; k <= kMaxIndexSimhashK; ++k) {
    std::unique_ptr<Index> index = open_index(dir, "k" + std::to_string(k), k);
    ASSERT_NE(index, nullptr);
    for (const Result<Verdict>& v : index->add(all)) ASSERT_TRUE(v.ok()) << v.status().to_string();
    std::vector<std::set<std::string>> expected(fp.size());
    std::size_t pairs = 0;
    for (const Pair& p : simhash_brute_pairs(fp, k)) {
      expected[p.a].insert(pages[p.b].id);
      expected[p.b].insert(pages[p.a].id);
      ++pairs;
    }
    EXPECT_GT(pairs, 100u) << "k = " << k << ": the planted clusters must give pairs";
    for (std::size_t i = 0; i < pages.size(); ++i) ASSERT_EQ(found(*index, pages[i]), expected[i]) << "k = " << k << ", page " << i;
  }
  IndexOptions too_far;
  too_far.dir = dir.file("k9");
  too_far.simhash_k = kMaxIndexSimhashK + 1;
  Result<std::unique_ptr<Index>> refused = Index::open(too_far);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("0..8"), std::string::npos) << refused.status().message();
}

// Index lookups and husk dedup's pairs on the same signed pages.
void expect_index_equals_dedup(const std::vector<PageResult>& pages, const test::TempDir& dir) {
  std::unique_ptr<Index> index = open_index(dir, "db", 3);
  ASSERT_NE(index, nullptr);
  std::vector<const PageResult*> all;
  std::vector<DedupPage> dedup;
  for (const PageResult& p : pages) {
    if (!p.signatures) continue;
    all.push_back(&p);
    DedupPage d;
    d.id = p.id;
    d.sig = *p.signatures;
    dedup.push_back(std::move(d));
  }
  for (const Result<Verdict>& v : index->add(all)) ASSERT_TRUE(v.ok()) << v.status().to_string();
  std::vector<std::set<std::string>> expected(dedup.size());
  std::size_t pairs = 0;
  for (const char* method : {"minhash", "simhash"}) {
    DedupOptions options;
    options.method = method;
    options.k = 3;
    auto found_pairs = find_pairs(dedup, options);
    ASSERT_TRUE(found_pairs.ok());
    for (const Pair& p : *found_pairs) {
      expected[p.a].insert(dedup[p.b].id);
      expected[p.b].insert(dedup[p.a].id);
      ++pairs;
    }
  }
  EXPECT_GT(pairs, 50u);
  for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(found(*index, *all[i]), expected[i]) << all[i]->id;
}

TEST(Index, LookupsEqualDedupPairsOnGeneratedPages) {
  test::TempDir dir;
  Result<Processor> processor = signing_processor();
  ASSERT_TRUE(processor.ok());
  std::mt19937 rng(11);
  std::vector<PageResult> pages;
  for (int story = 0; story < 150; ++story) {
    std::vector<std::string> words;
    for (int w = 0; w < 150; ++w) words.push_back(test::token("w", static_cast<long long>(rng() % 5000)));
    for (int copy = 0; copy < 1 + story % 3; ++copy) {
      std::string text;
      for (std::size_t w = 0; w < words.size(); ++w) {
        if (copy > 0 && rng() % 25 == 0) text += test::token("x", static_cast<long long>(rng() % 1000)) + " ";
        text += words[w] + (w % 15 == 14 ? ". " : " ");
      }
      PageResult p;
      p.id = test::token("s", story * 10 + copy);
      p.signatures = processor->sign(text);
      pages.push_back(std::move(p));
    }
  }
  expect_index_equals_dedup(pages, dir);
}

TEST(Index, LookupsEqualDedupPairsOnTheNearDuplicateDevSet) {
  std::string root = test::dataset("near-dup-html-pairs");
  if (root.empty()) GTEST_SKIP() << "../shared/datasets/near-dup-html-pairs is absent";
  test::TempDir dir;
  Result<Processor> processor = signing_processor();
  ASSERT_TRUE(processor.ok());
  std::vector<PageResult> pages;
  IngestStats stats = ingest({root + "/html"}, IngestOptions{}, [&](RawPage&& page) {
    pages.push_back(processor->process(page));
    return true;
  });
  ASSERT_GT(pages.size(), 1000u);
  expect_index_equals_dedup(pages, dir);
}

TEST(Index, SettingsAreKeptAndCheckedOnOpen) {
  test::TempDir dir;
  { ASSERT_NE(open_index(dir, "db", 3), nullptr); }
  IndexOptions other;
  other.dir = dir.file("db");
  other.simhash_k = 5;
  Result<std::unique_ptr<Index>> reopened = Index::open(other);
  ASSERT_FALSE(reopened.ok());
  EXPECT_NE(reopened.status().message().find("simhash_k"), std::string::npos) << reopened.status().message();
}

// verify() looks each posting up: a band posting removed behind the
// index's back is reported, a whole index is clean.
TEST(Index, VerifyFindsAMissingPosting) {
  test::TempDir dir;
  Result<Processor> processor = signing_processor();
  ASSERT_TRUE(processor.ok());
  PageResult page = processor->process("https://v.example/a", "<html><body><article><p>" + std::string(
      "The council voted on Tuesday to turn the old harbour warehouses into a public library for the town ") +
      "</p></article></body></html>");
  ASSERT_TRUE(page.signatures);
  {
    std::unique_ptr<Index> index = open_index(dir, "db", 3);
    ASSERT_NE(index, nullptr);
    ASSERT_TRUE(index->add({&page}).at(0).ok());
    EXPECT_TRUE(index->verify().empty());
  }
  // Remove the page's first band posting with LMDB directly.
  MDB_env* env = nullptr;
  ASSERT_EQ(mdb_env_create(&env), 0);
  mdb_env_set_maxdbs(env, 16);
  mdb_env_set_mapsize(env, std::size_t(8) << 30);
  ASSERT_EQ(mdb_env_open(env, dir.file("db").c_str(), 0, 0644), 0);
  MDB_txn* txn = nullptr;
  ASSERT_EQ(mdb_txn_begin(env, nullptr, 0, &txn), 0);
  MDB_dbi bands;
  ASSERT_EQ(mdb_dbi_open(txn, "bands", MDB_DUPSORT, &bands), 0);
  MDB_cursor* cursor = nullptr;
  ASSERT_EQ(mdb_cursor_open(txn, bands, &cursor), 0);
  MDB_val k{}, v{};
  ASSERT_EQ(mdb_cursor_get(cursor, &k, &v, MDB_FIRST), 0);
  ASSERT_EQ(mdb_cursor_del(cursor, 0), 0);
  mdb_cursor_close(cursor);
  ASSERT_EQ(mdb_txn_commit(txn), 0);
  mdb_env_close(env);
  std::unique_ptr<Index> index = open_index(dir, "db", 3);
  ASSERT_NE(index, nullptr);
  std::vector<std::string> problems = index->verify();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("band posting missing"), std::string::npos) << problems[0];
}

}  // namespace
}  // namespace husk
