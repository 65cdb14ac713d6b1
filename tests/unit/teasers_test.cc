// Teaser lists (src/extract/teasers.h): the leads of the other stories a
// news page lists beside its article leave the text; an article's own
// paragraphs, with or without links between them, and a page that is only
// such a list stay.
#include "extract/teasers.h"

#include <string>
#include <vector>

#include "extract/features.h"
#include "extract/furniture.h"
#include "husk/extract.h"
#include "unit/test_util.h"

namespace husk {
namespace {

// The article, then a "Latest news" box of `teasers` items, each a headline
// link over its lead.
std::string news_page(int teasers, const std::string& item_extra = "") {
  std::string html =
      "<html><body><div class='story'><h1>Harbour festival opens</h1>"
      "<p>The harbour festival opens on Friday with music on three stages, the organisers said on Tuesday.</p>"
      "<p>About forty thousand visitors are expected over the weekend, twice as many as last year.</p>"
      "<p>The parade through the old town starts at noon on Sunday and ends at the harbour.</p></div>"
      "<div class='side'><h3>Latest</h3><ul>";
  const char* kLeads[] = {"The council approved the new budget for schools and roads on Monday evening.",
                          "Trains between the two cities run again after a week of repairs on the line.",
                          "The museum shows a collection of maps that were lost for over a century.",
                          "A storm is expected to reach the coast on Thursday, forecasters said."};
  for (int i = 0; i < teasers; ++i)
    html += "<li><a href='/news/" + std::to_string(i) + "'>Story number " + std::to_string(i) +
            " of the day</a><div>" + kLeads[i % 4] + "</div>" + item_extra + "</li>";
  return html + "</ul></div></body></html>";
}

std::vector<uint8_t> taken_out(const Blocks& blocks) {
  std::vector<uint8_t> keep(blocks.blocks.size(), 1);
  return take_out_teasers(teaser_lists(blocks), word_counts(blocks), keep);
}

TEST(Teasers, LeadsOfTheOtherStoriesLeaveTheArticle) {
  Blocks blocks = test::blocks_of(news_page(4));
  // h1, three paragraphs, the box's heading, four headlines and four leads.
  ASSERT_EQ(blocks.blocks.size(), 13u);
  const Teasers teasers = teaser_lists(blocks);
  ASSERT_EQ(teasers.lists.size(), 1u);
  EXPECT_EQ(teasers.lists[0].leads, (std::vector<uint32_t>{6, 8, 10, 12}));
  std::vector<uint8_t> keep(blocks.blocks.size(), 1);
  const std::vector<uint8_t> out = take_out_teasers(teasers, word_counts(blocks), keep);
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1}));
  for (uint32_t b : {6u, 8u, 10u, 12u}) EXPECT_FALSE(keep[b]) << blocks.blocks[b].text;
  for (uint32_t b : {1u, 2u, 3u}) EXPECT_TRUE(keep[b]) << blocks.blocks[b].text;
  // What a stage did not keep is not reported.
  keep.assign(blocks.blocks.size(), 1);
  keep[8] = 0;
  EXPECT_EQ(take_out_teasers(teasers, word_counts(blocks), keep)[8], 0);
}

TEST(Teasers, TwoAreNoList) {
  Blocks blocks = test::blocks_of(news_page(2));
  EXPECT_TRUE(teaser_lists(blocks).lists.empty());
}

// The opening of a page: a headline and a story of two paragraphs.
std::string short_article() {
  return "<html><body><div class='story'><h1>Harbour festival opens</h1>"
         "<p>The harbour festival opens on Friday with music on three stages, the organisers said on Tuesday.</p>"
         "<p>About forty thousand visitors are expected over the weekend, twice as many as last year.</p></div>";
}

// A teaser in one line: the headline link, then the opening of its story
// cut with an ellipsis in the same list item. Without the cut the items
// are a list of points with a link in each, and stay.
std::string one_line_teasers(const std::string& cut) {
  std::string html = short_article() + "<div class='breaking'><ul>";
  for (int i = 0; i < 4; ++i)
    html += "<li><a href='/news/" + std::to_string(i) + "'>Story number " + std::to_string(i) +
            " of the day</a> <span>NEW YORK: The council approved the new budget for schools and roads on "
            "Monday" + cut + "</span></li>";
  return html + "</ul></div></body></html>";
}

