// Segment-level dedup (husk/dedup.h, drop_seen_paragraphs, SeenParagraphs).
#include <unordered_map>
#include <unordered_set>

#include "base/text_util.h"
#include "husk/dedup.h"
#include "sign/hashing.h"

namespace husk {

namespace {

// Calls `each(paragraph, hash)` for every non-blank paragraph of `text`.
template <typename Each>
void each_paragraph(std::string_view text, Each&& each) {
  while (!text.empty()) {
    std::size_t end = text.find("\n\n");
    std::string_view paragraph = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 2);
    if (trim(paragraph).empty()) continue;
    each(paragraph, xxh64(collapse_space(paragraph), 0));
  }
}

}  // namespace

std::size_t drop_seen_paragraphs(std::string& text, uint32_t repeats, ParagraphCounts& counts) {
  std::string kept;
  std::size_t dropped = 0;
  // Each distinct paragraph of this text, decided once, by the earlier
  // texts: a paragraph this text repeats goes or stays with its first.
  std::unordered_map<uint64_t, bool> drop;
  each_paragraph(text, [&](std::string_view paragraph, uint64_t hash) {
    auto [decision, first] = drop.try_emplace(hash, false);
    if (first) {
      if (counts.texts_holding(hash) >= repeats)
        decision->second = true;
      else
        counts.count_one_more(hash);
    }
    if (decision->second) {
      ++dropped;
      return;
    }
    if (!kept.empty()) kept += "\n\n";
    kept.append(paragraph);
  });
  if (dropped > 0) text = std::move(kept);
  return dropped;
}

std::string seen_paragraphs_warning(std::size_t dropped) {
  return std::to_string(dropped) + " paragraph(s) seen on earlier pages left out (--dedup-paragraphs)";
}

std::vector<uint64_t> paragraph_hashes(std::string_view text) {
  std::vector<uint64_t> out;
  std::unordered_set<uint64_t> seen;
  each_paragraph(text, [&](std::string_view, uint64_t hash) {
    if (seen.insert(hash).second) out.push_back(hash);
  });
  return out;
}

SeenParagraphs::SeenParagraphs(uint32_t repeats, std::size_t capacity)
    : repeats_(std::max<uint32_t>(1, repeats)), capacity_(capacity) {}

std::size_t SeenParagraphs::filter(std::string& text) { return drop_seen_paragraphs(text, repeats_, *this); }

uint32_t SeenParagraphs::texts_holding(uint64_t paragraph) {
  auto it = seen_.find(paragraph);
  return it == seen_.end() ? 0 : it->second;
}

void SeenParagraphs::count_one_more(uint64_t paragraph) {
  if (auto it = seen_.find(paragraph); it != seen_.end())
    ++it->second;
  else if (seen_.size() < capacity_)
    seen_.emplace(paragraph, 1);
}

}  // namespace husk
