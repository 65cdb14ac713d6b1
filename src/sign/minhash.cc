// minhash (Broder, "On the resemblance and containment of documents",
// 1997; Sergukova's lecture, "LSH"): N seeded permutations pi_i(x) = (a_i x + b_i) mod
// (2^31 - 1) of the document's shingle hashes; the minimum under each is one
// element of the signature, and the share of equal elements estimates the
// Jaccard similarity of the shingle sets. The signature is cut into b bands
// of r rows; each band, tagged with its number, is hashed into a key, and
// one equal key makes a candidate pair (Sergukova's lecture: "number the groups").
#include <algorithm>
#include <bit>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "base/hash_sort.h"
#include "sign/context.h"
#include "sign/hashing.h"
#include "sign/minima.h"

namespace husk {

namespace {

// Permutations over the Mersenne prime 2^31 - 1: a, b and x below 2^31, so
// a * x + b fits 64 bits and the inner loop is a 32x32->64 multiply;
// values are 31-bit, so two random minima collide with
// probability 2^-31.
constexpr uint64_t kMersenne31 = (1ull << 31) - 1;

inline uint64_t mod_mersenne31(uint64_t x) {
  x = (x & kMersenne31) + (x >> 31);
  x = (x & kMersenne31) + (x >> 31);
  return x >= kMersenne31 ? x - kMersenne31 : x;
}

// The hot loop: m[i] = min(m[i], mod_mersenne31(a[i] x + b[i])) over every
// shingle x, with every step after the product in 32 bits: a, x, b <
// 2^31 - 1 make a x + b < 2^62, so the first fold (low 31 bits plus the
// rest) is under 2^32, the second at most 2^31, and min(r, r - p)
// subtracts p exactly when r >= p (below p, r - p wraps above r). The
// minima are the numbers mod_mersenne31 gives (Minhash.KernelsAreTheirDefinition).
inline uint32_t permuted(uint32_t a, uint32_t b, uint32_t x) {
  constexpr uint32_t p = static_cast<uint32_t>(kMersenne31);
  const uint64_t v = static_cast<uint64_t>(a) * x + b;
  const uint32_t w = (static_cast<uint32_t>(v) & p) + static_cast<uint32_t>(v >> 31);
  const uint32_t r = (w & p) + (w >> 31);
  return std::min(r, r - p);
}

void minima_portable(const uint32_t* a, const uint32_t* b, uint32_t* m, uint32_t n, const uint32_t* xs,
                     std::size_t count) {
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t least = m[i];
    for (std::size_t s = 0; s < count; ++s) least = std::min(least, permuted(a[i], b[i], xs[s]));
    m[i] = least;
  }
}

// The vector kernels take the permutations a block at a time, the block's
// a, b and minima held in registers while every shingle passes, so that
// nothing but the shingle is loaded in the inner loop. Within a register
// the even lanes' products come from one 32x32->64 multiply, the odd
// lanes' from another; each is folded once in 64 bits and the two are put
// back side by side, so the rest is one register of 32-bit values. Loading
// and storing the minima for every shingle, eight permutations a step, the
// loop was 16% of husk dedup's CPU samples on generated texts (perf, one
// core); blocks of sixteen (AVX2) and thirty-two (AVX-512) take it to
// 0.9x and 0.55x of that time, timed alone on 150 random shingles and 128
// permutations, and the AVX-512 kernel is 8% of the samples.
#if defined(__x86_64__)
__attribute__((target("avx2"))) void minima_avx2(const uint32_t* a, const uint32_t* b, uint32_t* m, uint32_t n,
                                                 const uint32_t* xs, std::size_t count) {
  constexpr int kRegisters = 2;
  constexpr uint32_t kBlock = 8 * kRegisters;
  const __m256i p64 = _mm256_set1_epi64x(static_cast<int64_t>(kMersenne31));
  const __m256i low = _mm256_set1_epi64x(0xFFFFFFFF);
  const __m256i p32 = _mm256_set1_epi32(static_cast<int32_t>(kMersenne31));
  uint32_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    __m256i a_even[kRegisters], a_odd[kRegisters], b_even[kRegisters], b_odd[kRegisters], least[kRegisters];
    for (int k = 0; k < kRegisters; ++k) {
      const __m256i av = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i + 8 * k));
      const __m256i bv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i + 8 * k));
      a_even[k] = av;
      a_odd[k] = _mm256_srli_epi64(av, 32);
      b_even[k] = _mm256_and_si256(bv, low);
      b_odd[k] = _mm256_srli_epi64(bv, 32);
      least[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(m + i + 8 * k));
    }
    for (std::size_t s = 0; s < count; ++s) {
      const __m256i x = _mm256_set1_epi64x(xs[s]);
      for (int k = 0; k < kRegisters; ++k) {
        __m256i even = _mm256_add_epi64(_mm256_mul_epu32(a_even[k], x), b_even[k]);
        __m256i odd = _mm256_add_epi64(_mm256_mul_epu32(a_odd[k], x), b_odd[k]);
        even = _mm256_add_epi64(_mm256_and_si256(even, p64), _mm256_srli_epi64(even, 31));
        odd = _mm256_add_epi64(_mm256_and_si256(odd, p64), _mm256_srli_epi64(odd, 31));
        const __m256i w = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
        __m256i r = _mm256_add_epi32(_mm256_and_si256(w, p32), _mm256_srli_epi32(w, 31));
        r = _mm256_min_epu32(r, _mm256_sub_epi32(r, p32));
        least[k] = _mm256_min_epu32(least[k], r);
      }
    }
    for (int k = 0; k < kRegisters; ++k)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(m + i + 8 * k), least[k]);
  }
  minima_portable(a + i, b + i, m + i, n - i, xs, count);
}

