// The persistent index against its twins: its simhash arm must find
// exactly the candidates brute force finds (every k it accepts), and its
// decisions must be husk dedup's on the same pages: the same verified
// pairs, every page answered duplicate_of its earliest near-duplicate, and
// the clusters husk dedup's components, in any arrival order.
#include <lmdb.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "dedup/search.h"
#include "husk/index.h"
#include "husk/ingest.h"
#include "husk/metadata.h"
#include "unit/test_util.h"

namespace husk {
namespace {

std::unique_ptr<Index> open_index(const test::TempDir& dir, const std::string& name, uint32_t k,
                                  bool simhash = false, const std::string& measure = "jaccard") {
  IndexOptions options;
  options.dir = dir.file(name);
  options.measure = measure;
  options.threshold = default_threshold(measure);
  options.simhash_k = k;
  options.simhash = simhash;
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

// Opens the index's LMDB environment behind its back and acts on one
// table through a cursor, committing when `act` says it did.
bool damage_table(const std::string& dir, const char* table, unsigned flags,
                  const std::function<bool(MDB_txn*, MDB_dbi, MDB_cursor*)>& act) {
  MDB_env* env = nullptr;
  if (mdb_env_create(&env) != 0) return false;
  mdb_env_set_maxdbs(env, 16);
  mdb_env_set_mapsize(env, std::size_t(8) << 30);
  MDB_txn* txn = nullptr;
  MDB_dbi dbi = 0;
  MDB_cursor* cursor = nullptr;
  bool done = mdb_env_open(env, dir.c_str(), 0, 0644) == 0 && mdb_txn_begin(env, nullptr, 0, &txn) == 0 &&
              mdb_dbi_open(txn, table, flags, &dbi) == 0 && mdb_cursor_open(txn, dbi, &cursor) == 0;
  if (done) done = act(txn, dbi, cursor);
  if (cursor != nullptr) mdb_cursor_close(cursor);
  if (txn != nullptr) done = done ? mdb_txn_commit(txn) == 0 : (mdb_txn_abort(txn), false);
  mdb_env_close(env);
  return done;
}

// What the index finds for page i, without i itself.
std::set<std::string> found(const Index& index, const PageResult& page) {
  std::set<std::string> out;
  for (const Match& m : index.similar(*page.signatures, page.language.code))
    if (m.id != page.id) out.insert(m.id);
  return out;
}

// Pages of planted simhash clusters (test::planted_fingerprints) with
// random minima, so that no two share a band and only simhash finds
// candidates, and one shingle set for all, so that every candidate
// verifies.
std::vector<PageResult> planted_pages(std::size_t n, uint64_t seed, const std::string& prefix) {
  const std::vector<uint64_t> fp = test::planted_fingerprints(n, 10, seed);
  std::mt19937 rng(static_cast<uint32_t>(seed * 2 + 1));
  std::vector<PageResult> pages(fp.size());
  for (std::size_t i = 0; i < fp.size(); ++i) {
    pages[i].id = test::token(prefix, static_cast<long long>(i));
    Signatures s;
    s.terms = 100;
    s.simhash = fp[i];
    for (int m = 0; m < 128; ++m) s.minhash.push_back(rng());
    for (uint32_t h = 1; h <= 20; ++h) s.shingles.push_back(h);
    pages[i].signatures = s;
  }
  return pages;
}

TEST(Index, SimhashLookupsEqualBruteForceForEveryK) {
  test::TempDir dir;
  const std::vector<PageResult> pages = planted_pages(1500, 7, "p");
  std::vector<uint64_t> fp;
  for (const PageResult& p : pages) fp.push_back(*p.signatures->simhash);
  std::vector<const PageResult*> all;
  for (const PageResult& p : pages) all.push_back(&p);
  for (uint32_t k = 0; k <= kMaxIndexSimhashK; ++k) {
    std::unique_ptr<Index> index = open_index(dir, "k" + std::to_string(k), k, true);
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

// Each page's stored cluster (its main page's id, its own when alone).
std::map<std::string, std::string> stored_clusters(const Index& index, const std::vector<const PageResult*>& pages) {
  std::map<std::string, std::string> out;
  for (const PageResult* p : pages) {
    auto record = nlohmann::json::parse(index.get(p->id)->value_or("{}"));
    out[p->id] = record.value("cluster", "");
  }
  return out;
}

// husk dedup's clusters of the same pages: each page's main page.
std::map<std::string, std::string> dedup_clusters(const std::vector<DedupPage>& pages, const std::vector<Pair>& pairs) {
  std::map<std::string, std::string> out;
  for (const DedupPage& p : pages) out[p.id] = p.id;
  for (const Cluster& c : cluster_pages(pages, pairs, DedupOptions{}))
    for (uint32_t m : c.members) out[pages[m].id] = pages[c.main].id;
  return out;
}

// Index lookups, verdicts and clusters against husk dedup's pairs and
// default clusters on the same signed pages, added in the same order, by
// one measure at its default threshold.
std::vector<Result<Verdict>> expect_index_equals_dedup(const std::vector<PageResult>& pages, const test::TempDir& dir,
                                                       std::size_t min_pairs = 50, std::size_t min_duplicates = 20,
                                                       const std::string& name = "db",
                                                       const std::string& measure = "jaccard") {
  std::vector<Result<Verdict>> verdicts;
  std::unique_ptr<Index> index = open_index(dir, name, 3, false, measure);
  EXPECT_NE(index, nullptr);
  if (index == nullptr) return verdicts;
  std::vector<const PageResult*> all;
  std::vector<DedupPage> dedup;
  for (const PageResult& p : pages) {
    if (!p.signatures) continue;
    all.push_back(&p);
    DedupPage d;
    d.id = p.id;
    d.language = primary_language(p.language.code);
    d.sig = *p.signatures;
    dedup.push_back(std::move(d));
  }
  verdicts = index->add(all);
  for (const Result<Verdict>& v : verdicts)
    if (!v.ok()) {
      ADD_FAILURE() << v.status().to_string();
      return {};
    }
  std::vector<std::set<std::string>> expected(dedup.size());
  std::vector<std::size_t> earliest(dedup.size(), SIZE_MAX);  // the earliest near-duplicate arrived before
  std::map<std::pair<std::size_t, std::size_t>, std::string> inside;  // (earlier, later) -> "page" | "match"
  DedupOptions options;
  options.measure = measure;
  options.threshold = default_threshold(measure);
  auto found_pairs = find_pairs(dedup, options);
  EXPECT_TRUE(found_pairs.ok());
  if (!found_pairs.ok()) return {};
  for (const Pair& p : *found_pairs) {
    expected[p.a].insert(dedup[p.b].id);
    expected[p.b].insert(dedup[p.a].id);
    const uint32_t first = std::min(p.a, p.b), later = std::max(p.a, p.b);
    earliest[later] = std::min<std::size_t>(earliest[later], first);
    // Pair::contained 1: a's text inside b's. The later page is answered,
    // so "match" when the earlier one is the contained text.
    if (p.contained != 0) inside[{first, later}] = (p.contained == 1) == (p.a == first) ? "match" : "page";
  }
  EXPECT_GE(found_pairs->size(), min_pairs);
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(found(*index, *all[i]), expected[i]) << all[i]->id;
  // Each page's verdict: duplicate_of the earliest page it near-duplicates
  // that came before it, none for a page that came first.
  std::size_t duplicates = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Verdict& v = *verdicts[i];
    EXPECT_EQ(v.duplicate_of ? v.duplicate_of->id : std::string(),
              earliest[i] == SIZE_MAX ? std::string() : dedup[earliest[i]].id)
        << all[i]->id;
    if (v.duplicate_of) {
      ++duplicates;
      EXPECT_GE(v.duplicate_of->score, options.threshold) << all[i]->id;
      EXPECT_EQ(v.duplicate_of->measure, measure);
      const auto pair = inside.find({earliest[i], i});
      EXPECT_EQ(v.duplicate_of->contained, pair == inside.end() ? std::string() : pair->second) << all[i]->id;
    }
  }
  EXPECT_GE(duplicates, min_duplicates);
  // The clusters once every page is in: husk dedup's.
  EXPECT_EQ(stored_clusters(*index, all), dedup_clusters(dedup, *found_pairs));
  EXPECT_TRUE(index->verify().empty()) << index->verify().front();
  return verdicts;
}

// Word 5-shingles of a text (\w+ runs, lower-cased ASCII), as the bar on
// false duplicates measures them.
std::set<std::string> word_shingles(const std::string& text) {
  std::vector<std::string> words;
  std::string w;
  for (char c : text + " ") {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '_' || u >= 0x80) {
      w.push_back(static_cast<char>(std::tolower(u)));
    } else if (!w.empty()) {
      words.push_back(std::move(w));
      w.clear();
    }
  }
  std::set<std::string> out;
  for (std::size_t i = 0; i + 5 <= words.size(); ++i)
    out.insert(words[i] + " " + words[i + 1] + " " + words[i + 2] + " " + words[i + 3] + " " + words[i + 4]);
  if (words.size() < 5 && !words.empty()) {
    std::string all;
    for (const std::string& x : words) all += x + " ";
    out.insert(all);
  }
  return out;
}

double shingle_jaccard(const std::string& a, const std::string& b) {
  std::set<std::string> x = word_shingles(a), y = word_shingles(b);
  if (x.empty() && y.empty()) return 1;
  std::size_t both = 0;
  for (const std::string& s : x) both += y.count(s);
  return static_cast<double>(both) / static_cast<double>(x.size() + y.size() - both);
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

// Text reuse, as husk dedup --measure containment finds it: generated
// articles, passages cut from them, quotations and paragraphs set inside
// other texts, and unrelated texts, in a shuffled order. The index with
// the containment measure answers what the batch search pairs, says which
// text is contained, and clusters alike.
TEST(Index, ContainmentLookupsEqualDedupPairsOnGeneratedReuse) {
  test::TempDir dir;
  Result<Processor> processor = signing_processor();
  ASSERT_TRUE(processor.ok());
  std::mt19937 rng(23);
  auto text_of = [&](std::size_t n, const char* prefix) {
    std::vector<std::string> words;
    for (std::size_t w = 0; w < n; ++w) words.push_back(test::token(prefix, static_cast<long long>(rng() % 20000)));
    return words;
  };
  auto joined = [](const std::vector<std::string>& words, std::size_t from, std::size_t to) {
    std::string text;
    for (std::size_t w = from; w < to && w < words.size(); ++w) text += words[w] + (w % 15 == 14 ? ". " : " ");
    return text;
  };
  std::vector<PageResult> pages;
  auto add = [&](const std::string& id, const std::string& text) {
    PageResult p;
    p.id = id;
    p.signatures = processor->sign(text);
    pages.push_back(std::move(p));
  };
  for (int story = 0; story < 120; ++story) {
    const std::vector<std::string> article = text_of(400, "w");
    add(test::token("article", story), joined(article, 0, article.size()));
    const std::size_t from = rng() % 200;
    switch (story % 4) {
      case 0:  // a cut passage
        add(test::token("passage", story), joined(article, from, from + 120));
        break;
      case 1: {  // a quotation of 40 words inside another text
        const std::vector<std::string> other = text_of(250, "q");
        add(test::token("quote", story), joined(other, 0, 120) + joined(article, from, from + 40) + joined(other, 120, 250));
        break;
      }
      case 2: {  // a paragraph of 90 words inside a longer article
        const std::vector<std::string> other = text_of(600, "p");
        add(test::token("paragraph", story), joined(other, 0, 300) + joined(article, from, from + 90) + joined(other, 300, 600));
        break;
      }
      default:  // unrelated
        add(test::token("other", story), joined(text_of(200, "u"), 0, 200));
    }
  }
  std::shuffle(pages.begin(), pages.end(), std::mt19937(4));
  expect_index_equals_dedup(pages, dir, 60, 40, "db", "containment");
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
  // In arrival order, reversed and shuffled: each time husk dedup's
  // clusters, and the same clusters each time (only the main page, the
  // earliest, depends on the order).
  std::vector<std::set<std::set<std::string>>> partitions;
  for (int order = 0; order < 3; ++order) {
    if (order == 1) std::reverse(pages.begin(), pages.end());
    if (order == 2) std::shuffle(pages.begin(), pages.end(), std::mt19937(5));
    expect_index_equals_dedup(pages, dir, 50, 20, "db" + std::to_string(order));
    std::unique_ptr<Index> index = open_index(dir, "db" + std::to_string(order), 3);
    ASSERT_NE(index, nullptr);
    std::vector<const PageResult*> all;
    for (const PageResult& p : pages)
      if (p.signatures) all.push_back(&p);
    std::map<std::string, std::set<std::string>> groups;
    for (const auto& [id, cluster] : stored_clusters(*index, all)) groups[cluster].insert(id);
    std::set<std::set<std::string>> partition;
    for (auto& [cluster, ids] : groups) partition.insert(std::move(ids));
    partitions.push_back(std::move(partition));
  }
  EXPECT_EQ(partitions[0], partitions[1]);
  EXPECT_EQ(partitions[0], partitions[2]);
}

// The crawler's bar: fed 1,678 distinct pages (AEB and WCXB dev) as the
// hook feeds them, the index calls no page a duplicate of a page whose
// clean text it does not resemble (word 5-shingle Jaccard < 0.3), and
// every verdict is husk dedup's. Before the one decision the simhash arm,
// signed without collection statistics, answered 76 such false duplicates.
TEST(Index, NoFalseDuplicatesAmongDistinctPagesAndVerdictsEqualDedup) {
  std::string aeb = test::dataset("article-extraction-benchmark");
  std::string wcxb = test::dataset("wcxb-dev");
  if (aeb.empty() || wcxb.empty()) GTEST_SKIP() << "../shared/datasets is absent";
  test::TempDir dir;
  Result<Processor> processor = signing_processor();
  ASSERT_TRUE(processor.ok());
  std::vector<PageResult> pages;
  IngestStats stats = ingest({aeb + "/html", wcxb + "/html"}, IngestOptions{}, [&](RawPage&& page) {
    pages.push_back(processor->process(page));
    return true;
  });
  ASSERT_EQ(pages.size(), 1678u);
  std::map<std::string, const PageResult*> by_id;
  std::vector<const PageResult*> signed_pages;
  for (const PageResult& p : pages)
    if (p.signatures) {
      by_id[p.id] = &p;
      signed_pages.push_back(&p);
    }
  std::vector<Result<Verdict>> verdicts = expect_index_equals_dedup(pages, dir, 1, 1);
  ASSERT_EQ(verdicts.size(), signed_pages.size());
  std::size_t flagged = 0;
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    if (!verdicts[i].ok() || !verdicts[i]->duplicate_of) continue;
    ++flagged;
    const PageResult* other = by_id.at(verdicts[i]->duplicate_of->id);
    EXPECT_GE(shingle_jaccard(signed_pages[i]->text, other->text), 0.3)
        << signed_pages[i]->id << " called a duplicate of " << other->id;
  }
  std::printf("%zu of %zu distinct pages answered duplicate_of\n", flagged, signed_pages.size());
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
// svc-longid-fails-group.py: a page whose id exceeds LMDB's key size
// (511 bytes) failed its whole commit group, other clients' pages with it.
// Now it fails alone and the pages beside it are indexed.
TEST(Index, ALongIdFailsOnlyItsOwnPage) {
  test::TempDir dir;
  Result<Processor> processor = signing_processor();
  ASSERT_TRUE(processor.ok());
  std::vector<PageResult> pages;
  for (const char* topic : {"harbour", "library", "council"})
    pages.push_back(processor->process(std::string("https://l.example/") + topic,
                                       std::string("<html><body><article><p>The ") + topic +
                                           " story has words of its own about the town and its people, told at length "
                                           "so that it can be signed: one two three four five six seven.</p></article>"
                                           "</body></html>"));
  pages[1].id = std::string(600, 'x');
  std::unique_ptr<Index> index = open_index(dir, "db", 3);
  ASSERT_NE(index, nullptr);
  std::vector<Result<Verdict>> verdicts = index->add({&pages[0], &pages[1], &pages[2]});
  ASSERT_EQ(verdicts.size(), 3u);
  EXPECT_TRUE(verdicts[0].ok()) << verdicts[0].status().to_string();
  ASSERT_FALSE(verdicts[1].ok());
  EXPECT_NE(verdicts[1].status().message().find("at most 511"), std::string::npos) << verdicts[1].status().message();
  EXPECT_TRUE(verdicts[2].ok()) << verdicts[2].status().to_string();
  EXPECT_EQ(index->stats().pages, 2u);
  EXPECT_TRUE(index->verify().empty());
}

// verify() and export_jsonl() say where they stand, table by table, entry
// by entry, up to each table's count, and find and write what they do
// without being asked.
TEST(Index, MaintenancePassesSayWhereTheyStand) {
  test::TempDir dir;
  Result<Processor> processor = signing_processor();
  ASSERT_TRUE(processor.ok());
  // Three stories, the first twice.
  const std::vector<std::string> stories = {
      "The harbour master said on Monday that the old pier will close for repairs after the winter storms broke "
      "two of its pillars and flooded the fish market beside it.",
      "Readers of the city library borrowed more audio books than printed novels last year, its annual report "
      "shows, and the reading room will open on Sundays from March.",
      "The council voted to plant four hundred trees along the ring road, paid for by a grant that also covers "
      "benches, bicycle racks and a new footpath to the station.",
      "The harbour master said on Monday that the old pier will close for repairs after the winter storms broke "
      "two of its pillars and flooded the fish market beside it."};
  std::vector<PageResult> pages;
  for (const std::string& story : stories)
    pages.push_back(processor->process("https://p.example/" + std::to_string(pages.size()),
                                       "<html><body><article><p>" + story + "</p></article></body></html>"));
  std::unique_ptr<Index> index = open_index(dir, "db", 3);
  ASSERT_NE(index, nullptr);
  for (const auto& verdict : index->add({&pages[0], &pages[1], &pages[2], &pages[3]})) ASSERT_TRUE(verdict.ok());
  const IndexStats stats = index->stats();
  ASSERT_EQ(stats.pages, 4u);
  ASSERT_EQ(stats.clusters, 3u);  // the two harbour pages are one
  std::map<std::string, std::pair<uint64_t, uint64_t>> last;  // reading -> done, total
  std::vector<std::string> order;
  const Index::Progress heard = [&](const std::string& reading, uint64_t done, uint64_t total) {
    if (!last.count(reading)) order.push_back(reading);
    EXPECT_EQ(done, last[reading].first + 1) << reading;
    last[reading] = {done, total};
  };
  EXPECT_EQ(index->verify(false, heard), index->verify());
  EXPECT_EQ(order, (std::vector<std::string>{"pages", "band postings", "cluster members", "band postings' pages",
                                             "cluster members' pages", "clusters"}));
  EXPECT_EQ(last["pages"], std::make_pair(uint64_t{4}, uint64_t{4}));
  EXPECT_EQ(last["cluster members"], std::make_pair(uint64_t{4}, uint64_t{4}));
  EXPECT_EQ(last["clusters"], std::make_pair(uint64_t{3}, uint64_t{3}));
  EXPECT_EQ(last["band postings"], std::make_pair(stats.band_postings, stats.band_postings));
  last.clear();
  order.clear();
  std::ostringstream heard_out, quiet_out;
  ASSERT_TRUE(index->export_jsonl(heard_out, heard).ok());
  ASSERT_TRUE(index->export_jsonl(quiet_out).ok());
  EXPECT_EQ(heard_out.str(), quiet_out.str());
  EXPECT_EQ(order, std::vector<std::string>{"pages"});
  EXPECT_EQ(last["pages"], std::make_pair(uint64_t{4}, uint64_t{4}));
  // A compaction reports the bytes written, never past the bytes the
  // index uses, and ends at the copy's size.
  std::vector<std::pair<uint64_t, uint64_t>> written;
  ASSERT_TRUE(index
                  ->compact_to(dir.file("backup"),
                               [&](const std::string& reading, uint64_t done, uint64_t total) {
                                 EXPECT_EQ(reading, "bytes written");
                                 written.emplace_back(done, total);
                               })
                  .ok());
  const uint64_t size = std::filesystem::file_size(dir.file("backup") + "/data.mdb");
  ASSERT_FALSE(written.empty());
  EXPECT_EQ(written.back(), std::make_pair(size, size));
  for (std::size_t i = 0; i + 1 < written.size(); ++i) {
    EXPECT_LE(written[i].first, written[i].second);
    EXPECT_LE(written[i].first, written[i + 1].first);
  }
  EXPECT_LE(size, stats.used_bytes);
}

// A full index: the page that does not fit fails alone (Code::kLimit, the
// service's 507), its group's other pages are committed; once the limit is
// reached adds are refused and deletions still go through; everything
// acknowledged is there after a reopen and verify is clean.
TEST(Index, AFullIndexRefusesOnlyThePagesThatDoNotFit) {
  test::TempDir dir;
  Result<Processor> processor = signing_processor();
  ASSERT_TRUE(processor.ok());
  auto page = [&](int n) {
    std::string words;
    for (int w = 0; w < 80; ++w) words += test::token("w", n * 1000 + w) + " ";
    return processor->process("https://full.example/" + std::to_string(n),
                              "<html><body><article><p>" + words + "</p></article></body></html>");
  };
  IndexOptions options;
  options.dir = dir.file("db");
  options.map_size = std::size_t(1) << 20;
  std::set<std::string> kept;
  {
    auto opened = Index::open(options);
    ASSERT_TRUE(opened.ok()) << opened.status().to_string();
    Index& index = **opened;
    std::vector<PageResult> group{page(0), page(1), page(2)};
    group[1].text = std::string(std::size_t(12) << 20, 'x');  // larger than the whole map
    std::vector<Result<Verdict>> verdicts = index.add({&group[0], &group[1], &group[2]});
    ASSERT_EQ(verdicts.size(), 3u);
    EXPECT_TRUE(verdicts[0].ok()) << verdicts[0].status().to_string();
    ASSERT_FALSE(verdicts[1].ok());
    EXPECT_EQ(verdicts[1].status().code(), Code::kLimit) << verdicts[1].status().to_string();
    EXPECT_TRUE(verdicts[2].ok()) << verdicts[2].status().to_string();
    kept = {group[0].id, group[2].id};
    // Small pages until the limit refuses one.
    bool refused = false;
    for (int n = 3; n < 5000 && !refused; ++n) {
      PageResult p = page(n);
      std::vector<Result<Verdict>> v = index.add({&p});
      if (v[0].ok()) {
        kept.insert(p.id);
      } else {
        EXPECT_EQ(v[0].status().code(), Code::kLimit) << v[0].status().to_string();
        refused = true;
      }
    }
    ASSERT_TRUE(refused);
    EXPECT_GE(index.stats().used_bytes, options.map_size);
    // Deletions go through, in the reserve.
    for (int d = 0; d < 3; ++d) {
      const std::string id = *kept.begin();
      Result<bool> removed = index.remove(id);
      ASSERT_TRUE(removed.ok()) << removed.status().to_string();
      EXPECT_TRUE(*removed);
      kept.erase(id);
    }
  }
  auto reopened = Index::open(options);
  ASSERT_TRUE(reopened.ok()) << reopened.status().to_string();
  EXPECT_EQ((*reopened)->stats().pages, kept.size());
  for (const std::string& id : kept) EXPECT_TRUE((*reopened)->get(id).ok() && (*reopened)->get(id)->has_value()) << id;
  EXPECT_TRUE((*reopened)->verify().empty());
}

// svc-repost-cluster-drift.sh: a main page re-posted with new content kept
// its old cluster (with the pages that duplicate its old content) and the
// cluster counter drifted from the table. Now the old cluster passes to its
// earliest remaining member, under that member's id, and the counter holds.
TEST(Index, ARepostedMainPageLeavesItsOldCluster) {
  test::TempDir dir;
  Result<Processor> processor = signing_processor();
  ASSERT_TRUE(processor.ok());
  auto page = [&](const std::string& id, const std::string& topic) {
    PageResult p = processor->process("https://r.example/" + id,
                                      "<html><body><article><p>The " + topic + " story is told here at length, with "
                                      "words of its own about the town, its people and what happened on Tuesday "
                                      "evening at the " + topic + " meeting.</p></article></body></html>");
    p.id = id;
    return p;
  };
  std::unique_ptr<Index> index = open_index(dir, "db", 3);
  ASSERT_NE(index, nullptr);
  PageResult a = page("a", "harbour"), b = page("b", "harbour");
  PageResult a2 = processor->process("https://r.example/a",
                                     "<html><body><article><p>Apple growers in the valley expect a late harvest after "
                                     "a cold spring, and the cooperative has hired more pickers for October than in "
                                     "any year since it was founded.</p></article></body></html>");
  a2.id = "a";
  ASSERT_TRUE(index->add({&a}).at(0).ok());
  Result<Verdict> vb = std::move(index->add({&b}).at(0));
  ASSERT_TRUE(vb.ok());
  ASSERT_TRUE(vb->duplicate_of);
  EXPECT_EQ(vb->duplicate_of->id, "a");
  for (int again = 0; again < 2; ++again) {
    Result<Verdict> va = std::move(index->add({&a2}).at(0));
    ASSERT_TRUE(va.ok());
    EXPECT_FALSE(va->duplicate_of);
    EXPECT_EQ(va->cluster, "a");
  }
  auto cluster_b = nlohmann::json::parse(index->cluster("b").value_or("{}"));
  EXPECT_EQ(cluster_b["main"], "b");
  EXPECT_EQ(cluster_b["members"], nlohmann::json({"b"}));
  auto cluster_a = nlohmann::json::parse(index->cluster("a").value_or("{}"));
  EXPECT_EQ(cluster_a["members"], nlohmann::json({"a"}));
  EXPECT_EQ(index->stats().clusters, 2u);
  EXPECT_EQ(index->stats().pages, 2u);
  // b's stored record follows the table: b is its cluster's main page now.
  auto stored_b = nlohmann::json::parse(index->get("b")->value_or("{}"));
  EXPECT_EQ(stored_b["cluster"], "b");
  EXPECT_TRUE(stored_b["duplicate_of"].is_null());
  EXPECT_EQ(index->stats().duplicates, 0u);
  EXPECT_TRUE(index->verify().empty()) << index->verify().front();
}

// Words prefix<from> .. prefix<to - 1>, a space after each.
std::string words(int from, int to, const char* prefix) {
  std::string out;
  for (int w = from; w < to; ++w) out += test::token(prefix, w) + " ";
  return out;
}

// A one-paragraph article page under id, processed and signed.
PageResult article(const Processor& processor, const std::string& id, const std::string& text) {
  PageResult p = processor.process("https://k.example/" + id,
                                   "<html><body><article><p>" + text + "</p></article></body></html>");
  p.id = id;
  return p;
}

// Segment-level dedup in the index (N = 1): the second page to hold a
// notice loses it from its stored and answered text; a page that leaves,
// or is posted again, is uncounted first, so a re-posted page keeps what
// it held, and once every holder left a new page keeps the notice.
TEST(Index, ParagraphsSeenOnEarlierPagesLeaveTheStoredText) {
  test::TempDir dir;
  Result<Processor> processor = signing_processor();
  ASSERT_TRUE(processor.ok());
  const std::string notice = "Subscribe to our newsletter for the week's stories from the harbour district and beyond.";
  auto page = [&](const std::string& id) {
    PageResult p = processor->process("https://k.example/" + id, "<html><body><article><p>" + words(0, 40, id.c_str()) +
                                                                    "</p><p>" + notice + "</p></article></body></html>");
    p.id = id;
    return p;
  };
  const PageResult a = page("a"), b = page("b"), c = page("c");
  ASSERT_NE(b.text.find(notice), std::string::npos) << b.text;
  IndexOptions options;
  options.dir = dir.file("db");
  options.dedup_paragraphs = 1;
  auto index = Index::open(options);
  ASSERT_TRUE(index.ok()) << index.status().to_string();
  auto stored_text = [&](const std::string& id) {
    return nlohmann::json::parse((*index)->get(id)->value_or("{}")).value("text", "");
  };
  Result<Verdict> first = (*index)->add({&a}).at(0);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->paragraphs_dropped, 0u);
  EXPECT_FALSE(first->text);
  EXPECT_EQ(stored_text("a"), a.text);
  Result<Verdict> second = (*index)->add({&b}).at(0);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->paragraphs_dropped, 1u);
  const std::string without = b.text.substr(0, b.text.find("\n\n" + notice));
  EXPECT_EQ(second->text.value_or(""), without);
  EXPECT_EQ(stored_text("b"), without);
  Result<Verdict> again = (*index)->add({&a}).at(0);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->paragraphs_dropped, 0u) << "a re-posted page must not meet its own paragraphs";
  EXPECT_EQ(stored_text("a"), a.text);
  ASSERT_TRUE((*index)->remove("a").ok());
  ASSERT_TRUE((*index)->remove("b").ok());
  Result<Verdict> later = (*index)->add({&c}).at(0);
  ASSERT_TRUE(later.ok());
  EXPECT_EQ(later->paragraphs_dropped, 0u) << "the notice's holders left: nobody holds it now";
  EXPECT_TRUE((*index)->verify().empty());
}

// Frame lines in the index (IndexOptions::host_lines): a page given as
// text loses the lines that the pages of its host stored at that moment
// (itself among them) hold often enough. Against a brute-force twin that
// counts the stored texts' lines itself, over random adds, re-posts and
// removals on two hosts, across a reopen; then the point of it: pages of
// one template around different items stop being near-duplicates once the
// index has seen the template on enough of them.
TEST(Index, FrameLinesLeavePagesGivenAsTextByTheCountsOfTheStoredPages) {
  test::TempDir dir;
  Result<Processor> processor = signing_processor();
  ASSERT_TRUE(processor.ok());
  const HostLineOptions rule{3, 0.5};
  auto open = [&](const std::string& name, const HostLineOptions& lines) {
    IndexOptions options;
    options.dir = dir.file(name);
    options.host_lines = lines;
    options.sign_text = [&](std::string_view text) { return processor->sign(text); };
    auto index = Index::open(options);
    EXPECT_TRUE(index.ok()) << index.status().to_string();
    return index.ok() ? std::move(*index) : nullptr;
  };
  std::vector<std::string> pool;  // lines pages share, some more often than others
  for (int i = 0; i < 12; ++i) pool.push_back("Shared line " + words(i * 6, i * 6 + 6, "frame"));
  struct Stored {
    std::string host;
    std::set<std::string> lines;
  };
  std::map<std::string, Stored> twin;
  auto expected_dropped = [&](const std::string& id, const std::string& host, const std::vector<std::string>& lines) {
    auto holding = [&](const std::function<bool(const Stored&)>& holds) {
      uint32_t n = 1;  // the page itself
      for (const auto& [other, s] : twin) n += other != id && s.host == host && holds(s);
      return n;
    };
    const double documents = holding([](const Stored&) { return true; });
    const double threshold = std::max<double>(rule.min_documents, std::ceil(rule.share * documents));
    std::size_t dropped = 0;
    for (const std::string& line : lines)
      dropped += holding([&](const Stored& s) { return s.lines.count(line) > 0; }) >= threshold;
    return dropped == lines.size() ? 0 : dropped;
  };
  std::mt19937_64 random(31);
  std::unique_ptr<Index> index = open("db", rule);
  ASSERT_TRUE(index);
  std::size_t stripped_pages = 0;
  for (int step = 0; step < 240; ++step) {
    if (step == 120) {  // the counts outlive the process
      index.reset();
      index = open("db", rule);
      ASSERT_TRUE(index);
    }
    const std::string id = "p" + std::to_string(random() % 40);
    if (random() % 5 == 0) {
      ASSERT_EQ(*index->remove(id), twin.erase(id) > 0);
      continue;
    }
    const std::string host = random() % 3 == 0 ? "b.example" : "a.example";
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < pool.size(); ++i)
      if (random() % (i + 2) < 2) lines.push_back(pool[i]);
    lines.push_back("Item " + words(step * 20, step * 20 + 15, "item"));
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    PageResult page;
    page.id = id;
    page.url = "https://" + host + "/" + id;
    page.text = text;
    const std::size_t want = expected_dropped(id, host, lines);
    Result<Verdict> verdict = index->add({&page}).at(0);
    ASSERT_TRUE(verdict.ok()) << verdict.status().to_string();
    EXPECT_EQ(verdict->frame_lines, want) << "step " << step << ", page " << id;
    stripped_pages += want > 0;
    twin[id] = Stored{host, std::set<std::string>(lines.begin(), lines.end())};
  }
  EXPECT_GT(stripped_pages, 60u);
  EXPECT_TRUE(index->verify().empty());
  // Counts left for a page that is not stored are reported.
  index.reset();
  ASSERT_TRUE(damage_table(dir.file("db"), "framed", 0, [](MDB_txn* txn, MDB_dbi dbi, MDB_cursor*) {
    std::string id = "ghost", keys(8, '\1');
    MDB_val k{id.size(), id.data()}, v{keys.size(), keys.data()};
    return mdb_put(txn, dbi, &k, &v, 0) == 0;
  }));
  index = open("db", rule);
  ASSERT_TRUE(index);
  EXPECT_EQ(index->verify(), std::vector<std::string>{"ghost: host line counts are kept for a page that is not stored"});

