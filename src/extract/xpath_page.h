// XPath over a page's blocks: the xpath extractor, husk tune and the gold
// of the template tests share it.
#pragma once

#include <pugixml.hpp>
#include <re2/re2.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "html/xml_view.h"
#include "husk/extract.h"

namespace husk {

// An XPath compiled, or the parser's complaint with its offset.
Result<pugi::xpath_query> compile_xpath(const std::string& xpath);

struct SiteRules::Compiled {
  std::unique_ptr<RE2> match;
  std::vector<pugi::xpath_query> include;
  std::vector<pugi::xpath_query> exclude;
};

// A page ready for XPath queries: its XML view, built once, and the map
// from element numbers to block-level elements.
class XpathPage {
 public:
  XpathPage(const Blocks& blocks, const Dom& dom);

  // Blocks inside any `include` node (all blocks when there is none), less
  // blocks inside any `exclude` node; an XPath that selects nothing adds a
  // warning naming it and `where`.
  Labels select(const std::vector<pugi::xpath_query>& include, const std::vector<pugi::xpath_query>& exclude,
                const std::vector<std::string>& include_text, const std::vector<std::string>& exclude_text,
                const std::string& where) const;

  const pugi::xml_document& doc() const { return view_.doc; }
  // The block-level element a node falls in, or -1.
  int64_t element_of(const pugi::xml_node& node) const;
  // True when the node is itself a block-level element (a container).
  bool is_block(const pugi::xml_node& node) const;
  const Blocks& blocks() const { return blocks_; }

 private:
  const Blocks& blocks_;
  XmlView view_;
  std::unordered_map<uint32_t, uint32_t> element_of_number_;
};

}  // namespace husk
