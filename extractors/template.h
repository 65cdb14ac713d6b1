// The template extractor's pieces (husk/extract.h, "Cross-page
// templates"), for the store and the tests.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "husk/extract.h"

namespace husk {

// CRC32 of each block's tag path (tag names only) and text.
std::vector<uint32_t> block_signatures(const Blocks& blocks);

// The model of one group of pages.
TemplateModel learn_template(const std::vector<const Blocks*>& pages, const TemplateOptions& options);

// keep[i] = 0 for the page's template blocks.
Labels apply_template(const TemplateModel& model, const Blocks& blocks);

// The longest common subsequence alignment of two signature sequences:
// pairs (i, j) of aligned positions, in order.
std::vector<std::pair<uint32_t, uint32_t>> lcs_alignment(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b);

// The store's value format: a magic, the learner, then the model's arrays.
std::string serialize(const TemplateModel& model);
std::optional<TemplateModel> deserialize_template(std::string_view bytes);

}  // namespace husk
