#include "base/text_util.h"

#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

namespace husk {

std::string collapse_space(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (is_ascii_space(c)) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

std::size_t utf8_cut(std::string_view s, std::size_t limit) {
  if (limit >= s.size()) return s.size();
  auto at = static_cast<int32_t>(limit);
  U8_SET_CP_START(reinterpret_cast<const uint8_t*>(s.data()), 0, at);
  return static_cast<std::size_t>(at);
}

namespace {

// Whether a UTF-8 text holds a code point `is` holds for.
bool holds(std::string_view s, UBool (*is)(UChar32)) {
  for (int32_t at = 0; at < static_cast<int32_t>(s.size());) {
    UChar32 cp = 0;
    U8_NEXT(reinterpret_cast<const uint8_t*>(s.data()), at, static_cast<int32_t>(s.size()), cp);
    if (cp >= 0 && is(cp)) return true;
  }
  return false;
}

}  // namespace

bool has_letter_or_digit(std::string_view s) { return holds(s, u_isalnum); }

bool has_letter(std::string_view s) { return holds(s, u_isalpha); }

bool has_year(std::string_view s) {
  for (std::size_t i = 0; i + 4 <= s.size(); ++i)
    if ((s[i] == '1' && s[i + 1] == '9') || (s[i] == '2' && s[i + 1] == '0'))
      if (s[i + 2] >= '0' && s[i + 2] <= '9' && s[i + 3] >= '0' && s[i + 3] <= '9') return true;
  return false;
}

std::string lower_case(std::string_view text) {
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  u.toLower(icu::Locale::getRoot());
  std::string out;
  u.toUTF8String(out);
  return out;
}

}  // namespace husk
