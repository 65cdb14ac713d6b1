// Segmentation: one iterative walk over the Gumbo tree that produces the
// text blocks, their features and the element table (see husk/html.h).
#include <gumbo.h>
#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>

#include "base/text_util.h"
#include "html/dom_impl.h"
#include "html/json_ld.h"
#include "html/prescan.h"
#include "html/structured.h"

namespace husk {

namespace {

// Bounds on what a page says about itself (a hostile page could repeat
// <meta> tags without end).
constexpr std::size_t kMaxMeta = 256;
constexpr std::size_t kMaxSchemaTypes = 64;
constexpr std::size_t kMaxFacts = 16;
// An author's name, with a "By" and a role around it, fits in this many
// bytes; a longer text marked "author" is a biography.
constexpr std::size_t kMaxAuthorBytes = 160;

// The microdata properties the metadata reads (schema.org CreativeWork).
bool is_read_itemprop(std::string_view p) {
  return p == "author" || p == "creator" || p == "datepublished" || p == "datemodified" || p == "datecreated" ||
         p == "headline" || p == "keywords" || p == "articlesection" || p == "publisher" || p == "inlanguage";
}

// class or id words that mark an author's name ("author", "byline",
// "post-author", "c-byline__name"); not a word that opens with "comment":
// WordPress's and Blogger's default comment markup names each commenter
// "comment-author", and the first of them is no author of the story.
bool marks_author(const char* value) {
  if (value == nullptr) return false;
  return any_token(value, [](std::string_view token) {
    if (starts_with_ci(token, "comment")) return false;
    for (std::size_t i = 0; i < token.size(); ++i)
      if (starts_with_ci(token.substr(i), "author") || starts_with_ci(token.substr(i), "byline")) return true;
    return false;
  });
}

// The language a class names for code: "language-cpp", "lang-python"
// (the convention of CommonMark renderers, highlight.js and Prism).
std::string code_language(const char* cls) {
  std::string lang;
  if (cls != nullptr)
    any_token(cls, [&](std::string_view token) {
      for (std::string_view prefix : {"language-", "lang-"})
        if (token.size() > prefix.size() && starts_with_ci(token, prefix)) {
          lang = ascii_lower(token.substr(prefix.size()));
          return true;
        }
      return false;
    });
  return lang;
}

SpanKind span_kind_of(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_EM: case GUMBO_TAG_I: return SpanKind::kEmphasis;
    case GUMBO_TAG_STRONG: case GUMBO_TAG_B: return SpanKind::kStrong;
    case GUMBO_TAG_CODE: case GUMBO_TAG_KBD: case GUMBO_TAG_SAMP: return SpanKind::kCode;
    default: return SpanKind::kImage;  // none
  }
}

// What the walk does on meeting an element, by GumboTag.
enum class TagAction : uint8_t {
  kInline,  // text flows through
  kBlock,   // opens and closes a block; recorded in the element table
  kSkip,    // never visible: script, style, form controls, embedded media
  kBreak,   // <br>
  kRule,    // <hr>: ends a block, holds no text
};

struct TagTable {
  std::array<TagAction, GUMBO_TAG_LAST + 1> action{};
  TagTable() {
    action.fill(TagAction::kInline);
    for (GumboTag t : {GUMBO_TAG_ADDRESS, GUMBO_TAG_ARTICLE, GUMBO_TAG_ASIDE, GUMBO_TAG_BLOCKQUOTE,
                       GUMBO_TAG_BODY, GUMBO_TAG_CENTER, GUMBO_TAG_DD, GUMBO_TAG_DETAILS,
                       GUMBO_TAG_DIR, GUMBO_TAG_DIV, GUMBO_TAG_DL, GUMBO_TAG_DT, GUMBO_TAG_FIELDSET,
                       GUMBO_TAG_FIGCAPTION, GUMBO_TAG_FIGURE, GUMBO_TAG_FOOTER, GUMBO_TAG_FORM, GUMBO_TAG_H1,
                       GUMBO_TAG_H2, GUMBO_TAG_H3, GUMBO_TAG_H4, GUMBO_TAG_H5, GUMBO_TAG_H6, GUMBO_TAG_HEADER,
                       GUMBO_TAG_HGROUP, GUMBO_TAG_LI, GUMBO_TAG_MAIN, GUMBO_TAG_MENU, GUMBO_TAG_NAV,
                       GUMBO_TAG_OL, GUMBO_TAG_P, GUMBO_TAG_PRE, GUMBO_TAG_SECTION, GUMBO_TAG_TABLE,
                       GUMBO_TAG_TBODY, GUMBO_TAG_THEAD, GUMBO_TAG_TFOOT, GUMBO_TAG_TR, GUMBO_TAG_TD,
                       GUMBO_TAG_TH, GUMBO_TAG_CAPTION, GUMBO_TAG_UL, GUMBO_TAG_SUMMARY, GUMBO_TAG_LEGEND,
                       GUMBO_TAG_LISTING, GUMBO_TAG_XMP, GUMBO_TAG_PLAINTEXT, GUMBO_TAG_UNKNOWN})
      action[t] = TagAction::kBlock;
    for (GumboTag t : {GUMBO_TAG_HEAD, GUMBO_TAG_SCRIPT, GUMBO_TAG_STYLE, GUMBO_TAG_NOSCRIPT,
                       GUMBO_TAG_TEMPLATE, GUMBO_TAG_SVG, GUMBO_TAG_IFRAME, GUMBO_TAG_OBJECT,
                       GUMBO_TAG_EMBED, GUMBO_TAG_CANVAS, GUMBO_TAG_SELECT, GUMBO_TAG_OPTION,
                       GUMBO_TAG_OPTGROUP, GUMBO_TAG_BUTTON, GUMBO_TAG_TEXTAREA,
                       GUMBO_TAG_INPUT, GUMBO_TAG_AUDIO, GUMBO_TAG_VIDEO, GUMBO_TAG_MAP, GUMBO_TAG_APPLET,
                       GUMBO_TAG_FRAMESET, GUMBO_TAG_NOFRAMES, GUMBO_TAG_NOEMBED, GUMBO_TAG_TITLE,
                       GUMBO_TAG_RT, GUMBO_TAG_RP, GUMBO_TAG_RTC})
      action[t] = TagAction::kSkip;
    action[GUMBO_TAG_BR] = TagAction::kBreak;
    action[GUMBO_TAG_HR] = TagAction::kRule;
  }
};

const TagTable& tag_table() {
  static const TagTable table;
  return table;
}

uint32_t block_flag_of(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_LI: case GUMBO_TAG_DD: case GUMBO_TAG_DT: return kBlockListItem;
    case GUMBO_TAG_TD: case GUMBO_TAG_TH: return kBlockTableCell;
    case GUMBO_TAG_PRE: return kBlockPre;
    case GUMBO_TAG_BLOCKQUOTE: return kBlockQuote;
    case GUMBO_TAG_FIGCAPTION: case GUMBO_TAG_FIGURE: case GUMBO_TAG_CAPTION: return kBlockCaption;
    case GUMBO_TAG_FORM: return kBlockForm;
    case GUMBO_TAG_ADDRESS: return kBlockAddress;
    default: return 0;
  }
}

