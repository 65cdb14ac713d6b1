// Teaser lists: the other stories a news page lists beside its article,
// each a headline link with its lead paragraph under it ("10:17 Story" then
// "Its first sentence, as the story opens."), in a latest-news column, a
// ticker or a "more in this section" box. The lead is prose with no link,
// so the block model, which reads a block's own text and its neighbours,
// keeps it as it keeps the article; on news sites the development
// collections did not teach it (daniel-dev: Greek and Russian portals that
// put a dozen such leads under the story) the out-of-fold text doubled.
// What tells a list from the article is its shape, the same on every site:
// at least kMinTeasers headline-then-lead pairs in a row, alone in their
// container (no other paragraph beside them there: an article that
// interleaves "Read also" links with its paragraphs has paragraphs before
// the first link; a box's three-word label is no paragraph), on a page
// whose kept prose outside it is the article.
// docs/evaluation.md, "Teaser lists".
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "extract/comments.h"
#include "husk/html.h"

namespace husk {

// Three in a row: a list, not a "Read also" line above one paragraph.
// Out of fold at seed 1, two took 184 leads, 15 of them the gold's, for
// 0.0001 on WCXB dev; four lost daniel-dev 0.0005 (docs/evaluation.md).
inline constexpr uint32_t kMinTeasers = 3;

// The name husk explain gives the rule.
inline constexpr std::string_view kTeaserClass = "teaser";

struct TeaserList {
  BlockRange container;         // the blocks of the element holding the whole list
  std::vector<uint32_t> leads;  // the leads' blocks, in order
};

struct Teasers {
  std::vector<TeaserList> lists;  // in document order
  std::vector<uint8_t> prose;     // per block: 1 where it reads as a lead would (prose, not links)
};

// The page's teaser lists.
Teasers teaser_lists(const Blocks& blocks);

// Per block (of `blocks` blocks): 1 where it is a lead of one of the lists.
std::vector<uint8_t> teaser_leads(const Teasers& teasers, std::size_t blocks);

// Takes the leads of each list out of what a stage kept, unless its
// container keeps a paragraph of other prose beside them (a block of
// kProseMinWords words or more, extract/features.h: a sidebar's box
// label kept by the model spared a dozen leads on a Greek portal,
// docs/evaluation.md "Teaser lists") or no prose but leads is kept outside
// it, each list judged on what the stage kept (given the words of each
// block, word_counts, husk/extract.h); returns one entry per block, 1
// where a kept lead was taken out. Extraction (Processor::finish, on a
// page it is sure is an article) and the learned model's cross-validation
// (src/eval/train.cc) both call it.
std::vector<uint8_t> take_out_teasers(const Teasers& teasers, const std::vector<double>& words,
                                      std::vector<uint8_t>& keep);

}  // namespace husk
