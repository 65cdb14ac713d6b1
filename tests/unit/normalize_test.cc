#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include "husk/normalize.h"

#include <nlohmann/json.hpp>
#include <random>

#include "normalize/normalize_icu.h"
#include "husk/sign.h"
#include "unit/test_util.h"

namespace husk {
namespace {

std::string terms_of(const std::string& text, NormalizeOptions options = {}) {
  return normalize(text, options).joined();
}

// The cases below were written for masked numbers ("#"); the default keeps
// them (NumberPolicies checks both).
NormalizeOptions masked() {
  NormalizeOptions o;
  o.numbers = NumberPolicy::kMask;
  return o;
}

std::vector<std::string> sentences_of(const std::string& text) {
  NormalizedText n = normalize(text, masked());
  std::vector<std::string> out;
  for (const Sentence& s : n.sentences) {
    std::string joined;
    for (uint32_t i = s.first_term; i < s.end_term; ++i) joined += (i > s.first_term ? " " : "") + n.terms[i];
    out.push_back(joined);
  }
  return out;
}

struct TermCase {
  const char* name;
  const char* text;
  const char* expect;
};
// Names the case in test listings instead of dumping its bytes.
void PrintTo(const TermCase& c, std::ostream* os) { *os << c.name; }

class TermsTest : public ::testing::TestWithParam<TermCase> {};

TEST_P(TermsTest, Normalises) { EXPECT_EQ(terms_of(GetParam().text, masked()), GetParam().expect) << GetParam().name; }

INSTANTIATE_TEST_SUITE_P(
    Cases, TermsTest,
    ::testing::Values(
        TermCase{"case and punctuation", "Hello, World! It's “quoted” — isn't it?", "hello world it's quoted isn't it"},
        TermCase{"pseudo-graphics and emoji", "══╡ Sale ╞══ ★★★ great 😀 deal ▶▶", "sale great deal"},
        TermCase{"decorative letters", "♥L♥O♥V♥E♥ you", "love you"},
        TermCase{"spaced word", "это с в я щ е н н ы й текст", "это священный текст"},
        TermCase{"three letters need a witness", "и в с дом; a b c abc", "и в с дом abc abc"},
        TermCase{"real single letters stay", "I saw a cat", "i saw a cat"},
        TermCase{"numbers masked", "On 12.05.2024 at 10:30 it cost $1,200.50", "on # at # # it cost #"},
        TermCase{"compatibility forms", "ﬁnance ＡＢＣ ①", "finance abc #"},
        TermCase{"zero-width and soft hyphen", "co\u200Dop\u00ADera\u200Btion", "cooperation"},
        TermCase{"chinese words", "我能吞下玻璃而不伤身体", "我能 吞下 玻璃 而不 伤 身体"},
        TermCase{"letters beside cjk are not joined", "第 二 三 四 五", "第 二 三 四 五"}),
    [](const ::testing::TestParamInfo<TermCase>& info) { return test::test_name(info.param.name); });

TEST(Normalize, NumberPolicies) {
  NormalizeOptions keep, drop;
  keep.numbers = NumberPolicy::kKeep;
  drop.numbers = NumberPolicy::kDrop;
  EXPECT_EQ(terms_of("Price 42 euros, covid19", keep), "price 42 euros covid19");
  EXPECT_EQ(terms_of("Price 42 euros, covid19"), "price 42 euros covid19") << "keep is the default";
  EXPECT_EQ(terms_of("Price 42 euros, covid19", masked()), "price # euros covid19");
  EXPECT_EQ(terms_of("Price 42 euros, covid19", drop), "price euros covid19");
}

TEST(Normalize, SentencesEndAtPunctuationAndParagraphsNotAtAbbreviations) {
  EXPECT_EQ(sentences_of("Mr. Smith met Dr. J. R. R. Tolkien, e.g. at home. It rained!\n\nNo period here\nNext line."),
            (std::vector<std::string>{"mr smith met dr j r r tolkien e.g at home", "it rained", "no period here",
                                      "next line"}));
  EXPECT_EQ(sentences_of("Он сказал, т.е. Иванов пришёл в 5 ч. утра. А. С. Пушкин написал."),
            (std::vector<std::string>{"он сказал т.е иванов пришёл в # ч утра", "а с пушкин написал"}));
  EXPECT_EQ(sentences_of("第一句话。第二句话！"), (std::vector<std::string>{"第 一句 话", "第 二句话"}));
}

TEST(Normalize, OptionsParseAndDescribe) {
  auto o = parse_normalize_options("numbers=drop,letters=keep,min-run=5");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->numbers, NumberPolicy::kDrop);
  EXPECT_FALSE(o->join_spaced_letters);
  EXPECT_EQ(describe(*o), "numbers=drop,letters=keep,min-run=5");
  EXPECT_FALSE(parse_normalize_options("numbers=sometimes").ok());
  EXPECT_FALSE(parse_normalize_options("colour=blue").ok());
  EXPECT_EQ(describe(*parse_normalize_options("")), describe(NormalizeOptions{}));
}

// The same text in NFC and NFD, upper and lower case, with NBSP and
// zero-width joiners, must sign the same (issue bar: md5, simhash, minhash).
std::string variant(const std::string& text, int kind) {
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(text);
  switch (kind) {
    case 0: break;
    case 1: u = icu::Normalizer2::getNFDInstance(status)->normalize(u, status); break;
    case 2: u.toUpper(icu::Locale::getRoot()); break;
    case 3: u.toUpper(icu::Locale("tr")); break;
    case 4: u.toUpper(icu::Locale("el")); break;
    case 5: u.findAndReplace(" ", u"\u00A0"); break;
    case 6: {
      icu::UnicodeString out;
      for (int32_t i = 0; i < u.length(); i = u.moveIndex32(i, 1)) {
        out.append(u.char32At(i));
        if (i % 3 == 1 && u_isalpha(u.char32At(i))) out.append(static_cast<UChar32>(0x200D));
      }
      u = out;
      break;
    }
    case 7: u = icu::Normalizer2::getNFDInstance(status)->normalize(u, status); u.toUpper(icu::Locale::getRoot()); break;
  }
  std::string out;
  u.toUTF8String(out);
  return out;
}

TEST(Normalize, UnicodeVariantsSignTheSame) {
  const std::vector<std::string> texts = {
      "Съешь же ещё этих мягких французских булок, да выпей чаю. Ёлка и йогурт в Москве.",
      "我能吞下玻璃而不伤身体。中华人民共和国成立于一九四九年，首都是北京。",
      "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας. Ο Σωκράτης ήταν φιλόσοφος, όπως και ο Πλάτων.",
      "İstanbul ve Ankara, Türkiye'nin en büyük şehirleridir. Iğdır ılık, Ağrı soğuk; şişli çiçekler.",
  };
  SignOptions options;
  options.signers = {"md5", "simhash", "minhash"};
  for (const std::string& text : texts) {
    Signatures base = sign(normalize(text), options, nullptr);
    ASSERT_GT(base.terms, 5u);
    for (int kind = 1; kind <= 7; ++kind) {
      std::string v = variant(text, kind);
      Signatures s = sign(normalize(v), options, nullptr);
      EXPECT_EQ(s.md5, base.md5) << "variant " << kind << ": " << v << "\n  " << normalize(v).joined() << "\n  "
                                 << normalize(text).joined();
      EXPECT_EQ(s.simhash, base.simhash) << "variant " << kind;
      EXPECT_EQ(s.minhash, base.minhash) << "variant " << kind;
    }
  }
}

// The ASCII path against its twin, every paragraph through ICU: the same
// terms and sentences under every option, on generated text that holds
// every printable ASCII character and the typographic ones the path takes
// in the places the segmentation rules
// care about (abbreviations, initials, decimals, quotes and brackets after
// a full stop, lower- and upper-case words after one), paragraphs that mix
// ASCII with other text, and on the article-extraction-benchmark's gold
// articles.
TEST(Normalize, AsciiPathGivesIcusTermsAndSentences) {
  static const char* kPieces[] = {
      "the", "The", "THE", "news", "a", "I", "x", "J.", "e.g.", "etc.", "Mr.", "U.S.", "U.S.A.", "i.e.", "No.",
      "3.14", "1,000", "1;2", "10:30", "a:b", "don't", "rock'n'roll", "x.y", "a.B", "B.a", "v2", "2b", "1.a", "'",
      "\"", "(", ")", "[", "]", "{", "}", ".", "..", "...", "!", "?", "?!", ",", ";", ":", "-", "--", "#", "$", "%",
      "&", "*", "+", "/", "<", "=", ">", "@", "\\", "^", "`", "|", "~", " ", "  ", "\t", "caf\xC3\xA9", "_", "a_b",
      "\n", "S u p e r", "o k",
      // the typographic characters of English text the path takes
      "\xE2\x80\x99", "\xE2\x80\x98", "\xE2\x80\x9C", "\xE2\x80\x9D", "\xE2\x80\x93", "\xE2\x80\x94",
      "\xE2\x80\xA6", "\xC2\xA0", "don\xE2\x80\x99t", "\xE2\x80\x98quoted\xE2\x80\x99",
      "\xE2\x80\x9CHi.\xE2\x80\x9D she", "end.\xE2\x80\x9D Next", "a\xE2\x80\x94" "b", "x\xE2\x80\xA6y",
      "1\xE2\x80\x99" "000", "p.\xC2\xA0" "B"};
  std::mt19937_64 random(29);
  std::uniform_int_distribution<std::size_t> piece(0, std::size(kPieces) - 1), length(1, 40), joined(0, 3);
  std::vector<std::string> texts;
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    for (std::size_t n = length(random); n > 0; --n) {
      text += kPieces[piece(random)];
      if (joined(random) > 0) text += ' ';  // mostly spaced, sometimes run together
    }
    texts.push_back(std::move(text));
  }
  for (int c = 0x20; c < 0x7F; ++c)
    for (const char* around : {"a%cb", "1%c2", "a.%c b", "a. %cb", "A%c B", "x?%c y", "Mr%c Smith. It"}) {
      char buffer[32];
      std::snprintf(buffer, sizeof(buffer), around, c);
      texts.emplace_back(buffer);
    }
  if (const std::string aeb = test::dataset("article-extraction-benchmark"); !aeb.empty()) {
    const auto gold = nlohmann::json::parse(test::read_file(aeb + "/ground-truth.json"));
    for (const auto& [id, page] : gold.items()) texts.push_back(page.value("articleBody", ""));
  }
  std::size_t ascii_paragraphs = 0;
  for (const std::string& text : texts) {
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = std::min(text.find('\n', start), text.size());
      bool ascii = end > start;
      // What the generator writes that the path leaves to ICU: '_', '@',
      // a tab, an accented letter.
      for (std::size_t k = start; k < end; ++k)
        ascii &= text[k] != '_' && text[k] != '@' && text[k] != '\t' && text[k] != '\xC3';
      ascii_paragraphs += ascii;
      start = end + 1;
    }
  }
  EXPECT_GT(ascii_paragraphs, texts.size() / 2);  // the ASCII path was taken
  for (NumberPolicy numbers : {NumberPolicy::kKeep, NumberPolicy::kMask, NumberPolicy::kDrop})
    for (bool join : {true, false}) {
      NormalizeOptions o;
      o.numbers = numbers;
      o.join_spaced_letters = join;
      std::size_t differ = 0;
      for (const std::string& text : texts) {
        const NormalizedText fast = normalize(text, o), icu = normalize_by_icu(text, o);
        bool same = fast.terms == icu.terms && fast.sentences.size() == icu.sentences.size();
        for (std::size_t k = 0; same && k < fast.sentences.size(); ++k)
          same = fast.sentences[k].first_term == icu.sentences[k].first_term &&
                 fast.sentences[k].end_term == icu.sentences[k].end_term;
        if (!same && ++differ <= 5)
          ADD_FAILURE() << "[" << text << "]\n  ascii: " << fast.joined() << " (" << fast.sentences.size()
                        << " sentences)\n  icu:   " << icu.joined() << " (" << icu.sentences.size() << " sentences)";
      }
      EXPECT_EQ(differ, 0u) << describe(o);
    }
}

}  // namespace
}  // namespace husk
