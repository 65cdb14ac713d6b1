// Markdown and HTML output of the kept blocks (husk/format.h).
#include "husk/format.h"

#include <algorithm>

#include "base/text_util.h"
#include "base/url.h"

namespace husk {

namespace {

constexpr uint32_t kNone = Element::kNone;

enum class Role : uint8_t { kParagraph, kHeading, kItem, kCell, kCode };

// Where a block sits: its role and the elements that give it.
struct Place {
  Role role = Role::kParagraph;
  uint32_t li = kNone;     // the nearest <li>
  uint32_t cell = kNone;   // the nearest <td>/<th>
  uint32_t row = kNone;    // the nearest <tr>
  uint32_t table = kNone;  // the nearest <table>
  uint32_t pre = kNone;    // the nearest <pre>
  uint8_t heading = 0;
  bool quote = false;
};


bool is_list(Tag t) { return t == Tag::kUl || t == Tag::kOl || t == Tag::kMenu || t == Tag::kDir; }

// One list item being written: its <li>, its list and its marker.
struct Level {
  uint32_t li;
  uint32_t list;
  bool ordered;
  uint32_t ordinal;
  std::size_t indent;  // Markdown: columns before the marker
  std::size_t marker_width() const { return ordered ? std::to_string(ordinal).size() + 2 : 2; }
};

class Writer {
 public:
  Writer(const Blocks& blocks, const std::vector<uint8_t>& keep, const FormatOptions& options, bool html)
      : b_(blocks), keep_(keep), o_(options), html_(html), data_table_(blocks.elements.size(), -1) {
    // The number of each <li> among the items of its list.
    ordinal_.assign(blocks.elements.size(), 0);
    std::vector<uint32_t> count(blocks.elements.size(), 0);
    for (std::size_t e = 0; e < blocks.elements.size(); ++e) {
      const Element& el = blocks.elements[e];
      if (el.tag == Tag::kLi && el.parent != kNone) ordinal_[e] = ++count[el.parent];
    }
  }

  std::string run() {
    std::vector<uint32_t> kept;
    for (std::size_t i = 0; i < b_.blocks.size() && i < keep_.size(); ++i)
      if (keep_[i]) kept.push_back(static_cast<uint32_t>(i));
    std::vector<Place> places;
    places.reserve(kept.size());
    for (uint32_t i : kept) places.push_back(place_of(b_.blocks[i]));
    for (std::size_t k = 0; k < kept.size();) {
      const Block& block = b_.blocks[kept[k]];
      const Place& place = places[k];
      if (place.role == Role::kCell) {
        std::size_t end = k + 1;
        while (end < kept.size() && places[end].role == Role::kCell && places[end].table == place.table) ++end;
        table(kept, places, k, end);
        k = end;
        continue;
      }
      if (place.role == Role::kItem) {
        item(block, place);
      } else {
        close_lists(0);
        std::string text = place.role == Role::kCode ? code(block, place) : inline_text(block);
        if (html_) {
          std::string tag = place.role == Role::kHeading ? "h" + std::to_string(place.heading) : "p";
          if (place.role == Role::kCode) {
            put(place, text);
          } else {
            put(place, "<" + tag + ">" + text + "</" + tag + ">");
          }
        } else {
          if (place.role == Role::kHeading) text = std::string(place.heading, '#') + " " + text;
          put(place, text);
        }
      }
      ++k;
    }
    close_lists(0);
    return std::move(out_);
  }

 private:
  Place place_of(const Block& block) const {
    Place p;
    p.heading = block.features.heading;
    p.quote = (block.features.flags & kBlockQuote) != 0;
    for (uint32_t e = block.element; e != kNone && e < b_.elements.size(); e = b_.elements[e].parent) {
      switch (b_.elements[e].tag) {
        case Tag::kLi: if (p.li == kNone) p.li = e; break;
        case Tag::kTd: case Tag::kTh: if (p.cell == kNone) p.cell = e; break;
        case Tag::kTr: if (p.row == kNone) p.row = e; break;
        case Tag::kTable: if (p.table == kNone) p.table = e; break;
        case Tag::kPre: if (p.pre == kNone) p.pre = e; break;
        default: break;
      }
    }
    if (p.pre != kNone || (block.features.flags & kBlockPre) != 0) {
      p.role = Role::kCode;
    } else if (p.table != kNone && p.cell != kNone && p.row != kNone && is_data_table(p.table) &&
               b_.elements[p.cell].depth > b_.elements[p.table].depth) {
      p.role = Role::kCell;
    } else if (p.li != kNone && (p.table == kNone || b_.elements[p.li].depth > b_.elements[p.table].depth)) {
      p.role = Role::kItem;
    } else if (p.heading != 0) {
      p.role = Role::kHeading;
    }
    return p;
  }

