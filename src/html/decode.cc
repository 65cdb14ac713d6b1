#include "husk/html.h"

#include <unicode/ucnv.h>
#include <unicode/ucsdet.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>

#include "base/text_util.h"
#include "html/prescan.h"

namespace husk {

namespace {

// WHATWG Encoding Standard label table, reduced to the labels whose ICU
// meaning differs from the browser's.
struct LabelAlias {
  std::string_view label;
  std::string_view charset;
};
constexpr LabelAlias kAliases[] = {
    {"utf8", "UTF-8"},           {"unicode-1-1-utf-8", "UTF-8"},
    {"iso-8859-1", "windows-1252"}, {"iso8859-1", "windows-1252"}, {"latin1", "windows-1252"},
    {"l1", "windows-1252"},      {"us-ascii", "windows-1252"},  {"ascii", "windows-1252"},
    {"cp1252", "windows-1252"},  {"iso_8859-1", "windows-1252"},
    {"iso-8859-9", "windows-1254"}, {"latin5", "windows-1254"},
    {"gb2312", "GB18030"},       {"gbk", "GB18030"},           {"x-gbk", "GB18030"},
    {"gb_2312-80", "GB18030"},   {"chinese", "GB18030"},       {"csgb2312", "GB18030"},
    {"tis-620", "windows-874"},  {"iso-8859-11", "windows-874"},
    {"x-sjis", "Shift_JIS"},     {"shift-jis", "Shift_JIS"},   {"sjis", "Shift_JIS"},
    {"windows-31j", "Shift_JIS"}, {"ks_c_5601-1987", "windows-949"}, {"euc-kr", "windows-949"},
    {"x-user-defined", "windows-1252"},
};

struct ConverterCloser {
  void operator()(UConverter* c) const { ucnv_close(c); }
};
using ConverterPtr = std::unique_ptr<UConverter, ConverterCloser>;

struct DetectorCloser {
  void operator()(UCharsetDetector* d) const { ucsdet_close(d); }
};

// The value of "charset=" inside a header or meta content, or empty.
std::string charset_param(std::string_view text) {
  std::string lower = ascii_lower(text);
  std::size_t pos = lower.find("charset");
  while (pos != std::string::npos) {
    std::size_t i = pos + 7;
    while (i < lower.size() && is_ascii_space(lower[i])) ++i;
    if (i < lower.size() && lower[i] == '=') {
      ++i;
      while (i < lower.size() && is_ascii_space(lower[i])) ++i;
      char quote = 0;
      if (i < lower.size() && (lower[i] == '"' || lower[i] == '\'')) quote = lower[i++];
      std::size_t start = i;
      while (i < lower.size() && lower[i] != quote && lower[i] != ';' && lower[i] != '>' &&
             lower[i] != '/' && !(quote == 0 && (is_ascii_space(lower[i]) || lower[i] == '"' || lower[i] == '\'')))
        ++i;
      return std::string(trim(std::string_view(lower).substr(start, i - start)));
    }
    pos = lower.find("charset", pos + 7);
  }
  return {};
}

// The charset a <meta> tag in the first bytes declares, or empty.
std::string meta_charset(std::string_view head) {
  std::size_t pos = 0;
  while ((pos = head.find('<', pos)) != std::string_view::npos) {
    if (head.compare(pos, 4, "<!--") == 0) {
      std::size_t end = head.find("-->", pos + 4);
      if (end == std::string_view::npos) return {};
      pos = end + 3;
      continue;
    }
    if (starts_with_ci(head.substr(pos), "<meta") && pos + 5 < head.size() &&
        (is_ascii_space(head[pos + 5]) || head[pos + 5] == '/')) {
      std::size_t end = head.find('>', pos);
      if (end == std::string_view::npos) return {};
      std::string value = charset_param(head.substr(pos, end - pos));
      if (!value.empty()) return value;
      pos = end;
      continue;
    }
    ++pos;
  }
  return {};
}

// The first byte at or after `i` that is not ASCII, or `len`: eight bytes
// at a time, since most of a page's bytes are markup.
int32_t skip_ascii(const uint8_t* p, int32_t i, int32_t len) {
  while (i + 8 <= len) {
    uint64_t word;
    std::memcpy(&word, p + i, 8);
    if (word & 0x8080808080808080ull) break;
    i += 8;
  }
  while (i < len && p[i] < 0x80) ++i;
  return i;
}

// The non-ASCII sequences of `s` read as UTF-8: how many are valid, and
// how many invalid (each ill-formed byte run U8_NEXT skips counts once).
struct Utf8Sequences {
  std::size_t valid = 0, invalid = 0;
};

// Reads up to the first invalid sequence when `whole` is false.
Utf8Sequences utf8_sequences(std::string_view s, bool whole) {
  Utf8Sequences out;
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  int32_t len = static_cast<int32_t>(s.size());
  int32_t i = 0;
  while (i < len) {
    i = skip_ascii(p, i, len);
    if (i >= len) break;
    UChar32 c;
    U8_NEXT(p, i, len, c);
    if (c >= 0) {
      ++out.valid;
    } else {
      ++out.invalid;
      if (!whole) break;
    }
  }
  return out;
}

bool is_valid_utf8(std::string_view s) { return utf8_sequences(s, false).invalid == 0; }

// How much of a page the prescan reads for the detector: its first
// kDetectScanShare * detect_bytes bytes, room for the scripts and styles a
// page puts before its text.
constexpr std::size_t kDetectScanShare = 16;

// The detector reads the page as the parser will, with the bodies of its
// scripts, styles, svg and templates, its comments and most attributes left
// out (the prescan; markup is ASCII in every charset ICU detects but
// UTF-16, which has a byte order mark or NULs): its text. ICU's own markup
// filter drops what lies between a '<' and the next '>', and in a script's
// code ("i<n; ... if (a[i] > 0)") that drops the page's text and keeps the
// code, whose letters are ASCII. A Russian page in windows-1251 with its
// jQuery inline, no charset declared, was read as ISO-8859-1 (ICU's
// confidence 37, windows-1251 not among its five best) and came out
// "Ñâåòëàíà" for "Светлана"; so were 24 of 427 daniel-dev pages in Greek,
// Polish, Russian and Chinese re-encoded in their legacy charsets, and none
// since (Decode.UndeclaredLegacyPagesOfEveryLanguageAreReadInTheirCharset).
std::string detect_charset(std::string_view bytes, const DecodeOptions& options, Decoded& out) {
  UErrorCode err = U_ZERO_ERROR;
  std::unique_ptr<UCharsetDetector, DetectorCloser> det(ucsdet_open(&err));
  if (U_FAILURE(err)) return options.fallback_charset;
  ucsdet_enableInputFilter(det.get(), true);  // the tags the prescan keeps
  const std::string text =
      prescan(bytes.substr(0, std::min(bytes.size(), kDetectScanShare * options.detect_bytes)), ParseOptions{}).html;
  std::size_t n = std::min(text.size(), options.detect_bytes);
  ucsdet_setText(det.get(), text.data(), static_cast<int32_t>(n), &err);
  const UCharsetMatch* match = ucsdet_detect(det.get(), &err);
  if (U_FAILURE(err) || match == nullptr) return options.fallback_charset;
  int confidence = ucsdet_getConfidence(match, &err);
  const char* name = ucsdet_getName(match, &err);
  if (U_FAILURE(err) || name == nullptr || confidence < options.min_confidence) {
    out.charset_source = "fallback";
    return options.fallback_charset;
  }
  std::string canonical = canonical_charset(name);
  return canonical.empty() ? options.fallback_charset : canonical;
}

void convert_to_utf8(std::string_view bytes, const std::string& charset, Decoded& out) {
  UErrorCode err = U_ZERO_ERROR;
  ConverterPtr conv(ucnv_open(charset.c_str(), &err));
  if (U_FAILURE(err)) {
    out.warnings.push_back("cannot convert from " + charset + "; read as UTF-8");
    out.html.assign(bytes);
    out.charset = "UTF-8";
    repair_utf8(out.html);
    return;
  }
  std::u16string wide(bytes.size() + 2, u'\0');
  int32_t wlen = ucnv_toUChars(conv.get(), wide.data(), static_cast<int32_t>(wide.size()), bytes.data(),
                               static_cast<int32_t>(bytes.size()), &err);
  if (err == U_BUFFER_OVERFLOW_ERROR) {
    err = U_ZERO_ERROR;
    wide.resize(static_cast<std::size_t>(wlen) + 1);
    wlen = ucnv_toUChars(conv.get(), wide.data(), static_cast<int32_t>(wide.size()), bytes.data(),
                         static_cast<int32_t>(bytes.size()), &err);
  }
  if (err == U_STRING_NOT_TERMINATED_WARNING) err = U_ZERO_ERROR;
  wide.resize(static_cast<std::size_t>(std::max(wlen, 0)));
  if (!wide.empty() && wide.front() == 0xFEFF) wide.erase(0, 1);
  int32_t need = 0;
  UErrorCode err2 = U_ZERO_ERROR;
  u_strToUTF8WithSub(nullptr, 0, &need, reinterpret_cast<const UChar*>(wide.data()),
                     static_cast<int32_t>(wide.size()), 0xFFFD, nullptr, &err2);
  out.html.resize(static_cast<std::size_t>(need));
  err2 = U_ZERO_ERROR;
  u_strToUTF8WithSub(out.html.data(), need, &need,
                     reinterpret_cast<const UChar*>(wide.data()), static_cast<int32_t>(wide.size()), 0xFFFD,
                     nullptr, &err2);
  if (err2 == U_STRING_NOT_TERMINATED_WARNING) err2 = U_ZERO_ERROR;
  if (U_FAILURE(err) || U_FAILURE(err2)) out.warnings.push_back("charset conversion from " + charset + " was lossy");
}

// ---- Text encoded twice ----
//
// UTF-8 bytes read as windows-1252 (or ISO-8859-1) and written out again as
// UTF-8: "’" (E2 80 99) becomes "â€™", "ą" (C4 85) "Ä…", "é" (C3 A9) "Ã©".
// A CMS that stores a form's UTF-8 in a Latin-1 database column does this
// to a whole page: 30 daniel-dev pages (Canadian dailies, a Polish one), 35
// of WCXB dev. ftfy (Speer, "ftfy: fixes text for you", 2012) undoes it the
// same way: each character goes back to the one byte windows-1252 wrote for
// it, and a run of such bytes that is valid UTF-8 throughout is read as
// what it was.

// The byte windows-1252 reads as `c` where that byte is >= 0x80, else -1.
// ISO-8859-1 reads 0x80-0x9F as C1 controls, windows-1252 mostly as
// punctuation ("€", "…", "’"); both readings go back to their byte.
int twice_encoded_byte(UChar32 c) {
  if (c >= 0x80 && c <= 0xFF) return c;
  // windows-1252's own characters for 0x80-0x9F lie in these two ranges.
  if (!((c >= 0x152 && c <= 0x2DC) || (c >= 0x2013 && c <= 0x2122))) return -1;
  struct Table {
    std::array<std::pair<UChar32, uint8_t>, 32> entries{};
    std::size_t size = 0;
    Table() {
      UErrorCode err = U_ZERO_ERROR;
      ConverterPtr conv(ucnv_open("windows-1252", &err));
      for (int b = 0x80; U_SUCCESS(err) && b <= 0x9F; ++b) {
        const char byte = static_cast<char>(b);
        UChar unit = 0;
        UErrorCode e = U_ZERO_ERROR;
        if (ucnv_toUChars(conv.get(), &unit, 1, &byte, 1, &e) == 1 && U_SUCCESS(e) && unit > 0xFF)
          entries[size++] = {unit, static_cast<uint8_t>(b)};
      }
    }
  };
  static const Table table;
  for (std::size_t i = 0; i < table.size; ++i)
    if (table.entries[i].first == c) return table.entries[i].second;
  return -1;
}

// Whether a repaired character is one such a page could have held. A
// letter before a quotation mark or a no-break space written once (German
// "Straße«" -> U+07EB, French "voilà »" -> U+083B) would otherwise pass for
// a repair on a page that also holds text encoded twice.
bool plausible_repair(UChar32 c) {
  return (c >= 0xA0 && c <= 0x52F) ||     // Latin, IPA, Greek, Cyrillic
         (c >= 0x590 && c <= 0x6FF) ||    // Hebrew, Arabic
         (c >= 0x900 && c <= 0xE7F) ||    // Indic scripts, Thai
         (c >= 0x1E00 && c <= 0x22FF) ||  // Latin and Greek extended, punctuation, symbols
         (c >= 0x3000 && c <= 0x9FFF) ||  // CJK
         (c >= 0xAC00 && c <= 0xD7AF) ||  // Hangul
         (c >= 0xFF00 && c <= 0xFFEF) ||  // full-width forms
         (c >= 0x1F300 && c <= 0x1FAFF);  // emoji
}

struct TwiceEncoded {
  std::size_t begin = 0, end = 0;  // the run's byte range in the text
  std::string_view repaired;       // what it was written as: valid UTF-8
  std::size_t characters = 0;      // how many characters that is
  bool telling = false;  // holds a byte of 0x80-0x9F, which text written once never shows this way
};

// Calls `found` on each run of characters that go back to bytes >= 0x80
// when those bytes are valid UTF-8 of plausible characters, left to right;
// stops when it returns false. The whole run must read so: a page in
// another legacy charset read as windows-1252 (GBK: "ÄãºÃ" for "你好")
// gives runs that form a UTF-8 sequence here and there by chance, and only
// a short one throughout.
template <class Found>
void find_twice_encoded(std::string_view text, Found&& found) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const auto len = static_cast<int32_t>(text.size());
  std::string bytes;
  int32_t i = 0;
  while (i < len) {
    i = skip_ascii(p, i, len);
    if (i >= len) break;
    const int32_t start = i;
    bytes.clear();
    int32_t end = i;
    while (end < len) {
      int32_t next = end;
      UChar32 c;
      U8_NEXT(p, next, len, c);
      const int b = twice_encoded_byte(c);
      if (b < 0) break;
      bytes.push_back(static_cast<char>(b));
      end = next;
    }
    if (end == start) {  // a character windows-1252 has no byte for
      U8_FWD_1(p, i, len);
      continue;
    }
    i = end;
    const auto* q = reinterpret_cast<const uint8_t*>(bytes.data());
    const auto n = static_cast<int32_t>(bytes.size());
    std::size_t characters = 0;
    bool valid = true;
    for (int32_t k = 0; k < n && valid;) {
      UChar32 c;
      U8_NEXT(q, k, n, c);
      valid = c >= 0 && plausible_repair(c);
      ++characters;
    }
    if (!valid) continue;
    const bool telling =
        std::any_of(bytes.begin(), bytes.end(), [](char b) { return (b & 0xE0) == 0x80; });
    if (!found(TwiceEncoded{static_cast<std::size_t>(start), static_cast<std::size_t>(end), bytes, characters,
                            telling}))
      return;
  }
}

// ---- Text in another script's charset read as Latin ----
//
// A page in GBK, Big5, Shift_JIS or EUC-KR that a crawler or a CMS read as
// windows-1252 or ISO-8859-15 and wrote out again as UTF-8: every byte of
// 0x80 or above became a Latin-1 letter or sign ("船长" B4 AC B3 A4 ->
// "Ž¬³€" through ISO-8859-15), while the page still declares its charset.
// Text in those charsets read so is nothing but Latin-1 letters and signs,
// which a page that declares a Chinese, Japanese or Korean charset never
// is; and the bytes they go back to must convert without one error, which
// Latin text rarely does (a lead byte before a space or a full stop, "é."
// = E9 2E, is no character of any of them). One daniel-dev page (a Chinese
// portal's, through ISO-8859-15; docs/evaluation.md, "Text encoded twice").
//
// A single-byte charset of another script (windows-1251, KOI8-R,
// windows-1253, ...) converts any bytes, so there the text itself must
// show it: Cyrillic or Greek read as Latin-1 spells whole words of
// accented letters ("Ïðèâåò" for "Привет"), while Latin text keeps an
// ASCII letter in nearly every word that has an accented one ("für",
// "été", "zażółć"): at least kForeignWords words of three characters or
// more whose characters are all beyond ASCII, and no more than one word in
// ten of those that mix them with ASCII letters.
constexpr std::size_t kForeignWords = 20;

// Whether `charset` is a single-byte charset whose upper half is mostly
// letters of a script other than Latin: Cyrillic, Greek, Hebrew, Arabic,
// Thai (ICU's own mapping of bytes C0-FF, no list of names).
bool single_byte_of_another_script(UConverter* charset) {
  if (ucnv_getMaxCharSize(charset) != 1) return false;
  char upper[64];
  for (int i = 0; i < 64; ++i) upper[i] = static_cast<char>(0xC0 + i);
  UChar wide[128];
  UErrorCode err = U_ZERO_ERROR;
  ucnv_reset(charset);
  const int32_t n = ucnv_toUChars(charset, wide, 128, upper, 64, &err);
  ucnv_reset(charset);
  if (U_FAILURE(err)) return false;
  int foreign = 0;
  for (int32_t i = 0; i < n; ++i) {
    UErrorCode script_err = U_ZERO_ERROR;
    const UScriptCode script = uscript_getScript(wide[i], &script_err);
    if (U_SUCCESS(script_err) && u_isalpha(wide[i]) && script != USCRIPT_LATIN && script != USCRIPT_COMMON &&
        script != USCRIPT_INHERITED)
      ++foreign;
  }
  return foreign >= 32;
}

// Whether UTF-8 `text` spells words of another script read as Latin-1
// (above): a word is a run of ASCII letters and characters beyond ASCII.
bool spells_another_script_as_latin(std::string_view text) {
  std::size_t foreign = 0, mixed = 0;
  std::size_t characters = 0, beyond = 0;
  bool ascii_letter = false;
  auto end_word = [&] {
    if (characters >= 3 && beyond > 0) (ascii_letter ? mixed : foreign) += 1;
    characters = beyond = 0;
    ascii_letter = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      if ((c & 0xC0) != 0x80) ++characters, ++beyond;  // a lead byte opens a character
    } else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') {
      ++characters;
      ascii_letter = true;
    } else {
      end_word();
    }
  }
  end_word();
  return foreign >= kForeignWords && mixed * 10 <= foreign;
}

