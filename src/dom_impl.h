// The Dom's insides, for husk's own stages only (segment, title).
#pragma once

#include <gumbo.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "husk/dom.h"

namespace husk {

// Bump allocator for Gumbo: every allocation of one parse lives until the
// Dom is dropped, then all of it goes at once. Gumbo's frees are no-ops.
class Arena {
 public:
  void* allocate(std::size_t size);
  std::size_t bytes() const { return total_; }

 private:
  static constexpr std::size_t kChunk = 1u << 20;
  std::vector<std::unique_ptr<char[]>> chunks_;
  char* next_ = nullptr;
  std::size_t left_ = 0;
  std::size_t total_ = 0;
};

struct Dom::Impl {
  Arena arena;
  std::string html;  // the prescanned markup the tree points into
  GumboOutput* output = nullptr;
  std::vector<std::string> warnings;
};

}  // namespace husk
