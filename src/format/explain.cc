// husk explain's page (husk/explain.h).
#include "husk/explain.h"

#include <cstdio>
#include <unordered_map>

#include "base/text_util.h"
#include "html/xml_view.h"

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

// The absolute XPath of each element number of the Dom ("/html/body/div[2]/p[3]"),
// for the numbers asked for.
std::unordered_map<uint32_t, std::string> xpaths(const Dom& dom, const Blocks& blocks) {
  std::unordered_map<uint32_t, std::string> out;
  for (const Element& el : blocks.elements)
    if (el.node != Element::kNone) out.emplace(el.node, std::string());
  XmlView view;
  build_xml_view(dom, view);
  for (const auto& [node, number] : view.number) {
    auto it = out.find(number);
    if (it == out.end()) continue;
    std::string path;
    for (pugi::xml_node n(const_cast<pugi::xml_node_struct*>(node)); n && n.type() == pugi::node_element; n = n.parent()) {
      std::size_t position = 1, same = 0;
      for (pugi::xml_node s = n.previous_sibling(n.name()); s; s = s.previous_sibling(n.name())) ++position;
      for (pugi::xml_node s = n.parent().child(n.name()); s; s = s.next_sibling(n.name())) ++same;
      std::string step = "/" + std::string(n.name());
      if (same > 1) step += "[" + std::to_string(position) + "]";
      path.insert(0, step);
    }
    it->second = std::move(path);
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

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : "; ") + s;
  return out;
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
  std::size_t kept = 0, removed = 0, comments = 0;
  for (std::size_t i = 0; i < blocks.blocks.size(); ++i) {
    const bool k = i < labels.keep.size() && labels.keep[i];
    (k ? kept : removed) += 1;
    if (i < trace.comments.size() && trace.comments[i]) ++comments;
  }
  char figures[160];
  std::snprintf(figures, sizeof figures, "quality %.2f, boilerplate %.2f", result.quality, result.boilerplate);
  out += "<p class=\"summary\"><span>url: " + (result.url.empty() ? std::string("none") : esc(result.url)) +
         "</span><span>labelled by: <b>" + esc(stage) + "</b></span><span>page type: " + esc(result.page_type) +
         "</span><span>" + figures + "</span><span id=\"counts\">" + std::to_string(kept) + " blocks kept, " +
         std::to_string(removed) + " removed (" + std::to_string(comments) +
         " by the comment rule)</span></p>\n";
  for (const std::string& w : result.warnings) out += "<p class=\"warning\">warning: " + esc(w) + "</p>\n";

  // The record's metadata, and where each field was read.
  const Metadata& m = result.metadata;
  std::unordered_map<std::string, std::string> source;
  for (const auto& [field, from] : m.sources) source.emplace(field, from);
  const std::pair<const char*, std::string> fields[] = {
      {"title", m.title},
      {"author", joined(m.authors)},
      {"date_published", m.date_published},
      {"date_modified", m.date_modified},
      {"sitename", m.sitename},
      {"description", m.description},
      {"canonical_url", m.canonical_url},
      {"image", m.image},
      {"tags", joined(m.tags)},
      {"categories", joined(m.categories)},
      {"license", m.license},
      {"language", result.language.code},
  };
  out += "<h2>Metadata</h2>\n<table class=\"meta\"><tr><th>field</th><th>value</th><th>read from</th></tr>\n";
  for (const auto& [name, value] : fields) {
    std::string from = source.count(name) ? source[name] : "";
    if (std::string_view(name) == "language" && !value.empty()) from = "CLD2 on the clean text";
    out += "<tr data-field=\"" + std::string(name) + "\"><td>" + name + "</td><td>" +
           (value.empty() ? "<i>none</i>" : esc(value)) + "</td><td>" + esc(from) + "</td></tr>\n";
  }
  out += "</table>\n";

  out += "<h2>Blocks</h2>\n<p class=\"legend\"><span class=\"block kept\">kept: in the text</span>"
         "<span class=\"block removed\">removed</span></p>\n";
  for (std::size_t i = 0; i < blocks.blocks.size(); ++i) {
    const Block& b = blocks.blocks[i];
    const bool k = i < labels.keep.size() && labels.keep[i];
    const bool comment = i < trace.comments.size() && trace.comments[i];
    const std::string decided = comment ? "comment rule" : stage;
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
