// The Dom as a pugixml document, for XPath: attributes kept (names that
// XML cannot spell are dropped), every element numbered in document order
// as segment() numbers them (Element::node), so a selected node can be
// traced back to the blocks it holds.
#pragma once

#include <pugixml.hpp>

#include <cstdint>
#include <unordered_map>

#include "husk/html.h"

namespace husk {

struct XmlView {
  pugi::xml_document doc;
  std::unordered_map<const pugi::xml_node_struct*, uint32_t> number;  // element -> its number in document order
};

// Iterative: deep trees cost no stack.
void build_xml_view(const Dom& dom, XmlView& view);

}  // namespace husk
