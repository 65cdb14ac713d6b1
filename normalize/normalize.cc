#include "husk/normalize.h"

#include <unicode/brkiter.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <unordered_set>

#include "normalize/languages.h"
#include "normalize/normalize_icu.h"

namespace husk {

namespace {

// The ICU objects normalisation needs. Break iterators are not
// thread-safe: one prototype is built, and each thread works on clones.
struct IcuTools {
  const icu::Normalizer2* nfkc = nullptr;
  const icu::Normalizer2* nfkc_casefold = nullptr;
  std::unique_ptr<icu::BreakIterator> words;
  std::unique_ptr<icu::BreakIterator> sentences;
};

const IcuTools& prototype() {
  static const IcuTools tools = [] {
    IcuTools t;
    UErrorCode status = U_ZERO_ERROR;
    t.nfkc = icu::Normalizer2::getNFKCInstance(status);
    t.nfkc_casefold = icu::Normalizer2::getNFKCCasefoldInstance(status);
    t.words.reset(icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
    t.sentences.reset(icu::BreakIterator::createSentenceInstance(icu::Locale::getRoot(), status));
    if (U_FAILURE(status)) {
      std::fprintf(stderr, "husk: ICU normalisation data unavailable: %s\n", u_errorName(status));
      std::abort();
    }
    return t;
  }();
  return tools;
}

// The abbreviations of config/languages.toml, case-folded. ICU's own
// filtered sentence iterator misses forms with inner periods ("e.g.",
// "т.е."), so husk checks the word before each break itself.
const std::unordered_set<std::u16string>& folded_abbreviations() {
  static const std::unordered_set<std::u16string> set = [] {
    std::unordered_set<std::u16string> out;
    for (const std::string& a : language_data().abbreviations) {
      icu::UnicodeString u = icu::UnicodeString::fromUTF8(a);
      u.foldCase();
      out.emplace(reinterpret_cast<const char16_t*>(u.getBuffer()), static_cast<std::size_t>(u.length()));
    }
    return out;
  }();
  return set;
}

// The abbreviations that are ASCII once case-folded, for the ASCII path.
const std::unordered_set<std::string>& ascii_abbreviations() {
  static const std::unordered_set<std::string> set = [] {
    std::unordered_set<std::string> out;
    for (const std::u16string& a : folded_abbreviations()) {
      std::string ascii;
      for (char16_t c : a) {
        if (c >= 0x80) break;
        ascii.push_back(static_cast<char>(c));
      }
      if (ascii.size() == a.size()) out.insert(std::move(ascii));
    }
    return out;
  }();
  return set;
}

// True when the sentence ICU ended at `end` really ends there: its last
// word is neither an abbreviation nor an initial (one capital letter and a
// period: "J. R. R. Tolkien", "А. С. Пушкин").
bool ends_sentence(const icu::UnicodeString& text, int32_t begin, int32_t end) {
  while (end > begin && u_isWhitespace(text.char32At(end - 1))) --end;
  if (end <= begin || text.charAt(end - 1) != u'.') return true;
  int32_t word = end;
  while (word > begin && !u_isWhitespace(text.char32At(word - 1))) --word;
  int32_t letters = end - 1 - word;
  UChar32 first = text.char32At(word);
  if (letters > 0 && letters == U16_LENGTH(first) && u_isupper(first)) return false;
  icu::UnicodeString w = text.tempSubStringBetween(word, end);
  w.foldCase();
  return folded_abbreviations().count(
             std::u16string(reinterpret_cast<const char16_t*>(w.getBuffer()), static_cast<std::size_t>(w.length()))) == 0;
}

IcuTools& tools() {
  thread_local IcuTools local = [] {
    const IcuTools& p = prototype();
    IcuTools t;
    t.nfkc = p.nfkc;
    t.nfkc_casefold = p.nfkc_casefold;
    t.words.reset(p.words->clone());
    t.sentences.reset(p.sentences->clone());
    return t;
  }();
  return local;
}

// Letters whose case forms differ in more than case, folded together so
// that upper- and lower-case text give the same terms:
// - Turkish: dotted capital İ folds to "i" + U+0307 and dotless ı stays;
//   both become plain "i".
// - Greek: capitals are written without tonos/dialytika ("ΑΘΗΝΑ" for
//   "Αθήνα"), so the accented small letters lose them.
char16_t greek_base(char16_t c) {
  switch (c) {
    case 0x03AC: return 0x03B1;  // ά
    case 0x03AD: return 0x03B5;  // έ
    case 0x03AE: return 0x03B7;  // ή
    case 0x03AF: case 0x0390: case 0x03CA: return 0x03B9;  // ί ΐ ϊ
    case 0x03CC: return 0x03BF;  // ό
    case 0x03CD: case 0x03B0: case 0x03CB: return 0x03C5;  // ύ ΰ ϋ
    case 0x03CE: return 0x03C9;  // ώ
    default: return 0;
  }
}

void fold_letter_variants(icu::UnicodeString& s) {
  const char16_t* buffer = s.getBuffer();
  bool any = false;
  for (int32_t i = 0; i < s.length() && !any; ++i) {
    char16_t c = buffer[i];
    any = c == 0x0131 || c == 0x0307 || (c >= 0x0390 && c <= 0x03CE);
  }
  if (!any) return;
  for (int32_t i = 0; i < s.length(); ++i) {
    char16_t c = s.charAt(i);
    if (c == 0x0131) {
      s.setCharAt(i, u'i');
    } else if (c == 0x0307 && i > 0 && s.charAt(i - 1) == u'i') {
      s.remove(i, 1);
      --i;
    } else if (char16_t base = c >= 0x0390 && c <= 0x03CE ? greek_base(c) : 0) {
      s.setCharAt(i, base);
    }
  }
}

enum class Kind : uint8_t { kNumber, kLetter, kOther };

bool is_ascii(const icu::UnicodeString& s) {
  const char16_t* buffer = s.getBuffer();
  for (int32_t i = 0; i < s.length(); ++i)
    if (buffer[i] >= 0x80) return false;
  return true;
}

bool has_letter(const icu::UnicodeString& s, int32_t begin, int32_t end) {
  for (int32_t i = begin; i < end; i = s.moveIndex32(i, 1))
    if (u_isalpha(s.char32At(i))) return true;
  return false;
}

// ---- The ASCII path ----
// A paragraph of printable ASCII (with the typographic quotes, dashes,
// ellipsis and no-break space of English text) is segmented without ICU,
// by the rules of UAX #29 that ICU's root sentence and word iterators
// apply, restricted to those characters' classes: the same breaks, terms
// and sentences, held to ICU by Normalize.AsciiPathGivesIcusTermsAndSentences.
// On a million generated English-like texts ICU's iterators took a fifth
// of husk dedup's CPU time (perf).

// What the path asks of a character, by its byte: one table lookup where
// each question was two or three comparisons (the word scan and the
// form's copy were most of normalising's samples, perf).
enum : uint8_t { kLetter = 1, kDigit = 2, kUpper = 4, kPlain = 8 };
constexpr std::array<uint8_t, 256> kAsciiClass = [] {
  std::array<uint8_t, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[c] |= kLetter;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] |= kLetter | kUpper;
  for (int c = '0'; c <= '9'; ++c) t[c] |= kDigit;
  for (int c = 0x20; c <= 0x7E; ++c)
    if (c != '_' && c != '@') t[c] |= kPlain;  // copied as they are by ascii_form
  return t;
}();
uint8_t ascii_class(char c) { return kAsciiClass[static_cast<unsigned char>(c)]; }

bool ascii_letter(char c) { return ascii_class(c) & kLetter; }
bool ascii_alnum(char c) { return ascii_class(c) & (kLetter | kDigit); }
char ascii_lower(char c) { return ascii_class(c) & kUpper ? static_cast<char>(c + 32) : c; }

// The typographic characters the path takes, each standing for one byte
// of the path's own form (below 0x20, which the form has no other use for).
struct Typographic {
  char form;
  std::string_view utf8;
};
constexpr Typographic kTypographic[] = {
    {'\x01', "\xE2\x80\x99"},  // ’ U+2019: MidNumLet, Close
    {'\x02', "\xE2\x80\x98"},  // ‘ U+2018: MidNumLet, Close
    {'\x03', "\xE2\x80\x9C"},  // “ U+201C: Close
    {'\x04', "\xE2\x80\x9D"},  // ” U+201D: Close
    {'\x05', "\xE2\x80\x93"},  // – U+2013: SContinue
    {'\x06', "\xE2\x80\x94"},  // — U+2014: SContinue
};

// The paragraph in the path's form, or false when it holds anything the
// path does not take. NFKC, which the ICU path applies first, makes the
// no-break space a space and the ellipsis three full stops. '_' and '@'
// are left to ICU: its rules make them parts of words with statuses that
// follow no simple rule ("__" and "@" are letter words, "_" none, "1@2" a
// number).
bool ascii_form(std::string_view p, std::string& out) {
  out.clear();
  out.reserve(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    // A run of printable ASCII is copied whole.
    std::size_t end = i;
    while (end < p.size() && (ascii_class(p[end]) & kPlain)) ++end;
    if (end > i) {
      out.append(p.data() + i, end - i);
      i = end;
      if (i == p.size()) break;
    }
    const char c = p[i];
    if (c == '_' || c == '@') return false;
    const std::string_view rest = p.substr(i);
    if (rest.substr(0, 2) == "\xC2\xA0") {
      out.push_back(' ');
      i += 1;
      continue;
    }
    if (rest.substr(0, 3) == "\xE2\x80\xA6") {
      out += "...";
      i += 2;
      continue;
    }
    const Typographic* t = nullptr;
    for (const Typographic& k : kTypographic)
      if (rest.substr(0, 3) == k.utf8) t = &k;
    if (t == nullptr) return false;
    out.push_back(t->form);
    i += 2;
  }
  return true;
}

// Sentence_Break values of the path's characters (UAX #29,
// SentenceBreakProperty.txt); ';' is Other there.
enum class Sb : uint8_t { kOther, kSp, kLower, kUpper, kNumeric, kATerm, kSTerm, kClose, kSContinue };

Sb sentence_class(char c) {
  if (c >= 'a' && c <= 'z') return Sb::kLower;
  if (c >= 'A' && c <= 'Z') return Sb::kUpper;
  if (c >= '0' && c <= '9') return Sb::kNumeric;
  switch (c) {
    case ' ': return Sb::kSp;
    case '.': return Sb::kATerm;
    case '!': case '?': return Sb::kSTerm;
    case '"': case '\'': case '(': case ')': case '[': case ']': case '{': case '}': return Sb::kClose;
    case '\x01': case '\x02': case '\x03': case '\x04': return Sb::kClose;
    case ',': case '-': case ':': case '\x05': case '\x06': return Sb::kSContinue;
    default: return Sb::kOther;
  }
}

// The sentence boundaries after the start, the text's end the last (what
// ICU's iterator returns from next()): SB6-SB11 without paragraph
// separators, Extend or Format, which printable ASCII has none of.
void ascii_sentence_breaks(std::string_view s, std::vector<std::size_t>& out) {
  out.clear();
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    // Most characters end nothing: they are passed by a plain comparison
    // (sentence_class's switch for each was a tenth of normalising, perf).
    if (s[i] != '.' && s[i] != '!' && s[i] != '?') {
      ++i;
      continue;
    }
    const Sb term = sentence_class(s[i]);
    std::size_t j = i + 1;
    if (term == Sb::kATerm && j < n) {
      const Sb next = sentence_class(s[j]);
      const Sb before = i > 0 ? sentence_class(s[i - 1]) : Sb::kOther;
      // SB6 "3.14"; SB7 "U.S"
      if (next == Sb::kNumeric || (next == Sb::kUpper && (before == Sb::kUpper || before == Sb::kLower))) {
        i = j;
        continue;
      }
    }
    while (j < n && sentence_class(s[j]) == Sb::kClose) ++j;  // SB9
    while (j < n && sentence_class(s[j]) == Sb::kSp) ++j;     // SB10
    if (j >= n) break;
    const Sb at = sentence_class(s[j]);
    if (at == Sb::kSContinue || at == Sb::kATerm || at == Sb::kSTerm) {  // SB8a
      i = j;
      continue;
    }
    if (term == Sb::kATerm) {  // SB8: no break before a lower-case word
      std::size_t k = j;
      Sb c = at;
      while (k < n && c != Sb::kUpper && c != Sb::kLower && c != Sb::kATerm && c != Sb::kSTerm)
        c = ++k < n ? sentence_class(s[k]) : Sb::kOther;
      if (k < n && c == Sb::kLower) {
        i = k;
        continue;
      }
    }
    out.push_back(j);  // SB11
    i = j;
  }
  out.push_back(n);
}

// ends_sentence for ASCII text.
bool ascii_ends_sentence(std::string_view text, std::size_t begin, std::size_t end) {
  while (end > begin && text[end - 1] == ' ') --end;
  if (end <= begin || text[end - 1] != '.') return true;
  std::size_t word = end;
  while (word > begin && text[word - 1] != ' ') --word;
  if (end - 1 - word == 1 && text[word] >= 'A' && text[word] <= 'Z') return false;
  std::string w(text.substr(word, end - word));
  for (char& c : w) c = ascii_lower(c);
  return ascii_abbreviations().count(w) == 0;
}

// Whether the character between two word characters joins them into one
// word (letters of either case): '.', '\'', ’ and ‘ between two letters or two digits
// (WB6, WB7, WB11, WB12), ',' and ';' between two digits (WB11, WB12).
// ICU's root rules leave ':' out of MidLetter.
bool joins(char mid, char left, char right) {
  const bool l = ascii_letter(left), r = ascii_letter(right);
  if (mid == '.' || mid == '\'' || mid == '\x01' || mid == '\x02') return l == r;
  if (mid == ',' || mid == ';') return !l && !r;
  return false;
}

// What joining spaced letters reads of a term beside its text. The texts
// are kept in a vector of their own, so that a text without spaced letters
// hands them on whole: moving each term's string into a second vector was
// a tenth of normalising (perf, generated texts).
struct TermMark {
  bool single_letter;  // one letter, of a script written with spaces
  bool gap_before;     // something (space, symbol) stood between this and the previous term
  uint32_t sentence;
};

// Joins runs of spaced single letters (see NormalizeOptions); `terms` is
// left moved from.
std::vector<std::string> join_spaced_letters(std::vector<std::string>& terms, const std::vector<TermMark>& marks,
                                             std::vector<uint32_t>& sentence_of, const NormalizeOptions& options) {
  // Where each run of spaced single letters starting at i ends.
  auto run_end = [&](std::size_t i) {
    std::size_t j = i + 1;
    if (!options.join_spaced_letters || !marks[i].single_letter) return j;
    while (j < marks.size() && marks[j].single_letter && marks[j].gap_before && marks[j].sentence == marks[i].sentence)
      ++j;
    return j;
  };
  // The words of the text, the witnesses a short run needs; gathered only
  // when the text has such a run, before any term moves to the output.
  bool any_run = false;
  std::unordered_set<std::string_view> words;
  for (std::size_t i = 0; i < marks.size();) {
    std::size_t j = run_end(i);
    if (j - i >= 3) {
      any_run = true;
      if (j - i < options.spaced_letters_min_run) {
        for (std::size_t k = 0; k < terms.size(); ++k)
          if (!marks[k].single_letter) words.insert(terms[k]);
        break;
      }
    }
    i = j;
  }
  sentence_of.clear();
  if (!any_run) {
    for (const TermMark& m : marks) sentence_of.push_back(m.sentence);
    return std::move(terms);
  }
  std::vector<std::string> out;
  out.reserve(terms.size());
  for (std::size_t i = 0; i < terms.size();) {
    std::size_t j = run_end(i);
    std::size_t run = j - i;
    if (run >= 3) {
      std::string joined;
      for (std::size_t k = i; k < j; ++k) joined += terms[k];
      if (run >= options.spaced_letters_min_run || words.count(joined)) {
        out.push_back(std::move(joined));
        sentence_of.push_back(marks[i].sentence);
        i = j;
        continue;
      }
    }
    out.push_back(std::move(terms[i]));
    sentence_of.push_back(marks[i].sentence);
    ++i;
  }
  return out;
}

class Normalizer {
 public:
  Normalizer(const NormalizeOptions& options, bool ascii_path) : options_(options), t_(tools()), ascii_path_(ascii_path) {}

