// Hash functions the signers share: CRC32 (zlib), MD5 and SHA-1 (OpenSSL),
// xxHash64 (xxhash), and the fixed-width hex spelling of their values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "husk/status.h"

namespace husk {

uint32_t crc32_of(std::string_view bytes);
// Whether MD5 and SHA-1 can be computed: OpenSSL's libcrypto is opened on
// first use; the error names the library when it cannot be.
Status crypto_loaded();
std::string md5_hex(std::string_view bytes);
std::string sha1_hex(std::string_view bytes);
uint64_t xxh64(std::string_view bytes, uint64_t seed);
// SplitMix64 (Steele, Lea, Flood 2014): the seeded stream of random numbers
// for permutations, hyperplanes and lexicons. Inline: word shingles call
// it for every word of every shingle, and the calls were 5% of husk
// dedup's CPU time on generated texts (perf).
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
std::string hex32(uint32_t v);
std::string hex64(uint64_t v);

}  // namespace husk
