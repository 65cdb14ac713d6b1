// Segment-level dedup (husk/dedup.h, SeenParagraphs).
#include <unordered_map>

#include "base/text_util.h"
#include "husk/dedup.h"
#include "sign/hashing.h"

namespace husk {

SeenParagraphs::SeenParagraphs(uint32_t repeats, std::size_t capacity)
    : repeats_(std::max<uint32_t>(1, repeats)), capacity_(capacity) {}

std::size_t SeenParagraphs::filter(std::string& text) {
  std::string kept;
  std::size_t dropped = 0;
  // Each distinct paragraph of this text, decided once, by the earlier
  // texts: a paragraph this text repeats goes or stays with its first.
  std::unordered_map<uint64_t, bool> drop;
  std::string_view rest = text;
  while (!rest.empty()) {
    std::size_t end = rest.find("\n\n");
    std::string_view paragraph = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 2);
    if (trim(paragraph).empty()) continue;
    const uint64_t hash = xxh64(collapse_space(paragraph), 0);
    auto [decision, first] = drop.try_emplace(hash, false);
    if (first) {
      auto it = seen_.find(hash);
      if (it != seen_.end() && it->second >= repeats_) {
        decision->second = true;
      } else if (it != seen_.end()) {
        ++it->second;
      } else if (seen_.size() < capacity_) {
        seen_.emplace(hash, 1);
      }
    }
    if (decision->second) {
      ++dropped;
      continue;
    }
    if (!kept.empty()) kept += "\n\n";
    kept.append(paragraph);
  }
  if (dropped > 0) text = std::move(kept);
  return dropped;
}

}  // namespace husk
