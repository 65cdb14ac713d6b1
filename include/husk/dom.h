// Parse: UTF-8 HTML -> Dom, with limits on bytes, depth and elements.
//
// Before Gumbo sees the page, a prescan drops what never reaches the text
// (script, style, svg, noscript, template bodies, comments). On the
// article-extraction-benchmark pages that is 61% of the bytes, and Gumbo's
// time is linear in what it parses. The same prescan enforces the limits:
// markup beyond `max_markup_bytes` is cut, start tags beyond `max_depth`
// open elements or beyond `max_elements` are dropped (their text is kept),
// so a hostile page costs bounded time and memory. Each cut is reported in
// Dom::warnings().
//
// The Dom's memory comes from one arena that is released as a whole, so no
// recursive tree destruction ever runs on a deep tree.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "husk/status.h"

namespace husk {

struct ParseOptions {
  // Markup kept after the prescan; beyond it the page is cut (16 MiB: larger
  // than any article page we have seen by 20x, parsed in well under a second).
  std::size_t max_markup_bytes = 16u << 20;
  // Open elements. Real pages stay below 100; Gumbo's scope checks are
  // linear in depth, so unbounded nesting would be quadratic.
  std::size_t max_depth = 512;
  // Start tags kept. The largest benchmark page has about 30,000 elements.
  std::size_t max_elements = 200000;
  // Drop script/style/svg/noscript/template bodies and comments before
  // parsing. Off only for measuring what the prescan saves.
  bool prescan = true;
};

class Dom {
 public:
  struct Impl;
  explicit Dom(std::unique_ptr<Impl> impl);
  ~Dom();
  Dom(Dom&&) noexcept;
  Dom& operator=(Dom&&) noexcept;

  const std::vector<std::string>& warnings() const;
  // For husk's own stages (segment, title); not part of the public surface.
  const Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

struct Prescanned {
  std::string html;
  std::vector<std::string> warnings;
};

// The prescan alone: what parse() hands to Gumbo.
Prescanned prescan(std::string_view html, const ParseOptions& options);

Result<Dom> parse(std::string_view html, const ParseOptions& options = {});

}  // namespace husk
