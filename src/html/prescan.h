// The prescan alone: what parse() hands to the HTML5 parser (see
// husk/html.h). Exposed for the benchmark that measures what it saves.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "husk/html.h"

namespace husk {

struct Prescanned {
  std::string html;
  std::vector<std::string> warnings;
  std::vector<std::string> json_ld;  // bodies of application/ld+json scripts
  std::size_t noscript_bytes = 0;     // markup inside <noscript> left out
};

Prescanned prescan(std::string_view html, const ParseOptions& options);

// Whether an href is a site's root: "/", "http://host/", "//host". The
// prescan writes such a link's href as "/" when it drops URLs, so that
// segmentation can tell a logo from a heading (<h1><a href="/">Site</a></h1>).
bool is_site_root(std::string_view href);

}  // namespace husk
