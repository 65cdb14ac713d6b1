// The Dom as a pugixml document, for XPath: attributes kept (names that
// XML cannot spell are dropped), every element and text node mapped back
// to the Gumbo node it came from.
#pragma once

#include <pugixml.hpp>

#include <unordered_map>

#include "husk/dom.h"

namespace husk {

struct XmlView {
  pugi::xml_document doc;
  std::unordered_map<const pugi::xml_node_struct*, const void*> origin;  // pugi node -> Gumbo node
};

// Iterative: deep trees cost no stack.
void build_xml_view(const Dom& dom, XmlView& view);

}  // namespace husk
