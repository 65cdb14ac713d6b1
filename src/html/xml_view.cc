#include "html/xml_view.h"

#include <vector>

#include "html/dom_impl.h"

namespace husk {

namespace {

bool xml_name_char(char c, bool first) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || static_cast<unsigned char>(c) >= 0x80) return true;
  return !first && ((c >= '0' && c <= '9') || c == '-' || c == '.' || c == ':');
}

bool xml_name(const char* name) {
  if (name == nullptr || *name == 0) return false;
  for (const char* p = name; *p; ++p)
    if (!xml_name_char(*p, p == name)) return false;
  return true;
}

bool is_element(const GumboNode* n) { return n->type == GUMBO_NODE_ELEMENT || n->type == GUMBO_NODE_TEMPLATE; }

}  // namespace

void build_xml_view(const Dom& dom, XmlView& view) {
  const GumboNode* root = DomAccess::impl(dom).output->root;
  struct Frame {
    const GumboNode* node;
    pugi::xml_node xml;
    unsigned next_child;
  };
  uint32_t next_number = 0;
  // Elements are created and numbered in pre-order, the order segment()
  // numbers them in.
  auto open = [&](const GumboNode* node, pugi::xml_node parent) {
    const GumboElement& el = node->v.element;
    // Unknown tags have no normalised name; they all become <unknown>.
    pugi::xml_node x = parent.append_child(el.tag == GUMBO_TAG_UNKNOWN ? "unknown" : gumbo_normalized_tagname(el.tag));
    view.number[x.internal_object()] = next_number++;
    for (unsigned i = 0; i < el.attributes.length; ++i) {
      auto* a = static_cast<const GumboAttribute*>(el.attributes.data[i]);
      if (xml_name(a->name) && !x.attribute(a->name)) x.append_attribute(a->name) = a->value;
    }
    return Frame{node, x, 0};
  };
  std::vector<Frame> stack;
  stack.push_back(open(root, view.doc));
  while (!stack.empty()) {
    Frame& top = stack.back();
    const GumboVector& kids = top.node->v.element.children;
    if (top.next_child >= kids.length) {
      stack.pop_back();
      continue;
    }
    auto* child = static_cast<const GumboNode*>(kids.data[top.next_child++]);
    if (is_element(child)) {
      pugi::xml_node parent = top.xml;
      stack.push_back(open(child, parent));
    } else if (child->type == GUMBO_NODE_TEXT || child->type == GUMBO_NODE_WHITESPACE ||
               child->type == GUMBO_NODE_CDATA) {
      top.xml.append_child(pugi::node_pcdata).set_value(child->v.text.text);
    }
  }
}

}  // namespace husk
