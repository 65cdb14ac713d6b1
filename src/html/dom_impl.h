// The Dom's insides, for husk's own stages only (segment, the XPath view).
#pragma once

#include <gumbo.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "husk/html.h"

namespace husk {

// Bump allocator for the parser: every allocation of one parse lives until
// the Dom is dropped, then all of it goes at once. The parser's frees are
// no-ops.
class Arena {
 public:
  void* allocate(std::size_t size);

 private:
  static constexpr std::size_t kChunk = 1u << 20;
  std::vector<std::unique_ptr<char[]>> chunks_;
  char* next_ = nullptr;
  std::size_t left_ = 0;
};

struct Dom::Impl {
  Arena arena;
  std::string html;  // the prescanned markup the tree points into
  GumboOutput* output = nullptr;
  std::vector<std::string> warnings;
  std::vector<std::string> json_ld;
  std::size_t noscript_bytes = 0;
};

struct DomAccess {
  static const Dom::Impl& impl(const Dom& dom) { return *dom.impl_; }
};

// The husk tag of a parser tag.
Tag tag_of(GumboTag tag);

// Elements in the subtree of `node`, itself included: what a walk that
// skips the subtree must add to its element count to keep Element::node
// numbers in document order.
uint32_t count_elements(const GumboNode* node);

}  // namespace husk
