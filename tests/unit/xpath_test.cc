#include "base/url.h"
#include "husk/processor.h"
#include "unit/test_util.h"

namespace husk {
namespace {

constexpr const char* kPage = R"(<html><body><div id="nav"><a href="/">Home</a> <a href="/x">X</a></div>
<div class="article"><h1>Title</h1><p>First paragraph of the story.</p><div class="ad">Buy now</div>
<p>Second paragraph of the story.</p></div><div class="footer">Footer text</div></body></html>)";

std::string run(const std::string& rules_toml, const std::string& url, std::vector<std::string>* warnings = nullptr,
                std::string* extractor = nullptr) {
  auto rules = SiteRules::parse(rules_toml, "test.toml");
  EXPECT_TRUE(rules.ok()) << rules.status().to_string();
  ProcessorOptions options;
  options.extractor = "xpath";
  options.sites = *rules;
  auto pipeline = Processor::make(options);
  RawPage page;
  page.id = "p";
  page.url = url;
  page.bytes = kPage;
  PageResult r = pipeline->process(page);
  if (warnings) *warnings = r.warnings;
  if (extractor) *extractor = r.extractor;
  return r.text;
}

TEST(Xpath, IncludeAndExcludeSelectBlocks) {
  std::string text = run("[[rule]]\nhost = \"news.example\"\ninclude = [\"//div[@class='article']\"]\n"
                         "exclude = [\"//div[@class='ad']\"]\n",
                         "https://news.example/a/1.html");
  EXPECT_EQ(text, "Title\n\nFirst paragraph of the story.\n\nSecond paragraph of the story.");
}

TEST(Xpath, RuleMatchingNothingIsReported) {
  std::vector<std::string> warnings;
  std::string extractor;
  run("[[rule]]\nmatch = \"news\\\\.example/a/\"\ninclude = [\"//div[@class='story']\"]\n", "https://news.example/a/1.html",
      &warnings, &extractor);
  // The rule keeps nothing, so the page falls back to the cascade: the
  // warnings name the rule's file and line, then the fallback.
  EXPECT_EQ(extractor, "learned");
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find("test.toml:1"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("matched nothing"), std::string::npos);
  EXPECT_NE(warnings[1].find("keeps nothing on this page"), std::string::npos) << warnings[1];
}

TEST(Xpath, PagesWithoutARuleFallBackToThePageAlone) {
  std::vector<std::string> warnings;
  std::string extractor;
  std::string text = run("[[rule]]\nhost = \"other.example\"\nexclude = [\"//div\"]\n", "https://news.example/1.html",
                         &warnings, &extractor);
  EXPECT_EQ(extractor, "learned");
  EXPECT_NE(text.find("First paragraph"), std::string::npos);
}

TEST(Xpath, BadRulesNameFileLineAndOffset) {
  auto bad = SiteRules::parse("[[rule]]\nhost = \"a.b\"\ninclude = [\"//div[@class='x'\"]\n", "r.toml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("r.toml:3"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("offset"), std::string::npos);
  auto no_matcher = SiteRules::parse("[[rule]]\ninclude = [\"//div\"]\n", "r.toml");
  ASSERT_FALSE(no_matcher.ok());
  EXPECT_NE(no_matcher.status().message().find("host or match"), std::string::npos);
  auto unknown = SiteRules::parse("[[rule]]\nhost = \"a\"\ninclude = [\"//p\"]\nincluded = 1\n", "r.toml");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("r.toml:4"), std::string::npos);
  auto regex = SiteRules::parse("[[rule]]\nmatch = \"(\"\ninclude = [\"//p\"]\n", "r.toml");
  ASSERT_FALSE(regex.ok());
  EXPECT_NE(regex.status().message().find("r.toml:2"), std::string::npos);
  // A rule nested past pugixml's depth limit is refused with its start and
  // length, not echoed whole.
  const std::string deep = std::string(100000, '(') + "//p" + std::string(100000, ')');
  auto nested = SiteRules::parse("[[rule]]\nhost = \"a\"\ninclude = [\"" + deep + "\"]\n", "r.toml");
  ASSERT_FALSE(nested.ok());
  const std::string said = nested.status().message();
  EXPECT_LT(said.size(), 400u) << said.substr(0, 400);
  EXPECT_NE(said.find("r.toml:3: bad XPath \"((((("), std::string::npos) << said.substr(0, 400);
  EXPECT_NE(said.find("...\" (200003 bytes)"), std::string::npos) << said.substr(0, 400);
}

TEST(Xpath, HostsOfUrls) {
  EXPECT_EQ(url_host("https://User@News.Example:8080/a?b"), "news.example");
  EXPECT_EQ(url_host("not a url"), "");
}

}  // namespace
}  // namespace husk
