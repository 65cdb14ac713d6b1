// A page's user comment section (trafilatura's include_comments): the
// blocks inside it, to leave out of the text and return apart.
#pragma once

#include <cstdint>
#include <vector>

#include "husk/extract.h"
#include "husk/html.h"

namespace husk {

// One entry per block: 1 inside the comment section. A section is an
// element whose class or id names comments by a word of `vocabulary` (the
// extraction vocabulary's comment family, config/extract.toml, the one list
// the learned extractor's features read too: "comment", "kommentar",
// "komentarz", "pinglun", "disqus", ... anywhere in a value, "reply" or
// "respond" as a whole word) or whose microdata type is Comment or
// UserComments, and that does not hold most of the kept text (then it is
// the page itself, as on a WordPress <body class="comments-open">).
std::vector<uint8_t> comment_blocks(const Blocks& blocks, const std::vector<uint8_t>& keep,
                                    const HintFamily& vocabulary);

// The comment family of a vocabulary, or an empty one.
const HintFamily& comment_vocabulary(const std::vector<HintFamily>& families);

// The comment section's own words: its blocks that are not forms (the
// reply box) and not mostly links (reply and permalink lines), one
// paragraph each.
std::string comment_text(const Blocks& blocks, const std::vector<uint8_t>& in_comments);

}  // namespace husk
