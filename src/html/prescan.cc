// The prescan: one forward pass over the markup that removes raw-text
// elements and comments and enforces the parse limits (see husk/html.h).
//
// It keeps a small stack of open element names to bound nesting. The stack
// follows the HTML tree-construction rules only roughly: an end tag pops to
// its matching open element, and p/li/dt/dd/option/tr/td/th close an open
// sibling of the same name within its scope (an li not across a ul), which
// is what keeps unclosed paragraphs of real pages from looking deep.
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "base/text_util.h"
#include "html/prescan.h"

namespace husk {

bool is_site_root(std::string_view href) {
  if (href == "/") return true;
  const std::size_t scheme = href.find("//");
  if (scheme == std::string_view::npos || (scheme != 0 && href.substr(0, scheme).find_first_of("/?#") != std::string_view::npos))
    return false;
  const std::string_view rest = href.substr(scheme + 2);
  const std::size_t slash = rest.find_first_of("/?#");
  return !rest.empty() && (slash == std::string_view::npos || (rest[slash] == '/' && slash + 1 == rest.size()));
}

namespace {

// Lower-cased tag name packed into 8 bytes; names longer than 8 share codes,
// which only matters for the approximate depth stack.
uint64_t name_code(std::string_view name) {
  uint64_t code = 0;
  std::size_t n = std::min<std::size_t>(name.size(), 8);
  for (std::size_t i = 0; i < n; ++i) code |= static_cast<uint64_t>(static_cast<uint8_t>(ascii_lower_char(name[i]))) << (8 * i);
  return code;
}

constexpr uint64_t code_of(const char* s) {
  uint64_t code = 0;
  for (std::size_t i = 0; s[i] != 0 && i < 8; ++i) code |= static_cast<uint64_t>(static_cast<uint8_t>(s[i])) << (8 * i);
  return code;
}

bool is_void(uint64_t c) {
  switch (c) {
    case code_of("area"): case code_of("base"): case code_of("br"): case code_of("col"):
    case code_of("embed"): case code_of("hr"): case code_of("img"): case code_of("input"):
    case code_of("link"): case code_of("meta"): case code_of("source"): case code_of("track"):
    case code_of("wbr"): case code_of("param"): case code_of("keygen"): case code_of("basefont"):
    case code_of("bgsound"): case code_of("frame"):
      return true;
    default:
      return false;
  }
}

bool closes_sibling(uint64_t c) {
  switch (c) {
    case code_of("p"): case code_of("li"): case code_of("dt"): case code_of("dd"):
    case code_of("option"): case code_of("tr"): case code_of("td"): case code_of("th"):
      return true;
    default:
      return false;
  }
}

// Whether an open `open` element keeps a new `code` element from closing a
// sibling of its kind above it: the scopes of the HTML tree-construction
// rules ("an li element in list item scope", "a p element in button
// scope", table scope). Without them a list item inside a nested list
// would close the outer item, and unclosed nested lists would look flat
// here while the parser nests them ever deeper.
bool bars_sibling(uint64_t code, uint64_t open) {
  if (code == code_of("li")) return open == code_of("ul") || open == code_of("ol") || open == code_of("menu");
  if (code == code_of("dt") || code == code_of("dd")) return open == code_of("dl");
  if (code == code_of("tr")) return open == code_of("table") || open == code_of("tbody") || open == code_of("thead") || open == code_of("tfoot");
  if (code == code_of("td") || code == code_of("th")) return open == code_of("tr") || open == code_of("table");
  if (code == code_of("option")) return open == code_of("select") || open == code_of("datalist");
  if (code == code_of("p"))
    return open == code_of("button") || open == code_of("table") || open == code_of("td") || open == code_of("th") ||
           open == code_of("caption") || open == code_of("object") || open == code_of("template");
  return false;
}

// Elements whose whole body is dropped (never visible text).
bool is_dropped(uint64_t c) {
  return c == code_of("script") || c == code_of("style") || c == code_of("svg") ||
         c == code_of("noscript") || c == code_of("template");
}

// Elements whose body is text, not markup, and is kept as is.
bool is_rcdata(uint64_t c) {
  return c == code_of("title") || c == code_of("textarea") || c == code_of("xmp");
}

// Elements whose white space is content.
bool keeps_white_space(uint64_t c) {
  return c == code_of("pre") || c == code_of("listing") || c == code_of("plaintext");
}

bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// White space as the HTML tokenizer defines it (no vertical tab).
bool is_html_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// The attributes some husk stage reads: class and id hints, links, hidden
// content, ARIA roles, labels and modal dialogs, microdata and meta properties, dates,
// table spans, list numbering, languages and formulas' alternative text. Everything else (data-*,
// srcset, image sources, event handlers, inline sizes) only costs parsing
// time. With ParseOptions::keep_urls, image sources and alt texts are read
// too (the Markdown and HTML outputs' --images).
bool is_read_attribute(std::string_view name, bool keep_urls) {
  if (keep_urls && (iequals(name, "src") || iequals(name, "alt") || iequals(name, "data-src"))) return true;
  static constexpr std::string_view kRead[] = {
      "class", "id", "href", "style", "hidden", "aria-hidden", "aria-label", "aria-modal", "role",
      "itemprop", "itemscope", "itemtype", "lang", "property", "name", "content", "http-equiv", "charset", "rel",
      "datetime", "colspan", "rowspan", "scope", "start", "reversed", "type", "alttext"};
  for (std::string_view read : kRead)
    if (iequals(name, read)) return true;
  return false;
}

bool is_name_char(char c) {
  return !(is_ascii_space(c) || c == '/' || c == '>' || c == '\0');
}

// Position of the '>' that ends a start tag whose name ends at `i`, skipping
// quoted attribute values; n when the tag never ends.
std::size_t tag_end(std::string_view s, std::size_t i) {
  const std::size_t n = s.size();
  while (i < n) {
    char c = s[i];
    if (c == '>') return i;
    if (c == '=') {
      ++i;
      while (i < n && is_ascii_space(s[i])) ++i;
      if (i < n && (s[i] == '"' || s[i] == '\'')) {
        const void* q = std::memchr(s.data() + i + 1, s[i], n - i - 1);
        if (q == nullptr) return n;
        i = static_cast<const char*>(q) - s.data() + 1;
        continue;
      }
      continue;
    }
    ++i;
  }
  return n;
}

// Index just past the first '>' at or after i; n when there is none.
std::size_t past_gt(std::string_view s, std::size_t i) {
  const void* gt = std::memchr(s.data() + i, '>', s.size() - i);
  return gt == nullptr ? s.size() : static_cast<const char*>(gt) - s.data() + 1;
}

// Finds the end of "</name ...>" at or after `from`; returns the index just
// past its '>' (n when the end tag runs to the end of the input), or npos
// when there is no such end tag.
std::size_t end_of_raw_text(std::string_view s, std::size_t from, std::string_view name) {
  const std::size_t n = s.size();
  std::size_t i = from;
  while (i < n) {
    const void* lt = std::memchr(s.data() + i, '<', n - i);
    if (lt == nullptr) return std::string_view::npos;
    i = static_cast<const char*>(lt) - s.data();
    if (i + 2 + name.size() <= n && s[i + 1] == '/' && iequals(s.substr(i + 2, name.size()), name) &&
        (i + 2 + name.size() == n || !is_name_char(s[i + 2 + name.size()]))) {
      return past_gt(s, i);
    }
    ++i;
  }
  return std::string_view::npos;
}

bool is_tag_name_end(char c) { return is_html_space(c) || c == '/' || c == '>'; }

// Whether "script" followed by whitespace, '/', '>' or the end of the input
// starts at s[i], in any case: the word that enters and leaves the HTML5
// tokenizer's escaped script states, and ends the script's text.
bool script_word_at(std::string_view s, std::size_t i) {
  return i + 6 <= s.size() && iequals(s.substr(i, 6), "script") && (i + 6 == s.size() || is_tag_name_end(s[i + 6]));
}

// Where a script's text ends, by the HTML5 tokenizer's script data states
// (WHATWG HTML, "13.2.5.4 Script data state" and the escaped states after
// it): "<!--" opens an escaped stretch that "-->" closes; inside it a
// "<script" opens a double-escaped stretch in which "</script" only returns
// to the escaped one. Pages of the 2000s write
// `document.write('<script src=x></script>')` inside
// `<script><!-- ... //--></script>`; ending at the first "</script" there
// would show the rest of the script as text, while Gumbo and browsers read
// on to the outer end tag. Returns what end_of_raw_text does.
std::size_t end_of_script(std::string_view s, std::size_t from) {
  enum class State { data, escaped, double_escaped } state = State::data;
  const std::size_t n = s.size();
  std::size_t dashes = 0;  // '-'s just before i in an escaped stretch
  for (std::size_t i = from; i < n;) {
    if (state == State::data) {
      const void* lt = std::memchr(s.data() + i, '<', n - i);
      if (lt == nullptr) return std::string_view::npos;
      i = static_cast<const char*>(lt) - s.data();
      if (i + 1 < n && s[i + 1] == '/' && script_word_at(s, i + 2)) return past_gt(s, i);
      if (i + 3 < n && s[i + 1] == '!' && s[i + 2] == '-' && s[i + 3] == '-') {
        state = State::escaped;
        dashes = 2;  // "<!-->" closes at once: its dashes count
        i += 4;
        continue;
      }
      ++i;
      continue;
    }
    const char c = s[i];
    if (c == '-') {
      ++dashes;
      ++i;
      continue;
    }
    if (c == '>' && dashes >= 2) {
      state = State::data;
    } else if (c == '<' && i + 1 < n && s[i + 1] == '/' && script_word_at(s, i + 2)) {
      if (state == State::escaped) return past_gt(s, i);
      state = State::escaped;
      i += 8;
      dashes = 0;
      continue;
    } else if (c == '<' && state == State::escaped && script_word_at(s, i + 1)) {
      state = State::double_escaped;
      i += 7;
      dashes = 0;
      continue;
    }
    dashes = 0;
    ++i;
  }
  return std::string_view::npos;
}

class Prescanner {
 public:
  Prescanner(std::string_view in, const ParseOptions& options) : in_(in), options_(options) {
    out_.reserve(in.size() / 2);
  }

