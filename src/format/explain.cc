// husk explain's page (husk/explain.h).
#include "husk/explain.h"

#include <cstdio>
#include <unordered_map>

#include "base/text_util.h"
#include "extract/furniture.h"
#include "extract/model.h"
#include "extract/repeats.h"
#include "extract/teasers.h"
#include "html/xml_view.h"
#include "record/record.h"

namespace husk {

namespace {

std::string esc(std::string_view s) { return xml_escape(s, true); }

// What a person calls the extractor that labelled the page.
std::string stage_name(const std::string& extractor) {
  if (extractor == "xpath") return "site rule";
  if (extractor == "template") return "stored template";
  if (extractor == "learned") return "learned model";
  if (extractor.empty()) return "none";
  return extractor;
}

// Whether the repeat rule took block i out of what the stage kept.
bool repeats_block(const Trace& trace, std::size_t i) {
  return i < trace.repeats.size() && trace.repeats[i] != kNotARepeat;
}

// The absolute XPath of each element number of the Dom ("/html/body/div[2]/p[3]"),
// for the numbers asked for: one walk down the tree, each element's
// position among its same-named siblings counted once per parent.
std::unordered_map<uint32_t, std::string> xpaths(const Dom& dom, const Blocks& blocks) {
  std::unordered_map<uint32_t, std::string> out;
  for (const Element& el : blocks.elements)
    if (el.node != Element::kNone) out.emplace(el.node, std::string());
  XmlView view;
  build_xml_view(dom, view);
  std::vector<std::pair<pugi::xml_node, std::string>> stack = {{view.doc, ""}};
  std::unordered_map<std::string_view, std::size_t> total, seen;
  while (!stack.empty()) {
    auto [parent, path] = std::move(stack.back());
    stack.pop_back();
    total.clear();
    seen.clear();
    for (pugi::xml_node c = parent.first_child(); c; c = c.next_sibling())
      if (c.type() == pugi::node_element) ++total[c.name()];
    for (pugi::xml_node c = parent.first_child(); c; c = c.next_sibling()) {
      if (c.type() != pugi::node_element) continue;
      std::string step = path;
      step.append("/").append(c.name());
      if (total[c.name()] > 1) step.append("[").append(std::to_string(++seen[c.name()])).append("]");
      if (auto number = view.number.find(c.internal_object()); number != view.number.end())
        if (auto it = out.find(number->second); it != out.end()) it->second = step;
      stack.emplace_back(c, std::move(step));
    }
  }
  return out;
}

// The class and id words of the element or its nearest ancestor that has any.
std::string nearest_hints(const Blocks& blocks, uint32_t e) {
  for (int up = 0; e < blocks.elements.size() && up < 32; ++up) {
    const Element& el = blocks.elements[e];
    if (!el.hints.empty()) return up == 0 ? el.hints : el.hints + " (" + std::to_string(up) + " up)";
    e = el.parent;
  }
  return {};
}

// A record field's value as the page shows it.
std::string shown(const nlohmann::ordered_json& value) {
  if (value.is_null()) return "<i>none</i>";
  if (value.is_string()) return esc(value.get<std::string>());
  if (!value.is_array()) return esc(value.dump());
  std::string out;
  for (const auto& item : value) out += (out.empty() ? "" : "; ") + (item.is_string() ? item.get<std::string>() : item.dump());
  return esc(out);
}

constexpr const char* kStyle = R"(
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 70em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table.meta { border-collapse: collapse; } table.meta td, table.meta th { border-bottom: 1px solid #ddd; padding: .25em .6em; text-align: left; vertical-align: top; }
.summary span { display: inline-block; margin-right: 1.2em; }
.block { border-left: 6px solid; margin: .5em 0; padding: .35em .7em; }
.kept { border-color: #2a7d2a; background: #eef8ee; }
.removed { border-color: #b33; background: #f8eeee; color: #555; }
.why { font-size: .8em; color: #444; }
.why code { font-size: .95em; background: #fff8; padding: 0 .2em; }
.text { white-space: pre-wrap; margin-top: .2em; }
.legend .block { display: inline-block; margin-right: 1em; }
)";

}  // namespace

std::string explain_html(const PageResult& result, const Trace& trace) {
  const Blocks& blocks = trace.blocks;
  const Labels& labels = trace.labels;
  std::unordered_map<uint32_t, std::string> paths;
  if (trace.dom) paths = xpaths(*trace.dom, blocks);
  const std::string stage = stage_name(labels.extractor);

  std::string out = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>husk explain: " + esc(result.id) +
                    "</title><style>" + kStyle + "</style></head><body>\n";
  out += "<h1>husk explain: " + esc(result.id) + "</h1>\n";
  if (!result.status.ok()) {
    out += "<p class=\"error\">error: " + esc(result.status.to_string()) + "</p>\n</body></html>\n";
    return out;
  }
  std::size_t kept = 0, removed = 0, comments = 0, furniture = 0, repeats = 0;
  for (std::size_t i = 0; i < blocks.blocks.size(); ++i) {
    const bool k = i < labels.keep.size() && labels.keep[i];
    (k ? kept : removed) += 1;
    if (i < trace.comments.size() && trace.comments[i]) ++comments;
    if (i < trace.furniture.size() && !trace.furniture[i].empty()) ++furniture;
    if (repeats_block(trace, i)) ++repeats;
  }
  char figures[160];
  std::snprintf(figures, sizeof figures, "quality %.2f, boilerplate %.2f", result.quality, result.boilerplate);
  // A type the page's shape settled says what the classifier had said.
  std::string settled;
  if (!trace.classified_as.empty()) {
    char article[16];
    std::snprintf(article, sizeof article, "%.2f", trace.classified_article);
    settled = " <span id=\"settled\">(the classifier said " + esc(trace.classified_as) + ", " + article +
              " of being an article; the page's shape, a headline over its story" +
              (trace.comments_aside ? " with its comment sections set aside" : "") + ", settled it)</span>";
  }
  out += "<p class=\"summary\"><span>url: " + (result.url.empty() ? std::string("none") : esc(result.url)) +
         "</span><span>labelled by: <b>" + esc(stage) + "</b></span><span>page type: " + esc(result.page_type) +
         settled + "</span><span>" + figures + "</span><span id=\"counts\">" + std::to_string(kept) + " blocks kept, " +
         std::to_string(removed) + " removed (" + std::to_string(comments) + " by the comment rule, " +
         std::to_string(furniture) + " by the furniture rule, " + std::to_string(repeats) +
         " by the repeat rule)</span></p>\n";
  if (labels.threshold > 0) {
    char cut[32], sure[32];
    std::snprintf(cut, sizeof cut, "%.3f", labels.threshold);
    std::snprintf(sure, sizeof sure, "%.2f", kSureProbability);
    out += "<p class=\"summary\" id=\"threshold\" data-threshold=\"" + std::string(cut) +
           "\"><span>the block model keeps a block at probability " + cut +
           " or more on this page (its threshold, scaled down on a page whose best block is under " + sure +
           ")</span></p>\n";
  }
  for (const std::string& w : result.warnings) out += "<p class=\"warning\">warning: " + esc(w) + "</p>\n";

  // The record as husk extract writes it (its page part, from the field
  // table; the text is below), and where each metadata field was read.
  std::unordered_map<std::string, std::string> source(result.metadata.sources.begin(), result.metadata.sources.end());
  if (!result.language.code.empty()) source.emplace("language", "CLD2 on the clean text");
  out += "<h2>The record</h2>\n<table class=\"meta\"><tr><th>field</th><th>value</th><th>read from</th></tr>\n";
  const nlohmann::ordered_json record = page_record(result, /*with_text=*/false);
  for (const auto& [name, value] : record.items()) {
    if (name == "id") continue;  // the heading's
    auto from = source.find(name);
    out += "<tr data-field=\"" + esc(name) + "\"><td>" + esc(name) + "</td><td>" + shown(value) + "</td><td>" +
           (from == source.end() ? std::string() : esc(from->second)) + "</td></tr>\n";
  }
  out += "</table>\n";

  out += "<h2>Blocks</h2>\n<p class=\"legend\"><span class=\"block kept\">kept: in the text</span>"
         "<span class=\"block removed\">removed</span></p>\n";
  for (std::size_t i = 0; i < blocks.blocks.size(); ++i) {
    const Block& b = blocks.blocks[i];
    const bool k = i < labels.keep.size() && labels.keep[i];
    const bool comment = i < trace.comments.size() && trace.comments[i];
    const bool furniture_line = i < trace.furniture.size() && !trace.furniture[i].empty();
    const bool repeat = repeats_block(trace, i);
    const std::string decided = comment          ? "comment rule"
                                : furniture_line ? "furniture rule"
                                : repeat         ? "repeat rule"
                                                 : stage;
    std::string probability;
    if (i < labels.probability.size()) {
      char p[16];
      std::snprintf(p, sizeof p, "%.3f", labels.probability[i]);
      probability = p;
    }
    std::string xpath;
    if (b.element < blocks.elements.size()) {
      auto it = paths.find(blocks.elements[b.element].node);
      if (it != paths.end()) xpath = it->second;
    }
    const std::string hints = nearest_hints(blocks, b.element);
    out += "<div class=\"block " + std::string(k ? "kept" : "removed") + "\" id=\"b" + std::to_string(i) +
           "\" data-stage=\"" + esc(decided) + "\" data-xpath=\"" + esc(xpath) + "\" data-probability=\"" +
           probability + "\">\n<div class=\"why\">#" + std::to_string(i) + " &lt;" +
           esc(tag_name(b.features.tag)) + "&gt; " + (k ? "kept" : "removed") + " by <b>" + esc(decided) + "</b>";
    if (comment) out += " (the " + esc(stage) + " kept it; it sits in the comment section)";
    if (furniture_line && trace.furniture[i] == kLinkLineClass)
      out += " (the " + esc(stage) + " kept it; it is a link line: most of its words are link text, on a page "
             "typed as an article)";
    else if (furniture_line && trace.furniture[i] == kTeaserClass)
      out += " (the " + esc(stage) + " kept it; it is the lead of a teaser: one of a list of headline links "
             "each with its lead, beside the article)";
    else if (furniture_line)
      out += " (the " + esc(stage) + " kept it; it is page furniture: " + esc(trace.furniture[i]) +
             ", config/extract.toml [furniture])";
    if (repeat)
      out += " (the " + esc(stage) + " kept it; block #" + std::to_string(trace.repeats[i]) +
             " before it holds the same text)";
    if (!probability.empty()) out += ", model probability " + probability;
    out += ", " + std::to_string(b.features.words) + " words";
    if (b.features.link_words > 0) {
      char ld[32];
      std::snprintf(ld, sizeof ld, ", link density %.2f", b.features.link_density);
      out += ld;
    }
    if (!xpath.empty()) out += "<br>XPath <code>" + esc(xpath) + "</code>";
    if (!hints.empty()) out += "<br>class/id <code>" + esc(hints) + "</code>";
    out += "</div>\n<div class=\"text\">" + esc(b.text) + "</div>\n</div>\n";
  }
  out += "</body></html>\n";
  return out;
}

}  // namespace husk
