// Clean text from labels: the kept blocks, one paragraph each.
#include <algorithm>

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

double expected_f1(const std::vector<float>& probability, const std::vector<uint8_t>& keep,
                   const std::vector<double>& words) {
  const std::size_t n = probability.size();
  if (n == 0 || keep.size() != n || words.size() != n) return 0.0;
  double kept = 0, kept_content = 0, content = 0;
  for (std::size_t i = 0; i < n; ++i) {
    content += probability[i] * words[i];
    if (keep[i]) {
      kept += words[i];
      kept_content += probability[i] * words[i];
    }
  }
  return kept > 0 ? 2.0 * kept_content / (kept + content) : 0.0;
}

double expected_f1(const Blocks& blocks, const Labels& labels) {
  std::vector<double> words;
  words.reserve(blocks.blocks.size());
  for (const Block& b : blocks.blocks) words.push_back(b.features.words);
  return expected_f1(labels.probability, labels.keep, words);
}

}  // namespace husk
