#include "extract/vocabulary.h"

#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>

namespace husk {

namespace {

// The density extractor and the learned extractor's features each hold
// the vocabulary: its hint lists are compiled once (compiled_once).
std::shared_ptr<const RE2> alternation(const std::vector<std::string>& words) {
  if (words.empty()) return nullptr;
  std::string pattern;
  for (const std::string& w : words) {
    if (!pattern.empty()) pattern.push_back('|');
    pattern += RE2::QuoteMeta(w);
  }
  RE2::Options options;
  options.set_log_errors(false);
  std::shared_ptr<const RE2> re = compiled_once(pattern, options);
  return re->ok() ? re : nullptr;
}

bool is_token_separator(char c) {
  return c == ' ' || c == '-' || c == '_' || c == '\t' || c == '\n' || c == ':' || c == '.' || c == '/';
}

}  // namespace

std::shared_ptr<const RE2> compiled_once(const std::string& pattern, const RE2::Options& options) {
  // Keyed by the pattern and the options that change its program.
  static std::mutex mutex;
  static std::map<std::pair<int, std::string>, std::shared_ptr<const RE2>> compiled;
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<const RE2>& slot = compiled[{options.ParseFlags(), pattern}];
  if (slot == nullptr) slot = std::make_shared<const RE2>(pattern, options);
  return slot;
}

std::string phrase_key(std::string_view text) {
  // Most short lines are ASCII, whose lower case and letters and digits
  // are ASCII's own: no conversion to UTF-16 and back.
  if (std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    std::size_t start = 0, end = text.size();
    while (start < end && !alnum(text[start])) ++start;
    while (end > start && !alnum(text[end - 1])) --end;
    std::string out(text.substr(start, end - start));
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  }
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  u.toLower();
  int32_t start = 0;
  int32_t end = u.length();
  while (start < end && !u_isalnum(u.char32At(start))) start = u.moveIndex32(start, 1);
  while (end > start) {
    int32_t prev = u.moveIndex32(end, -1);
    if (u_isalnum(u.char32At(prev))) break;
    end = prev;
  }
  std::string out;
  u.tempSubStringBetween(start, end).toUTF8String(out);
  return out;
}

CompiledVocabulary::CompiledVocabulary(const Vocabulary& vocabulary)
    : positive_(alternation(vocabulary.positive_hints)),
      negative_(alternation(vocabulary.negative_hints)),
      negative_tokens_(vocabulary.negative_tokens.begin(), vocabulary.negative_tokens.end()),
      end_markers_(vocabulary.end_markers) {
  for (const std::string& line : vocabulary.boilerplate_lines) boilerplate_lines_.insert(phrase_key(line));
  for (std::string& marker : end_markers_) marker = phrase_key(marker);
}

Hint CompiledVocabulary::classify_hints(std::string_view hints) const {
  if (hints.empty()) return Hint::kNone;
  if (negative_ && RE2::PartialMatch(hints, *negative_)) return Hint::kNegative;
  if (!negative_tokens_.empty()) {
    std::size_t i = 0;
    while (i < hints.size()) {
      while (i < hints.size() && is_token_separator(hints[i])) ++i;
      std::size_t start = i;
      while (i < hints.size() && !is_token_separator(hints[i])) ++i;
      if (i > start && negative_tokens_.count(hints.substr(start, i - start))) return Hint::kNegative;
    }
  }
  if (positive_ && RE2::PartialMatch(hints, *positive_)) return Hint::kPositive;
  return Hint::kNone;
}

bool CompiledVocabulary::is_boilerplate_line(std::string_view text) const {
  return boilerplate_lines_.count(phrase_key(text)) > 0;
}

bool CompiledVocabulary::is_end_marker(std::string_view text) const {
  std::string key = phrase_key(text);
  for (const std::string& marker : end_markers_) {
    if (key.size() < marker.size() || key.compare(0, marker.size(), marker) != 0) continue;
    if (key.size() == marker.size()) return true;
    // "Related: ..." or "Comments (12)", not "Relatedness of ...".
    unsigned char next = static_cast<unsigned char>(key[marker.size()]);
    if (next < 0x80 && !std::isalnum(next)) return true;
  }
  return false;
}

}  // namespace husk
