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
        PrescanCase{.name = "quoted gt", .html = "<a title=\"a>b\" href=x>t</a>", .expect = "<a title=\"a>b\" href=x>t</a>"},
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