  // One template around short, different items: near-duplicates of each
  // other while the template is new, apart once ten pages (the default)
  // have shown it; the same pages with host lines off stay near-duplicates.
  for (const bool on : {true, false}) {
    std::unique_ptr<Index> shop = open(on ? "shop" : "shop-off", on ? HostLineOptions{} : HostLineOptions{0, 0.5});
    ASSERT_TRUE(shop);
    std::vector<bool> duplicate;
    for (int k = 0; k < 14; ++k) {
      PageResult page;
      page.id = "item" + std::to_string(k);
      page.url = "https://shop.example/item/" + std::to_string(k);
      for (int i = 0; i < 8; ++i) page.text += pool[static_cast<std::size_t>(i)] + "\n";
      page.text += "Item " + words(k * 10, k * 10 + 10, "thing");
      Result<Verdict> verdict = shop->add({&page}).at(0);
      ASSERT_TRUE(verdict.ok());
      duplicate.push_back(verdict->duplicate_of.has_value());
      EXPECT_EQ(verdict->frame_lines, on && k >= 9 ? 8u : 0u) << k;
    }
    for (int k = 1; k < 14; ++k) EXPECT_EQ(duplicate[static_cast<std::size_t>(k)], !on || k < 9) << k;
    // A query's text as an add would sign it.
    std::string query;
    for (int i = 0; i < 8; ++i) query += pool[static_cast<std::size_t>(i)] + "\n";
    std::string item = "Item " + words(0, 10, "other");
    item.pop_back();  // lines are compared and kept trimmed
    EXPECT_EQ(shop->without_frame_lines("https://shop.example/item/99", query + item), on ? item : query + item);
    EXPECT_EQ(shop->without_frame_lines("", query + item), query + item);
  }
}

