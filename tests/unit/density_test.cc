#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <random>

#include "extract/vocabulary.h"
#include "unit/test_util.h"

namespace husk {
namespace {

using test::extract_text;

std::string paragraph(const std::string& topic, int words) {
  std::string p = "<p>";
  for (int i = 0; i < words; ++i) p += topic + std::to_string(i) + (i % 12 == 11 ? ". " : " ");
  return p + "</p>";
}

std::string nav() {
  std::string n = "<nav><ul>";
  for (const char* item : {"Home", "World", "Politics", "Business", "Sport", "Culture", "Opinion"})
    n += std::string("<li><a href=\"/") + item + "\">" + item + "</a></li>";
  return n + "</ul></nav>";
}

struct DensityCase {
  const char* name;
  std::string html;
  std::vector<std::string> must;
  std::vector<std::string> must_not;
};
// Names the case in test listings instead of dumping its bytes.
void PrintTo(const DensityCase& c, std::ostream* os) { *os << c.name; }

class DensityTest : public ::testing::TestWithParam<DensityCase> {};

TEST_P(DensityTest, KeepsArticleDropsBoilerplate) {
  const DensityCase& c = GetParam();
  std::string text = extract_text(c.html);
  for (const std::string& s : c.must) EXPECT_NE(text.find(s), std::string::npos) << c.name << ": missing " << s << "\n" << text;
  for (const std::string& s : c.must_not) EXPECT_EQ(text.find(s), std::string::npos) << c.name << ": kept " << s << "\n" << text;
}

INSTANTIATE_TEST_SUITE_P(
    Pages, DensityTest,
    ::testing::Values(
        DensityCase{"navigation and footer",
                    "<body>" + nav() + "<div class=main><h1>Title</h1>" + paragraph("alpha", 60) +
                        paragraph("beta", 50) + "</div><footer><p>Copyright 2024 Example News. All rights reserved.</p></footer></body>",
                    {"alpha0", "alpha59", "beta49"}, {"Politics", "Copyright"}},
        DensityCase{"comments after the article",
                    "<body><article>" + paragraph("story", 80) + paragraph("more", 40) +
                        "</article><div id=comments><h3>3 comments</h3>" + paragraph("reader", 40) +
                        paragraph("troll", 30) + "</div></body>",
                    {"story0", "more39"}, {"reader1", "troll1"}},
        DensityCase{"end marker inside the container",
                    "<body><div class=post>" + paragraph("body", 90) + paragraph("body2", 30) +
                        "<h3>Related stories</h3>" + paragraph("teaser", 25) + "</div></body>",
                    {"body0", "body229"}, {"Related stories", "teaser3"}},
        DensityCase{"short lines and subheadings inside the article stay",
                    "<body>" + nav() + "<article>" + paragraph("lead", 70) + "<h2>A subheading</h2><p>He said no.</p>" +
                        paragraph("rest", 60) + "</article></body>",
                    {"A subheading", "He said no.", "rest59"}, {"Culture"}},
        DensityCase{"link list inside the container is cut",
                    "<body><div class=content>" + paragraph("text", 80) +
                        "<ul><li><a href=/a>First related link title here</a></li><li><a href=/b>Second related link title</a></li>"
                        "<li><a href=/c>Third related link title</a></li></ul>" +
                        paragraph("after", 40) + "</div></body>",
                    {"text79", "after39"}, {"First related link"}},
        DensityCase{"stock lines are dropped",
                    "<body><article>" + paragraph("one", 50) + "<p>Advertisement</p>" + paragraph("two", 50) +
                        "<p>Share this article</p></article></body>",
                    {"one49", "two0"}, {"Advertisement", "Share this"}},
        DensityCase{"article split by an ad keeps both halves",
                    "<body>" + nav() + "<div><div class=part>" + paragraph("first", 70) +
                        "</div><div class=ad-slot><p>Advertisement</p></div><div class=part>" + paragraph("second", 70) +
                        "</div></div></body>",
                    {"first0", "second69"}, {"Advertisement", "Sport"}}),
    [](const ::testing::TestParamInfo<DensityCase>& info) { return test::test_name(info.param.name); });

TEST(Density, EmptyAndTextlessPagesGiveEmptyText) {
  EXPECT_EQ(extract_text("<html><body></body></html>"), "");
  EXPECT_EQ(extract_text("<html><body><img src=x></body></html>"), "");
}

TEST(Density, FulltextKeepsEverythingVisible) {
  std::string text = extract_text("<body>" + nav() + paragraph("a", 20) + "</body>", "fulltext");
  EXPECT_NE(text.find("Politics"), std::string::npos);
  EXPECT_NE(text.find("a19"), std::string::npos);
}

// phrase_key's ASCII path against its twin, ICU's lower case and letters
// and digits on every string: random ASCII (control characters and
// punctuation included) and lines the vocabulary holds.
TEST(Vocabulary, PhraseKeyOfAsciiIsIcus) {
  auto twin = [](std::string_view text) {
    icu::UnicodeString u =
        icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
    u.toLower();
    int32_t start = 0, end = u.length();
    while (start < end && !u_isalnum(u.char32At(start))) start = u.moveIndex32(start, 1);
    while (end > start && !u_isalnum(u.char32At(u.moveIndex32(end, -1)))) end = u.moveIndex32(end, -1);
    std::string out;
    u.tempSubStringBetween(start, end).toUTF8String(out);
    return out;
  };
  std::mt19937 random(7);
  std::vector<std::string> lines = {"  Related Articles: ", "--Comments (12)--", "READ MORE >>", "", "...", "Ab1"};
  for (int i = 0; i < 20000; ++i) {
    std::string s(random() % 12, ' ');
    for (char& c : s) c = static_cast<char>(random() % 128);
    lines.push_back(s);
  }
  for (const std::string& line : lines) EXPECT_EQ(phrase_key(line), twin(line)) << "'" << line << "'";
  // Beyond ASCII, ICU's rules: "É" lowers to "é", and "«" is no letter.
  EXPECT_EQ(phrase_key("« ÉTÉ »"), "été");
}

}  // namespace
}  // namespace husk