uint8_t heading_of(GumboTag tag) {
  if (tag >= GUMBO_TAG_H1 && tag <= GUMBO_TAG_H6) return static_cast<uint8_t>(tag - GUMBO_TAG_H1 + 1);
  return 0;
}

const char* attr(const GumboElement& el, const char* name) {
  const GumboAttribute* a = gumbo_get_attribute(&el.attributes, name);
  return a == nullptr ? nullptr : a->value;
}

// Inline styles that hide an element ("display: none", "visibility:hidden").
bool style_hides(const char* style) {
  if (style == nullptr) return false;
  std::string compact;
  for (const char* p = style; *p; ++p)
    if (!is_ascii_space(*p)) compact.push_back(ascii_lower_char(*p));
  return compact.find("display:none") != std::string::npos ||
         compact.find("visibility:hidden") != std::string::npos;
}

// React's streamed server rendering (React 18 Suspense, as Next.js and
// other frameworks use it) sends each boundary's content late in the page
// as <div hidden id="S:1f">, which a script moves into place: that is the
// page, only not yet in position.
bool is_streamed_boundary(const GumboElement& el) {
  const char* id = attr(el, "id");
  if (id == nullptr || id[0] != 'S' || id[1] != ':' || id[2] == 0) return false;
  for (const char* p = id + 2; *p; ++p)
    if (!std::isxdigit(static_cast<unsigned char>(*p))) return false;
  return true;
}

// What a browser does not draw. aria-hidden is not among them: it only
// takes an element out of the accessibility tree, and modal dialogs set it
// on the whole page behind them (WAI-ARIA Authoring Practices, "Dialog
// (Modal)"), so a page saved with a cookie dialog open has its <main>
// aria-hidden. It is kept as a flag for the learned extractor instead.
bool is_hidden(const GumboElement& el) {
  if (gumbo_get_attribute(&el.attributes, "hidden") != nullptr) return !is_streamed_boundary(el);
  return style_hides(attr(el, "style"));
}

// A dialog: an element whose ARIA role is dialog or alertdialog, or that
// is aria-modal (WAI-ARIA 1.2, "dialog"). Its heading names the dialog (a
// cookie notice's "Your choice regarding cookies on this site", a picker's
// title), never the page.
bool is_dialog(const GumboElement& el) {
  if (const char* role = attr(el, "role"); role != nullptr && (iequals(role, "dialog") || iequals(role, "alertdialog")))
    return true;
  const char* modal = attr(el, "aria-modal");
  return modal != nullptr && iequals(modal, "true");
}

uint32_t element_flags(const GumboElement& el) {
  uint32_t flags = 0;
  if (const char* ip = attr(el, "itemprop")) {
    std::string v = ascii_lower(ip);
    if (v.find("articlebody") != std::string::npos || v == "text" || v == "reviewbody") flags |= kElemArticleBody;
    if (v == "description") flags |= kElemDescription;
  }
  if (const char* aria = attr(el, "aria-hidden"); aria != nullptr && iequals(aria, "true")) flags |= kElemAriaHidden;
  if (is_dialog(el)) flags |= kElemDialog;
  if (const char* role = attr(el, "role")) {
    std::string v = ascii_lower(role);
    if (v == "main") flags |= kElemMainRole;
    if (v == "article") flags |= kElemArticleBody;
    if (v == "navigation" || v == "banner" || v == "contentinfo" || v == "complementary" || v == "search" ||
        v == "menu" || v == "menubar" || v == "dialog" || v == "alert")
      flags |= kElemNavRole;
  }
  return flags;
}

