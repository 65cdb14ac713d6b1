// long_sent: the 2-3 longest sentences (in terms), CRC32 of their
// concatenation in document order (Sergukova's lecture, "Long Sent"). Ties go to the
// earlier sentence.
#include "sign/context.h"
#include "sign/hashing.h"

namespace husk {

const Signer kLongSentSigner{"long_sent", [](SignContext& c, Signatures& out) {
  const auto& sentences = c.text.sentences;
  if (sentences.empty()) return;
  std::vector<double> length;
  for (const Sentence& s : sentences) length.push_back(s.end_term - s.first_term);
  std::string joined;
  for (uint32_t i : top_in_order(length, c.options.long_sent_count)) joined += c.sentence_text(sentences[i]) + "\n";
  out.long_sent = crc32_of(joined);
}};

}  // namespace husk
