#include <cmath>
#include <random>
#include <tuple>

#include "eval/eval.h"
#include "eval/report.h"
#include "eval/train.h"
#include "extract/model.h"
#include "extract/page_type.h"
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

// Chinese or Japanese gold is also scored with each character a token: a
// clause missing one character scores 0 by \w+ runs and close to 1 so.
TEST(CjkScoring, ChineseAndJapaneseGoldIsAlsoScoredByCharacter) {
  EXPECT_TRUE(is_cjk_gold("我能吞下玻璃而不伤身体。"));
  EXPECT_TRUE(is_cjk_gold("私はガラスを食べられます。 It does not hurt."));
  EXPECT_FALSE(is_cjk_gold("An English page quoting 中文 once."));
  EXPECT_EQ(cjk_char_tokens({"abc", "中文x", "かな"}),
            (std::vector<std::string_view>{"abc", "中", "文", "x", "か", "な"}));
  const std::string gold = "我能吞下玻璃而不伤身体", prediction = "我能吞下玻璃而不伤身";
  EXPECT_DOUBLE_EQ(match_words(gold, prediction).f1, 0.0);
  WordMatch chars = match_words(gold, prediction, true);
  EXPECT_DOUBLE_EQ(chars.precision, 1.0);
  EXPECT_DOUBLE_EQ(chars.recall, 10.0 / 11.0);
  EXPECT_EQ(match_shingles(gold, prediction).tp, 0.0);
  EXPECT_GT(match_shingles(gold, prediction, 4, true).tp, 0.8);
}

// The snippet score pools snippets over pages, collapses white space (a
// no-break space included) and counts a page with no prediction as empty.
TEST(Snippets, PooledOverPagesAfterCollapsingWhiteSpace) {
  test::TempDir dir;
  test::write_file(dir.file("gold.json"), R"({
    "hard::a": {"file": "a.html", "with": ["keep  this", "and this"], "without": ["menu"]},
    "b": {"file": "b.html", "with": ["body text"], "without": ["footer", "related"]},
    "c": {"file": "c.html", "with": ["never seen"], "without": []}})");
  test::write_file(dir.file("pred.jsonl"),
                   "{\"id\": \"html/a.html.gz\", \"text\": \"keep\\nthis and\u00a0this menu\"}\n"
                   "{\"id\": \"b.html\", \"text\": \"body  text footer\"}\n");
  ASSERT_TRUE(is_snippet_gold(dir.file("gold.json")));
  Result<SnippetScore> s = evaluate_snippets(dir.file("gold.json"), dir.file("pred.jsonl"));
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  EXPECT_EQ(s->pages, 3u);
  EXPECT_EQ(s->missing, 1u);
  EXPECT_EQ(s->tp, 3u);  // keep this, and this, body text
  EXPECT_EQ(s->fn, 1u);  // never seen
  EXPECT_EQ(s->fp, 2u);  // menu, footer
  EXPECT_EQ(s->tn, 1u);  // related
  EXPECT_DOUBLE_EQ(s->precision, 3.0 / 5.0);
  EXPECT_DOUBLE_EQ(s->recall, 3.0 / 4.0);
  EXPECT_DOUBLE_EQ(s->f1, 2 * 0.6 * 0.75 / 1.35);
  // The article-extraction-benchmark layout is not a snippet set.
  test::write_file(dir.file("aeb.json"), R"({"x": {"articleBody": "text"}})");
  EXPECT_FALSE(is_snippet_gold(dir.file("aeb.json")));
}

// Spearman's rho against its textbook twin: ranks by counting (ties take
// the mean rank), then Pearson's correlation of the ranks, on random series
// with many ties.
double slow_spearman(const std::vector<double>& a, const std::vector<double>& b) {
  auto ranks = [](const std::vector<double>& v) {
    std::vector<double> r;
    for (double x : v) {
      double below = 0, equal = 0;
      for (double y : v) {
        below += y < x;
        equal += y == x;
      }
      r.push_back(below + (equal + 1) / 2);
    }
    return r;
  };
  std::vector<double> ra = ranks(a), rb = ranks(b);
  const double n = static_cast<double>(a.size());
  double ma = 0, mb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) ma += ra[i] / n, mb += rb[i] / n;
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ab += (ra[i] - ma) * (rb[i] - mb);
    aa += (ra[i] - ma) * (ra[i] - ma);
    bb += (rb[i] - mb) * (rb[i] - mb);
  }
  return ab / std::sqrt(aa * bb);
}