// `text` in the charset `from` converted to `to`, or nullopt at the first
// byte sequence that is no character of `from` or character that `to`
// lacks (ICU's stop callbacks: no substitution).
std::optional<std::string> strictly_converted(std::string_view text, const char* from, const char* to) {
  UErrorCode err = U_ZERO_ERROR;
  ConverterPtr source_charset(ucnv_open(from, &err));
  ConverterPtr target_charset(ucnv_open(to, &err));
  if (U_FAILURE(err)) return std::nullopt;
  ucnv_setToUCallBack(source_charset.get(), UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &err);
  ucnv_setFromUCallBack(target_charset.get(), UCNV_FROM_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &err);
  // ICU's bound (UCNV_GET_MAX_BYTES_FOR_STRING) for as many characters as
  // `text` has bytes: one byte each into Latin, three into UTF-8 (Thai in
  // windows-874 or half-width katakana in Shift_JIS take three for one).
  std::string out(static_cast<std::size_t>(UCNV_GET_MAX_BYTES_FOR_STRING(
                      static_cast<int32_t>(text.size()), ucnv_getMaxCharSize(target_charset.get()))),
                  '\0');
  char* target = out.data();
  const char* source = text.data();
  ucnv_convertEx(target_charset.get(), source_charset.get(), &target, out.data() + out.size(), &source,
                 text.data() + text.size(), nullptr, nullptr, nullptr, nullptr, true, true, &err);
  if (U_FAILURE(err)) return std::nullopt;
  out.resize(static_cast<std::size_t>(target - out.data()));
  return out;
}

