// The HTML stages: bytes -> decode -> parse -> segment -> Blocks.
//
// Decode. The charset is taken from, in order (WHATWG "encoding sniffing",
// HTML Living Standard 13.2.3.2): a byte order mark; the HTTP Content-Type
// header; a <meta charset> or <meta http-equiv=Content-Type> in the first
// `sniff_bytes`; otherwise the bytes themselves: valid UTF-8 is UTF-8, and
// anything else goes to ICU's charset detector, which reads the page as
// the prescan leaves it (its text, not its scripts). A label the bytes
// contradict loses: valid UTF-8 under a legacy label is UTF-8, and bytes
// mostly invalid as UTF-8 under a UTF-8 label go to the detector. Labels are mapped the way
// browsers map them (ISO-8859-1 and ASCII are windows-1252, GB2312 and GBK
// are GB18030). Bytes that are invalid in the chosen charset become U+FFFD.
// Text a server encoded twice ("â€™" for "’") is read as it was written.
//
// Parse. Before the HTML5 parser (Gumbo) sees the page, a prescan drops what
// never reaches the text (script, style, svg, noscript, template bodies,
// comments). On the article-extraction-benchmark pages that is 61% of the
// bytes, and the parser's time is linear in what it parses. The same
// prescan enforces the limits: markup beyond `max_markup_bytes` is cut,
// start tags beyond `max_depth` open elements or beyond `max_elements` are
// dropped (their text is kept), so a hostile page costs bounded time and
// memory. Each cut is reported in Dom::warnings(). The Dom's memory comes
// from one arena released as a whole, so no recursive tree destruction ever
// runs on a deep tree.
//
// Segment. A block is the text between two block-level boundaries (an
// element such as p, div, li, h2, td opening or closing, or two
// consecutive <br>). Features follow Kohlschütter et al., "Boilerplate
// Detection using Shallow Text Features" (WSDM 2010): word count, link
// words, text density (words per 80-character wrapped line, the last line
// excluded) and link density. Blocks are in document order, so the blocks
// inside any element form one contiguous range [first_block, end_block): a
// subtree's totals are two prefix-sum lookups, which is what lets
// extractors score every subtree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "husk/status.h"