TEST(Eval, SpearmanAgreesWithItsSlowTwin) {
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {10, 20, 30, 45}), 1.0);
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
  EXPECT_TRUE(std::isnan(spearman({1, 1, 1}, {1, 2, 3})));
  EXPECT_TRUE(std::isnan(spearman({1}, {1})));
  std::mt19937 random(7);
  for (int round = 0; round < 200; ++round) {
    const std::size_t n = 2 + random() % 40;
    std::vector<double> a, b;
    for (std::size_t i = 0; i < n; ++i) {
      a.push_back(static_cast<double>(random() % 6));
      b.push_back(static_cast<double>(random() % 9) / 4.0);
    }
    const double fast = spearman(a, b), slow = slow_spearman(a, b);
    if (std::isnan(slow)) {
      EXPECT_TRUE(std::isnan(fast));
    } else {
      EXPECT_NEAR(fast, slow, 1e-12);
    }
  }
}


// clusters.html names the member a page was joined through by its nearest
// pair: for simhash the smallest Hamming distance, for minhash the largest
// similarity.
TEST(DedupReportPage, AMemberJoinedThroughOthersNamesItsNearestPair) {
  std::vector<DedupPage> pages(4);
  for (std::size_t i = 0; i < pages.size(); ++i) pages[i].id = std::string(1, static_cast<char>('a' + i));
  for (const auto& [measure, b_c, d_c] : {std::tuple<std::string, float, float>{"hamming", 2.0f, 5.0f},
                                           std::tuple<std::string, float, float>{"jaccard", 0.9f, 0.6f}}) {
    DedupReport r;
    r.method = measure == "hamming" ? "simhash" : "minhash";
    r.measure = measure;
    r.pages = pages.size();
    // a is the main page; c has no pair with it, and is near b and d.
    r.pairs = {{0, 1, measure == "hamming" ? 1.0f : 0.95f}, {0, 3, measure == "hamming" ? 3.0f : 0.7f}, {1, 2, b_c}, {2, 3, d_c}};
    Cluster c;
    c.main = 0;
    c.members = {0, 1, 2, 3};
    r.clusters = {c};
    test::TempDir dir;
    ASSERT_TRUE(write_dedup_report(dir.path(), r, pages, {}).ok());
    const std::string html = test::read_file(dir.file("clusters.html"));
    const std::size_t row = html.find("data-id=\"c\"");
    ASSERT_NE(row, std::string::npos);
    const std::string line = html.substr(row, html.find("</tr>", row) - row);
    EXPECT_NE(line.find("via b"), std::string::npos) << measure << ": " << line;
  }
}

// The snippet set's own score finds a snippet anywhere in the kept text
// (traf-snippets-dev's README): a snippet the page repeats, in a menu and
// in the article, is found when the article's copy is kept alone.
TEST(SnippetScore, ASnippetIsFoundWhereverOneWholeCopyOfItIsKept) {
  Blocks blocks = test::blocks_of(
      "<html><body><nav><a href='/x'>Harbour festival opens</a></nav>"
      "<p>The harbour festival opens on Friday with music on three stages.</p>"
      "<p>Tickets cost ten euros at the harbour office.</p></body></html>");
  auto block_with = [&](std::string_view words) {
    for (std::size_t b = 0; b < blocks.blocks.size(); ++b)
      if (blocks.blocks[b].text.find(words) != std::string::npos) return static_cast<uint32_t>(b);
    ADD_FAILURE() << words << " is in no block";
    return uint32_t{0};
  };
  const uint32_t menu = block_with("Harbour festival opens"), article = block_with("on Friday"),
                 tickets = block_with("Tickets");
  TextCoverage keep = text_coverage(blocks, {"harbour festival opens", "ten euros at the harbour office"});
  ASSERT_EQ(keep.places[0].size(), 2u);
  EXPECT_EQ(keep.places[0][0], std::vector<uint32_t>{menu});
  EXPECT_EQ(keep.places[0][1], std::vector<uint32_t>{article});
  EXPECT_EQ(keep.places[1], std::vector<std::vector<uint32_t>>{{tickets}});
  TrainingPage page;
  page.snippet_gold = true;
  for (std::size_t i = 0; i < keep.blocks.size(); ++i) page.snippets.push_back({true, keep.blocks[i], keep.places[i]});
  std::vector<uint8_t> kept(blocks.blocks.size(), 0);
  kept[article] = kept[tickets] = 1;
  CollectionScore both;
  both.add(page, kept);
  EXPECT_DOUBLE_EQ(both.f1(), 1.0);
  kept[article] = 0;
  kept[menu] = 1;
  CollectionScore menu_copy;
  menu_copy.add(page, kept);  // the menu's copy is the snippet too: a substring of the text
  EXPECT_DOUBLE_EQ(menu_copy.f1(), 1.0);
  kept[menu] = 0;
  CollectionScore one;
  one.add(page, kept);  // one of two found: recall 0.5, precision 1
  EXPECT_NEAR(one.f1(), 2.0 / 3.0, 1e-12);
}

