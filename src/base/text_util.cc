#include "base/text_util.h"

#include <unicode/locid.h>
#include <unicode/unistr.h>

namespace husk {

std::string lower_case(std::string_view text) {
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  u.toLower(icu::Locale::getRoot());
  std::string out;
  u.toUTF8String(out);
  return out;
}

}  // namespace husk