namespace husk {

// ---- Decode ----

struct DecodeOptions {
  // How far into the page <meta charset> is looked for. WHATWG says 1024;
  // 4096 also finds it behind the long inline scripts real pages put first.
  std::size_t sniff_bytes = 4096;
  // How many bytes ICU's detector reads when nothing declares a charset.
  std::size_t detect_bytes = 64u << 10;
  // ICU detector confidence (0-100) below which the fallback is used.
  int min_confidence = 10;
  // Used when detection is not confident: the web's most common legacy charset.
  std::string fallback_charset = "windows-1252";
};

struct Decoded {
  std::string html;            // valid UTF-8
  std::string charset;         // the charset the bytes were read as
  std::string charset_source;  // "bom", "http", "meta", "utf8", "detected" or "fallback"
  std::vector<std::string> warnings;
};

Decoded decode(std::string_view bytes, std::string_view content_type, const DecodeOptions& options = {});

// For text that is already Unicode (JSONL strings): repairs invalid UTF-8
// and text encoded twice.
Decoded decode_utf8(std::string_view text);

// Whether bytes handed in as a page are no text at all (an image, a PDF or
// an archive saved under an HTML name, or posted as a page): a NUL byte in
// the first 4 KB, unless a byte order mark or the content type says UTF-16
// (whose markup is half NULs), or a PDF's "%PDF-" header, whose first
// kilobytes may be all ASCII. Read as a charset, such bytes give a text of
// garbage that would pass for a page.
bool looks_binary(std::string_view bytes, std::string_view content_type);

// Maps a charset label the way browsers do; empty when ICU cannot convert it.
std::string canonical_charset(std::string_view label);

// Undoes text encoded twice (UTF-8 bytes read as windows-1252 or
// ISO-8859-1 and written out as UTF-8 again: "â€™" for "’", "Ä…" for
// "ą"), on text that shows a sequence no text written once holds. Returns
// the number of characters repaired. decode() and decode_utf8() call it.
std::size_t undo_double_encoding(std::string& text);

// Replaces every ill-formed UTF-8 sequence with U+FFFD. Returns the number
// of replacements.
std::size_t repair_utf8(std::string& text);

// ---- Parse ----

struct ParseOptions {
  // Markup kept after the prescan; beyond it the page is cut (16 MiB: larger
  // than any article page we have seen by 20x, parsed in well under a second).
  std::size_t max_markup_bytes = 16u << 20;
  // Open elements. Real pages stay below 100; the HTML5 parser's scope
  // checks are linear in depth, so unbounded nesting would be quadratic.
  std::size_t max_depth = 512;
  // Start tags kept. The largest benchmark page has about 30,000 elements.
  std::size_t max_elements = 200000;
  // Attributes kept per element and per page (beyond them they are
  // dropped): the HTML5 parser checks each new attribute against the
  // element's others, so an element with 100,000 attributes took it 23.5 s.
  std::size_t max_attributes = 256;
  std::size_t max_page_attributes = 1u << 20;
  // Drop script/style/svg/noscript/template bodies and comments before
  // parsing. Off only for measuring what the prescan saves.
  bool prescan = true;
  // Also drop the attributes no husk stage reads (data-*, srcset, event
  // handlers, ...) and fold runs of white space in text outside <pre>: on
  // the article-extraction-benchmark pages, attributes are two thirds of
  // what the prescan leaves, and the parser's time is linear in its input.
  // Off where XPath rules may name any attribute or text (site rules, husk
  // tune). Inline styles are kept only when they may hide the element.
  bool trim_markup = true;
  // Parse what <noscript> holds as part of the page. Forum software (and
  // other script-rendered sites) puts its whole server-rendered page there
  // for crawlers; elsewhere noscript holds "enable JavaScript" notes and
  // tracking pixels. The processor parses a page again with this on when
  // the page alone shows almost no text but its noscript holds markup.
  bool unwrap_noscript = false;
  // JSON-LD scripts (type application/ld+json) are kept for the metadata and
  // page type: at most this many bytes of them per page.
  std::size_t max_json_ld_bytes = 1u << 20;
  // Keep link targets and image sources and alt texts, which only the
  // Markdown and HTML outputs read (--links, --images): with trim_markup on
  // they are otherwise reduced to "on this page or not" or dropped.
  bool keep_urls = false;
};

// A parsed page. Opaque: the stages that read it (segment, the XPath view)
// are husk's own.
class Dom {
 public:
  struct Impl;
  explicit Dom(std::unique_ptr<Impl> impl);
  ~Dom();
  Dom(Dom&&) noexcept;
  Dom& operator=(Dom&&) noexcept;

  const std::vector<std::string>& warnings() const;
  // The bodies of the page's JSON-LD scripts, in document order.
  const std::vector<std::string>& json_ld() const;
  // Bytes of markup inside <noscript> that the prescan left out.
  std::size_t noscript_bytes() const;

