#include <gumbo.h>

#include <chrono>
#include <filesystem>
#include <random>

#include "html/prescan.h"
#include "husk/ingest.h"
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
        // The HTML5 tokenizer's escaped script states: a script written
        // inside "<!-- -->" does not end the outer one.
        PrescanCase{.name = "script writing a script",
                    .html = "<p>a<script><!--\ndocument.write('<script src=x></script>');\n//--></script>b</p>",
                    .expect = "<p>ab</p>"},
        PrescanCase{.name = "escaped script ends at its end tag", .html = "<p>a<script><!-- x </script>b</p>", .expect = "<p>ab</p>"},
        PrescanCase{.name = "empty script comment escapes nothing", .html = "<p>a<script><!--><script></script>b</p>",
                    .expect = "<p>ab</p>"},
        PrescanCase{.name = "script end tag needs its name whole", .html = "<p>a<script>x</scripts>y</script >b</p>",
                    .expect = "<p>ab</p>"},
        PrescanCase{.name = "unterminated script", .html = "<p>a</p><script>var x = 1;", .expect = "<p>a</p>"},
        PrescanCase{.name = "doctype kept", .html = "<!DOCTYPE html><p>x", .expect = "<!DOCTYPE html><p>x"},
        // Raw-text elements that never close end where markup resumes.
        PrescanCase{.name = "unclosed title before a tag", .html = "<title>T<meta name=x><body><p>text</p>",
                    .expect = "<title>T</title><meta name=x><body><p>text</p>"},
        PrescanCase{.name = "unclosed title before an end tag", .html = "<TITLE>T</head><p>x</p>",
                    .expect = "<TITLE>T</title></head><p>x</p>"},
        PrescanCase{.name = "unclosed script ends at an end tag", .html = "<p>a<script>var x = 1;</p><p>b</p>",
                    .expect = "<p>a</p><p>b</p>"},
        PrescanCase{.name = "unclosed style ends at an end tag", .html = "<style>p{}<p>x</p>", .expect = "<p>x</p>"},
        PrescanCase{.name = "a later end tag closes the title", .html = "<title>a<title>b</title><p>c",
                    .expect = "<title>a<title>b</title><p>c"}),
    [](const ::testing::TestParamInfo<PrescanCase>& info) { return test::test_name(info.param.name); });

// The text of the first <script> Gumbo's HTML5 tokenizer finds in `html`.
std::string gumbo_script_text(const std::string& html) {
  GumboOutput* out = gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size());
  std::string text;
  std::vector<const GumboNode*> todo = {out->root};
  while (!todo.empty()) {
    const GumboNode* node = todo.back();
    todo.pop_back();
    if (node->type != GUMBO_NODE_ELEMENT) continue;
    if (node->v.element.tag == GUMBO_TAG_SCRIPT) {
      if (node->v.element.children.length > 0)
        text = static_cast<const GumboNode*>(node->v.element.children.data[0])->v.text.text;
      break;
    }
    for (unsigned k = node->v.element.children.length; k > 0; --k)
      todo.push_back(static_cast<const GumboNode*>(node->v.element.children.data[k - 1]));
  }
  gumbo_destroy_output(&kGumboDefaultOptions, out);
  return text;
}

// Differential: where the prescan ends a script, against Gumbo, on random
// script texts made of the pieces that move the HTML5 tokenizer between its
// script states. A closing "-->" leaves every escape, so the final end tag
// always ends the script for both. What follows the script is prescanned as
// if the page began there.
TEST(Prescan, ScriptsEndWhereGumboEndsThem) {
  const std::vector<std::string> pieces = {"<!--", "-->", "-", "--", ">", "<", "<script>", "</script>", "<SCRIPT ",
                                           "</script/", "<scripts>", "</scripty>", "<!-->", "x", " ", "!", "/"};
  std::mt19937 random(29);
  for (int round = 0; round < 4000; ++round) {
    std::string body;
    const int count = static_cast<int>(random() % 12);
    for (int k = 0; k < count; ++k) body += pieces[random() % pieces.size()];
    const std::string html = "<script>" + body + "--></script><p>end</p>";
    const std::size_t text_end = 8 + gumbo_script_text(html).size();
    ASSERT_EQ(html.compare(text_end, 8, "</script"), 0) << body;
    const std::string rest = html.substr(html.find('>', text_end) + 1);
    EXPECT_EQ(prescan(html, ParseOptions{}).html, prescan(rest, ParseOptions{}).html) << body;
  }
}

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

TEST(Prescan, AnUnclosedTitleIsReportedOnce) {
  std::string html;
  for (int i = 0; i < 3; ++i) html += "<title>t" + std::to_string(i) + "<p>x</p>";
  Prescanned p = prescan(html, ParseOptions{});
  ASSERT_EQ(p.warnings.size(), 2u);
  EXPECT_EQ(p.warnings[0], "<title> never closed; ended at byte 9");
  EXPECT_EQ(p.warnings[1], "2 more raw-text elements never closed");
}

// Many unclosed titles cost one scan for the missing end tag, not one each.
TEST(Prescan, ManyUnclosedTitlesStayLinear) {
  std::string html;
  for (int i = 0; i < 200000; ++i) html += "<title>t<b>x</b>";
  const auto start = std::chrono::steady_clock::now();
  Prescanned p = prescan(html, ParseOptions{});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_NE(p.html.find("<title>t</title><b>x</b>"), std::string::npos);
}

// A page whose </title> is missing extracts as the whole page does: every
// AEB page with its </title> deleted gives the same text and title.
TEST(Prescan, PagesWithoutTheirTitleEndTagExtractTheSame) {
  const std::string aeb = test::dataset("article-extraction-benchmark");
  if (aeb.empty()) GTEST_SKIP() << "no article-extraction-benchmark";
  const ProcessorOptions defaults;
  Result<Processor> processor = Processor::make(defaults);
  ASSERT_TRUE(processor.ok());
  std::size_t pages = 0, tested = 0;
  std::vector<RawPage> read;
  IngestStats stats = ingest({aeb + "/html"}, IngestOptions{}, [&](RawPage&& page) {
    read.push_back(std::move(page));
    return true;
  });
  ASSERT_TRUE(stats.input_errors.empty());
  for (RawPage& page : read) {
    ++pages;
    const std::size_t end = page.bytes.find("</title>");
    if (end == std::string::npos || page.bytes.find("</title>", end + 1) != std::string::npos) continue;
    PageResult whole = processor->process(page);
    page.bytes.erase(end, 8);
    PageResult cut = processor->process(page);
    ASSERT_TRUE(whole.status.ok() && cut.status.ok()) << page.id;
    EXPECT_EQ(cut.text, whole.text) << page.id;
    EXPECT_EQ(cut.metadata.title, whole.metadata.title) << page.id;
    ++tested;
  }
  EXPECT_GE(tested, pages * 8 / 10);  // 160 of the 181 pages have exactly one </title>
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
