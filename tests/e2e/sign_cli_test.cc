// husk sign and husk idf build through the binary.
#include <nlohmann/json.hpp>

#include "unit/test_util.h"

namespace husk {
namespace {

using test::run_husk;
using test::TempDir;
using test::write_file;

std::string records(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    nlohmann::ordered_json j;
    j["id"] = test::token("p", i);
    j["url"] = "http://e.com/" + std::to_string(i);
    j["title"] = "T";
    static const char* kNames[] = {"alpha", "beta", "gamma"};
    j["text"] = std::string("Story ") + kNames[i % 3] +
                " is about the harbour library. The council voted on Tuesday, and the mayor agreed.\n\nIt opens in spring.";
    j["extractor"] = "density";
    out += j.dump() + "\n";
  }
  out += R"({"id":"broken","url":"","title":"","text":"","extractor":"density","error":"corrupt: truncated gzip stream"})" "\n";
  out += R"({"id":"plain","text":"Only an id and a text here, which is enough to sign."})" "\n";
  return out;
}

TEST(SignCli, AddsSigAndKeepsTheRecord) {
  TempDir dir;
  write_file(dir.file("in.jsonl"), records(30));
  test::CommandResult one = run_husk("sign --jobs 1 " + dir.file("in.jsonl") + " 2>/dev/null");
  test::CommandResult four = run_husk("sign --jobs 4 " + dir.file("in.jsonl") + " 2>/dev/null");
  EXPECT_EQ(one.exit_code, 0);
  EXPECT_EQ(one.out, four.out);
  std::vector<std::string> lines = test::lines(one.out);
  ASSERT_EQ(lines.size(), 32u);
  auto first = nlohmann::ordered_json::parse(lines[0]);
  std::vector<std::string> keys;
  for (auto& [k, v] : first.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"id", "url", "title", "text", "extractor", "sig"}));  // the input's fields, then sig
  for (const char* field : {"terms", "md5", "tfidf", "long_sent", "heavy_sent", "imatch", "simhash", "simhash_hyperplane",
                            "minhash", "minhash_bands", "supershingles", "spotsigs", "lexrand"})
    EXPECT_TRUE(first["sig"].contains(field)) << field;
  EXPECT_EQ(first["sig"]["md5"].get<std::string>().size(), 32u);
  EXPECT_EQ(first["sig"]["simhash"].get<std::string>().size(), 16u);
  EXPECT_EQ(first["sig"]["minhash"].size(), 128u);
  EXPECT_EQ(first["sig"]["minhash_bands"].size(), 16u);
  EXPECT_EQ(first["sig"]["supershingles"].size(), 6u);
  // Same text, same signatures; other text, other md5.
  auto fourth = nlohmann::ordered_json::parse(lines[3]);
  auto second = nlohmann::ordered_json::parse(lines[1]);
  EXPECT_EQ(first["sig"], fourth["sig"]);
  EXPECT_NE(first["sig"]["md5"], second["sig"]["md5"]);
  auto broken = nlohmann::json::parse(lines[30]);
  EXPECT_TRUE(broken["sig"].is_null());
  EXPECT_EQ(broken["error"], "corrupt: truncated gzip stream");
  auto plain = nlohmann::json::parse(lines[31]);
  EXPECT_EQ(plain["id"], "plain");
  EXPECT_GT(plain["sig"]["terms"].get<int>(), 5);
  // The records left without a signature are counted where the user sees it.
  const std::string said = run_husk("sign " + dir.file("in.jsonl") + " 2>&1 >/dev/null").out;
  EXPECT_NE(said.find("husk sign: 1 of 32 record(s) without a signature"), std::string::npos) << said;
  // A byte order mark before the first record is not copied into the output.
  write_file(dir.file("bom.jsonl"), "\xEF\xBB\xBF" + records(1));
  const std::string bom = run_husk("sign " + dir.file("bom.jsonl") + " 2>/dev/null").out;
  EXPECT_EQ(bom.substr(0, 7), "{\"id\":\"") << bom.substr(0, 20);
}

