// The CLI contract (README, "Using husk"), checked through the husk binary.
#include <httplib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <map>
#include <set>
#include <thread>

#include "husk/metadata.h"
#include "unit/test_util.h"

namespace husk {
namespace {

using test::run_husk;
using test::TempDir;
using test::write_file;

// A page of one 60-word paragraph of news prose between two words of its
// own ("page7word0" ... "page7word59"), under a two-link menu. Prose: the
// block model rates it far above its threshold (0.94 with the shipped
// models), where a paragraph of made-up tokens sat near it and moved to
// either side with each retrain.
std::string article(int n) {
  const std::string tag = "page" + std::to_string(n);
  const std::string p = tag + "word0 The town council met on Tuesday evening to discuss the bridge over the river, which "
                        "has been closed to traffic since the spring floods damaged its supports. Engineers said the "
                        "repairs would take six months and cost more than the budget allows, so residents on "
                        "the far side face a longer drive until next year, the mayor said. " + tag + "word59";
  return "<html><head><title>Page " + std::to_string(n) + "</title></head><body><nav><a href=/>Home</a> <a href=/x>X</a></nav><article><p>" +
         p + "</p></article></body></html>";
}

TEST(Cli, ExtractWritesOneJsonObjectPerPageInInputOrderForAnyJobs) {
  TempDir dir;
  for (int i = 0; i < 40; ++i) write_file(dir.file("p" + std::string(i < 10 ? "0" : "") + std::to_string(i) + ".html"), article(i));
  std::string one = run_husk("extract --jobs 1 " + dir.path().string()).out;
  std::string four = run_husk("extract --jobs 4 " + dir.path().string()).out;
  EXPECT_EQ(one, four);
  std::vector<std::string> records = test::lines(one);
  ASSERT_EQ(records.size(), 40u);
  // The page's own fields, then every metadata field of husk/metadata.h's list.
  std::vector<std::string> expected_keys{"id",          "url",   "status",    "title",    "text",
                                         "extractor",   "boilerplate", "quality", "page_type", "language",
                                         "language_confidence"};
#define HUSK_METADATA_KEY(member, key, type, json_type, present) expected_keys.push_back(key);
  HUSK_METADATA_FIELDS(HUSK_METADATA_KEY)
#undef HUSK_METADATA_KEY
  for (int i = 0; i < 40; ++i) {
    auto j = nlohmann::ordered_json::parse(records[static_cast<std::size_t>(i)]);
    std::vector<std::string> keys;
    for (auto& [k, v] : j.items()) keys.push_back(k);
    EXPECT_EQ(keys, expected_keys);
    EXPECT_GT(j["boilerplate"].get<double>(), 0.0);  // the nav links
    EXPECT_LT(j["boilerplate"].get<double>(), 0.1);
    EXPECT_EQ(j["title"], "Page " + std::to_string(i));
    EXPECT_EQ(j["extractor"], "learned");
    EXPECT_NE(j["text"].get<std::string>().find("page" + std::to_string(i) + "word59"), std::string::npos);
    EXPECT_EQ(j["text"].get<std::string>().find("Home"), std::string::npos);
  }
}

TEST(Cli, StdinAndOutputFileAndTextFormat) {
  TempDir dir;
  write_file(dir.file("a.html"), article(7));
  test::CommandResult r = run_husk("extract --format text -o " + dir.file("out.txt") + " - < " + dir.file("a.html"));
  EXPECT_EQ(r.exit_code, 0);
  std::string text = test::read_file(dir.file("out.txt"));
  EXPECT_EQ(text.rfind("==> - <==\nPage 7\n\n", 0), 0u) << text;
  EXPECT_NE(text.find("page7word0"), std::string::npos);
}

TEST(Cli, JsonlInputKeepsIdsAndUrls) {
  TempDir dir;
  write_file(dir.file("in.jsonl"), nlohmann::json({{"id", "x1"}, {"url", "http://e.com/"}, {"html", article(3)}}).dump() + "\n");
  auto j = nlohmann::json::parse(run_husk("extract " + dir.file("in.jsonl")).out);
  EXPECT_EQ(j["id"], "x1");
  EXPECT_EQ(j["url"], "http://e.com/");
  // On standard input the format is read from the first bytes: a byte
  // order mark before the first record once made the file one HTML page.
  write_file(dir.file("bom.jsonl"),
             "\xEF\xBB\xBF" + nlohmann::json({{"id", "x1"}, {"html", article(3)}}).dump() + "\r\n" +
                 nlohmann::json({{"id", "x2"}, {"html", article(2)}}).dump() + "\r\n");
  std::vector<std::string> lines = test::lines(run_husk("extract - < " + dir.file("bom.jsonl")).out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(nlohmann::json::parse(lines[0])["id"], "x1");
  EXPECT_EQ(nlohmann::json::parse(lines[1])["id"], "x2");
}

TEST(Cli, ExitCodes) {
  TempDir dir;
  EXPECT_EQ(run_husk("extract " + dir.file("missing.html") + " 2>/dev/null").exit_code, 1);
  EXPECT_EQ(run_husk("extract --extractor nope x.html 2>/dev/null").exit_code, 2);
  EXPECT_EQ(run_husk("extract 2>/dev/null").exit_code, 2);
  write_file(dir.file("a.html"), article(1));
  // One missing input among readable ones: the run succeeds.
  EXPECT_EQ(run_husk("extract " + dir.file("missing.html") + " " + dir.file("a.html") + " 2>/dev/null").exit_code, 0);
}

// Mistakes get one clear message and a failing exit code.
TEST(Cli, MistakesGetOneClearMessage) {
  TempDir dir;
  std::filesystem::create_directory(dir.file("empty"));
  test::CommandResult empty = run_husk("extract " + dir.file("empty") + " 2>&1");
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_NE(empty.out.find("no pages found in " + dir.file("empty")), std::string::npos) << empty.out;
  write_file(dir.file("a.html"), article(1));
  test::CommandResult language = run_husk("extract --languages en,xx " + dir.file("a.html") + " 2>&1");
  EXPECT_EQ(language.exit_code, 2);
  EXPECT_NE(language.out.find("\"xx\" is not a language code"), std::string::npos) << language.out;
  EXPECT_EQ(run_husk("extract --languages en,DE,pt-BR,zh-Hant " + dir.file("a.html") + " 2>/dev/null").exit_code, 0);
  // Pages where records belong: one message, not one per line, and exit 1.
  std::string page;
  for (int i = 0; i < 50; ++i) page += "<p>line " + std::to_string(i) + "</p>\n";
  write_file(dir.file("page.html"), page);
  for (const std::string& command : {std::string("sign"), "idf build -o " + dir.file("x.idf")}) {
    test::CommandResult html = run_husk(command + " " + dir.file("page.html") + " 2>&1 >/dev/null");
    EXPECT_EQ(html.exit_code, 1) << command;
    const std::string said = "this is HTML, not husk extract's records: run husk extract first";
    EXPECT_NE(html.out.find(said), std::string::npos) << html.out;
    EXPECT_EQ(html.out.find(said), html.out.rfind(said)) << html.out;
  }
  // An output that is one of the inputs, by its name or another one, is
  // refused before it is opened: opening it emptied the input unread.
  const std::string records = run_husk("extract " + dir.file("a.html") + " 2>/dev/null").out;
  write_file(dir.file("in.jsonl"), records);
  write_file(dir.file("gold.json"), R"({"a": {"articleBody": "the article"}})");
  for (const std::string& command :
       {"extract " + dir.file("a.html") + " " + dir.file("in.jsonl") + " -o " + dir.file("in.jsonl"),
        "sign " + dir.file("in.jsonl") + " -o " + dir.path().string() + "/./in.jsonl",
        "dedup " + dir.file("in.jsonl") + " -o " + dir.file("in.jsonl"),
        "idf build " + dir.file("in.jsonl") + " -o " + dir.file("in.jsonl"),
        "eval extract --gold " + dir.file("gold.json") + " " + dir.file("in.jsonl") + " --per-page " +
            dir.file("in.jsonl")}) {
    test::CommandResult same = run_husk(command + " 2>&1");
    EXPECT_EQ(same.exit_code, 1) << command;
    EXPECT_NE(same.out.find("is also an input: writing it would empty it before it is read"), std::string::npos)
        << same.out;
    EXPECT_EQ(test::read_file(dir.file("in.jsonl")), records) << command;
  }
}

// An output written inside an input directory is no page of it: the walk
// read the file being written (HTML format: found by its name) as a page
// of its own output.
TEST(Cli, AnOutputInsideAnInputDirectoryIsNoPage) {
  TempDir dir;
  write_file(dir.file("pages/a.html"), article(2));
  for (int run = 0; run < 2; ++run) {
    ASSERT_EQ(run_husk("extract --format html " + dir.file("pages") + " -o " + dir.file("pages/out.html") +
                       " 2>/dev/null")
                  .exit_code,
              0);
    const std::string out = test::read_file(dir.file("pages/out.html"));
    EXPECT_NE(out.find("<!-- husk: a.html"), std::string::npos) << out.substr(0, 300);
    EXPECT_EQ(out.find("<!-- husk: out.html"), std::string::npos) << "run " << run;
  }
}

// A page built to be slow (tens of thousands of blocks for the block model)
// ends with error "timeout" and its neighbours come out whole; without a
// limit it extracts.
TEST(Cli, ASlowPageTimesOutAndItsNeighboursAreIntact) {
  TempDir dir;
  std::string slow = "<html><body>";
  for (int i = 0; i < 60000; ++i)
    slow += "<div class=c" + std::to_string(i % 50) + "><p>river " + std::to_string(i) + " stone <a href=/x" +
            std::to_string(i) + ">gamma</a></p></div>";
  write_file(dir.file("b-slow.html"), slow + "</body></html>");
  write_file(dir.file("a.html"), article(1));
  write_file(dir.file("c.html"), article(2));
  test::CommandResult r = run_husk("extract -j1 --page-timeout 50 " + dir.path().string() + " 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0);
  std::vector<std::string> records = test::lines(r.out);
  ASSERT_EQ(records.size(), 3u);
  nlohmann::json a = nlohmann::json::parse(records[0]), b = nlohmann::json::parse(records[1]),
                 c = nlohmann::json::parse(records[2]);
  EXPECT_EQ(b["id"], "b-slow.html");
  ASSERT_TRUE(b.contains("error")) << records[1].substr(0, 300);
  EXPECT_EQ(b["error"].get<std::string>().rfind("timeout: ", 0), 0u) << b["error"];
  EXPECT_EQ(b["text"], "");
  EXPECT_NE(a["text"].get<std::string>().find("page1word0"), std::string::npos);
  EXPECT_NE(c["text"].get<std::string>().find("page2word0"), std::string::npos);
  test::CommandResult unlimited = run_husk("extract -j1 --page-timeout 0 " + dir.file("b-slow.html") + " 2>/dev/null");
  EXPECT_FALSE(nlohmann::json::parse(unlimited.out).contains("error")) << unlimited.out.substr(0, 300);
}

// A site rule that keeps nothing on a page (its markup changed) does not
// empty the page: the cascade goes on and the warnings say why; where the
// rule matches, it decides.
TEST(Cli, ASiteRuleThatKeepsNothingFallsBackToTheCascade) {
  TempDir dir;
  std::filesystem::create_directory(dir.file("sites"));
  write_file(dir.file("sites/news.toml"),
             "[[rule]]\nhost = \"news.example\"\ninclude = [\"//div[@class='story']\"]\n");
  std::string words;
  for (int i = 0; i < 60; ++i) words += "storyword" + std::to_string(i) + " ";
  const std::string moved = "<html><body><nav><a href=/>Home</a></nav><article><p>" + words + "</p></article></body></html>";
  const std::string pinned = "<html><body><div class=story><p>pinned text only</p></div><article><p>" + words +
                             "</p></article></body></html>";
  write_file(dir.file("in.jsonl"), nlohmann::json({{"url", "https://news.example/a"}, {"html", moved}}).dump() + "\n" +
                                       nlohmann::json({{"url", "https://news.example/b"}, {"html", pinned}}).dump() + "\n");
  std::vector<std::string> out = test::lines(run_husk("extract --sites " + dir.file("sites") + " " + dir.file("in.jsonl")).out);
  ASSERT_EQ(out.size(), 2u);
  nlohmann::json a = nlohmann::json::parse(out[0]), b = nlohmann::json::parse(out[1]);
  EXPECT_NE(a["text"].get<std::string>().find("storyword0"), std::string::npos) << out[0];
  EXPECT_NE(a["extractor"], "xpath");
  EXPECT_NE(a["warnings"].dump().find("keeps nothing on this page"), std::string::npos) << a["warnings"];
  EXPECT_EQ(b["extractor"], "xpath");
  EXPECT_EQ(b["text"], "pinned text only");
}

// --format text names the title once, also when the text opens with it.
TEST(Cli, TextFormatWritesTheTitleOnce) {
  TempDir dir;
  std::string body;
  for (int i = 0; i < 60; ++i) body += "storyword" + std::to_string(i) + " ";
  write_file(dir.file("a.html"), "<html><head><title>The Headline</title></head><body><article><h1>The Headline</h1><p>" +
                                     body + "</p></article></body></html>");
  test::CommandResult r = run_husk("extract --format text " + dir.file("a.html"));
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("The Headline"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("The Headline"), r.out.rfind("The Headline")) << r.out;
}

TEST(Cli, HelpForEveryCommand) {
  for (const char* cmd : {"--help", "extract --help", "sign --help", "idf --help", "idf build --help", "dedup --help",
                          "eval --help", "eval extract --help", "eval dedup --help"}) {
    test::CommandResult r = run_husk(cmd);
    EXPECT_EQ(r.exit_code, 0) << cmd;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << cmd;
  }
}

// `husk` alone shows the commands; a misspelt command is named, with the
// commands there are. Both are usage errors (exit 2).
// --dedup-paragraphs leaves out of later pages the paragraphs earlier ones
// held, in input order whatever --jobs is, and says how many on each page.
TEST(Cli, DedupParagraphsFollowsTheInputOrderForAnyJobs) {
  TempDir dir;
  const std::string notice = "<p>Sign up for our newsletter and get the week's best stories every Friday morning.</p>";
  for (int n = 0; n < 12; ++n) {
    std::string p;
    for (int i = 0; i < 60; ++i) p += "story" + std::to_string(n) + "word" + std::to_string(i) + " ";
    write_file(dir.file("p" + std::to_string(10 + n) + ".html"),
               "<html><body><article><h1>Story " + std::to_string(n) + "</h1><p>" + p + "</p>" + notice +
                   "</article></body></html>");
  }
  test::CommandResult one = run_husk("extract -j1 --dedup-paragraphs 1 " + dir.path().string() + " 2>/dev/null");
  test::CommandResult four = run_husk("extract -j4 --dedup-paragraphs 1 " + dir.path().string() + " 2>/dev/null");
  ASSERT_EQ(one.exit_code, 0);
  EXPECT_EQ(one.out, four.out);
  std::vector<std::string> records = test::lines(one.out);
  ASSERT_EQ(records.size(), 12u);
  for (std::size_t i = 0; i < records.size(); ++i) {
    auto r = nlohmann::json::parse(records[i]);
    const bool has_notice = r["text"].get<std::string>().find("newsletter") != std::string::npos;
    EXPECT_EQ(has_notice, i == 0) << r["text"];
    EXPECT_EQ(r.contains("warnings"), i > 0) << records[i];
  }
  EXPECT_EQ(run_husk("extract --dedup-paragraphs 1 --format markdown " + dir.path().string() + " 2>/dev/null").exit_code, 2);
}

TEST(Cli, NoCommandOrAnUnknownOneShowsTheCommands) {
  test::CommandResult alone = run_husk("2>&1");
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.out.find("Usage: husk"), std::string::npos) << alone.out;
  EXPECT_NE(alone.out.find("dedup"), std::string::npos) << alone.out;
  test::CommandResult unknown = run_husk("extrct page.html 2>&1");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.out.find("no command \"extrct\" (commands: extract, explain, sign,"), std::string::npos) << unknown.out;
}

// husk extract URL and --url-list, against a loopback site: the response's
// charset header decodes a page that declares none, redirects are
// followed (the record's url is where the page was, its id the URL
// given), a gzip-encoded answer is decoded, and a 404, a page over
// --max-page-bytes and one slower than --fetch-timeout are each that
// page's error while the others come out whole.
TEST(Cli, PagesFetchedByUrl) {
  httplib::Server site;
  // "Привет, мир" and more, in windows-1251, which no <meta> names.
  std::string cyrillic = "\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0";
  std::string body = "<html><body><article><p>";
  for (int i = 0; i < 30; ++i) body += cyrillic + " " + std::to_string(i) + ". ";
  body += "</p></article></body></html>";
  site.Get("/cp1251", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(body, "text/html; charset=windows-1251");
  });
  site.Get("/moved", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/cp1251"); });
  site.Get("/gzip", [](const httplib::Request&, httplib::Response& res) {
    res.set_header("Content-Encoding", "gzip");
    res.set_content(test::gzip("<html><body><p>A compressed page about the harbour library and its many "
                               "readers in winter.</p></body></html>"),
                    "text/html; charset=utf-8");
  });
  site.Get("/big", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("<html><body><p>" + std::string(20000, 'a') + "</p></body></html>", "text/html");
  });
  site.Get("/slow", [](const httplib::Request&, httplib::Response& res) {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    res.set_content("<p>late</p>", "text/html");
  });
  const int port = site.bind_to_any_port("127.0.0.1");
  std::thread serving([&] { site.listen_after_bind(); });
  const std::string base = "http://127.0.0.1:" + std::to_string(port);
  TempDir dir;
  write_file(dir.file("urls.txt"), "# pages to read\n" + base + "/moved\n\n" + base + "/gzip\n" + base + "/missing\n" +
                                       base + "/big\n" + base + "/slow\n");
  test::CommandResult r =
      run_husk("extract --max-page-bytes 10000 --fetch-timeout 1 --url-list " + dir.file("urls.txt") + " " + base +
               "/cp1251 2>/dev/null");
  site.stop();
  serving.join();
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::vector<std::string> lines = test::lines(r.out);
  ASSERT_EQ(lines.size(), 6u) << r.out;
  std::map<std::string, nlohmann::json> by_id;
  for (const std::string& line : lines) {
    nlohmann::json j = nlohmann::json::parse(line);
    by_id[j["id"].get<std::string>().substr(base.size())] = j;
  }
  EXPECT_NE(by_id["/cp1251"]["text"].get<std::string>().find("Привет, мир 0."), std::string::npos)
      << by_id["/cp1251"]["text"];
  EXPECT_EQ(by_id["/moved"]["url"], base + "/cp1251");
  EXPECT_EQ(by_id["/moved"]["text"], by_id["/cp1251"]["text"]);
  EXPECT_NE(by_id["/gzip"]["text"].get<std::string>().find("compressed page about the harbour"), std::string::npos);
  EXPECT_NE(by_id["/missing"]["error"].get<std::string>().find("HTTP 404"), std::string::npos);
  EXPECT_NE(by_id["/big"]["error"].get<std::string>().find("over 10000 bytes"), std::string::npos);
  EXPECT_NE(by_id["/slow"]["error"].get<std::string>().find("timeout"), std::string::npos) << by_id["/slow"];
}

// A --url-list line that is no http(s) URL was read as a file name: a
// missing file's message, or a local page the list never meant. It is now
// said by line and skipped; a list with no URL at all is an error.
TEST(Cli, AUrlListLineThatIsNoUrlIsSaidAndSkipped) {
  TempDir dir;
  write_file(dir.file("page.html"), article(3));
  write_file(dir.file("urls.txt"), "# a list\n" + dir.file("page.html") + "\nftp://files.example/a\n");
  const std::string said = run_husk("extract --url-list " + dir.file("urls.txt") + " 2>&1").out;
  EXPECT_NE(said.find(dir.file("urls.txt") + ":2: not an http:// or https:// URL, skipped: " + dir.file("page.html")),
            std::string::npos)
      << said;
  EXPECT_NE(said.find(":3: not an http:// or https:// URL, skipped: ftp://files.example/a"), std::string::npos) << said;
  EXPECT_NE(said.find(dir.file("urls.txt") + ": no http:// or https:// URL in it"), std::string::npos) << said;
  EXPECT_EQ(said.find("\"text\""), std::string::npos) << said;  // the local page was not read
  EXPECT_EQ(run_husk("extract --url-list " + dir.file("urls.txt") + " 2>/dev/null").exit_code, 1);
}

// A WARC written by a real crawler: wget --warc-file over a loopback site
// with an article, a redirect, a 404 page, a gzip-encoded page and an
// image. husk extract keeps the 2xx HTML responses (the redirect's target
// among them, the gzip page inflated), skips the image, the redirect and
// the 404, and with --all-statuses keeps the 404 page too.
TEST(Cli, AWarcWrittenByWget) {
  if (system("command -v wget >/dev/null 2>&1") != 0) {
    test::missing("wget (make deps installs it)");
    GTEST_SKIP() << "wget is not installed";
  }
  auto article = [](const std::string& topic) {
    std::string p = "<html><head><title>" + topic + "</title></head><body><article><h1>" + topic + "</h1>";
    for (int i = 0; i < 4; ++i)
      p += "<p>The " + topic + " story, paragraph " + std::to_string(i) +
           ", tells how the town council met on Tuesday evening and what it decided for the coming year.</p>";
    return p + "</article></body></html>";
  };
  httplib::Server site;
  site.Get("/index.html", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("<html><body><a href=\"a.html\">a</a> <a href=\"moved\">moved</a> <a href=\"missing.html\">m</a> "
                    "<a href=\"gz.html\">gz</a> <img src=\"logo.png\"></body></html>",
                    "text/html");
  });
  site.Get("/a.html", [&](const httplib::Request&, httplib::Response& res) { res.set_content(article("harbour"), "text/html"); });
  site.Get("/b.html", [&](const httplib::Request&, httplib::Response& res) { res.set_content(article("orchard"), "text/html"); });
  site.Get("/moved", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/b.html", 301); });
  site.Get("/missing.html", [](const httplib::Request&, httplib::Response& res) {
    res.status = 404;
    res.set_content("<html><body><p>This page went missing a long time ago, sorry.</p></body></html>", "text/html");
  });
  site.Get("/gz.html", [&](const httplib::Request&, httplib::Response& res) {
    res.set_header("Content-Encoding", "gzip");
    res.set_content(test::gzip(article("lighthouse")), "text/html");
  });
  site.Get("/logo.png", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string("\x89PNG\r\n\x1a\n", 8) + std::string(200, '\0'), "image/png");
  });
  const int port = site.bind_to_any_port("127.0.0.1");
  std::thread serving([&] { site.listen_after_bind(); });
  TempDir dir;
  const std::string base = "http://127.0.0.1:" + std::to_string(port);
  test::CommandResult wget = test::run_command("cd " + dir.file("") + " && wget -q -e robots=off --recursive --level=1 " +
                                               "--page-requisites --warc-file=crawl -P mirror " + base + "/index.html");
  site.stop();
  serving.join();
  ASSERT_TRUE(std::filesystem::exists(dir.file("crawl.warc.gz"))) << wget.out;
  auto urls_and_texts = [&](const std::string& options) {
    std::map<std::string, std::string> out;
    for (const std::string& line : test::lines(run_husk("extract " + options + dir.file("crawl.warc.gz") + " 2>/dev/null").out)) {
      nlohmann::json j = nlohmann::json::parse(line);
      out[j["url"].get<std::string>().substr(base.size())] = j.value("text", "");
    }
    return out;
  };
  std::map<std::string, std::string> pages = urls_and_texts("");
  std::vector<std::string> urls;
  for (const auto& [url, text] : pages) urls.push_back(url);
  EXPECT_EQ(urls, (std::vector<std::string>{"/a.html", "/b.html", "/gz.html", "/index.html"}));
  EXPECT_NE(pages["/a.html"].find("The harbour story, paragraph 0"), std::string::npos) << pages["/a.html"];
  EXPECT_NE(pages["/b.html"].find("The orchard story"), std::string::npos) << pages["/b.html"];
  EXPECT_NE(pages["/gz.html"].find("The lighthouse story, paragraph 3"), std::string::npos) << pages["/gz.html"];
  std::map<std::string, std::string> all = urls_and_texts("--all-statuses ");
  EXPECT_NE(all["/missing.html"].find("went missing"), std::string::npos);
  EXPECT_EQ(all.count("/logo.png"), 0u);
}

