#include "eval/eval.h"
#include "husk/normalize.h"
#include "unit/test_util.h"

namespace husk {
namespace {

TEST(WordTokens, MatchPythonUnicodeWordRuns) {
  auto t = word_tokens("Hello, world_1! Ünïcödé 42 — 中文 ½ x+y");
  std::vector<std::string_view> expect{"Hello", "world_1", "Ünïcödé", "42", "中文", "½", "x", "y"};
  EXPECT_EQ(t, expect);
  // Combining marks are not \w in Python: "é" as e + U+0301 splits.
  EXPECT_EQ(word_tokens("cafe\xCC\x81 bar"), (std::vector<std::string_view>{"cafe", "bar"}));
}

TEST(Shingles, CountsMatchTheBenchmarkDefinition) {
  // gold: a b c d e -> shingles abcd, bcde; prediction: a b c d x -> abcd, bcdx.
  ShingleMatch m = match_shingles("a b c d e", "a b c d x");
  EXPECT_DOUBLE_EQ(m.tp, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(m.fp, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(m.fn, 1.0 / 3.0);
  EXPECT_FALSE(m.exact);
  // Shorter than 4 tokens: one shingle of all tokens.
  ShingleMatch s = match_shingles("a b", "a b");
  EXPECT_DOUBLE_EQ(s.tp, 1.0);
  EXPECT_TRUE(s.exact);
  // Repeated shingles are a multiset.
  ShingleMatch r = match_shingles("a b c d a b c d", "a b c d");
  EXPECT_DOUBLE_EQ(r.tp, 1.0 / 5.0);
  EXPECT_DOUBLE_EQ(r.fn, 4.0 / 5.0);
}

TEST(Shingles, ScoreAveragesPagesTheBenchmarkWay) {
  std::vector<PageScore> pages(3);
  pages[0].match = match_shingles("a b c d e", "a b c d e");  // perfect
  pages[1].match = match_shingles("a b c d e", "");           // nothing predicted: no precision term
  pages[2].match = match_shingles("a b c d e", "a b c d x");  // half
  ExtractScore s = score_pages(pages);
  EXPECT_DOUBLE_EQ(s.precision, (1.0 + 0.5) / 2.0);
  EXPECT_DOUBLE_EQ(s.recall, (1.0 + 0.0 + 0.5) / 3.0);
  EXPECT_DOUBLE_EQ(s.f1, 2 * 0.75 * 0.5 / 1.25);
  EXPECT_DOUBLE_EQ(s.accuracy, 1.0 / 3.0);
}

TEST(Shingles, GoldKeysFromFileIds) {
  EXPECT_EQ(gold_key("html/abc123.html.gz"), "abc123");
  EXPECT_EQ(gold_key("abc.htm"), "abc");
  EXPECT_EQ(gold_key("urn:uuid:1"), "urn:uuid:1");
}

}  // namespace
}  // namespace husk
