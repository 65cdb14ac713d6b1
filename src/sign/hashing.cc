#include "sign/hashing.h"

#include <openssl/evp.h>
#include <xxhash.h>
#include <zlib.h>

#include <cstdio>

#include "base/shared_library.h"

namespace husk {

namespace {

// OpenSSL's libcrypto, opened when a signer first asks for MD5 or SHA-1:
// only the md5 and imatch signers do, and loading and initialising it cost
// a one-page husk extract about 7% of its CPU (docs/evaluation.md, "The
// command line beside the library"; docs/architecture.md, "Libraries
// opened on use").
struct CryptoLibrary {
  SharedLibrary library{"libcrypto.so.3"};
  decltype(&EVP_Digest) digest = HUSK_LIBRARY_SYMBOL(library, EVP_Digest);
  decltype(&EVP_md5) md5 = HUSK_LIBRARY_SYMBOL(library, EVP_md5);
  decltype(&EVP_sha1) sha1 = HUSK_LIBRARY_SYMBOL(library, EVP_sha1);
};

const CryptoLibrary& crypto() { return opened<CryptoLibrary>(); }

// "" when libcrypto is missing (crypto_loaded() says so before signing).
std::string digest_hex(const EVP_MD* (*md)(), std::string_view bytes) {
  if (!crypto().library.ok()) return "";
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  crypto().digest(bytes.data(), bytes.size(), digest, &len, md(), nullptr);
  static const char* kHex = "0123456789abcdef";
  std::string out;
  out.reserve(len * 2);
  for (unsigned i = 0; i < len; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 15]);
  }
  return out;
}

}  // namespace

uint32_t crc32_of(std::string_view bytes) {
  return static_cast<uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

Status crypto_loaded() {
  if (crypto().library.ok()) return Status();
  return Status(Code::kUnsupported, "MD5 and SHA-1 need OpenSSL's libcrypto: " + crypto().library.error());
}

std::string md5_hex(std::string_view bytes) { return digest_hex(crypto().md5, bytes); }
std::string sha1_hex(std::string_view bytes) { return digest_hex(crypto().sha1, bytes); }

uint64_t xxh64(std::string_view bytes, uint64_t seed) { return XXH64(bytes.data(), bytes.size(), seed); }

std::string hex32(uint32_t v) {
  char buf[9];
  std::snprintf(buf, sizeof(buf), "%08x", v);
  return buf;
}

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace husk