// When a page leaves its cluster, the rest are clustered again as husk
// dedup would cluster them: the earliest page left is the main page, each
// other page's stored record names its earliest near-duplicate with the
// score measured against it, and a cluster whose pages were joined only
// through the page that left splits.
TEST(Index, ThePagesOfAClusterAreClusteredAgainWhenOneLeaves) {
  test::TempDir dir;
  Result<Processor> processor = signing_processor();
  ASSERT_TRUE(processor.ok());
  // a: 100 words; b replaces a's last 25, c its first 25 (others), d is a.
  // b and c share half their words: they are near a and d, not each other.
  auto page = [&](const std::string& id, const std::string& text) { return article(*processor, id, text); };
  PageResult a = page("a", words(0, 100, "w")), b = page("b", words(0, 75, "w") + words(0, 25, "x")),
             c = page("c", words(0, 25, "y") + words(25, 100, "w")), d = page("d", words(0, 100, "w"));
  std::unique_ptr<Index> index = open_index(dir, "db", 3);
  ASSERT_NE(index, nullptr);
  for (PageResult* p : {&a, &b, &c, &d}) {
    Result<Verdict> v = std::move(index->add({p}).at(0));
    ASSERT_TRUE(v.ok());
    EXPECT_EQ(v->cluster, "a") << p->id;
  }
  auto stored = [&](const std::string& id) { return nlohmann::json::parse(index->get(id)->value_or("{}")); };
  auto members = [&](const std::string& id) {
    return nlohmann::json::parse(index->cluster(id).value_or("{}")).value("members", nlohmann::json());
  };
  ASSERT_TRUE(index->remove("a").ok());
  // b, the earliest page left, is the main page; d (a's twin) is near
  // both b and c, which stay with it.
  EXPECT_EQ(stored("b")["cluster"], "b");
  EXPECT_TRUE(stored("b")["duplicate_of"].is_null());
  EXPECT_EQ(stored("c")["cluster"], "b");
  EXPECT_EQ(stored("c")["duplicate_of"]["id"], "d");
  EXPECT_EQ(stored("d")["cluster"], "b");
  EXPECT_EQ(stored("d")["duplicate_of"]["id"], "b");
  EXPECT_GT(stored("d")["duplicate_of"]["score"].get<double>(), 0.5);
  EXPECT_EQ(members("b"), nlohmann::json({"b", "c", "d"}));
  EXPECT_EQ(index->stats().clusters, 1u);
  EXPECT_EQ(index->stats().duplicates, 2u);
  EXPECT_TRUE(index->verify().empty()) << index->verify().front();
  // Without d, b and c have nothing in common enough: two clusters.
  ASSERT_TRUE(index->remove("d").ok());
  EXPECT_EQ(stored("b")["cluster"], "b");
  EXPECT_EQ(stored("c")["cluster"], "c");
  EXPECT_TRUE(stored("c")["duplicate_of"].is_null());
  EXPECT_EQ(members("b"), nlohmann::json({"b"}));
  EXPECT_EQ(members("c"), nlohmann::json({"c"}));
  EXPECT_EQ(index->stats().clusters, 2u);
  EXPECT_EQ(index->stats().duplicates, 0u);
  EXPECT_TRUE(index->verify().empty()) << index->verify().front();
}

