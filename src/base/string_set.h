// Hash containers keyed by std::string that look up std::string_view
// without building a string (C++20 heterogeneous lookup).
#pragma once

#include <xxhash.h>

#include <algorithm>
#include <bitset>
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

// A set of words asked about every word of a page (stop words, title
// words). Most words asked are not in it, and a bitmap of the members'
// (length, first byte) and (length, last byte) says so for nearly all of
// them without hashing: rows of the block features spent a fifth of their
// time hashing words before it.
class WordSet {
 public:
  void insert(std::string_view word) {
    if (word.empty()) return;
    first_.set(key(word.size(), word.front()));
    last_.set(key(word.size(), word.back()));
    words_.emplace(word);
  }
  bool contains(std::string_view word) const {
    return !word.empty() && first_.test(key(word.size(), word.front())) &&
           last_.test(key(word.size(), word.back())) && words_.find(word) != words_.end();
  }
  std::size_t size() const { return words_.size(); }
  bool empty() const { return words_.empty(); }

 private:
  static std::size_t key(std::size_t size, char c) {
    return (std::min<std::size_t>(size, 31) << 8) | static_cast<unsigned char>(c);
  }
  std::bitset<32 * 256> first_, last_;
  StringSet words_;
};

}  // namespace husk