// Cross-validation scores what extraction would keep: the blocks at the
// threshold less the comment section (Processor::finish), on every page but
// one typed as a forum, by the type extraction would give it (the
// classifier's), not its gold type.
TEST(CrossValidation, TakesTheCommentSectionOutAsExtractionDoes) {
  Blocks blocks = test::blocks_of(
      "<html><body><article><p>The harbour festival opens on Friday with music on three stages.</p></article>"
      "<div id='comments'><p>What a lovely festival, we go every year with the children.</p></div>"
      "</body></html>");
  ASSERT_EQ(blocks.blocks.size(), 2u);
  TrainingPage page;
  page.type = "article";
  page.comment_sections = comment_sections(blocks, comment_vocabulary(default_extract_config().families),
                                           default_extract_config().vocabulary.comment_headings);
  ASSERT_EQ(page.comment_sections.size(), 1u);
  const std::vector<double> words = {11, 11};
  EXPECT_EQ(kept_blocks(page, {0.9f, 0.8f}, 0.5, words, page.type == "forum", false).keep, (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(kept_blocks(page, {0.9f, 0.3f}, 0.5, words, page.type == "forum", false).keep, (std::vector<uint8_t>{1, 0}));
  // The quality score counts the section as no content, as Processor::finish
  // has it: an expected F1 of 2 * 9.9 / (11 + 9.9), not 2 * 9.9 / (11 +
  // 9.9 + 8.8), beside the expected precision 9.9 / 11.
  const KeptBlocks kept = kept_blocks(page, {0.9f, 0.8f}, 0.5, words, page.type == "forum", false);
  EXPECT_EQ(kept.ruled_out, (std::vector<uint8_t>{0, 1}));
  EXPECT_NEAR(text_quality({0.9f, 0.8f}, kept.keep, words, kept.ruled_out), 0.5 * 19.8 / 20.9 + 0.5 * 0.9, 1e-6);
  // Nearly all of the kept text: the section is the page itself.
  EXPECT_EQ(kept_blocks(page, {0.3f, 0.8f}, 0.5, words, page.type == "forum", false).keep, (std::vector<uint8_t>{0, 1}));
  page.type = "forum";
  EXPECT_EQ(kept_blocks(page, {0.9f, 0.8f}, 0.5, words, page.type == "forum", false).keep, (std::vector<uint8_t>{1, 1}));
  // A forum the classifier takes for an article loses its thread, as in
  // extraction, unless it gives the page kForumProbability of being one.
  EXPECT_EQ(kept_blocks(page, {0.9f, 0.8f}, 0.5, words, false, false).keep, (std::vector<uint8_t>{1, 0}));
  // Furniture leaves what the model keeps, as in extraction.
  page.type = "article";
  page.furniture = {0, 1};
  EXPECT_EQ(kept_blocks(page, {0.9f, 0.9f}, 0.5, words, false, false).keep, (std::vector<uint8_t>{1, 0}));
  page.furniture.clear();
  // So do link lines, on a page extraction is sure is an article (the
  // second block, out of the comment section here).
  page.comment_sections.clear();
  page.link_line = {0, 1};
  EXPECT_EQ(kept_blocks(page, {0.9f, 0.9f}, 0.5, words, false, true).keep, (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(kept_blocks(page, {0.9f, 0.9f}, 0.5, words, false, false).keep, (std::vector<uint8_t>{1, 1}));
  page.link_line.clear();
  // And a teaser list's leads, ruled out of the quality score as the
  // comment section is (the second block is one of three leads; the first
  // is the article's prose outside the list).
  page.teasers.prose = {1, 1};
  page.teasers.lists = {{{1, 2}, {1}}};
  const KeptBlocks teased = kept_blocks(page, {0.9f, 0.9f}, 0.5, words, false, true);
  EXPECT_EQ(teased.keep, (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(teased.ruled_out, (std::vector<uint8_t>{0, 1}));
  EXPECT_EQ(kept_blocks(page, {0.9f, 0.9f}, 0.5, words, false, false).keep, (std::vector<uint8_t>{1, 1}));
  page.teasers = {};
  EXPECT_TRUE(taken_for_forum("forum", 0.0f));
  EXPECT_TRUE(taken_for_forum("article", kForumProbability));
  EXPECT_FALSE(taken_for_forum("article", kForumProbability / 2));
  CrossValidation cv;
  cv.typed_as = {"article", "article", "forum"};
  cv.forum_probability = {0.05f, 0.3f, 0.1f};
  EXPECT_FALSE(cv.forum_of(0));
  EXPECT_TRUE(cv.forum_of(1));
  EXPECT_TRUE(cv.forum_of(2));
  EXPECT_FALSE(cv.forum_of(3));
  cv.article_probability = {0.95f, kSureArticleProbability / 2, 0.99f};
  EXPECT_TRUE(cv.article_of(0));
  EXPECT_FALSE(cv.article_of(1));
  EXPECT_FALSE(cv.article_of(2));  // typed as a forum
  EXPECT_FALSE(cv.article_of(3));
  // Typed as an article at all, sure or not (the page is never emptied).
  EXPECT_TRUE(cv.typed_article_of(0));
  EXPECT_TRUE(cv.typed_article_of(1));
  EXPECT_FALSE(cv.typed_article_of(2));
  EXPECT_FALSE(cv.typed_article_of(3));
}

// The best mean wins; means within 0.0002 of it go to the higher
// threshold, which keeps less.
TEST(CrossValidation, ChoosesTheBestThresholdAndTheHigherOfATie) {
  EXPECT_EQ(best_threshold({{0.40, 0.9247}, {0.45, 0.925578}, {0.50, 0.925567}, {0.55, 0.9244}}), 0.50);
  // The others' at seed 1 after one page's rows changed: 0.40 by 0.0001.
  EXPECT_EQ(best_threshold({{0.30, 0.9283}, {0.35, 0.9291}, {0.40, 0.9290}, {0.45, 0.9284}}), 0.40);
  EXPECT_EQ(best_threshold({{0.30, 0.927030}, {0.35, 0.926940}, {0.40, 0.926780}}), 0.35);
  EXPECT_EQ(best_threshold({{0.45, 0.9233}, {0.50, 0.9230}, {0.55, 0.9228}}), 0.45);
  EXPECT_EQ(best_threshold({{0.30, 0.90}, {0.55, 0.91}}), 0.55);
  EXPECT_EQ(best_threshold({{0.30, 0.91}, {0.55, 0.90}}), 0.30);
  EXPECT_EQ(best_threshold({}), 0.5);
}

// A page whose best block passes the threshold but is doubted holds its
// blocks to the threshold scaled by that block's probability over
// kSureProbability; a page with a block at kSureProbability or above, or
// with none at the threshold, to the threshold itself.
TEST(CrossValidation, HoldsADoubtedPageToItsBestBlock) {
  EXPECT_DOUBLE_EQ(page_threshold(0.5, 0.99), 0.5);
  EXPECT_DOUBLE_EQ(page_threshold(0.5, kSureProbability), 0.5);
  EXPECT_DOUBLE_EQ(page_threshold(0.5, 0.49), 0.5);
  EXPECT_DOUBLE_EQ(page_threshold(0.5, 0.735), 0.375);
  TrainingPage page;
  page.type = "listing";
  const std::vector<double> words = {5, 5, 5, 5};
  EXPECT_EQ(kept_blocks(page, {0.99f, 0.45f, 0.3f, 0.1f}, 0.5, words, page.type == "forum", false).keep,
            (std::vector<uint8_t>{1, 0, 0, 0}));
  EXPECT_EQ(kept_blocks(page, {0.735f, 0.45f, 0.38f, 0.3f}, 0.5, words, page.type == "forum", false).keep,
            (std::vector<uint8_t>{1, 1, 1, 0}));
  // No block at the threshold: the page keeps none.
  EXPECT_EQ(kept_blocks(page, {0.49f, 0.45f, 0.3f, 0.1f}, 0.5, words, page.type == "forum", false).keep,
            (std::vector<uint8_t>{0, 0, 0, 0}));
}

// An article is never emptied: a page typed as an article, sure or not,
// whose best block is under the threshold, but at kEmptiedArticleBest or
// more, holds its blocks to the threshold scaled by its best block, as a
// doubted page does; other pages, and an article whose every block the
// model rejects, keep none.
TEST(CrossValidation, KeepsTheBestBlocksOfAnArticleTheModelWouldEmpty) {
  EXPECT_DOUBLE_EQ(page_threshold(0.5, 0.49, true), 0.5 * 0.49 / kSureProbability);
  EXPECT_DOUBLE_EQ(page_threshold(0.5, 0.49, false), 0.5);
  EXPECT_DOUBLE_EQ(page_threshold(0.5, kEmptiedArticleBest / 2, true), 0.5);
  EXPECT_DOUBLE_EQ(page_threshold(0.5, 0.99, true), 0.5);
  EXPECT_DOUBLE_EQ(page_threshold(0.5, 0.735, true), page_threshold(0.5, 0.735, false));
  TrainingPage page;
  page.type = "article";
  const std::vector<double> words = {5, 5, 5, 5};
  EXPECT_EQ(kept_blocks(page, {0.1f, 0.392f, 0.3f, 0.15f}, 0.5, words, false, true).keep,
            (std::vector<uint8_t>{0, 1, 1, 0}));
  EXPECT_EQ(kept_blocks(page, {0.1f, 0.392f, 0.3f, 0.15f}, 0.5, words, false, false).keep,
            (std::vector<uint8_t>{0, 0, 0, 0}));
  EXPECT_EQ(kept_blocks(page, {0.1f, 0.19f, 0.15f, 0.15f}, 0.5, words, false, true).keep,
            (std::vector<uint8_t>{0, 0, 0, 0}));
  // Typed as an article without being sure of it: the same, while its link
  // lines and teasers stay (those rules ask for a sure article).
  EXPECT_EQ(kept_blocks(page, {0.1f, 0.392f, 0.3f, 0.15f}, 0.5, words, false, false, 0, true, true).keep,
            (std::vector<uint8_t>{0, 1, 1, 0}));
  EXPECT_EQ(kept_blocks(page, {0.1f, 0.19f, 0.15f, 0.15f}, 0.5, words, false, false, 0, true, true).keep,
            (std::vector<uint8_t>{0, 0, 0, 0}));
}

// A page the page-type classifier types as anything but an article is held
// to the model's threshold for those pages, in cross-validation (by the
// type a classifier trained on the other folds gives it) as in extraction
// (type_threshold); a page with no type, or past the types the
// cross-validation knows, to the model's threshold.
TEST(CrossValidation, HoldsPagesTypedOtherThanArticlesToTheirOwnThreshold) {
  EXPECT_DOUBLE_EQ(type_threshold("article", 0.5, 0.4), 0.5);
  EXPECT_DOUBLE_EQ(type_threshold("listing", 0.5, 0.4), 0.4);
  EXPECT_DOUBLE_EQ(type_threshold("", 0.5, 0.4), 0.5);
  CrossValidation cv;
  cv.threshold = 0.5;
  cv.other_threshold = 0.4;
  cv.typed_as = {"article", "product"};
  EXPECT_DOUBLE_EQ(cv.threshold_of(0), 0.5);
  EXPECT_DOUBLE_EQ(cv.threshold_of(1), 0.4);
  EXPECT_DOUBLE_EQ(cv.threshold_of(2), 0.5);
  TrainingPage page;
  page.type = "product";
  const std::vector<double> words = {5, 5, 5};
  const std::vector<float> probability = {0.99f, 0.45f, 0.3f};
  EXPECT_EQ(kept_blocks(page, probability, cv.threshold_of(0), words, cv.forum_of(0), cv.article_of(0)).keep,
            (std::vector<uint8_t>{1, 0, 0}));
  EXPECT_EQ(kept_blocks(page, probability, cv.threshold_of(1), words, cv.forum_of(1), cv.article_of(1)).keep,
            (std::vector<uint8_t>{1, 1, 0}));
}

}  // namespace
}  // namespace husk
