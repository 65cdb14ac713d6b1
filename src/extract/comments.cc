#include "extract/comments.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "base/text_util.h"
#include "extract/features.h"
#include "extract/vocabulary.h"

namespace husk {

namespace {

// A section holding more than this share of the kept words is the page,
// not its comments: a page-wide element that names comments (WordPress's
// <body class="comments-open">) holds all of the text and leaves outside it
// only what the model kept by mistake, while a news page's comment thread
// is often longer than its article. Cross-validated by domain on the four
// development collections (husk train extract, which applies this rule):
// daniel-dev 0.9219 at a half and at 0.8, 0.9230 at 0.9 and 0.95 (Polish
// and English threads longer than their articles left out), wcxb-dev
// 0.8529 at every share up to 0.95 and 0.8526 when every section goes.
constexpr double kMaxCommentShare = 0.9;
// A comment block with a higher link density is a reply or permalink line.
constexpr float kMaxCommentLinkDensity = 0.5f;

// Whether a class or id value names comments: it opens with a word of the
// vocabulary ("comments", "comment-list", "kommentare", "disqus_thread")
// or is one of its whole words ("respond", WordPress's reply box). A word
// inside a longer value qualifies something else ("live-match-comment" is
// a live report, "testimonials-comments" a product's reviews: both the
// page's content on wcxb-dev and traf-snippets-dev), and "commentary" is
// an article's genre: a word followed by "ar" does not count.
bool names_comments(std::string_view value, const HintFamily& vocabulary) {
  for (const std::string& word : vocabulary.substrings)
    if (value.starts_with(word) && value.substr(word.size(), 2) != "ar") return true;
  for (const std::string& word : vocabulary.tokens)
    if (value == word) return true;
  return false;
}

bool hints_name_comments(std::string_view hints, const HintFamily& vocabulary) {
  return any_token(hints, [&](std::string_view token) { return names_comments(token, vocabulary); });
}

}  // namespace

const HintFamily& comment_vocabulary(const std::vector<HintFamily>& families) {
  static const HintFamily kNone;
  for (const HintFamily& f : families)
    if (f.name == "comment") return f;
  return kNone;
}

bool is_comment_heading(std::string_view text, const std::vector<std::string>& headings) {
  if (headings.empty()) return false;
  const std::string key = phrase_key(text);
  std::string_view k = key;
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  // A count before the word ("3 comments") ...
  std::size_t i = 0;
  while (i < k.size() && digit(k[i])) ++i;
  if (i > 0 && i < k.size() && k[i] == ' ') k.remove_prefix(i + 1);
  // ... or after it ("comments (3)", "komentarze: 5"; phrase_key has
  // trimmed the closing bracket).
  std::size_t j = k.size();
  while (j > 0 && digit(k[j - 1])) --j;
  if (j < k.size()) {
    while (j > 0 && (k[j - 1] == ' ' || k[j - 1] == '(' || k[j - 1] == '[' || k[j - 1] == ':')) --j;
    k = k.substr(0, j);
  }
  for (const std::string& h : headings)
    if (k == h) return true;
  return false;
}

std::vector<BlockRange> comment_sections(const Blocks& blocks, const HintFamily& vocabulary,
                                         const std::vector<std::string>& headings) {
  auto schema_is_comment = [&](const Element& e) {
    if (e.schema == 0 || e.schema > blocks.schema_types.size()) return false;
    const std::string& t = blocks.schema_types[e.schema - 1];
    return t == "Comment" || t == "UserComments";
  };
  std::vector<BlockRange> out;
  for (std::size_t e = 1; e < blocks.elements.size(); ++e) {
    const Element& el = blocks.elements[e];
    if (el.first_block >= el.end_block) continue;
    if (hints_name_comments(el.hints, vocabulary) || schema_is_comment(el)) out.push_back({el.first_block, el.end_block});
  }
  // A heading whose markup names nothing: the thread is its sibling, so the
  // section runs to the end of the heading element's parent.
  for (std::size_t b = 0; b < blocks.blocks.size(); ++b) {
    const Block& block = blocks.blocks[b];
    // A teaser's comment count ("14 comments", a link to the thread) is
    // no heading: the item around it is the listing's content.
    if (block.features.words > kMaxHeadingWords || block.features.link_density > kMaxCommentLinkDensity ||
        block.element >= blocks.elements.size() || !is_comment_heading(block.text, headings))
      continue;
    const Element& el = blocks.elements[block.element];
    const Element& around = el.parent != Element::kNone && el.parent < blocks.elements.size()
                                ? blocks.elements[el.parent]
                                : el;
    out.push_back({static_cast<uint32_t>(b), std::max(around.end_block, static_cast<uint32_t>(b + 1))});
  }
  return out;
}

std::vector<uint8_t> take_out_comments(const std::vector<BlockRange>& sections, const std::vector<double>& words,
                                       std::vector<uint8_t>& keep) {
  std::vector<uint8_t> out(words.size(), 0);
  double kept_words = 0;
  for (std::size_t i = 0; i < words.size() && i < keep.size(); ++i)
    if (keep[i]) kept_words += words[i];
  // Sections come parents first, so a section's blocks are marked before
  // any section inside it is looked at; those are skipped.
  for (const BlockRange& s : sections) {
    if (s.first >= out.size() || out[s.first]) continue;
    double kept_inside = 0;
    for (uint32_t b = s.first; b < s.end && b < keep.size() && b < words.size(); ++b)
      if (keep[b]) kept_inside += words[b];
    if (kept_words > 0 && kept_inside > kMaxCommentShare * kept_words) continue;
    for (uint32_t b = s.first; b < s.end && b < out.size(); ++b) out[b] = 1;
  }
  for (std::size_t b = 0; b < out.size() && b < keep.size(); ++b)
    if (out[b]) keep[b] = 0;
  return out;
}

std::vector<uint8_t> comment_blocks(const Blocks& blocks, const std::vector<BlockRange>& sections,
                                    const std::vector<double>& words) {
  for (const std::string& type : blocks.schema_types)
    if (type == "DiscussionForumPosting" || type == "Comment" || type == "UserComments" || type == "Question" ||
        type == "Answer")
      return {};
  std::vector<uint8_t> every(words.size(), 1);
  std::vector<uint8_t> out = take_out_comments(sections, words, every);
  // A forum's first post and its replies share their template: a
  // paragraph outside the sections whose nearest classed element is named
  // as a paragraph's inside one ("message usercontent" around both) makes
  // the sections a thread's.
  auto template_of = [&](std::size_t b) -> std::string_view {
    for (uint32_t e = blocks.blocks[b].element; e < blocks.elements.size(); e = blocks.elements[e].parent)
      if (!blocks.elements[e].hints.empty()) return blocks.elements[e].hints;
    return {};
  };
  std::vector<std::string_view> inside;
  for (std::size_t b = 0; b < out.size() && b < blocks.blocks.size(); ++b)
    if (out[b] && words[b] >= kProseMinWords) inside.push_back(template_of(b));
  for (std::size_t b = 0; b < out.size() && b < blocks.blocks.size(); ++b) {
    if (out[b] || words[b] < kProseMinWords) continue;
    const std::string_view t = template_of(b);
    if (!t.empty() && std::find(inside.begin(), inside.end(), t) != inside.end()) return {};
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
