// Sorting values that are hashes. A hash spreads its values evenly over
// their range, so one counting pass puts each value in a bucket of about
// one, in order, and an insertion sort finishes what little is left: on
// 150 random 64-bit values (a page's shingle set) this takes a quarter of
// std::sort's time, which branches on every comparison and mispredicts half
// of them. Values that do not spread (many in one bucket: the same value
// repeated, or a range chosen against the hash) are left to std::sort, so
// no input costs more than a bucket's worth of insertion per value.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace husk {

// The most values one bucket may take before the sort falls back to
// std::sort: an insertion moves each value past at most this many.
inline constexpr std::size_t kHashSortBucket = 16;

// Sorts `values` ascending; the same order as std::sort. `scratch` is
// reused storage (its contents are lost).
inline void sort_hashes(std::vector<uint64_t>& values, std::vector<uint64_t>& scratch) {
  const std::size_t n = values.size();
  if (n < 2) return;
  // Value x goes to bucket floor(x n / 2^64): monotone in x, so bucket
  // order is value order.
  auto bucket = [n](uint64_t x) {
    return static_cast<std::size_t>((static_cast<unsigned __int128>(x) * n) >> 64);
  };
  std::vector<uint32_t> start(n + 1, 0);
  for (uint64_t x : values) ++start[bucket(x) + 1];
  for (std::size_t b = 1; b <= n; ++b) {
    if (start[b] > kHashSortBucket) {
      std::sort(values.begin(), values.end());
      return;
    }
    start[b] += start[b - 1];
  }
  scratch.resize(n);
  for (uint64_t x : values) scratch[start[bucket(x)]++] = x;
  for (std::size_t i = 1; i < n; ++i) {
    const uint64_t x = scratch[i];
    std::size_t j = i;
    for (; j > 0 && scratch[j - 1] > x; --j) scratch[j] = scratch[j - 1];
    scratch[j] = x;
  }
  values.swap(scratch);
}

}  // namespace husk
