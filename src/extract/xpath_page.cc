// XPath over a page's blocks (the xpath extractor, husk tune, site rules):
// a page's content is what its site's rule includes, less what the rule
// excludes (husk/extract.h, "Per-site XPath rules"). Blocks are the unit: a block belongs to a selected node when its
// block-level element is that node or inside it; a selected inline node
// stands for the block around it.
#include "extract/xpath_page.h"

namespace husk {

namespace {

// An XPath as an error message quotes it: its first 120 bytes, cut at a
// UTF-8 character's start, and how long it is past them (a generated rule
// of 200,000 brackets is named, not printed).
std::string quoted(const std::string& xpath) {
  constexpr std::size_t kShown = 120;
  if (xpath.size() <= kShown) return "\"" + xpath + "\"";
  std::size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(xpath[cut]) & 0xC0) == 0x80) --cut;
  return "\"" + xpath.substr(0, cut) + "...\" (" + std::to_string(xpath.size()) + " bytes)";
}

}  // namespace

Result<pugi::xpath_query> compile_xpath(const std::string& xpath) {
  // pugixml reports a bad XPath by exception; it stops here.
  try {
    pugi::xpath_query query(xpath.c_str());
    // Rules select nodes; "count(//p)" would throw when evaluated as a node set.
    if (query.return_type() != pugi::xpath_type_node_set)
      return Status(Code::kInvalidArgument,
                    "XPath " + quoted(xpath) + " selects no nodes (it is a number, string or boolean)");
    return query;
  } catch (const pugi::xpath_exception& e) {
    return Status(Code::kInvalidArgument, "bad XPath " + quoted(xpath) + ": " + e.result().description() +
                                              " at offset " + std::to_string(e.result().offset));
  }
}

XpathPage::XpathPage(const Blocks& blocks, const Dom& dom) : blocks_(blocks) {
  build_xml_view(dom, view_);
  for (uint32_t e = 0; e < blocks.elements.size(); ++e)
    if (blocks.elements[e].node != Element::kNone) element_of_number_[blocks.elements[e].node] = e;
}

int64_t XpathPage::element_of(const pugi::xml_node& node) const {
  // The node itself when block-level, else its nearest block-level ancestor.
  for (pugi::xml_node n = node; n; n = n.parent()) {
    auto number = view_.number.find(n.internal_object());
    if (number == view_.number.end()) continue;
    auto it = element_of_number_.find(number->second);
    if (it != element_of_number_.end()) return it->second;
  }
  return -1;
}

bool XpathPage::is_block(const pugi::xml_node& node) const {
  auto number = view_.number.find(node.internal_object());
  return number != view_.number.end() && element_of_number_.count(number->second) > 0;
}

Labels XpathPage::select(const std::vector<pugi::xpath_query>& include, const std::vector<pugi::xpath_query>& exclude,
                         const std::vector<std::string>& include_text, const std::vector<std::string>& exclude_text,
                         const std::string& where) const {
  Labels out;
  auto mark = [&](const std::vector<pugi::xpath_query>& queries, const std::vector<std::string>& texts,
                  std::vector<uint8_t>& marked) {
    for (std::size_t q = 0; q < queries.size(); ++q) {
      pugi::xpath_node_set nodes = queries[q].evaluate_node_set(view_.doc);
      std::size_t hits = 0;
      for (const pugi::xpath_node& xn : nodes) {
        int64_t e = element_of(xn.node() ? xn.node() : xn.parent());
        if (e < 0) continue;
        const Element& el = blocks_.elements[static_cast<std::size_t>(e)];
        for (uint32_t b = el.first_block; b < el.end_block; ++b) marked[b] = 1;
        ++hits;
      }
      if (hits == 0) out.warnings.push_back("xpath rule " + where + ": \"" + texts[q] + "\" matched nothing");
    }
  };
  std::vector<uint8_t> included(blocks_.blocks.size(), include.empty() ? 1 : 0);
  std::vector<uint8_t> excluded(blocks_.blocks.size(), 0);
  mark(include, include_text, included);
  mark(exclude, exclude_text, excluded);
  out.keep.resize(blocks_.blocks.size());
  for (std::size_t b = 0; b < out.keep.size(); ++b) out.keep[b] = included[b] && !excluded[b];
  return out;
}

}  // namespace husk
