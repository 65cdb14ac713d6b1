// Whole-corpus throughput of husk extract, beside the baseline of Gumbo
// merely parsing the same raw pages, in one run (the machines are noisy, so
// only same-run ratios mean much); and of normalisation and each signer on
// the clean text extracted from the same pages.
//
//   husk_bench --corpus DIR [--site DIR] [google-benchmark flags]
//
// The pages are read and gunzipped once, before timing. Rates: pages/s and
// bytes/s of raw HTML.
//   GumboParseRaw      gumbo_parse + gumbo_destroy_output, default options
//   Prescan            husk's prescan alone
//   Parse              prescan + Gumbo with husk's arena (husk::parse)
//   Extract/auto/jobs:N  husk extract's default: decode + parse + segment +
//                      features + page type + learned extractor + JSON record,
//                      N threads
//   Extract/density/jobs:1  the same with the density extractor (and the page
//                      type) instead of the learned one
//   BlockModel         the learned extractor's block model, every round, over
//                      the feature rows of every page (computed before timing)
//   Normalize          normalisation of the clean text (bytes/s of clean text)
//   NormalizeAndSignAll  normalisation + every signer
//   Sign/NAME          one signer on normalised text (Sign/all: every signer)
//   Site/density, Site/template   a multi-page site (--site): density alone,
//                      and template learning + extraction of every page
#include <benchmark/benchmark.h>
#include <gumbo.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "extract/features.h"
#include "extract/model.h"
#include "extract/registry.h"
#include "html/prescan.h"
#include "husk/processor.h"
#include "normalize/normalize_icu.h"

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

