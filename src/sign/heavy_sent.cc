// heavy_sent: the 3 sentences with the largest sum of their terms' tf*idf,
// CRC32 of their concatenation in document order (Sergukova's lecture, "Heavy Sent").
#include "sign/context.h"
#include "sign/hashing.h"

namespace husk {

const Signer kHeavySentSigner{"heavy_sent", [](SignContext& c, Signatures& out) {
  const auto& sentences = c.text.sentences;
  if (sentences.empty()) return;
  std::vector<double> weight;
  for (const Sentence& s : sentences) {
    double w = 0;
    for (uint32_t i = s.first_term; i < s.end_term; ++i) w += c.weight_at(i);
    weight.push_back(w);
  }
  std::string joined;
  for (uint32_t i : top_in_order(weight, c.options.heavy_sent_count)) joined += c.sentence_text(sentences[i]) + "\n";
  out.heavy_sent = crc32_of(joined);
}};

}  // namespace husk
