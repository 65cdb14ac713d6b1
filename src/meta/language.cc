// Language identification of the clean text with CLD2 (husk/metadata.h).
// CLD2's header uses FILE without including <cstdio>.
#include <cstdio>
#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>

#include <algorithm>

#include "base/text_util.h"
#include "husk/metadata.h"

namespace husk {

namespace {

// CLD2 reads at most this much of a text: its time is linear in the bytes
// (about 30 MB/s here), and 2 KB is some 350 words of prose. On the WCXB
// dev pages that declare a language, the answer agrees with the
// declaration as often as with the whole text (99.8%).
constexpr std::size_t kMaxTextBytes = 2u << 10;

// A text with fewer letters than this is too short for CLD2 to tell
// reliably (its documentation: "very short indeterminate text" is unknown).
constexpr int kMinTextBytes = 16;

std::string cld2_code(CLD2::Language lang) {
  if (lang == CLD2::UNKNOWN_LANGUAGE || lang == CLD2::TG_UNKNOWN_LANGUAGE) return {};
  std::string code = CLD2::LanguageCode(lang);
  // CLD2 writes Traditional Chinese "zh-Hant" and its Hebrew "iw", Javanese
  // "jw" (old ISO 639 codes); BCP 47 has "he" and "jv".
  if (code == "iw") return "he";
  if (code == "jw") return "jv";
  if (code == "un" || code == "xx") return {};
  return code;
}

// A tag's primary subtag, case as written, its old ISO 639 codes and
// Norwegian's written standards mapped to one code ("iw" -> "he",
// "nb" -> "no").
std::string_view primary_subtag(std::string_view tag) {
  tag = trim(tag);
  std::string_view primary = tag.substr(0, tag.find_first_of("-_"));
  if (iequals(primary, "iw")) return "he";
  if (iequals(primary, "jw")) return "jv";
  if (iequals(primary, "nb") || iequals(primary, "nn")) return "no";
  return primary;
}

}  // namespace

std::string primary_language(std::string_view tag) { return ascii_lower(primary_subtag(tag)); }

// Without allocating: dedup asks it of every candidate pair.
bool same_language(std::string_view a, std::string_view b) { return iequals(primary_subtag(a), primary_subtag(b)); }

bool is_known_language(std::string_view code) {
  if (code.size() < 2 || code.size() > 3) return false;
  for (char c : code)
    if (c < 'a' || c > 'z') return false;
  std::string cld2 = code == "he" ? "iw" : code == "jv" ? "jw" : std::string(code);
  const CLD2::Language lang = CLD2::GetLanguageFromName(cld2.c_str());
  return lang != CLD2::UNKNOWN_LANGUAGE && lang != CLD2::TG_UNKNOWN_LANGUAGE && !cld2_code(lang).empty();
}

std::string page_language(std::string_view given, std::string_view text) {
  if (!given.empty() || text.empty()) return std::string(given);
  return identify_language(text).code;
}

Language identify_language(std::string_view text, std::string_view html_lang, std::string_view content_language) {
  Language result;
  const std::string declared = primary_language(!html_lang.empty() ? html_lang : content_language.substr(0, content_language.find(',')));
  text = text.substr(0, utf8_cut(text, kMaxTextBytes));
  const std::string content_hint(content_language.empty() ? html_lang : content_language);
  CLD2::CLDHints hints{content_hint.empty() ? nullptr : content_hint.c_str(), nullptr, CLD2::UNKNOWN_ENCODING,
                       CLD2::UNKNOWN_LANGUAGE};
  if (!declared.empty()) hints.language_hint = CLD2::GetLanguageFromName(declared.c_str());
  CLD2::Language top3[3];
  int percent3[3] = {0, 0, 0};
  double scores3[3];
  int text_bytes = 0;
  bool reliable = false;
  int valid_prefix = 0;
  CLD2::Language lang = CLD2::UNKNOWN_LANGUAGE;
  if (static_cast<int>(text.size()) >= kMinTextBytes)
    lang = CLD2::ExtDetectLanguageSummaryCheckUTF8(text.data(), static_cast<int>(text.size()), true, &hints, 0, top3,
                                                   percent3, scores3, nullptr, &text_bytes, &reliable, &valid_prefix);
  result.code = cld2_code(lang);
  if (!result.code.empty() && (reliable || declared.empty())) {
    result.confidence = reliable ? std::clamp(percent3[0] / 100.0, 0.0, 1.0) : 0.0;
    return result;
  }
  // Too short or unreliable: what the page declares, unconfirmed.
  result.code = declared;
  result.confidence = 0;
  return result;
}

}  // namespace husk
