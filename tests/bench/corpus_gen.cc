// A synthetic corpus for the dedup scale benchmark, with its planted truth.
//
//   husk_corpus_gen --docs N [--seed S] [--copies 0.1] -o docs.jsonl [--truth truth.jsonl]
//
// Documents are 80-220 words drawn from a Zipfian vocabulary (exponent 1,
// 50,000 words: the shape of word frequencies in natural text, Zipf 1949;
// the same shape text-dedup's and datasketch's benchmarks draw from). A
// share `copies` of the documents are near-copies of an earlier document
// (an original, uniformly chosen), made by a known number of
// word edits (substitution, insertion or deletion, each equally likely) at
// one of the rates 0, 1, 2, 5, 10 or 20% of the words. Each line of the
// corpus is {"id": "dNNNNNNNN", "text": "..."}; each line of the truth is
// {"a": ORIGINAL, "b": COPY, "edits": E}. The same seed writes the same
// bytes on every machine (mt19937_64, no library distributions). An
// original is drawn from its own generator, seeded by its number, so a
// copy re-draws it instead of the generator keeping every document.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

// Pronounceable words from syllables, distinct by construction (the word
// is its index written in base-24 syllables).
std::vector<std::string> vocabulary(std::size_t n) {
  static const char* const kSyllables[] = {"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "pe", "da", "go", "hu",
                                           "ba", "ze", "fi", "jo", "wa", "ye", "xu", "qo", "ci", "tha", "sho", "ri"};
  std::vector<std::string> words;
  words.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::string w;
    std::size_t v = i;
    do {
      w += kSyllables[v % 24];
      v /= 24;
    } while (v > 0);
    words.push_back(w);
  }
  return words;
}

// Uniform double in [0, 1) from the top 53 bits.
double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

struct Zipf {
  std::vector<double> cdf;
  explicit Zipf(std::size_t n) : cdf(n) {
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) cdf[i] = sum += 1.0 / static_cast<double>(i + 1);
    for (double& c : cdf) c /= sum;
  }
  uint32_t operator()(std::mt19937_64& rng) const {
    double u = uniform(rng);
    auto it = std::upper_bound(cdf.begin(), cdf.end(), u);
    return static_cast<uint32_t>(std::min<std::size_t>(it - cdf.begin(), cdf.size() - 1));
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("Writes a synthetic corpus with planted near-copies (the dedup scale benchmark's input)");
  uint64_t docs = 100000, seed = 1;
  double copies = 0.1;
  std::string output, truth;
  app.add_option("--docs", docs, "Documents to write")->capture_default_str();
  app.add_option("--seed", seed, "Random seed")->capture_default_str();
  app.add_option("--copies", copies, "Share of documents that are near-copies")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  app.add_option("-o,--output", output, "Corpus JSONL")->required();
  app.add_option("--truth", truth, "Planted pairs JSONL");
  CLI11_PARSE(app, argc, argv);

  std::FILE* out = std::fopen(output.c_str(), "wb");
  std::FILE* tr = truth.empty() ? nullptr : std::fopen(truth.c_str(), "wb");
  if (!out || (!truth.empty() && !tr)) {
    std::fprintf(stderr, "husk_corpus_gen: cannot write %s\n", !out ? output.c_str() : truth.c_str());
    return 1;
  }
  const std::vector<std::string> words = vocabulary(50000);
  const Zipf zipf(words.size());
  const double kRates[] = {0.0, 0.01, 0.02, 0.05, 0.10, 0.20};
  std::mt19937_64 rng(seed);
  auto original = [&](uint64_t d) {
    std::mt19937_64 own(seed * 0x9E3779B97F4A7C15ull + d);
    std::vector<uint32_t> doc(80 + own() % 141);
    for (uint32_t& w : doc) w = zipf(own);
    return doc;
  };
  std::vector<uint64_t> originals;
  std::string line;
  for (uint64_t d = 0; d < docs; ++d) {
    std::vector<uint32_t> doc;
    if (!originals.empty() && uniform(rng) < copies) {
      uint64_t source = originals[rng() % originals.size()];
      doc = original(source);
      double rate = kRates[rng() % std::size(kRates)];
      auto edits = static_cast<uint64_t>(std::llround(rate * static_cast<double>(doc.size())));
      for (uint64_t e = 0; e < edits && !doc.empty(); ++e) {
        std::size_t at = rng() % doc.size();
        switch (rng() % 3) {
          case 0: doc[at] = zipf(rng); break;
          case 1: doc.insert(doc.begin() + static_cast<std::ptrdiff_t>(at), zipf(rng)); break;
          default: doc.erase(doc.begin() + static_cast<std::ptrdiff_t>(at)); break;
        }
      }
      if (tr) std::fprintf(tr, "{\"a\":\"d%08llu\",\"b\":\"d%08llu\",\"edits\":%llu}\n",
                           static_cast<unsigned long long>(source), static_cast<unsigned long long>(d),
                           static_cast<unsigned long long>(edits));
    } else {
      doc = original(d);
      originals.push_back(d);
    }
    line.clear();
    char id[32];
    std::snprintf(id, sizeof(id), "d%08llu", static_cast<unsigned long long>(d));
    line += "{\"id\":\"";
    line += id;
    line += "\",\"text\":\"";
    for (std::size_t i = 0; i < doc.size(); ++i) {
      if (i > 0) line += (i % 17 == 0) ? ". " : " ";
      line += words[doc[i]];
    }
    line += ".\"}\n";
    std::fwrite(line.data(), 1, line.size(), out);
  }
  bool ok = std::fclose(out) == 0;
  if (tr) ok = std::fclose(tr) == 0 && ok;
  if (!ok) {
    std::fprintf(stderr, "husk_corpus_gen: write failed\n");
    return 1;
  }
  return 0;
}
