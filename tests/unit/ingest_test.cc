#include "husk/ingest.h"
#include "unit/test_util.h"
#include "ingest/lines.h"
#include "ingest/warc.h"

namespace husk {
namespace {

using test::TempDir;
using test::gzip;
using test::write_file;

std::vector<RawPage> read_all(const std::vector<std::string>& inputs, IngestStats* stats_out = nullptr) {
  std::vector<RawPage> pages;
  IngestStats stats = ingest(inputs, IngestOptions{}, [&](RawPage&& p) {
    pages.push_back(std::move(p));
    return true;
  });
  if (stats_out) *stats_out = stats;
  return pages;
}

// A WARC record; no Content-Type field when content_type is empty.
std::string warc_record(const std::string& type, const std::string& uri, const std::string& block,
                        const std::string& content_type = "application/http; msgtype=response") {
  return "WARC/1.1\r\nWARC-Type: " + type + "\r\nWARC-Target-URI: " + uri + "\r\nWARC-Record-ID: <urn:uuid:" +
         uri.substr(uri.size() - 1) + ">\r\n" + (content_type.empty() ? "" : "Content-Type: " + content_type + "\r\n") +
         "Content-Length: " + std::to_string(block.size()) + "\r\n\r\n" + block + "\r\n\r\n";
}

// The same records, one gzip member each, as crawlers write .warc.gz.
std::string one_member_per_record(const std::string& warc) {
  std::string members;
  std::size_t pos = 0;
  while (pos < warc.size()) {
    std::size_t next = warc.find("WARC/1.1", pos + 1);
    if (next == std::string::npos) next = warc.size();
    members += gzip(warc.substr(pos, next - pos));
    pos = next;
  }
  return members;
}

std::string http(const std::string& content_type, const std::string& body, const std::string& extra = "") {
  return "HTTP/1.1 200 OK\r\nContent-Type: " + content_type + "\r\n" + extra + "\r\n" + body;
}

TEST(Ingest, DirectoryWalkIsRecursiveSortedAndRelative) {
  TempDir dir;
  write_file(dir.file("b.html"), "<p>b</p>");
  write_file(dir.file("a/z.htm"), "<p>z</p>");
  write_file(dir.file("a/y.html.gz"), gzip("<p>y</p>"));
  write_file(dir.file("notes.txt"), "not a page");
  std::vector<RawPage> pages = read_all({dir.path().string()});
  ASSERT_EQ(pages.size(), 3u);
  EXPECT_EQ(pages[0].id, "a/y.html.gz");
  EXPECT_EQ(pages[0].bytes, "<p>y</p>");
  EXPECT_EQ(pages[1].id, "a/z.htm");
  EXPECT_EQ(pages[2].id, "b.html");
  // However the root is spelled, and a linked page by its own name.
  TempDir elsewhere;
  write_file(elsewhere.file("target.html"), "<p>t</p>");
  std::filesystem::create_symlink(elsewhere.file("target.html"), dir.file("c.html"));
  pages = read_all({dir.path().string() + "/./"});
  ASSERT_EQ(pages.size(), 4u);
  EXPECT_EQ(pages[1].id, "a/z.htm");
  EXPECT_EQ(pages[3].id, "c.html");
  EXPECT_EQ(pages[3].bytes, "<p>t</p>");
}

// Pages of several reads (zlib hands a page on 256 KB at a time) come
// whole, compressed or not; one over the page limit is its own error, and
// the pages beside it are read.
TEST(Ingest, LongPagesComeWholeAndOneOverTheLimitIsItsError) {
  TempDir dir;
  std::string long_page;
  for (int i = 0; long_page.size() < 700000; ++i) long_page += "<p>paragraph " + std::to_string(i) + "</p>\n";
  write_file(dir.file("a.html.gz"), gzip(long_page));
  write_file(dir.file("b.html"), long_page);
  write_file(dir.file("c.html.gz"), gzip(long_page + long_page));
  write_file(dir.file("d.html"), "<p>fine</p>");
  IngestOptions options;
  options.max_page_bytes = 1000000;
  std::vector<RawPage> pages;
  ingest({dir.path().string()}, options, [&](RawPage&& p) {
    pages.push_back(std::move(p));
    return true;
  });
  ASSERT_EQ(pages.size(), 4u);
  EXPECT_TRUE(pages[0].status.ok()) << pages[0].status.to_string();
  EXPECT_TRUE(pages[0].bytes == long_page) << pages[0].bytes.size() << " bytes of " << long_page.size();
  EXPECT_TRUE(pages[1].bytes == long_page) << pages[1].bytes.size() << " bytes of " << long_page.size();
  EXPECT_NE(pages[2].status.to_string().find("larger than the limit of 1000000 bytes"), std::string::npos)
      << pages[2].status.to_string();
  EXPECT_TRUE(pages[2].bytes.empty());
  EXPECT_EQ(pages[3].bytes, "<p>fine</p>");
}

TEST(Ingest, TruncatedGzipIsAPageErrorAndNeighboursSurvive) {
  TempDir dir;
  std::string gz = gzip(std::string(50000, 'x'));
  write_file(dir.file("a.html.gz"), gz.substr(0, gz.size() / 2));
  write_file(dir.file("b.html"), "<p>fine</p>");
  std::vector<RawPage> pages = read_all({dir.path().string()});
  ASSERT_EQ(pages.size(), 2u);
  EXPECT_NE(pages[0].status.to_string().find("truncated gzip"), std::string::npos) << pages[0].status.to_string();
  EXPECT_TRUE(pages[1].status.ok());
  EXPECT_EQ(pages[1].bytes, "<p>fine</p>");
}

// zlib's own message opens with the file's name; the error names it once.
TEST(Ingest, ABrokenGzipHeaderNamesTheFileOnce) {
  TempDir dir;
  write_file(dir.file("c.html.gz"), std::string("\x1f\x8b\x08", 3) + "garbage after the magic");
  std::vector<RawPage> pages = read_all({dir.file("c.html.gz")});
  ASSERT_EQ(pages.size(), 1u);
  const std::string said = pages[0].status.message();
  EXPECT_EQ(said, dir.file("c.html.gz") + ": unknown header flags set") << said;
}

TEST(Ingest, MissingInputIsReportedNotFatal) {
  TempDir dir;
  write_file(dir.file("a.html"), "<p>a</p>");
  IngestStats stats;
  std::vector<RawPage> pages = read_all({dir.file("nope.html"), dir.file("a.html")}, &stats);
  EXPECT_EQ(pages.size(), 1u);
  ASSERT_EQ(stats.input_errors.size(), 1u);
  EXPECT_NE(stats.input_errors[0].message().find("nope.html"), std::string::npos);
}

TEST(Ingest, WarcKeepsHtmlResponsesOnly) {
  std::string warc = warc_record("warcinfo", "urn:x0", "software: test", "application/warc-fields") +
                     warc_record("request", "http://e.com/1", "GET / HTTP/1.1\r\n\r\n", "application/http; msgtype=request") +
                     warc_record("response", "http://e.com/1", http("text/html; charset=windows-1251", "<p>\xcf\xf0\xe8\xe2\xe5\xf2</p>")) +
                     warc_record("response", "http://e.com/2", http("image/png", "\x89PNG")) +
                     warc_record("response", "http://e.com/3",
                                 http("text/html", "5\r\n<p>ch\r\n6\r\nunked!\r\n0\r\n\r\n", "Transfer-Encoding: chunked\r\n"));
  TempDir dir;
  write_file(dir.file("c.warc"), warc);
  write_file(dir.file("c.warc.gz"), one_member_per_record(warc));
  for (const char* name : {"c.warc", "c.warc.gz"}) {
    IngestStats stats;
    std::vector<RawPage> pages = read_all({dir.file(name)}, &stats);
    ASSERT_EQ(pages.size(), 2u) << name;
    EXPECT_EQ(pages[0].url, "http://e.com/1");
    EXPECT_EQ(pages[0].id, "urn:uuid:1");
    EXPECT_EQ(pages[0].content_type, "text/html; charset=windows-1251");
    EXPECT_EQ(pages[0].bytes, "<p>\xcf\xf0\xe8\xe2\xe5\xf2</p>");
    EXPECT_EQ(pages[1].bytes, "<p>chunked!");
    EXPECT_EQ(stats.skipped, 3u);
  }
  // Through the whole pipeline the HTTP charset applies.
  test::CommandResult r = test::run_husk("extract --extractor fulltext " + dir.file("c.warc.gz"));
  EXPECT_NE(r.out.find("\"text\":\"Привет\""), std::string::npos) << r.out;
}

TEST(Ingest, TruncatedWarcRecordIsAnErrorAfterIntactRecords) {
  std::string good = warc_record("response", "http://e.com/1", http("text/html", "<p>one</p>"));
  std::string cut = warc_record("response", "http://e.com/2", http("text/html", std::string(5000, 'x')));
  TempDir dir;
  write_file(dir.file("t.warc.gz"), gzip(good) + gzip(cut.substr(0, 2000)));
  std::vector<RawPage> pages = read_all({dir.file("t.warc.gz")});
  ASSERT_EQ(pages.size(), 2u);
  EXPECT_EQ(pages[0].bytes, "<p>one</p>");
  EXPECT_NE(pages[1].status.to_string().find("truncated WARC record"), std::string::npos) << pages[1].status.to_string();
  EXPECT_EQ(pages[1].url, "http://e.com/2");
}

// A Content-Length that cannot be read (none, not a number, negative, past
// 64 bits) leaves the block's end unknown: that record is an error and
// reading resumes at the next version line, plain or one gzip member per
// record. It once ended the file there, losing every record after it.
TEST(Ingest, AnUnreadableContentLengthCostsOnlyItsRecord) {
  for (const std::string length : {"abc", "", "-5", "99999999999999999999", "12x"}) {
    std::string bad = warc_record("response", "http://e.com/2", http("text/html", "<p>two</p>"));
    const std::size_t at = bad.find("Content-Length: ");
    const std::size_t eol = bad.find("\r\n", at);
    bad.replace(at, eol + 2 - at, length.empty() ? "" : "Content-Length: " + length + "\r\n");
    const std::string warc = warc_record("response", "http://e.com/1", http("text/html", "<p>one</p>")) + bad +
                             warc_record("response", "http://e.com/3", http("text/html", "<p>three</p>")) +
                             warc_record("response", "http://e.com/4", http("text/html", "<p>four</p>"));
    TempDir dir;
    write_file(dir.file("l.warc"), warc);
    write_file(dir.file("l.warc.gz"), one_member_per_record(warc));
    for (const char* name : {"l.warc", "l.warc.gz"}) {
      std::vector<RawPage> pages = read_all({dir.file(name)});
      ASSERT_EQ(pages.size(), 4u) << name << " " << length;
      EXPECT_EQ(pages[0].bytes, "<p>one</p>");
      EXPECT_EQ(pages[1].url, "http://e.com/2");
      EXPECT_NE(pages[1].status.message().find("without a valid Content-Length"), std::string::npos)
          << pages[1].status.message();
      EXPECT_NE(pages[1].status.message().find("resynchronised at byte"), std::string::npos) << length;
      EXPECT_EQ(pages[2].bytes, "<p>three</p>") << name << " " << length;
      EXPECT_EQ(pages[3].bytes, "<p>four</p>") << name << " " << length;
    }
  }
}

// A response record whose WARC header names no Content-Type holds the HTTP
// answer as it came; such records were skipped without a word, so a file of
// them gave nothing. One whose Content-Type names another format (a DNS
// lookup) is still no page.
TEST(Ingest, AResponseWithoutAContentTypeIsReadAsHttp) {
  const std::string warc = warc_record("response", "http://e.com/1", http("text/html", "<p>one</p>"), "") +
                           warc_record("response", "dns:e.com", "20261130 e.com. 300 IN A 10.0.0.1", "text/dns") +
                           warc_record("response", "http://e.com/2", "<p>no HTTP header</p>", "");
  TempDir dir;
  write_file(dir.file("n.warc"), warc);
  IngestStats stats;
  std::vector<RawPage> pages = read_all({dir.file("n.warc")}, &stats);
  ASSERT_EQ(pages.size(), 2u);
  EXPECT_EQ(pages[0].bytes, "<p>one</p>");
  EXPECT_EQ(pages[1].url, "http://e.com/2");
  EXPECT_EQ(pages[1].status.message(), "not an HTTP response");
  EXPECT_EQ(stats.skipped, 1u);
}

TEST(Ingest, GzipContentEncodingIsUndone) {
  auto r = parse_http_response(http("text/html", gzip("<p>zipped</p>"), "Content-Encoding: gzip\r\n"), 1 << 20);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(r->body, "<p>zipped</p>");
}

TEST(Ingest, JsonlLinesWithBadLinesReported) {
  TempDir dir;
  write_file(dir.file("p.jsonl"),
             "{\"url\":\"http://e.com/a\",\"html\":\"<p>a</p>\"}\n"
             "not json\n"
             "\n"
             "{\"id\":\"mine\",\"url\":\"http://e.com/b\",\"html\":\"<p>b \\u00e9</p>\"}\n"
             "{\"url\":\"http://e.com/c\"}\n");
  std::vector<RawPage> pages = read_all({dir.file("p.jsonl")});
  ASSERT_EQ(pages.size(), 4u);
  EXPECT_EQ(pages[0].url, "http://e.com/a");
  EXPECT_TRUE(pages[0].is_unicode);
  EXPECT_NE(pages[1].status.to_string().find("not a JSON object"), std::string::npos);
  EXPECT_EQ(pages[2].id, "mine");
  EXPECT_EQ(pages[2].bytes, "<p>b \xc3\xa9</p>");
  EXPECT_NE(pages[3].status.to_string().find("html"), std::string::npos);
}

// json_depth walks without recursion; its twin recurses.
std::size_t depth_recursive(const nlohmann::json& j) {
  std::size_t below = 0;
  if (j.is_structured())
    for (const nlohmann::json& child : j) below = std::max(below, depth_recursive(child));
  return below + 1;
}

TEST(JsonLines, DepthMatchesARecursiveWalkAndBoundsRecords) {
  for (const char* text : {"1", "[]", "{}", "[[1]]", R"({"a":[1,{"b":[[]]}],"c":2})", R"([{"x":{}},[[[[3]]]],4])",
                           R"({"sig":{"minhash":["00","01"]},"text":"t"})"}) {
    const nlohmann::json j = nlohmann::json::parse(text);
    EXPECT_EQ(json_depth(j), depth_recursive(j)) << text;
  }
  EXPECT_EQ(json_depth(nlohmann::json::parse("[[1]]")), 3u);
  auto line = [](const std::string& text) { return Line{"f.jsonl:7", 7, text, Status()}; };
  auto nested = [](std::size_t levels) {  // an object holding arrays: `levels` deep in all
    return "{\"a\":" + std::string(levels - 1, '[') + std::string(levels - 1, ']') + "}";
  };
  EXPECT_TRUE(json_object(line(nested(kMaxJsonDepth))).ok());
  Result<nlohmann::json> deep = json_object(line(nested(kMaxJsonDepth + 1)));
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.status().message(), "f.jsonl:7: nested deeper than 64 levels");
  EXPECT_FALSE(json_object(line(nested(200000))).ok());
}

}  // namespace
}  // namespace husk
