// The documents against what the commands print: a figure a command can
// produce is checked against that command, so the docs cannot drift.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "base/text_util.h"
#include "unit/test_util.h"

namespace husk {
namespace {

// README.md and every document of docs/, as paths under the source tree.
std::vector<std::string> documents() {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(HUSK_SOURCE_DIR) + "/docs"))
    if (entry.path().extension() == ".md") out.push_back("docs/" + entry.path().filename().string());
  std::sort(out.begin(), out.end());
  out.insert(out.begin(), "README.md");
  return out;
}

std::string three_decimals(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", x);
  return buf;
}

// `husk eval dedup --compare` of signed pages on the near-duplicate dev
// pairs: method -> {precision, recall, F1}.
std::map<std::string, std::vector<double>> compared(const std::string& pairs, const std::string& signed_pages) {
  std::map<std::string, std::vector<double>> out;
  test::CommandResult compare =
      test::run_husk("eval dedup --compare --gold " + pairs + "/pairs.jsonl " + signed_pages + " 2>/dev/null");
  EXPECT_EQ(compare.exit_code, 0);
  std::istringstream lines(compare.out);
  std::string line;
  std::getline(lines, line);  // the header
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string method, setting;
    double precision = 0, recall = 0, f1 = 0;
    if (fields >> method >> setting >> precision >> recall >> f1) out[method] = {precision, recall, f1};
  }
  return out;
}

// docs/evaluation.md's method table is what `husk eval dedup --compare`
// prints on the near-duplicate dev pairs (precision, recall, F1 to three
// decimals), and the notes under it are what the same pages give with
// numbers masked and with collection statistics.
TEST(Docs, TheDedupMethodTableIsWhatEvalDedupComparePrints) {
  const std::string pairs = test::dataset("near-dup-html-pairs");
  if (pairs.empty()) GTEST_SKIP() << "no near-dup-html-pairs";
  test::TempDir dir;
  const std::string pages = dir.file("pages.jsonl");
  ASSERT_EQ(test::run_husk("extract -j2 " + pairs + "/html -o " + pages + " 2>/dev/null").exit_code, 0);
  ASSERT_EQ(test::run_husk("sign " + pages + " -o " + dir.file("signed.jsonl") + " 2>/dev/null").exit_code, 0);
  const auto scores = compared(pairs, dir.file("signed.jsonl"));
  const std::string doc = test::read_file(std::string(HUSK_SOURCE_DIR) + "/docs/evaluation.md");
  const auto documented = test::table_after(doc, "| method (default setting) | precision | recall | F1 |");
  ASSERT_EQ(documented.size(), 11u);
  std::size_t checked = 0;
  for (const auto& [method, figures] : scores) {
    auto row = documented.find(method);
    ASSERT_NE(row, documented.end()) << method << " is printed but not in docs/evaluation.md";
    ASSERT_EQ(row->second.size(), 3u) << method;
    EXPECT_EQ(row->second[0], three_decimals(figures[0])) << method << " precision";
    EXPECT_EQ(row->second[1], three_decimals(figures[1])) << method << " recall";
    EXPECT_EQ(row->second[2], three_decimals(figures[2])) << method << " F1";
    ++checked;
  }
  EXPECT_EQ(checked, documented.size());
  // husk sign --normalize numbers=mask, and signatures with an IDF file.
  ASSERT_EQ(test::run_husk("sign --normalize numbers=mask " + pages + " -o " + dir.file("masked.jsonl") + " 2>/dev/null")
                .exit_code,
            0);
  const auto masked = compared(pairs, dir.file("masked.jsonl"));
  ASSERT_EQ(test::run_husk("idf build " + pages + " -o " + dir.file("corpus.idf") + " 2>/dev/null").exit_code, 0);
  ASSERT_EQ(test::run_husk("sign --idf " + dir.file("corpus.idf") + " " + pages + " -o " + dir.file("idf.jsonl") +
                           " 2>/dev/null")
                .exit_code,
            0);
  const auto with_idf = compared(pairs, dir.file("idf.jsonl"));
  ASSERT_TRUE(masked.count("md5") && masked.count("minhash") && with_idf.count("simhash"));
  for (const std::string& phrase :
       {"md5 " + three_decimals(scores.at("md5")[2]) + " → " + three_decimals(masked.at("md5")[2]),
        "(" + three_decimals(masked.at("minhash")[2]) + " masked)",
        "simhash k = 6 reaches F1 " + three_decimals(with_idf.at("simhash")[2])})
    EXPECT_TRUE(test::says(doc, phrase)) << "docs/evaluation.md does not say: " << phrase;
}

