// The minhash loop's kernels: one definition, m[i] = min(m[i], min over the
// shingles x of (a[i] x + b[i]) mod (2^31 - 1)), computed by whichever
// vector width the processor has. Named here so that a test can hold each
// kernel the processor runs to the definition, not only the one chosen.
#pragma once

#include <cstddef>
#include <cstdint>

namespace husk {

enum class MinimaKernel : uint8_t { kPortable, kAvx2, kAvx512 };

// Whether this processor runs the kernel.
bool minima_kernel_runs(MinimaKernel kernel);

// The widest kernel this processor runs (asked once).
MinimaKernel best_minima_kernel();

// For i < n: m[i] = min(m[i], min over xs[0..count) of (a[i] x + b[i]) mod
// (2^31 - 1)); a, b and every x below 2^31 - 1. The kernel must run here.
void permuted_minima(MinimaKernel kernel, const uint32_t* a, const uint32_t* b, uint32_t* m, uint32_t n,
                     const uint32_t* xs, std::size_t count);

}  // namespace husk