// The page as it was written when `text` (valid UTF-8, declared `charset`)
// is that charset's text read as Latin (above), with the reading's name;
// nullopt otherwise.
std::optional<std::pair<std::string, const char*>> read_as_latin(std::string_view text, const std::string& charset) {
  UErrorCode err = U_ZERO_ERROR;
  ConverterPtr declared(ucnv_open(charset.c_str(), &err));
  if (U_FAILURE(err) || charset.rfind("UTF", 0) == 0) return std::nullopt;
  if (ucnv_getMaxCharSize(declared.get()) < 2 &&
      !(single_byte_of_another_script(declared.get()) && spells_another_script_as_latin(text)))
    return std::nullopt;
  // The first character beyond ASCII is tried alone first: a page in
  // UTF-8 under a stale label (Chinese under GBK) fails there, before a
  // buffer the size of the page is made for each reading.
  const auto beyond_ascii = std::find_if(text.begin(), text.end(), [](char c) { return (c & 0x80) != 0; });
  if (beyond_ascii == text.end()) return std::nullopt;
  const auto at = static_cast<int32_t>(beyond_ascii - text.begin());
  int32_t after = at;
  UChar32 first;
  U8_NEXT(reinterpret_cast<const uint8_t*>(text.data()), after, static_cast<int32_t>(text.size()), first);
  if (first < 0) return std::nullopt;
  const std::string_view first_character = text.substr(static_cast<std::size_t>(at), static_cast<std::size_t>(after - at));
  // ISO-8859-15 first: its eight letters that windows-1252 also has
  // ("€", "Ž", "Ÿ", ...) stand for other bytes there (A4 B4 BE, not 80 8E
  // 9F), and a page read through windows-1252 holds the signs ISO-8859-15
  // lacks ("¤", "´", "¾": GBK's lead bytes A4, B4, BE), so it fails
  // there first. ISO-8859-1 last, for the C1 controls only it maps back.
  for (const char* reading : {"ISO-8859-15", "windows-1252", "ISO-8859-1"}) {
    if (!strictly_converted(first_character, "UTF-8", reading)) continue;
    std::optional<std::string> legacy = strictly_converted(text, "UTF-8", reading);
    if (!legacy) continue;
    if (std::optional<std::string> written = strictly_converted(*legacy, charset.c_str(), "UTF-8"))
      return std::make_pair(std::move(*written), reading);
  }
  return std::nullopt;
}