// Two clusters that a new page joins become one under the older main page;
// the younger main page's record then names its earliest near-duplicate.
TEST(Index, APageNearTwoClustersMergesThem) {
  test::TempDir dir;
  Result<Processor> processor = signing_processor();
  ASSERT_TRUE(processor.ok());
  auto page = [&](const std::string& id, const std::string& text) { return article(*processor, id, text); };
  // b and c share half their words; m, between them, is near both.
  PageResult b = page("b", words(0, 75, "w") + words(0, 25, "x")), c = page("c", words(0, 25, "y") + words(25, 100, "w")),
             m = page("m", words(0, 100, "w"));
  std::unique_ptr<Index> index = open_index(dir, "db", 3);
  ASSERT_NE(index, nullptr);
  ASSERT_EQ(index->add({&b}).at(0)->cluster, "b");
  ASSERT_EQ(index->add({&c}).at(0)->cluster, "c");
  Result<Verdict> v = std::move(index->add({&m}).at(0));
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->cluster, "b");
  ASSERT_TRUE(v->duplicate_of);
  EXPECT_EQ(v->duplicate_of->id, "b");
  auto stored = [&](const std::string& id) { return nlohmann::json::parse(index->get(id)->value_or("{}")); };
  EXPECT_EQ(stored("c")["cluster"], "b");
  EXPECT_EQ(stored("c")["duplicate_of"]["id"], "m");
  EXPECT_EQ(nlohmann::json::parse(index->cluster("b").value_or("{}"))["members"], nlohmann::json({"b", "c", "m"}));
  EXPECT_FALSE(index->cluster("c"));
  EXPECT_EQ(index->stats().clusters, 1u);
  EXPECT_EQ(index->stats().duplicates, 2u);
  EXPECT_TRUE(index->verify().empty()) << index->verify().front();
}

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
  ASSERT_TRUE(damage_table(dir.file("db"), "bands", MDB_DUPSORT, [](MDB_txn*, MDB_dbi, MDB_cursor* cursor) {
    MDB_val k{}, v{};
    return mdb_cursor_get(cursor, &k, &v, MDB_FIRST) == 0 && mdb_cursor_del(cursor, 0) == 0;
  }));
  std::unique_ptr<Index> index = open_index(dir, "db", 3);
  ASSERT_NE(index, nullptr);
  std::vector<std::string> problems = index->verify();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("band posting missing"), std::string::npos) << problems[0];
}