  Prescanned run() {
    const std::size_t n = in_.size();
    std::size_t i = 0;
    while (i < n && !full_) {
      const void* lt = std::memchr(in_.data() + i, '<', n - i);
      if (lt == nullptr) break;
      i = static_cast<const char*>(lt) - in_.data();
      if (i + 1 >= n) break;
      char next = in_[i + 1];
      const bool tag = next == '!' || next == '/' || is_ascii_letter(next);
      if (!tag) {
        ++i;  // a '<' of the text
        continue;
      }
      copy_text(i);
      std::size_t end;
      if (next == '!') {
        end = declaration(i);
      } else if (next == '/') {
        end = end_tag(i);
      } else {
        end = start_tag(i);
      }
      // What the construct leaves (a kept tag, raw text) goes out as it is.
      copy_until(end);
      i = end;
    }
    copy_text(n);
    Prescanned result;
    result.html = std::move(out_);
    result.warnings = std::move(warnings_);
    result.json_ld = std::move(json_ld_);
    result.noscript_bytes = noscript_bytes_;
    if (never_closed_ > 1)
      result.warnings.push_back(std::to_string(never_closed_ - 1) + " more raw-text elements never closed");
    if (full_)
      result.warnings.push_back("markup cut at " + std::to_string(options_.max_markup_bytes) + " bytes");
    if (dropped_deep_ > 0)
      result.warnings.push_back(std::to_string(dropped_deep_) + " tags nested deeper than " +
                                std::to_string(options_.max_depth) + " flattened");
    if (dropped_many_ > 0)
      result.warnings.push_back(std::to_string(dropped_many_) + " tags beyond " +
                                std::to_string(options_.max_elements) + " elements flattened");
    if (dropped_attributes_ > 0)
      result.warnings.push_back(std::to_string(dropped_attributes_) + " attributes beyond " +
                                std::to_string(options_.max_attributes) + " per element or " +
                                std::to_string(options_.max_page_attributes) + " per page dropped");
    return result;
  }