// Whether text sits inside a link, and whether that link stays on the page
// (href="#..."): tables of contents and "back to top" are made of those.
enum class LinkKind : uint8_t { kNone, kOther, kLocal };

LinkKind link_kind(GumboTag tag, const GumboElement& el) {
  if (tag != GUMBO_TAG_A) return LinkKind::kNone;
  const GumboAttribute* href = gumbo_get_attribute(&el.attributes, "href");
  if (href == nullptr) return LinkKind::kNone;
  return href->value[0] == '#' ? LinkKind::kLocal : LinkKind::kOther;
}

// Accumulates the text of one block with white space collapsed and the
// boilerpipe counters updated as words arrive.
class BlockBuilder {
 public:
  explicit BlockBuilder(uint32_t wrap_width) : wrap_width_(wrap_width) {}

  bool empty() const { return text_.empty(); }
  // Bytes of text so far, and where the next character will go (after the
  // space that separates it from the previous word).
  uint32_t size() const { return static_cast<uint32_t>(text_.size()); }
  uint32_t next_offset() const { return size() + (!in_word_ && !text_.empty() ? 1 : 0); }

  void append(const char* s, std::size_t n, LinkKind in_link) {
    for (std::size_t i = 0; i < n;) {
      auto c = static_cast<unsigned char>(s[i]);
      if (c < 0x80) {
        if (is_ascii_space(static_cast<char>(c)) || c < 0x20 || c == 0x7F) {
          end_word();
          ++i;
          continue;
        }
        put_char(s + i, 1, in_link);
        ++i;
        continue;
      }
      // Gumbo hands on valid UTF-8; a byte that is not (in text from
      // elsewhere) stands as one character.
      int32_t at = static_cast<int32_t>(i);
      UChar32 cp = 0;
      U8_NEXT(reinterpret_cast<const uint8_t*>(s), at, static_cast<int32_t>(n), cp);
      const std::size_t len = static_cast<std::size_t>(at) - i;
      // NBSP and the other Unicode spaces (the White_Space property)
      // collapse like ASCII white space.
      if (cp >= 0 && u_isUWhiteSpace(cp)) {
        end_word();
      } else if (cp == 0xAD) {
        // A soft hyphen only marks where a word may break at a line's end;
        // it is never part of the word (Unicode 15, section 23.2).
      } else if (cp >= 0 && is_unspaced_script(static_cast<uint32_t>(cp))) {
        put_char(s + i, len, in_link);
        ++cjk_chars_;
        if (in_link != LinkKind::kNone) ++cjk_link_chars_;
        if (in_link == LinkKind::kLocal) ++cjk_local_link_chars_;
      } else {
        put_char(s + i, len, in_link);
      }
      i += len;
    }
  }

  void end_word() {
    if (!in_word_) return;
    in_word_ = false;
    // boilerpipe: a word that does not fit the current line starts a new one.
    if (line_len_ + word_len_ > wrap_width_ && line_len_ > 0) {
      ++lines_;
      words_in_lines_ += line_words_;
      line_len_ = 0;
      line_words_ = 0;
    }
    line_len_ += word_len_ + 1;
    ++line_words_;
    word_len_ = 0;
  }

  // Finishes the block into `out`; returns false when it holds no text.
  bool finish(Block& out) {
    end_word();
    if (text_.empty()) return false;
    BlockFeatures& f = out.features;
    f.words = words_ + cjk_chars_ / 2;
    f.link_words = link_words_ + cjk_link_chars_ / 2;
    f.local_link_words = local_link_words_ + cjk_local_link_chars_ / 2;
    f.chars = chars_;
    f.wrapped_lines = lines_;
    f.words_in_wrapped_lines = words_in_lines_;
    if (lines_ == 0) {
      f.text_density = static_cast<float>(f.words);
    } else {
      float cjk_share = words_ > 0 ? static_cast<float>(f.words) / static_cast<float>(words_) : 1.0f;
      f.text_density = static_cast<float>(words_in_lines_) * cjk_share / static_cast<float>(lines_);
    }
    f.link_density = f.words > 0 ? static_cast<float>(f.link_words) / static_cast<float>(f.words) : 0.0f;
    out.text = std::move(text_);
    reset();
    return true;
  }

  void reset() {
    text_.clear();
    words_ = link_words_ = local_link_words_ = chars_ = lines_ = words_in_lines_ = 0;
    cjk_chars_ = cjk_link_chars_ = cjk_local_link_chars_ = 0;
    line_len_ = line_words_ = word_len_ = 0;
    in_word_ = false;
  }

