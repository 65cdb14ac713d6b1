// Markdown and HTML output: each role written as it should be, and the
// words always those of the plain text.
#include <pugixml.hpp>

#include "husk/format.h"
#include "unit/test_util.h"

namespace husk {
namespace {

PageResult render(const std::string& body, bool links = false, bool images = false,
                  const std::string& url = "https://example.org/docs/page.html") {
  ProcessorOptions options;
  options.extractor = "fulltext";
  options.markdown = true;
  options.html = true;
  options.format.links = links;
  options.format.images = images;
  Result<Processor> processor = Processor::make(options);
  EXPECT_TRUE(processor.ok());
  return processor->process(url, "<html><head><title>T</title></head><body>" + body + "</body></html>");
}

TEST(Markdown, HeadingsListsTablesCodeAndQuotes) {
  PageResult r = render(
      "<h1>Main title</h1><p>Intro with <em>stress</em>, <strong>weight</strong> and <code>x = 1</code>.</p>"
      "<h2>Steps</h2><ol><li>First</li><li>Second<ul><li>Inner a</li><li>Inner b</li></ul></li><li>Third</li></ol>"
      "<table><tr><th>Name</th><th>Price</th></tr><tr><td>Tea | green</td><td>3</td></tr></table>"
      "<pre><code class=\"language-python\">def f():\n    return 1\n</code></pre>"
      "<blockquote><p>Quoted words here</p></blockquote>");
  const std::string& md = r.markdown;
  EXPECT_NE(md.find("# Main title\n\nIntro with *stress*, **weight** and `x = 1`."), std::string::npos) << md;
  EXPECT_NE(md.find("## Steps\n\n1. First\n2. Second\n   - Inner a\n   - Inner b\n3. Third"), std::string::npos) << md;
  EXPECT_NE(md.find("| Name | Price |\n| --- | --- |\n| Tea \\| green | 3 |"), std::string::npos) << md;
  EXPECT_NE(md.find("```python\ndef f():\n    return 1\n```"), std::string::npos) << md;
  EXPECT_NE(md.find("> Quoted words here"), std::string::npos) << md;
}

TEST(Markdown, EscapesWhatWouldReadAsSyntax) {
  PageResult r = render("<p># not a heading</p><p>2024. A year</p><p>snake_case and *stars* [x]</p>");
  EXPECT_NE(r.markdown.find("\\# not a heading"), std::string::npos) << r.markdown;
  EXPECT_NE(r.markdown.find("2024\\. A year"), std::string::npos) << r.markdown;
  EXPECT_NE(r.markdown.find("snake\\_case and \\*stars\\* \\[x\\]"), std::string::npos) << r.markdown;
}

TEST(Markdown, LinksAndImagesOnlyWhenAskedAndAbsolute) {
  const std::string body = "<p>See <a href=\"../guide/intro.html\">the guide</a> now.</p>"
                           "<p><img src=\"/img/a.png\" alt=\"A chart\">Caption words here</p>";
  PageResult plain = render(body);
  EXPECT_NE(plain.markdown.find("See the guide now."), std::string::npos) << plain.markdown;
  EXPECT_EQ(plain.markdown.find("]("), std::string::npos) << plain.markdown;
  PageResult linked = render(body, true, true);
  EXPECT_NE(linked.markdown.find("See [the guide](https://example.org/guide/intro.html) now."), std::string::npos)
      << linked.markdown;
  EXPECT_NE(linked.markdown.find("![A chart](https://example.org/img/a.png)Caption words here"), std::string::npos)
      << linked.markdown;
  EXPECT_NE(linked.html.find("<a href=\"https://example.org/guide/intro.html\">the guide</a>"), std::string::npos);
  EXPECT_NE(linked.html.find("<img src=\"https://example.org/img/a.png\" alt=\"A chart\"/>"), std::string::npos);
  // The text is the same with or without the markup.
  EXPECT_EQ(plain.text, linked.text);
}

TEST(Markdown, BaseHrefResolvesLinks) {
  ProcessorOptions options;
  options.extractor = "fulltext";
  options.markdown = true;
  options.format.links = true;
  Result<Processor> processor = Processor::make(options);
  ASSERT_TRUE(processor.ok());
  PageResult r = processor->process(
      "https://a.example/x/y.html",
      "<html><head><base href=\"https://cdn.example/root/\"></head><body><p><a href=\"z.html\">zed</a></p></body></html>");
  EXPECT_NE(r.markdown.find("[zed](https://cdn.example/root/z.html)"), std::string::npos) << r.markdown;
}

TEST(Html, SmallValidEscapedDocument) {
  PageResult r = render(
      "<h2>A &lt;b&gt; &amp; c</h2><ul><li>one<ol><li>two</li></ol></li><li>three</li></ul>"
      "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table><pre>x &lt; y</pre>"
      "<blockquote>said</blockquote><p>plain \"quoted\"</p>");
  pugi::xml_document doc;
  pugi::xml_parse_result parsed = doc.load_string(r.html.c_str(), pugi::parse_default | pugi::parse_doctype);
  ASSERT_TRUE(parsed) << parsed.description() << "\n" << r.html;
  pugi::xml_node body = doc.child("html").child("body");
  EXPECT_STREQ(body.child("h2").text().get(), "A <b> & c");
  EXPECT_STREQ(body.child("ul").child("li").child("ol").child("li").text().get(), "two");
  EXPECT_STREQ(body.child("table").child("tr").child("th").text().get(), "a");
  EXPECT_STREQ(body.child("pre").child("code").text().get(), "x < y");
  EXPECT_STREQ(body.child("blockquote").child("p").text().get(), "said");
  // Only the elements the format names appear.
  for (pugi::xpath_node n : doc.select_nodes("//body//*")) {
    std::string name = n.node().name();
    static const std::set<std::string> kAllowed = {"h1", "h2", "h3", "h4", "h5", "h6", "p", "ul", "ol", "li", "table",
                                                   "tr", "th", "td", "pre", "code", "blockquote", "a", "img", "br"};
    EXPECT_TRUE(kAllowed.count(name)) << name;
  }
}

TEST(Text, UnchangedByTheMarkupOptions) {
  const std::string page = "<h1>Title</h1><p>Body with <em>words</em> and <a href=\"/x\">a link</a>.</p>";
  ProcessorOptions plain;
  plain.extractor = "fulltext";
  ProcessorOptions rich = plain;
  rich.markdown = rich.html = true;
  rich.format.links = rich.format.images = true;
  rich.sign = plain.sign = true;
  auto a = Processor::make(plain)->process("https://e.org/", page);
  auto b = Processor::make(rich)->process("https://e.org/", page);
  EXPECT_EQ(a.text, b.text);
  ASSERT_TRUE(a.signatures && b.signatures);
  EXPECT_EQ(a.signatures->minhash, b.signatures->minhash);
}

}  // namespace
}  // namespace husk