 private:
  friend struct DomAccess;
  std::unique_ptr<Impl> impl_;
};

Result<Dom> parse(std::string_view html, const ParseOptions& options = {});

// Text with its HTML character references decoded as the HTML5 parser
// decodes them in an attribute or a textarea (every named reference of the
// HTML5 table, numeric ones, the legacy ones without ';'); markup in it
// stays text. For text the parser left raw: JSON-LD in a <script>.
std::string decode_character_references(std::string_view text);

// ---- Tags ----

// The elements of the HTML Living Standard (and the legacy ones browsers
// still parse), in the order of the HTML5 parser's tag list; kUnknown for
// any other name.
enum class Tag : uint16_t {
  kHtml, kHead, kTitle, kBase, kLink, kMeta, kStyle, kScript, kNoscript, kTemplate, kBody, kArticle,
  kSection, kNav, kAside, kH1, kH2, kH3, kH4, kH5, kH6, kHgroup, kHeader, kFooter, kAddress, kP, kHr,
  kPre, kBlockquote, kOl, kUl, kLi, kDl, kDt, kDd, kFigure, kFigcaption, kMain, kDiv, kA, kEm, kStrong,
  kSmall, kS, kCite, kQ, kDfn, kAbbr, kData, kTime, kCode, kVar, kSamp, kKbd, kSub, kSup, kI, kB, kU,
  kMark, kRuby, kRt, kRp, kBdi, kBdo, kSpan, kBr, kWbr, kIns, kDel, kImage, kImg, kIframe, kEmbed,
  kObject, kParam, kVideo, kAudio, kSource, kTrack, kCanvas, kMap, kArea, kMath, kMi, kMo, kMn, kMs,
  kMtext, kMglyph, kMalignmark, kAnnotationXml, kSvg, kForeignobject, kDesc, kTable, kCaption,
  kColgroup, kCol, kTbody, kThead, kTfoot, kTr, kTd, kTh, kForm, kFieldset, kLegend, kLabel, kInput,
  kButton, kSelect, kDatalist, kOptgroup, kOption, kTextarea, kKeygen, kOutput, kProgress, kMeter,
  kDetails, kSummary, kMenu, kMenuitem, kApplet, kAcronym, kBgsound, kDir, kFrame, kFrameset,
  kNoframes, kIsindex, kListing, kXmp, kNextid, kNoembed, kPlaintext, kRb, kStrike, kBasefont, kBig,
  kBlink, kCenter, kFont, kMarquee, kMulticol, kNobr, kSpacer, kTt, kRtc,
  kUnknown,
};

// "div", "p", ...; "unknown" for Tag::kUnknown.
std::string_view tag_name(Tag tag);

// ---- Segment ----

// Element flags: semantic markup seen on the element itself.
enum ElementFlag : uint32_t {
  kElemArticleBody = 1u << 0,  // itemprop="articleBody"/"text"/"reviewBody", role="article"
  kElemMainRole = 1u << 1,     // role="main"
  kElemNavRole = 1u << 2,      // role="navigation"/"banner"/"contentinfo"/"complementary"/"search"/"menu"
  kElemDescription = 1u << 3,  // itemprop="description"
  kElemAriaHidden = 1u << 4,   // aria-hidden="true" (drawn, but not read to screen readers)
  kElemStructured = 1u << 5,   // not in the markup: text of the page's JSON-LD (html/structured.h)
  kElemDialog = 1u << 6,       // role="dialog"/"alertdialog" or aria-modal="true": a cookie notice, a picker
};

// A block-level element of the page.
struct Element {
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  uint32_t parent = kNone;   // index into Blocks::elements
  Tag tag = Tag::kUnknown;
  uint16_t depth = 0;        // 0 for <body>
  uint32_t first_block = 0;  // blocks inside: [first_block, end_block)
  uint32_t end_block = 0;
  uint32_t flags = 0;        // ElementFlag bits
  uint32_t node = kNone;     // the element's number in document order among all the Dom's elements
  uint16_t schema = 0;       // 1 + index into Blocks::schema_types of its itemtype; 0 when it has none
  std::string hints;         // lower-cased class and id values, space-separated
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
  uint32_t words = 0;             // white-space words; CJK/Thai characters count half a word each
  uint32_t link_words = 0;        // words inside <a href>
  uint32_t local_link_words = 0;  // of those, words in links to the page itself (href="#...")
  uint32_t chars = 0;             // code points of the collapsed text
  uint32_t wrapped_lines = 0;           // full 80-character lines
  uint32_t words_in_wrapped_lines = 0;  // words on those lines
  float text_density = 0;  // words per wrapped line (boilerpipe's definition)
  float link_density = 0;  // link_words / words
  uint32_t position = 0;   // index of the block in the page
  Tag tag = Tag::kUnknown;  // tag of the element that holds the block
  uint8_t heading = 0;     // 1-6 inside <h1>-<h6>, else 0
  uint32_t flags = 0;      // BlockFlag bits
};

// Inline markup inside a block's text, recorded only when
// SegmentOptions::markup asks for it (the Markdown and HTML outputs).
enum class SpanKind : uint8_t { kEmphasis, kStrong, kCode, kLink, kImage };

struct Span {
  uint32_t begin = 0;  // byte offsets into Block::text; an image has begin == end
  uint32_t end = 0;
  SpanKind kind = SpanKind::kEmphasis;
  std::string url;  // link href or image src, as written in the page
  std::string alt;  // image alt text
};

struct Block {
  std::string text;      // white space collapsed, no leading/trailing space
  uint32_t element = 0;  // innermost block-level element holding the text
  BlockFeatures features;
  // With SegmentOptions::markup only:
  std::vector<Span> spans;  // in the order they open
  std::string code;         // inside <pre>: the text with its line breaks and indentation
};

// What the page says about itself in its markup, for the metadata
// (husk/metadata.h). Each list is bounded: a hostile page could repeat
// these without end.
struct PageFacts {
  // itemprop (lower-cased) -> value (content/datetime attribute, else the
  // element's text) for the microdata properties the metadata reads.
  std::vector<std::pair<std::string, std::string>> microdata;
  std::vector<std::string> times;         // <time datetime> values, in document order
  std::vector<std::string> author_links;  // texts of <a rel=author>
  std::vector<std::string> author_marked; // short texts of elements whose class/id says author or byline
  std::vector<std::string> h1s;           // every <h1>'s text, in document order
  std::vector<std::string> logos;         // texts of <h1>s that hold only a link to the site's root
  std::string base;                       // <base href>
  std::string license;                    // <link rel=license href>
  std::string author_link;                // <link rel=author href>
};

class JsonLd;  // the model of a page's JSON-LD, read inside husk

struct Blocks {
  std::vector<Element> elements;  // [0] is <body>
  std::vector<Block> blocks;
  // Title candidates; the headline is chosen from them with the page's
  // blocks and JSON-LD by extract_metadata (husk/metadata.h).
  std::string title_tag;   // the first <title> in <head>
  // The first <title> after <head>, where the parser puts it when an
  // unknown element (a template's tag) ended the head: the document's
  // title when the head has none (HTML Living Standard, "document.title").
  // Metadata reads it (daniel-dev titles 0.7718 -> 0.7916, WCXB dev 0.7923
  // -> 0.7936); the block model's features do not (with it they
  // cross-validated 0.002 lower, the mean over four training seeds).
  std::string body_title;
  std::string og_title;
  std::string first_h1;
  std::string lang;  // <html lang>, lower-cased
  // What the page says about itself.
  std::vector<std::pair<std::string, std::string>> meta;  // <meta> property|name|itemprop (lower-cased) -> content
  std::string canonical;                    // <link rel=canonical href>
  // Its JSON-LD scripts, parsed once for every reader (null: none).
  std::shared_ptr<const JsonLd> json_ld;
  std::vector<std::string> schema_types;    // schema.org types of its itemtype attributes ("Product"), first use first
  PageFacts facts;
  // With SegmentOptions::markup: the language of the code in <pre>
  // elements that name it (class="language-cpp" on the pre or its <code>).
  std::vector<std::pair<uint32_t, std::string>> code_languages;  // element -> language
};

struct SegmentOptions {
  // boilerpipe's wrap width for text density (Kohlschütter 2010, section 4.2).
  uint32_t wrap_width = 80;
  // Elements visited; beyond it the rest of the page is not segmented. The
  // prescan already bounds elements, this bounds text nodes as well.
  uint32_t max_nodes = 1000000;
  // Also segment what is hidden (the hidden attribute, display:none,
  // visibility:hidden). Off: hidden text is not the page. The
  // processor turns it on for a page that shows almost nothing, whose
  // text a script will reveal (React's streamed server rendering keeps it
  // in <div hidden>, single-page apps hide the body until they start).
  bool keep_hidden = false;
  // A shop's product description given in JSON-LD and not shown in the
  // page's text (a tab a script fills) becomes blocks after the page's own.
  bool product_description = true;
  // Inline markup to record (MarkupBits): the Markdown and HTML outputs
  // ask for it; plain text does not, and pays nothing for it.
  uint32_t markup = 0;
};

enum MarkupBits : uint32_t {
  kMarkupStructure = 1u << 0,  // emphasis, inline code, <pre> line breaks, code languages
  kMarkupLinks = 1u << 1,      // <a href> spans (keep ParseOptions::keep_urls on)
  kMarkupImages = 1u << 2,     // <img> spans with src and alt (likewise)
};

Blocks segment(const Dom& dom, const SegmentOptions& options = {});

// The page's visible words: its blocks' BlockFeatures::words summed.
uint32_t visible_words(const Blocks& blocks);

// Whether an element (an index into Blocks::elements) or one around it is
// a dialog (kElemDialog): its lines name the dialog, never the page, so
// neither the <h1>s the segmenter collects nor the headline rule read them.
bool in_dialog(const std::vector<Element>& elements, uint32_t element);

// The tag path of an element: "body>div.content>article>p".
std::string tag_path(const Blocks& blocks, uint32_t element);

}  // namespace husk
