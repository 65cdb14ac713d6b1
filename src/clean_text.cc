#include "husk/extract.h"

namespace husk {

std::string CleanText::text() const {
  std::string out;
  std::size_t size = 0;
  for (const std::string& p : paragraphs) size += p.size() + 2;
  out.reserve(size);
  for (const std::string& p : paragraphs) {
    if (!out.empty()) out += "\n\n";
    out += p;
  }
  return out;
}

CleanText clean_text(const Blocks& blocks, const Extraction& extraction) {
  CleanText out;
  out.title = choose_title(blocks);
  for (std::size_t i = 0; i < blocks.blocks.size() && i < extraction.keep.size(); ++i)
    if (extraction.keep[i]) out.paragraphs.push_back(blocks.blocks[i].text);
  return out;
}

}  // namespace husk
