// Inputs that once aborted husk (../shared/repro/cli), each through the
// command that aborted on it: now a clear error naming the file, line and
// field, and exit 1 (or a per-record error with the other records intact).
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "unit/test_util.h"

namespace husk {
namespace {

struct ReproCase {
  const char* name;
  const char* command;  // REPRO stands for ../shared/repro/cli
  int exit_code;
  std::vector<const char*> says;  // what the output (stdout and stderr) must contain
};

void PrintTo(const ReproCase& c, std::ostream* os) { *os << c.name; }

const ReproCase kReproCases[] = {
    {"dedup_lexrand_nonnumeric", "dedup --method lexrand REPRO/dedup-lexrand-nonnumeric.jsonl", 1,
     {"dedup-lexrand-nonnumeric.jsonl:1:", "sig.lexrand is malformed"}},
    {"dedup_lexrand_overflow", "dedup --method lexrand REPRO/dedup-lexrand-overflow.jsonl", 1,
     {"dedup-lexrand-overflow.jsonl:1:", "sig.lexrand is malformed"}},
    {"dedup_title_array", "dedup REPRO/dedup-title-array.jsonl", 1,
     {"dedup-title-array.jsonl:1:", "\"title\" must be a string"}},
    {"dedup_url_number", "dedup REPRO/dedup-url-number.jsonl", 1,
     {"dedup-url-number.jsonl:1:", "\"url\" must be a string"}},
    {"idf_documents_abc", "sign --idf REPRO/idf-documents-abc.idf REPRO/sign-input.jsonl", 1,
     {"idf-documents-abc.idf:2:", "documents", "\"abc\""}},
    {"idf_documents_empty", "sign --idf REPRO/idf-documents-empty.idf REPRO/sign-input.jsonl", 1,
     {"idf-documents-empty.idf:2:", "documents"}},
    {"idf_documents_overflow", "sign --idf REPRO/idf-documents-overflow.idf REPRO/sign-input.jsonl", 1,
     {"idf-documents-overflow.idf:2:", "documents"}},
    {"eval_extract_id_number", "eval extract --gold REPRO/eval-extract-gold.json REPRO/eval-extract-id-number.jsonl", 1,
     {"eval-extract-id-number.jsonl:1:", "\"id\" must be a string"}},
    {"dedup_supershingles_20000", "dedup --method supershingles REPRO/dedup-supershingles20000.jsonl", 1,
     {"dedup-supershingles20000.jsonl:1:", "sig.supershingles holds 20000 values; at most 64 are read"}},
    {"eval_dedup_variant_number",
     "eval dedup --gold REPRO/eval-dedup-gold-variant-number.jsonl REPRO/eval-dedup-clusters.jsonl", 1,
     {"eval-dedup-gold-variant-number.jsonl:1:", "\"variant\" must be a string"}},
};

class Repro : public ::testing::TestWithParam<ReproCase> {};

TEST_P(Repro, ClearErrorAndExitOne) {
  const ReproCase& c = GetParam();
  std::string dir = test::repro("cli");
  if (dir.empty()) GTEST_SKIP() << "../shared/repro is absent";
  std::string command = c.command;
  for (std::size_t at; (at = command.find("REPRO")) != std::string::npos;) command.replace(at, 5, dir);
  test::CommandResult r = test::run_husk(command + " 2>&1");
  EXPECT_EQ(r.exit_code, c.exit_code) << r.out;
  for (const char* said : c.says) EXPECT_NE(r.out.find(said), std::string::npos) << "missing \"" << said << "\" in\n" << r.out;
}

INSTANTIATE_TEST_SUITE_P(Cli, Repro, ::testing::ValuesIn(kReproCases),
                         [](const ::testing::TestParamInfo<ReproCase>& info) { return std::string(info.param.name); });

// A gzip-encoded WARC record that inflates to 1 GiB: reported as that
// record's error within the page limit (64 MiB), in well under a second,
// its neighbours extracted.
TEST(Repro, WarcGzipBombIsARecordErrorAndItsNeighboursStay) {
  std::string dir = test::repro("cli");
  if (dir.empty()) GTEST_SKIP() << "../shared/repro is absent";
  auto start = std::chrono::steady_clock::now();
  test::CommandResult r = test::run_husk("extract " + dir + "/warc_bomb1g.warc 2>/dev/null");
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_LT(secs, 5.0);
  std::vector<std::string> records = test::lines(r.out);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_NE(records[0].find("Harbour warehouses"), std::string::npos);
  EXPECT_NE(records[1].find("inflates beyond the page limit"), std::string::npos) << records[1];
  EXPECT_NE(records[2].find("Harbour warehouses"), std::string::npos);
}

// One element with 100,000 attributes (the reproducer), and one with
// 1,000,000 under site rules, which keep every attribute for their XPaths:
// bounded by the prescan's attribute limit, each page takes well under a
// second and says what it dropped.
TEST(Repro, AnElementWithAMillionAttributesIsBounded) {
  std::string dir = test::repro("cli");
  if (dir.empty()) GTEST_SKIP() << "../shared/repro is absent";
  test::TempDir tmp;
  std::string million = "<html><body><div";
  for (int i = 0; i < 1000000; ++i) million += " a" + std::to_string(i) + "=x";
  million += ">text after the attributes</div></body></html>";
  test::write_file(tmp.file("million.html"), million);
  auto start = std::chrono::steady_clock::now();
  test::CommandResult a = test::run_husk("extract " + dir + "/attrs100000.html 2>/dev/null");
  test::CommandResult b = test::run_husk("extract --extractor fulltext --sites " + std::string(HUSK_SOURCE_DIR) +
                                         "/config/sites " + tmp.file("million.html") + " 2>/dev/null");
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(secs, 5.0);
  EXPECT_NE(a.out.find("The council voted on Tuesday"), std::string::npos);
  auto j = nlohmann::json::parse(b.out);
  EXPECT_EQ(j["text"], "text after the attributes");
  EXPECT_NE(j["warnings"].dump().find("999744 attributes beyond 256 per element"), std::string::npos) << j.dump();
}

TEST(Repro, HookAnswersABadLineAndGoesOn) {
  std::string dir = test::repro("cli");
  if (dir.empty()) GTEST_SKIP() << "../shared/repro is absent";
  test::TempDir tmp;
  std::string in = test::read_file(dir + "/hook-url-number.jsonl") +
                   nlohmann::json({{"url", "https://ok.example/"}, {"html", "<p>one two three four five</p>"}}).dump() +
                   "\n";
  test::write_file(tmp.file("in.jsonl"), in);
  test::CommandResult r = test::run_husk("hook --db " + tmp.file("db") + " < " + tmp.file("in.jsonl"));
  EXPECT_EQ(r.exit_code, 0);
  std::vector<std::string> lines = test::lines(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_NE(nlohmann::json::parse(lines[0])["error"].get<std::string>().find("\"url\" must be a string"), std::string::npos)
      << lines[0];
  auto good = nlohmann::json::parse(lines[1]);
  EXPECT_EQ(good["url"], "https://ok.example/");
  EXPECT_FALSE(good.contains("error")) << lines[1];
}

TEST(Repro, SignReportsABadLineOfAFileWhoseNameIsNotUtf8) {
  std::string dir = test::repro("cli");
  if (dir.empty()) GTEST_SKIP() << "../shared/repro is absent";
  test::TempDir tmp;
  const std::string name = tmp.file("bad\xff.jsonl");
  test::write_file(name, test::read_file(dir + "/sign-nonutf8-name.jsonl.bin"));
  test::CommandResult r = test::run_husk("sign '" + name + "' 2>/dev/null");
  EXPECT_EQ(r.exit_code, 0);
  std::vector<std::string> lines = test::lines(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_NE(lines[0].find("\"sig\":{"), std::string::npos) << lines[0];
  auto bad = nlohmann::json::parse(lines[1]);
  EXPECT_NE(bad["error"].get<std::string>().find("not a JSON object"), std::string::npos);
  EXPECT_TRUE(bad["sig"].is_null());
}

// dedup-shared-shingle.py: short pages sharing one 5-word phrase filled one
// band bucket, and candidates grew as N^2 (40,000 pages: 396 s, 4.3 GB).
// Pages of few shingles are keyed by their whole sketch alone: 200,000 of
// them, one copy planted, within --memory in seconds, and the copy found.
TEST(Repro, ShortPagesSharingOnePhraseStayLinear) {
  std::string dir = test::repro("");
  if (dir.empty()) GTEST_SKIP() << "../shared/repro is absent";
  test::TempDir tmp;
  ASSERT_EQ(test::run_command("python3 " + dir + "/dedup-shared-shingle.py 200000 > " + tmp.file("in.jsonl")).exit_code, 0);
  test::write_file(tmp.file("copy.jsonl"), "{\"id\": \"copy\", \"text\": \"w7 x7 y z common words here\"}\n");
  auto start = std::chrono::steady_clock::now();
  test::CommandResult r = test::run_command("/usr/bin/time -f %M -o " + tmp.file("peak") + " " + HUSK_BINARY +
                                            " dedup --memory 256M " + tmp.file("in.jsonl") + " " + tmp.file("copy.jsonl") +
                                            " 2>/dev/null");
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_LT(secs, 60.0);
  if (!test::kSanitized) {
    EXPECT_LT(std::atol(test::read_file(tmp.file("peak")).c_str()), 256L * 1024);
  }
  std::vector<std::string> lines = test::lines(r.out);
  ASSERT_EQ(lines.size(), 1u) << r.out.substr(0, 500);
  EXPECT_EQ(nlohmann::json::parse(lines[0])["members"], nlohmann::json({"7", "copy"}));
}

// Revisit records (a wget --warc-dedup crawl, a hand-made WARC) were
// dropped without a word: the wget file gave 0 records. Each is now reported
// with what it revisits; the responses around it are extracted as before.
TEST(Repro, RevisitRecordsAreReported) {
  std::string dir = test::repro("cli");
  if (dir.empty()) GTEST_SKIP() << "../shared/repro is absent";
  test::CommandResult r = test::run_husk("extract " + dir + "/warc-revisit.warc 2>/dev/null");
  EXPECT_EQ(r.exit_code, 0);
  std::vector<std::string> lines = test::lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_FALSE(nlohmann::json::parse(lines[0]).contains("error"));
  EXPECT_EQ(nlohmann::json::parse(lines[1])["error"],
            "unsupported: revisit record of http://example.org/1: a page captured before, not extracted");
  EXPECT_FALSE(nlohmann::json::parse(lines[2]).contains("error"));
  r = test::run_husk("extract " + dir + "/wget-dedup-revisit.warc.gz 2>/dev/null");
  lines = test::lines(r.out);
  ASSERT_FALSE(lines.empty());
  for (const std::string& line : lines)
    EXPECT_NE(nlohmann::json::parse(line).value("error", "").find("revisit record of urn:uuid:"), std::string::npos)
        << line;
}

// A record whose Content-Length lies lost every record after it (exit 0).
// Reading now resynchronises at the next version line: 40 bytes short, all
// five pages come back beside one error; 100 bytes long, the record whose
// start the lying one swallowed is the only page lost.
TEST(Repro, ALyingContentLengthCostsAtMostOneNeighbour) {
  std::string dir = test::repro("cli");
  if (dir.empty()) GTEST_SKIP() << "../shared/repro is absent";
  for (const auto& [file, pages] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"warc-content-length-short.warc", {"1", "2", "3", "4", "5"}},
           {"warc-content-length-long.warc", {"1", "2", "4", "5"}}}) {
    test::CommandResult r = test::run_husk("extract " + dir + "/" + file + " 2>/dev/null");
    EXPECT_EQ(r.exit_code, 0);
    std::vector<std::string> got;
    std::size_t errors = 0;
    for (const std::string& line : test::lines(r.out)) {
      auto j = nlohmann::json::parse(line);
      if (j.contains("error")) {
        ++errors;
        EXPECT_NE(j["error"].get<std::string>().find("resynchronised at byte"), std::string::npos) << line;
      } else {
        got.push_back(j["url"].get<std::string>().substr(std::string("http://example.org/").size()));
      }
    }
    EXPECT_EQ(got, pages) << file;
    EXPECT_EQ(errors, 1u) << file;
  }
}

// warc-content-length-invalid.warc: a Content-Length of "abc" ended the
// file at that record (records 3-4 lost, exit 0); warc-no-http-content-type:
// response records without a Content-Type were skipped without a word, so
// the good page and the truncated one both vanished.
TEST(Repro, AnUnreadableLengthOrAMissingTypeLosesNoRecord) {
  std::string dir = test::repro("cli");
  if (dir.empty()) GTEST_SKIP() << "../shared/repro is absent";
  test::CommandResult r = test::run_husk("extract " + dir + "/warc-content-length-invalid.warc 2>/dev/null");
  EXPECT_EQ(r.exit_code, 0);
  std::vector<std::string> lines = test::lines(r.out);
  ASSERT_EQ(lines.size(), 4u) << r.out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto j = nlohmann::json::parse(lines[i]);
    EXPECT_EQ(j["url"], "http://ex.com/" + std::to_string(i + 1));
    if (i == 1)
      EXPECT_NE(j.value("error", "").find("without a valid Content-Length (\"abc\"); resynchronised"),
                std::string::npos)
          << lines[i];
    else
      EXPECT_FALSE(j.contains("error")) << lines[i];
  }
  r = test::run_husk("extract " + dir + "/warc-no-http-content-type.warc 2>/dev/null");
  lines = test::lines(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_NE(nlohmann::json::parse(lines[0]).value("text", "").find("good text words here"), std::string::npos);
  EXPECT_NE(nlohmann::json::parse(lines[1]).value("error", "").find("truncated WARC record"), std::string::npos)
      << lines[1];
}

// db-verify-creates-empty-index.sh: husk db on a directory without an
// index reported an empty one (and created it); now it says so and exits 1,
// writing nothing.
TEST(Repro, DbOnADirectoryWithoutAnIndexSaysSo) {
  test::TempDir tmp;
  std::filesystem::create_directories(tmp.path() / "empty");
  test::write_file(tmp.file("partial/data.mdb.partial"), "half a compaction");
  for (const char* action : {"verify", "stats", "export"})
    for (const char* where : {"empty", "partial"}) {
      test::CommandResult r = test::run_husk(std::string("db ") + action + " --db " + tmp.file(where) + " 2>&1");
      EXPECT_EQ(r.exit_code, 1) << action << " " << where;
      EXPECT_NE(r.out.find("no index in"), std::string::npos) << r.out;
      EXPECT_FALSE(std::filesystem::exists(tmp.path() / where / "data.mdb")) << action << " " << where;
    }
}

// db-truncated-data-mdb.sh: a data.mdb cut short was mapped past its end
// (SIGBUS in verify, hook and serve), one cut to 0 bytes was taken for a
// new, empty index, and a record with flipped bytes was exported and
// served as invalid JSON. Now the first two are refused at open, naming
// the file, by every command; the damaged record is reported and left out.
TEST(Repro, ADamagedIndexIsRefusedOrReportedNeverMapped) {
  test::TempDir tmp;
  std::string pages;
  for (int i = 0; i < 40; ++i)
    pages += nlohmann::json({{"url", "http://d.example/" + std::to_string(i)},
                             {"html", "<html><body><article><p>Harbour report number " + std::to_string(i) +
                                          ": the ferry ran late again while the council argued about the "
                                          "pier, its budget and the season's timetable " +
                                          std::string(static_cast<std::size_t>(i) * 40, 'x') + "</p></article></body></html>"}})
                 .dump() + "\n";
  test::write_file(tmp.file("pages.jsonl"), pages);
  ASSERT_EQ(test::run_husk("hook --db " + tmp.file("db") + " < " + tmp.file("pages.jsonl") + " > /dev/null").exit_code, 0);
  namespace fs = std::filesystem;
  const auto length = fs::file_size(tmp.path() / "db" / "data.mdb");
  auto damaged = [&](const std::string& name, auto&& damage) {
    fs::copy(tmp.path() / "db", tmp.path() / name, fs::copy_options::recursive);
    damage(tmp.path() / name / "data.mdb");
    return tmp.file(name);
  };
  const std::string half = damaged("half", [&](const fs::path& f) { fs::resize_file(f, length / 2 / 4096 * 4096); });
  const std::string zero = damaged("zero", [&](const fs::path& f) { fs::resize_file(f, 0); });
  for (const auto& [db, says] : {std::pair{half, "is truncated: "}, std::pair{zero, "is empty: not an index"}}) {
    for (const std::string command : {"db verify", "db stats", "db export", "hook"}) {
      test::CommandResult r = test::run_husk(command + " --db " + db + " < " + tmp.file("pages.jsonl") + " 2>&1");
      EXPECT_EQ(r.exit_code, 1) << command << " on " << db << ": " << r.out;
      EXPECT_NE(r.out.find(db + "/data.mdb " + says), std::string::npos) << command << ": " << r.out;
    }
  }
  // One record's text with a control byte in it: no longer JSON.
  EXPECT_EQ(fs::file_size(fs::path(zero) / "data.mdb"), 0u) << "left as it was";
  const std::string flipped = damaged("flipped", [&](const fs::path& f) {
    std::string bytes = test::read_file(f.string());
    const std::size_t at = bytes.find("Harbour report number 7:");
    ASSERT_NE(at, std::string::npos);
    bytes[at + 3] = '\x01';
    test::write_file(f.string(), bytes);
  });
  test::CommandResult verify = test::run_husk("db verify --db " + flipped + " 2>&1");
  EXPECT_EQ(verify.exit_code, 1) << verify.out;
  EXPECT_NE(verify.out.find("record is not JSON"), std::string::npos) << verify.out;
  test::CommandResult exported = test::run_husk("db export --db " + flipped + " 2>" + tmp.file("err"));
  EXPECT_EQ(exported.exit_code, 1);
  EXPECT_NE(test::read_file(tmp.file("err")).find("1 damaged record(s) left out"), std::string::npos);
  std::size_t lines = 0;
  for (std::string_view rest = exported.out; !rest.empty(); ++lines) {
    const std::size_t end = rest.find('\n');
    EXPECT_TRUE(nlohmann::json::accept(rest.substr(0, end)));
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
  }
  EXPECT_EQ(lines, 39u) << "every other record exported";
}

// extract-timeout-depends-on-jobs.sh: --page-timeout counted wall-clock
// time, so 8 copies of one 18 MB page all extracted with -j1 and all timed
// out with -j8 on two cores. The budget is now the page's CPU time.
TEST(Repro, APagesBudgetDoesNotDependOnJobs) {
  std::string dir = test::repro("");
  if (dir.empty()) GTEST_SKIP() << "../shared/repro is absent";
  if (test::kThreadSanitized) GTEST_SKIP() << "under ThreadSanitizer a thread's CPU time holds the runtime's work too";
  test::TempDir tmp;
  test::CommandResult r = test::run_command("cd " + tmp.file("") + " && sh " + dir +
                                            "/extract-timeout-depends-on-jobs.sh " + HUSK_BINARY + " 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("-j1: 0 of 8 pages timed out"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("-j8: 0 of 8 pages timed out"), std::string::npos) << r.out;
  EXPECT_EQ(test::read_file(tmp.file("out-j1.jsonl")), test::read_file(tmp.file("out-j8.jsonl")));
}

}  // namespace
}  // namespace husk