  NormalizedText run(std::string_view text) {
    // About a term for every six bytes: an English word and the space
    // after it (Cyrillic, Greek and CJK terms take more bytes), so that
    // the terms are rarely moved as the vector grows; up to a page's worth,
    // so that a huge text of few words does not reserve for many.
    constexpr std::size_t kMostReserved = 1 << 16;
    terms_.reserve(std::min(text.size() / 6, kMostReserved));
    marks_.reserve(std::min(text.size() / 6, kMostReserved));
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t nl = text.find('\n', start);
      if (nl == std::string_view::npos) nl = text.size();
      if (nl > start) paragraph(text.substr(start, nl - start));
      start = nl + 1;
    }
    NormalizedText out;
    std::vector<uint32_t> sentence_of;
    out.terms = join_spaced_letters(terms_, marks_, sentence_of, options_);
    for (uint32_t i = 0; i < out.terms.size(); ++i) {
      if (out.sentences.empty() || sentence_of[i] != sentence_of[i - 1]) out.sentences.push_back({i, i});
      out.sentences.back().end_term = i + 1;
    }
    return out;
  }

 private:
  // A paragraph always ends a sentence.
  void paragraph(std::string_view p) {
    if (ascii_path_ && ascii_form(p, form_)) {
      const std::string_view f = form_;
      ascii_sentence_breaks(f, ascii_breaks_);
      std::size_t begin = 0;
      for (std::size_t end : ascii_breaks_) {
        if (end < f.size() && !ascii_ends_sentence(f, begin, end)) continue;
        ascii_sentence(f.substr(begin, end - begin));
        begin = end;
      }
      return;
    }
    UErrorCode status = U_ZERO_ERROR;
    icu::UnicodeString text = icu::UnicodeString::fromUTF8(icu::StringPiece(p.data(), static_cast<int32_t>(p.size())));
    // ASCII is its own NFKC.
    if (!is_ascii(text)) text = t_.nfkc->normalize(text, status);
    if (U_FAILURE(status)) return;
    icu::BreakIterator& sentences = *t_.sentences;
    sentences.setText(text);
    int32_t begin = sentences.first();
    for (int32_t end = sentences.next(); end != icu::BreakIterator::DONE; end = sentences.next()) {
      if (end < text.length() && !ends_sentence(text, begin, end)) continue;
      sentence(text.tempSubStringBetween(begin, end));
      begin = end;
    }
  }