 private:
  void put_char(const char* s, std::size_t len, LinkKind in_link) {
    if (!in_word_) {
      if (!text_.empty()) text_.push_back(' ');
      in_word_ = true;
      ++words_;
      if (in_link != LinkKind::kNone) ++link_words_;
      if (in_link == LinkKind::kLocal) ++local_link_words_;
    }
    text_.append(s, len);
    ++chars_;
    ++word_len_;
  }

  uint32_t wrap_width_;
  std::string text_;
  uint32_t words_ = 0, link_words_ = 0, local_link_words_ = 0, chars_ = 0, lines_ = 0, words_in_lines_ = 0;
  uint32_t cjk_chars_ = 0, cjk_link_chars_ = 0, cjk_local_link_chars_ = 0;
  uint32_t line_len_ = 0, line_words_ = 0, word_len_ = 0;
  bool in_word_ = false;
};

std::string collapse(std::string_view s) {
  BlockBuilder b(UINT32_MAX);
  b.append(s.data(), s.size(), LinkKind::kNone);
  Block block;
  return b.finish(block) ? block.text : std::string();
}

// Calls `each` with every text node under `root` (text, white space,
// CDATA) in document order, iteratively; `enter` says whether an element's
// children are read.
template <typename Each, typename Enter>
void for_each_text(const GumboNode* root, Each each, Enter enter) {
  std::vector<const GumboNode*> stack{root};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_WHITESPACE || n->type == GUMBO_NODE_CDATA) {
      each(n);
    } else if (n->type == GUMBO_NODE_ELEMENT && enter(n->v.element)) {
      const GumboVector& kids = n->v.element.children;
      for (unsigned k = kids.length; k > 0; --k) stack.push_back(static_cast<const GumboNode*>(kids.data[k - 1]));
    }
  }
}

// An <annotation> or <annotation-xml> of MathML semantics: the formula's
// source (TeX, content MathML), not what a reader sees.
bool is_math_annotation(const GumboElement& el) {
  if (el.tag == GUMBO_TAG_ANNOTATION_XML) return true;
  if (el.tag != GUMBO_TAG_UNKNOWN) return false;
  GumboStringPiece name = el.original_tag;
  gumbo_tag_from_original_text(&name);
  return iequals(std::string_view(name.data, name.length), "annotation");
}

// A MathML formula as the text a reader sees: the text of its tokens (mi,
// mn, mo, mtext...) in order, the white space between tokens left out as a
// browser's rendering does, its annotations left out; the alttext attribute when the
// formula holds no token text (MathML 3, sections 2.2 and 5.1).
std::string math_text(const GumboNode* math) {
  std::string out;
  for_each_text(
      math,
      [&](const GumboNode* n) {
        if (n->type != GUMBO_NODE_WHITESPACE) out.append(n->v.text.text);
      },
      [](const GumboElement& el) { return !is_math_annotation(el); });
  if (out.empty())
    if (const GumboAttribute* alt = gumbo_get_attribute(&math->v.element.attributes, "alttext")) out = alt->value;
  return out;
}

// Plain text of a subtree, of the elements `enter` reads.
template <typename Enter>
std::string text_under(const GumboNode* root, Enter enter) {
  std::string out;
  for_each_text(
      root,
      [&](const GumboNode* n) {
        out.append(n->v.text.text);
        out.push_back(' ');
      },
      enter);
  return collapse(out);
}

// Plain text of a subtree (for <title>, <h1>).
std::string subtree_text(const GumboNode* root) {
  return text_under(root, [](const GumboElement&) { return true; });
}

// Plain text of a heading as its reader reads it: a link that shows no
// letter or digit is a permalink mark beside the heading (the "¶" of
// Sphinx and MkDocs, the glyph of an icon font), not one of its words. On
// WCXB dev seven pages' <h1>s end in one and their gold titles do not.
// Nor is a button's label, which names an action (rustdoc's "Copy item
// path" in every <h1>: WCXB dev titles 82.1% -> 82.2%, one gained of three
// changed, none lost). Nor is its <small>: a heading's lighter secondary
// text, a subtitle or a side note (HTML's small print; "Story<br><small>Its
// subtitle</small>"): daniel-dev titles four pages gained, none lost.
std::string heading_text(const GumboNode* root) {
  auto shows_words = [](const GumboElement& el) {
    bool found = false;
    for (unsigned i = 0; i < el.children.length && !found; ++i)
      for_each_text(
          static_cast<const GumboNode*>(el.children.data[i]),
          [&](const GumboNode* n) { found = found || has_letter_or_digit(n->v.text.text); },
          [](const GumboElement&) { return true; });
    return found;
  };
  return text_under(root, [&](const GumboElement& el) {
    return el.tag != GUMBO_TAG_BUTTON && el.tag != GUMBO_TAG_SMALL && (el.tag != GUMBO_TAG_A || shows_words(el));
  });
}

// Whether an itemprop value (a space-separated list) holds `name`.
bool itemprop_has(const char* value, std::string_view name) {
  return value != nullptr && any_token(value, [&](std::string_view token) { return iequals(token, name); });
}

// Whether an itemtype is schema.org's Person ("https://schema.org/Person").
bool names_person(const char* itemtype) {
  return itemtype != nullptr && trim(itemtype).ends_with("/Person");
}

