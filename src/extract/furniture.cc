// Page furniture (furniture.h).
#include "extract/furniture.h"

#include "base/text_util.h"
#include "extract/vocabulary.h"

namespace husk {

RE2::Options furniture_pattern_options() {
  RE2::Options o;
  o.set_case_sensitive(false);
  o.set_log_errors(false);
  return o;
}

std::shared_ptr<const RE2> furniture_alternation(const std::vector<std::string>& patterns) {
  std::string alternation;
  for (const std::string& p : patterns) alternation += (alternation.empty() ? "(?:" : "|(?:") + p + ")";
  return compiled_once(alternation, furniture_pattern_options());
}

FurnitureLines::FurnitureLines(const std::vector<FurnitureClass>& classes) {
  // The configuration checked that each alternation compiles (config.cc).
  auto compiled = [](const std::vector<std::string>& patterns) -> std::shared_ptr<const RE2> {
    if (patterns.empty()) return nullptr;
    std::shared_ptr<const RE2> re = furniture_alternation(patterns);
    return re->ok() ? re : nullptr;
  };
  for (const FurnitureClass& c : classes) {
    Compiled k{c.name, compiled(c.patterns), compiled(c.any_length)};
    if ((k.pattern || k.any_length) && classes_.size() < kMaxFurnitureClasses) classes_.push_back(std::move(k));
  }
}

uint8_t FurnitureLines::number_of(std::string_view text, uint32_t words) const {
  if (words == 0) return 0;
  text = trim(text);
  if (words <= kFurnitureMaxWords)
    for (std::size_t k = 0; k < classes_.size(); ++k)
      if (classes_[k].pattern && RE2::PartialMatch(text, *classes_[k].pattern)) return static_cast<uint8_t>(k + 1);
  for (std::size_t k = 0; k < classes_.size(); ++k)
    if (classes_[k].any_length && RE2::PartialMatch(text, *classes_[k].any_length)) return static_cast<uint8_t>(k + 1);
  return 0;
}

std::vector<uint8_t> furniture_classes(const Blocks& blocks, const FurnitureLines& lines, uint32_t min_words) {
  std::vector<uint8_t> out;
  out.reserve(blocks.blocks.size());
  for (const Block& b : blocks.blocks)
    out.push_back(b.features.words < min_words ? 0 : lines.number_of(b.text, b.features.words));
  return out;
}

std::string_view FurnitureLines::name(uint8_t number) const {
  return number == 0 || number > classes_.size() ? std::string_view() : std::string_view(classes_[number - 1].name);
}

std::vector<uint8_t> take_out_furniture(const Blocks& blocks, const FurnitureLines& lines, std::vector<uint8_t>& keep) {
  std::vector<uint8_t> out(keep.size(), 0);
  for (std::size_t i = 0; i < keep.size() && i < blocks.blocks.size(); ++i) {
    const Block& b = blocks.blocks[i];
    if (!keep[i]) continue;
    out[i] = lines.number_of(b.text, b.features.words);
    if (out[i] != 0) keep[i] = 0;
  }
  return out;
}

namespace {

// The date or time stamp at a line's start or end, bracketed or not ("10/4",
// "[ 11:02 10/4 ]", "(01/17 00:06)", "06.01.12 08:49", "9:00"): numbers
// and their separators only, so it reads the same in every language.
const RE2& stamp_at_edge() {
  static const std::shared_ptr<const RE2> re = [] {
    // A date of three parts, or of two that read as a day and a month
    // ("10/4", "09.04"; not "166/07", a file number, nor "2.0", a version),
    // or a time.
    const std::string stamp =
        R"((?:\d{1,4}[./-]\d{1,2}[./-]\d{1,4}|\d{1,2}/\d{1,2}|\d{2}\.\d{2}|\d{1,2}:\d{2}(?::\d{2})?))";
    const std::string stamps = R"([\[(]?\s*)" + stamp + R"((?:\s*[\])]?\s*[\[(]?\s*)" + stamp + R"()*\s*[\])]?)";
    return compiled_once("(^" + stamps + R"(\s|\s)" + stamps + "$)", furniture_pattern_options());
  }();
  return *re;
}

// The stamp's words as the block's words count them (a bracket alone among
// them), or 0 without a stamp.
uint32_t stamp_words(std::string_view text) {
  // A block's text has no space at either end, so a stamp there begins or
  // ends the text with a digit or a bracket: any other line, an article's
  // paragraph above all, is answered without a search through it.
  auto edge = [](char c) { return (c >= '0' && c <= '9') || c == '[' || c == '(' || c == ']' || c == ')'; };
  if (text.empty() || !(edge(text.front()) || edge(text.back()))) return 0;
  re2::StringPiece match;
  if (!RE2::PartialMatch(text, stamp_at_edge(), &match)) return 0;
  return spaced_words(std::string_view(match.data(), match.size()));
}

// The words of a line that hold no letter or digit: the dashes, arrows,
// bullets and bars between a headline and its source, date or section
// ("– Headline — Agency, 13.10.2011", "Society → Headline").
uint32_t mark_words(std::string_view text) {
  uint32_t marks = 0;
  any_token(text, [&](std::string_view word) {
    marks += !has_letter_or_digit(word);
    return false;
  });
  return marks;
}

}  // namespace

uint32_t spaced_words(std::string_view text) {
  uint32_t words = 0;
  bool in_word = false;
  for (char c : text) {
    const bool space = c == ' ';
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

bool is_link_line(const Block& block) {
  const BlockFeatures& f = block.features;
  if (f.link_density > kLinkLineDensity) return true;
  if (f.link_words < kMinStampedHeadlineWords) return false;
  uint32_t beside = stamp_words(block.text);
  if (f.words <= kMaxMarkedLineWords) beside += mark_words(block.text);
  if (beside == 0 || beside >= f.words) return false;
  return static_cast<float>(f.link_words) > kLinkLineDensity * static_cast<float>(f.words - beside);
}

bool is_dateline(const Block& block) {
  const BlockFeatures& f = block.features;
  if (f.words == 0 || f.words > kDatelineMaxWords || f.link_density >= kDatelineMaxLinkDensity) return false;
  return has_year(block.text) || stamp_words(block.text) > 0;
}

std::vector<uint8_t> datelines(const Blocks& blocks) {
  std::vector<uint8_t> out;
  out.reserve(blocks.blocks.size());
  for (const Block& b : blocks.blocks) out.push_back(is_dateline(b));
  return out;
}

std::vector<uint8_t> take_out_link_lines(const Blocks& blocks, std::vector<uint8_t>& keep) {
  std::vector<uint8_t> out(keep.size(), 0);
  for (std::size_t i = 0; i < keep.size() && i < blocks.blocks.size(); ++i) {
    if (!keep[i] || !is_link_line(blocks.blocks[i])) continue;
    out[i] = 1;
    keep[i] = 0;
  }
  return out;
}

}  // namespace husk