TEST(Teasers, OneLineTeasersCutWithAnEllipsisAreAList) {
  for (const std::string cut : {"...", "\u2026", " [\u2026]"}) {
    Blocks blocks = test::blocks_of(one_line_teasers(cut));
    // h1, two paragraphs, four items.
    ASSERT_EQ(blocks.blocks.size(), 7u) << cut;
    EXPECT_EQ(taken_out(blocks), (std::vector<uint8_t>{0, 0, 0, 1, 1, 1, 1})) << cut;
  }
  Blocks uncut = test::blocks_of(one_line_teasers("."));
  ASSERT_EQ(uncut.blocks.size(), 7u);
  EXPECT_TRUE(teaser_lists(uncut).lists.empty());
}

// A list of stories from other papers: each headline's line carries its
// source and time beside the link (half of its words), and the excerpt sits
// five levels under the item. A lead cut as an excerpt makes that line a
// headline and the item a teaser; the same lines over leads that end as
// sentences do are no list.
std::string aggregated_page(const std::string& cut) {
  std::string html = short_article() + "<h3>Most read</h3><ul>";
  const char* kLeads[] = {"The council approved the new budget for schools and roads on Monday evening",
                          "Trains between the two cities run again after a week of repairs on the line",
                          "The museum shows a collection of maps that were lost for over a century"};
  for (int i = 0; i < 3; ++i)
    html += "<li><div><div><a href='/n/" + std::to_string(i) + "'>Story number " + std::to_string(i) +
            " of the day</a> Daily Paper - " + std::to_string(i + 2) +
            " hours ago</div><div><div><div><div><p>" + kLeads[i] + cut + "</p></div></div></div></div></div></li>";
  return html + "</ul></body></html>";
}

TEST(Teasers, ExcerptsUnderTheirSourcesLineAreAList) {
  Blocks blocks = test::blocks_of(aggregated_page(" ..."));
  // h1, two paragraphs, the heading, three headline lines and three leads.
  ASSERT_EQ(blocks.blocks.size(), 10u);
  EXPECT_LT(blocks.blocks[4].features.link_density, kLinkLineDensity);
  EXPECT_FALSE(is_link_line(blocks.blocks[4])) << blocks.blocks[4].text;
  EXPECT_EQ(taken_out(blocks), (std::vector<uint8_t>{0, 0, 0, 0, 0, 1, 0, 1, 0, 1}));
  Blocks sentences = test::blocks_of(aggregated_page("."));
  ASSERT_EQ(sentences.blocks.size(), 10u);
  EXPECT_TRUE(teaser_lists(sentences).lists.empty());
}

// A headline with its time beside it ("10:15 Story") is still a headline
// when the time weighs more than a fifth of its words; <dt>/<dd> pairs, a
// news ticker's shape.
TEST(Teasers, ATickerOfTimedHeadlinesIsAList) {
  Blocks blocks = test::blocks_of(
      "<html><body><div><h1>Harbour festival opens</h1>"
      "<p>The harbour festival opens on Friday with music on three stages, the organisers said on Tuesday.</p>"
      "<p>About forty thousand visitors are expected over the weekend, twice as many as last year.</p></div>"
      "<p><a href='/a'>Home</a></p><p><a href='/b'>Letters</a></p><p><a href='/c'>Subscribe now</a></p>"
      "<dl><dt><span>10:17</span> <a href='/1'>Budget approved</a><dd>The council approved the new budget for "
      "schools and roads.</dd>"
      "<dt><span>10:15</span> <a href='/2'>Trains run again</a><dd>Trains between the two cities run again after "
      "a week of repairs.</dd>"
      "<dt><span>10:10</span> <a href='/3'>Maps found</a><dd>The museum shows a collection of maps that were "
      "lost for a century.</dd></dl></body></html>");
  const Teasers teasers = teaser_lists(blocks);
  ASSERT_EQ(teasers.lists.size(), 1u);
  ASSERT_EQ(teasers.lists[0].leads.size(), 3u);
  // The links before the first teaser do not widen its container past the
  // <dl>: the article beside it is not in it.
  const BlockRange c = teasers.lists[0].container;
  EXPECT_EQ(blocks.blocks[c.first].text.substr(0, 5), "10:17");
  const std::vector<uint8_t> out = taken_out(blocks);
  for (uint32_t b : teasers.lists[0].leads) EXPECT_TRUE(out[b]) << blocks.blocks[b].text;
  EXPECT_FALSE(out[1]);
  EXPECT_FALSE(out[2]);
}

