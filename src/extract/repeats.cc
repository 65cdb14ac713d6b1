// Repeated text (repeats.h).
#include "extract/repeats.h"

#include <algorithm>
#include <unordered_map>

#include "base/text_util.h"
#include "sign/hashing.h"

namespace husk {

uint64_t repeat_key(std::string_view text) { return xxh64(trim(text), 0); }

std::vector<uint64_t> repeat_keys(const Blocks& blocks) {
  std::vector<uint64_t> out;
  out.reserve(blocks.blocks.size());
  for (const Block& b : blocks.blocks) out.push_back(repeat_key(b.text));
  return out;
}

std::vector<uint32_t> take_out_repeats(const std::vector<uint64_t>& keys, const std::vector<double>& words,
                                       std::vector<uint8_t>& keep) {
  std::vector<uint32_t> out(keep.size(), kNotARepeat);
  const std::size_t n = std::min({keep.size(), keys.size(), words.size()});
  struct Copies {
    uint32_t kept = 0;
    uint32_t first = kNotARepeat;
  };
  std::unordered_map<uint64_t, Copies> copies;
  for (std::size_t b = 0; b < n; ++b)
    if (keep[b] && words[b] >= kRepeatMinWords) ++copies[keys[b]].kept;
  for (std::size_t b = 0; b < n; ++b) {
    if (!keep[b] || words[b] < kRepeatMinWords) continue;
    Copies& c = copies[keys[b]];
    if (c.kept > kRepeatMaxCopies) continue;
    if (c.first == kNotARepeat) {
      c.first = static_cast<uint32_t>(b);
    } else {
      out[b] = c.first;
      keep[b] = 0;
    }
  }
  return out;
}

}  // namespace husk
