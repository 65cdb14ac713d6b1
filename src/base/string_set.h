// Hash containers keyed by std::string that look up std::string_view
// without building a string (C++20 heterogeneous lookup).
#pragma once

#include <xxhash.h>

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace husk {

// XXH3: several times faster than std::hash on the short words these sets
// hold (stop words, title words, vocabularies).
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return XXH3_64bits(s.data(), s.size()); }
};

using StringSet = std::unordered_set<std::string, StringHash, std::equal_to<>>;
template <typename V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

}  // namespace husk
