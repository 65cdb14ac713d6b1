// Issue bars on real multi-page sites from Debian packages (installed by
// `make deps`): the template extractor against gold from each site's known
// content, beside density; husk tune on five labelled pages, scored on the
// rest of the site.
#include <filesystem>
#include <fstream>
#include <set>
#include <nlohmann/json.hpp>
#include <regex>

#include "unit/test_util.h"

namespace husk {
namespace {

namespace fs = std::filesystem;
using test::run_husk;

struct DocSite {
  const char* name;
  const char* dir;
  const char* gold_rule;  // the site's known content, as a husk rule body
  double template_floor;  // F1 the template extractor must reach
};

// The two sites the issue names (bar: F1 >= 0.95 and above density).
const DocSite kSites[] = {
    {"python3.11-doc", "/usr/share/doc/python3.11/html", "include = [\"//div[@role='main']\"]", 0.95},
    {"postgresql-doc-15", "/usr/share/doc/postgresql-doc-15/html",
     "exclude = [\"//div[@class='navheader']\", \"//div[@class='navfooter']\"]", 0.95},
};

// Sites husk was never tuned on, other page generators (AsciiDoc, the
// Apache manual's XSLT) in two languages: template must beat density, and
// not fall below what was measured when they were added (README) less a
// margin. The Japanese Apache manual stays below 0.95: it mixes translated
// pages with English ones, so its header and footer come in two languages
// and in some directories neither reaches the learner's quorum.
const DocSite kUntunedSites[] = {
    {"git-doc", "/usr/share/doc/git-doc", "exclude = [\"//div[@id='footer']\"]", 0.95},
    {"apache2-doc (en)", "/usr/share/doc/apache2-doc/manual/en",
     "include = [\"//div[@id='page-content']\"]\nexclude = [\"//div[@id='quickview']\", \"//div[@class='toplang']\", "
     "\"//div[@class='bottomlang']\", \"//div[@class='top']\"]",
     0.95},
    {"apache2-doc (ja)", "/usr/share/doc/apache2-doc/manual/ja",
     "include = [\"//div[@id='page-content']\"]\nexclude = [\"//div[@id='quickview']\", \"//div[@class='toplang']\", "
     "\"//div[@class='bottomlang']\", \"//div[@class='top']\"]",
     0.92},
};

std::string docs_or_skip(const DocSite& site) {
  if (fs::is_directory(site.dir)) return site.dir;
  test::missing(std::string(site.dir) + " (make deps installs " + site.name + ")");
  return "";
}

// Gold {id: {articleBody}} from the site's known content.
nlohmann::json gold_of(const DocSite& site, const test::TempDir& dir) {
  fs::create_directories(dir.path() / "gold-rules");
  test::write_file(dir.file("gold-rules/site.toml"),
                   std::string("[[rule]]\nmatch = \"") + site.dir + "/\"\n" + site.gold_rule + "\n");
  run_husk(std::string("extract --extractor xpath --sites ") + dir.file("gold-rules") + " " + site.dir + " -o " +
           dir.file("gold.jsonl") + " 2>/dev/null");
  nlohmann::json gold = nlohmann::json::object();
  for (const std::string& line : test::lines(test::read_file(dir.file("gold.jsonl")))) {
    auto j = nlohmann::json::parse(line);
    gold[j["id"].get<std::string>()] = {{"articleBody", j["text"]}};
  }
  return gold;
}

double f1_of(const std::string& gold_file, const std::string& pred_file) {
  auto j = nlohmann::json::parse(run_husk("eval extract --json --gold " + gold_file + " " + pred_file).out);
  return j["f1"].get<double>();
}

void expect_template_beats_density(const DocSite& site) {
  std::string docs = docs_or_skip(site);
  if (docs.empty()) return;
  test::TempDir dir;
  nlohmann::json gold = gold_of(site, dir);
  ASSERT_GT(gold.size(), 200u) << site.name;
  test::write_file(dir.file("gold.json"), gold.dump());
  run_husk("extract --extractor template " + docs + " -o " + dir.file("template.jsonl"));
  run_husk("extract --extractor density " + docs + " -o " + dir.file("density.jsonl"));
  double t = f1_of(dir.file("gold.json"), dir.file("template.jsonl"));
  double d = f1_of(dir.file("gold.json"), dir.file("density.jsonl"));
  std::printf("%s: template F1 %.4f, density F1 %.4f\n", site.name, t, d);
  EXPECT_GE(t, site.template_floor) << site.name;
  EXPECT_GT(t, d) << site.name;
}

TEST(TemplateDocs, TemplateBeatsDensityAndReachesTheBar) {
  for (const DocSite& site : kSites) expect_template_beats_density(site);
}

TEST(TemplateDocs, SitesNeverTunedOnBehaveTheSame) {
  for (const DocSite& site : kUntunedSites) expect_template_beats_density(site);
}

// A documentation site where most pages are stubs sharing one paragraph
// (as generated API references are while being written): the repeated
// paragraph is every stub's content, and what changes from page to page is
// the navigation (previous/next topic, the local table of contents).
// Deterministic: words drawn by a linear congruential generator.
struct StubSite {
  nlohmann::json gold = nlohmann::json::object();
  std::vector<std::string> stubs;
};

StubSite write_stub_site(const std::string& dir) {
  static const char* kWords[] = {"window", "widget", "layout", "signal", "buffer", "render", "event", "queue",
                                 "thread", "handle", "socket", "stream", "parse",  "value",  "option", "index",
                                 "table",  "record", "column", "cursor", "frame",  "batch",  "token",  "scope"};
  uint64_t state = 7;
  auto next = [&](uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  };
  auto sentence = [&] {
    std::string s;
    for (uint64_t k = 0, n = 8 + next(10); k < n; ++k) s += std::string(k ? " " : "") + kWords[next(24)];
    s[0] = static_cast<char>(std::toupper(s[0]));
    return s + ".";
  };
  const std::string stub =
      "This page is a stub. The reference for this function has not been written yet: the overview of its module "
      "explains how the functions of this family are called, and the header file documents each argument.";
  constexpr int kPages = 60;
  std::vector<std::string> names;
  for (int i = 0; i < kPages; ++i) names.push_back("wt_" + std::string(kWords[next(24)]) + "_" + std::to_string(i));
  StubSite site;
  for (int i = 0; i < kPages; ++i) {
    const std::string& name = names[static_cast<std::size_t>(i)];
    std::string nav = "<div class=\"related\" role=\"navigation\"><ul><li><a href=\"genindex.html\">index</a></li>";
    std::string side = "<div class=\"sphinxsidebar\"><h3><a href=\"index.html\">Table of Contents</a></h3><ul>";
    for (int j = std::max(0, i - 5); j < std::min(kPages, i + 6); ++j)
      side += "<li><a href=\"" + names[static_cast<std::size_t>(j)] + ".html\">" + names[static_cast<std::size_t>(j)] + "</a></li>";
    side += "</ul>";
    if (i > 0) {
      const std::string& prev = names[static_cast<std::size_t>(i - 1)];
      side += "<h4>Previous topic</h4><p><a href=\"" + prev + ".html\">" + prev + "</a></p>";
      nav += "<li><a href=\"" + prev + ".html\">previous</a></li>";
    }
    if (i + 1 < kPages) {
      const std::string& after = names[static_cast<std::size_t>(i + 1)];
      side += "<h4>Next topic</h4><p><a href=\"" + after + ".html\">" + after + "</a></p>";
      nav += "<li><a href=\"" + after + ".html\">next</a></li>";
    }
    side += "</div>";
    nav += "<li><a href=\"index.html\">Widget Toolkit 3.2 documentation</a></li><li><a href=\"\">" + name +
           "</a></li></ul></div>";
    std::string body = "<h1>" + name + "</h1>", gold = name;
    if (i % 3 != 0) {  // two pages in three are stubs
      body += "<p>" + stub + "</p>";
      gold += "\n\n" + stub;
      site.stubs.push_back(name + ".html");
    } else {
      for (uint64_t p = 0, n = 3 + next(4); p < n; ++p) {
        std::string para;
        for (uint64_t k = 0, m = 2 + next(4); k < m; ++k) para += (k ? " " : "") + sentence();
        body += "<p>" + para + "</p>";
        gold += "\n\n" + para;
      }
    }
    test::write_file(dir + "/" + name + ".html",
                     "<!DOCTYPE html><html><head><title>" + name + " - Widget Toolkit documentation</title></head><body>" +
                         nav + "<div class=\"body\" role=\"main\">" + body + "</div>" + side + nav +
                         "<div class=\"footer\">Copyright 2026, the Widget Toolkit authors. Created using Sphinx "
                         "7.2.</div></body></html>");
    site.gold[name + ".html"] = {{"articleBody", gold}};
  }
  return site;
}

TEST(TemplateDocs, StubPagesSharingAParagraphDoNotFoolTheTemplate) {
  test::TempDir dir;
  fs::create_directories(dir.path() / "site");
  StubSite site = write_stub_site(dir.file("site"));
  test::write_file(dir.file("gold.json"), site.gold.dump());
  run_husk("extract --extractor template --state " + dir.file("state") + " " + dir.file("site") + " -o " +
           dir.file("template.jsonl"));
  run_husk("extract --extractor density " + dir.file("site") + " -o " + dir.file("density.jsonl"));
  // auto finds the stored template of the site and runs it.
  run_husk("extract --state " + dir.file("state") + " " + dir.file("site") + " -o " + dir.file("auto.jsonl"));
  double t = f1_of(dir.file("gold.json"), dir.file("template.jsonl"));
  double d = f1_of(dir.file("gold.json"), dir.file("density.jsonl"));
  double a = f1_of(dir.file("gold.json"), dir.file("auto.jsonl"));
  std::printf("stub site: template F1 %.4f, auto with the stored template %.4f, density %.4f\n", t, a, d);
  EXPECT_GE(t, d - 0.01);
  EXPECT_GE(a, d - 0.01);
  EXPECT_GE(t, 0.95);
  // Every stub keeps its paragraph, and no stub keeps its neighbours' names.
  for (const std::string& line : test::lines(test::read_file(dir.file("auto.jsonl")))) {
    auto j = nlohmann::json::parse(line);
    if (std::find(site.stubs.begin(), site.stubs.end(), j["id"].get<std::string>()) == site.stubs.end()) continue;
    EXPECT_EQ(j["extractor"], "template") << line;
    EXPECT_NE(j["text"].get<std::string>().find("This page is a stub."), std::string::npos) << line;
    EXPECT_EQ(j["text"].get<std::string>().find("Next topic"), std::string::npos) << line;
  }
}

// A page of `paragraphs` paragraphs inside the furniture every page of the
// site shares (a 100-link menu and a footer).
std::string furnished_page(std::size_t paragraphs, const std::string& tag) {
  std::string html = "<!DOCTYPE html><html><head><title>" + tag + "</title></head><body><ul class=\"menu\">";
  for (int i = 0; i < 100; ++i) html += "<li><a href=\"p" + std::to_string(i) + ".html\">Menu entry " + std::to_string(i) + "</a></li>";
  html += "</ul><div class=\"main\">";
  for (std::size_t p = 0; p < paragraphs; ++p)
    html += "<p>Paragraph " + std::to_string(p) + " of " + tag + " says something of its own here.</p>";
  return html + "</div><div class=\"footer\">Copyright 2026, the site's authors.</div></body></html>";
}

// Peak resident memory (KiB) of a husk command, from /usr/bin/time.
long peak_kib(const std::string& args, const std::string& log) {
  auto r = test::run_command("/usr/bin/time -f %M -o " + log + " " + HUSK_BINARY + " " + args + " >/dev/null 2>&1");
  EXPECT_EQ(r.exit_code, 0) << args;
  return std::atol(test::read_file(log).c_str());
}

// The crawler path's memory cliff: a template learned from five
// 3,200-block pages, then a page of 150,000 paragraphs under the same path.
// Aligning it with the reference row by row took (n+1)(m+1) cells (2.2 GB,
// 5.1x the same page without a template); now its memory is linear and the
// order-free match decides past the work budget.
TEST(TemplateDocs, AHugePageUnderAStoredTemplateCostsNoMoreMemoryThanWithout) {
  test::TempDir dir;
  for (int i = 0; i < 5; ++i)
    test::write_file(dir.file("site/page" + std::to_string(i) + ".html"), furnished_page(3100, "page " + std::to_string(i)));
  ASSERT_EQ(run_husk("extract --extractor template --state " + dir.file("state") + " " + dir.file("site") +
                     " -o /dev/null 2>/dev/null").exit_code, 0);
  const std::string huge = furnished_page(150000, "the huge page");
  test::write_file(dir.file("site/huge.html"), huge);
  test::write_file(dir.file("elsewhere/huge.html"), huge);
  const long with = peak_kib("extract --state " + dir.file("state") + " " + dir.file("site/huge.html") + " -o " +
                                 dir.file("with.jsonl"), dir.file("with.time"));
  const long without = peak_kib("extract --state " + dir.file("state") + " " + dir.file("elsewhere/huge.html") +
                                    " -o " + dir.file("without.jsonl"), dir.file("without.time"));
  std::printf("huge page: %ld KiB under its template, %ld KiB without\n", with, without);
  EXPECT_LE(static_cast<double>(with), 1.2 * static_cast<double>(without));
  auto record = nlohmann::json::parse(test::read_file(dir.file("with.jsonl")));
  EXPECT_EQ(record["extractor"], "template");
  EXPECT_NE(record.dump().find("past the alignment budget"), std::string::npos) << record["warnings"];
  const std::string text = record["text"].get<std::string>();
  EXPECT_NE(text.find("Paragraph 149999 of the huge page"), std::string::npos);
  EXPECT_EQ(text.find("Menu entry 42"), std::string::npos);
}

void expect_tuned_rules_generalise(const DocSite& site) {
  std::string docs = docs_or_skip(site);
  if (docs.empty()) return;
  test::TempDir dir;
  nlohmann::json gold = gold_of(site, dir);
  // Five labelled pages with content, spread over the site.
  std::vector<std::string> ids;
  for (const auto& [id, v] : gold.items())
    if ((id.find('/') == std::string::npos || std::string(site.name) == "python3.11-doc") &&
        !v["articleBody"].get<std::string>().empty())
      ids.push_back(id);
  std::sort(ids.begin(), ids.end());
  nlohmann::json labelled = nlohmann::json::object(), rest = nlohmann::json::object();
  std::set<std::string> picked;
  for (std::size_t i = 0; i < 5; ++i) picked.insert(ids[(i * ids.size()) / 5 + 1]);
  fs::create_directories(dir.path() / "pages");
  for (const auto& [id, v] : gold.items()) {
    if (picked.count(id)) {
      std::string name = fs::path(id).filename().string();
      fs::copy_file(fs::path(docs) / id, dir.path() / "pages" / name);
      labelled[name] = v;
    } else {
      rest[id] = v;
    }
  }
  test::write_file(dir.file("labelled.json"), labelled.dump());
  test::write_file(dir.file("rest.json"), rest.dump());
  fs::create_directories(dir.path() / "none");
  test::CommandResult tuned = run_husk("tune --site '" + std::string(site.name) + "' --sites " + dir.file("none") +
                                       " --gold " + dir.file("labelled.json") + " --write " + dir.file("proposed.toml") +
                                       " " + dir.file("pages"));
  ASSERT_EQ(tuned.exit_code, 0) << tuned.out;
  // The proposal names the --site host (these pages have no URLs); point
  // it at the site's files.
  std::string rules = test::read_file(dir.file("proposed.toml"));
  std::size_t m = rules.find("host = ");
  ASSERT_NE(m, std::string::npos) << rules;
  rules.replace(m, rules.find('\n', m) - m, std::string("match = \"") + docs + "/\"");
  fs::create_directories(dir.path() / "rules");
  test::write_file(dir.file("rules/site.toml"), rules);
  run_husk("extract --extractor xpath --sites " + dir.file("rules") + " " + docs + " -o " + dir.file("tuned.jsonl") +
           " 2>/dev/null");
  double f1 = f1_of(dir.file("rest.json"), dir.file("tuned.jsonl"));
  std::printf("%s: rules tuned on 5 pages score F1 %.4f on the other %zu\n%s", site.name, f1, rest.size(), rules.c_str());
  EXPECT_GE(f1, 0.98) << site.name << "\n" << tuned.out;
}

TEST(TemplateDocs, TuneOnFivePagesGeneralisesToTheSite) {
  for (const DocSite& site : kSites) expect_tuned_rules_generalise(site);
  for (const DocSite& site : kUntunedSites) expect_tuned_rules_generalise(site);
}

}  // namespace
}  // namespace husk