// docs/cli.md's frame-line table, cell by cell, from the commands above
// it: the constructed same-site pages and the near-duplicate dev set's
// pages with their URLs, whole and extracted, under each setting.
TEST(Docs, TheFrameLineTableIsWhatDedupScores) {
  const std::string datasets = test::dataset("");
  const std::string pairs = test::dataset("near-dup-html-pairs");
  if (pairs.empty() || test::dataset("article-extraction-benchmark").empty()) GTEST_SKIP() << "no datasets";
  test::TempDir dir;
  const std::string cases = dir.file("cases"), script = std::string(HUSK_SOURCE_DIR) + "/tests/bench/dedup_dev_cases.py";
  ASSERT_EQ(test::run_command("python3 " + script + " " + datasets + " " + cases).exit_code, 0);
  ASSERT_EQ(test::run_husk("extract --extractor fulltext " + cases + "/near-dup-pages.jsonl -o " + cases +
                           "/full.jsonl 2>/dev/null").exit_code, 0);
  ASSERT_EQ(test::run_husk("extract " + cases + "/near-dup-pages.jsonl -o " + cases + "/clean.jsonl 2>/dev/null").exit_code, 0);
  ASSERT_EQ(test::run_command("python3 " + script + " --frames " + datasets + " " + cases).exit_code, 0);
  auto score = [&](const std::string& input, const std::string& gold, const std::string& options) {
    EXPECT_EQ(test::run_husk("dedup " + options + " " + cases + "/" + input + " -o " + dir.file("c.jsonl") +
                             " 2>/dev/null").exit_code, 0);
    return nlohmann::json::parse(test::run_husk("eval dedup --json --gold " + gold + " " + dir.file("c.jsonl")).out);
  };
  const auto documented = test::table_after(test::read_file(std::string(HUSK_SOURCE_DIR) + "/docs/cli.md"),
                                            "| frame lines | frames F1 | frames precision | full F1 | clean F1 |");
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"off:", "--host-lines 0"}, {"defaults:", ""}, {"low:", "--host-lines 3 --host-share 0"}};
  ASSERT_EQ(documented.size(), rows.size());
  for (const auto& [name, options] : rows) {
    auto row = documented.find(name);
    ASSERT_NE(row, documented.end()) << name;
    ASSERT_EQ(row->second.size(), 4u) << name;
    auto frames = score("frames.jsonl", cases + "/frames-gold.jsonl", options);
    EXPECT_EQ(row->second[0], three_decimals(frames["f1"].get<double>())) << name << ": frames F1";
    EXPECT_EQ(row->second[1], three_decimals(frames["precision"].get<double>())) << name << ": frames precision";
    EXPECT_EQ(row->second[2], three_decimals(score("full.jsonl", pairs + "/pairs.jsonl", options)["f1"].get<double>()))
        << name << ": full F1";
    EXPECT_EQ(row->second[3], three_decimals(score("clean.jsonl", pairs + "/pairs.jsonl", options)["f1"].get<double>()))
        << name << ": clean F1";
  }
}

// The first ```sh block after a README section's opening words; "" when
// there is none.
std::string readme_block(const std::string& section_start) {
  const std::string readme = test::read_file(std::string(HUSK_SOURCE_DIR) + "/README.md");
  const std::size_t section = readme.find(section_start);
  const std::size_t begin = section == std::string::npos ? section : readme.find("```sh\n", section);
  if (begin == std::string::npos) return "";
  return readme.substr(begin + 6, readme.find("```", begin + 6) - begin - 6);
}

// README's quick start for a data team runs as written, from a directory
// where build/ and fixtures/ are the tree's, and finds the planted copy.
TEST(Docs, TheDataTeamQuickStartRunsAsWritten) {
  const std::string block = readme_block("**A data team");
  ASSERT_FALSE(block.empty());
  if (test::run_command("command -v mpirun >/dev/null").exit_code != 0) {
    test::missing("mpirun");
    GTEST_SKIP() << "no mpirun";
  }
  test::TempDir dir;
  test::write_file(dir.file("quick.sh"), "set -e\n" + block);
  const std::string cd = "cd " + dir.path().string() + " && ln -s " + HUSK_BUILD_DIR + " build && ln -s " +
                         HUSK_SOURCE_DIR + "/fixtures fixtures && ";
  test::CommandResult run = test::run_command(
      cd + "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 bash quick.sh 2>&1");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const std::string clusters = test::read_file(dir.file("clusters.jsonl"));
  EXPECT_NE(clusters.find("\"members\":[\"en-news-syndicated.html\",\"en-news.html\"]"), std::string::npos)
      << clusters;
  EXPECT_EQ(test::read_file(dir.file("clusters-mpi.jsonl")), clusters);
}