// A record husk dedup would call malformed (a field of the wrong type, or
// values nested deeper than kMaxJsonDepth) is no signed record: in JSONL it
// carries the same error, in the binary file it is left out, and either
// way stderr names its line and field.
TEST(SignCli, MalformedRecordsAreTheOnesDedupRejects) {
  TempDir dir;
  // 100,000 nested arrays beside a "sig" to replace: writing the record
  // back out recursed once per level and overflowed the stack.
  const std::string deep = R"({"id":"deep","text":"Some words to sign here.","sig":null,"extra":)" +
                           std::string(100000, '[') + std::string(100000, ']') + "}\n";
  write_file(dir.file("in.jsonl"), records(1) + R"({"id":"number","text":5})" "\n" +
                                       R"({"id":"u","url":3,"text":"A text long enough to be signed by husk."})" "\n" +
                                       deep);
  test::CommandResult r = run_husk("sign " + dir.file("in.jsonl") + " 2>" + dir.file("err"));
  EXPECT_EQ(r.exit_code, 0);
  std::vector<std::string> lines = test::lines(r.out);
  ASSERT_EQ(lines.size(), 6u) << r.out;
  auto nested = nlohmann::json::parse(lines[5]);
  EXPECT_TRUE(nested["sig"].is_null());
  EXPECT_NE(nested["error"].get<std::string>().find("in.jsonl:6: nested deeper than 64 levels"), std::string::npos)
      << lines[5];
  auto number = nlohmann::json::parse(lines[3]);
  EXPECT_EQ(number["id"], "number");
  EXPECT_EQ(number["text"], 5);
  EXPECT_TRUE(number["sig"].is_null());
  EXPECT_NE(number["error"].get<std::string>().find(":4: \"text\" must be a string"), std::string::npos) << lines[3];
  auto url = nlohmann::json::parse(lines[4]);
  EXPECT_TRUE(url["sig"].is_null());
  EXPECT_NE(url["error"].get<std::string>().find("\"url\" must be a string"), std::string::npos) << lines[4];
  const std::string err = test::read_file(dir.file("err"));
  EXPECT_NE(err.find("in.jsonl:4: \"text\" must be a string"), std::string::npos) << err;
  EXPECT_NE(err.find("3 record(s) unreadable or malformed"), std::string::npos) << err;
  // husk dedup, given the signed output, leaves both out: the text that is
  // no string is an error record now, the url is still no string.
  write_file(dir.file("signed.jsonl"), r.out);
  const std::string dedup = run_husk("dedup " + dir.file("signed.jsonl") + " 2>&1 >/dev/null").out;
  EXPECT_NE(dedup.find("signed.jsonl:5: \"url\" must be a string"), std::string::npos) << dedup;
  EXPECT_NE(dedup.find("3 pages without text or signatures left out"), std::string::npos) << dedup;
  // The binary file holds the one signed record and names the same two.
  test::CommandResult binary =
      run_husk("sign --format binary -o " + dir.file("in.sig") + " " + dir.file("in.jsonl") + " 2>&1");
  EXPECT_EQ(binary.exit_code, 0);
  EXPECT_NE(binary.out.find("in.jsonl:5: \"url\" must be a string"), std::string::npos) << binary.out;
  EXPECT_NE(binary.out.find("in.jsonl:6: nested deeper"), std::string::npos) << binary.out;
  const std::string listed = run_husk("dedup " + dir.file("in.sig") + " 2>&1 >/dev/null").out;
  EXPECT_NE(listed.find("read 2 pages"), std::string::npos) << listed;
  // husk idf build counts none of the three and names them.
  const std::string idf = run_husk("idf build -o " + dir.file("in.idf") + " " + dir.file("in.jsonl") + " 2>&1").out;
  EXPECT_NE(idf.find("in.jsonl:4: \"text\" must be a string"), std::string::npos) << idf;
  EXPECT_NE(idf.find("3 record(s) unreadable or malformed, named above, not counted"), std::string::npos) << idf;
  EXPECT_NE(idf.find("2 documents"), std::string::npos) << idf;
  // husk dedup reads the same line as malformed.
  const std::string direct = run_husk("dedup " + dir.file("in.jsonl") + " 2>&1 >/dev/null").out;
  EXPECT_NE(direct.find("in.jsonl:6: nested deeper than 64 levels"), std::string::npos) << direct;
}

TEST(SignCli, SignerSubsetAndUsageErrors) {
  TempDir dir;
  write_file(dir.file("in.jsonl"), records(2));
  auto j = nlohmann::json::parse(test::lines(run_husk("sign --signers md5,simhash " + dir.file("in.jsonl") + " 2>/dev/null").out)[0]);
  std::vector<std::string> keys;
  for (auto& [k, v] : j["sig"].items()) keys.push_back(k);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (std::vector<std::string>{"md5", "simhash", "terms"}));
  EXPECT_EQ(run_husk("sign --signers md5,nope " + dir.file("in.jsonl") + " 2>/dev/null").exit_code, 2);
  EXPECT_EQ(run_husk("sign --normalize numbers=maybe " + dir.file("in.jsonl") + " 2>/dev/null").exit_code, 2);
  EXPECT_EQ(run_husk("sign " + dir.file("missing.jsonl") + " 2>/dev/null").exit_code, 1);
  test::CommandResult warned = run_husk("sign " + dir.file("in.jsonl") + " 2>&1 >/dev/null");
  std::size_t count = 0;
  for (std::size_t pos = 0; (pos = warned.out.find("no --idf file", pos)) != std::string::npos; ++pos) ++count;
  EXPECT_EQ(count, 1u) << "the fallback is announced once per run";
}

TEST(SignCli, IdfBuildThenSign) {
  TempDir dir;
  write_file(dir.file("in.jsonl"), records(30));
  test::CommandResult built = run_husk("idf build -o " + dir.file("c.idf") + " " + dir.file("in.jsonl") + " 2>/dev/null");
  EXPECT_EQ(built.exit_code, 0);
  std::vector<std::string> idf = test::lines(test::read_file(dir.file("c.idf")));
  ASSERT_GE(idf.size(), 5u);
  EXPECT_EQ(idf[0], "husk-idf 1");
  EXPECT_EQ(idf[1], "documents 31");  // 30 stories and the plain record; the broken one has no text
  EXPECT_EQ(idf[3], "normalize numbers=keep,letters=join,min-run=4");
  test::CommandResult signed_out = run_husk("sign --idf " + dir.file("c.idf") + " " + dir.file("in.jsonl") + " 2>&1");
  EXPECT_EQ(signed_out.out.find("no --idf file"), std::string::npos);
  test::CommandResult mismatch = run_husk("sign --normalize numbers=mask --idf " + dir.file("c.idf") + " " + dir.file("in.jsonl") + " 2>&1 >/dev/null");
  EXPECT_NE(mismatch.out.find("was built with --normalize"), std::string::npos);
}

}  // namespace
}  // namespace husk