  // A table is data, not layout, when it holds no table, list, heading,
  // preformatted text, quotation or form: cells of words and numbers.
  bool is_data_table(uint32_t table) const {
    int8_t& known = data_table_[table];
    if (known >= 0) return known == 1;
    const uint16_t depth = b_.elements[table].depth;
    bool data = true;
    for (std::size_t e = table + 1; e < b_.elements.size() && b_.elements[e].depth > depth && data; ++e) {
      Tag t = b_.elements[e].tag;
      data = !(t == Tag::kTable || is_list(t) || (t >= Tag::kH1 && t <= Tag::kH6) || t == Tag::kPre ||
               t == Tag::kBlockquote || t == Tag::kForm);
    }
    known = data ? 1 : 0;
    return data;
  }

  // Appends a finished block, separated from the one before.
  void put(const Place& place, std::string text, bool tight = false) {
    if (html_) {
      if (place.quote) text = "<blockquote>" + text + "</blockquote>";
      out_ += text;
      out_ += '\n';
      return;
    }
    if (place.quote) text = quoted(text);
    if (!out_.empty()) out_ += tight ? "\n" : "\n\n";
    out_ += text;
  }

  static std::string quoted(const std::string& text) {
    std::string out = "> ";
    for (char c : text) {
      out.push_back(c);
      if (c == '\n') out += "> ";
    }
    return out;
  }

  // ---- Lists ----

  // How many of the open levels hold `li`: the open items are a
  // subsequence of its <li> ancestors (outermost first), so one walk up
  // and one pass along both decide it (linear in the depth, which the
  // prescan bounds).
  std::size_t levels_holding(uint32_t li) const {
    std::vector<uint32_t> chain;
    for (uint32_t e = li; e != kNone && e < b_.elements.size(); e = b_.elements[e].parent)
      if (b_.elements[e].tag == Tag::kLi) chain.push_back(e);
    std::size_t k = 0;
    for (auto it = chain.rbegin(); it != chain.rend() && k < levels_.size(); ++it)
      if (levels_[k].li == *it) ++k;
    return k;
  }

  void close_lists(std::size_t keep_levels) {
    while (levels_.size() > keep_levels) {
      if (html_) out_ += "</li>";
      const Level last = levels_.back();
      levels_.pop_back();
      // The list closes too unless the next item continues it.
      if (html_) out_ += last.ordered ? "</ol>\n" : "</ul>\n";
    }
  }

  void item(const Block& block, const Place& place) {
    // Levels whose item does not hold this block end.
    const std::size_t keep_levels = levels_holding(place.li);
    const bool continuation = keep_levels > 0 && levels_[keep_levels - 1].li == place.li;
    std::string text = inline_text(block);
    if (continuation) {
      close_lists(keep_levels);
      if (html_) {
        out_ += "<br/>" + text;
      } else {
        const Level& l = levels_.back();
        out_ += "\n" + std::string(l.indent + l.marker_width(), ' ') + text;
      }
      return;
    }
    uint32_t list = b_.elements[place.li].parent;
    while (list != kNone && !is_list(b_.elements[list].tag)) list = b_.elements[list].parent;
    const bool ordered = list != kNone && b_.elements[list].tag == Tag::kOl;
    // A sibling item of the same list: close the previous item only.
    bool same_list = levels_.size() > keep_levels && levels_[keep_levels].list == list && list != kNone;
    if (same_list) {
      close_lists(keep_levels + 1);
      if (html_) out_ += "</li>";
      levels_.pop_back();
    } else {
      close_lists(keep_levels);
    }
    Level level{place.li, list, ordered, std::max<uint32_t>(1, ordinal_[place.li]), 0};
    if (!levels_.empty()) level.indent = levels_.back().indent + levels_.back().marker_width();
    const bool first_of_list = !same_list;
    levels_.push_back(level);
    if (html_) {
      if (first_of_list) out_ += ordered ? "<ol>" : "<ul>";
      out_ += "<li>" + text;
      return;
    }
    std::string marker = ordered ? std::to_string(level.ordinal) + ". " : "- ";
    std::string line = std::string(level.indent, ' ') + marker + text;
    if (place.quote) line = quoted(line);
    // Items of one list, nested ones included, stand on consecutive lines.
    bool tight = levels_.size() > 1 || same_list;
    if (!out_.empty()) out_ += tight ? "\n" : "\n\n";
    out_ += line;
  }

  // ---- Tables ----

