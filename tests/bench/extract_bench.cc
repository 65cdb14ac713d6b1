// Whole-corpus throughput of husk extract, beside the baseline of Gumbo
// merely parsing the same raw pages, in one run (the machines are noisy, so
// only same-run ratios mean much).
//
//   husk_bench --corpus DIR [google-benchmark flags]
//
// The pages are read and gunzipped once, before timing. Rates: pages/s and
// bytes/s of raw HTML.
//   GumboParseRaw      gumbo_parse + gumbo_destroy_output, default options
//   Prescan            husk's prescan alone
//   Parse              prescan + Gumbo with husk's arena (husk::parse)
//   Extract/jobs:N     decode + parse + segment + density + JSON record, N threads
#include <benchmark/benchmark.h>
#include <gumbo.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "husk/ingest.h"
#include "husk/pipeline.h"

namespace {

std::vector<husk::RawPage>& corpus() {
  static std::vector<husk::RawPage> pages;
  return pages;
}

std::size_t corpus_bytes() {
  std::size_t n = 0;
  for (const auto& p : corpus()) n += p.bytes.size();
  return n;
}

void report(benchmark::State& state) {
  state.counters["pages/s"] = benchmark::Counter(static_cast<double>(corpus().size() * state.iterations()),
                                                 benchmark::Counter::kIsRate);
  state.SetBytesProcessed(static_cast<int64_t>(corpus_bytes() * state.iterations()));
}

void GumboParseRaw(benchmark::State& state) {
  for (auto _ : state) {
    for (const auto& page : corpus()) {
      GumboOutput* out = gumbo_parse_with_options(&kGumboDefaultOptions, page.bytes.data(), page.bytes.size());
      benchmark::DoNotOptimize(out);
      gumbo_destroy_output(&kGumboDefaultOptions, out);
    }
  }
  report(state);
}

void Prescan(benchmark::State& state) {
  husk::ParseOptions options;
  for (auto _ : state)
    for (const auto& page : corpus()) benchmark::DoNotOptimize(husk::prescan(page.bytes, options));
  report(state);
}

void Parse(benchmark::State& state) {
  for (auto _ : state)
    for (const auto& page : corpus()) benchmark::DoNotOptimize(husk::parse(page.bytes));
  report(state);
}

void Extract(benchmark::State& state) {
  const auto jobs = static_cast<unsigned>(state.range(0));
  husk::Result<husk::Pipeline> pipeline = husk::Pipeline::make(husk::PipelineOptions{});
  for (auto _ : state) {
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> out_bytes{0};
    auto worker = [&] {
      std::size_t bytes = 0;
      for (std::size_t i = next++; i < corpus().size(); i = next++) bytes += husk::to_jsonl(pipeline->process(corpus()[i])).size();
      out_bytes += bytes;
    };
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
    worker();
    for (auto& t : threads) t.join();
    benchmark::DoNotOptimize(out_bytes.load());
  }
  report(state);
}

BENCHMARK(GumboParseRaw)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(Prescan)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(Parse)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(Extract)->ArgName("jobs")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

}  // namespace

int main(int argc, char** argv) {
  std::string dir;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--corpus") == 0 && i + 1 < argc) {
      dir = argv[++i];
    } else {
      rest.push_back(argv[i]);
    }
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: husk_bench --corpus DIR [benchmark flags]\n");
    return 2;
  }
  husk::ingest({dir}, husk::IngestOptions{}, [](husk::RawPage&& page) {
    if (page.error.empty()) corpus().push_back(std::move(page));
    return true;
  });
  if (corpus().empty()) {
    std::fprintf(stderr, "husk_bench: no pages under %s\n", dir.c_str());
    return 1;
  }
  std::fprintf(stderr, "corpus: %zu pages, %.1f MB of raw HTML\n", corpus().size(), static_cast<double>(corpus_bytes()) / 1e6);
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
