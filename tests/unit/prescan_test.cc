#include "html/prescan.h"
#include "unit/test_util.h"

namespace husk {
namespace {

struct PrescanCase {
  const char* name;
  const char* html;
  const char* expect;
};
// Names the case in test listings instead of dumping its bytes.
void PrintTo(const PrescanCase& c, std::ostream* os) { *os << c.name; }

class PrescanTest : public ::testing::TestWithParam<PrescanCase> {};

TEST_P(PrescanTest, RemovesInvisibleMarkup) {
  EXPECT_EQ(prescan(GetParam().html, ParseOptions{}).html, GetParam().expect) << GetParam().name;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PrescanTest,
    ::testing::Values(
        PrescanCase{.name = "script", .html = "<p>a<script>if (x < 1) { y = '</p>'; }</script>b</p>", .expect = "<p>ab</p>"},
        PrescanCase{.name = "script case", .html = "<p>a<SCRIPT type=x>z</ScRiPt >b</p>", .expect = "<p>ab</p>"},
        PrescanCase{.name = "style", .html = "<style>p>b{}</style><p>x</p>", .expect = "<p>x</p>"},
        PrescanCase{.name = "comment", .html = "a<!-- <p>hidden</p> -->b", .expect = "ab"},
        PrescanCase{.name = "empty comment", .html = "a<!-->b", .expect = "ab"},
        PrescanCase{.name = "svg", .html = "<p>x<svg><text>no</text></svg>y</p>", .expect = "<p>xy</p>"},
        PrescanCase{.name = "noscript", .html = "<noscript><p>enable js</p></noscript><p>t</p>", .expect = "<p>t</p>"},
        PrescanCase{.name = "quoted gt", .html = "<a class=\"a>b\" href=x>t</a>", .expect = "<a class=\"a>b\" href=x>t</a>"},
        PrescanCase{.name = "title keeps markup-like text", .html = "<title><script>x</script></title>", .expect = "<title><script>x</script></title>"},
        PrescanCase{.name = "unterminated script", .html = "<p>a</p><script>var x = 1;", .expect = "<p>a</p>"},
        PrescanCase{.name = "doctype kept", .html = "<!DOCTYPE html><p>x", .expect = "<!DOCTYPE html><p>x"}),
    [](const ::testing::TestParamInfo<PrescanCase>& info) { return test::test_name(info.param.name); });

TEST(Prescan, DeepNestingIsFlattenedButTextKept) {
  std::string html;
  for (int i = 0; i < 2000; ++i) html += "<div>";
  html += "deep text";
  ParseOptions options;
  options.max_depth = 100;
  Prescanned p = prescan(html, options);
  EXPECT_NE(p.html.find("deep text"), std::string::npos);
  std::size_t divs = 0;
  for (std::size_t pos = 0; (pos = p.html.find("<div>", pos)) != std::string::npos; ++pos) ++divs;
  EXPECT_EQ(divs, 100u);
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find("1900 tags nested deeper than 100"), std::string::npos);
}

TEST(Prescan, UnclosedParagraphsDoNotCountAsDepth) {
  std::string html;
  for (int i = 0; i < 1000; ++i) html += "<p>para " + std::to_string(i);
  ParseOptions options;
  options.max_depth = 50;
  Prescanned p = prescan(html, options);
  EXPECT_TRUE(p.warnings.empty());
  EXPECT_EQ(p.html, html);
}

TEST(Prescan, MarkupIsCutAtTheByteLimitOnACharacterBoundary) {
  std::string html = "<p>" + std::string(100, 'a') + "жжжжжжжж</p>";
  ParseOptions options;
  options.max_markup_bytes = 104;  // inside the second byte of the first ж
  Prescanned p = prescan(html, options);
  EXPECT_EQ(p.html, "<p>" + std::string(100, 'a'));
  ASSERT_EQ(p.warnings.size(), 1u);
}

TEST(Prescan, TooManyElementsAreFlattened) {
  std::string html;
  for (int i = 0; i < 50; ++i) html += "<span>w" + std::to_string(i) + "</span>";
  ParseOptions options;
  options.max_elements = 10;
  Prescanned p = prescan(html, options);
  EXPECT_NE(p.html.find("w49"), std::string::npos);
  EXPECT_EQ(p.warnings.size(), 1u);
}

TEST(Prescan, KeepsOnlyTheAttributesHuskReads) {
  const std::string html =
      "<div class=\"a b\" data-x='{\"k\": 1}' onclick=go() id=main><img src=p.png srcset=\"p2.png 2x\" alt=\"A cat\"/>"
      "<a href='/x' target=_blank title=\"t > u\">x</a><a href=\"#notes\">n</a><link rel=canonical href=/c>"
      "<link rel=stylesheet href=/s.css><p>t</p></div>";
  // A link's URL becomes "on this page" or not; the canonical <link> stays,
  // the style sheet goes.
  EXPECT_EQ(prescan(html, ParseOptions{}).html,
            "<div class=\"a b\" id=main><img/><a href>x</a><a href=\"#\">n</a><link rel=canonical href=/c><p>t</p></div>");
  ParseOptions exact;
  exact.trim_markup = false;
  EXPECT_EQ(prescan(html, exact).html, html);
}

TEST(Prescan, FoldsWhiteSpaceOutsidePre) {
  const std::string html = "<p>a  \n\n   b</p>\n\n  <pre>x\n\n   y</pre>  <p>c\t\td</p>";
  EXPECT_EQ(prescan(html, ParseOptions{}).html, "<p>a b</p>\n<pre>x\n\n   y</pre> <p>c\td</p>");
}

TEST(Prescan, AnUnterminatedTagStaysAsWritten) {
  const std::string html = "<p>a</p><div data-x=1 class=c";
  EXPECT_EQ(prescan(html, ParseOptions{}).html, html);
}

// Trimming changes nothing that any stage reads: the same blocks, hints,
// links and flags with and without it.
TEST(Prescan, TrimmedMarkupSegmentsTheSame) {
  const std::string html =
      "<html lang=de><head><meta property=og:title content='Hello'><title>T</title></head><body>"
      "<nav role=navigation data-n=1><a href=/a data-t=x>A</a></nav><article itemprop=articleBody data-q=3 class=post>"
      "<p style='display:none' data-z=1>hidden</p><p>Text  with <a href='#s' onclick=x()>a link</a>.</p>"
      "<div hidden>no</div><div aria-hidden=true>no</div></article></body></html>";
  ParseOptions exact;
  exact.trim_markup = false;
  Blocks a = segment(*parse(html));
  Blocks b = segment(*parse(html, exact));
  ASSERT_EQ(a.blocks.size(), b.blocks.size());
  for (std::size_t i = 0; i < a.blocks.size(); ++i) {
    EXPECT_EQ(a.blocks[i].text, b.blocks[i].text);
    EXPECT_EQ(a.blocks[i].features.link_words, b.blocks[i].features.link_words);
    EXPECT_EQ(a.blocks[i].features.local_link_words, b.blocks[i].features.local_link_words);
  }
  ASSERT_EQ(a.elements.size(), b.elements.size());
  for (std::size_t e = 0; e < a.elements.size(); ++e) {
    EXPECT_EQ(a.elements[e].hints, b.elements[e].hints);
    EXPECT_EQ(a.elements[e].flags, b.elements[e].flags);
    EXPECT_EQ(a.elements[e].node, b.elements[e].node);
  }
  EXPECT_EQ(a.lang, "de");
  EXPECT_EQ(a.og_title, "Hello");
}

TEST(Parse, HundredThousandDeepNestingParsesQuickly) {
  std::string html;
  for (int i = 0; i < 100000; ++i) html += "<div><b>";
  html += "bottom";
  Result<Dom> dom = parse(html);
  ASSERT_TRUE(dom.ok());
  Blocks blocks = segment(*dom);
  ASSERT_EQ(blocks.blocks.size(), 1u);
  EXPECT_EQ(blocks.blocks[0].text, "bottom");
  EXPECT_FALSE(dom->warnings().empty());
}

}  // namespace
}  // namespace husk