// docs/cli.md's containment table: the default's row and the old
// default's, as husk eval dedup prints them on the constructed reuse set.
TEST(Docs, TheContainmentTableIsWhatEvalDedupPrints) {
  const std::string datasets = test::dataset("");
  if (datasets.empty()) GTEST_SKIP() << "../shared/datasets is absent";
  test::TempDir dir;
  ASSERT_EQ(test::run_command("python3 " + std::string(HUSK_SOURCE_DIR) + "/tests/bench/dedup_dev_cases.py " +
                              datasets + " " + dir.file("cases"))
                .exit_code,
            0);
  const std::string docs = test::read_file(std::string(HUSK_SOURCE_DIR) + "/docs/cli.md");
  for (const auto& [threshold, row] : {std::pair<std::string, std::string>{"", "| **0.1** | **"},
                                       std::pair<std::string, std::string>{"--threshold 0.5 ", "| 0.5 (the old default) | "}}) {
    for (const std::string cluster : {"", "--cluster components "}) {
      ASSERT_EQ(test::run_husk("dedup --measure containment " + threshold + cluster + dir.file("cases/revised.jsonl") +
                               " -o " + dir.file("c.jsonl") + " 2>/dev/null")
                    .exit_code,
                0);
      test::CommandResult eval =
          test::run_husk("eval dedup --gold " + dir.file("cases/revised-gold.jsonl") + " " + dir.file("c.jsonl"));
      const std::size_t at = eval.out.find("\nf1");
      ASSERT_NE(at, std::string::npos) << eval.out;
      const std::string f1 = std::to_string(std::stod(eval.out.substr(at + 3)) + 0.0005).substr(0, 5);
      const std::size_t line = docs.find(row);
      ASSERT_NE(line, std::string::npos) << row;
      const std::string cells = docs.substr(line, docs.find('\n', line) - line);
      EXPECT_NE(cells.find(f1), std::string::npos) << threshold << cluster << ": " << f1 << " not in " << cells;
    }
  }
}

// A README quick start's block run as written in `dir`, where build/ and
// fixtures/ are the tree's, with the port it names replaced by a free one
// and `after` appended (stderr to `stderr`: "&1" or "/dev/null").
test::CommandResult run_quick_start(const std::string& section, const std::string& port_written,
                                    const test::TempDir& dir, const std::string& after, const std::string& stderr_to) {
  std::string block = readme_block(section);
  if (block.empty()) return {};
  const std::string port = std::to_string(test::free_port());
  for (std::size_t at; (at = block.find(port_written)) != std::string::npos;) block.replace(at, port_written.size(), port);
  test::write_file(dir.file("quick.sh"), "set -e\n" + block + after);
  return test::run_command("cd " + dir.path().string() + " && ln -s " + HUSK_BUILD_DIR + " build && ln -s " +
                           HUSK_SOURCE_DIR + "/fixtures fixtures && timeout 60 bash quick.sh 2>" + stderr_to);
}

// README's quick start for a site operator runs as written (on a free port
// instead of 8000), writes the rule and extracts the site with it.
TEST(Docs, TheSiteOperatorQuickStartRunsAsWritten) {
  test::TempDir dir;
  test::CommandResult run = run_quick_start("**A site operator.**", "8000", dir, "", "&1");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  // The default's score beside the rule's (whatever the shipped models
  // score on the site: the rule is written when it does at least as well).
  const std::regex default_score(R"(no rule \(husk's default extraction\): )"
                                  R"(precision [01]\.\d{4}  recall [01]\.\d{4}  F1 [01]\.\d{4})");
  EXPECT_TRUE(std::regex_search(run.out, default_score)) << run.out;
  EXPECT_NE(run.out.find("proposed, each page scored by the rule proposed from the others: F1 1.0000"), std::string::npos)
      << run.out;
  const std::string rule = test::read_file(dir.file("sites/garden.toml"));
  EXPECT_NE(rule.find("host = \"127.0.0.1\"\ninclude = [\"//div[@class='main']\"]\nexclude = [\"//div[@class='share']\"]"),
            std::string::npos) << rule;
  std::vector<std::string> pages = test::lines(test::read_file(dir.file("pages.jsonl")));
  ASSERT_EQ(pages.size(), 6u);
  for (const std::string& page : pages) EXPECT_EQ(nlohmann::json::parse(page)["extractor"], "xpath") << page;
}

