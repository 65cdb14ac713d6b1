#include <unicode/ucnv.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "husk/html.h"
#include "husk/ingest.h"
#include "husk/processor.h"
#include "unit/test_util.h"

namespace husk {
namespace {

// `text` in the charset `from` converted by ICU to `to`.
std::string converted(const std::string& text, const char* from, const char* to) {
  UErrorCode err = U_ZERO_ERROR;
  std::string out(text.size() * 4 + 16, '\0');
  int32_t n = ucnv_convert(to, from, out.data(), static_cast<int32_t>(out.size()), text.data(),
                           static_cast<int32_t>(text.size()), &err);
  EXPECT_TRUE(U_SUCCESS(err)) << from << " -> " << to;
  out.resize(static_cast<std::size_t>(n));
  return out;
}

// UTF-8 text re-encoded into `charset` by ICU, as a page in that charset.
std::string encode(const std::string& utf8, const char* charset) { return converted(utf8, "UTF-8", charset); }

struct CharsetCase {
  const char* charset;     // what the test encodes with
  const char* label;       // what the page declares ("" for nothing)
  bool in_header;          // declared in the HTTP header rather than <meta>
  const char* text;        // UTF-8 body text
  const char* expect_source;
};
// Names the case in test listings instead of dumping its bytes.
void PrintTo(const CharsetCase& c, std::ostream* os) { *os << c.charset << " (" << c.expect_source << ")"; }

class CharsetTest : public ::testing::TestWithParam<CharsetCase> {};

TEST_P(CharsetTest, DecodesToUtf8) {
  const CharsetCase& c = GetParam();
  std::string meta = (!c.in_header && *c.label) ? std::string("<meta charset=\"") + c.label + "\">" : "";
  std::string page = "<html><head>" + meta + "<title>t</title></head><body><p>" + c.text + "</p></body></html>";
  std::string bytes = encode(page, c.charset);
  std::string header = c.in_header ? std::string("text/html; charset=") + c.label : "text/html";
  Decoded d = decode(bytes, header);
  EXPECT_NE(d.html.find(c.text), std::string::npos) << c.charset << " decoded as " << d.charset;
  EXPECT_EQ(d.charset_source, c.expect_source);
}

constexpr const char* kRussian = "Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация южных губерний даст мощный толчок подъёму сельского хозяйства.";
constexpr const char* kChinese = "我能吞下玻璃而不伤身体。中华人民共和国成立于一九四九年，首都是北京。这是一个用于测试字符集检测的较长段落。";
constexpr const char* kJapanese = "私はガラスを食べられます。それは私を傷つけません。日本語の文章で文字コードの判定を確かめます。";
constexpr const char* kFrench = "Voix ambiguë d’un cœur qui, au zéphyr, préfère les jattes de kiwis. Où êtes-vous allé?";

INSTANTIATE_TEST_SUITE_P(
    Charsets, CharsetTest,
    ::testing::Values(CharsetCase{"windows-1251", "windows-1251", false, kRussian, "meta"},
                      CharsetCase{"windows-1251", "windows-1251", true, kRussian, "http"},
                      CharsetCase{"windows-1251", "", false, kRussian, "detected"},
                      CharsetCase{"GB18030", "gbk", false, kChinese, "meta"},
                      CharsetCase{"GB18030", "gb2312", true, kChinese, "http"},
                      CharsetCase{"Shift_JIS", "shift_jis", false, kJapanese, "meta"},
                      CharsetCase{"Shift_JIS", "", false, kJapanese, "detected"},
                      CharsetCase{"ISO-8859-1", "iso-8859-1", false, "Voix ambigue d'un coeur qui, au zephyr, pr\xc3\xa9" "fere", "meta"},
                      CharsetCase{"windows-1252", "", false, kFrench, "detected"},
                      CharsetCase{"UTF-8", "", false, kRussian, "utf8"}),
    [](const ::testing::TestParamInfo<CharsetCase>& info) { return test::test_name(std::string(info.param.charset) + "_" + info.param.expect_source + "_" + std::to_string(info.index)); });

TEST(Decode, Utf16WithByteOrderMark) {
  std::string page = std::string("<html><body><p>") + kChinese + "</p></body></html>";
  for (const char* charset : {"UTF-16LE", "UTF-16BE"}) {
    std::string bom = std::string(charset) == "UTF-16LE" ? "\xFF\xFE" : "\xFE\xFF";
    Decoded d = decode(bom + encode(page, charset), "");
    EXPECT_EQ(d.charset_source, "bom");
    EXPECT_NE(d.html.find(kChinese), std::string::npos) << charset;
    EXPECT_EQ(d.html.rfind("<html>", 0), 0u) << "BOM must not survive: " << charset;
  }
}

// Bytes that are no text (an image, a PDF, an archive under an HTML name)
// were read as a charset and gave a text of garbage; UTF-16 markup, half
// NULs, is text when a byte order mark or its content type says so.
TEST(Decode, BinaryBytesAreToldFromUtf16Text) {
  const std::string png = std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) + "<p>not a page</p>";
  EXPECT_TRUE(looks_binary(png, ""));
  EXPECT_TRUE(looks_binary(png, "text/html"));
  EXPECT_TRUE(looks_binary("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n", "text/html"));
  EXPECT_FALSE(looks_binary("<html><body><p>text</p></body></html>", ""));
  // A NUL past the first 4 KB is a broken page, still read.
  EXPECT_FALSE(looks_binary("<p>" + std::string(5000, 'a') + std::string(1, '\0') + "</p>", ""));
  const std::string utf16 = encode("<html><body><p>text</p></body></html>", "UTF-16LE");
  EXPECT_FALSE(looks_binary("\xFF\xFE" + utf16, ""));
  EXPECT_FALSE(looks_binary(utf16, "text/html; charset=UTF-16LE"));
  EXPECT_TRUE(looks_binary(utf16, "text/html"));  // undeclared and unmarked: no way to tell
  // Through the processor the page is an error, not a text of garbage.
  PageResult r = Processor::make(ProcessorOptions{})->process("", png);
  EXPECT_EQ(r.status.code(), Code::kUnsupported);
  EXPECT_NE(r.status.message().find("binary content, not an HTML page"), std::string::npos);
  EXPECT_TRUE(r.text.empty());
}

TEST(Decode, HeaderOutranksMeta) {
  std::string page = "<meta charset=\"utf-8\"><p>" + encode(kRussian, "KOI8-R") + "</p>";
  Decoded d = decode(page, "text/html; charset=koi8-r");
  EXPECT_EQ(d.charset_source, "http");
  EXPECT_NE(d.html.find(kRussian), std::string::npos);
}

TEST(Decode, HttpEquivMeta) {
  std::string page = "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\"><p>" +
                     encode(kRussian, "windows-1251") + "</p>";
  Decoded d = decode(page, "");
  EXPECT_EQ(d.charset, "windows-1251");
  EXPECT_NE(d.html.find(kRussian), std::string::npos);
}

// Detection reads the page's text, not its code: a script's comparisons
// ("i<n", "a[i] > 0") made ICU's markup filter drop the text between them
// and read a Russian page in windows-1251 as ISO-8859-1.
TEST(Decode, DetectionReadsTheTextNotTheScripts) {
  const std::string script = "<script>for (var i = 0; i < n; i++) { if (a[i] > 0) { b += 1; } }</script>\n";
  std::string scripts;
  for (int i = 0; i < 40; ++i) scripts += script;
  for (const auto& [charset, text] : std::vector<std::pair<const char*, const char*>>{
           {"windows-1251", kRussian}, {"GB18030", kChinese}, {"Shift_JIS", kJapanese}}) {
    const std::string page = "<html><head><title>t</title>" + scripts + "</head><body><p>" + text + "</p><p>" + text +
                             "</p>" + scripts + "</body></html>";
    Decoded d = decode(encode(page, charset), "text/html");
    EXPECT_EQ(d.charset_source, "detected") << charset;
    EXPECT_NE(d.html.find(text), std::string::npos) << charset << " decoded as " << d.charset;
  }
}

// Real pages in their languages' legacy charsets with no charset declared
// (daniel-dev's Greek, Polish, Russian and Chinese news, re-encoded, their
// <meta> declarations taken out) are read in their charset: before
// detection read the text alone, 24 of the 427 were read as windows-1252.
TEST(Decode, UndeclaredLegacyPagesOfEveryLanguageAreReadInTheirCharset) {
  const std::string daniel = test::dataset("daniel-dev");
  if (daniel.empty()) GTEST_SKIP() << "daniel-dev is absent from ../shared/datasets";
  const std::map<std::string, const char*> charset = {
      {"el", "ISO-8859-7"}, {"pl", "ISO-8859-2"}, {"ru", "windows-1251"}, {"zh", "GB18030"}};
  std::map<std::string, std::size_t> pages;
  for (const auto& entry : std::filesystem::directory_iterator(daniel + "/ground-truth")) {
    const std::string language =
        nlohmann::json::parse(test::read_file(entry.path().string())).value("language", std::string());
    if (!charset.count(language)) continue;
    const std::string id = entry.path().stem().string();
    std::string raw;
    ingest({daniel + "/html/" + id + ".html.gz"}, IngestOptions{}, [&](RawPage&& page) {
      raw = std::move(page.bytes);
      return true;
    });
    const std::string html = std::regex_replace(decode(raw, "").html,
                                                std::regex("<meta[^>]*charset[^>]*>", std::regex::icase), "");
    // Pages holding a character their charset lacks are left out.
    UErrorCode err = U_ZERO_ERROR;
    UConverter* to = ucnv_open(charset.at(language), &err);
    UConverter* from = ucnv_open("UTF-8", &err);
    ucnv_setFromUCallBack(to, UCNV_FROM_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &err);
    std::string bytes(html.size() * 4 + 16, '\0');
    char* target = bytes.data();
    const char* source = html.data();
    ucnv_convertEx(to, from, &target, bytes.data() + bytes.size(), &source, html.data() + html.size(), nullptr,
                   nullptr, nullptr, nullptr, true, true, &err);
    ucnv_close(from);
    ucnv_close(to);
    if (U_FAILURE(err)) continue;
    bytes.resize(static_cast<std::size_t>(target - bytes.data()));
    ++pages[language];
    const std::string expected = converted(bytes, charset.at(language), "UTF-8");
    const Decoded d = decode(bytes, "");
    EXPECT_TRUE(d.html == expected) << id << " is " << charset.at(language) << ", read as " << d.charset;
    // The same page served as UTF-8, which its bytes contradict.
    const Decoded labelled = decode(bytes, "text/html; charset=utf-8");
    EXPECT_TRUE(labelled.html == expected) << id << " labelled UTF-8 is " << charset.at(language) << ", read as "
                                           << labelled.charset;
  }
  for (const auto& [language, name] : charset) {
    std::printf("%s: %zu pages in %s\n", language.c_str(), pages[language], name);
    EXPECT_GE(pages[language], 60u) << language;
  }
}

// A page labelled UTF-8 whose bytes are another charset's (more of its
// non-ASCII sequences invalid UTF-8 than valid) is read in the charset
// detected, and says so; a UTF-8 page with a stray byte stays UTF-8.
TEST(Decode, ADeclaredUtf8TheBytesContradictIsDetected) {
  const std::string body = std::string("<p>") + kRussian + "</p><p>" + kRussian + "</p></body></html>";
  for (const bool in_header : {false, true}) {
    const std::string meta = in_header ? "" : "<meta charset=\"utf-8\">";
    const std::string page = "<html><head>" + meta + "<title>t</title></head><body>" + body;
    Decoded d = decode(encode(page, "windows-1251"), in_header ? "text/html; charset=UTF-8" : "text/html");
    EXPECT_EQ(d.charset, "windows-1251") << (in_header ? "header" : "meta");
    EXPECT_EQ(d.charset_source, "detected");
    EXPECT_NE(d.html.find(kRussian), std::string::npos);
    ASSERT_FALSE(d.warnings.empty());
    EXPECT_NE(d.warnings[0].find("contradicts the bytes"), std::string::npos) << d.warnings[0];
  }
  const std::string stray = "<html><head><meta charset=\"utf-8\"></head><body><p>" + std::string(kRussian) +
                            " \x92</p></body></html>";
  Decoded d = decode(stray, "text/html");
  EXPECT_EQ(d.charset, "UTF-8");
  EXPECT_NE(d.html.find(std::string(kRussian) + " \xEF\xBF\xBD"), std::string::npos);
  ASSERT_EQ(d.warnings.size(), 1u);
  EXPECT_EQ(d.warnings[0], "1 invalid UTF-8 sequences replaced");
}

TEST(Decode, UnknownMetaCharsetIsReportedAndDetectionTakesOver) {
  Decoded d = decode(std::string("<meta charset=\"x-no-such-charset\"><p>") + kRussian + "</p>", "");
  ASSERT_FALSE(d.warnings.empty());
  EXPECT_NE(d.warnings[0].find("x-no-such-charset"), std::string::npos);
  EXPECT_EQ(d.charset, "UTF-8");
  EXPECT_NE(d.html.find(kRussian), std::string::npos);
}

// In a UTF-8 page (most of its non-ASCII sequences valid: "déjà", "café").
TEST(Decode, InvalidUtf8BecomesReplacementCharacter) {
  Decoded d = decode("<meta charset=utf-8><p>d\xC3\xA9j\xC3\xA0 vu, caf\xC3\xA9: ok \xC3\x28 and \xFF end</p>", "");
  EXPECT_EQ(d.charset, "UTF-8");
  EXPECT_NE(d.html.find("ok \xEF\xBF\xBD( and \xEF\xBF\xBD end"), std::string::npos);
  EXPECT_FALSE(d.warnings.empty());
}

// A page labelled in a legacy charset whose bytes are UTF-8 reads as
// UTF-8 (not as mojibake), with a warning naming the label.
TEST(Decode, Utf8BytesOutrankADeclaredLegacyCharset) {
  for (const char* label : {"windows-1252", "iso-8859-1", "shift_jis", "gbk"}) {
    Decoded d = decode(std::string("<meta charset=\"") + label + "\"><p>" + kFrench + "</p>", "");
    EXPECT_EQ(d.charset, "UTF-8") << label;
    EXPECT_NE(d.html.find(kFrench), std::string::npos) << label;
    ASSERT_FALSE(d.warnings.empty()) << label;
    EXPECT_NE(d.warnings[0].find("contradicts the bytes"), std::string::npos) << d.warnings[0];
  }
  // A header claiming UTF-16 over markup with no NUL byte.
  Decoded d = decode("<p>plain ASCII</p>", "text/html; charset=utf-16");
  EXPECT_EQ(d.charset, "UTF-8");
  EXPECT_EQ(d.html, "<p>plain ASCII</p>");
  // Bytes that are not UTF-8 keep the declared charset.
  Decoded legacy = decode("<meta charset=windows-1252><p>caf\xE9 cr\xE8me</p>", "");
  EXPECT_EQ(legacy.charset, "windows-1252");
  EXPECT_NE(legacy.html.find("café crème"), std::string::npos);
}

// A page in a Chinese, Japanese, Korean, Cyrillic or Greek charset that was
// read as Latin and written again as UTF-8, still declaring its charset, is
// read as written; Latin text under the same label stays UTF-8.
TEST(Decode, TextInAnotherScriptsCharsetReadAsLatinIsReadAsWritten) {
  constexpr const char* kKorean = "다람쥐 헌 쳇바퀴에 타고파. 키스의 고유조건은 입술끼리 만나야 하고 특별한 기술은 필요치 않다.";
  constexpr const char* kTraditional = "我能吞下玻璃而不傷身體。中華民國的首都是臺北，這是一段用來測試的文字。";
  constexpr const char* kGreekNews =
      "Η κυβέρνηση ανακοίνωσε σήμερα νέα μέτρα για την οικονομία της χώρας. Οι εργαζόμενοι στον δημόσιο τομέα "
      "θα δουν αλλαγές στους μισθούς τους από τον επόμενο μήνα, ενώ οι συνταξιούχοι περιμένουν ακόμη απαντήσεις.";
  const std::string russian_news = std::string(kRussian) + " " + kRussian;
  struct Case {
    const char* charset;
    const char* label;
    std::string text;
  };
  const Case cases[] = {{"GBK", "gbk", kChinese},
                        {"GB18030", "gb2312", kChinese},
                        {"Big5", "big5", kTraditional},
                        {"Shift_JIS", "shift_jis", kJapanese},
                        {"windows-949", "euc-kr", kKorean},
                        {"windows-1251", "windows-1251", russian_news},
                        {"KOI8-R", "koi8-r", russian_news},
                        {"windows-1253", "windows-1253", kGreekNews},
                        {"ISO-8859-7", "iso-8859-7", kGreekNews}};
  for (const Case& c : cases) {
    const std::string page = std::string("<html><head><meta charset=\"") + c.label +
                             "\"><title>t</title></head><body><p>" + c.text + "</p></body></html>";
    for (const char* reading : {"ISO-8859-15", "windows-1252", "ISO-8859-1"}) {
      const std::string latin = converted(encode(page, c.charset), reading, "UTF-8");
      Decoded d = decode(latin, "");
      EXPECT_EQ(d.html, page) << c.charset << " read as " << reading;
      ASSERT_FALSE(d.warnings.empty()) << c.charset << " read as " << reading;
      EXPECT_NE(d.warnings[0].find("written again as UTF-8"), std::string::npos) << d.warnings[0];
    }
  }
  // Latin text, or the label's own script written as UTF-8, under the
  // label: UTF-8.
  constexpr const char* kGerman =
      "Falsches Üben von Xylophonmusik quält jeden größeren Zwerg. Die Bürger müssen für höhere Gebühren zahlen, "
      "während die Straßen über den Winter schlechter werden und die Brücken Schäden zeigen.";
  constexpr const char* kPolish = "Zażółć gęślą jaźń, a potem „cytat” – i myślnik. Pójdźże, kiń tę chmurność w głąb flaszy.";
  const std::pair<const char*, std::string> unchanged[] = {
      {"gbk", kFrench},         {"gbk", "«Bonjour» à tous, caf\xC3\xA9. Été."},
      {"gbk", kChinese},        {"windows-1251", kFrench},
      {"windows-1251", kGerman}, {"windows-1251", kPolish},
      {"windows-1251", russian_news}, {"iso-8859-7", kGerman}};
  for (const auto& [label, text] : unchanged) {
    const std::string page = std::string("<meta charset=") + label + "><p>" + text + " " + text + "</p>";
    Decoded d = decode(page, "");
    EXPECT_EQ(d.html, page) << label << ": " << text;
    ASSERT_FALSE(d.warnings.empty());
    EXPECT_NE(d.warnings[0].find("contradicts the bytes"), std::string::npos) << d.warnings[0];
  }
}

TEST(Decode, BrowserLabelMapping) {
  EXPECT_EQ(canonical_charset("ISO-8859-1"), "windows-1252");
  EXPECT_EQ(canonical_charset(" GBK "), "GB18030");
  EXPECT_EQ(canonical_charset("utf8"), "UTF-8");
  EXPECT_EQ(canonical_charset("no-such"), "");
}

// UTF-8 text read as `charset` and written out as UTF-8 again: what a
// server that stores UTF-8 in a Latin-1 column sends.
std::string encoded_twice(const std::string& utf8, const char* charset) {
  UErrorCode err = U_ZERO_ERROR;
  std::string out(utf8.size() * 4 + 16, '\0');
  int32_t n = ucnv_convert("UTF-8", charset, out.data(), static_cast<int32_t>(out.size()), utf8.data(),
                           static_cast<int32_t>(utf8.size()), &err);
  EXPECT_TRUE(U_SUCCESS(err)) << charset;
  out.resize(static_cast<std::size_t>(n));
  return out;
}

TEST(Decode, TextEncodedTwiceIsRepaired) {
  constexpr const char* kPolish = "Zażółć gęślą jaźń, a potem „cytat” – i myślnik.";
  constexpr const char* kEnglish = "If you\xE2\x80\x99re having trouble reading this \xE2\x80\x94 a \xE2\x80\x9Cquote\xE2\x80\x9D.";
  constexpr const char* kGreek = "Η Ελλάδα είναι μια χώρα της νοτιοανατολικής Ευρώπης.";
  for (const char* charset : {"windows-1252", "ISO-8859-1"}) {
    for (const char* text : {kFrench, kPolish, kEnglish, kRussian, kChinese, kGreek}) {
      const std::string page = std::string("<html><head><title>t</title></head><body><p>") + text + "</p></body></html>";
      const std::string twice = encoded_twice(page, charset);
      ASSERT_NE(twice, page);
      Decoded d = decode(twice, "text/html; charset=utf-8");
      EXPECT_EQ(d.html, page) << charset << ": " << text;
      ASSERT_FALSE(d.warnings.empty()) << charset << ": " << text;
      EXPECT_NE(d.warnings.back().find("encoded twice"), std::string::npos) << d.warnings.back();
      EXPECT_EQ(decode_utf8(twice).html, page) << charset << ": " << text;
    }
  }
}

// The scans step over ASCII eight bytes at a time: a run encoded twice, or
// a byte that is no UTF-8, is found wherever it falls among them.
TEST(Decode, RunsAreFoundAtEveryOffsetAmongAsciiBytes) {
  const std::string once = "l\xE2\x80\x99\xC3\xA9t\xC3\xA9";
  const std::string twice = encoded_twice(once, "windows-1252");
  for (std::size_t before = 0; before < 18; ++before)
    for (std::size_t after = 0; after < 10; ++after) {
      const std::string pad_before(before, 'a'), pad_after(after, 'z');
      std::string text = pad_before + twice + pad_after;
      EXPECT_EQ(undo_double_encoding(text), 3u) << before << " " << after;
      EXPECT_EQ(text, pad_before + once + pad_after) << before << " " << after;
      std::string broken = pad_before + "\xFF" + pad_after;
      EXPECT_EQ(repair_utf8(broken), 1u) << before << " " << after;
      EXPECT_EQ(broken, pad_before + "\xEF\xBF\xBD" + pad_after) << before << " " << after;
    }
}

TEST(Decode, TextWrittenOnceIsLeftAsItIs) {
  // No telling sequence: "Ã©" alone could be a name written once.
  std::string once = "<p>Voilà » l\xE2\x80\x99\xC3\xA9t\xC3\xA9 de la Straße« — Ã©</p>";
  std::string copy = once;
  EXPECT_EQ(undo_double_encoding(copy), 0u);
  EXPECT_EQ(copy, once);
  for (const char* text : {kFrench, kRussian, kChinese, kJapanese}) {
    std::string page = std::string("<p>") + text + "</p>";
    EXPECT_EQ(undo_double_encoding(page), 0u) << text;
  }
  // On a page that does hold text encoded twice, a letter before a quotation
  // mark or a no-break space written once stays: "ß«" is no character a
  // page holds (U+07EB), nor is "à »" (U+083B).
  std::string mixed = "<p>" + encoded_twice("l\xE2\x80\x99\xC3\xA9t\xC3\xA9", "windows-1252") +
                      " der Straße« und voilà\xC2\xA0» </p>";
  EXPECT_EQ(undo_double_encoding(mixed), 3u);
  EXPECT_EQ(mixed, "<p>l\xE2\x80\x99\xC3\xA9t\xC3\xA9 der Straße« und voilà\xC2\xA0» </p>");
}

}  // namespace
}  // namespace husk