TEST(Cli, BadConfigNamesFileAndLine) {
  TempDir dir;
  write_file(dir.file("bad.toml"), "[density]\nblock_cost = \"ten\"\n");
  write_file(dir.file("a.html"), article(1));
  test::CommandResult r = run_husk("extract --config " + dir.file("bad.toml") + " " + dir.file("a.html") + " 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("bad.toml:2"), std::string::npos) << r.out;
}

// A husk train run of minutes says where it stands when stderr is a
// terminal (script(1) gives it one here): the pages analysed, then each
// model's boosting rounds, fold by fold; in a pipe or a log it draws
// nothing.
TEST(Cli, TrainSaysWhereItStandsOnATerminalOnly) {
  const std::string wcxb = test::dataset("wcxb-dev");
  if (wcxb.empty()) GTEST_SKIP() << "wcxb-dev is absent from ../shared/datasets";
  if (test::run_command("command -v script > /dev/null").exit_code != 0) GTEST_SKIP() << "no script(1) to give husk a terminal";
  // The split's first 40 pages, in its layout: articles and services.
  TempDir dir;
  const std::filesystem::path split = dir.path() / "split";
  std::filesystem::create_directories(split / "html");
  std::filesystem::create_directories(split / "ground-truth");
  std::vector<std::string> pages;
  for (const auto& entry : std::filesystem::directory_iterator(wcxb + "/html")) pages.push_back(entry.path().filename());
  std::sort(pages.begin(), pages.end());
  pages.resize(std::min<std::size_t>(pages.size(), 40));
  for (const std::string& page : pages) {
    const std::string id = page.substr(0, page.find('.'));
    std::filesystem::copy_file(wcxb + "/html/" + page, split / "html" / page);
    std::filesystem::copy_file(wcxb + "/ground-truth/" + id + ".json", split / "ground-truth" / (id + ".json"));
  }
  const std::string train = "train extract " + split.string() + " --folds 2 --rounds 3";
  test::CommandResult terminal =
      test::run_command("script -qec '" + std::string(HUSK_BINARY) + " " + train + "' /dev/null");
  ASSERT_EQ(terminal.exit_code, 0) << terminal.out;
  for (std::string_view drawn :
       {"\rtrain: analysing pages: 1/40", "\rtrain: block model, fold 1 of 2: 1/3", "\rtrain: block model, fold 2 of 2: 1/3",
        "\rtrain: page types, fold 1 of 2: 1/80", "\rtrain: page types, fold 2 of 2: 1/80",
        "\rtrain: block model, all pages: 1/3"})
    EXPECT_NE(terminal.out.find(drawn), std::string::npos) << "not drawn: " << drawn.substr(1) << "\n" << terminal.out;
  test::CommandResult piped = run_husk(train + " 2>&1");
  ASSERT_EQ(piped.exit_code, 0);
  EXPECT_NE(piped.out.find("husk train: 40 pages"), std::string::npos) << piped.out;
  EXPECT_EQ(piped.out.find('\r'), std::string::npos) << piped.out;
  EXPECT_EQ(piped.out.find("train: block model"), std::string::npos) << piped.out;
}

// 60,000 records of 100 words, each text twice (record i and i + 30,000):
// a run of a few seconds on one thread.
void write_texts_for_a_long_dedup(const std::string& path) {
  std::ofstream out(path);
  for (int i = 0; i < 60000; ++i) {
    out << "{\"id\":\"p" << i << "\",\"text\":\"";
    for (int w = 0; w < 100; ++w) out << test::token("w", (i % 30000) * 100 + w) << ' ';
    out << "\"}\n";
  }
}

// husk dedup reading a corpus says where it stands on a terminal: the
// records read, their rate; the line is cleared before the stage lines,
// and a pipe gets none of it.
TEST(Cli, DedupSaysWhereItStandsOnATerminalOnly) {
  if (test::run_command("command -v script > /dev/null").exit_code != 0) GTEST_SKIP() << "no script(1) to give husk a terminal";
  TempDir dir;
  // Read on one thread for a few of the half seconds between draws.
  write_texts_for_a_long_dedup(dir.file("texts.jsonl"));
  const std::string dedup = "dedup -j1 " + dir.file("texts.jsonl") + " -o " + dir.file("clusters.jsonl");
  test::CommandResult terminal =
      test::run_command("script -qec '" + std::string(HUSK_BINARY) + " " + dedup + "' /dev/null");
  ASSERT_EQ(terminal.exit_code, 0) << terminal.out;
  const std::size_t drawn = terminal.out.find("\rdedup: ");
  ASSERT_NE(drawn, std::string::npos) << terminal.out;
  EXPECT_NE(terminal.out.find(" pages, 0 errors, ", drawn), std::string::npos) << terminal.out;
  // Cleared, then the stage line on a line of its own.
  EXPECT_NE(terminal.out.find("\r\033[Khusk dedup: read 60000 pages"), std::string::npos) << terminal.out;
  test::CommandResult piped = run_husk(dedup + " 2>&1");
  ASSERT_EQ(piped.exit_code, 0);
  EXPECT_NE(piped.out.find("husk dedup: read 60000 pages"), std::string::npos) << piped.out;
  EXPECT_EQ(piped.out.find('\r'), std::string::npos) << piped.out;
  // Pages that repeat every 30,000 form 30,000 pairs, on a terminal or not.
  EXPECT_EQ(test::lines(test::read_file(dir.file("clusters.jsonl"))).size(), 30000u);
}

// Every engine says when each stage ends, with the seconds since the run
// began: the search in memory (simhash here) as the corpus engine
// (minhash) does.
TEST(Cli, DedupStagesSayWhenTheyEndInEveryEngine) {
  TempDir dir;
  {
    std::ofstream out(dir.file("texts.jsonl"));
    for (int i = 0; i < 400; ++i) {
      out << "{\"id\":\"p" << i << "\",\"text\":\"";
      for (int w = 0; w < 60; ++w) out << test::token("w", (i % 200) * 60 + w) << ' ';
      out << "\"}\n";
    }
  }
  for (const char* method : {"simhash", "minhash"}) {
    test::CommandResult run = run_husk(std::string("dedup --method ") + method + " " + dir.file("texts.jsonl") +
                                       " -o " + dir.file("clusters.jsonl") + " 2>&1");
    ASSERT_EQ(run.exit_code, 0) << run.out;
    std::size_t at = 0;
    for (const char* stage : {"husk dedup: read 400 pages (", "husk dedup: verified 200 pairs of ",
                              "husk dedup: clustered: 200 clusters ("}) {
      at = run.out.find(stage, at);
      EXPECT_NE(at, std::string::npos) << method << ": no '" << stage << "' after the stage before\n" << run.out;
    }
  }
  // On a terminal the search in memory draws its texts normalised and
  // signed with the collection's statistics, each pass at once.
  if (test::run_command("command -v script > /dev/null").exit_code != 0) return;
  test::CommandResult terminal = test::run_command("script -qec '" + std::string(HUSK_BINARY) + " dedup --method simhash " +
                                                   dir.file("texts.jsonl") + " -o " + dir.file("clusters.jsonl") +
                                                   "' /dev/null");
  ASSERT_EQ(terminal.exit_code, 0) << terminal.out;
  for (const char* drawn : {"\rdedup: normalising texts: 1/400", "\rdedup: signing texts: 1/400"})
    EXPECT_NE(terminal.out.find(drawn), std::string::npos) << "not drawn: " << drawn + 1 << "\n" << terminal.out;
}

// A husk dedup stopped by SIGTERM (or Ctrl-C, or SIGHUP) takes its spill
// files with it: its work directory is as it was before the run, and it
// ends as the signal would have (143).
TEST(Cli, ADedupStoppedBySignalTakesItsSpillFilesWithIt) {
  TempDir dir;
  write_texts_for_a_long_dedup(dir.file("texts.jsonl"));
  std::filesystem::create_directories(dir.file("work"));
  const std::string work = dir.file("work");
  // Stopped a little after its spill directory appears, seconds before it
  // would end.
  test::CommandResult stopped = test::run_command(
      std::string(HUSK_BINARY) + " dedup -j1 --memory 16M --work-dir " + work + " " + dir.file("texts.jsonl") + " -o " +
      dir.file("clusters.jsonl") + " 2> " + dir.file("stderr") + " & pid=$!; while [ -z \"$(ls -A " + work +
      ")\" ]; do sleep 0.02; done; sleep 0.3; echo files=$(find " + work + " -type f | wc -l); kill -TERM $pid; wait $pid; echo status=$?");
  EXPECT_NE(stopped.out.find("status=143"), std::string::npos) << stopped.out;
  EXPECT_EQ(stopped.out.find("files=0"), std::string::npos) << "no spill file was written before the stop: " << stopped.out;
  EXPECT_TRUE(std::filesystem::is_empty(work)) << test::run_command("find " + work).out;
  EXPECT_NE(test::read_file(dir.file("stderr")).find("husk dedup: stopped (Terminated); its spill files are removed"),
            std::string::npos)
      << test::read_file(dir.file("stderr"));
  // A signal the run was started ignoring (SIGHUP under nohup) stays
  // ignored: the run ends, and a run that ends leaves the directory as
  // empty.
  test::CommandResult ignoring = test::run_command(
      "(trap '' HUP; exec " + std::string(HUSK_BINARY) + " dedup -j1 --memory 16M --work-dir " + work + " " +
      dir.file("texts.jsonl") + " -o " + dir.file("clusters.jsonl") + " 2> /dev/null) & pid=$!; while [ -z \"$(ls -A " +
      work + ")\" ]; do sleep 0.02; done; kill -HUP $pid; wait $pid; echo status=$?");
  EXPECT_NE(ignoring.out.find("status=0"), std::string::npos) << ignoring.out;
  EXPECT_TRUE(std::filesystem::is_empty(work));
  EXPECT_EQ(test::lines(test::read_file(dir.file("clusters.jsonl"))).size(), 30000u);
}

TEST(Cli, DumpFeaturesWritesEveryBlock) {
  TempDir dir;
  write_file(dir.file("a.html"), article(2));
  run_husk("extract --dump-features " + dir.file("f.jsonl") + " " + dir.file("a.html"));
  std::vector<std::string> rows = test::lines(test::read_file(dir.file("f.jsonl")));
  ASSERT_EQ(rows.size(), 2u);  // the nav line and the article paragraph
  auto nav = nlohmann::json::parse(rows[0]);
  auto body = nlohmann::json::parse(rows[1]);
  EXPECT_EQ(nav["content"], false);
  EXPECT_EQ(body["content"], true);
  EXPECT_EQ(body["words"], 60);
  EXPECT_EQ(body["path"], "body>article>p");
}

TEST(Cli, EvalExtractScoresAPredictionFile) {
  TempDir dir;
  write_file(dir.file("gold.json"), R"({"a": {"articleBody": "one two three four five"}, "b": {"articleBody": "six seven eight nine"}})");
  write_file(dir.file("pred.jsonl"), "{\"id\":\"html/a.html.gz\",\"text\":\"one two three four five\"}\n");
  test::CommandResult r = run_husk("eval extract --json --gold " + dir.file("gold.json") + " " + dir.file("pred.jsonl"));
  EXPECT_EQ(r.exit_code, 0);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["pages"], 2);
  EXPECT_EQ(j["missing"], 1);
  EXPECT_DOUBLE_EQ(j["precision"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["recall"].get<double>(), 0.5);
  // A record naming no gold page is counted aside; a file whose records
  // name none (the wrong --gold) is an error, not a score of zero.
  write_file(dir.file("pred.jsonl"), "{\"id\":\"a.html\",\"text\":\"one two three four five\"}\n"
                                     "{\"id\":\"z.html\",\"text\":\"other\"}\n");
  const std::string said = run_husk("eval extract --gold " + dir.file("gold.json") + " " + dir.file("pred.jsonl") +
                                    " 2>&1 >/dev/null").out;
  EXPECT_NE(said.find("1 of 2 records of " + dir.file("pred.jsonl") + " name no page of the gold set"),
            std::string::npos)
      << said;
  write_file(dir.file("pred.jsonl"), "{\"id\":\"z.html\",\"text\":\"other\"}\n");
  r = run_husk("eval extract --gold " + dir.file("gold.json") + " " + dir.file("pred.jsonl") + " 2>/dev/null");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty()) << r.out;
  // An empty prediction file (a run that failed) or a gold set without a
  // page has nothing to score: an error naming the file, not zeros.
  write_file(dir.file("pred.jsonl"), "");
  r = run_husk("eval extract --gold " + dir.file("gold.json") + " " + dir.file("pred.jsonl") + " 2>&1");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "husk eval extract: " + dir.file("pred.jsonl") + ": holds no record to score\n");
  write_file(dir.file("pred.jsonl"), "{\"id\":\"a.html\",\"text\":\"one two three four five\"}\n");
  write_file(dir.file("empty-gold.json"), "{}");
  r = run_husk("eval extract --gold " + dir.file("empty-gold.json") + " " + dir.file("pred.jsonl") + " 2>&1");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "husk eval extract: " + dir.file("empty-gold.json") + ": the gold set holds no page\n");
}