// GCC 12's AVX-512 intrinsics pass a deliberately undefined register as
// the unused merge source (`__m512i __Y = __Y;`, avx512fintrin.h), which
// -Wmaybe-uninitialized reports in every caller (GCC bug 105593, fixed in
// later releases).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
__attribute__((target("avx512f"))) void minima_avx512(const uint32_t* a, const uint32_t* b, uint32_t* m, uint32_t n,
                                                      const uint32_t* xs, std::size_t count) {
  constexpr int kRegisters = 2;
  constexpr uint32_t kBlock = 16 * kRegisters;
  const __m512i p64 = _mm512_set1_epi64(static_cast<int64_t>(kMersenne31));
  const __m512i low = _mm512_set1_epi64(0xFFFFFFFF);
  const __m512i p32 = _mm512_set1_epi32(static_cast<int32_t>(kMersenne31));
  uint32_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    __m512i a_even[kRegisters], a_odd[kRegisters], b_even[kRegisters], b_odd[kRegisters], least[kRegisters];
    for (int k = 0; k < kRegisters; ++k) {
      const __m512i av = _mm512_loadu_si512(a + i + 16 * k);
      const __m512i bv = _mm512_loadu_si512(b + i + 16 * k);
      a_even[k] = av;
      a_odd[k] = _mm512_srli_epi64(av, 32);
      b_even[k] = _mm512_and_si512(bv, low);
      b_odd[k] = _mm512_srli_epi64(bv, 32);
      least[k] = _mm512_loadu_si512(m + i + 16 * k);
    }
    for (std::size_t s = 0; s < count; ++s) {
      const __m512i x = _mm512_set1_epi64(xs[s]);
      for (int k = 0; k < kRegisters; ++k) {
        __m512i even = _mm512_add_epi64(_mm512_mul_epu32(a_even[k], x), b_even[k]);
        __m512i odd = _mm512_add_epi64(_mm512_mul_epu32(a_odd[k], x), b_odd[k]);
        even = _mm512_add_epi64(_mm512_and_si512(even, p64), _mm512_srli_epi64(even, 31));
        odd = _mm512_add_epi64(_mm512_and_si512(odd, p64), _mm512_srli_epi64(odd, 31));
        const __m512i w = _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
        __m512i r = _mm512_add_epi32(_mm512_and_si512(w, p32), _mm512_srli_epi32(w, 31));
        r = _mm512_min_epu32(r, _mm512_sub_epi32(r, p32));
        least[k] = _mm512_min_epu32(least[k], r);
      }
    }
    for (int k = 0; k < kRegisters; ++k) _mm512_storeu_si512(m + i + 16 * k, least[k]);
  }
  minima_portable(a + i, b + i, m + i, n - i, xs, count);
}
#pragma GCC diagnostic pop
#endif

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