// README's quick start for a crawler runs as written (on a free port
// instead of 8080): the service answers the page with its record and
// verdict, and the hook answers the piped page.
TEST(Docs, TheCrawlerQuickStartRunsAsWritten) {
  test::TempDir dir;
  test::CommandResult run = run_quick_start("**A crawler, page by page.**", "8080", dir, "kill %1\n", "/dev/null");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  // curl prints the service's answer without a line break; the hook's
  // line follows it.
  const std::size_t second = run.out.find("{\"id\"", 1);
  ASSERT_NE(second, std::string::npos) << run.out;
  const std::vector<std::string> answers = {run.out.substr(0, second), run.out.substr(second)};
  auto served = nlohmann::json::parse(answers[0]);
  EXPECT_EQ(served["url"], "https://news.example/a");
  EXPECT_EQ(served["title"], "Harbour warehouses to become a public library");
  EXPECT_TRUE(served.contains("duplicate_of"));
  auto hooked = nlohmann::json::parse(answers[1]);
  EXPECT_EQ(hooked["url"], "https://news.example/a");
  EXPECT_TRUE(hooked.contains("sig"));
}

// Every ```sh block of README.md and docs/ says, on the line before it,
// which tests run it (<!-- runs in: Suite.Test, ... -->, each a test that
// exists) or why none does (<!-- not run: reason -->), so that an example
// nobody runs is a choice written down, not an accident.
TEST(Docs, EveryShellBlockRunsInATestOrSaysWhyNot) {
  std::string sources;
  for (const auto& dir : {"tests/e2e", "tests/unit", "python/tests"})
    for (const auto& entry : std::filesystem::directory_iterator(std::string(HUSK_SOURCE_DIR) + "/" + dir))
      sources += test::read_file(entry.path().string());
  auto test_exists = [&](const std::string& name) {
    const std::size_t dot = name.find('.');
    if (dot == std::string::npos) return sources.find("def " + name + "(") != std::string::npos;
    return sources.find("TEST(" + name.substr(0, dot) + ", " + name.substr(dot + 1) + ")") != std::string::npos ||
           sources.find("TEST_F(" + name.substr(0, dot) + ", " + name.substr(dot + 1) + ")") != std::string::npos;
  };
  std::size_t blocks = 0;
  for (const std::string& doc : documents()) {
    std::vector<std::string> lines;
    std::istringstream text(test::read_file(std::string(HUSK_SOURCE_DIR) + "/" + doc));
    for (std::string line; std::getline(text, line);) lines.push_back(line);
    bool inside = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (!lines[i].starts_with("```")) continue;
      inside = !inside;  // a fence opens a block or closes the open one
      if (!inside || lines[i] != "```sh") continue;
      ++blocks;
      const std::string where = doc + ":" + std::to_string(i + 1);
      const std::string before = i > 0 ? lines[i - 1] : "";
      if (before.starts_with("<!-- not run: ") && before.ends_with(" -->") && before.size() > 24) continue;
      ASSERT_TRUE(before.starts_with("<!-- runs in: ") && before.ends_with(" -->"))
          << where << ": a shell block needs <!-- runs in: TEST --> or <!-- not run: why --> on the line before it";
      std::string names = before.substr(14, before.size() - 14 - 4);
      std::size_t checked = 0;
      for (std::size_t at = 0; at < names.size();) {
        std::size_t end = names.find(',', at);
        if (end == std::string::npos) end = names.size();
        const std::string name(trim(std::string_view(names).substr(at, end - at)));
        EXPECT_TRUE(test_exists(name)) << where << ": no test " << name;
        ++checked;
        at = end + 1;
      }
      EXPECT_GT(checked, 0u) << where;
    }
  }
  EXPECT_GE(blocks, 19u);
}