  void sentence(const icu::UnicodeString& s) {
    UErrorCode status = U_ZERO_ERROR;
    icu::UnicodeString folded;
    if (is_ascii(s)) {
      // NFKC_Casefold of ASCII is ASCII lower case.
      folded = s;
      char16_t* buffer = folded.getBuffer(folded.length());
      for (int32_t i = 0; i < s.length(); ++i)
        if (buffer[i] >= u'A' && buffer[i] <= u'Z') buffer[i] = static_cast<char16_t>(buffer[i] + 32);
      folded.releaseBuffer(s.length());
    } else {
      folded = t_.nfkc_casefold->normalize(s, status);
      if (U_FAILURE(status)) return;
      fold_letter_variants(folded);
    }
    icu::BreakIterator& words = *t_.words;
    words.setText(folded);
    int32_t prev_end = -1;
    bool any = false;
    int32_t begin = words.first();
    for (int32_t end = words.next(); end != icu::BreakIterator::DONE; begin = end, end = words.next()) {
      int32_t status_rule = words.getRuleStatus();
      if (status_rule < UBRK_WORD_NONE_LIMIT) continue;
      Kind kind = status_rule < UBRK_WORD_NUMBER_LIMIT ? Kind::kNumber
                  : status_rule < UBRK_WORD_LETTER_LIMIT ? Kind::kLetter
                                                         : Kind::kOther;
      // ICU tags "covid19" a number; only words without letters are numbers.
      if (kind == Kind::kNumber && has_letter(folded, begin, end)) kind = Kind::kLetter;
      bool gap = prev_end >= 0 && begin != prev_end;
      prev_end = end;
      const bool single_letter = kind == Kind::kLetter && end - begin == U16_LENGTH(folded.char32At(begin)) &&
                                 u_isalpha(folded.char32At(begin));
      any |= add_term(kind, gap, single_letter,
                      [&](std::string& text) { folded.tempSubStringBetween(begin, end).toUTF8String(text); });
    }
    if (any) ++sentence_index_;
  }