void note_double_encoding(Decoded& out) {
  if (std::size_t n = undo_double_encoding(out.html); n > 0)
    out.warnings.push_back(std::to_string(n) + " characters encoded twice (UTF-8 read as windows-1252) repaired");
}

}  // namespace

std::size_t repair_utf8(std::string& text) {
  if (is_valid_utf8(text)) return 0;
  std::string out;
  out.reserve(text.size() + 16);
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  int32_t len = static_cast<int32_t>(text.size());
  int32_t i = 0;
  std::size_t replaced = 0;
  while (i < len) {
    int32_t start = i;
    UChar32 c;
    U8_NEXT(p, i, len, c);
    if (c < 0) {
      out += "\xEF\xBF\xBD";
      ++replaced;
    } else {
      out.append(text, static_cast<std::size_t>(start), static_cast<std::size_t>(i - start));
    }
  }
  text = std::move(out);
  return replaced;
}

std::size_t undo_double_encoding(std::string& text) {
  // "Ã" (C3 83 in UTF-8) or a later letter of Latin-1 opens every run that
  // repairs.
  if (text.find('\xC3') == std::string::npos) return 0;
  // Only a page that shows a telling sequence is repaired: "Ã©" could be
  // written once, "â€™" and "Ä…" are not.
  bool telling = false;
  find_twice_encoded(text, [&](const TwiceEncoded& t) { return !(telling = t.telling); });
  if (!telling) return 0;
  std::string out;
  out.reserve(text.size());
  std::size_t done = 0, repaired = 0;
  find_twice_encoded(text, [&](const TwiceEncoded& t) {
    out.append(text, done, t.begin - done);
    out.append(t.repaired);
    done = t.end;
    repaired += t.characters;
    return true;
  });
  out.append(text, done);
  text = std::move(out);
  return repaired;
}

