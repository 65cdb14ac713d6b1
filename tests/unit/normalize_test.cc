#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include "husk/normalize.h"
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

}  // namespace
}  // namespace husk
