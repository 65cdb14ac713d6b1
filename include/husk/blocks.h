// Blocks: the page as a sequence of text blocks with features, plus the
// block-level elements that contain them.
//
// A block is the text between two block-level boundaries (an element such as
// p, div, li, h2, td opening or closing, or two consecutive <br>). Features
// follow Kohlschütter et al., "Boilerplate Detection using Shallow Text
// Features" (WSDM 2010): word count, link words, text density (words per
// 80-character wrapped line, the last line excluded) and link density.
//
// Blocks are in document order, so the blocks inside any element form one
// contiguous range [first_block, end_block): a subtree's totals are two
// prefix-sum lookups, which is what lets extractors score every subtree.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace husk {

class Dom;

// Element flags: semantic markup seen on the element itself.
enum ElementFlag : uint32_t {
  kElemArticleBody = 1u << 0,   // itemprop="articleBody"/"text", role="article"
  kElemMainRole = 1u << 1,      // role="main"
  kElemNavRole = 1u << 2,       // role="navigation"/"banner"/"contentinfo"/"complementary"/"search"/"menu"
};

struct Element {
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  uint32_t parent = kNone;   // index into Blocks::elements
  uint16_t tag = 0;          // tag id; tag_name() spells it
  uint16_t depth = 0;        // 0 for <body>
  uint32_t first_block = 0;  // blocks inside: [first_block, end_block)
  uint32_t end_block = 0;
  uint32_t flags = 0;        // ElementFlag bits
  std::string hints;         // lower-cased class and id values, space-separated
  const void* source = nullptr;  // the Dom node it came from (for XPath rules)
};

// Block flags: where the block sits.
enum BlockFlag : uint32_t {
  kBlockListItem = 1u << 0,   // inside <li>, <dd> or <dt>
  kBlockTableCell = 1u << 1,  // inside <td> or <th>
  kBlockPre = 1u << 2,        // inside <pre>
  kBlockQuote = 1u << 3,      // inside <blockquote>
  kBlockCaption = 1u << 4,    // inside <figcaption>, <figure> or <caption>
  kBlockForm = 1u << 5,       // inside <form>
  kBlockAddress = 1u << 6,    // inside <address>
};

struct BlockFeatures {
  uint32_t words = 0;        // white-space words; CJK/Thai characters count half a word each
  uint32_t link_words = 0;   // words inside <a href>
  uint32_t local_link_words = 0;  // of those, words in links to the page itself (href="#...")
  uint32_t chars = 0;        // code points of the collapsed text
  uint32_t wrapped_lines = 0;          // full 80-character lines
  uint32_t words_in_wrapped_lines = 0;  // words on those lines
  float text_density = 0;    // words per wrapped line (boilerpipe's definition)
  float link_density = 0;    // link_words / words
  uint32_t position = 0;     // index of the block in the page
  uint16_t tag = 0;          // tag of the element that holds the block
  uint8_t heading = 0;       // 1-6 inside <h1>-<h6>, else 0
  uint32_t flags = 0;        // BlockFlag bits
};

struct Block {
  std::string text;      // white space collapsed, no leading/trailing space
  uint32_t element = 0;  // innermost block-level element holding the text
  BlockFeatures features;
};

struct Blocks {
  std::vector<Element> elements;  // [0] is <body>
  std::vector<Block> blocks;
  // Title candidates, chosen by choose_title().
  std::string title_tag;
  std::string og_title;
  std::string first_h1;
  std::string lang;  // <html lang>, lower-cased
};

struct SegmentOptions {
  // boilerpipe's wrap width for text density (Kohlschütter 2010, section 4.2).
  uint32_t wrap_width = 80;
  // Elements visited; beyond it the rest of the page is not segmented. The
  // prescan already bounds elements, this bounds text nodes as well.
  uint32_t max_nodes = 1000000;
};

Blocks segment(const Dom& dom, const SegmentOptions& options = {});

// The page title: og:title, else the first <h1>, else <title> less a
// trailing site name ("Story | Site"); white space collapsed.
std::string choose_title(const Blocks& blocks);

// "div", "p", ... for Element::tag and BlockFeatures::tag.
std::string_view tag_name(uint16_t tag);
// The tag path of an element: "body>div.content>article>p".
std::string tag_path(const Blocks& blocks, uint32_t element);

}  // namespace husk