  void table(const std::vector<uint32_t>& kept, const std::vector<Place>& places, std::size_t from, std::size_t to) {
    close_lists(0);
    // Rows of cells, each cell the text of its blocks.
    std::vector<std::vector<std::string>> rows;
    std::vector<bool> header_row;
    uint32_t row = kNone, cell = kNone;
    for (std::size_t k = from; k < to; ++k) {
      const Block& block = b_.blocks[kept[k]];
      const Place& p = places[k];
      if (p.row != row) {
        rows.emplace_back();
        header_row.push_back(true);
        row = p.row;
        cell = kNone;
      }
      std::string text = inline_text(block, true);
      if (p.cell != cell) {
        rows.back().push_back(std::move(text));
        header_row.back() = header_row.back() && b_.elements[p.cell].tag == Tag::kTh;
        cell = p.cell;
      } else {
        rows.back().back() += (html_ ? "<br/>" : " ") + text;
      }
    }
    std::size_t columns = 0;
    for (const auto& r : rows) columns = std::max(columns, r.size());
    std::string t;
    if (html_) {
      t = "<table>";
      for (std::size_t r = 0; r < rows.size(); ++r) {
        const char* tag = r == 0 ? "th" : "td";
        t += "<tr>";
        for (const std::string& c : rows[r]) t += std::string("<") + tag + ">" + c + "</" + tag + ">";
        t += "</tr>";
      }
      t += "</table>";
    } else {
      // GitHub's pipe tables need a header row: the first row is it.
      for (std::size_t r = 0; r < rows.size(); ++r) {
        t += "|";
        for (std::size_t c = 0; c < columns; ++c) {
          t += ' ';
          if (c < rows[r].size()) t += rows[r][c];
          t += " |";
        }
        if (r == 0) {
          t += "\n|";
          for (std::size_t c = 0; c < columns; ++c) t += " --- |";
        }
        if (r + 1 < rows.size()) t += "\n";
      }
    }
    put(places[from], t);
  }

  // ---- Code ----

  std::string language_of(uint32_t pre) const {
    for (const auto& [element, lang] : b_.code_languages)
      if (element == pre) return lang;
    return {};
  }

  std::string code(const Block& block, const Place& place) const {
    std::string body = block.code.empty() ? block.text : block.code;
    while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) body.pop_back();
    while (!body.empty() && body.front() == '\n') body.erase(0, 1);
    std::string lang = place.pre != kNone ? language_of(place.pre) : std::string();
    if (html_) {
      std::string out = "<pre><code";
      if (!lang.empty()) out += " class=\"language-" + xml_escape(lang, true) + "\"";
      return out + ">" + xml_escape(body, false) + "</code></pre>";
    }
    // A fence longer than any run of backticks inside.
    std::size_t longest = 0, run = 0;
    for (char c : body) {
      run = c == '`' ? run + 1 : 0;
      longest = std::max(longest, run);
    }
    std::string fence(std::max<std::size_t>(3, longest + 1), '`');
    std::string clean_lang;
    for (char c : lang)
      if (c != '`' && c != ' ') clean_lang.push_back(c);
    return fence + clean_lang + "\n" + body + "\n" + fence;
  }

  // ---- Inline text ----

  // A URL inside Markdown's (...): spaces and parentheses would end it.
  static std::string markdown_url(std::string_view url) {
    std::string out;
    for (char c : url) {
      if (c == ' ') out += "%20";
      else if (c == '(') out += "%28";
      else if (c == ')') out += "%29";
      else if (static_cast<unsigned char>(c) >= 0x20) out.push_back(c);
    }
    return out;
  }

  void escape_markdown_char(std::string& out, char c, bool cell) const {
    switch (c) {
      case '\\': case '`': case '*': case '_': case '[': case ']': case '<':
        out.push_back('\\');
        break;
      case '|':
        if (cell) out.push_back('\\');
        break;
      default: break;
    }
    out.push_back(c);
  }

  // Where a line's first characters would read as Markdown syntax ("# ",
  // "- ", "1. ", "> "), the position to escape; npos when none.
  static std::size_t line_start_escape(std::string_view text) {
    if (text.empty()) return std::string_view::npos;
    char c = text[0];
    if (c == '#' || c == '>' || c == '~' || c == '=') return 0;
    if ((c == '-' || c == '+') && (text.size() == 1 || text[1] == ' ')) return 0;
    std::size_t d = 0;
    while (d < text.size() && d < 10 && text[d] >= '0' && text[d] <= '9') ++d;
    if (d > 0 && d < text.size() && (text[d] == '.' || text[d] == ')') && (d + 1 == text.size() || text[d + 1] == ' '))
      return d;
    return std::string_view::npos;
  }