  // A word of the current sentence as a term, by the number policy (a
  // dropped number is none: false); `write` appends the word's text.
  template <typename Write>
  bool add_term(Kind kind, bool gap, bool single_letter, Write&& write) {
    if (kind == Kind::kNumber && options_.numbers == NumberPolicy::kDrop) return false;
    marks_.push_back({single_letter, gap, sentence_index_});
    std::string& text = terms_.emplace_back();
    if (kind == Kind::kNumber && options_.numbers == NumberPolicy::kMask)
      text = "#";
    else
      write(text);
    return true;
  }

  // sentence() for a sentence of the ASCII path: words by joins(), each
  // written in lower case (the sentence is read as it is: a lower-cased
  // copy of it first was a pass and a copy more for every character).
  void ascii_sentence(std::string_view t) {
    const std::size_t n = t.size();
    std::ptrdiff_t prev_end = -1;
    bool any = false;
    for (std::size_t i = 0; i < n;) {
      if (!ascii_alnum(t[i])) {
        ++i;
        continue;
      }
      const std::size_t begin = i;
      uint8_t seen = 0;
      for (;;) {
        for (uint8_t c; i < n && ((c = ascii_class(t[i])) & (kLetter | kDigit)); ++i) seen |= c;
        if (i + 1 < n && ascii_alnum(t[i + 1]) && joins(t[i], t[i - 1], t[i + 1])) {
          ++i;
          continue;
        }
        break;
      }
      const Kind kind = seen & kLetter ? Kind::kLetter : Kind::kNumber;
      const bool gap = prev_end >= 0 && static_cast<std::ptrdiff_t>(begin) != prev_end;
      prev_end = static_cast<std::ptrdiff_t>(i);
      any |= add_term(kind, gap, kind == Kind::kLetter && i - begin == 1, [&](std::string& text) {
        const std::string_view word = t.substr(begin, i - begin);
        if (std::none_of(word.begin(), word.end(), [](char c) { return c == '\x01' || c == '\x02'; })) {
          text.assign(word);
          if (seen & kUpper)
            for (char& c : text) c = ascii_lower(c);
          return;
        }
        for (char c : word) {
          if (c == '\x01' || c == '\x02')
            text += kTypographic[c - 1].utf8;
          else
            text.push_back(ascii_lower(c));
        }
      });
    }
    if (any) ++sentence_index_;
  }

