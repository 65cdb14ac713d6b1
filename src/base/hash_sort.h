// Sorting values keyed by a hash. A hash spreads its values evenly between
// the least and the greatest, so one counting pass puts each value in a
// bucket of about one, in order, and an insertion sort within each bucket
// finishes: on 150 random 64-bit values (a page's shingle set) this takes a
// quarter of std::sort's time, which branches on every comparison and
// mispredicts half of them. A bucket that holds many values (one key
// repeated, as copies of a page repeat their band keys, or keys chosen
// against the hash) is sorted by std::sort, so no input costs more than
// std::sort's time and a counting pass.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace husk {

// Buckets up to this size are finished by insertion, larger ones by std::sort.
inline constexpr std::size_t kHashSortInsertion = 16;

// Sorts `values` by `less`, which orders by key_of(value) (a 64-bit hash)
// first: the order std::sort gives. `scratch` is reused storage (its
// contents are lost); it grows to the size of `values`.
template <typename T, typename KeyOf, typename Less>
void sort_by_hash(std::vector<T>& values, std::vector<T>& scratch, KeyOf key_of, Less less) {
  const std::size_t n = values.size();
  if (n < 2) return;
  uint64_t lo = std::numeric_limits<uint64_t>::max(), hi = 0;
  for (const T& v : values) {
    lo = std::min(lo, key_of(v));
    hi = std::max(hi, key_of(v));
  }
  // Bucket (key - lo) >> shift: monotone in the key, at most 2^bits <= n
  // buckets, so about one value each when the keys spread.
  const int bits = static_cast<int>(std::bit_width(n)) - 1;
  const int shift = std::max(0, static_cast<int>(std::bit_width(hi - lo)) - bits);
  auto bucket = [&](const T& v) { return static_cast<std::size_t>((key_of(v) - lo) >> shift); };
  const std::size_t buckets = static_cast<std::size_t>((hi - lo) >> shift) + 1;
  std::vector<uint32_t> end(buckets + 1, 0);
  for (const T& v : values) ++end[bucket(v) + 1];
  for (std::size_t b = 1; b <= buckets; ++b) end[b] += end[b - 1];
  scratch.resize(n);
  // end[b] is bucket b's start until its values are placed, then its end.
  for (const T& v : values) scratch[end[bucket(v)]++] = v;
  std::size_t begin = 0;
  for (std::size_t b = 0; b < buckets; begin = end[b++]) {
    const std::size_t size = end[b] - begin;
    if (size < 2) continue;
    T* first = scratch.data() + begin;
    if (size > kHashSortInsertion) {
      std::sort(first, first + size, less);
      continue;
    }
    for (std::size_t i = 1; i < size; ++i) {
      T x = first[i];
      std::size_t j = i;
      for (; j > 0 && less(x, first[j - 1]); --j) first[j] = first[j - 1];
      first[j] = x;
    }
  }
  values.swap(scratch);
}

// 64-bit hash values, ascending.
inline void sort_hashes(std::vector<uint64_t>& values, std::vector<uint64_t>& scratch) {
  sort_by_hash(
      values, scratch, [](uint64_t v) { return v; }, [](uint64_t a, uint64_t b) { return a < b; });
}

}  // namespace husk
