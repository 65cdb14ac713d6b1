// Fixed-width values in byte strings: what husk's binary formats (the
// template store's models, the signature file, the corpus search's store
// and messages) are written and read with. Values are copied in the
// machine's byte order (little-endian on the x86-64 and AArch64 Linux husk
// builds for).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace husk {

template <typename T>
void put_bytes(std::string& out, const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  out.append(reinterpret_cast<const char*>(&v), sizeof(T));
}

// The next value of `in`, consumed; false when `in` is too short.
template <typename T>
bool take_bytes(std::string_view& in, T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (in.size() < sizeof(T)) return false;
  std::memcpy(&v, in.data(), sizeof(T));
  in.remove_prefix(sizeof(T));
  return true;
}

// Reads values in turn; the first that does not fit clears `ok` (and every
// later one reads as zero or empty).
struct ByteReader {
  std::string_view in;
  bool ok = true;

  template <typename T>
  T take() {
    T v{};
    if (ok && !take_bytes(in, v)) ok = false;
    return v;
  }
  // A u32 length, then that many bytes.
  std::string string() {
    auto n = take<uint32_t>();
    if (!ok || in.size() < n) return ok = false, std::string();
    std::string s(in.substr(0, n));
    in.remove_prefix(n);
    return s;
  }
  // A u32 count, then that many values.
  template <typename T>
  std::vector<T> list() {
    auto n = take<uint32_t>();
    if (!ok || in.size() / sizeof(T) < n) return ok = false, std::vector<T>();
    std::vector<T> v(n);
    if (n > 0) std::memcpy(v.data(), in.data(), n * sizeof(T));  // an empty vector's data() may be null
    in.remove_prefix(n * sizeof(T));
    return v;
  }
};

}  // namespace husk