 private:
  // Appends to the output, within the byte limit.
  void emit(std::string_view piece) {
    if (full_) return;
    std::size_t room = options_.max_markup_bytes - std::min(options_.max_markup_bytes, out_.size());
    if (piece.size() > room) {
      out_.append(piece.substr(0, utf8_cut(piece, room)));
      full_ = true;
    } else {
      out_.append(piece);
    }
  }

  // Copies input [copy_from_, end) to the output as it is.
  void copy_until(std::size_t end) {
    if (end > copy_from_) emit(in_.substr(copy_from_, end - copy_from_));
    copy_from_ = std::max(copy_from_, end);
  }

  // Copies the text [copy_from_, end), a run of white space folded to its
  // first character unless white space is content here.
  void copy_text(std::size_t end) {
    if (!options_.trim_markup || verbatim_open_ > 0) return copy_until(end);
    std::size_t p = copy_from_;
    while (p < end && !full_) {
      std::size_t q = p;
      while (q + 1 < end && !(is_html_space(in_[q]) && is_html_space(in_[q + 1]))) ++q;
      if (q + 1 >= end) {
        emit(in_.substr(p, end - p));
        break;
      }
      emit(in_.substr(p, q + 1 - p));
      for (p = q + 1; p < end && is_html_space(in_[p]);) ++p;
    }
    copy_from_ = std::max(copy_from_, end);
  }

