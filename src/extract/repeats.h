// Repeated text: a page that carries the same passage twice shows it to a
// reader once. Responsive pages write a part of the page once per screen
// size and let CSS hide all but one copy (husk reads no style sheet);
// carousels clone their first and last slides to scroll without end; some
// forums write a thread's posts twice, once per view. The gold texts of
// the development collections hold such a passage once, and a stage that
// keeps a block keeps its copy beside it (both copies have the same
// features but their place), so whatever a stage kept, a kept block whose
// text a kept block before it already holds leaves the text
// (Processor::finish, and the learned model's cross-validation,
// src/eval/train.cc). Measured in docs/evaluation.md, "Repeated text".
//
// Two limits keep the text a page repeats on purpose: a line of one or
// two words ("Reply", "Read more", a price, a label) repeats as the label
// of each item, and a text the page keeps four times or more is the label
// of a repeated structure (a step of a weekly plan, a specification of
// each product on a list), not a second rendering of the page.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "husk/html.h"

namespace husk {

inline constexpr double kRepeatMinWords = 3;
inline constexpr uint32_t kRepeatMaxCopies = 3;

// What makes two blocks the same text: their text's bytes, trimmed (a
// page rendered twice writes the same bytes twice).
uint64_t repeat_key(std::string_view text);
std::vector<uint64_t> repeat_keys(const Blocks& blocks);

// Takes the later copies of repeated text out of `keep` and returns them:
// one entry per block, the block whose text it repeats where a kept block
// was taken out, else kNotARepeat. `keys` are the blocks' repeat_key,
// `words` their words (word_counts, husk/extract.h).
inline constexpr uint32_t kNotARepeat = UINT32_MAX;
std::vector<uint32_t> take_out_repeats(const std::vector<uint64_t>& keys, const std::vector<double>& words,
                                       std::vector<uint8_t>& keep);

}  // namespace husk
