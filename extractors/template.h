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

// keep[i] = 0 for the page's template blocks. An Infholder model aligns
// the page with its reference page in linear space; a page whose alignment
// would exceed options.max_alignment_cells is matched without order (a
// warning says so).
Labels apply_template(const TemplateModel& model, const Blocks& blocks, const TemplateOptions& options = {});

// Cross-page and single-page evidence together. A template learned from a
// site's pages marks what repeats as boilerplate; on a site whose pages are
// mostly stubs sharing one paragraph, that paragraph is what repeats, and
// the navigation that changes from page to page is left as content. The
// page's own extractor (learned, or density) sees the page alone and is
// not fooled by repetition. When the words both keep are fewer than
// kTemplateAgreement of the words the page's extractor keeps AND of those
// the template keeps, the two disagree about what the page is: the
// template has taken the page's content for furniture and kept furniture
// instead, and the page's own labels stand. Otherwise the template's
// labels stand: they keep what a single-page extractor misses (sections
// below the heaviest one, API listings) and drop what it keeps by mistake
// (on a short page, the footer's licence can outweigh the content: the
// page's extractor keeping more is not disagreement).
// Measured on the Debian documentation sites and a stub-page site (README,
// "Templates"): 0.5.
inline constexpr double kTemplateAgreement = 0.5;
Labels combine_evidence(const Blocks& blocks, Labels site, const Labels& page);

// The longest common subsequence alignment of two signature sequences:
// pairs (i, j) of aligned positions, in order. Hirschberg's linear-space
// algorithm: O(|a| |b|) time, O(|a| + |b|) memory.
std::vector<std::pair<uint32_t, uint32_t>> lcs_alignment(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b);


}  // namespace husk