// An article that puts a "Read also" link between its paragraphs keeps
// them: the paragraphs share their container with prose that heads no
// teaser (the first one).
TEST(Teasers, AnArticleWithLinksBetweenItsParagraphsKeepsThem) {
  Blocks blocks = test::blocks_of(
      "<html><body><div class='story'><h1>Harbour festival opens</h1>"
      "<p>The harbour festival opens on Friday with music on three stages, the organisers said on Tuesday.</p>"
      "<p><a href='/1'>Read also: last year's festival in pictures</a></p>"
      "<p>About forty thousand visitors are expected over the weekend, twice as many as last year.</p>"
      "<p><a href='/2'>Read also: where to park in the old town</a></p>"
      "<p>The parade through the old town starts at noon on Sunday and ends at the harbour.</p>"
      "<p><a href='/3'>Read also: the harbour's new pier opens</a></p>"
      "<p>Tickets for the evening concerts are sold at the town hall from Wednesday.</p>"
      "</div><div class='side'><h3>The weekend's forecast</h3><p>Weather: sunny spells and a light breeze from the sea all weekend.</p></div>"
      "</body></html>");
  ASSERT_EQ(teaser_lists(blocks).lists.size(), 1u);  // it has the shape
  const std::vector<uint8_t> out = taken_out(blocks);
  EXPECT_EQ(out, std::vector<uint8_t>(blocks.blocks.size(), 0));
}

// A box's label kept in the list's container (a sidebar that stacks a
// catalogue and the latest news reads as one list) is no paragraph of an
// article: the leads leave. A sentence of eight words or more there is
// one, and spares them.
TEST(Teasers, AShortLabelInTheListsContainerIsNoParagraph) {
  const std::string page = news_page(4);
  const std::size_t ul = page.find("<ul>") + 4;
  std::string labelled = page;
  labelled.insert(ul, "<li><div>Health on the web</div></li>");
  Blocks blocks = test::blocks_of(labelled);
  const Teasers teasers = teaser_lists(blocks);
  ASSERT_EQ(teasers.lists.size(), 1u);
  const uint32_t label = teasers.lists[0].container.first;
  ASSERT_EQ(blocks.blocks[label].text, "Health on the web");
  std::vector<uint8_t> out = taken_out(blocks);
  for (uint32_t b : teasers.lists[0].leads) EXPECT_TRUE(out[b]) << blocks.blocks[b].text;
  EXPECT_FALSE(out[label]);
  std::string sentence = page;
  sentence.insert(ul, "<li><div>The programme of the weekend is printed here in full for readers.</div></li>");
  blocks = test::blocks_of(sentence);
  ASSERT_EQ(teaser_lists(blocks).lists.size(), 1u);
  EXPECT_EQ(taken_out(blocks), std::vector<uint8_t>(blocks.blocks.size(), 0));
}

// A page that is nothing but such a list (a section's front page the
// classifier was sure was an article) keeps it: with no prose outside the
// list, the list is the page.
TEST(Teasers, APageThatIsOnlyTheListKeepsIt) {
  Blocks blocks = test::blocks_of(
      "<html><body><h1>Latest</h1><ul>"
      "<li><a href='/1'>Budget approved by the council</a><p>The council approved the new budget for schools "
      "and roads.</p></li>"
      "<li><a href='/2'>Trains run again</a><p>Trains between the two cities run again after a week of "
      "repairs.</p></li>"
      "<li><a href='/3'>Maps found in the archive</a><p>The museum shows a collection of maps that were lost "
      "for a century.</p></li></ul></body></html>");
  ASSERT_EQ(teaser_lists(blocks).lists.size(), 1u);
  EXPECT_EQ(taken_out(blocks), std::vector<uint8_t>(blocks.blocks.size(), 0));
}