  const NormalizeOptions& options_;
  IcuTools& t_;
  const bool ascii_path_;
  std::vector<std::size_t> ascii_breaks_;
  std::string form_;
  std::vector<std::string> terms_;
  std::vector<TermMark> marks_;
  uint32_t sentence_index_ = 0;
};

}  // namespace

std::string NormalizedText::joined() const {
  std::string out;
  for (const std::string& t : terms) {
    if (!out.empty()) out.push_back(' ');
    out += t;
  }
  return out;
}

NormalizedText normalize(std::string_view text, const NormalizeOptions& options) {
  return Normalizer(options, true).run(text);
}

NormalizedText normalize_by_icu(std::string_view text, const NormalizeOptions& options) {
  return Normalizer(options, false).run(text);
}

Result<NumberPolicy> parse_number_policy(std::string_view name) {
  if (name == "keep") return NumberPolicy::kKeep;
  if (name == "drop") return NumberPolicy::kDrop;
  if (name == "mask") return NumberPolicy::kMask;
  return Status(Code::kInvalidArgument, "numbers must be keep, drop or mask, not \"" + std::string(name) + "\"");
}

const char* number_policy_name(NumberPolicy policy) {
  switch (policy) {
    case NumberPolicy::kKeep: return "keep";
    case NumberPolicy::kDrop: return "drop";
    case NumberPolicy::kMask: return "mask";
  }
  return "?";
}