TEST(Cli, LanguagesKeepsOnlyThePagesInThoseLanguages) {
  const std::string dir = std::string(HUSK_SOURCE_DIR) + "/fixtures/languages";
  std::vector<std::string> records = test::lines(run_husk("extract --languages de,fr,zh " + dir + " 2>/dev/null").out);
  ASSERT_EQ(records.size(), 3u);
  std::set<std::string> seen;
  for (const std::string& r : records) seen.insert(nlohmann::json::parse(r)["language"].get<std::string>());
  EXPECT_EQ(seen, (std::set<std::string>{"de", "fr", "zh"}));
}

// The presets move the block threshold: on real pages of every type (the
// first 40 of WCXB dev) --precision keeps fewer words and --recall more.
// The demo's six short pages hold no block between the thresholds.
TEST(Cli, PresetsTradeTextForPrecision) {
  const std::string wcxb = test::dataset("wcxb-dev");
  if (wcxb.empty()) GTEST_SKIP() << "no wcxb-dev";
  TempDir dir;
  std::vector<std::filesystem::path> pages;
  for (const auto& e : std::filesystem::directory_iterator(wcxb + "/html")) pages.push_back(e.path());
  std::sort(pages.begin(), pages.end());
  pages.resize(std::min<std::size_t>(pages.size(), 40));
  for (const auto& page : pages) std::filesystem::copy_file(page, dir.path() / page.filename());
  auto words = [&](const std::string& flags) {
    std::size_t n = 0;
    for (const std::string& r : test::lines(run_husk("extract -j2 " + flags + " " + dir.path().string() + " 2>/dev/null").out)) {
      std::string text = nlohmann::json::parse(r)["text"].get<std::string>();
      n += static_cast<std::size_t>(std::count(text.begin(), text.end(), ' '));
    }
    return n;
  };
  std::size_t precise = words("--precision"), balanced = words(""), generous = words("--recall");
  EXPECT_LT(precise, balanced);
  EXPECT_LT(balanced, generous);
  EXPECT_NE(run_husk("extract --precision --recall " + dir.path().string() + " 2>/dev/null").exit_code, 0);
}