// The name of a microdata item (an element with itemscope): its first
// itemprop="name" not inside an item of its own (a person's employer has a
// name too), as its content attribute or its text; empty when it has none.
// A forum's post header is a schema.org Person item whose whole text is
// the avatar's initial, the name, the member's title and badges.
std::string item_name(const GumboNode* item) {
  std::vector<const GumboNode*> stack;
  const GumboVector& top = item->v.element.children;
  for (unsigned i = top.length; i-- > 0;) stack.push_back(static_cast<const GumboNode*>(top.data[i]));
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type != GUMBO_NODE_ELEMENT) continue;
    const GumboElement& el = n->v.element;
    if (itemprop_has(attr(el, "itemprop"), "name")) {
      const char* content = attr(el, "content");
      return content != nullptr ? collapse(content) : subtree_text(n);
    }
    if (attr(el, "itemscope") != nullptr) continue;
    for (unsigned i = el.children.length; i-- > 0;) stack.push_back(static_cast<const GumboNode*>(el.children.data[i]));
  }
  return {};
}

// Whether an element holds nothing but one link to the site's root
// (href="/", as the prescan writes an absolute one): a logo, as in
// <h1><a href="/">Site</a></h1>, not the page's heading.
bool root_link_only(const GumboNode* node) {
  const GumboElement* link = nullptr;
  const GumboVector& kids = node->v.element.children;
  for (unsigned i = 0; i < kids.length; ++i) {
    auto* child = static_cast<const GumboNode*>(kids.data[i]);
    if (child->type == GUMBO_NODE_WHITESPACE || child->type == GUMBO_NODE_COMMENT) continue;
    if (child->type != GUMBO_NODE_ELEMENT || child->v.element.tag != GUMBO_TAG_A || link != nullptr) return false;
    link = &child->v.element;
  }
  const char* href = link != nullptr ? attr(*link, "href") : nullptr;
  return href != nullptr && is_site_root(trim(href));
}

class Segmenter {
 public:
  Segmenter(const SegmentOptions& options, Blocks& out) : options_(options), out_(out), builder_(options.wrap_width) {}

  void run(const GumboOutput& output) {
    const GumboNode* html = output.root;
    next_node_ = 1;  // <html> is element 0
    if (html->type == GUMBO_NODE_ELEMENT) {
      if (const char* lang = attr(html->v.element, "lang")) out_.lang = ascii_lower(lang);
      const GumboVector& kids = html->v.element.children;
      for (unsigned i = 0; i < kids.length; ++i) {
        auto* child = static_cast<const GumboNode*>(kids.data[i]);
        if (child->type != GUMBO_NODE_ELEMENT && child->type != GUMBO_NODE_TEMPLATE) continue;
        if (child->v.element.tag == GUMBO_TAG_HEAD) head(child);
        if (child->v.element.tag == GUMBO_TAG_BODY) {
          body(child);
        } else {
          next_node_ += count_elements(child);
        }
      }
    }
    if (out_.elements.empty()) {  // no <body>: an empty page
      out_.elements.emplace_back();
      out_.elements[0].tag = Tag::kBody;
    }
  }

 private:
  struct Frame {
    const GumboNode* node;
    unsigned next_child;
    uint32_t element;   // element-table index when this frame opened one, else kNone
    uint32_t flags;     // block flags in force inside
    uint8_t heading;
    LinkKind link;
    bool span = false;  // opened an inline span (markup on)
  };

  struct OpenSpan {
    SpanKind kind;
    uint32_t begin;
    std::string url;
  };

  void head(const GumboNode* head) {
    const GumboVector& kids = head->v.element.children;
    for (unsigned i = 0; i < kids.length; ++i) {
      auto* n = static_cast<const GumboNode*>(kids.data[i]);
      if (n->type != GUMBO_NODE_ELEMENT) continue;
      const GumboElement& el = n->v.element;
      if (el.tag == GUMBO_TAG_TITLE && out_.title_tag.empty()) {
        out_.title_tag = subtree_text(n);
      } else if (el.tag == GUMBO_TAG_META) {
        const char* prop = attr(el, "property");
        if (prop == nullptr) prop = attr(el, "name");
        if (prop == nullptr) prop = attr(el, "itemprop");
        const char* content = attr(el, "content");
        if (prop == nullptr || content == nullptr) continue;
        if (out_.og_title.empty() && (iequals(prop, "og:title") || iequals(prop, "twitter:title")))
          out_.og_title = collapse(content);
        if (out_.meta.size() < kMaxMeta) out_.meta.emplace_back(ascii_lower(prop), collapse(content));
      } else if (el.tag == GUMBO_TAG_LINK) {
        const char* rel = attr(el, "rel");
        const char* href = attr(el, "href");
        if (rel == nullptr || href == nullptr) continue;
        std::string* into = iequals(rel, "canonical") ? &out_.canonical
                            : iequals(rel, "license") ? &out_.facts.license
                            : iequals(rel, "author")  ? &out_.facts.author_link
                                                      : nullptr;
        if (into != nullptr && into->empty()) *into = std::string(trim(href));
      } else if (el.tag == GUMBO_TAG_BASE && out_.facts.base.empty()) {
        if (const char* href = attr(el, "href")) out_.facts.base = std::string(trim(href));
      }
    }
  }

