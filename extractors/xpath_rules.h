// Applying XPath selections to a page's blocks (the xpath extractor, husk
// tune and the gold of the template tests share it).
#pragma once

#include <pugixml.hpp>

#include <string>
#include <vector>

#include "husk/extract.h"

namespace husk {

// Blocks inside any `include` node (all blocks when there is none), less
// blocks inside any `exclude` node; an XPath that selects nothing adds a
// warning naming it and `where`.
Extraction apply_xpaths(const Blocks& blocks, const Dom& dom, const std::vector<pugi::xpath_query>& include,
                        const std::vector<pugi::xpath_query>& exclude, const std::vector<std::string>& include_text,
                        const std::vector<std::string>& exclude_text, const std::string& where);

}  // namespace husk