// The streamed verification (sums of postings by bucket, then lookups in
// the buckets that differ) against its twin that looks every posting up:
// the same problems, in the same order, on a clean index and on indexes
// damaged behind their back in each table, clusters of several pages
// among them.
TEST(Index, StreamedVerifyFindsWhatLookingEveryPostingUpFinds) {
  const std::vector<PageResult> pages = planted_pages(400, 11, "v");
  std::vector<const PageResult*> all;
  for (const PageResult& p : pages) all.push_back(&p);
  // The n-th entry of a table, removed; or a posting of a page never stored, added.
  auto remove_nth = [](int n) {
    return [n](MDB_txn*, MDB_dbi, MDB_cursor* cursor) {
      MDB_val k{}, v{};
      int rc = mdb_cursor_get(cursor, &k, &v, MDB_FIRST);
      for (int i = 0; i < n && rc == 0; ++i) rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT);
      return rc == 0 && mdb_cursor_del(cursor, 0) == 0;
    };
  };
  auto add_ghost = [](MDB_txn* txn, MDB_dbi dbi, MDB_cursor*) {
    std::string key = "ghost-key", value = "ghost";
    MDB_val k{key.size(), key.data()}, v{value.size(), value.data()};
    return mdb_put(txn, dbi, &k, &v, 0) == 0;
  };
  struct Damage {
    const char* table;
    unsigned flags;
    std::function<bool(MDB_txn*, MDB_dbi, MDB_cursor*)> act;
    const char* finds;  // what the problems name
  };
  const std::vector<Damage> damages = {
      {nullptr, 0, nullptr, ""},
      {"bands", MDB_DUPSORT, remove_nth(0), "band posting missing"},
      {"bands", MDB_DUPSORT, remove_nth(777), "band posting missing"},
      {"simhash", MDB_DUPSORT, remove_nth(333), "simhash posting missing"},
      {"members", MDB_DUPSORT, remove_nth(50), "not a member of"},
      {"simhash", MDB_DUPSORT, add_ghost, "posting to missing page ghost"},
      {"docs", 0, remove_nth(123), "posting to missing page"},
  };
  for (const Damage& d : damages) {
    test::TempDir dir;
    {
      std::unique_ptr<Index> index = open_index(dir, "db", 3, true);
      ASSERT_NE(index, nullptr);
      for (const Result<Verdict>& v : index->add(all)) ASSERT_TRUE(v.ok()) << v.status().to_string();
      ASSERT_GT(index->stats().duplicates, 50u) << "the planted clusters must give clusters of several pages";
    }
    if (d.table != nullptr) {
      ASSERT_TRUE(damage_table(dir.file("db"), d.table, d.flags, d.act)) << d.table;
    }
    std::unique_ptr<Index> index = open_index(dir, "db", 3, true);
    ASSERT_NE(index, nullptr);
    const std::vector<std::string> streamed = index->verify(), looked_up = index->verify(true);
    EXPECT_EQ(streamed, looked_up) << (d.table ? d.table : "clean");
    if (d.table == nullptr) {
      EXPECT_TRUE(streamed.empty()) << streamed.front();
      continue;
    }
    ASSERT_FALSE(streamed.empty()) << d.table;
    EXPECT_TRUE(std::any_of(streamed.begin(), streamed.end(),
                            [&](const std::string& p) { return p.find(d.finds) != std::string::npos; }))
        << d.table << ": " << streamed.front();
  }
}

}  // namespace
}  // namespace husk
