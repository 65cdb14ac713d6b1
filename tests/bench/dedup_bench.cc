// Near-duplicate search at scale: 1,000,000 simhash fingerprints (random,
// plus planted clusters of near-duplicates) clustered at k = 3 with the
// permuted tables, beside brute force on 50,000 (the same k) in the same
// run. Peak resident memory is reported as the counter peak_MB.
//
//   husk_dedup_bench [google-benchmark flags]
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <random>

#include "dedup/search.h"

namespace {

// One page in ten starts a planted cluster of up to 4 copies with up to 3
// bits flipped each.
std::vector<uint64_t> fingerprints(std::size_t n) {
  std::mt19937_64 rng(1);
  std::vector<uint64_t> fp;
  fp.reserve(n);
  while (fp.size() < n) {
    uint64_t centre = rng();
    fp.push_back(centre);
    if (rng() % 10 != 0) continue;
    for (int m = 0; m < 4 && fp.size() < n; ++m) {
      uint64_t v = centre;
      for (uint64_t f = 0, flips = rng() % 4; f < flips; ++f) v ^= 1ull << (rng() % 64);
      fp.push_back(v);
    }
  }
  return fp;
}

double peak_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// Pairs and connected components, as husk dedup --method simhash --k 3 does.
void SimhashTablesAndClusters(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<uint64_t> fp = fingerprints(n);
  std::size_t pairs = 0, clusters = 0;
  for (auto _ : state) {
    std::vector<husk::Pair> found = husk::simhash_table_pairs(fp, 3);
    clusters = husk::cluster_pairs(n, found, husk::ClusterMethod::kComponents).size();
    pairs = found.size();
  }
  state.counters["pairs"] = static_cast<double>(pairs);
  state.counters["clusters"] = static_cast<double>(clusters);
  state.counters["peak_MB"] = peak_mb();
}

void SimhashBruteForce(benchmark::State& state) {
  std::vector<uint64_t> fp = fingerprints(static_cast<std::size_t>(state.range(0)));
  std::size_t pairs = 0;
  for (auto _ : state) pairs = husk::simhash_brute_pairs(fp, 3).size();
  state.counters["pairs"] = static_cast<double>(pairs);
}

BENCHMARK(SimhashTablesAndClusters)->Arg(50000)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(SimhashBruteForce)->Arg(50000)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
