// An article stays an article (extract/page_type.h, settle_type): a page
// the classifier types as a listing or a collection but whose shape is an
// article's (FeatureExtractor::article_shape: a headline the title names,
// a story's prose under it) is decided as an article; a listing of
// stories, each headed as the first or by a link, is not. A service page
// is decided as an article only by a story dated beside its headline.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "extract/comments.h"
#include "extract/features.h"
#include "extract/furniture.h"
#include "extract/page_type.h"
#include "extract/registry.h"
#include "extract/teasers.h"
#include "husk/extract.h"
#include "unit/test_util.h"

namespace husk {
namespace {

const char* const kStoryParagraphs[] = {
    "The harbour festival opens on Friday with music on three stages, the organisers said on Tuesday.",
    "About forty thousand visitors are expected over the weekend, twice as many as came last year.",
    "The parade through the old town starts at noon on Sunday and ends at the harbour after two hours.",
    "Trains will run every ten minutes from the main station, and the roads around the harbour will be closed.",
    "The mayor said the town had waited for a festival of this size since the harbour was rebuilt."};

// A news page: the story under its headline, a box of links beside it.
std::string story_page(int paragraphs) {
  std::string html =
      "<html><head><title>Harbour festival opens | City News</title></head><body>"
      "<ul class='menu'><li><a href='/'>Home</a></li><li><a href='/sport'>Sport</a></li></ul>"
      "<h1>Harbour festival opens</h1><p>By A. Reporter</p>";
  for (int i = 0; i < paragraphs; ++i) html += std::string("<p>") + kStoryParagraphs[i % 5] + "</p>";
  return html + "<h3>Latest</h3><ul><li><a href='/a'>Budget approved</a></li><li><a href='/b'>Trains run again</a></li>"
                "</ul></body></html>";
}

// A listing: its heading, then each story's headline (at `item_tag`, a
// heading or a line, linked or not) over its lead.
std::string listing_page(const std::string& item_tag, bool linked) {
  std::string html =
      "<html><head><title>The latest news of the city | City News</title></head><body>"
      "<h1>The latest news of the city</h1>";
  for (int i = 0; i < 8; ++i) {
    const std::string headline = "Story number " + std::to_string(i) + " of the day";
    html += "<" + item_tag + ">" + (linked ? "<a href='/news/" + std::to_string(i) + "'>" + headline + "</a>" : headline) +
            "</" + item_tag + "><p>" + kStoryParagraphs[i % 5] + "</p>";
  }
  return html + "</body></html>";
}

ArticleShape shape_of(const std::string& html) {
  const ExtractConfig& config = default_extract_config();
  FeatureExtractor features(config);
  std::unique_ptr<Extractor> density = make_density_extractor(config);
  Blocks blocks = test::blocks_of(html);
  return features.article_shape(compute_page_features(features, *density, PageView{blocks, nullptr, "", "p"}).rows,
                                aside_prose(teaser_leads(teaser_lists(blocks), blocks.blocks.size()),
                                            furniture_classes(blocks, FurnitureLines(config.furniture))),
                                datelines(blocks), title_headlines(blocks), sentence_ends(blocks));
}

bool page_reads_as_article(const std::string& html) { return shape_of(html) != ArticleShape::kNone; }

TEST(PageShape, AStoryUnderItsHeadlineReadsAsAnArticle) {
  // Eight paragraphs of 16-20 words, or four: a short news item's length.
  EXPECT_TRUE(page_reads_as_article(story_page(8)));
  EXPECT_TRUE(page_reads_as_article(story_page(4)));
  // Two are a teaser's length, not a story's.
  EXPECT_FALSE(page_reads_as_article(story_page(2)));
}

TEST(PageShape, AListingOfStoriesDoesNot) {
  // Each story headed as the first heading of the page was ...
  EXPECT_FALSE(page_reads_as_article(listing_page("h1", false)));
  // ... or a level below it, by a link to the story's own page.
  EXPECT_FALSE(page_reads_as_article(listing_page("h2", true)));
  // A level below and no link: the sections of one article.
  EXPECT_TRUE(page_reads_as_article(listing_page("h2", false)));
  // Each headline a linked line over its lead: a teaser list, other
  // stories' prose, however long.
  EXPECT_FALSE(page_reads_as_article(listing_page("div", true)));
}

TEST(PageShape, AHeadlineSetAsALineOfItsOwn) {
  // No heading element: the headline in a styled line, as pages of 2011-12
  // set it, the story under it.
  std::string html = story_page(8);
  html.replace(html.find("<h1>"), 4, "<div class='title'>");
  html.replace(html.find("</h1>"), 5, "</div>");
  EXPECT_TRUE(page_reads_as_article(html));
  // A line that is not the title heads no story.
  html.replace(html.find("Harbour festival opens</div>"), 22, "Weather and traffic today");
  EXPECT_FALSE(page_reads_as_article(html));
}

TEST(PageShape, TheTitleNamesItsHeadlineAcrossASeparatorWithoutSpaces) {
  // Chinese portals join the headline to the site's name with no space
  // around the separator: "Headline-Site", "Headline_Section_Site".
  for (const std::string title : {"Harbour festival opens-CityNews", "Harbour festival opens_Events_CityNews",
                                  "\u6e2f\u53e3\u8282\u5f00\u5e55-\u57ce\u5e02\u65b0\u95fb"}) {
    std::string html = story_page(8);
    html.replace(html.find("Harbour festival opens | City News"), 34, title);
    html.replace(html.find("<h1>"), 4, "<div class='title'>");
    html.replace(html.find("</h1>"), 5, "</div>");
    const std::string headline = title.substr(0, title.find_first_of("-_"));
    html.replace(html.find("Harbour festival opens</div>"), 22, headline);
    Blocks blocks = test::blocks_of(html);
    std::vector<uint8_t> titled = title_headlines(blocks);
    ASSERT_EQ(titled.size(), blocks.blocks.size());
    for (std::size_t b = 0; b < blocks.blocks.size(); ++b)
      EXPECT_EQ(titled[b] != 0, blocks.blocks[b].text == headline) << title << ": " << blocks.blocks[b].text;
    EXPECT_TRUE(page_reads_as_article(html)) << title;
  }
  // A line the title does not name heads no story.
  std::string html = story_page(8);
  html.replace(html.find("Harbour festival opens | City News"), 34, "Harbour festival opens-CityNews");
  html.replace(html.find("<h1>"), 4, "<div class='title'>");
  html.replace(html.find("</h1>"), 5, "</div>");
  html.replace(html.find("Harbour festival opens</div>"), 22, "Weather and traffic today");
  EXPECT_FALSE(page_reads_as_article(html));
}

TEST(PageShape, AHeadlineWithASeparatorOfItsOwnIsTheTitles) {
  // The title splits the headline's own "1900万-2900万" where it joins the
  // site's name; the headline's word is the title's, piece by piece.
  const std::string headline = "\u7eff\u666f\u63a7\u80a1 \u51c0\u52291900\u4e07-2900\u4e07";
  std::string html = story_page(8);
  html.replace(html.find("Harbour festival opens | City News"), 34, headline + "-\u8d22\u7ecf-\u5343\u534e\u7f51");
  html.replace(html.find("<h1>Harbour festival opens</h1>"), 31, "<div class='title'>" + headline + "</div>");
  const Blocks blocks = test::blocks_of(html);
  const std::vector<uint8_t> titled = title_headlines(blocks);
  ASSERT_EQ(titled.size(), blocks.blocks.size());
  for (std::size_t b = 0; b < blocks.blocks.size(); ++b)
    EXPECT_EQ(titled[b] != 0, blocks.blocks[b].text == headline) << blocks.blocks[b].text;
  // A word with a piece the title lacks is not the title's.
  html.replace(html.find(headline + "</div>"), headline.size(),
               "\u7eff\u666f\u63a7\u80a1 \u51c0\u52291900\u4e07-3900\u4e07");
  const std::vector<uint8_t> other = title_headlines(test::blocks_of(html));
  EXPECT_EQ(std::count(other.begin(), other.end(), 1), 0);
}

TEST(PageShape, ASentenceEndsPastClosingQuotesAndACredit) {
  for (const char* text : {"The mayor spoke.", "The mayor said: \"It opens on Friday.\"", "\u5f00\u5e55\u3002\u300d",
                           "The harbour reopened on Monday. (Reuters)", "\u7f8e\u56fd\u56fd\u503a\u3002\uff08\u9ad8\u5065\uff09",
                           "\u8d70\u52bf\u3002\uff08\uff45\uff57\uff09", "It opens (on Friday)."})
    EXPECT_TRUE(ends_sentence(text)) << text;
  for (const char* text : {"Weather and traffic today", "Trains run again (Reuters)", "(Reuters)", "",
                           "It opened. (a bracket holding far more than a credit)", "Stages: music, dance (",
                           "It opened. (Reuters"})
    EXPECT_FALSE(ends_sentence(text)) << text;
  // A story whose paragraphs close a quotation, or end with the agency's
  // name, is a story.
  for (const char* ending : {".\"", ". (AP)"}) {
    std::string html = story_page(4);
    for (std::size_t at = html.find(".</p>"); at != std::string::npos; at = html.find(".</p>", at))
      html.replace(at, 1, ending);
    EXPECT_EQ(shape_of(html), ArticleShape::kStory) << ending;
  }
}

TEST(PageShape, ALinkedLabelInsideTheStoryDoesNotEndIt) {
  // A related-links box set inside the story under a linked one-word
  // heading (its rubric), or a byline set as a linked heading: the story
  // goes on under it. A linked headline of another story ends it.
  for (const char* box : {"<h3><a href='/crime'>Crime</a></h3><ul><li><a href='/a'>Budget approved today</a></li></ul>",
                          "<h5><a href='/news'>City News</a></h5>"}) {
    std::string html = story_page(4);
    html.insert(html.find("<p>About forty"), box);
    EXPECT_EQ(shape_of(html), ArticleShape::kStory) << box;
  }
  std::string html = story_page(4);
  html.insert(html.find("<p>About forty"), "<h3><a href='/b'>Trains run again tomorrow</a></h3>");
  EXPECT_EQ(shape_of(html), ArticleShape::kNone);
}

TEST(PageShape, TheSitesLinkedNameAboveTheHeadlineIsNotTheHeadline) {
  // A logo set as the first heading, linked to the home page: the title
  // names it after the headline ("Headline | City News"), and the story's
  // own heading, at the same level, follows.
  std::string html = story_page(8);
  html.replace(html.find("City News</title>"), 9, "The City News");
  html.replace(html.find("<ul class='menu'>"), 0, "<h1><a href='/'>The City News</a></h1>");
  EXPECT_EQ(title_headlines(test::blocks_of(html)).front(), 1);  // the title names it
  EXPECT_TRUE(page_reads_as_article(html));
  // A headline linked to its own page, the only one, is the headline.
  std::string linked = story_page(8);
  linked.replace(linked.find("<h1>Harbour festival opens</h1>"), 31,
                 "<h1><a href='/festival'>Harbour festival opens</a></h1>");
  EXPECT_TRUE(page_reads_as_article(linked));
}

// A section's name the title repeats ("Headline - Section - Site") may
// head the page just above the story's headline; the longer titled line
// below it is the headline, and the story under it makes the shape.
TEST(PageShape, ASectionsNameAboveTheHeadlineIsNotTheHeadline) {
  std::string html = story_page(8);
  html.replace(html.find("Harbour festival opens | City News"), 34,
               "Harbour festival opens on Friday with music - Events in the city - City News");
  html.replace(html.find("<h1>Harbour festival opens</h1>"), 31,
               "<h1>Events in the city</h1><h1>Harbour festival opens on Friday with music</h1>");
  const std::vector<uint8_t> titled = title_headlines(test::blocks_of(html));
  EXPECT_EQ(std::count(titled.begin(), titled.end(), 1), 2);  // both name the title
  EXPECT_TRUE(page_reads_as_article(html));
}

TEST(PageShape, ASitesLegalNoticeIsNotThePagesProse) {
  // A news site's legal notice under every story: ownership, registration,
  // terms of reprinting, longer than a short story. It is furniture
  // (the copyright sign), not prose the story must outweigh.
  std::string notice =
      "<h2><a href='/'>City News Agency</a></h2>"
      "<p class='bot'>Owner of the project: \u00a9 News Agency L.P., registered as a mass medium.";
  for (int i = 0; i < 12; ++i)
    notice += " Quoting the materials of the site is allowed with a direct link to the page they were taken from.";
  notice += "</p>";
  std::string html = story_page(4);
  html.insert(html.find("</body>"), notice);
  EXPECT_TRUE(page_reads_as_article(html));
  // Without the sign it is prose like any other, and the most of the page's.
  const std::size_t sign = html.find("\u00a9");
  html.erase(sign, std::string("\u00a9").size());
  EXPECT_FALSE(page_reads_as_article(html));
}

TEST(PageShape, AStoryDatedBesideItsHeadlineIsNewsHoweverShort) {
  // The byline undated: a story, not a dated one.
  EXPECT_EQ(shape_of(story_page(8)), ArticleShape::kStory);
  // A date beside the headline, in numbers (any language writes them so),
  // by a year or a date and time at the line's edge.
  for (const char* dateline : {"Published 28 November 11 (14:41)", "06.01.12 08:49", "Friday, 5 January 2012",
                               "Δημοσίευση: 05/01/2012"}) {
    std::string html = story_page(8);
    html.replace(html.find("<p>By A. Reporter</p>"), 21, std::string("<p>") + dateline + "</p>");
    EXPECT_EQ(shape_of(html), ArticleShape::kDatedStory) << dateline;
    // Two sentences (33 words): an agency item, dated, is a story; undated
    // it is a teaser's length.
    html = story_page(2);
    html.replace(html.find("<p>By A. Reporter</p>"), 21, std::string("<p>") + dateline + "</p>");
    EXPECT_EQ(shape_of(html), ArticleShape::kDatedStory) << dateline;
  }
  EXPECT_EQ(shape_of(story_page(2)), ArticleShape::kNone);
  // One sentence under a dated headline is under a story's length.
  std::string one = story_page(1);
  one.replace(one.find("<p>By A. Reporter</p>"), 21, "<p>06.01.12 08:49</p>");
  EXPECT_EQ(shape_of(one), ArticleShape::kNone);
  // A date far from the headline (a footer's copyright) dates nothing.
  std::string footer = story_page(8);
  footer.replace(footer.find("</body>"), 7, "<p>Copyright 2012 City News</p></body>");
  EXPECT_EQ(shape_of(footer), ArticleShape::kStory);
  // A linked date is a teaser's, not the story's; a long line holding a
  // year is prose.
  std::string linked = story_page(8);
  linked.replace(linked.find("<p>By A. Reporter</p>"), 21, "<p><a href='/2012/01'>January 2012</a></p>");
  EXPECT_EQ(shape_of(linked), ArticleShape::kStory);
}

// A page the classifier types `name`, giving it `article` of being an
// article.
PageType typed(const char* name, float article) {
  PageType type;
  type.name = name;
  type.probability = 0.8f;
  type.article = article;
  return type;
}

TEST(PageShape, ListingsAndCollectionsWithAnArticlesShapeAreArticles) {
  for (const char* name : {"listing", "collection"}) {
    for (ArticleShape shape : {ArticleShape::kStory, ArticleShape::kDatedStory}) {
      const PageType settled = settle_type(typed(name, 0.2f), shape);
      EXPECT_EQ(settled.name, kArticleType) << name;
      // Sure enough for the article's rules (teasers, link lines).
      EXPECT_TRUE(sure_article(settled.name, settled.article)) << name;
      // What the classifier said stays, for husk explain.
      EXPECT_EQ(settled.classified_as, name);
      EXPECT_FLOAT_EQ(settled.classified_article, 0.2f);
    }
    const PageType stood = settle_type(typed(name, 0.2f), ArticleShape::kNone);
    EXPECT_EQ(stood.name, name);
    EXPECT_EQ(stood.classified_as, "");
  }
  // A listing's shape decides even when the classifier all but rules an
  // article out; a collection's (a range's description over its products)
  // does not.
  EXPECT_EQ(settle_type(typed("listing", 0.05f), ArticleShape::kStory).name, kArticleType);
  EXPECT_EQ(settle_type(typed("collection", 0.05f), ArticleShape::kDatedStory).name, "collection");
  // An article the classifier doubts is made sure by the same shape, and
  // stays as doubted without it.
  EXPECT_TRUE(sure_article(kArticleType, settle_type(typed("article", 0.6f), ArticleShape::kStory).article));
  EXPECT_FALSE(sure_article(kArticleType, settle_type(typed("article", 0.6f), ArticleShape::kNone).article));
  // A service page is an article when its story is dated beside the
  // headline, whatever the classifier's doubt; a landing page's undated
  // pitch under its headline keeps the type.
  EXPECT_EQ(settle_type(typed("service", 0.01f), ArticleShape::kDatedStory).name, kArticleType);
  EXPECT_EQ(settle_type(typed("service", 0.4f), ArticleShape::kStory).name, "service");
  // A product's description or a thread's first post under its headline
  // has the same shape; those types stand.
  for (const char* name : {"product", "forum", "documentation"})
    for (ArticleShape shape : {ArticleShape::kStory, ArticleShape::kDatedStory})
      EXPECT_EQ(settle_type(typed(name, 0.2f), shape).name, name) << name;
}

// A story over its readers' thread (settle_commented): a page taken for a
// forum, by its type or by the classifier's forum probability, whose shape
// with the comment sections set aside is a story is an article, sure of
// it and no longer taken for a forum; one the classifier all but rules out
// as an article, or without a story's shape, stays.
TEST(PageShape, AStoryOverItsReadersThreadIsAnArticle) {
  const PageType settled = settle_commented(typed("forum", 0.4f), ArticleShape::kStory);
  EXPECT_EQ(settled.name, kArticleType);
  EXPECT_TRUE(sure_article(settled.name, settled.article));
  EXPECT_FALSE(taken_for_forum(settled.name, settled.forum));
  EXPECT_EQ(settled.classified_as, "forum");
  EXPECT_TRUE(settled.comments_aside);  // husk explain says how the shape was read
  EXPECT_FALSE(settle_type(typed("listing", 0.2f), ArticleShape::kStory).comments_aside);
  PageType doubted = typed("article", 0.95f);
  doubted.forum = 0.3f;
  EXPECT_FALSE(taken_for_forum(settle_commented(doubted, ArticleShape::kDatedStory).name,
                               settle_commented(doubted, ArticleShape::kDatedStory).forum));
  EXPECT_EQ(settle_commented(typed("forum", 0.05f), ArticleShape::kStory).name, "forum");
  EXPECT_EQ(settle_commented(typed("forum", 0.4f), ArticleShape::kNone).name, "forum");
  // Other types are not the comment rule's to settle.
  EXPECT_EQ(settle_commented(typed("listing", 0.4f), ArticleShape::kStory).name, "listing");
}

// The comment blocks set aside are a blog's thread, not a forum's posts:
// none where the microdata types the posts, or where the first post is set
// in the replies' template.
TEST(PageShape, AForumsRepliesAreNoCommentSection) {
  const ExtractConfig& config = default_extract_config();
  auto commented = [&](const std::string& html) {
    Blocks blocks = test::blocks_of(html);
    const std::vector<uint8_t> in = comment_blocks(
        blocks, comment_sections(blocks, comment_vocabulary(config.families), config.vocabulary.comment_headings),
        word_counts(blocks));
    return static_cast<std::size_t>(std::count(in.begin(), in.end(), 1));
  };
  auto page = [](const std::string& story_class, const std::string& reply_attributes) {
    std::string html = "<html><body><h1>Harbour festival opens</h1><div class=\"" + story_class + "\"><p>" +
                       kStoryParagraphs[0] + "</p></div><ol class=\"comments\">";
    for (int i = 1; i < 4; ++i)
      html += "<li " + reply_attributes + "><div class=\"message\"><p>" + kStoryParagraphs[i] + "</p></div></li>";
    return html + "</ol></body></html>";
  };
  EXPECT_GT(commented(page("entry-content", "class=\"comment\"")), 0u);
  EXPECT_EQ(commented(page("entry-content", "itemscope itemtype=\"https://schema.org/Comment\"")), 0u);
  EXPECT_EQ(commented(page("message", "class=\"comment\"")), 0u);
}

}  // namespace
}  // namespace husk
