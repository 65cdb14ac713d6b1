// Hostile inputs among good pages: each gives an error or an empty text,
// never a crash or hang, and every good neighbour's output is intact.
#include <chrono>
#include <nlohmann/json.hpp>
#include <random>

#include "unit/test_util.h"

namespace husk {
namespace {

using test::TempDir;
using test::write_file;

std::string good_page(const std::string& tag) {
  std::string p;
  for (int i = 0; i < 50; ++i) p += tag + std::to_string(i) + " ";
  return "<html><body><article><p>" + p + "</p></article></body></html>";
}

TEST(Hostile, BadPagesNeverHurtTheirNeighbours) {
  TempDir dir;
  std::mt19937 rng(42);
  std::string junk(200000, '\0');
  for (char& c : junk) c = static_cast<char>(rng());
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "<div>";
  deep += "deep bottom text";
  std::string big = "<html><body>";
  while (big.size() < 50u << 20) big += "<div class=row><p>filler words in a very large page</p></div>\n";
  std::string text_node = "<html><body><p>" + std::string(10u << 20, 'a') + "</p></body></html>";
  std::string gz = test::gzip(good_page("lost"));

  const std::vector<std::pair<std::string, std::string>> bad = {
      {"b01-empty.html", ""},
      {"b02-junk.html", junk},
      {"b03-truncated.html.gz", gz.substr(0, gz.size() / 2)},
      {"b04-deep.html", deep},
      {"b05-50mb.html", big},
      {"b06-textnode.html", text_node},
      {"b07-bad-utf8.html",
       // A UTF-8 page (its accented letters are valid UTF-8, more of them than the bad bytes) with
       // bytes that are not: those become U+FFFD, the rest is kept.
       "<meta charset=utf-8><h1>A note from Zo\xC3\xAB</h1><p>Na\xC3\xAFve caf\xC3\xA9s, d\xC3\xA9j\xC3\xA0 vu at "
       "No\xC3\xABl: the bytes of this sentence are valid \xF0\x28\x8C\x28 then "
       "\xC0\xAF more, and the paragraph goes on long enough to be read as the page's text: it tells how a "
       "decoder replaces what is not UTF-8 and keeps everything else as it was written.</p>"},
      {"b08-unknown-charset.html", "<meta charset=\"klingon-8\"><p>text under an unknown charset label</p>"},
      {"b09-truncated.warc", "WARC/1.0\r\nWARC-Type: response\r\nContent-Type: application/http\r\nContent-Length: 9999\r\n\r\nHTTP/1.1 200"},
  };
  std::vector<std::string> names;
  for (std::size_t i = 0; i < bad.size(); ++i) {
    std::string good = test::token("g", i) + ".html";
    write_file(dir.file(good), good_page("good" + std::to_string(i) + "w"));
    write_file(dir.file(bad[i].first), bad[i].second);
  }
  auto start = std::chrono::steady_clock::now();
  test::CommandResult r = test::run_husk("extract --jobs 2 " + dir.path().string());
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_LT(secs, 60.0) << "hostile pages must not hang the run";
  std::map<std::string, nlohmann::json> by_id;
  for (const std::string& line : test::lines(r.out)) {
    auto j = nlohmann::json::parse(line);
    by_id[j["id"].get<std::string>()] = j;
  }
  for (std::size_t i = 0; i < bad.size(); ++i) {
    const nlohmann::json& g = by_id[test::token("g", i) + ".html"];
    EXPECT_NE(g.value("text", "").find("good" + std::to_string(i) + "w49"), std::string::npos) << "neighbour " << i;
    EXPECT_FALSE(g.contains("error"));
  }
  EXPECT_TRUE(by_id["b01-empty.html"].contains("error"));
  EXPECT_NE(by_id["b03-truncated.html.gz"].value("error", "").find("truncated gzip"), std::string::npos);
  EXPECT_NE(by_id["b04-deep.html"].value("text", "").find("deep bottom text"), std::string::npos);
  EXPECT_TRUE(by_id["b04-deep.html"].contains("warnings"));
  EXPECT_NE(by_id["b07-bad-utf8.html"].value("text", "").find("valid \xEF\xBF\xBD"), std::string::npos);
  EXPECT_NE(by_id["b08-unknown-charset.html"].value("text", "").find("unknown charset label"), std::string::npos);
  bool warc_error = false;
  for (auto& [id, j] : by_id)
    if (id.find("b09-truncated.warc") != std::string::npos && j.value("error", "").find("truncated WARC") != std::string::npos)
      warc_error = true;
  EXPECT_TRUE(warc_error);
  EXPECT_TRUE(by_id.count("b02-junk.html"));
  EXPECT_TRUE(by_id.count("b05-50mb.html"));
  EXPECT_TRUE(by_id.count("b06-textnode.html"));
}

// The structure and metadata paths under hostile markup: deep nesting of
// lists, inline markup and JSON-LD, and thousands of images, with every
// output asked for. Each page comes back, in bounded time.
TEST(Hostile, StructureAndMetadataStayBounded) {
  std::string lists = "<html><body>";
  for (int i = 0; i < 50000; ++i) lists += "<ul><li>item " + std::to_string(i);
  std::string spans = "<html><body><p>";
  for (int i = 0; i < 100000; ++i) spans += "<b><i><a href=\"/x\">w";
  std::string json_ld = "<html><head><script type=\"application/ld+json\">{\"@type\":\"Article\",\"author\":" +
                        std::string(300000, '[') + std::string(300000, ']') + "}</script></head><body><p>text after the script</p></body></html>";
  std::string images = "<html><body>";
  for (int i = 0; i < 100000; ++i) images += "<img src=\"/i" + std::to_string(i) + ".png\" alt=\"a|b*c\">";
  images += "<p>caption</p></body></html>";
  std::string tables = "<html><body>";
  for (int i = 0; i < 2000; ++i) tables += "<table><tr><td>c" + std::to_string(i);
  // Titles of 200,000 parts: parting them took time quadratic in the parts.
  std::string title = "<html><head><title>";
  for (int i = 0; i < 200000; ++i) title += "ab - ";
  title += "</title><meta property=\"og:title\" content=\"";
  for (int i = 0; i < 200000; ++i) title += "\xE4\xB8\xAD-";  // 中-
  title += "\"></head><body><h1>ab</h1><p>x</p></body></html>";
  ProcessorOptions options;
  options.markdown = options.html = options.comments = true;
  options.format.links = options.format.images = true;
  Result<Processor> processor = Processor::make(options);
  ASSERT_TRUE(processor.ok());
  for (const std::string* page : {&lists, &spans, &json_ld, &images, &tables, &title}) {
    auto start = std::chrono::steady_clock::now();
    PageResult r = processor->process("https://h.example/p", *page);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(secs, 20.0);
    EXPECT_NE(r.status.code(), Code::kInternal) << r.status.to_string();
  }
  PageResult after = processor->process("https://h.example/q", json_ld);
  EXPECT_NE(after.text.find("text after the script"), std::string::npos);
}

}  // namespace
}  // namespace husk

namespace husk {
namespace {

// Inputs the fuzzer found crashing once (fixtures/fuzz); under the
// sanitizer build they are the regression corpus, here they must at least
// come back as a page result.
TEST(Hostile, FuzzRegressionsRunClean) {
  std::size_t seen = 0;
  const ProcessorOptions defaults;
  Result<Processor> pipeline = Processor::make(defaults);
  ASSERT_TRUE(pipeline.ok());
  for (const auto& entry : std::filesystem::directory_iterator(std::string(HUSK_SOURCE_DIR) + "/fixtures/fuzz")) {
    RawPage page;
    page.id = entry.path().filename().string();
    page.bytes = test::read_file(entry.path().string());
    PageResult r = pipeline->process(page);
    EXPECT_EQ(r.id, page.id);
    EXPECT_NE(r.status.code(), Code::kInternal) << page.id << ": " << r.status.to_string();
    ++seen;
  }
  EXPECT_GE(seen, 1u);
}

}  // namespace
}  // namespace husk
