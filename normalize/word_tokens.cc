#include "husk/normalize.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

namespace husk {

bool is_word_char(char32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  auto cp = static_cast<UChar32>(c);
  switch (u_charType(cp)) {
    case U_UPPERCASE_LETTER:
    case U_LOWERCASE_LETTER:
    case U_TITLECASE_LETTER:
    case U_MODIFIER_LETTER:
    case U_OTHER_LETTER:
      return true;
    default:
      return u_getIntPropertyValue(cp, UCHAR_NUMERIC_TYPE) != U_NT_NONE;
  }
}

std::vector<std::string_view> word_tokens(std::string_view text) {
  std::vector<std::string_view> tokens;
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  int32_t len = static_cast<int32_t>(text.size());
  int32_t i = 0;
  int32_t start = -1;
  while (i < len) {
    int32_t at = i;
    UChar32 c;
    U8_NEXT(p, i, len, c);
    bool word = c >= 0 && is_word_char(static_cast<char32_t>(c));
    if (word && start < 0) start = at;
    if (!word && start >= 0) {
      tokens.push_back(text.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(at - start)));
      start = -1;
    }
  }
  if (start >= 0) tokens.push_back(text.substr(static_cast<std::size_t>(start)));
  return tokens;
}

}  // namespace husk