  void body(const GumboNode* body) {
    open_element(body, Element::kNone, 0, next_node_++);
    std::vector<Frame> stack;
    stack.push_back({body, 0, 0, 0, 0, LinkKind::kNone});
    uint32_t visited = 0;
    while (!stack.empty()) {
      Frame& top = stack.back();
      const GumboVector& kids = top.node->v.element.children;
      if (top.next_child >= kids.length || visited > options_.max_nodes) {
        close_frame(top);
        stack.pop_back();
        continue;
      }
      auto* child = static_cast<const GumboNode*>(kids.data[top.next_child++]);
      ++visited;
      Frame parent = top;  // copy: push_back may move `top`
      switch (child->type) {
        case GUMBO_NODE_TEXT:
        case GUMBO_NODE_WHITESPACE:
        case GUMBO_NODE_CDATA:
          text(child->v.text.text, parent);
          break;
        case GUMBO_NODE_ELEMENT:
        case GUMBO_NODE_TEMPLATE:
          element(child, parent, stack);
          break;
        default:
          break;
      }
    }
  }

  void text(const char* s, const Frame& where) {
    std::size_t n = std::strlen(s);
    if (pending_breaks_ >= 2) {
      bool has_text = false;
      for (std::size_t i = 0; i < n && !has_text; ++i) has_text = !is_ascii_space(s[i]);
      if (has_text) flush();
    }
    if (builder_.empty()) {
      current_element_ = innermost_element_;
      current_flags_ = where.flags;
      current_heading_ = where.heading;
    }
    for (std::size_t i = 0; i < n; ++i)
      if (!is_ascii_space(s[i])) {
        pending_breaks_ = 0;
        break;
      }
    builder_.append(s, n, where.link);
    if ((where.flags & kBlockPre) != 0 && (options_.markup & kMarkupStructure) != 0) append_code(s, n);
  }

  void element(const GumboNode* node, const Frame& parent, std::vector<Frame>& stack) {
    const GumboElement& el = node->v.element;
    GumboTag tag = el.tag;
    TagAction action = tag_table().action[tag <= GUMBO_TAG_LAST ? tag : GUMBO_TAG_UNKNOWN];
    if (action == TagAction::kSkip || (!options_.keep_hidden && is_hidden(el))) {
      // A <title> the parser put in <body> (Blocks::body_title). SVG's
      // <title> is never reached: svg is skipped whole.
      if (tag == GUMBO_TAG_TITLE && out_.body_title.empty()) out_.body_title = subtree_text(node);
      next_node_ += count_elements(node);
      return;
    }
    if (tag == GUMBO_TAG_MATH) {
      text(math_text(node).c_str(), parent);
      next_node_ += count_elements(node);
      return;
    }
    const uint32_t number = next_node_++;
    if (action == TagAction::kBreak) {
      builder_.end_word();
      ++pending_breaks_;
      if ((parent.flags & kBlockPre) != 0) code_.push_back('\n');
      return;
    }
    facts(node, tag, el);
    if (tag == GUMBO_TAG_IMG && (options_.markup & kMarkupImages) != 0) {
      const char* src = attr(el, "src");
      if (src == nullptr || *src == 0) src = attr(el, "data-src");
      const char* alt = attr(el, "alt");
      if (src != nullptr && *src != 0) {
        Span image{builder_.size(), builder_.size(), SpanKind::kImage, std::string(trim(src)),
                   alt ? collapse(alt) : std::string()};
        pending_spans_.push_back(std::move(image));
      }
    }
    if (action == TagAction::kRule) {
      flush();
      return;
    }
    Frame frame{node, 0, Element::kNone, parent.flags | block_flag_of(tag),
                heading_of(tag) ? heading_of(tag) : parent.heading,
                parent.link != LinkKind::kNone ? parent.link : link_kind(tag, el)};
    if (action == TagAction::kBlock) {
      flush();
      frame.element = open_element(node, innermost_element_, element_depth_ + 1, number);
    }
    if (options_.markup != 0) frame.span = open_span(tag, el, parent);
    stack.push_back(frame);
  }

  uint32_t open_element(const GumboNode* node, uint32_t parent, uint32_t depth, uint32_t number) {
    const GumboElement& el = node->v.element;
    Element e;
    e.parent = parent;
    e.tag = tag_of(el.tag);
    e.depth = static_cast<uint16_t>(std::min<uint32_t>(depth, 0xFFFF));
    e.first_block = static_cast<uint32_t>(out_.blocks.size());
    e.flags = element_flags(el);
    e.node = number;
    if (const char* type = attr(el, "itemtype")) e.schema = schema_of(type);
    const char* cls = attr(el, "class");
    const char* id = attr(el, "id");
    if (cls != nullptr || id != nullptr) {
      e.hints = ascii_lower(cls ? cls : "");
      if (id != nullptr) {
        if (!e.hints.empty()) e.hints.push_back(' ');
        e.hints += ascii_lower(id);
      }
    }
    uint32_t index = static_cast<uint32_t>(out_.elements.size());
    out_.elements.push_back(std::move(e));
    innermost_element_ = index;
    element_depth_ = depth;
    return index;
  }