  // Drops input [from, to): copies what precedes it, then skips it.
  void drop(std::size_t from, std::size_t to) {
    copy_until(from);
    copy_from_ = std::max(copy_from_, to);
  }

  // Pops the open elements above `depth`.
  void pop_to(std::size_t depth) {
    for (std::size_t k = depth; k < stack_.size(); ++k) verbatim_open_ -= keeps_white_space(stack_[k]);
    stack_.resize(depth);
  }

  // Writes the start tag [i, gt] again with only the attributes husk reads
  // (of styles, one that may hide),
  // when it has others; `attrs` is where its attributes begin, `gt` its '>'.
  // `link`: the tag is <a>, whose href segmentation reads only as "on this
  // page" (#...) or not: the URL itself goes, a fifth of what the prescan
  // leaves on the article-extraction-benchmark pages.
  // With trim_markup off, every attribute stays but those beyond the
  // limits: the parser checks each new attribute against the element's
  // others, so their number must stay bounded.
  void trim_attributes(std::size_t i, std::size_t attrs, std::size_t gt, bool link) {
    const bool trim = options_.trim_markup;
    std::size_t kept = 0;
    const std::size_t end = gt;
    attrs_.clear();
    bool changed = false, seen_style = false;
    for (std::size_t p = attrs; p < end;) {
      while (p < end && (is_html_space(in_[p]) || in_[p] == '/')) ++p;
      if (p >= end) break;
      std::size_t name_start = p;
      while (p < end && !is_html_space(in_[p]) && in_[p] != '/' && in_[p] != '=' && in_[p] != '>') ++p;
      if (p == name_start) ++p;  // a stray '='
      std::string_view name = in_.substr(name_start, p - name_start);
      std::size_t value_start = p, value_end = p;
      std::size_t q = p;
      while (q < end && is_html_space(in_[q])) ++q;
      if (q < end && in_[q] == '=') {
        p = q + 1;
        while (p < end && is_html_space(in_[p])) ++p;
        if (p < end && (in_[p] == '"' || in_[p] == '\'')) {
          const void* close = std::memchr(in_.data() + p + 1, in_[p], end - p - 1);
          value_start = p + 1;
          p = close == nullptr ? end : static_cast<const char*>(close) - in_.data() + 1;
          value_end = close == nullptr ? end : p - 1;
        } else {
          value_start = p;
          while (p < end && !is_html_space(in_[p])) ++p;
          value_end = p;
        }
      }
      const std::string_view value = in_.substr(value_start, value_end - value_start);
      // The parser keeps the first of repeated attributes, so a second
      // style never counts, and must not once the first is gone.
      const bool is_style = iequals(name, "style");
      if (kept >= options_.max_attributes || page_attributes_ >= options_.max_page_attributes) {
        changed = true;
        ++dropped_attributes_;
      } else if (trim && (!is_read_attribute(name, options_.keep_urls) || (is_style && seen_style))) {
        changed = true;
      } else if (trim && is_style && !may_hide(value)) {
        seen_style = true;
        changed = true;
      } else if (trim && link && !options_.keep_urls && value.size() > 1 && iequals(name, "href")) {
        changed = true;
        attrs_.append(value[0] == '#' ? " href=\"#\"" : is_site_root(value) ? " href=\"/\"" : " href");
        ++kept;
        ++page_attributes_;
      } else {
        seen_style |= is_style;
        attrs_.push_back(' ');
        attrs_.append(in_.substr(name_start, p - name_start));
        ++kept;
        ++page_attributes_;
      }
    }
    if (!changed) return;
    copy_until(i);
    emit(in_.substr(i, attrs - i));
    emit(attrs_);
    emit(gt > attrs && in_[gt - 1] == '/' ? "/>" : ">");
    copy_from_ = std::max(copy_from_, gt + 1);
  }