void Extract(benchmark::State& state, const char* extractor) {
  const auto jobs = static_cast<unsigned>(state.range(0));
  husk::ProcessorOptions options;
  options.extractor = extractor;
  husk::Result<husk::Processor> processor = husk::Processor::make(options);
  for (auto _ : state) {
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> out_bytes{0};
    auto worker = [&] {
      std::size_t bytes = 0;
      for (std::size_t i = next++; i < corpus().size(); i = next++) bytes += husk::to_jsonl(processor->process(corpus()[i])).size();
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

// The block model alone: the trees husk walks, every round, over each
// page's rows. Rates: pages/s and rows/s.
void BlockModel(benchmark::State& state) {
  husk::Result<std::shared_ptr<const husk::TreeModel>> model = husk::builtin_block_model();
  if (!model.ok()) {
    state.SkipWithError(model.status().message().c_str());
    return;
  }
  // Each page's blocks as extraction reads them (decoded, parsed,
  // segmented), and their rows as the learned extractor computes them.
  const husk::ProcessorOptions defaults;
  husk::Result<husk::Processor> processor = husk::Processor::make(defaults);
  const husk::ExtractConfig& config = husk::default_extract_config();
  husk::FeatureExtractor features(config);
  std::unique_ptr<husk::Extractor> density = husk::make_density_extractor(config);
  std::vector<std::vector<float>> rows;
  std::size_t row_count = 0;
  for (const auto& page : corpus()) {
    const husk::Document analyzed = processor->analyze(page, false);
    if (analyzed.blocks.blocks.empty()) continue;
    rows.push_back(
        husk::compute_page_features(features, *density, husk::PageView{analyzed.blocks, nullptr, "", page.source}).rows);
    row_count += analyzed.blocks.blocks.size();
  }
  const std::size_t columns = features.columns();
  const int rounds = (*model)->rounds();
  for (auto _ : state)
    for (const auto& r : rows) benchmark::DoNotOptimize((*model)->margins(r.data(), r.size() / columns, columns, 0, rounds));
  state.counters["pages/s"] =
      benchmark::Counter(static_cast<double>(rows.size() * state.iterations()), benchmark::Counter::kIsRate);
  state.counters["rows/s"] =
      benchmark::Counter(static_cast<double>(row_count * state.iterations()), benchmark::Counter::kIsRate);
}

// A multi-page site (--site DIR): template learning + extraction of every
// page against density alone, in the same run. Rates: pages/s of the site.
std::vector<husk::RawPage>& site_pages() {
  static std::vector<husk::RawPage> pages;
  return pages;
}

void SiteDensity(benchmark::State& state) {
  const husk::ProcessorOptions defaults;
  husk::Result<husk::Processor> processor = husk::Processor::make(defaults);
  for (auto _ : state)
    for (const auto& page : site_pages()) benchmark::DoNotOptimize(processor->process(page));
  state.counters["pages/s"] = benchmark::Counter(static_cast<double>(site_pages().size() * state.iterations()),
                                                 benchmark::Counter::kIsRate);
}

// Analyse every page, learn the site's templates, label and finish each.
void SiteTemplate(benchmark::State& state) {
  for (auto _ : state) {
    husk::ProcessorOptions options;
    options.extractor = "template";
    auto store = husk::TemplateStore::in_memory();
    options.templates = store;
    husk::Result<husk::Processor> processor = husk::Processor::make(options);
    std::vector<husk::Document> analyzed;
    for (const auto& page : site_pages()) analyzed.push_back(processor->analyze(page, false));
    std::vector<husk::TemplatePage> pages;
    for (const auto& a : analyzed) pages.push_back({a.result.url, a.result.source, &a.blocks});
    for (const auto& [group, model] : husk::learn_templates(pages, husk::TemplateOptions{}))
      store->put(group, model).ignore();
    for (auto& a : analyzed) benchmark::DoNotOptimize(processor->finish(std::move(a)));
  }
  state.counters["pages/s"] = benchmark::Counter(static_cast<double>(site_pages().size() * state.iterations()),
                                                 benchmark::Counter::kIsRate);
}

// Normalisation and signing run over the clean text density extracts from
// the corpus (extracted once, before timing). Rates: bytes/s of clean text.
std::vector<std::string>& clean_texts() {
  static std::vector<std::string> texts;
  return texts;
}

std::size_t clean_bytes() {
  std::size_t n = 0;
  for (const auto& t : clean_texts()) n += t.size();
  return n;
}

void report_text(benchmark::State& state) {
  state.counters["pages/s"] = benchmark::Counter(static_cast<double>(clean_texts().size() * state.iterations()),
                                                 benchmark::Counter::kIsRate);
  state.SetBytesProcessed(static_cast<int64_t>(clean_bytes() * state.iterations()));
}

void Normalize(benchmark::State& state) {
  for (auto _ : state)
    for (const auto& t : clean_texts()) benchmark::DoNotOptimize(husk::normalize(t));
  report_text(state);
}

// The baseline of Normalize: every paragraph through ICU's iterators, the
// ASCII path left out.
void NormalizeByIcu(benchmark::State& state) {
  for (auto _ : state)
    for (const auto& t : clean_texts()) benchmark::DoNotOptimize(husk::normalize_by_icu(t));
  report_text(state);
}

// One signer (or all, "all") over already normalised text.
void Sign(benchmark::State& state, const std::string& signer) {
  std::vector<husk::NormalizedText> normalized;
  for (const auto& t : clean_texts()) normalized.push_back(husk::normalize(t));
  husk::SignOptions options;
  if (signer != "all") options.signers = {signer};
  for (auto _ : state)
    for (const auto& n : normalized) benchmark::DoNotOptimize(husk::sign(n, options, nullptr));
  report_text(state);
}

// Normalisation and every signer, the whole of `husk sign` but JSON.
void NormalizeAndSignAll(benchmark::State& state) {
  husk::SignOptions options;
  for (auto _ : state)
    for (const auto& t : clean_texts()) benchmark::DoNotOptimize(husk::sign(husk::normalize(t), options, nullptr));
  report_text(state);
}

BENCHMARK(Normalize)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(NormalizeByIcu)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(NormalizeAndSignAll)->Unit(benchmark::kMillisecond)->MinTime(1.0);

BENCHMARK(GumboParseRaw)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(Prescan)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(Parse)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK_CAPTURE(Extract, auto, "auto")
    ->ArgName("jobs")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);
BENCHMARK_CAPTURE(Extract, density, "density")->ArgName("jobs")->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BlockModel)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace

int main(int argc, char** argv) {
  std::string dir, site;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--corpus") == 0 && i + 1 < argc) {
      dir = argv[++i];
    } else if (std::strcmp(argv[i], "--site") == 0 && i + 1 < argc) {
      site = argv[++i];
    } else {
      rest.push_back(argv[i]);
    }
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: husk_bench --corpus DIR [--site DIR] [benchmark flags]\n");
    return 2;
  }
  husk::ingest({dir}, husk::IngestOptions{}, [](husk::RawPage&& page) {
    if (page.status.ok()) corpus().push_back(std::move(page));
    return true;
  });
  if (corpus().empty()) {
    std::fprintf(stderr, "husk_bench: no pages under %s\n", dir.c_str());
    return 1;
  }
  std::fprintf(stderr, "corpus: %zu pages, %.1f MB of raw HTML\n", corpus().size(), static_cast<double>(corpus_bytes()) / 1e6);
  const husk::ProcessorOptions defaults;
  husk::Result<husk::Processor> processor = husk::Processor::make(defaults);
  for (const auto& page : corpus()) clean_texts().push_back(processor->process(page).text);
  std::fprintf(stderr, "clean text: %.2f MB\n", static_cast<double>(clean_bytes()) / 1e6);
  for (const std::string& signer : husk::signer_names())
    benchmark::RegisterBenchmark(("Sign/" + signer).c_str(), Sign, signer)->Unit(benchmark::kMillisecond)->MinTime(0.5);
  benchmark::RegisterBenchmark("Sign/all", Sign, std::string("all"))->Unit(benchmark::kMillisecond)->MinTime(0.5);
  if (!site.empty()) {
    husk::ingest({site}, husk::IngestOptions{}, [](husk::RawPage&& page) {
      if (page.status.ok()) site_pages().push_back(std::move(page));
      return true;
    });
    std::fprintf(stderr, "site: %zu pages under %s\n", site_pages().size(), site.c_str());
    benchmark::RegisterBenchmark("Site/density", SiteDensity)->Unit(benchmark::kMillisecond)->MinTime(2.0);
    benchmark::RegisterBenchmark("Site/template", SiteTemplate)->Unit(benchmark::kMillisecond)->MinTime(2.0);
  }
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
