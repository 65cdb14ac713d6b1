#include "unit/test_util.h"

namespace husk {
namespace {

using test::blocks_of;

std::vector<std::string> texts(const Blocks& b) {
  std::vector<std::string> out;
  for (const Block& block : b.blocks) out.push_back(block.text);
  return out;
}

TEST(Segment, BlocksSplitAtBlockElementsAndCollapseWhiteSpace) {
  Blocks b = blocks_of(R"(<body><div>intro <b>bold</b>
      text<p>first   paragraph</p>tail</div><ul><li>one<li>two</ul></body>)");
  EXPECT_EQ(texts(b), (std::vector<std::string>{"intro bold text", "first paragraph", "tail", "one", "two"}));
  EXPECT_EQ(b.blocks[3].features.flags & kBlockListItem, kBlockListItem);
}

TEST(Segment, InvisibleContentIsSkipped) {
  Blocks b = blocks_of(R"(<body><p>seen</p><p hidden>h1</p>
      <div style="color:red; display : none">h3</div><span style="visibility:hidden">h4</span>
      <template><p>h5</p></template><select><option>h6</option></select><button>h7</button>
      <iframe>h8</iframe><p>also seen</p></body>)");
  EXPECT_EQ(texts(b), (std::vector<std::string>{"seen", "also seen"}));
}

// Soft hyphens only say where a word may break; ruby annotations (the
// reading of a word in small type above it) are not part of the sentence.
TEST(Segment, SoftHyphensAndRubyAnnotationsLeaveTheText) {
  Blocks b = blocks_of("<body><p>Donau\u00ADdampf\u00ADschiff fährt</p>"
                       "<p><ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp>字<rt>じ</rt></ruby>を読む</p></body>");
  EXPECT_EQ(texts(b), (std::vector<std::string>{"Donaudampfschiff fährt", "漢字を読む"}));
}

// MathML reads as its tokens' text, its TeX annotation left out; a formula
// with no tokens reads as its alttext.
TEST(Segment, MathMlReadsAsItsText) {
  Blocks b = blocks_of(R"(<body><p>where <math><semantics><mrow><mi>x</mi><mo>=</mo>
      <msup><mi>y</mi><mn>2</mn></msup></mrow><annotation encoding="application/x-tex">x=y^2</annotation>
      </semantics></math> holds</p><p>and <math alttext="a+b"></math> too</p></body>)");
  EXPECT_EQ(texts(b), (std::vector<std::string>{"where x=y2 holds", "and a+b too"}));
}

// aria-hidden is drawn: a modal dialog sets it on the page behind it.
TEST(Segment, AriaHiddenIsDrawnAndFlagged) {
  Blocks b = blocks_of(R"(<body><div role="dialog">Accept cookies?</div>
      <main aria-hidden="true"><p>the page behind the dialog</p></main></body>)");
  ASSERT_EQ(texts(b), (std::vector<std::string>{"Accept cookies?", "the page behind the dialog"}));
  const Element& main = b.elements[b.elements[b.blocks[1].element].parent];
  EXPECT_EQ(main.tag, Tag::kMain);
  EXPECT_TRUE(main.flags & kElemAriaHidden);
  EXPECT_FALSE(b.elements[b.blocks[0].element].flags & kElemAriaHidden);
}

TEST(Segment, LinkWordsAndDensities) {
  Blocks b = blocks_of(R"(<p>one two three <a href="/x">four five</a> six</p><p><a href="/y">all link</a></p>
      <p><a name="anchor">not a link</a></p>)");
  ASSERT_EQ(b.blocks.size(), 3u);
  EXPECT_EQ(b.blocks[0].features.words, 6u);
  EXPECT_EQ(b.blocks[0].features.link_words, 2u);
  EXPECT_FLOAT_EQ(b.blocks[0].features.link_density, 2.0f / 6.0f);
  EXPECT_FLOAT_EQ(b.blocks[1].features.link_density, 1.0f);
  EXPECT_EQ(b.blocks[2].features.link_words, 0u);
}

TEST(Segment, LinksIntoThePageAreCountedApart) {
  Blocks b = blocks_of(R"(<ul><li><a href="#intro">Intro part</a></li><li><a href="/other#x">Other page</a></li>
      <li>see <a href="#end"><b>the end</b></a></li></ul>)");
  ASSERT_EQ(b.blocks.size(), 3u);
  EXPECT_EQ(b.blocks[0].features.local_link_words, 2u);
  EXPECT_EQ(b.blocks[0].features.link_words, 2u);
  EXPECT_EQ(b.blocks[1].features.local_link_words, 0u);
  EXPECT_EQ(b.blocks[1].features.link_words, 2u);
  EXPECT_EQ(b.blocks[2].features.local_link_words, 2u);  // nested markup inside the link still counts
  EXPECT_EQ(b.blocks[2].features.words, 3u);
}

TEST(Segment, TextDensityFollowsBoilerpipeWrapping) {
  // 30 words of 9 letters plus a space = 300 characters: 3 full 80-column
  // lines of 8 words and a last line of 6, which boilerpipe leaves out.
  std::string words;
  for (int i = 0; i < 30; ++i) words += "abcdefghi ";
  Blocks b = blocks_of("<p>" + words + "</p>");
  ASSERT_EQ(b.blocks.size(), 1u);
  EXPECT_EQ(b.blocks[0].features.wrapped_lines, 3u);
  EXPECT_FLOAT_EQ(b.blocks[0].features.text_density, 8.0f);
  Blocks short_block = blocks_of("<p>three short words</p>");
  EXPECT_FLOAT_EQ(short_block.blocks[0].features.text_density, 3.0f);
}

TEST(Segment, CjkCharactersCountAsHalfWords) {
  Blocks b = blocks_of("<p>中华人民共和国成立</p>");
  EXPECT_EQ(b.blocks[0].features.words, 1u + 9u / 2u);
}

TEST(Segment, DoubleBreakSplitsSingleBreakDoesNot) {
  Blocks b = blocks_of("<div>line one<br>line two<br><br>next para</div>");
  EXPECT_EQ(texts(b), (std::vector<std::string>{"line one line two", "next para"}));
}

TEST(Segment, HeadingsAndElementRanges) {
  Blocks b = blocks_of(R"(<body><article class="story main"><h2>Sub head</h2><p>x</p></article><p>out</p></body>)");
  ASSERT_EQ(b.blocks.size(), 3u);
  EXPECT_EQ(b.blocks[0].features.heading, 2);
  const Element& article = b.elements[b.elements[b.blocks[1].element].parent];
  EXPECT_EQ(tag_name(article.tag), "article");
  EXPECT_EQ(article.hints, "story main");
  EXPECT_EQ(article.first_block, 0u);
  EXPECT_EQ(article.end_block, 2u);
  EXPECT_EQ(tag_path(b, b.blocks[1].element), "body>article.story>p");
}


}  // namespace
}  // namespace husk
