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
  for (const FurnitureClass& c : classes) {
    if (c.patterns.empty()) continue;
    std::shared_ptr<const RE2> compiled = furniture_alternation(c.patterns);
    // The configuration checked that the alternation compiles (config.cc).
    if (compiled->ok() && classes_.size() < kMaxFurnitureClasses) classes_.push_back({c.name, std::move(compiled)});
  }
}

uint8_t FurnitureLines::number_of(std::string_view text, uint32_t words) const {
  if (words == 0 || words > kFurnitureMaxWords) return 0;
  text = trim(text);
  for (std::size_t k = 0; k < classes_.size(); ++k)
    if (RE2::PartialMatch(text, *classes_[k].pattern)) return static_cast<uint8_t>(k + 1);
  return 0;
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

std::vector<uint8_t> take_out_link_lines(const Blocks& blocks, std::vector<uint8_t>& keep) {
  std::vector<uint8_t> out(keep.size(), 0);
  for (std::size_t i = 0; i < keep.size() && i < blocks.blocks.size(); ++i) {
    if (!keep[i] || !is_link_line(blocks.blocks[i].features)) continue;
    out[i] = 1;
    keep[i] = 0;
  }
  return out;
}

}  // namespace husk
