// Dates as pages write them, read into ISO 8601 (husk/metadata.h).
#include <re2/re2.h>
#include <unicode/dtfmtsym.h>
#include <unicode/locid.h>

#include <string>
#include <vector>

#include <array>
#include <cstdio>

#include "base/text_util.h"
#include "husk/metadata.h"
#include "meta/metadata_impl.h"

namespace husk {

namespace {

bool valid_day(int y, int m, int d) {
  static constexpr std::array<int, 12> kDays = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (y < 1000 || y > 9999 || m < 1 || m > 12 || d < 1 || d > kDays[m - 1]) return false;
  return m != 2 || d < 29 || (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0));
}

std::string ymd(int y, int m, int d) {
  char buf[40];  // room for any three ints, whatever the caller checked
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", y, m, d);
  return buf;
}

// Month names, as ICU's locale data (CLDR) writes them, wide and
// abbreviated, in the languages with the web's largest shares that write
// a month's name beside its day (English, German, French, Spanish,
// Portuguese, Italian, Dutch). A word names a month when it is one of
// them or the start of a wide one, of three letters at least ("Sept",
// "juil"); both are lower-cased by Unicode's rules ("FÉV." reads as "fév"),
// and an abbreviation's final dot is dropped ("déc.").
struct MonthName {
  std::string name;
  int month = 0;
  bool wide = false;
};

std::vector<MonthName> month_names() {
  std::vector<MonthName> out;
  for (const char* locale : {"en", "de", "fr", "es", "pt", "it", "nl"}) {
    UErrorCode status = U_ZERO_ERROR;
    icu::DateFormatSymbols symbols{icu::Locale(locale), status};
    if (U_FAILURE(status)) continue;
    for (auto width : {icu::DateFormatSymbols::WIDE, icu::DateFormatSymbols::ABBREVIATED}) {
      int32_t count = 0;
      const icu::UnicodeString* months = symbols.getMonths(count, icu::DateFormatSymbols::FORMAT, width);
      for (int32_t m = 0; m < count && m < 12; ++m) {
        std::string name;
        months[m].toUTF8String(name);
        name = lower_case(name);
        while (!name.empty() && name.back() == '.') name.pop_back();
        if (!name.empty()) out.push_back({std::move(name), m + 1, width == icu::DateFormatSymbols::WIDE});
      }
    }
  }
  return out;
}

int month_of(std::string_view word) {
  if (word.size() < 3) return 0;
  static const std::vector<MonthName> kMonths = month_names();
  const std::string w = lower_case(word);
  for (const MonthName& m : kMonths)
    if (w == m.name || (m.wide && m.name.starts_with(w))) return m.month;
  return 0;
}

}  // namespace

std::string parse_date(std::string_view text) {
  text = trim(text);
  if (text.size() < 6 || text.size() > 200) return {};
  // Every form below has a year of four digits (RE2's \d is ASCII): a
  // text without four in a row is no date, and most lines a page's
  // metadata looks at have none; this spares them five regular
  // expressions with captures.
  int digits = 0;
  for (char c : text) {
    digits = c >= '0' && c <= '9' ? digits + 1 : 0;
    if (digits == 4) break;
  }
  if (digits < 4) return {};
  re2::StringPiece in(text.data(), text.size());
  int y = 0, m = 0, d = 0;
  // ISO 8601 and its slash and dot forms, with an optional time and zone.
  static const RE2 kIso(R"((\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?)?)");
  std::string hh, mm, ss, zone;
  if (RE2::PartialMatch(in, kIso, &y, &m, &d, &hh, &mm, &ss, &zone) && valid_day(y, m, d)) {
    std::string out = ymd(y, m, d);
    if (!hh.empty()) {
      out += "T" + hh + ":" + mm + ":" + (ss.empty() ? "00" : ss);
      if (zone == "Z") {
        out += "Z";
      } else if (!zone.empty()) {
        out += zone.size() == 5 ? zone.substr(0, 3) + ":" + zone.substr(3) : zone;
      }
    }
    return out;
  }
  // "May 12, 2024", "May 12th 2024".
  std::string month;
  static const RE2 kMonthFirst(R"((\pL{3,})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4}))");
  if (RE2::PartialMatch(in, kMonthFirst, &month, &d, &y) && (m = month_of(month)) != 0 && valid_day(y, m, d))
    return ymd(y, m, d);
  // "12 May 2024", "12. Mai 2024", "12 de mayo de 2024".
  static const RE2 kDayFirst(R"((\d{1,2})(?:st|nd|rd|th|\.)?\s+(?:de\s+)?(\pL{3,})\.?,?\s+(?:de\s+)?(\d{4}))");
  if (RE2::PartialMatch(in, kDayFirst, &d, &month, &y) && (m = month_of(month)) != 0 && valid_day(y, m, d))
    return ymd(y, m, d);
  // "12.05.2024" (day first, as Europe writes it with dots); slashes are
  // read only when the day cannot be a month ("25/12/2024", "12/25/2024").
  static const RE2 kDotted(R"((\d{1,2})\.(\d{1,2})\.(\d{4}))");
  if (RE2::PartialMatch(in, kDotted, &d, &m, &y) && valid_day(y, m, d)) return ymd(y, m, d);
  static const RE2 kSlashed(R"((\d{1,2})/(\d{1,2})/(\d{4}))");
  int a = 0, b = 0;
  if (RE2::PartialMatch(in, kSlashed, &a, &b, &y)) {
    if (a > 12 && valid_day(y, b, a)) return ymd(y, b, a);
    if (b > 12 && valid_day(y, a, b)) return ymd(y, a, b);
  }
  return {};
}

namespace meta {

std::string date_in_url(std::string_view url) {
  static const RE2 kUrlDate(R"(/((?:19|20)\d{2})[/-](\d{1,2})[/-](\d{1,2})(?:[/.-]|$))");
  static const RE2 kCompact(R"(/((?:19|20)\d{2})(\d{2})(\d{2})/)");
  re2::StringPiece in(url.data(), url.size());
  int y = 0, m = 0, d = 0;
  if ((RE2::PartialMatch(in, kUrlDate, &y, &m, &d) || RE2::PartialMatch(in, kCompact, &y, &m, &d)) &&
      valid_day(y, m, d))
    return ymd(y, m, d);
  return {};
}

bool plausible(std::string_view iso, std::time_t now, int min_year, bool structured) {
  if (iso.size() < 10) return false;
  int y = 0, m = 0, d = 0;
  if (std::sscanf(std::string(iso.substr(0, 10)).c_str(), "%d-%d-%d", &y, &m, &d) != 3) return false;
  if (!structured && y < min_year) return false;
  if (y < 1000) return false;
  std::tm tm{};
  gmtime_r(&now, &tm);
  // A day of grace for time zones: the page may be a day ahead of UTC.
  std::time_t tomorrow = now + 24 * 3600;
  std::tm limit{};
  gmtime_r(&tomorrow, &limit);
  const int date = y * 10000 + m * 100 + d;
  const int last = (limit.tm_year + 1900) * 10000 + (limit.tm_mon + 1) * 100 + limit.tm_mday;
  return date <= last;
}

}  // namespace meta

}  // namespace husk
