// Metadata from JSON-LD, microdata, <meta> properties, markup and text, in
// the order of precedence husk/metadata.h gives.
#include "husk/metadata.h"

#include <re2/re2.h>

#include <algorithm>
#include <chrono>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "base/text_util.h"
#include "base/url.h"
#include "meta/metadata_impl.h"

namespace husk {

namespace {

using json = nlohmann::json;

// Bounds: a page could declare thousands of tags or nodes.
constexpr std::size_t kMaxNodes = 256;
constexpr int kMaxValueDepth = 8;
constexpr std::size_t kMaxList = 32;
constexpr std::size_t kMaxAuthorWords = 10;
constexpr std::size_t kMaxAuthorBytes = 100;
constexpr std::size_t kMaxTitleWords = 40;
// A title part found as a line of the page is taken for the headline when
// it has 3 words or more, or 12 bytes (four CJK characters, a whole
// Chinese headline being one \w run): shorter parts are section names.
constexpr std::size_t kMinShownTitleWords = 3;
constexpr std::size_t kMinShownTitleBytes = 12;
// Bylines and date lines are looked for among the page's first blocks
// (they stand under the headline).
constexpr std::size_t kBylineBlocks = 400;
constexpr std::size_t kBylineMaxWords = 12;

// ---- Words, for comparing titles ----

// Lower-cased words: runs of ASCII letters and digits and of any non-ASCII
// bytes (the \w+ tokens of the benchmark's scoring, for the scripts pages use).
std::vector<std::string> words_of(std::string_view s) {
  std::vector<std::string> out;
  std::string word;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    bool in_word = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    if (in_word) {
      word.push_back(ascii_lower_char(ch));
    } else if (!word.empty()) {
      out.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

bool contains_run(const std::vector<std::string>& hay, const std::vector<std::string>& needle) {
  if (needle.empty() || needle.size() > hay.size()) return false;
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end()) != hay.end();
}

bool ends_with_run(const std::vector<std::string>& hay, const std::vector<std::string>& needle) {
  return !needle.empty() && needle.size() < hay.size() && std::equal(needle.rbegin(), needle.rend(), hay.rbegin());
}

std::string collapse_space(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (is_ascii_space(c)) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

// Appends the items of a comma-separated list ("rivers, floods"), white
// space collapsed, leaving out empty ones and repeats.
void add_comma_items(std::string_view text, std::vector<std::string>& out) {
  while (!text.empty() && out.size() < kMaxList) {
    std::size_t comma = text.find(',');
    std::string item = collapse_space(text.substr(0, comma));
    if (!item.empty() && std::find(out.begin(), out.end(), item) == out.end()) out.push_back(std::move(item));
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
}

// ---- JSON-LD ----

// JSON-LD sits in a <script>, whose text the HTML parser leaves as it is,
// yet pages escape it as HTML ("Tips &amp; Tricks", "Ren&eacute;e"): its
// strings' character references are decoded as the parser decodes text
// (decode_character_references, husk/html.h).

bool type_in(const json& node, std::initializer_list<std::string_view> types) {
  auto it = node.find("@type");
  if (it == node.end()) return false;
  auto one = [&](const json& t) {
    if (!t.is_string()) return false;
    std::string_view v = t.get_ref<const std::string&>();
    if (std::size_t slash = v.find_last_of("/#:"); slash != std::string_view::npos) v.remove_prefix(slash + 1);
    return std::find(types.begin(), types.end(), v) != types.end();
  };
  if (one(*it)) return true;
  if (it->is_array())
    for (const json& t : *it)
      if (one(t)) return true;
  return false;
}

// schema.org's CreativeWork types that are a page's main story.
bool is_article(const json& node) {
  return type_in(node, {"Article", "NewsArticle", "BlogPosting", "Report", "TechArticle", "ScholarlyArticle",
                        "AnalysisNewsArticle", "OpinionNewsArticle", "ReviewNewsArticle", "ReportageNewsArticle",
                        "BackgroundNewsArticle", "LiveBlogPosting", "SocialMediaPosting", "DiscussionForumPosting",
                        "Review", "Recipe", "HowTo", "Guide", "MedicalScholarlyArticle", "Posting"});
}

bool is_page(const json& node) {
  return type_in(node, {"WebPage", "ItemPage", "CollectionPage", "AboutPage", "FAQPage", "ProfilePage", "QAPage",
                        "MedicalWebPage", "SearchResultsPage", "ContactPage", "CheckoutPage", "RealEstateListing"});
}

class JsonLd {
 public:
  explicit JsonLd(const std::vector<std::string>& scripts) {
    for (const std::string& script : scripts) {
      json j = json::parse(script, nullptr, false);
      if (j.is_discarded()) j = json::parse(meta::repair_json(script), nullptr, false);
      if (!j.is_discarded()) docs_.push_back(std::move(j));
    }
    for (const json& d : docs_) flatten(d, 0);
    for (const json* n : nodes_) {
      if (main_ == nullptr && is_article(*n)) main_ = n;
    }
    for (const json* n : nodes_)
      if (main_ == nullptr && is_page(*n)) main_ = n;
    for (const json* n : nodes_)
      if (main_ == nullptr && n->contains("@type") && !type_in(*n, {"Organization", "WebSite", "BreadcrumbList", "Person",
                                                                      "ImageObject", "SiteNavigationElement"}))
        main_ = n;
  }

  const json* main() const { return main_; }
  const std::vector<const json*>& nodes() const { return nodes_; }

  // A node's property, with a reference ({"@id": ...}) resolved.
  const json* get(const json* node, const char* key) const {
    if (node == nullptr || !node->is_object()) return nullptr;
    auto it = node->find(key);
    if (it == node->end() || it->is_null()) return nullptr;
    return resolve(&*it);
  }

  const json* resolve(const json* v) const {
    if (v->is_object() && v->size() == 1 && v->contains("@id")) {
      const json& id = (*v)["@id"];
      if (id.is_string())
        if (auto it = by_id_.find(id.get<std::string>()); it != by_id_.end()) return it->second;
    }
    return v;
  }

  // A text value: a string, a number, or an object's name / @value / url;
  // of an array, the first that has one.
  std::string text(const json* v, int depth = 0) const {
    // Names and values sit a level or two down; a page could nest
    // arrays without end.
    if (v == nullptr || depth > kMaxValueDepth) return {};
    v = resolve(v);
    if (v->is_string()) return collapse_space(decode_character_references(v->get_ref<const std::string&>()));
    if (v->is_number()) return v->dump();
    if (v->is_object()) {
      for (const char* key : {"name", "@value", "url", "contentUrl"})
        if (auto it = v->find(key); it != v->end()) {
          std::string t = text(&*it, depth + 1);
          if (!t.empty()) return t;
        }
    }
    if (v->is_array())
      for (const json& e : *v) {
        std::string t = text(&e, depth + 1);
        if (!t.empty()) return t;
      }
    return {};
  }

  // A list value's items; a single string split at commas ("keywords":
  // "a, b, c").
  std::vector<std::string> list(const json* v) const {
    std::vector<std::string> out;
    if (v == nullptr) return out;
    v = resolve(v);
    if (!v->is_string()) return texts(v);
    add_comma_items(text(v), out);
    return out;
  }

  // Every text of a value that may be a list.
  std::vector<std::string> texts(const json* v) const {
    std::vector<std::string> out;
    if (v == nullptr) return out;
    v = resolve(v);
    if (v->is_array()) {
      for (const json& e : *v)
        if (std::string t = text(&e); !t.empty() && out.size() < kMaxList) out.push_back(std::move(t));
    } else if (std::string t = text(v); !t.empty()) {
      out.push_back(std::move(t));
    }
    return out;
  }

  // A property of the main node, else of the first node that has it.
  const json* find(const char* key, bool any_node = true) const {
    if (const json* v = get(main_, key)) return v;
    if (!any_node) return nullptr;
    for (const json* n : nodes_)
      if (const json* v = get(n, key)) return v;
    return nullptr;
  }

 private:
  void flatten(const json& j, int depth) {
    if (depth > 12 || nodes_.size() >= kMaxNodes) return;
    if (j.is_array()) {
      for (const json& e : j) flatten(e, depth + 1);
      return;
    }
    if (!j.is_object()) return;
    nodes_.push_back(&j);
    index_ids(j, depth);
    if (auto g = j.find("@graph"); g != j.end()) flatten(*g, depth + 1);
  }

  // Objects that carry an @id and more: what a reference can point to.
  void index_ids(const json& j, int depth) {
    if (depth > 12 || by_id_.size() >= kMaxNodes) return;
    if (j.is_object()) {
      if (auto id = j.find("@id"); id != j.end() && id->is_string() && j.size() > 1)
        by_id_.emplace(id->get<std::string>(), &j);
      for (const auto& [key, value] : j.items())
        if (value.is_structured() && key != "@graph") index_ids(value, depth + 1);
    } else if (j.is_array()) {
      for (const json& e : j) index_ids(e, depth + 1);
    }
  }

  std::vector<json> docs_;
  std::vector<const json*> nodes_;
  std::unordered_map<std::string, const json*> by_id_;
  const json* main_ = nullptr;
};

// ---- <meta> and microdata ----

std::string first_meta(const std::vector<std::pair<std::string, std::string>>& meta,
                       std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys)
    for (const auto& [k, v] : meta)
      if (k == key && !trim(v).empty()) return v;
  return {};
}

std::vector<std::string> all_meta(const std::vector<std::pair<std::string, std::string>>& meta,
                                  std::initializer_list<std::string_view> keys) {
  std::vector<std::string> out;
  for (std::string_view key : keys)
    for (const auto& [k, v] : meta)
      if (k == key && !trim(v).empty() && out.size() < kMaxList) out.push_back(v);
  return out;
}

// ---- Authors ----

bool looks_like_url(std::string_view s) {
  return s.find("://") != std::string_view::npos || s.starts_with("www.") || s.find('/') != std::string_view::npos ||
         s.starts_with("@");
}

// A name as a byline writes it: "By Jane Doe | May 12, 2024" -> "Jane
// Doe". Empty when what is left is not a name (a URL, a sentence, a label
// such as "About the author").
std::string clean_author(std::string_view raw) {
  std::string s = collapse_space(raw);
  static const RE2 kPrefix(
      R"((?i)^\s*(?:(?:written|posted|reviewed|authored|published|words|story|text|report(?:ed|ing)?)\s+by|by|von|par|por|di|door|av|af|przez|автор|author|autor|auteur|autore|écrit par)\s*[:：]?\s+)");
  re2::StringPiece in(s);
  if (RE2::Consume(&in, kPrefix)) s = std::string(in.data(), in.size());
  // What follows the name: a separator, a date, "on", "updated".
  static const RE2 kTail(
      R"((?i)(\s+[|•·–—]\s*|\s+-\s+|\s+(?:on|updated|published|posted|last updated|am|le|el|il|op)\s+|\s*\d{1,4}[./-]\d{1,2}[./-]\d{1,4}|\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d).*$)");
  RE2::Replace(&s, kTail, "");
  std::string_view t = trim(s);
  while (!t.empty() && (t.back() == ',' || t.back() == ':' || t.back() == ';' || t.back() == '|')) t.remove_suffix(1);
  t = trim(t);
  if (t.empty() || t.size() > kMaxAuthorBytes || looks_like_url(t) || !parse_date(t).empty()) return {};
  std::vector<std::string> words = words_of(t);
  if (words.empty() || words.size() > kMaxAuthorWords) return {};
  for (const std::string& w : words)
    if (w == "author" || w == "authors" || w == "byline" || w == "admin" || (w == "staff" && words.size() == 1))
      return {};
  return std::string(t);
}

// A byline names a few people; markup that marks more authors than this
// on one page is a thread's or a comment section's, whose first is the
// page's author.
constexpr std::size_t kMaxMarkedAuthors = 3;

void add_authors(std::vector<std::string>& out, const std::vector<std::string>& raw, bool markup = false) {
  std::vector<std::string> names;
  for (const std::string& r : raw) {
    std::string name = clean_author(r);
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  }
  if (markup) {
    // Marked elements nest (an author box around the name and a role):
    // a text that holds another whole is the box, and the name stays.
    auto holds_another = [&](const std::string& outer) {
      for (const std::string& inner : names)
        if (inner.size() < outer.size() && contains_run(words_of(outer), words_of(inner))) return true;
      return false;
    };
    std::vector<std::string> innermost;
    for (const std::string& n : names)
      if (!holds_another(n)) innermost.push_back(n);
    names = std::move(innermost);
    if (names.size() > kMaxMarkedAuthors) names.resize(1);
  }
  for (std::string& name : names)
    if (out.size() < kMaxList && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(std::move(name));
}

// A byline in the text: a short block that starts "By", "Von", ...
// followed by a capitalised name.
std::string byline(const Blocks& blocks) {
  static const RE2 kByline(R"(^(?:By|BY|Von|VON|Par|Por|Door|Di|Автор:|Written by|Posted by)\s+\p{Lu})");
  std::size_t n = std::min(blocks.blocks.size(), kBylineBlocks);
  for (std::size_t i = 0; i < n; ++i) {
    const Block& b = blocks.blocks[i];
    if (b.features.words > kBylineMaxWords || b.features.words < 2) continue;
    if (RE2::PartialMatch(b.text, kByline)) return b.text;
  }
  return {};
}

// ---- Dates ----

std::string first_date(const std::vector<std::string>& values, const MetadataOptions& o, std::time_t now,
                       bool structured) {
  for (const std::string& v : values) {
    std::string iso = parse_date(v);
    if (!iso.empty() && meta::plausible(iso, now, o.min_year, structured)) return iso;
  }
  return {};
}

// Whether a text holds a year from 1900 to 2099 (a cheap test before the
// date patterns run).
bool has_year(std::string_view text) {
  for (std::size_t i = 0; i + 4 <= text.size(); ++i)
    if ((text[i] == '1' && text[i + 1] == '9') || (text[i] == '2' && text[i + 1] == '0'))
      if (text[i + 2] >= '0' && text[i + 2] <= '9' && text[i + 3] >= '0' && text[i + 3] <= '9') return true;
  return false;
}

// The dates the page shows in short lines ("Updated May 12, 2024",
// "12.05.2024"), in document order.
std::vector<std::string> shown_dates(const Blocks& blocks) {
  std::vector<std::string> out;
  std::size_t n = std::min(blocks.blocks.size(), kBylineBlocks);
  for (std::size_t i = 0; i < n && out.size() < 8; ++i) {
    const Block& b = blocks.blocks[i];
    if (b.features.words > kBylineMaxWords || b.features.link_density >= 0.5f || !has_year(b.text)) continue;
    if (std::string iso = parse_date(b.text); !iso.empty()) out.push_back(std::move(iso));
  }
  return out;
}


// ---- Title ----

// Separators sites put between a story's title and the site's name.
constexpr std::string_view kSeparators[] = {" | ", " - ", " – ", " — ", " :: ", " · ", " » ", " • ", " / "};

// " : " parts a site's name from a story too ("SITE : Story"), but French
// typography sets every colon so: it is a separator only where the page
// shows the part on its own.
constexpr std::string_view kSpacedColon = " : ";

// The parts of a <title> or og:title between separators (with the spaced
// colon too when `colon`).
std::vector<std::string> title_parts(std::string_view title, bool colon = false) {
  std::vector<std::string> parts;
  std::string_view rest = title;
  while (!rest.empty()) {
    std::size_t cut = std::string_view::npos, len = 0;
    for (std::string_view sep : kSeparators)
      if (std::size_t p = rest.find(sep); p < cut) {
        cut = p;
        len = sep.size();
      }
    if (std::size_t p = colon ? rest.find(kSpacedColon) : std::string_view::npos; p < cut) {
      cut = p;
      len = kSpacedColon.size();
    }
    std::string_view part = trim(rest.substr(0, cut));
    if (!part.empty()) parts.emplace_back(part);
    if (cut == std::string_view::npos) break;
    rest.remove_prefix(cut + len);
  }
  return parts;
}

// The parts of a <title> or og:title that may be the story's: all but the
// last of those between separators ("Story | Site"), and of each, all but
// the first of those between spaced colons ("SITE : Story"), whole or so
// cut.
std::vector<std::string> story_parts(std::string_view title) {
  std::vector<std::string> parts = title_parts(title);
  if (parts.size() >= 2) parts.pop_back();
  std::vector<std::string> out;
  for (const std::string& part : parts) {
    out.push_back(part);
    std::vector<std::string> colon = title_parts(part, true);
    for (std::size_t i = 1; i < colon.size(); ++i) out.push_back(colon[i]);
  }
  return out;
}

// Whether words name the host: "davidbau.com" on davidbau.com, "MyBB" on
// community.mybb.com.
bool names_host(const std::vector<std::string>& words, std::string_view url) {
  const std::string host = url_host(url);
  if (host.empty() || words.empty()) return false;
  std::string joined;
  for (const std::string& w : words) joined += w;
  std::vector<std::string> host_words = words_of(host);
  if (words == host_words) return true;
  for (const std::string& label : host_words)
    if (label == joined && label != "www") return true;
  return false;
}

std::string choose_headline(const Blocks& blocks, const std::vector<uint8_t>& keep, const std::string& headline,
                            const std::string& sitename, std::string_view url) {
  const std::vector<std::string> title_words = words_of(blocks.title_tag);
  const std::vector<std::string> og_words = words_of(blocks.og_title);
  const std::vector<std::string> headline_words = words_of(headline);
  const std::vector<std::string> site_words = words_of(sitename);
  // An <h1> is a candidate unless it is the site's name (the <title> ends
  // with it, or og:site_name says it), or too long to be a title.
  auto usable = [&](const std::string& h1) {
    std::vector<std::string> w = words_of(h1);
    if (w.empty() || w.size() > kMaxTitleWords) return false;
    if (ends_with_run(title_words, w) || (!site_words.empty() && w == site_words) || names_host(w, url)) return false;
    return true;
  };
  for (const std::string& h1 : blocks.facts.h1s) {
    if (!usable(h1)) continue;
    std::vector<std::string> w = words_of(h1);
    if (contains_run(title_words, w) || contains_run(og_words, w) || contains_run(headline_words, w)) return h1;
  }
  // A part of the <title>, og:title or JSON-LD headline that the page shows
  // as a line of its own (a heading of any level, or a styled line above
  // the story): the publisher names it twice, so it is the headline even
  // where the <h1> is the logo or a section's name. On daniel-dev's news
  // pages (2011-12, many without og:title) the <h1> was the site's or a
  // widget's on a fifth of the pages.
  std::vector<std::vector<std::string>> parts;
  bool story_titled = false;  // a story part of three words or more
  for (const std::string* t : {&blocks.og_title, &blocks.title_tag, &headline})
    for (const std::string& part : story_parts(*t)) {
      std::vector<std::string> w = words_of(part);
      if (w.size() < kMinShownTitleWords && part.size() < kMinShownTitleBytes) continue;
      if ((!site_words.empty() && w == site_words) || names_host(w, url)) continue;
      story_titled = story_titled || w.size() >= kMinShownTitleWords;
      parts.push_back(std::move(w));
    }
  if (!parts.empty())
    for (const Block& b : blocks.blocks) {
      if (b.features.words > kMaxTitleWords) continue;
      std::vector<std::string> w = words_of(b.text);
      for (const auto& part : parts)
        if (w == part) return b.text;
    }
  // An <h1> the titles do not repeat is the headline only when it reads
  // like one: a word or two of Latin script ("Grypa", "Health") is a
  // section's or the site's name when a title has a longer story part (the
  // same bounds as above; WCXB dev titles 0.7916 -> 0.7923, daniel-dev
  // 0.7375 -> 0.7388).
  auto headline_like = [&](const std::string& h1) {
    return usable(h1) && (!story_titled || words_of(h1).size() >= kMinShownTitleWords || h1.size() >= kMinShownTitleBytes);
  };
  for (std::size_t i = 0; i < blocks.blocks.size() && i < keep.size(); ++i)
    if (keep[i] && blocks.blocks[i].features.heading == 1 && headline_like(blocks.blocks[i].text))
      return blocks.blocks[i].text;
  for (const std::string& h1 : blocks.facts.h1s)
    if (headline_like(h1)) return h1;
  for (const std::string* t : {&blocks.og_title, &blocks.title_tag, &headline}) {
    for (const std::string& part : title_parts(*t))
      if (site_words.empty() || words_of(part) != site_words) return part;
  }
  return {};
}

}  // namespace

Metadata extract_metadata(const Blocks& blocks, const std::vector<uint8_t>& keep, std::string_view url,
                          const MetadataOptions& options) {
  Metadata m;
  const std::time_t now =
      options.now != 0 ? options.now : std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  const auto& meta = blocks.meta;
  const auto& facts = blocks.facts;
  JsonLd ld(blocks.json_ld);
  auto micro = [&](std::initializer_list<std::string_view> keys) {
    std::vector<std::string> out;
    for (std::string_view key : keys)
      for (const auto& [k, v] : facts.microdata)
        if (k == key) out.push_back(v);
    return out;
  };
  std::string base = facts.base.empty() ? std::string(url) : resolve_url(url, facts.base);
  auto absolute = [&](const std::string& ref) { return ref.empty() ? ref : resolve_url(base, ref); };
  m.canonical_url = absolute(blocks.canonical.empty() ? first_meta(meta, {"og:url"}) : blocks.canonical);
  // A page read from a file has no URL of its own: the one it declares
  // stands in for the host and the URL's date.
  const std::string_view page_url = url.empty() ? std::string_view(m.canonical_url) : url;

  // Site name: og:site_name, the JSON-LD publisher or WebSite, application-name.
  m.sitename = first_meta(meta, {"og:site_name"});
  if (m.sitename.empty()) m.sitename = ld.text(ld.find("publisher"));
  if (m.sitename.empty())
    for (const json* n : ld.nodes())
      if (type_in(*n, {"WebSite"}) && m.sitename.empty()) m.sitename = ld.text(ld.get(n, "name"));
  if (m.sitename.empty()) m.sitename = first_meta(meta, {"application-name", "apple-mobile-web-app-title"});

  // Title.
  std::string headline = ld.text(ld.get(ld.main(), "headline"));
  m.title = collapse_space(choose_headline(blocks, keep, headline, m.sitename, page_url));

  // Authors.
  add_authors(m.authors, ld.texts(ld.find("author", false)));
  if (m.authors.empty()) add_authors(m.authors, ld.texts(ld.find("creator", false)));
  if (m.authors.empty())
    for (const json* n : ld.nodes())
      if (m.authors.empty() && is_article(*n)) add_authors(m.authors, ld.texts(ld.get(n, "author")));
  if (m.authors.empty()) add_authors(m.authors, micro({"author", "creator"}), true);
  if (m.authors.empty())
    add_authors(m.authors, all_meta(meta, {"article:author", "og:article:author", "author", "dc.creator",
                                           "dcterms.creator", "parsely-author", "sailthru.author", "citation_author",
                                           "byl"}));
  if (m.authors.empty()) add_authors(m.authors, facts.author_links, true);
  if (m.authors.empty()) add_authors(m.authors, facts.author_marked, true);
  if (m.authors.empty()) add_authors(m.authors, {byline(blocks)});

  // Dates.
  m.date_published = first_date(ld.texts(ld.find("datePublished")), options, now, true);
  if (m.date_published.empty()) m.date_published = first_date(ld.texts(ld.find("dateCreated")), options, now, true);
  if (m.date_published.empty()) m.date_published = first_date(ld.texts(ld.find("uploadDate")), options, now, true);
  if (m.date_published.empty())
    m.date_published = first_date(micro({"datepublished", "datecreated"}), options, now, true);
  if (m.date_published.empty())
    m.date_published = first_date(
        all_meta(meta, {"article:published_time", "og:article:published_time", "og:published_time",
                        "article.published", "datepublished", "date", "dc.date", "dc.date.issued", "dcterms.created",
                        "dcterms.issued", "dcterms.date", "pubdate", "publish-date", "publishdate", "publish_date",
                        "parsely-pub-date", "sailthru.date", "citation_publication_date", "citation_date",
                        "originalpublicationdate", "article_date_original", "release_date"}),
        options, now, true);
  if (m.date_published.empty()) m.date_published = first_date(facts.times, options, now, true);
  if (m.date_published.empty()) m.date_published = first_date(shown_dates(blocks), options, now, false);
  if (m.date_published.empty()) m.date_published = first_date({meta::date_in_url(page_url)}, options, now, false);
  m.date_modified = first_date(ld.texts(ld.find("dateModified")), options, now, true);
  if (m.date_modified.empty()) m.date_modified = first_date(micro({"datemodified"}), options, now, true);
  if (m.date_modified.empty())
    m.date_modified = first_date(all_meta(meta, {"article:modified_time", "og:updated_time", "og:article:modified_time",
                                                 "dcterms.modified", "dc.date.modified", "last-modified", "lastmod"}),
                                 options, now, true);

  // A page that states only when it was modified is dated by that.
  if (m.date_published.empty()) m.date_published = m.date_modified;

  // Description: the page's own summary first (JSON-LD descriptions of
  // products hold whole pages of markup).
  m.description = first_meta(meta, {"description", "og:description", "twitter:description"});
  if (m.description.empty()) m.description = ld.text(ld.get(ld.main(), "description"));

  m.image = absolute(ld.text(ld.get(ld.main(), "image")));
  if (m.image.empty()) m.image = absolute(first_meta(meta, {"og:image", "og:image:url", "og:image:secure_url", "twitter:image"}));

  // Tags and categories: JSON-LD keywords and articleSection, then the
  // article:tag / article:section properties, then <meta name=keywords>.
  auto split_list = [](const std::vector<std::string>& raw) {
    std::vector<std::string> out;
    for (const std::string& r : raw) add_comma_items(r, out);
    return out;
  };

  auto unique = [](std::vector<std::string> v) {
    std::vector<std::string> out;
    for (std::string& s : v)
      if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(std::move(s));
    return out;
  };
  m.tags = unique(ld.list(ld.get(ld.main(), "keywords")));
  if (m.tags.empty()) m.tags = split_list(all_meta(meta, {"article:tag", "og:article:tag"}));
  if (m.tags.empty()) m.tags = split_list(micro({"keywords"}));
  if (m.tags.empty()) m.tags = split_list(all_meta(meta, {"keywords", "news_keywords"}));
  m.categories = unique(ld.list(ld.get(ld.main(), "articleSection")));
  if (m.categories.empty()) m.categories = split_list(all_meta(meta, {"article:section", "og:article:section"}));
  if (m.categories.empty()) m.categories = split_list(micro({"articlesection"}));

  m.license = absolute(ld.text(ld.find("license")));
  if (m.license.empty()) m.license = absolute(facts.license);
  return m;
}

namespace meta {

std::string repair_json(std::string_view text) {
  text = trim(text);
  for (std::string_view wrap : {"<!--", "//<![CDATA[", "<![CDATA["})
    if (text.starts_with(wrap)) text = trim(text.substr(wrap.size()));
  for (std::string_view wrap : {"-->", "//]]>", "]]>"})
    if (text.ends_with(wrap)) text = trim(text.substr(0, text.size() - wrap.size()));
  std::string out;
  out.reserve(text.size() + 2);
  bool in_string = false, escaped = false;
  int depth = 0;
  int top_values = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        out.push_back(' ');
        continue;
      }
      out.push_back(c);
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (depth == 0 && top_values++ > 0) out.push_back(',');
      ++depth;
    } else if (c == '}' || c == ']') {
      // A trailing comma before the close goes.
      std::size_t k = out.size();
      while (k > 0 && is_ascii_space(out[k - 1])) --k;
      if (k > 0 && out[k - 1] == ',') out.erase(k - 1, 1);
      if (depth > 0) --depth;
    } else if (c == ';' && depth == 0) {
      continue;
    }
    out.push_back(c);
  }
  if (top_values > 1) return "[" + out + "]";
  return out;
}

}  // namespace meta

}  // namespace husk