std::string canonical_charset(std::string_view label) {
  std::string lower = ascii_lower(trim(label));
  if (lower.empty()) return {};
  for (const LabelAlias& alias : kAliases)
    if (alias.label == lower) return std::string(alias.charset);
  // ICU resolves any alias it knows to its internal name; the MIME (else
  // IANA) name of that is what husk reports.
  UErrorCode err = U_ZERO_ERROR;
  std::string name;
  if (const char* n = ucnv_getCanonicalName(lower.c_str(), "", &err); U_SUCCESS(err) && n != nullptr) {
    name = n;
  } else {
    // The name belongs to the converter: copy it before the converter goes.
    err = U_ZERO_ERROR;
    ConverterPtr conv(ucnv_open(lower.c_str(), &err));
    if (U_FAILURE(err)) return {};
    const char* opened = ucnv_getName(conv.get(), &err);
    if (U_FAILURE(err) || opened == nullptr) return {};
    name = opened;
  }
  // The label itself, else any alias of ICU's name, may have a MIME/IANA name.
  std::vector<std::string> candidates{lower};
  err = U_ZERO_ERROR;
  uint16_t aliases = ucnv_countAliases(name.c_str(), &err);
  for (uint16_t i = 0; U_SUCCESS(err) && i < aliases; ++i) {
    const char* alias = ucnv_getAlias(name.c_str(), i, &err);
    if (U_SUCCESS(err) && alias != nullptr) candidates.emplace_back(alias);
  }
  for (const char* standard : {"MIME", "IANA"}) {
    for (const std::string& candidate : candidates) {
      err = U_ZERO_ERROR;
      const char* std_name = ucnv_getStandardName(candidate.c_str(), standard, &err);
      if (U_SUCCESS(err) && std_name != nullptr) return std_name;
    }
  }
  return name;
}