  // An inline style can hide its element only by naming display:none or
  // visibility:hidden (segment reads it); any other is dropped.
  static bool may_hide(std::string_view style) {
    for (std::size_t k = 0; k + 4 <= style.size(); ++k) {
      const char c = ascii_lower_char(style[k]);
      if (c == 'n' && iequals(style.substr(k, 4), "none")) return true;
      if (c == 'h' && k + 6 <= style.size() && iequals(style.substr(k, 6), "hidden")) return true;
    }
    return false;
  }

  std::size_t declaration(std::size_t i) {
    const std::size_t n = in_.size();
    if (in_.compare(i, 4, "<!--") == 0) {
      // "<!-->" and "<!--->" are complete (empty) comments.
      std::size_t end;
      if (in_.compare(i + 4, 1, ">") == 0) {
        end = i + 5;
      } else if (in_.compare(i + 4, 2, "->") == 0) {
        end = i + 6;
      } else {
        std::size_t close = in_.find("-->", i + 4);
        end = close == std::string_view::npos ? n : close + 3;
      }
      drop(i, end);
      return end;
    }
    return past_gt(i);
  }

  // The tag name starting at `start`.
  std::string_view name_at(std::size_t start) const {
    std::size_t j = start;
    while (j < in_.size() && is_name_char(in_[j])) ++j;
    return in_.substr(start, j - start);
  }

  // Index just past the next '>' at or after i (n when there is none).
  std::size_t past_gt(std::size_t i) const { return husk::past_gt(in_, i); }

  // A script start tag whose type is JSON-LD.
  static bool is_json_ld(std::string_view tag) { return mentions_any(tag, {"ld+json"}); }

  // A <link> some husk stage reads: the canonical URL, the author and the
  // licence. Style sheets, icons, preloads and alternates (a page per
  // language on multilingual sites) are left out.
  static bool is_read_link(std::string_view tag) { return mentions_any(tag, {"canonical", "author", "license"}); }

  // Whether a start tag's text, in any case, contains one of `words`.
  static bool mentions_any(std::string_view tag, std::initializer_list<std::string_view> words) {
    const std::string lower = ascii_lower(tag);
    for (std::string_view w : words)
      if (lower.find(w) != std::string::npos) return true;
    return false;
  }

  // Keeps the body of a JSON-LD script [after, the start of its end tag).
  void keep_json_ld(std::size_t after, std::size_t end) {
    std::size_t close = in_.rfind('<', end == 0 ? 0 : end - 1);
    if (close == std::string_view::npos || close < after) close = end;
    std::string_view body = trim(in_.substr(after, close - after));
    if (body.empty() || json_ld_bytes_ + body.size() > options_.max_json_ld_bytes) return;
    json_ld_bytes_ += body.size();
    json_ld_.emplace_back(body);
  }

  // end_of_raw_text, remembering per name where an end tag was found
  // missing: a page of many unclosed <title>s would otherwise scan to its
  // end once for each. npos when the element never closes.
  std::size_t raw_text_end(uint64_t code, std::size_t from, std::string_view name) {
    for (const auto& [c, at] : unclosed_)
      if (c == code && from >= at) return std::string_view::npos;
    std::size_t end = code == code_of("script") ? end_of_script(in_, from) : end_of_raw_text(in_, from, name);
    if (end == std::string_view::npos) unclosed_.emplace_back(code, from);
    return end;
  }

  // Where a raw-text element that never closes ends. The HTML5 tokenizer
  // makes everything up to the end of the file its text, so one missing
  // </title> or </script> swallows the page; browsers show such pages with
  // their body, and libxml2's HTML parser ends the element where markup
  // resumes. husk follows the older rule both recoveries share, from HTML
  // 4.01 (section B.3.2): the text ends at the first "</" followed by a
  // letter; for title, textarea, xmp and style (`markup_only`), whose text
  // holds no tags, also at the first start tag or comment. n when neither
  // occurs.
  std::size_t unclosed_end(std::string_view name, std::size_t from, bool markup_only) {
    const std::size_t n = in_.size();
    for (std::size_t i = from; i + 1 < n;) {
      const void* lt = std::memchr(in_.data() + i, '<', n - i - 1);
      if (lt == nullptr) break;
      i = static_cast<const char*>(lt) - in_.data();
      const char next = in_[i + 1];
      const bool end_tag = next == '/' && i + 2 < n && is_ascii_letter(in_[i + 2]);
      if (end_tag || (markup_only && (is_ascii_letter(next) || next == '!'))) {
        if (never_closed_++ == 0) {
          // Built by appending: GCC 12 warns falsely (-Wrestrict) on "<" + string.
          std::string warning(1, '<');
          warning += ascii_lower(name);
          warning += "> never closed; ended at byte " + std::to_string(i);
          warnings_.push_back(std::move(warning));
        }
        return i;
      }
      ++i;
    }
    return n;
  }

