// Markdown and HTML on real pages: on every AEB and WCXB dev page the
// Markdown, its markup removed, holds the text's words in the text's order,
// and the HTML parses as XML; dev-set pages keep a real heading, a nested
// list, a table with its header row and fenced code with its language.
#include <pugixml.hpp>

#include "husk/ingest.h"
#include "unit/test_util.h"

namespace husk {
namespace {

// Words as the benchmark counts them: runs of ASCII letters, digits and
// '_', and of any non-ASCII bytes.
std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::string w;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '_' || c >= 0x80) {
      w.push_back(ch);
    } else if (!w.empty()) {
      out.push_back(std::move(w));
      w.clear();
    }
  }
  if (!w.empty()) out.push_back(std::move(w));
  return out;
}

// The Markdown husk writes with its markup taken off: fence lines, list
// numbers, emphasis and code marks (which may stand inside a word:
// "**I**f"), link brackets and targets, and backslash escapes (after which
// "\_" is a word character again). Quotes, pipes and heading marks carry
// no word characters.
std::string strip_markdown(const std::string& md) {
  std::string out;
  std::string fence;
  std::size_t pos = 0;
  while (pos <= md.size()) {
    std::size_t end = md.find('\n', pos);
    if (end == std::string::npos) end = md.size();
    std::string_view line(md.data() + pos, end - pos);
    pos = end + 1;
    if (!fence.empty()) {
      std::string_view bare = line;
      while (!bare.empty() && (bare.front() == ' ' || bare.front() == '>')) bare.remove_prefix(1);
      if (bare == fence) {
        fence.clear();
      } else {
        out.append(line);
        out.push_back('\n');
      }
      continue;
    }
    std::size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '>')) ++i;
    std::size_t fence_ticks = 0;
    while (i + fence_ticks < line.size() && line[i + fence_ticks] == '`') ++fence_ticks;
    if (fence_ticks >= 3) {
      fence.assign(fence_ticks, '`');
      continue;
    }
    std::size_t d = i;
    while (d < line.size() && std::isdigit(static_cast<unsigned char>(line[d]))) ++d;
    if (d > i && d + 1 < line.size() && line[d] == '.' && line[d + 1] == ' ') i = d + 2;
    for (; i < line.size(); ++i) {
      char c = line[i];
      if (c == '\\' && i + 1 < line.size() && std::ispunct(static_cast<unsigned char>(line[i + 1]))) {
        out.push_back(line[++i]);
      } else if (c == '`') {
        // An inline code span: its content as written, up to the same run of backticks.
        std::size_t run = 0;
        while (i + run < line.size() && line[i + run] == '`') ++run;
        std::size_t close = line.find(std::string(run, '`'), i + run);
        if (close == std::string_view::npos) close = line.size();
        out.append(line.substr(i + run, close - i - run));
        i = close + run - 1;
      } else if (c == ']' && i + 1 < line.size() && line[i + 1] == '(') {
        std::size_t close = line.find(')', i);
        i = close == std::string_view::npos ? line.size() : close;
      } else if (c == '*' || c == '[') {
        continue;
      } else {
        out.push_back(c);
      }
    }
    out.push_back('\n');
  }
  return out;
}

struct Rendered {
  std::string id, text, markdown, html;
};

std::vector<Rendered> render_all(const std::vector<std::string>& inputs) {
  ProcessorOptions options;
  options.markdown = true;
  options.html = true;
  Result<Processor> processor = Processor::make(options);
  EXPECT_TRUE(processor.ok());
  std::vector<Rendered> out;
  ingest(inputs, IngestOptions{}, [&](RawPage&& page) {
    PageResult r = processor->process(page);
    out.push_back({r.id, r.text, r.markdown, r.html});
    return true;
  });
  return out;
}

TEST(Structure, MarkdownHoldsTheTextsWordsAndHtmlParsesOnEveryPage) {
  std::string aeb = test::dataset("article-extraction-benchmark");
  std::string wcxb = test::dataset("wcxb-dev");
  if (aeb.empty() || wcxb.empty()) GTEST_SKIP() << "../shared/datasets are absent";
  std::vector<Rendered> pages = render_all({aeb + "/html", wcxb + "/html"});
  ASSERT_GT(pages.size(), 1600u);
  std::size_t same = 0, parsed = 0;
  for (const Rendered& p : pages) {
    if (words(strip_markdown(p.markdown)) == words(p.text)) {
      ++same;
    } else {
      ADD_FAILURE() << p.id << ": the Markdown's words differ from the text's";
    }
    pugi::xml_document doc;
    pugi::xml_parse_result result = doc.load_string(p.html.c_str(), pugi::parse_default | pugi::parse_doctype);
    if (result && doc.child("html").child("body")) {
      ++parsed;
    } else {
      ADD_FAILURE() << p.id << ": HTML does not parse: " << result.description() << " at " << result.offset;
    }
  }
  std::printf("%zu pages: Markdown words = text words on %zu, HTML parses on %zu\n", pages.size(), same, parsed);
}

TEST(Structure, RealPagesKeepHeadingsListsTablesAndCode) {
  std::string wcxb = test::dataset("wcxb-dev");
  if (wcxb.empty()) GTEST_SKIP() << "../shared/datasets/wcxb-dev is absent";
  const std::string html = wcxb + "/html/";
  std::vector<Rendered> pages =
      render_all({html + "0002.html.gz", html + "0011.html.gz", html + "0386.html.gz", html + "0429.html.gz"});
  ASSERT_EQ(pages.size(), 4u);
  // A nutrition survey: section headings and a table whose first row is its
  // header (which header cells the block model keeps is its call).
  EXPECT_NE(pages[0].markdown.find("\n## Key takeaways\n"), std::string::npos);
  EXPECT_NE(pages[0].markdown.find("| Motivation |"), std::string::npos);
  EXPECT_NE(pages[0].markdown.find(" |\n| --- | --- | --- |\n| Energy and Focus | 61.59% | 1 |"), std::string::npos);
  // A design guide: a list with a list inside one of its items.
  EXPECT_NE(pages[1].markdown.find("- Always add in an additional **10% for cost overruns**."), std::string::npos);
  EXPECT_NE(pages[1].markdown.find("\n  - The point is, you don’t want to be on such a tight shoe-string budget"),
            std::string::npos);
  // Engineering posts: fenced code with the language the page names.
  EXPECT_NE(pages[2].markdown.find("```python\nimport gim\nfrom transformers import AutoModelForCausalLM, AutoTokenizer\n"),
            std::string::npos);
  EXPECT_NE(pages[3].markdown.find("```cpp\nmainGainSlider.setBoundsFloatFromRect"), std::string::npos);
  // The same structure in the HTML.
  EXPECT_NE(pages[0].html.find("<h2>Key takeaways</h2>"), std::string::npos);
  EXPECT_NE(pages[0].html.find("<tr><th>Motivation</th>"), std::string::npos);
  EXPECT_NE(pages[0].html.find("<tr><td>Energy and Focus</td><td>61.59%</td><td>1</td></tr>"), std::string::npos);
  EXPECT_NE(pages[2].html.find("<pre><code class=\"language-python\">import gim"), std::string::npos);
}

}  // namespace
}  // namespace husk