Decoded decode_utf8(std::string_view text) {
  Decoded out;
  out.html.assign(text);
  out.charset = "UTF-8";
  out.charset_source = "unicode";
  if (std::size_t n = repair_utf8(out.html); n > 0)
    out.warnings.push_back(std::to_string(n) + " invalid UTF-8 sequences replaced");
  note_double_encoding(out);
  return out;
}

bool looks_binary(std::string_view bytes, std::string_view content_type) {
  if (bytes.starts_with("%PDF-")) return true;
  if (bytes.substr(0, 4096).find('\0') == std::string_view::npos) return false;
  const bool utf16 = bytes.starts_with("\xFF\xFE") || bytes.starts_with("\xFE\xFF") ||
                     ascii_lower(content_type).find("charset=utf-16") != std::string::npos;
  return !utf16;
}

Decoded decode(std::string_view bytes, std::string_view content_type, const DecodeOptions& options) {
  Decoded out;
  std::string charset;
  // 1. Byte order mark.
  if (bytes.size() >= 3 && bytes.substr(0, 3) == "\xEF\xBB\xBF") {
    charset = "UTF-8";
    out.charset_source = "bom";
    bytes.remove_prefix(3);
  } else if (bytes.size() >= 2 && (bytes.substr(0, 2) == "\xFE\xFF" || bytes.substr(0, 2) == "\xFF\xFE")) {
    charset = bytes[0] == '\xFE' ? "UTF-16BE" : "UTF-16LE";
    out.charset_source = "bom";
    bytes.remove_prefix(2);
  }
  // 2. HTTP header, 3. <meta>.
  auto try_label = [&](const std::string& label, const char* source, bool from_meta) {
    if (!charset.empty() || label.empty()) return;
    std::string canonical = canonical_charset(label);
    if (canonical.empty()) {
      out.warnings.push_back(std::string("unknown charset \"") + label + "\" in " + source + "; ignored");
      return;
    }
    // A page that could read its own <meta> is not UTF-16 (WHATWG 13.2.3.2).
    if (from_meta && canonical.rfind("UTF-16", 0) == 0) canonical = "UTF-8";
    charset = canonical;
    out.charset_source = source;
  };
  try_label(charset_param(content_type), "http", false);
  try_label(meta_charset(bytes.substr(0, std::min(bytes.size(), options.sniff_bytes))), "meta", true);
  // A declared charset the bytes contradict: UTF-8 wins when the page is
  // valid UTF-8 and holds a multi-byte sequence (text in a legacy charset
  // almost never forms valid UTF-8 by chance: Duerst, "The Properties and
  // Promises of UTF-8", 1997, and the WHATWG's note on the same), or, for
  // a declared UTF-16 with no byte order mark, when no byte is NUL (UTF-16
  // markup is half NULs). A server's or template's default label on a page
  // its editor saved as UTF-8 is the usual cause; the declared charset
  // would turn every accented letter into two (mojibake).
  if (!charset.empty() && charset != "UTF-8" && out.charset_source != "bom" && is_valid_utf8(bytes)) {
    const bool utf16 = charset.rfind("UTF-16", 0) == 0;
    const bool multibyte = std::any_of(bytes.begin(), bytes.end(), [](char c) { return (c & 0x80) != 0; });
    if (utf16 ? bytes.find('\0') == std::string_view::npos : multibyte) {
      if (!utf16) {
        if (auto written = read_as_latin(bytes, charset)) {
          out.warnings.push_back("text in " + charset + " read as " + written->second +
                                 " and written again as UTF-8; read as " + charset);
          out.html = std::move(written->first);
          out.charset = charset;
          return out;
        }
      }
      out.warnings.push_back("declared charset " + charset + " (" + out.charset_source +
                             ") contradicts the bytes, which are UTF-8; read as UTF-8");
      charset = "UTF-8";
      out.charset_source = "utf8";
    }
  }
  // 4. The bytes themselves.
  if (charset.empty()) {
    if (is_valid_utf8(bytes)) {
      charset = "UTF-8";
      out.charset_source = "utf8";
    } else {
      out.charset_source = "detected";
      charset = detect_charset(bytes, options, out);
    }
  }
  if (charset == "UTF-8") {
    out.html.assign(bytes);
    if (std::size_t n = repair_utf8(out.html); n > 0) {
      // A declared UTF-8 the bytes contradict: more of their non-ASCII
      // sequences are invalid UTF-8 than valid. Text in a legacy charset
      // forms few valid sequences by chance (above: none in windows-1251,
      // one in four in GB2312), while a UTF-8 page that took in stray bytes
      // (a pasted windows-1252 quote, a cut at its end) keeps most of its
      // sequences valid. A template's or server's default label over text
      // saved in the site's old charset is the usual cause; read as UTF-8,
      // every letter of it would be U+FFFD. Detection takes over.
      const Utf8Sequences seen = utf8_sequences(bytes, true);
      if (out.charset_source != "bom" && seen.invalid > seen.valid) {
        out.warnings.push_back("declared charset UTF-8 (" + out.charset_source + ") contradicts the bytes: " +
                               std::to_string(seen.invalid) + " of their " + std::to_string(seen.invalid + seen.valid) +
                               " non-ASCII sequences are not UTF-8; the charset is detected");
        out.charset_source = "detected";
        charset = detect_charset(bytes, options, out);
      } else {
        out.warnings.push_back(std::to_string(n) + " invalid UTF-8 sequences replaced");
      }
    }
  }
  out.charset = charset;
  if (charset != "UTF-8") {
    out.html.clear();
    convert_to_utf8(bytes, charset, out);
  }
  note_double_encoding(out);
  return out;
}

}  // namespace husk