TEST(Cli, MarkdownAndHtmlFormatsNameEachPage) {
  TempDir dir;
  write_file(dir.file("a.html"), "<html><body><h2>Heading here</h2><ul><li>one item</li><li>two items</li></ul></body></html>");
  std::string md = run_husk("extract --extractor fulltext --format markdown " + dir.file("a.html") + " 2>/dev/null").out;
  EXPECT_EQ(md, "<!-- husk: " + dir.file("a.html") + " -->\n## Heading here\n\n- one item\n- two items\n\n");
  std::string html = run_husk("extract --extractor fulltext --format html " + dir.file("a.html") + " 2>/dev/null").out;
  EXPECT_NE(html.find("<h2>Heading here</h2>\n<ul><li>one item</li><li>two items</li></ul>"), std::string::npos) << html;
  auto j = nlohmann::json::parse(run_husk("extract --with-markdown --with-html " + dir.file("a.html") + " 2>/dev/null").out);
  EXPECT_TRUE(j.contains("markdown"));
  EXPECT_TRUE(j.contains("html"));
}

// WARC as wget writes it: the target URI in angle brackets, a 404 among
// the responses; the 404 is skipped unless --all-statuses, every record
// carries its HTTP status.
TEST(Cli, WarcAsCrawlersWriteIt) {
  TempDir dir;
  auto record = [](const std::string& uri, int status, const std::string& body) {
    std::string http = "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: text/html\r\n\r\n" + body;
    return "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: <" + uri + ">\r\nWARC-Record-ID: <urn:uuid:" +
           std::to_string(status) + ">\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: " +
           std::to_string(http.size()) + "\r\n\r\n" + http + "\r\n\r\n";
  };
  write_file(dir.file("crawl.warc"), record("http://site.example/page", 200, "<p>the page itself with its words</p>") +
                                         record("http://site.example/robots.txt", 404, "<p>Not Found</p>"));
  std::vector<std::string> plain = test::lines(run_husk("extract " + dir.file("crawl.warc") + " 2>/dev/null").out);
  ASSERT_EQ(plain.size(), 1u);
  auto j = nlohmann::json::parse(plain[0]);
  EXPECT_EQ(j["url"], "http://site.example/page");
  EXPECT_EQ(j["status"], 200);
  std::vector<std::string> all =
      test::lines(run_husk("extract --all-statuses " + dir.file("crawl.warc") + " 2>/dev/null").out);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(nlohmann::json::parse(all[1])["status"], 404);
  // What was skipped is counted where the user sees it.
  const std::string said = run_husk("extract " + dir.file("crawl.warc") + " 2>&1 >/dev/null").out;
  EXPECT_NE(said.find("extract: 1 WARC record(s) skipped: no HTML page in them"), std::string::npos) << said;
}

