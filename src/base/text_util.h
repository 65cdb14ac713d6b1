// Small string helpers shared by the readers, the stages and the CLI.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace husk {

inline bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

inline char ascii_lower_char(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
}

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

// ASCII white space runs as one space, none at either end.
std::string collapse_space(std::string_view s);

// Lower case by Unicode's rules (ICU, root locale; Python's str.lower(),
// final sigma included): "FÉV" -> "fév", "ΙΑΝ" -> "ιαν". For words people
// write in any case; ascii_lower for protocol words (HTTP, media types,
// charsets).
std::string lower_case(std::string_view text);

// The longest start of `s` of at most `limit` bytes that does not split a
// UTF-8 sequence (ICU's U8_SET_CP_START).
std::size_t utf8_cut(std::string_view s, std::size_t limit);

// Whether a UTF-8 text holds a letter or a digit (ICU's u_isalnum).
bool has_letter_or_digit(std::string_view s);
// Whether a UTF-8 text holds a letter (ICU's u_isalpha).
bool has_letter(std::string_view s);
// Whether a text holds a year from 1900 to 2099 (a cheap test before date
// patterns run).
bool has_year(std::string_view s);

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower_char(c);
  return out;
}

inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower_char(a[i]) != ascii_lower_char(b[i])) return false;
  return true;
}

// Whether `f` holds for one of the space-separated tokens of `list` (a
// class attribute, an itemprop list), tried in order.
template <class F>
bool any_token(std::string_view list, F&& f) {
  for (std::size_t i = 0; i < list.size();) {
    std::size_t j = list.find(' ', i);
    if (j == std::string_view::npos) j = list.size();
    if (j > i && f(list.substr(i, j - i))) return true;
    i = j + 1;
  }
  return false;
}

inline bool starts_with_ci(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

inline bool ends_with_ci(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && iequals(s.substr(s.size() - suffix.size()), suffix);
}

// Text for XML and HTML: &, <, > escaped, " too where `quotes` (inside an
// attribute value), and the control characters XML 1.0 forbids (all below
// U+0020 but tab and line breaks) dropped.
inline std::string xml_escape(std::string_view s, bool quotes) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"':
        if (quotes) {
          out += "&quot;";
        } else {
          out.push_back(ch);
        }
        break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') break;
        out.push_back(ch);
    }
  }
  return out;
}

// Chinese and Japanese characters (kana, the CJK ideographs and their
// extensions and compatibility forms): scripts written without spaces,
// where a character stands for a word (segmentation counts it as half a
// word; the evaluator scores such gold by character).
inline bool is_cjk(uint32_t cp) {
  return (cp >= 0x3040 && cp <= 0x30FF) ||    // Hiragana, Katakana
         (cp >= 0x3400 && cp <= 0x9FFF) ||    // CJK ideographs (ext. A and unified)
         (cp >= 0xF900 && cp <= 0xFAFF) ||    // compatibility ideographs
         (cp >= 0x20000 && cp <= 0x2FFFF);    // ext. B and beyond
}

// Every script written without spaces between words: CJK and Thai.
inline bool is_unspaced_script(uint32_t cp) { return is_cjk(cp) || (cp >= 0x0E00 && cp <= 0x0E7F); }

}  // namespace husk