std::string describe(const NormalizeOptions& options) {
  return std::string("numbers=") + number_policy_name(options.numbers) +
         ",letters=" + (options.join_spaced_letters ? "join" : "keep") +
         ",min-run=" + std::to_string(options.spaced_letters_min_run);
}

Result<NormalizeOptions> parse_normalize_options(std::string_view text, const NormalizeOptions& base) {
  NormalizeOptions options = base;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(pos, comma - pos);
    pos = comma + 1;
    if (item.empty()) continue;
    std::size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      return Status(Code::kInvalidArgument, "normalize option \"" + std::string(item) + "\" is not key=value");
    std::string_view key = item.substr(0, eq);
    std::string_view value = item.substr(eq + 1);
    if (key == "numbers") {
      auto policy = parse_number_policy(value);
      if (!policy.ok()) return policy.status();
      options.numbers = *policy;
    } else if (key == "letters") {
      if (value != "join" && value != "keep")
        return Status(Code::kInvalidArgument, "letters must be join or keep, not \"" + std::string(value) + "\"");
      options.join_spaced_letters = value == "join";
    } else if (key == "min-run") {
      uint32_t n = 0;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || p != value.data() + value.size() || n < 3)
        return Status(Code::kInvalidArgument, "min-run must be a number of at least 3");
      options.spaced_letters_min_run = n;
    } else {
      return Status(Code::kInvalidArgument, "unknown normalize option \"" + std::string(key) +
                                                "\" (known: numbers, letters, min-run)");
    }
  }
  return options;
}

}  // namespace husk