  // The index + 1 of a schema.org type ("https://schema.org/Product" ->
  // "Product") in the page's list, added on first use.
  uint16_t schema_of(std::string_view itemtype) {
    itemtype = trim(itemtype);
    itemtype = itemtype.substr(0, itemtype.find(' '));  // several types: the first
    itemtype = bare_schema_type(itemtype);
    if (itemtype.empty()) return 0;
    auto& types = out_.schema_types;
    for (std::size_t i = 0; i < types.size(); ++i)
      if (types[i] == itemtype) return static_cast<uint16_t>(i + 1);
    if (types.size() >= kMaxSchemaTypes) return 0;
    types.emplace_back(itemtype);
    return static_cast<uint16_t>(types.size());
  }

  void close_frame(const Frame& frame) {
    if (frame.span) close_span();
    if (frame.element == Element::kNone) return;
    flush();
    Element& e = out_.elements[frame.element];
    e.end_block = static_cast<uint32_t>(out_.blocks.size());
    innermost_element_ = e.parent == Element::kNone ? 0 : e.parent;
    element_depth_ = e.parent == Element::kNone ? 0 : out_.elements[e.parent].depth;
  }

  void flush() {
    pending_breaks_ = 0;
    if (builder_.empty()) {
      builder_.reset();
      code_.clear();
      return;
    }
    Block block;
    const uint32_t length = builder_.size();
    if (!builder_.finish(block)) {
      code_.clear();
      return;
    }
    if (options_.markup != 0) take_spans(block, length);
    block.element = current_element_;
    block.features.position = static_cast<uint32_t>(out_.blocks.size());
    block.features.tag = out_.elements[current_element_].tag;
    block.features.heading = current_heading_;
    block.features.flags = current_flags_;
    out_.blocks.push_back(std::move(block));
  }

