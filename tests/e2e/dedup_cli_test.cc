// husk dedup and husk eval dedup through the binary, and the dev-set bar:
// raw HTML -> extract -> sign -> dedup with default settings.
#include <algorithm>
#include <cstring>
#include <map>
#include <filesystem>
#include <random>
#include <set>
#include <nlohmann/json.hpp>

#include "husk/ingest.h"
#include "unit/test_util.h"

namespace husk {
namespace {

using test::run_husk;
using test::TempDir;
using test::write_file;

// Four different stories, each in three near-identical versions.
std::string story(int topic, int variant) {
  static const char* kStories[] = {
      "The harbour council met on Tuesday to discuss the new library, which residents have wanted for years. The "
      "mayor said the plan would bring visitors back to the waterfront and give children a place to read.",
      "Climbers reached the northern summit after a week of storms forced them to wait at the high camp. The team "
      "leader thanked the porters and said the descent would begin at dawn on Friday.",
      "The river burst its banks overnight and flooded three villages downstream, where volunteers filled sandbags "
      "until morning. Forecasters expect more rain over the weekend and warn people to stay away.",
      "A small valley vineyard won the national prize for its white wine, beating producers ten times its size. The "
      "owners credit the cold nights and a harvest picked entirely by hand."};
  std::string text = kStories[topic];
  if (variant == 1) text += " Updated at 10:45.";
  if (variant == 2) text = "Breaking: " + text;
  return text;
}

std::string records() {
  std::string out;
  int n = 0;
  const char* names[] = {"Harbour", "Mountain", "River", "Valley"};
  for (int topic = 0; topic < 4; ++topic)
    for (int v = 0; v < 3; ++v) {
      nlohmann::ordered_json j;
      j["id"] = std::string(names[topic]) + "-" + std::to_string(v);
      j["url"] = "http://e.com/" + std::to_string(n++);
      j["title"] = names[topic];
      j["text"] = story(topic, v);
      out += j.dump() + "\n";
    }
  out += "{\"id\":\"unique\",\"text\":\"Something else entirely: a recipe for bread with flour, water, salt and yeast, baked for forty minutes.\"}\n";
  return out;
}

TEST(DedupCli, ClustersFromSignedRecordsAreDeterministic) {
  TempDir dir;
  write_file(dir.file("in.jsonl"), records());
  ASSERT_EQ(run_husk("sign " + dir.file("in.jsonl") + " -o " + dir.file("signed.jsonl") + " 2>/dev/null").exit_code, 0);
  test::CommandResult one = run_husk("dedup --jobs 1 " + dir.file("signed.jsonl") + " 2>/dev/null");
  test::CommandResult four = run_husk("dedup --jobs 4 " + dir.file("signed.jsonl") + " 2>/dev/null");
  EXPECT_EQ(one.exit_code, 0);
  EXPECT_EQ(one.out, four.out);
  std::vector<std::string> lines = test::lines(one.out);
  ASSERT_EQ(lines.size(), 4u) << one.out;
  auto first = nlohmann::ordered_json::parse(lines[0]);
  std::vector<std::string> keys;
  for (auto& [k, v] : first.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"cluster", "size", "main", "members", "urls"}));
  EXPECT_EQ(first["cluster"], 0);
  EXPECT_EQ(first["size"], 3);
  EXPECT_EQ(first["main"], "Harbour-0");
  EXPECT_EQ(first["members"], nlohmann::ordered_json({"Harbour-0", "Harbour-1", "Harbour-2"}));
  // Each member's URL beside its id, in both searches (--report runs the
  // in-memory one), and the measure named in every verified pair.
  EXPECT_EQ(first["urls"], nlohmann::ordered_json({"http://e.com/0", "http://e.com/1", "http://e.com/2"}));
  test::CommandResult reported = run_husk("dedup --report " + dir.file("report") + " --pairs " + dir.file("pairs.jsonl") +
                                          " " + dir.file("signed.jsonl") + " 2>/dev/null");
  EXPECT_EQ(reported.out, one.out);
  auto pair = nlohmann::json::parse(test::lines(test::read_file(dir.file("pairs.jsonl"))).at(0));
  EXPECT_EQ(pair["url_a"], "http://e.com/0");
  EXPECT_EQ(pair["measure"], "jaccard");
  EXPECT_GE(pair["score"].get<double>(), 0.5);
  // Singletons and every method run; the unique page stays alone.
  std::vector<std::string> with = test::lines(run_husk("dedup --singletons " + dir.file("signed.jsonl") + " 2>/dev/null").out);
  EXPECT_EQ(with.size(), 5u);
  for (const char* method : {"simhash", "simhash_hyperplane", "minhash", "supershingles", "spotsigs", "md5", "tfidf",
                             "long_sent", "heavy_sent", "imatch", "lexrand"}) {
    test::CommandResult r = run_husk(std::string("dedup --method ") + method + " " + dir.file("signed.jsonl") + " 2>/dev/null");
    EXPECT_EQ(r.exit_code, 0) << method;
    EXPECT_EQ(r.out.find("unique"), std::string::npos) << method;
  }
}

