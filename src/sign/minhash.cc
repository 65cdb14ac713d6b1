// minhash (Broder, "On the resemblance and containment of documents",
// 1997; Sergukova's lecture, "LSH"): N seeded permutations pi_i(x) = (a_i x + b_i) mod
// (2^31 - 1) of the document's shingle hashes; the minimum under each is one
// element of the signature, and the share of equal elements estimates the
// Jaccard similarity of the shingle sets. The signature is cut into b bands
// of r rows; each band, tagged with its number, is hashed into a key, and
// one equal key makes a candidate pair (Sergukova's lecture: "number the groups").
#include <algorithm>

#include "sign/context.h"
#include "sign/hashing.h"

namespace husk {

namespace {

// Permutations over the Mersenne prime 2^31 - 1: a, b and x below 2^31, so
// a * x + b fits 64 bits and the inner loop is a 32x32->64 multiply the
// compiler vectorises; values are 31-bit, so two random minima collide with
// probability 2^-31.
constexpr uint64_t kMersenne31 = (1ull << 31) - 1;

inline uint64_t mod_mersenne31(uint64_t x) {
  x = (x & kMersenne31) + (x >> 31);
  x = (x & kMersenne31) + (x >> 31);
  return x >= kMersenne31 ? x - kMersenne31 : x;
}

// The hot loop: one shingle against every permutation. Built twice, for
// AVX2 and for any x86-64, and picked at run time, so the binary stays
// portable and uses the wide registers where they exist. Not under
// ThreadSanitizer: it instruments the resolver that picks the clone, which
// the dynamic loader runs before the sanitizer's runtime is up, and every
// program linking the library then crashed before main.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HUSK_THREAD_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(HUSK_THREAD_SANITIZER)
#define HUSK_AVX2_CLONE
#else
#define HUSK_AVX2_CLONE __attribute__((target_clones("avx2", "default")))
#endif
HUSK_AVX2_CLONE void update_minima(const uint32_t* a, const uint32_t* b, int64_t* m, uint32_t n, uint32_t x) {
  for (uint32_t i = 0; i < n; ++i) {
    int64_t v = static_cast<int64_t>(mod_mersenne31(static_cast<uint64_t>(a[i]) * x + b[i]));
    m[i] = v < m[i] ? v : m[i];
  }
}

std::vector<uint64_t> character_shingles(const std::string& text, uint32_t k) {
  // Code points, not bytes, so that k means characters in every script.
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  std::vector<uint64_t> out;
  if (starts.empty()) return out;
  std::size_t count = starts.size() >= k ? starts.size() - k + 1 : 1;
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t end = i + k < starts.size() ? starts[i + k] : text.size();
    out.push_back(xxh64(std::string_view(text).substr(starts[i], end - starts[i]), 0));
  }
  return out;
}

}  // namespace

const std::vector<uint64_t>& SignContext::shingle_set() {
  if (shingle_set_) return *shingle_set_;
  std::vector<uint64_t> shingles = options.minhash_char_shingle > 0
                                       ? character_shingles(text.joined(), options.minhash_char_shingle)
                                       : word_shingles(options.minhash_shingle);
  std::sort(shingles.begin(), shingles.end());
  shingles.erase(std::unique(shingles.begin(), shingles.end()), shingles.end());
  shingle_set_ = std::move(shingles);
  return *shingle_set_;
}

const std::vector<uint64_t>& SignContext::minima() {
  if (minima_) return *minima_;
  const std::vector<uint64_t>& shingles = shingle_set();
  std::vector<uint64_t> minima;
  if (!shingles.empty()) {
    const uint32_t n = options.minhash_permutations;
    std::vector<uint32_t> a(n), b(n);
    std::vector<int64_t> m(n, static_cast<int64_t>(kMersenne31));
    uint64_t state = options.seed;
    for (uint32_t i = 0; i < n; ++i) {
      a[i] = static_cast<uint32_t>(splitmix64(state) % (kMersenne31 - 1) + 1);
      b[i] = static_cast<uint32_t>(splitmix64(state) % kMersenne31);
    }
    for (uint64_t h : shingles)
      update_minima(a.data(), b.data(), m.data(), n, static_cast<uint32_t>(mod_mersenne31(h)));
    minima.assign(m.begin(), m.end());
  }
  minima_ = std::move(minima);
  return *minima_;
}

// Hashes groups of consecutive 32-bit minima, each tagged with its number.
std::vector<uint64_t> hash_groups(const std::vector<uint32_t>& values, uint32_t groups, uint32_t rows, uint64_t seed) {
  std::vector<uint64_t> keys;
  for (uint32_t g = 0; g < groups && (g + 1) * rows <= values.size(); ++g) {
    std::string_view bytes(reinterpret_cast<const char*>(values.data() + g * rows), rows * sizeof(uint32_t));
    keys.push_back(xxh64(bytes, seed + g));
  }
  return keys;
}

const Signer kMinhashSigner{"minhash", [](SignContext& c, Signatures& out) {
  const std::vector<uint64_t>& minima = c.minima();
  if (minima.empty()) return;
  out.minhash.assign(minima.begin(), minima.end());
  for (uint32_t& v : out.minhash) v = static_cast<uint32_t>(v);
  out.minhash_bands = hash_groups(out.minhash, c.options.minhash_bands, c.options.minhash_rows, c.options.seed);
  // The sketch: the low 32 bits of each distinct shingle hash (splitmix64
  // output, so every bit is mixed), the k smallest.
  std::vector<uint32_t>& sketch = out.shingles;
  for (uint64_t h : c.shingle_set()) sketch.push_back(static_cast<uint32_t>(h));
  std::sort(sketch.begin(), sketch.end());
  sketch.erase(std::unique(sketch.begin(), sketch.end()), sketch.end());
  if (sketch.size() > c.options.minhash_sketch) sketch.resize(c.options.minhash_sketch);
}};

}  // namespace husk
