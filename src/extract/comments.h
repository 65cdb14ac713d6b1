// A page's user comment section (trafilatura's include_comments): the
// blocks inside it, to leave out of the text and return apart.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "husk/extract.h"
#include "husk/html.h"

namespace husk {

// The elements that may be a comment section, parents first: an element
// whose class or id names comments by a word of `vocabulary` (the
// extraction vocabulary's comment family, config/extract.toml, the one list
// the learned extractor's features read too: "comment", "kommentar",
// "komentarz", "pinglun", "disqus", ... anywhere in a value, "reply" or
// "respond" as a whole word) or whose microdata type is Comment or
// UserComments; each as its range of blocks. After them, the sections a
// heading opens (`headings`, the vocabulary's comment_headings): a block
// of at most kMaxHeadingWords, not mostly a link, that is one of them,
// with at most a count before or after it ("3 Comments", "Kommentare
// (12)"), to the end of its element's parent.
struct BlockRange {
  uint32_t first = 0, end = 0;
};
inline constexpr uint32_t kMaxHeadingWords = 6;
std::vector<BlockRange> comment_sections(const Blocks& blocks, const HintFamily& vocabulary,
                                         const std::vector<std::string>& headings);

// Whether a short text is a comment section's heading (above).
bool is_comment_heading(std::string_view text, const std::vector<std::string>& headings);

// Takes the comment sections out of what a stage kept, given the words of
// each block (word_counts, husk/extract.h), and returns them: one entry per
// block, 1 inside a section. A section that holds nearly all the kept text
// is the page itself (a WordPress <body class="comments-open">), not its
// comments. Extraction (Processor::finish) and the learned model's
// cross-validation (src/eval/train.cc) both call it.
std::vector<uint8_t> take_out_comments(const std::vector<BlockRange>& sections, const std::vector<double>& words,
                                       std::vector<uint8_t>& keep);

// The blocks of the comment sections (1 inside one), as take_out_comments
// marks them when every block is kept: what reading a page's shape sets
// aside (settle_commented, extract/page_type.h). Empty where the sections
// are a forum's posts, which are the page's content: where the page's
// microdata types a thread's posts (schema.org DiscussionForumPosting,
// Comment, UserComments, Question, Answer), or where a paragraph outside
// them sits in an element named as a paragraph's inside them (a first post
// and its replies set in one template).
std::vector<uint8_t> comment_blocks(const Blocks& blocks, const std::vector<BlockRange>& sections,
                                    const std::vector<double>& words);

// The comment family of a vocabulary, or an empty one.
const HintFamily& comment_vocabulary(const std::vector<HintFamily>& families);

// The comment section's own words: its blocks that are not forms (the
// reply box) and not mostly links (reply and permalink lines), one
// paragraph each.
std::string comment_text(const Blocks& blocks, const std::vector<uint8_t>& in_comments);

}  // namespace husk
