#include "xml_dom.h"

#include <gumbo.h>

#include <vector>

#include "dom_impl.h"

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

const char* element_name(const GumboElement& el) {
  if (el.tag != GUMBO_TAG_UNKNOWN) return gumbo_normalized_tagname(el.tag);
  // Unknown tags keep their written name, lower-cased by Gumbo's tokenizer
  // in original_tag; fall back to a neutral name.
  return "unknown";
}

}  // namespace

void build_xml_view(const Dom& dom, XmlView& view) {
  const GumboNode* root = dom.impl().output->root;
  struct Frame {
    const GumboNode* node;
    pugi::xml_node xml;
  };
  std::vector<Frame> stack;
  pugi::xml_node html = view.doc.append_child("html");
  view.origin[html.internal_object()] = root;
  stack.push_back({root, html});
  while (!stack.empty()) {
    Frame f = stack.back();
    stack.pop_back();
    const GumboElement& el = f.node->v.element;
    for (unsigned i = 0; i < el.attributes.length; ++i) {
      auto* a = static_cast<const GumboAttribute*>(el.attributes.data[i]);
      if (xml_name(a->name) && !f.xml.attribute(a->name)) f.xml.append_attribute(a->name) = a->value;
    }
    for (unsigned i = 0; i < el.children.length; ++i) {
      auto* child = static_cast<const GumboNode*>(el.children.data[i]);
      if (child->type == GUMBO_NODE_ELEMENT || child->type == GUMBO_NODE_TEMPLATE) {
        const char* name = element_name(child->v.element);
        pugi::xml_node x = f.xml.append_child(name);
        view.origin[x.internal_object()] = child;
        stack.push_back({child, x});
      } else if (child->type == GUMBO_NODE_TEXT || child->type == GUMBO_NODE_WHITESPACE ||
                 child->type == GUMBO_NODE_CDATA) {
        pugi::xml_node t = f.xml.append_child(pugi::node_pcdata);
        t.set_value(child->v.text.text);
        view.origin[t.internal_object()] = child;
      }
    }
  }
}

}  // namespace husk