  std::size_t end_tag(std::size_t i) {
    uint64_t code = name_code(name_at(i + 2));
    for (std::size_t k = stack_.size(); k > 0; --k) {
      if (stack_[k - 1] == code) {
        pop_to(k - 1);
        break;
      }
    }
    return past_gt(i);
  }

  std::size_t start_tag(std::size_t i) {
    const std::size_t n = in_.size();
    std::string_view name = name_at(i + 1);
    uint64_t code = name_code(name);
    std::size_t gt = tag_end(in_, i + 1 + name.size());
    std::size_t after = gt < n ? gt + 1 : n;
    if (code == code_of("noscript") && options_.unwrap_noscript) {
      drop(i, after);  // the tag goes, its markup stays
      return after;
    }
    if (is_dropped(code) && name.size() <= 8) {
      std::size_t end = raw_text_end(code, after, name);
      // CSS holds no tags, so a style ends at one; a script's "a<b" does not.
      if (end == std::string_view::npos) end = unclosed_end(name, after, /*markup_only=*/code == code_of("style"));
      if (code == code_of("script") && is_json_ld(in_.substr(i, after - i))) keep_json_ld(after, end);
      if (code == code_of("noscript")) noscript_bytes_ += end - after;
      drop(i, end);
      return end;
    }
    if (is_rcdata(code)) {
      std::size_t end = raw_text_end(code, after, name);
      if (end != std::string_view::npos) return end;
      end = unclosed_end(name, after, /*markup_only=*/true);
      if (end < n) {  // the element closes where its text ends
        copy_until(end);
        emit("</");
        emit(ascii_lower(name));
        emit(">");
      }
      return end;
    }
    // "<div/>" is an open div in HTML: only void elements never nest.
    if (is_void(code)) {
      if (options_.trim_markup && code == code_of("link") && !is_read_link(in_.substr(i, after - i))) {
        drop(i, after);
        return after;
      }
      if (gt < n) trim_attributes(i, i + 1 + name.size(), gt, code == code_of("a"));
      return after;
    }
    if (closes_sibling(code)) {
      // An open sibling of the same kind within the last few entries closes.
      for (std::size_t k = stack_.size(), seen = 0; k > 0 && seen < 4; --k, ++seen) {
        if (stack_[k - 1] == code) {
          pop_to(k - 1);
          break;
        }
        if (bars_sibling(code, stack_[k - 1])) break;
      }
    }
    if (stack_.size() >= options_.max_depth) {
      ++dropped_deep_;
      drop(i, after);
      return after;
    }
    if (++elements_ > options_.max_elements) {
      ++dropped_many_;
      drop(i, after);
      return after;
    }
    stack_.push_back(code);
    verbatim_open_ += keeps_white_space(code);
    if (gt < n) trim_attributes(i, i + 1 + name.size(), gt, code == code_of("a"));
    return after;
  }

  std::string_view in_;
  const ParseOptions& options_;
  std::string out_;
  std::size_t copy_from_ = 0;
  std::vector<uint64_t> stack_;
  std::size_t elements_ = 0;
  std::size_t dropped_deep_ = 0;
  std::size_t dropped_many_ = 0;
  std::size_t dropped_attributes_ = 0;
  std::size_t page_attributes_ = 0;
  std::size_t verbatim_open_ = 0;                       // open elements whose white space is content
  std::string attrs_;                                   // a start tag's attributes as rewritten
  std::vector<std::string> json_ld_;
  std::vector<std::string> warnings_;
  std::vector<std::pair<uint64_t, std::size_t>> unclosed_;  // name, from where no end tag follows
  std::size_t never_closed_ = 0;
  std::size_t json_ld_bytes_ = 0;
  std::size_t noscript_bytes_ = 0;
  bool full_ = false;
};

}  // namespace

Prescanned prescan(std::string_view html, const ParseOptions& options) {
  if (!options.prescan) {
    Prescanned plain;
    plain.html.assign(html.substr(0, utf8_cut(html, options.max_markup_bytes)));
    if (plain.html.size() < html.size())
      plain.warnings.push_back("markup cut at " + std::to_string(options.max_markup_bytes) + " bytes");
    return plain;
  }
  return Prescanner(html, options).run();
}

}  // namespace husk
