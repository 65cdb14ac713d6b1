#include "extract/comments.h"

#include <string>
#include <string_view>

namespace husk {

namespace {

// A kept section holding more than this share of the kept words is the
// page, not its comments.
constexpr double kMaxCommentShare = 0.5;
// A comment block with a higher link density is a reply or permalink line.
constexpr float kMaxCommentLinkDensity = 0.5f;

bool names_comments(std::string_view hints) {
  for (std::size_t i = 0; i < hints.size();) {
    std::size_t j = hints.find(' ', i);
    if (j == std::string_view::npos) j = hints.size();
    std::string_view token = hints.substr(i, j - i);
    i = j + 1;
    // "commentary" is an article's genre, not its comments.
    if (token.starts_with("comment") && !token.starts_with("commentar")) return true;
    if (token.find("disqus") != std::string_view::npos || token == "respond" || token == "comments-area") return true;
  }
  return false;
}

}  // namespace

std::vector<uint8_t> comment_blocks(const Blocks& blocks, const std::vector<uint8_t>& keep) {
  std::vector<uint8_t> out(blocks.blocks.size(), 0);
  uint64_t kept_words = 0;
  for (std::size_t i = 0; i < blocks.blocks.size() && i < keep.size(); ++i)
    if (keep[i]) kept_words += blocks.blocks[i].features.words;
  auto schema_is_comment = [&](const Element& e) {
    if (e.schema == 0 || e.schema > blocks.schema_types.size()) return false;
    const std::string& t = blocks.schema_types[e.schema - 1];
    return t == "Comment" || t == "UserComments";
  };
  // Elements come parents first, so a section's blocks are marked before
  // any section inside it is looked at; those are skipped.
  for (std::size_t e = 1; e < blocks.elements.size(); ++e) {
    const Element& el = blocks.elements[e];
    if (el.first_block >= el.end_block || out[el.first_block]) continue;
    if (!names_comments(el.hints) && !schema_is_comment(el)) continue;
    uint64_t words = 0;
    for (uint32_t b = el.first_block; b < el.end_block && b < keep.size(); ++b)
      if (keep[b]) words += blocks.blocks[b].features.words;
    if (kept_words > 0 && static_cast<double>(words) > kMaxCommentShare * static_cast<double>(kept_words)) continue;
    for (uint32_t b = el.first_block; b < el.end_block && b < out.size(); ++b) out[b] = 1;
  }
  return out;
}

std::string comment_text(const Blocks& blocks, const std::vector<uint8_t>& in_comments) {
  std::string out;
  for (std::size_t i = 0; i < blocks.blocks.size() && i < in_comments.size(); ++i) {
    const Block& b = blocks.blocks[i];
    if (!in_comments[i] || (b.features.flags & kBlockForm) != 0 || b.features.link_density > kMaxCommentLinkDensity)
      continue;
    if (!out.empty()) out += "\n\n";
    out += b.text;
  }
  return out;
}

}  // namespace husk
