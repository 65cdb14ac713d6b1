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
// for permutations, hyperplanes and lexicons.
uint64_t splitmix64(uint64_t& state);
std::string hex32(uint32_t v);
std::string hex64(uint64_t v);

}  // namespace husk