bool minima_kernel_runs(MinimaKernel kernel) {
  switch (kernel) {
    case MinimaKernel::kPortable: return true;
#if defined(__x86_64__)
    case MinimaKernel::kAvx2: return __builtin_cpu_supports("avx2");
    case MinimaKernel::kAvx512: return __builtin_cpu_supports("avx512f");
#endif
    default: return false;
  }
}

MinimaKernel best_minima_kernel() {
  // Asked on first use, not in a static initialiser, which may run before
  // the processor's model has been read.
  static const MinimaKernel best = minima_kernel_runs(MinimaKernel::kAvx512) ? MinimaKernel::kAvx512
                                   : minima_kernel_runs(MinimaKernel::kAvx2) ? MinimaKernel::kAvx2
                                                                             : MinimaKernel::kPortable;
  return best;
}

void permuted_minima(MinimaKernel kernel, const uint32_t* a, const uint32_t* b, uint32_t* m, uint32_t n,
                     const uint32_t* xs, std::size_t count) {
#if defined(__x86_64__)
  if (kernel == MinimaKernel::kAvx512) return minima_avx512(a, b, m, n, xs, count);
  if (kernel == MinimaKernel::kAvx2) return minima_avx2(a, b, m, n, xs, count);
#endif
  minima_portable(a, b, m, n, xs, count);
}

const std::vector<uint64_t>& SignContext::shingle_set() {
  if (shingle_set_) return *shingle_set_;
  std::vector<uint64_t> shingles = options.minhash_char_shingle > 0
                                       ? character_shingles(text.joined(), options.minhash_char_shingle)
                                       : word_shingles(options.minhash_shingle);
  // In the order of (low 32 bits, high 32 bits): swapped halves sorted as
  // numbers. The sketch below is then the low halves as they come.
  for (uint64_t& h : shingles) h = std::rotr(h, 32);
  std::vector<uint64_t> scratch;
  sort_hashes(shingles, scratch);
  shingles.erase(std::unique(shingles.begin(), shingles.end()), shingles.end());
  for (uint64_t& h : shingles) h = std::rotr(h, 32);
  shingle_set_ = std::move(shingles);
  return *shingle_set_;
}

namespace {

// The n permutations' a and b, drawn from the seed. Every document of a run
// has the same ones, and drawing them (two splitmix64 and two 64-bit
// modulos each) was 3% of husk dedup's samples (perf, 100,000 generated
// texts), so each thread keeps the last seed's.
struct Permutations {
  uint64_t seed = 0;
  std::vector<uint32_t> a, b;
};

const Permutations& permutations(uint64_t seed, uint32_t n) {
  thread_local Permutations drawn;
  if (drawn.a.size() == n && drawn.seed == seed) return drawn;
  drawn.seed = seed;
  drawn.a.resize(n);
  drawn.b.resize(n);
  uint64_t state = seed;
  for (uint32_t i = 0; i < n; ++i) {
    drawn.a[i] = static_cast<uint32_t>(splitmix64(state) % (kMersenne31 - 1) + 1);
    drawn.b[i] = static_cast<uint32_t>(splitmix64(state) % kMersenne31);
  }
  return drawn;
}

}  // namespace

const std::vector<uint64_t>& SignContext::minima() {
  if (minima_) return *minima_;
  const std::vector<uint64_t>& shingles = shingle_set();
  std::vector<uint64_t> minima;
  if (!shingles.empty()) {
    const uint32_t n = options.minhash_permutations;
    const Permutations& p = permutations(options.seed, n);
    std::vector<uint32_t> m(n, static_cast<uint32_t>(kMersenne31));
    std::vector<uint32_t> xs(shingles.size());
    for (std::size_t s = 0; s < shingles.size(); ++s) xs[s] = static_cast<uint32_t>(mod_mersenne31(shingles[s]));
    permuted_minima(best_minima_kernel(), p.a.data(), p.b.data(), m.data(), n, xs.data(), xs.size());
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
  // output, so every bit is mixed), the k smallest. The set comes in the
  // order of its low halves, so they need no sort of their own (a second
  // sort was 4% of husk dedup's CPU, perf).
  std::vector<uint32_t>& sketch = out.shingles;
  for (uint64_t h : c.shingle_set()) {
    if (sketch.size() == c.options.minhash_sketch) break;
    if (sketch.empty() || sketch.back() != static_cast<uint32_t>(h)) sketch.push_back(static_cast<uint32_t>(h));
  }
}};

}  // namespace husk