// The binary signature file: the same clusters as the JSON, for every
// method; a damaged file is an error naming it and the record's offset,
// and the records before the damage still count.
TEST(DedupCli, BinarySignatureFilesGiveTheSameClustersAndReportDamage) {
  TempDir dir;
  write_file(dir.file("in.jsonl"), records());
  ASSERT_EQ(run_husk("sign " + dir.file("in.jsonl") + " -o " + dir.file("signed.jsonl") + " 2>/dev/null").exit_code, 0);
  ASSERT_EQ(run_husk("sign --format binary " + dir.file("in.jsonl") + " -o " + dir.file("signed.hsig") + " 2>/dev/null")
                .exit_code,
            0);
  const std::string bytes = test::read_file(dir.file("signed.hsig"));
  ASSERT_EQ(bytes.substr(0, 8), "HUSKSIG\n");
  EXPECT_LT(bytes.size(), test::read_file(dir.file("signed.jsonl")).size() / 2);
  for (const char* method : {"minhash", "simhash", "spotsigs", "lexrand", "supershingles", "md5"}) {
    auto json = run_husk(std::string("dedup --singletons --method ") + method + " " + dir.file("signed.jsonl") + " 2>/dev/null");
    auto binary = run_husk(std::string("dedup --singletons --method ") + method + " " + dir.file("signed.hsig") + " 2>/dev/null");
    EXPECT_EQ(binary.exit_code, 0) << method;
    EXPECT_EQ(binary.out, json.out) << method;
    if (std::string(method) == "minhash") {
      EXPECT_EQ(test::lines(binary.out).size(), 5u);
    }
  }
  // The third record's first payload byte flipped; then the file cut short.
  uint32_t first = 0, second = 0;
  std::memcpy(&first, bytes.data() + 16, 4);
  std::memcpy(&second, bytes.data() + 16 + 8 + first, 4);
  const std::size_t third = 16 + 8 + first + 8 + second;
  std::string damaged = bytes;
  damaged[third + 4] ^= 0x55;
  write_file(dir.file("damaged.hsig"), damaged);
  auto r = test::run_command(std::string(HUSK_BINARY) + " dedup --singletons " + dir.file("damaged.hsig") + " 2>&1 >" +
                             dir.file("out.jsonl"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find(dir.file("damaged.hsig") + ": offset " + std::to_string(third) + ": checksum mismatch"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(test::lines(test::read_file(dir.file("out.jsonl"))).size(), 1u) << "the two records before the damage";
  write_file(dir.file("short.hsig"), bytes.substr(0, third + 6));
  r = test::run_command(std::string(HUSK_BINARY) + " dedup " + dir.file("short.hsig") + " 2>&1 >/dev/null");
  EXPECT_NE(r.out.find("offset " + std::to_string(third) + ": truncated record"), std::string::npos) << r.out;
  EXPECT_EQ(r.exit_code, 1);
  // Every method fails a damaged file alike (the hash joins and simhash
  // used to exit 0).
  for (const char* method : {"simhash", "spotsigs", "md5"}) {
    r = test::run_command(std::string(HUSK_BINARY) + " dedup --method " + method + " " + dir.file("short.hsig") +
                          " 2>&1 >/dev/null");
    EXPECT_EQ(r.exit_code, 1) << method << ": " << r.out;
  }
  std::string future = bytes;
  future[8] = 9;
  write_file(dir.file("future.hsig"), future);
  r = test::run_command(std::string(HUSK_BINARY) + " dedup " + dir.file("future.hsig") + " 2>&1 >/dev/null");
  EXPECT_NE(r.out.find("signature file version 9, this husk reads version 1"), std::string::npos) << r.out;
}

// The same words under two declared languages (a page and its copy filed
// under another language edition): compared only with --any-language. A
// record that names no language is compared with every page, unless
// --identify-languages gives it its text's language first: in the
// records, in husk sign's JSONL and in its binary file alike.
// Pages dedup reads and extracts itself: one that cannot be read (a WARC
// record whose length is no number) is named with its error, where it was
// only counted among the pages without text; the copies around it cluster.
TEST(DedupCli, APageThatCannotBeReadIsNamed) {
  TempDir dir;
  auto record = [](const std::string& id, const std::string& length, const std::string& body) {
    const std::string http = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + body;
    return "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:" + id +
           ">\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: " +
           (length.empty() ? std::to_string(http.size()) : length) + "\r\n\r\n" + http + "\r\n\r\n";
  };
  std::string story = "<html><body><article>";
  for (int i = 0; i < 6; ++i)
    story += "<p>The harbour library opens in spring after the council voted for it on Tuesday, paragraph " +
             std::to_string(i) + " of the story says.</p>";
  story += "</article></body></html>";
  write_file(dir.file("crawl.warc"), record("1", "", story) + record("2", "abc", story) + record("3", "", story));
  test::CommandResult r = run_husk("dedup " + dir.file("crawl.warc") + " 2>&1 >/dev/null");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("urn:uuid:2: WARC record without a valid Content-Length (\"abc\")"), std::string::npos) << r.out;
  const std::vector<std::string> clusters = test::lines(run_husk("dedup " + dir.file("crawl.warc") + " 2>/dev/null").out);
  ASSERT_EQ(clusters.size(), 1u);
  EXPECT_EQ(nlohmann::json::parse(clusters[0])["members"], nlohmann::json({"urn:uuid:1", "urn:uuid:3"}));
}

TEST(DedupCli, ComparesPagesOnlyWithinALanguage) {
  TempDir dir;
  std::string in;
  for (const char* lang : {"en", "de"}) {
    nlohmann::ordered_json j = {{"id", std::string("page-") + lang}, {"text", story(0, 0)}, {"language", lang}};
    in += j.dump() + "\n";
  }
  nlohmann::ordered_json unlabelled = {{"id", "page-unlabelled"}, {"text", story(0, 1)}};
  in += unlabelled.dump() + "\n";
  write_file(dir.file("in.jsonl"), in);
  // Unlabelled, the copy pairs with both pages, and joins them.
  std::vector<std::string> by_default = test::lines(run_husk("dedup " + dir.file("in.jsonl") + " 2>/dev/null").out);
  ASSERT_EQ(by_default.size(), 1u);
  EXPECT_EQ(nlohmann::json::parse(by_default[0])["size"], 3);
  // Identified, the copy is English by CLD2: it joins the English page only.
  ASSERT_EQ(run_husk("sign --identify-languages " + dir.file("in.jsonl") + " -o " + dir.file("sig.jsonl") + " 2>/dev/null").exit_code, 0);
  ASSERT_EQ(run_husk("sign --identify-languages --format binary " + dir.file("in.jsonl") + " -o " + dir.file("sig.hsig") +
                     " 2>/dev/null").exit_code, 0);
  EXPECT_NE(test::read_file(dir.file("sig.jsonl")).find("\"language\":\"en\",\"sig\":"), std::string::npos);
  for (const std::string& in : {"--identify-languages " + dir.file("in.jsonl"), dir.file("sig.jsonl"), dir.file("sig.hsig")}) {
    std::vector<std::string> within = test::lines(run_husk("dedup " + in + " 2>/dev/null").out);
    ASSERT_EQ(within.size(), 1u) << in;
    EXPECT_EQ(nlohmann::json::parse(within[0])["members"], nlohmann::json({"page-en", "page-unlabelled"})) << in;
  }
  std::vector<std::string> any = test::lines(run_husk("dedup --any-language " + dir.file("in.jsonl") + " 2>/dev/null").out);
  ASSERT_EQ(any.size(), 1u);
  EXPECT_EQ(nlohmann::json::parse(any[0])["size"], 3);
  EXPECT_EQ(run_husk("dedup --any-language --identify-languages " + dir.file("in.jsonl") + " 2>/dev/null").exit_code, 2);
}

// Language tags are kept as given and matched by their primary subtag,
// whatever the input: the records, husk sign's JSONL and its binary file
// give the same clusters (the binary file once kept "en-US" apart from
// "en" while the JSONL reader cut both to "en").
TEST(DedupCli, LanguageTagsWithRegionsMatchOnEveryInput) {
  TempDir dir;
  std::string in;
  for (const char* lang : {"en-US", "en", "EN-gb", "de-AT"}) {
    nlohmann::ordered_json j = {{"id", std::string("page-") + lang}, {"text", story(0, 0)}, {"language", lang}};
    in += j.dump() + "\n";
  }
  write_file(dir.file("in.jsonl"), in);
  ASSERT_EQ(run_husk("sign " + dir.file("in.jsonl") + " -o " + dir.file("signed.jsonl") + " 2>/dev/null").exit_code, 0);
  ASSERT_EQ(run_husk("sign --format binary " + dir.file("in.jsonl") + " -o " + dir.file("signed.hsig") + " 2>/dev/null")
                .exit_code,
            0);
  for (const char* input : {"in.jsonl", "signed.jsonl", "signed.hsig"}) {
    std::vector<std::string> clusters = test::lines(run_husk("dedup " + dir.file(input) + " 2>/dev/null").out);
    ASSERT_EQ(clusters.size(), 1u) << input;
    EXPECT_EQ(nlohmann::json::parse(clusters[0])["members"], nlohmann::json({"page-en-US", "page-en", "page-EN-gb"}))
        << input;
  }
  // The signatures keep the tags as the records gave them.
  for (const std::string& line : test::lines(test::read_file(dir.file("signed.jsonl"))))
    EXPECT_EQ("page-" + nlohmann::json::parse(line)["language"].get<std::string>(),
              nlohmann::json::parse(line)["id"].get<std::string>());
}

TEST(DedupCli, ReportAndPairsAndUsageErrors) {
  TempDir dir;
  write_file(dir.file("in.jsonl"), records());
  // Extract output without signatures is signed on the way.
  test::CommandResult r = run_husk("dedup --method simhash --report " + dir.file("report") + " --pairs " +
                                   dir.file("pairs.jsonl") + " " + dir.file("in.jsonl") + " 2>/dev/null");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* f : {"index.html", "summary.json", "top10.csv", "top10.json", "cluster_sizes.csv", "distances.svg",
                        "distances.csv", "sizes-k-3.svg", "sizes-k-5.svg", "sizes-k-10.svg", "sizes-k-15.svg"})
    EXPECT_TRUE(std::filesystem::exists(dir.file(std::string("report/") + f))) << f;
  EXPECT_NE(test::read_file(dir.file("report/sizes-k-3.svg")).find("<svg"), std::string::npos);
  auto summary = nlohmann::json::parse(test::read_file(dir.file("report/summary.json")));
  EXPECT_EQ(summary["pages"], 13);
  EXPECT_EQ(summary["clusters"], 4);
  std::string top = test::read_file(dir.file("report/top10.csv"));
  EXPECT_NE(top.find("Harbour-0,http://e.com/0,Harbour"), std::string::npos) << top;
  EXPECT_GE(test::lines(test::read_file(dir.file("pairs.jsonl"))).size(), 8u - 2u);  // enough to connect each trio
  EXPECT_EQ(run_husk("dedup --method nope " + dir.file("in.jsonl") + " 2>/dev/null").exit_code, 2);
  EXPECT_EQ(run_husk("dedup --cluster blobs " + dir.file("in.jsonl") + " 2>/dev/null").exit_code, 2);
  EXPECT_EQ(run_husk("dedup " + dir.file("missing.jsonl") + " 2>/dev/null").exit_code, 1);
}

// clusters.html: each cluster's members with their score against the main
// page, and their texts beside the main page's with the paragraphs they
// share and those only one holds marked; headless Chromium renders it (a
// screenshot is kept in build/tests/dedup-report.png).
TEST(DedupCli, TheReportShowsEachClustersMembersScoresAndTexts) {
  TempDir dir;
  const std::string p1 = story(0, 0), p2 = story(1, 0), p3 = story(2, 0);
  std::string in;
  in += nlohmann::json({{"id", "main"}, {"url", "http://e.com/a"}, {"title", "Harbour"}, {"language", "en"},
                        {"text", p1 + "\n\n" + p2 + "\n\n" + p3}}).dump() + "\n";
  in += nlohmann::json({{"id", "copy"}, {"url", "http://e.com/b"}, {"title", "Harbour again"}, {"language", "en"},
                        {"text", p1 + "\n\n" + p2 + "\n\n" + p3 + "\n\nCorrection: an earlier version named the wrong street."}})
            .dump() + "\n";
  in += nlohmann::json({{"id", "other"}, {"text", story(3, 0)}}).dump() + "\n";
  write_file(dir.file("in.jsonl"), in);
  ASSERT_EQ(run_husk("dedup --report " + dir.file("report") + " " + dir.file("in.jsonl") + " 2>/dev/null").exit_code, 0);
  const std::string html = test::read_file(dir.file("report/clusters.html"));
  EXPECT_NE(test::read_file(dir.file("report/index.html")).find("href=\"clusters.html#c1\""), std::string::npos);
  EXPECT_NE(html.find("<section class=\"cluster\" id=\"c1\" data-size=\"2\">"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>main</td><td>http://e.com/a</td><td>Harbour</td><td>en</td><td>main page</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>copy</td><td>http://e.com/b</td><td>Harbour again</td><td>en</td><td>jaccard 0."), std::string::npos);
  EXPECT_EQ(html.find("data-id=\"other\""), std::string::npos) << "a page in no cluster is not listed";
  EXPECT_NE(html.find("<p class=\"differs\">Correction: an earlier version named the wrong street.</p>"), std::string::npos);
  EXPECT_NE(html.find("<p class=\"shared\">" + p2 + "</p>"), std::string::npos);

  if (system("command -v chromium >/dev/null 2>&1") != 0) {
    test::missing("chromium (make deps installs it)");
    GTEST_SKIP() << "chromium is not installed";
  }
  const std::string chromium = "chromium --headless --no-sandbox --disable-gpu --user-data-dir=" + dir.file("profile") + " ";
  test::CommandResult dom = test::run_command(chromium + "--dump-dom file://" + dir.file("report/clusters.html") + " 2>/dev/null");
  ASSERT_EQ(dom.exit_code, 0);
  EXPECT_NE(dom.out.find("<tr class=\"member\" data-id=\"copy\">"), std::string::npos) << dom.out.substr(0, 2000);
  EXPECT_NE(dom.out.find("<p class=\"differs\">Correction"), std::string::npos);
  const std::string png = std::filesystem::path(HUSK_BINARY).parent_path() / "tests" / "dedup-report.png";
  ASSERT_EQ(test::run_command(chromium + "--window-size=1300,1200 --screenshot=" + png + " file://" +
                              dir.file("report/clusters.html") + " >/dev/null 2>&1")
                .exit_code,
            0);
  EXPECT_GT(std::filesystem::file_size(png), 20000u);
}

TEST(DedupCli, EvalDedupAgainstPairsAndClusters) {
  TempDir dir;
  write_file(dir.file("clusters.jsonl"), "{\"cluster\":0,\"size\":3,\"main\":\"a\",\"members\":[\"a.html\",\"b\",\"c\"]}\n");
  write_file(dir.file("pairs.jsonl"), "{\"a\":{\"id\":\"a\"},\"b\":{\"id\":\"b\"},\"label\":1,\"variant\":\"x\"}\n"
                                      "{\"id_a\":\"a\",\"id_b\":\"d\",\"label\":1}\n"
                                      "{\"id_a\":\"b\",\"id_b\":\"c\",\"label\":0}\n");
  auto j = nlohmann::json::parse(run_husk("eval dedup --json --gold " + dir.file("pairs.jsonl") + " " + dir.file("clusters.jsonl")).out);
  EXPECT_EQ(j["tp"], 1);
  EXPECT_EQ(j["fn"], 1);
  EXPECT_EQ(j["fp"], 1);
  EXPECT_DOUBLE_EQ(j["precision"].get<double>(), 0.5);
  write_file(dir.file("gold_clusters.jsonl"), "{\"members\":[\"a\",\"b\"]}\n{\"members\":[\"c\",\"d\"]}\n");
  auto c = nlohmann::json::parse(run_husk("eval dedup --json --gold " + dir.file("gold_clusters.jsonl") + " " + dir.file("clusters.jsonl")).out);
  EXPECT_EQ(c["tp"], 1);            // a-b
  EXPECT_EQ(c["fn"], 1);            // c-d
  EXPECT_EQ(c["fp"], 2);            // a-c, b-c
  EXPECT_DOUBLE_EQ(c["url_recall"].get<double>(), 0.75);  // a, b, c of a, b, c, d
  EXPECT_DOUBLE_EQ(c["url_precision"].get<double>(), 1.0);
  // Clusters of pages the gold never names (another set's file) are an
  // error, not a score of zero.
  write_file(dir.file("other.jsonl"), "{\"cluster\":0,\"size\":2,\"main\":\"x\",\"members\":[\"x\",\"y\"]}\n");
  test::CommandResult other =
      run_husk("eval dedup --gold " + dir.file("pairs.jsonl") + " " + dir.file("other.jsonl") + " 2>&1");
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_NE(other.out.find("none of the 2 pages of its clusters is named by"), std::string::npos) << other.out;
}

// Cluster lines of `husk dedup` on a JSONL of texts, as member lists.
std::vector<std::vector<std::string>> clusters_of(const std::string& jsonl, const std::string& options,
                                                  const TempDir& dir) {
  write_file(dir.file("texts.jsonl"), jsonl);
  test::CommandResult r = run_husk("dedup " + options + " " + dir.file("texts.jsonl") + " 2>/dev/null");
  EXPECT_EQ(r.exit_code, 0);
  std::vector<std::vector<std::string>> out;
  for (const std::string& line : test::lines(r.out))
    out.push_back(nlohmann::json::parse(line)["members"].get<std::vector<std::string>>());
  return out;
}

std::string text_record(const std::string& id, const std::string& text) {
  return nlohmann::json({{"id", id}, {"text", text}}).dump() + "\n";
}

// Data sheets of one layout that differ only in their figures are not
// near-duplicates; a sheet with one row corrected is. Masking numbers made
// every sheet one cluster (F1 0.404 on this set; README, "Numbers").
TEST(DedupCases, DataSheetsDifferingOnlyInTheirFiguresStayApart) {
  TempDir dir;
  std::mt19937 rng(5);
  auto figure = [&] { return std::to_string(rng() % 1000) + "." + std::to_string(rng() % 10); };
  std::string jsonl;
  for (int sheet = 0; sheet < 30; ++sheet) {
    std::string text = "Weather station " + std::to_string(100 + rng() % 900) + " daily report for the period below\n";
    std::vector<std::string> rows;
    for (int day = 1; day <= 14; ++day)
      rows.push_back("Day " + std::to_string(day) + " Temperature " + figure() + " Humidity " + figure() +
                     " Wind speed " + figure() + " Pressure " + figure() + " Rainfall " + figure());
    std::string body;
    for (const std::string& r : rows) body += r + "\n";
    jsonl += text_record("sheet" + std::to_string(sheet), text + body);
    if (sheet % 3 == 0) {
      rows[4] = "Day 5 Temperature 1.0 Humidity 2.0 Wind speed 3.0 Pressure 4.0 Rainfall 5.0";
      std::string corrected;
      for (const std::string& r : rows) corrected += r + "\n";
      jsonl += text_record("sheet" + std::to_string(sheet) + "-corrected", text + corrected);
    }
  }
  const auto clusters = clusters_of(jsonl, "", dir);
  EXPECT_EQ(clusters.size(), 10u);
  for (const auto& members : clusters) {
    ASSERT_EQ(members.size(), 2u);
    EXPECT_EQ(members[1], members[0] + "-corrected");
  }
  // Masked, the figures no longer tell the sheets apart.
  test::CommandResult signed_masked = run_husk("sign --normalize numbers=mask " + dir.file("texts.jsonl") + " -o " +
                                               dir.file("masked.jsonl") + " 2>/dev/null");
  ASSERT_EQ(signed_masked.exit_code, 0);
  test::CommandResult r = run_husk("dedup " + dir.file("masked.jsonl") + " 2>/dev/null");
  ASSERT_EQ(test::lines(r.out).size(), 1u) << r.out;
}

// A text of a few words carries too little to be told from another by
// resemblance: two paywall prompts sharing 3 of their 5 shingles
// (Jaccard 0.6) are not duplicates; the very same prompt twice is.
TEST(DedupCases, FewShinglesMatchOnlyTheSameShingles) {
  TempDir dir;
  const std::string jsonl = text_record("a", "Subscribe now to read the full story today") +
                            text_record("b", "Subscribe now to read the full story tomorrow") +
                            text_record("c", "Subscribe now to read the full story today");
  auto clusters = clusters_of(jsonl, "", dir);
  ASSERT_EQ(clusters.size(), 1u);
  EXPECT_EQ(clusters[0], (std::vector<std::string>{"a", "c"}));
}

// n words "<tag><number>", each followed by a space.
std::string random_words(std::mt19937& rng, int n, const std::string& tag) {
  std::string out;
  for (int i = 0; i < n; ++i) out += tag + std::to_string(rng() % 100000) + " ";
  return out;
}

// Clusters chain: b resembles a and c, a and c do not resemble each other.
// Connected components, the default, put all three together; max-degree
// puts every member beside a centre it was verified against.
TEST(DedupCases, ComponentsChainThroughAMiddlePageDegreeDoesNot) {
  TempDir dir;
  std::mt19937 rng(9);
  auto words = [&](int n, const std::string& tag) { return random_words(rng, n, tag); };
  const std::string x = words(60, "x"), y = words(60, "y"), z = words(60, "z");
  const std::string jsonl = text_record("a", x + y) + text_record("b", x + y + z) + text_record("c", y + z) +
                            text_record("d", words(100, "w") + x) + text_record("e", y + z + words(300, "v"));
  auto components = clusters_of(jsonl, "", dir);  // the default: components
  ASSERT_EQ(components.size(), 1u);
  EXPECT_EQ(components[0].size(), 3u);  // a, b, c through b
  // With --cluster degree every member is within the threshold of its
  // main page.
  write_file(dir.file("texts.jsonl"), jsonl);
  ASSERT_EQ(run_husk("dedup --cluster degree --pairs " + dir.file("pairs.jsonl") + " " + dir.file("texts.jsonl") + " -o " +
                     dir.file("clusters.jsonl") + " 2>/dev/null").exit_code, 0);
  std::set<std::pair<std::string, std::string>> verified;
  for (const std::string& line : test::lines(test::read_file(dir.file("pairs.jsonl")))) {
    auto p = nlohmann::json::parse(line);
    const std::string a = p["a"], b = p["b"];
    verified.insert({a, b});
    verified.insert({b, a});
  }
  EXPECT_EQ(verified.count({"a", "c"}), 0u);
  for (const std::string& line : test::lines(test::read_file(dir.file("clusters.jsonl")))) {
    auto c = nlohmann::json::parse(line);
    for (const std::string m : c["members"])
      if (m != c["main"]) {
        EXPECT_EQ(verified.count({c["main"].get<std::string>(), m}), 1u) << line;
      }
  }
}

// A site's frame (navigation, footer, notices) around different items does
// not make its pages near-duplicates: the lines a host repeats in most of
// its pages leave the texts before signing (--host-lines). Copies of one
// story that fill a host still cluster: a text that would lose every line
// is kept whole.
TEST(DedupCases, PagesOfOneSiteAroundDifferentItemsStayApart) {
  TempDir dir;
  std::mt19937 rng(4);
  auto words = [&](int n, const std::string& tag) { return random_words(rng, n, tag); };
  std::string frame_top, frame_bottom;
  for (int l = 0; l < 20; ++l) frame_top += "Menu " + words(5, "nav") + "\n";
  for (int l = 0; l < 20; ++l) frame_bottom += "Footer " + words(5, "foot") + " updated " + std::to_string(l + 1) + ":00\n";
  const std::string story = words(80, "story");
  std::string jsonl;
  for (int p = 0; p < 12; ++p) {
    nlohmann::json shop = {{"id", "shop" + std::to_string(p)},
                           {"url", "https://shop.example/item/" + std::to_string(p)},
                           {"text", frame_top + words(25, "item") + "\n" + frame_bottom}};
    std::string copy = story;
    copy.replace(copy.find("story"), 5, "tale");
    nlohmann::json news = {{"id", "news" + std::to_string(p)},
                           {"url", "https://news.example/a?session=" + std::to_string(p)},
                           {"text", copy}};
    jsonl += shop.dump() + "\n" + news.dump() + "\n";
  }
  auto by_default = clusters_of(jsonl, "", dir);
  ASSERT_EQ(by_default.size(), 1u);
  EXPECT_EQ(by_default[0].size(), 12u);
  EXPECT_EQ(by_default[0][0].rfind("news", 0), 0u);
  // Without the host's statistics the frame makes the shop's pages one cluster.
  auto without = clusters_of(jsonl, "--host-lines 0", dir);
  ASSERT_EQ(without.size(), 2u);
  // The in-memory engine (containment) alike.
  EXPECT_EQ(clusters_of(jsonl, "--measure containment", dir).size(), 1u);
}

// Text reuse: a short piece quoting a third of a long article has a low
// Jaccard similarity with it (0.25 here) and a containment near 1;
// --measure containment finds it and says which text is contained.
TEST(DedupCases, ContainmentFindsAPassageCopiedIntoAShortPiece) {
  TempDir dir;
  std::mt19937 rng(13);
  auto words = [&](int n, const std::string& tag) {
    std::string out;
    for (int i = 0; i < n; ++i) out += tag + std::to_string(rng() % 100000) + (i % 12 == 11 ? ".\n" : " ");
    return out;
  };
  const std::string before = words(300, "s"), passage = words(200, "s"), after = words(100, "s");
  const std::string jsonl = text_record("source", before + passage + after) +
                            text_record("quote", words(30, "q") + passage + words(20, "q")) +
                            text_record("other", words(400, "o"));
  EXPECT_TRUE(clusters_of(jsonl, "", dir).empty());
  write_file(dir.file("texts.jsonl"), jsonl);
  ASSERT_EQ(run_husk("dedup --measure containment --pairs " + dir.file("pairs.jsonl") + " " + dir.file("texts.jsonl") +
                     " -o " + dir.file("clusters.jsonl") + " 2>/dev/null").exit_code, 0);
  std::vector<std::string> pairs = test::lines(test::read_file(dir.file("pairs.jsonl")));
  ASSERT_EQ(pairs.size(), 1u);
  auto pair = nlohmann::json::parse(pairs[0]);
  EXPECT_EQ(pair["a"], "source");
  EXPECT_EQ(pair["b"], "quote");
  EXPECT_EQ(pair["contained"], "b");
  EXPECT_EQ(pair["measure"], "containment");
  EXPECT_GT(pair["score"].get<double>(), 0.75);
}

TEST(DedupDevSet, RawHtmlToClustersWithDefaults) {
  std::string root = test::dataset("near-dup-html-pairs");
  if (root.empty()) GTEST_SKIP() << "../shared/datasets/near-dup-html-pairs is absent";
  TempDir dir;
  ASSERT_EQ(run_husk("extract " + root + "/html -o " + dir.file("pages.jsonl")).exit_code, 0);
  ASSERT_EQ(run_husk("sign " + dir.file("pages.jsonl") + " -o " + dir.file("signed.jsonl") + " 2>/dev/null").exit_code, 0);
  ASSERT_EQ(run_husk("dedup " + dir.file("signed.jsonl") + " -o " + dir.file("clusters.jsonl") + " 2>/dev/null").exit_code, 0);
  auto score = nlohmann::json::parse(
      run_husk("eval dedup --json --gold " + root + "/pairs.jsonl " + dir.file("clusters.jsonl")).out);
  std::printf("dev set: precision %.4f recall %.4f F1 %.4f\n", score["precision"].get<double>(),
              score["recall"].get<double>(), score["f1"].get<double>());
  EXPECT_GE(score["f1"].get<double>(), 0.97);
  EXPECT_EQ(score["variants"]["full_content_swap"]["clustered"], 0)
      << "a page that kept another article's template must never join that article";
}

// A crawl's clusters are husk dedup's: the near-duplicate dev set fed to
// husk hook one page at a time, in three orders, leaves the clusters in
// the index (husk db export) that husk dedup finds on the same pages in the
// same order, and the same clusters in every order.
TEST(DedupDevSet, TheHookAndHuskDedupGiveTheSameClustersInAnyOrder) {
  std::string root = test::dataset("near-dup-html-pairs");
  if (root.empty()) GTEST_SKIP() << "../shared/datasets/near-dup-html-pairs is absent";
  TempDir dir;
  // Each page's id and its input line.
  std::vector<std::pair<std::string, std::string>> lines;
  ingest({root + "/html"}, IngestOptions{}, [&](RawPage&& page) {
    lines.emplace_back(page.id, nlohmann::json({{"id", page.id}, {"html", page.bytes}})
                                    .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    return true;
  });
  ASSERT_EQ(lines.size(), 1050u);
  // Each page's cluster as a set of ids, singletons left out.
  using Partition = std::set<std::set<std::string>>;
  std::vector<Partition> partitions;
  std::map<std::string, std::string> record_of;
  for (int order = 0; order < 3; ++order) {
    if (order == 1) std::reverse(lines.begin(), lines.end());
    if (order == 2) std::shuffle(lines.begin(), lines.end(), std::mt19937(3));
    std::string in;
    for (const auto& [id, l] : lines) in += l + "\n";
    const std::string o = std::to_string(order);
    write_file(dir.file("in" + o + ".jsonl"), in);
    ASSERT_EQ(run_husk("hook --db " + dir.file("db" + o) + " < " + dir.file("in" + o + ".jsonl") + " > /dev/null").exit_code, 0);
    test::CommandResult exported = run_husk("db export --db " + dir.file("db" + o));
    ASSERT_EQ(exported.exit_code, 0);
    std::map<std::string, std::set<std::string>> online;
    for (const std::string& line : test::lines(exported.out)) {
      auto r = nlohmann::json::parse(line);
      online[r["cluster"].get<std::string>()].insert(r["id"].get<std::string>());
    }
    // The batch side: husk extract's records once (a page's record does
    // not depend on its neighbours), then in this order.
    if (order == 0) {
      ASSERT_EQ(run_husk("extract " + dir.file("in0.jsonl") + " -o " + dir.file("records.jsonl")).exit_code, 0);
      for (const std::string& line : test::lines(test::read_file(dir.file("records.jsonl"))))
        record_of[nlohmann::json::parse(line)["id"].get<std::string>()] = line;
      ASSERT_EQ(record_of.size(), lines.size());
    }
    std::string records;
    for (const auto& [id, l] : lines) records += record_of.at(id) + "\n";
    write_file(dir.file("pages" + o + ".jsonl"), records);
    test::CommandResult batch = run_husk("dedup " + dir.file("pages" + o + ".jsonl") + " 2>/dev/null");
    ASSERT_EQ(batch.exit_code, 0);
    Partition from_batch, from_index;
    std::set<std::string> batch_mains, index_mains;
    for (const std::string& line : test::lines(batch.out)) {
      auto c = nlohmann::json::parse(line);
      auto members = c["members"].get<std::vector<std::string>>();
      from_batch.insert(std::set<std::string>(members.begin(), members.end()));
      batch_mains.insert(c["main"].get<std::string>());
    }
    for (const auto& [cluster, ids] : online)
      if (ids.size() > 1) {
        from_index.insert(ids);
        index_mains.insert(cluster);
      }
    EXPECT_GT(from_batch.size(), 100u);
    EXPECT_EQ(from_index, from_batch) << "order " << order;
    EXPECT_EQ(index_mains, batch_mains) << "order " << order;
    partitions.push_back(std::move(from_batch));
  }
  EXPECT_EQ(partitions[0], partitions[1]);
  EXPECT_EQ(partitions[0], partitions[2]);
}

}  // namespace
}  // namespace husk