  std::string inline_text(const Block& block, bool cell = false) const {
    const std::string& text = block.text;
    const auto len = static_cast<uint32_t>(text.size());
    // The spans this output keeps, trimmed to the words they cover.
    struct Open {
      const Span* span;
      uint32_t begin, end;
    };
    std::vector<Open> spans;
    for (const Span& s : block.spans) {
      if (s.kind == SpanKind::kLink && !o_.links) continue;
      if (s.kind == SpanKind::kImage && !o_.images) continue;
      uint32_t begin = std::min(s.begin, len), end = std::min(s.end, len);
      if (s.kind != SpanKind::kImage) {
        while (begin < end && text[begin] == ' ') ++begin;
        while (end > begin && text[end - 1] == ' ') --end;
        if (end <= begin) continue;
      }
      spans.push_back({&s, begin, end});
    }
    std::stable_sort(spans.begin(), spans.end(),
                     [](const Open& a, const Open& b) { return a.begin != b.begin ? a.begin < b.begin : a.end > b.end; });
    std::string out;
    std::vector<Open> open;
    bool in_code = false;
    const std::size_t escape_at = html_ || cell ? std::string::npos : line_start_escape(text);
    std::size_t next = 0;
    for (uint32_t pos = 0; pos <= len; ++pos) {
      while (!open.empty() && open.back().end <= pos) {
        close(out, *open.back().span, in_code);
        open.pop_back();
      }
      while (next < spans.size() && spans[next].begin <= pos) {
        Open s = spans[next++];
        if (s.span->kind == SpanKind::kImage) {
          image(out, *s.span);
          continue;
        }
        if (in_code || s.begin < pos) continue;
        if (!open.empty()) s.end = std::min(s.end, open.back().end);
        if (s.end <= s.begin) continue;
        opening(out, *s.span, std::string_view(text).substr(s.begin, s.end - s.begin), in_code);
        open.push_back(s);
      }
      if (pos == len) break;
      char c = text[pos];
      if (html_) {
        out += xml_escape(std::string_view(&c, 1), false);
      } else if (in_code) {
        out.push_back(c);
      } else {
        if (pos == escape_at) out.push_back('\\');
        escape_markdown_char(out, c, cell);
      }
    }
    while (!open.empty()) {
      close(out, *open.back().span, in_code);
      open.pop_back();
    }
    return out;
  }

  void opening(std::string& out, const Span& s, std::string_view inner, bool& in_code) const {
    switch (s.kind) {
      case SpanKind::kEmphasis: if (!html_) out += "*"; break;
      case SpanKind::kStrong: if (!html_) out += "**"; break;
      case SpanKind::kCode:
        in_code = true;
        if (html_) out += "<code>";
        else out += inner.find('`') != std::string_view::npos ? "`` " : "`";
        code_fence_ = inner.find('`') != std::string_view::npos ? " ``" : "`";
        break;
      case SpanKind::kLink:
        if (html_) out += "<a href=\"" + xml_escape(resolve_url(o_.base_url, s.url), true) + "\">";
        else out += "[";
        break;
      case SpanKind::kImage: break;
    }
  }

  void close(std::string& out, const Span& s, bool& in_code) const {
    switch (s.kind) {
      case SpanKind::kEmphasis: if (!html_) out += "*"; break;
      case SpanKind::kStrong: if (!html_) out += "**"; break;
      case SpanKind::kCode:
        in_code = false;
        out += html_ ? std::string("</code>") : code_fence_;
        break;
      case SpanKind::kLink:
        if (html_) out += "</a>";
        else out += "](" + markdown_url(resolve_url(o_.base_url, s.url)) + ")";
        break;
      case SpanKind::kImage: break;
    }
  }

  void image(std::string& out, const Span& s) const {
    std::string src = resolve_url(o_.base_url, s.url);
    if (html_) {
      out += "<img src=\"" + xml_escape(src, true) + "\" alt=\"" + xml_escape(s.alt, true) + "\"/>";
      return;
    }
    out += "![";
    for (char c : s.alt) escape_markdown_char(out, c, true);
    out += "](" + markdown_url(src) + ")";
  }

  const Blocks& b_;
  const std::vector<uint8_t>& keep_;
  const FormatOptions& o_;
  const bool html_;
  std::vector<uint32_t> ordinal_;
  mutable std::vector<int8_t> data_table_;
  mutable std::string code_fence_;
  std::vector<Level> levels_;
  std::string out_;
};

}  // namespace

uint32_t markup_for(const FormatOptions& options) {
  return kMarkupStructure | (options.links ? kMarkupLinks : 0u) | (options.images ? kMarkupImages : 0u);
}

std::string to_markdown(const Blocks& blocks, const std::vector<uint8_t>& keep, const FormatOptions& options) {
  return Writer(blocks, keep, options, false).run();
}

std::string to_html(const Blocks& blocks, const std::vector<uint8_t>& keep, const FormatOptions& options,
                    std::string_view title) {
  std::string body = Writer(blocks, keep, options, true).run();
  const std::string escaped = xml_escape(title, false);
  return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"/><title>" + escaped + "</title></head><body>\n" + body +
         "</body></html>\n";
}

}  // namespace husk
