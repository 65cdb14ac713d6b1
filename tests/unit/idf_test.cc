#include <random>

#include "husk/sign.h"
#include "unit/test_util.h"

namespace husk {
namespace {

TEST(Idf, ExactBelowTheBucketWidth) {
  DfCounter counter(1e-3);
  counter.add_document({"a", "b", "a"});
  counter.add_document({"a", "c"});
  CollectionStats s = counter.finish();
  EXPECT_EQ(s.documents, 2u);
  EXPECT_EQ(s.df["a"], 2u);
  EXPECT_EQ(s.df["b"], 1u);
  EXPECT_DOUBLE_EQ(s.idf("a"), 0.0);
  EXPECT_DOUBLE_EQ(s.idf("b"), std::log(2.0));
  EXPECT_DOUBLE_EQ(s.idf("never"), std::log(2.0));
}

TEST(Idf, LossyCountingKeepsItsErrorBoundAndMemoryBound) {
  // Zipf-like stream against the exact twin.
  const double epsilon = 1e-3;
  DfCounter counter(epsilon);
  std::map<std::string, uint64_t> exact;
  std::mt19937 rng(5);
  uint64_t pairs = 0;
  for (int d = 0; d < 3000; ++d) {
    std::set<std::string> terms;
    for (int k = 0; k < 40; ++k) {
      double u = (rng() % 1000000 + 1) / 1e6;
      terms.insert(test::token("t", static_cast<long long>(1.0 / (u * u))));
    }
    std::vector<std::string> doc(terms.begin(), terms.end());
    for (const std::string& t : doc) ++exact[t];
    pairs += doc.size();
    counter.add_document(doc);
  }
  CollectionStats s = counter.finish();
  EXPECT_LT(s.df.size(), exact.size()) << "rare terms must have been pruned";
  for (const auto& [term, count] : exact) {
    auto it = s.df.find(term);
    uint64_t counted = it == s.df.end() ? 0 : it->second;
    EXPECT_LE(counted, count) << term;
    EXPECT_GE(static_cast<double>(counted), static_cast<double>(count) - epsilon * static_cast<double>(pairs)) << term;
  }
}

TEST(Idf, SaveAndLoad) {
  test::TempDir dir;
  CollectionStats s;
  s.documents = 7;
  s.normalize = "numbers=mask,letters=join,min-run=4";
  s.df = {{"b", 2}, {"a", 5}, {"中文", 1}};
  ASSERT_TRUE(save_collection_stats(s, 1e-6, dir.file("x.idf")).ok());
  EXPECT_EQ(test::read_file(dir.file("x.idf")),
            "husk-idf 1\ndocuments 7\nepsilon 1e-06\nnormalize numbers=mask,letters=join,min-run=4\na\t5\nb\t2\n中文\t1\n");
  auto loaded = load_collection_stats(dir.file("x.idf"));
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->documents, 7u);
  EXPECT_EQ(loaded->df, s.df);
  EXPECT_EQ(loaded->normalize, s.normalize);
  test::write_file(dir.file("bad.idf"), "something else\n");
  auto bad = load_collection_stats(dir.file("bad.idf"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("bad.idf:1"), std::string::npos);
}

}  // namespace
}  // namespace husk