  // Text inside <pre> as written, but for no-break spaces, which are plain
  // spaces to whoever copies the code (and are to the plain text).
  void append_code(const char* s, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      if (static_cast<unsigned char>(s[i]) == 0xC2 && i + 1 < n && static_cast<unsigned char>(s[i + 1]) == 0xA0) {
        code_.push_back(' ');
        ++i;
      } else {
        code_.push_back(s[i]);
      }
    }
  }

  // What the metadata reads off an element (husk/metadata.h), in one pass
  // over its attributes (the HTML5 parser lower-cases their names).
  void facts(const GumboNode* node, GumboTag tag, const GumboElement& el) {
    PageFacts& f = out_.facts;
    if (tag == GUMBO_TAG_H1 && (f.h1s.size() < kMaxFacts || out_.first_h1.empty())) {
      // The block model compares blocks with the <h1> as the blocks read
      // it (is_title); the metadata reads the headline without its marks.
      if (out_.first_h1.empty()) out_.first_h1 = subtree_text(node);
      // A dialog's heading is no headline the metadata may choose.
      if (!in_dialog(out_.elements, innermost_element_)) {
        std::string text = heading_text(node);
        if (f.logos.size() < kMaxFacts && root_link_only(node)) f.logos.push_back(text);
        if (f.h1s.size() < kMaxFacts) f.h1s.push_back(std::move(text));
      }
    }
    const char *itemprop = nullptr, *content = nullptr, *datetime = nullptr, *rel = nullptr;
    bool author_hint = false;
    for (unsigned i = 0; i < el.attributes.length; ++i) {
      const auto* a = static_cast<const GumboAttribute*>(el.attributes.data[i]);
      const char* name = a->name;
      switch (name[0]) {
        case 'c':
          if (std::strcmp(name, "class") == 0) author_hint = author_hint || marks_author(a->value);
          else if (std::strcmp(name, "content") == 0) content = a->value;
          break;
        case 'i':
          if (std::strcmp(name, "id") == 0) author_hint = author_hint || marks_author(a->value);
          else if (std::strcmp(name, "itemprop") == 0) itemprop = a->value;
          break;
        case 'd':
          if (std::strcmp(name, "datetime") == 0) datetime = a->value;
          break;
        case 'r':
          if (std::strcmp(name, "rel") == 0) rel = a->value;
          break;
        default:
          break;
      }
    }
    if (tag == GUMBO_TAG_TIME && datetime != nullptr && f.times.size() < kMaxFacts) f.times.emplace_back(trim(datetime));
    if (itemprop != nullptr && f.microdata.size() < kMaxFacts * 2) {
      std::string key = ascii_lower(trim(itemprop));
      if (is_read_itemprop(key)) {
        const char* value = content != nullptr ? content : datetime;
        std::string text = value != nullptr ? collapse(value) : subtree_text(node);
        // An author item is read by its name: a person's, or whatever the
        // page shows as its author (an organization named only in a
        // <meta> inside it is a publisher's mark, not a byline).
        if (value == nullptr && (key == "author" || key == "creator") && attr(el, "itemscope") != nullptr &&
            (!text.empty() || names_person(attr(el, "itemtype"))))
          if (std::string name = item_name(node); !name.empty()) text = std::move(name);
        if (!text.empty() && text.size() <= kMaxAuthorBytes * 4) f.microdata.emplace_back(std::move(key), std::move(text));
      }
    }
    if (tag == GUMBO_TAG_A && rel != nullptr && f.author_links.size() < kMaxFacts && marks_author(rel))
      if (std::string text = subtree_text(node); !text.empty() && text.size() <= kMaxAuthorBytes)
        f.author_links.push_back(std::move(text));
    if (author_hint && f.author_marked.size() < kMaxFacts)
      if (std::string text = subtree_text(node); !text.empty() && text.size() <= kMaxAuthorBytes)
        f.author_marked.push_back(std::move(text));
  }

  // Opens the inline span an element stands for, when the output asks for
  // its kind; returns whether it did.
  bool open_span(GumboTag tag, const GumboElement& el, const Frame& parent) {
    if ((options_.markup & kMarkupStructure) != 0 && (tag == GUMBO_TAG_PRE || tag == GUMBO_TAG_CODE)) {
      std::string lang = code_language(attr(el, "class"));
      if (!lang.empty() && (tag == GUMBO_TAG_PRE || (parent.flags & kBlockPre) != 0) &&
          out_.code_languages.size() < kMaxFacts * 4)
        out_.code_languages.emplace_back(innermost_element_, std::move(lang));
    }
    if (tag == GUMBO_TAG_A) {
      const char* href = attr(el, "href");
      if ((options_.markup & kMarkupLinks) == 0 || href == nullptr || *href == 0 || href[0] == '#') return false;
      open_spans_.push_back({SpanKind::kLink, builder_.next_offset(), std::string(trim(href))});
      return true;
    }
    SpanKind kind = span_kind_of(tag);
    if (kind == SpanKind::kImage || (options_.markup & kMarkupStructure) == 0) return false;
    if (kind == SpanKind::kCode && (parent.flags & kBlockPre) != 0) return false;  // the block is code already
    open_spans_.push_back({kind, builder_.next_offset(), {}});
    return true;
  }

  void close_span() {
    OpenSpan span = std::move(open_spans_.back());
    open_spans_.pop_back();
    const uint32_t end = builder_.size();
    if (end > span.begin) pending_spans_.push_back({span.begin, end, span.kind, std::move(span.url), {}});
  }

  // Gives a finished block its spans: those closed inside it, and the
  // part of those still open that lies in it (they go on in the next
  // block from its start). Images seen while no text had come yet stay
  // for the next block.
  void take_spans(Block& block, uint32_t length) {
    for (OpenSpan& open : open_spans_) {
      if (open.begin < length) pending_spans_.push_back({open.begin, length, open.kind, open.url, {}});
      open.begin = 0;
    }
    block.spans = std::move(pending_spans_);
    pending_spans_.clear();
    std::stable_sort(block.spans.begin(), block.spans.end(), [](const Span& a, const Span& b) {
      return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
    });
    if ((current_flags_ & kBlockPre) != 0) block.code = std::move(code_);
    code_.clear();
  }

  const SegmentOptions& options_;
  Blocks& out_;
  BlockBuilder builder_;
  uint32_t innermost_element_ = 0;
  uint32_t element_depth_ = 0;
  uint32_t current_element_ = 0;
  uint32_t current_flags_ = 0;
  uint8_t current_heading_ = 0;
  int pending_breaks_ = 0;
  uint32_t next_node_ = 0;  // the next element's number in document order
  // Markup (SegmentOptions::markup):
  std::vector<OpenSpan> open_spans_;
  std::vector<Span> pending_spans_;  // closed since the last block, images included
  std::string code_;                 // the current block's text inside <pre>, as written
};

}  // namespace

Blocks segment(const Dom& dom, const SegmentOptions& options) {
  Blocks blocks;
  Segmenter(options, blocks).run(*DomAccess::impl(dom).output);
  if (!dom.json_ld().empty()) blocks.json_ld = JsonLd::parse(dom.json_ld());
  if (options.product_description) add_product_description(blocks, options);
  return blocks;
}

bool in_dialog(const std::vector<Element>& elements, uint32_t element) {
  for (uint32_t e = element; e < elements.size(); e = elements[e].parent)
    if (elements[e].flags & kElemDialog) return true;
  return false;
}

std::string tag_path(const Blocks& blocks, uint32_t element) {
  std::vector<uint32_t> chain;
  for (uint32_t e = element; e != Element::kNone && e < blocks.elements.size(); e = blocks.elements[e].parent)
    chain.push_back(e);
  std::string path;
  for (std::size_t k = chain.size(); k > 0; --k) {
    const Element& el = blocks.elements[chain[k - 1]];
    if (!path.empty()) path.push_back('>');
    path += tag_name(el.tag);
    if (!el.hints.empty()) {
      std::string_view first = el.hints;
      first = first.substr(0, first.find(' '));
      path.push_back('.');
      path += first;
    }
  }
  return path;
}

uint32_t visible_words(const Blocks& blocks) {
  uint32_t words = 0;
  for (const Block& b : blocks.blocks) words += b.features.words;
  return words;
}

}  // namespace husk