namespace husk {
namespace {

TEST(TuneCli, ProposesTheContentContainerOfAMadeUpSite) {
  test::TempDir dir;
  std::string site = std::string(HUSK_SOURCE_DIR) + "/fixtures/sites/garden";
  auto gold = nlohmann::json::parse(test::read_file(site + "/gold.json"));
  nlohmann::json labelled = nlohmann::json::object();
  for (const char* id : {"post1", "post3", "post5"}) labelled[id] = gold[id];
  test::write_file(dir.file("labelled.json"), labelled.dump());
  // The site's pages as a crawl gives them: with their URLs.
  std::string pages;
  for (int i = 1; i <= 6; ++i)
    pages += nlohmann::json({{"id", "post" + std::to_string(i)},
                             {"url", "https://shop.example/blog/post" + std::to_string(i) + ".html"},
                             {"html", test::read_file(site + "/post" + std::to_string(i) + ".html")}})
                 .dump() + "\n";
  test::write_file(dir.file("pages.jsonl"), pages);
  fs::create_directories(dir.path() / "none");
  test::CommandResult r = test::run_husk("tune --site shop.example --sites " + dir.file("none") + " --gold " +
                                         dir.file("labelled.json") + " --write " + dir.file("rule.toml") + " " +
                                         dir.file("pages.jsonl"));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("6 pages, 3 labelled"), std::string::npos) << r.out;
  // The default extraction's score beside the proposal's, in-sample and on
  // pages each rule was not proposed from.
  const std::regex default_score(R"(no rule \(husk's default extraction\): )"
                                  R"(precision [01]\.\d{4}  recall [01]\.\d{4}  F1 [01]\.\d{4})");
  EXPECT_TRUE(std::regex_search(r.out, default_score)) << r.out;
  EXPECT_NE(r.out.find("proposed: precision 1.0000  recall 1.0000  F1 1.0000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("each page scored by the rule proposed from the others: F1 1.0000"), std::string::npos) << r.out;
  std::string rule = test::read_file(dir.file("rule.toml"));
  EXPECT_NE(rule.find("[[rule]]\nhost = \"shop.example\"\nmatch = \"^https?://[^/]+\\\\/blog\\\\/\"\n"),
            std::string::npos)
      << rule;
  EXPECT_EQ(rule.find(HUSK_SOURCE_DIR), std::string::npos) << "no local path in a rule";
  EXPECT_NE(rule.find("include = [\"//div[@class='main']\"]"), std::string::npos) << rule;
  EXPECT_NE(rule.find("exclude = [\"//div[@class='share']\"]"), std::string::npos) << rule;
  // The written rule loads and extracts the unlabelled pages exactly.
  fs::create_directories(dir.path() / "rules");
  fs::copy_file(dir.file("rule.toml"), dir.file("rules/garden.toml"));
  test::write_file(dir.file("gold.json"), gold.dump());
  test::run_husk("extract --sites " + dir.file("rules") + " " + dir.file("pages.jsonl") + " -o " + dir.file("out.jsonl"));
  auto score = nlohmann::json::parse(test::run_husk("eval extract --json --gold " + dir.file("gold.json") + " " + dir.file("out.jsonl")).out);
  EXPECT_DOUBLE_EQ(score["f1"].get<double>(), 1.0);
}

// On pages of several sites no rule beats the default extraction: husk
// tune says so with both figures, writes nothing and exits 1.
TEST(TuneCli, NeverWritesARuleWorseThanNoRule) {
  test::TempDir dir;
  const std::string demo = std::string(HUSK_SOURCE_DIR) + "/fixtures/demo";
  test::CommandResult r = test::run_husk("tune --site news.example --gold " + demo + "/gold.json --write " +
                                         dir.file("rule.toml") + " " + demo);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("no rule (husk's default extraction)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no rule written: the proposal scores F1 0."), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir.file("rule.toml")));
}

}  // namespace
}  // namespace husk