// A subdirectory husk may not read is reported by name; the rest is read.
// Needs an unprivileged user: run as root, the test drops to nobody.
TEST(Cli, UnreadableSubdirectoryIsReported) {
  if (geteuid() != 0 || std::system("command -v setpriv >/dev/null") != 0) {
    test::missing("root and setpriv (CI runs as root; util-linux has setpriv)");
    GTEST_SKIP() << "needs root and setpriv to run husk as an unprivileged user";
  }
  std::filesystem::path root = std::filesystem::temp_directory_path() / ("husk-perm-" + std::to_string(getpid()));
  std::filesystem::create_directories(root / "ok");
  std::filesystem::create_directories(root / "locked");
  write_file((root / "ok" / "a.html").string(), "<p>readable page words</p>");
  write_file((root / "locked" / "b.html").string(), "<p>hidden</p>");
  std::filesystem::permissions(root / "locked", std::filesystem::perms::none);
  std::filesystem::permissions(root, std::filesystem::perms::all);
  std::filesystem::permissions(root / "ok", std::filesystem::perms::all);
  std::filesystem::permissions(root / "ok" / "a.html", std::filesystem::perms::all);
  std::string out = (root / "out.txt").string();
  int rc = std::system(("setpriv --reuid=65534 --regid=65534 --clear-groups " + std::string(HUSK_BINARY) +
                        " extract " + root.string() + " > " + out + " 2>&1")
                           .c_str());
  std::string said = test::read_file(out);
  std::filesystem::permissions(root / "locked", std::filesystem::perms::owner_all);
  std::filesystem::remove_all(root);
  EXPECT_EQ(rc, 0) << said;
  EXPECT_NE(said.find("locked: Permission denied"), std::string::npos) << said;
  EXPECT_NE(said.find("readable page words"), std::string::npos) << said;
}

}  // namespace
}  // namespace husk
