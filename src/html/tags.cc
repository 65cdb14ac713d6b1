// husk's tag enumeration, its names, and the map from the parser's tags.
#include <array>
#include <string_view>

#include "html/dom_impl.h"

namespace husk {

namespace {

// In Tag's order; the names are the HTML5 parser's normalised tag names.
constexpr std::string_view kNames[] = {
    "html", "head", "title", "base", "link", "meta", "style", "script", "noscript", "template", "body", "article",
    "section", "nav", "aside", "h1", "h2", "h3", "h4", "h5", "h6", "hgroup", "header", "footer", "address", "p",
    "hr", "pre", "blockquote", "ol", "ul", "li", "dl", "dt", "dd", "figure", "figcaption", "main", "div", "a", "em",
    "strong", "small", "s", "cite", "q", "dfn", "abbr", "data", "time", "code", "var", "samp", "kbd", "sub", "sup",
    "i", "b", "u", "mark", "ruby", "rt", "rp", "bdi", "bdo", "span", "br", "wbr", "ins", "del", "image", "img",
    "iframe", "embed", "object", "param", "video", "audio", "source", "track", "canvas", "map", "area", "math",
    "mi", "mo", "mn", "ms", "mtext", "mglyph", "malignmark", "annotation-xml", "svg", "foreignobject", "desc",
    "table", "caption", "colgroup", "col", "tbody", "thead", "tfoot", "tr", "td", "th", "form", "fieldset",
    "legend", "label", "input", "button", "select", "datalist", "optgroup", "option", "textarea", "keygen",
    "output", "progress", "meter", "details", "summary", "menu", "menuitem", "applet", "acronym", "bgsound",
    "dir", "frame", "frameset", "noframes", "isindex", "listing", "xmp", "nextid", "noembed", "plaintext", "rb",
    "strike", "basefont", "big", "blink", "center", "font", "marquee", "multicol", "nobr", "spacer", "tt", "rtc",
    "unknown",
};
static_assert(std::size(kNames) == static_cast<std::size_t>(Tag::kUnknown) + 1, "a name for every Tag");

// The parser's tag ids mapped by name, so husk does not depend on the
// order of the parser's list.
struct ParserTags {
  std::array<Tag, GUMBO_TAG_LAST + 1> tag{};
  ParserTags() {
    tag.fill(Tag::kUnknown);
    for (int g = 0; g < GUMBO_TAG_UNKNOWN; ++g) {
      const char* name = gumbo_normalized_tagname(static_cast<GumboTag>(g));
      if (name == nullptr) continue;
      std::string_view n(name);
      for (std::size_t t = 0; t < std::size(kNames); ++t)
        if (kNames[t] == n) tag[static_cast<std::size_t>(g)] = static_cast<Tag>(t);
    }
  }
};

}  // namespace

std::string_view tag_name(Tag tag) {
  auto i = static_cast<std::size_t>(tag);
  return i < std::size(kNames) ? kNames[i] : kNames[std::size(kNames) - 1];
}

Tag tag_of(GumboTag tag) {
  static const ParserTags table;
  return tag >= 0 && tag <= GUMBO_TAG_LAST ? table.tag[static_cast<std::size_t>(tag)] : Tag::kUnknown;
}

}  // namespace husk
