// Clean text from labels: the kept blocks, one paragraph each.
#include "husk/extract.h"

namespace husk {

std::string kept_text(const Blocks& blocks, const Labels& labels) {
  std::string out;
  const std::size_t n = std::min(blocks.blocks.size(), labels.keep.size());
  std::size_t size = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (labels.keep[i]) size += blocks.blocks[i].text.size() + 2;
  out.reserve(size);
  for (std::size_t i = 0; i < n; ++i) {
    if (!labels.keep[i]) continue;
    if (!out.empty()) out += "\n\n";
    out += blocks.blocks[i].text;
  }
  return out;
}

}  // namespace husk