// A third paragraph under a headline is an article's body, not a lead: the
// pair leaves the run, and the list ends before it.
TEST(Teasers, AThirdParagraphUnderAHeadlineEndsTheList) {
  Blocks blocks = test::blocks_of(news_page(
      3, "<p>A second sentence of the lead, as some sites give two.</p><p>And a third, which no teaser has.</p>"));
  EXPECT_TRUE(teaser_lists(blocks).lists.empty());
  blocks = test::blocks_of(news_page(3, "<p>A second sentence of the lead, as some sites give two.</p>"));
  const Teasers two = teaser_lists(blocks);
  ASSERT_EQ(two.lists.size(), 1u);
  EXPECT_EQ(two.lists[0].leads.size(), 6u);
}

// Two lists and nothing else kept: each is the other's only prose outside
// it, which is leads, not an article; both stay, whichever comes first.
TEST(Teasers, TwoListsAloneAreThePage) {
  Teasers teasers;
  teasers.prose = {1, 1, 1, 1, 1, 1};
  teasers.lists = {{{0, 3}, {0, 1, 2}}, {{3, 6}, {3, 4, 5}}};
  std::vector<uint8_t> keep(6, 1);
  EXPECT_EQ(take_out_teasers(teasers, std::vector<double>(6, 10.0), keep), std::vector<uint8_t>(6, 0));
  EXPECT_EQ(keep, std::vector<uint8_t>(6, 1));
}

// The running sums against their brute-force twin: every list judged by
// scanning every block, on made-up pages of nested and disjoint lists.
TEST(Teasers, RunningSumsAgreeWithAScanOfEveryBlock) {
  uint64_t state = 42;
  auto next = [&](uint32_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>((state >> 33) % bound);
  };
  for (int round = 0; round < 500; ++round) {
    const uint32_t n = 1 + next(40);
    Teasers teasers;
    std::vector<double> words(n);
    std::vector<uint8_t> keep(n);
    for (uint32_t i = 0; i < n; ++i) {
      teasers.prose.push_back(next(3) != 0);
      words[i] = 1 + next(30);
      keep[i] = next(4) != 0;
    }
    for (uint32_t l = next(4); l > 0; --l) {
      const uint32_t first = next(n), end = first + 1 + next(n - first);
      TeaserList list{{first, end}, {}};
      for (uint32_t b = first; b < end; ++b)
        if (next(2) != 0) list.leads.push_back(b);
      teasers.lists.push_back(list);
    }
    // The twin: the kept prose no list leads, out of each container, and
    // the paragraphs of it in the container.
    std::vector<uint8_t> lead(n, 0), expected_keep = keep, expected(n, 0);
    for (const TeaserList& list : teasers.lists)
      for (uint32_t b : list.leads) lead[b] = 1;
    for (const TeaserList& list : teasers.lists) {
      double paragraphs_inside = 0, outside = 0;
      for (uint32_t i = 0; i < n; ++i) {
        if (!keep[i] || !teasers.prose[i] || lead[i]) continue;
        if (i < list.container.first || i >= list.container.end)
          outside += words[i];
        else if (words[i] >= kProseMinWords)
          paragraphs_inside += words[i];
      }
      if (paragraphs_inside > 0 || outside <= 0) continue;
      for (uint32_t b : list.leads)
        if (expected_keep[b]) expected_keep[b] = 0, expected[b] = 1;
    }
    std::vector<uint8_t> got_keep = keep;
    EXPECT_EQ(take_out_teasers(teasers, words, got_keep), expected) << "round " << round;
    EXPECT_EQ(got_keep, expected_keep) << "round " << round;
  }
}

}  // namespace
}  // namespace husk