// Whether `prose` holds a measured-looking figure: a decimal number (not
// part of a longer token), a percentage or a ratio ("1.9×").
bool has_figure(const std::string& prose) {
  if (prose.find("×") != std::string::npos) return true;
  auto digit = [&](std::size_t i) { return i < prose.size() && std::isdigit(static_cast<unsigned char>(prose[i])); };
  auto word = [&](std::size_t i) {
    return i < prose.size() && (std::isalnum(static_cast<unsigned char>(prose[i])) || prose[i] == '_' || prose[i] == '.');
  };
  for (std::size_t i = 1; i < prose.size(); ++i) {
    if (prose[i] == '%' && digit(i - 1)) return true;
    if (prose[i] != '.' || !digit(i - 1) || !digit(i + 1)) continue;
    std::size_t begin = i - 1, end = i + 1;
    while (begin > 0 && digit(begin - 1)) --begin;
    while (digit(end)) ++end;
    if ((begin == 0 || !word(begin - 1)) && !word(end)) return true;
  }
  return false;
}

// Every part of README.md and docs/ that states a figure names what
// produced it: a command (`husk ...`, `make ...`, `build/...`,
// `python3 ...`, `mpirun ...`, `tests/...`), a test (`Suite.Name`), a
// shell block (whose marker names the tests that run it), or a
// <!-- figures: source --> line saying where it comes from. A part runs
// from a heading or a paragraph that opens in bold to the next.
TEST(Docs, EveryFigureNamesWhatProducedIt) {
  static const std::regex source(
      R"(`(husk[ _]|build/|make |python3 |mpirun |/usr/bin/time |tests/)|`[A-Z][A-Za-z]+\.[A-Z*][A-Za-z*]*`|<!-- figures: [^ ].{10,}-->|```sh)");
  std::size_t parts_with_figures = 0;
  for (const std::string& doc : documents()) {
    std::istringstream text(test::read_file(std::string(HUSK_SOURCE_DIR) + "/" + doc));
    struct Part {
      std::size_t line = 0;
      std::string whole, prose;  // prose: without the fenced blocks
    };
    std::vector<Part> parts(1, Part{1, "", ""});
    bool inside = false, paragraph_start = true;
    std::size_t number = 0;
    for (std::string line; std::getline(text, line);) {
      ++number;
      if (!inside && (line.starts_with("#") || (paragraph_start && line.starts_with("**")))) parts.push_back({number, "", ""});
      const bool fence = line.starts_with("```");
      if (fence) inside = !inside;
      parts.back().whole += line + "\n";
      if (!inside && !fence) parts.back().prose += line + "\n";
      paragraph_start = !inside && trim(line).empty();
    }
    for (const Part& part : parts) {
      if (!has_figure(part.prose)) continue;
      ++parts_with_figures;
      EXPECT_TRUE(std::regex_search(part.whole, source))
          << doc << ":" << part.line << ": figures without the command, test or <!-- figures: source --> that "
          << "produced them:\n" << part.whole.substr(0, 300);
    }
  }
  EXPECT_GE(parts_with_figures, 30u);
}

// README.md's table of where husk stands repeats figures of docs/, where
// each names its command: every score and range in it (a number with a
// decimal point or a dash; counts of pages are too common to pin this
// way) is one the docs state.
TEST(Docs, TheReadmeStandsOnFiguresTheDocsState) {
  std::string docs;
  for (const std::string& doc : documents())
    if (doc != "README.md") docs += test::read_file(std::string(HUSK_SOURCE_DIR) + "/" + doc);
  const auto rows = test::table_rows_after(test::read_file(std::string(HUSK_SOURCE_DIR) + "/README.md"),
                                           "| | husk | best peer measured beside it |");
  ASSERT_GE(rows.size(), 7u);
  static const std::regex number(R"([0-9]+\.[0-9]+|[0-9]+–[0-9]+)");
  std::size_t checked = 0;
  for (const auto& cells : rows)
    for (const std::string& cell : cells)
      for (std::sregex_iterator it(cell.begin(), cell.end(), number), end; it != end; ++it) {
        const std::string figure = it->str();
        bool stated = false;
        for (std::size_t at = docs.find(figure); at != std::string::npos && !stated; at = docs.find(figure, at + 1)) {
          const std::size_t after = at + figure.size();
          stated = (at == 0 || !std::isdigit(static_cast<unsigned char>(docs[at - 1]))) &&
                   (after == docs.size() || !std::isdigit(static_cast<unsigned char>(docs[after])));
        }
        EXPECT_TRUE(stated) << "README.md states " << figure << " (\"" << cells[0] << "\"), which no document of docs/ does";
        ++checked;
      }
  EXPECT_GE(checked, 12u);
}

}  // namespace
}  // namespace husk
