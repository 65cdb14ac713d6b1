// The dedup scale benchmark: runs a husk dedup command on a generated
// corpus (husk_corpus_gen), times it from outside, and scores its output.
//
//   husk_dedup_scale --corpus docs.jsonl --truth truth.jsonl --out DIR -- COMMAND...
//
// COMMAND must write clusters to DIR/clusters.jsonl and pairs to
// DIR/pairs.jsonl (husk dedup -o ... --pairs ...). Printed: wall seconds,
// pages/s, the peak resident memory of the largest process (wait4's
// ru_maxrss over the command's processes), then
//   recall     planted pairs whose true Jaccard similarity (word
//              5-shingles of the normalised text, exact) reaches the
//              threshold that ended in one cluster
//   precision  on the first --sample documents: reported pairs whose true
//              similarity reaches the threshold, against all pairs there
//              found by brute force (every pair sharing a shingle compared
//              exactly)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

#include "dedup/search.h"
#include "husk/normalize.h"
#include "husk/sign.h"

namespace {

// Every distinct shingle of a text (a sketch as long as the text).
std::vector<uint32_t> shingles(const std::string& text) {
  husk::SignOptions options;
  options.signers = {"minhash"};
  options.minhash_sketch = UINT32_MAX;
  return husk::sign(husk::normalize(text, options.normalize), options, nullptr).shingles;
}

// Exact: sketches as long as the texts are the whole shingle sets.
double jaccard(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  return husk::sketch_jaccard(a, b, UINT32_MAX);
}

using Key = std::pair<std::string, std::string>;
struct KeyHash {
  std::size_t operator()(const Key& k) const { return std::hash<std::string>{}(k.first + '\t' + k.second); }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("Times a husk dedup command on a generated corpus and scores it against the planted truth");
  std::string corpus, truth, out;
  std::size_t sample = 20000;
  double threshold = 0.5;
  std::vector<std::string> command;
  app.add_option("--corpus", corpus, "husk_corpus_gen output")->required();
  app.add_option("--truth", truth, "husk_corpus_gen --truth output")->required();
  app.add_option("--out", out, "Where the command writes clusters.jsonl and pairs.jsonl")->required();
  app.add_option("--sample", sample, "Documents the brute-force precision covers")->capture_default_str();
  app.add_option("--threshold", threshold, "Jaccard threshold of the command")->capture_default_str();
  app.add_option("command", command, "The command (after --)")->required();
  CLI11_PARSE(app, argc, argv);

  // ---- run and time ----
  std::string shell;
  for (const std::string& part : command) shell += part + " ";
  auto start = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", shell.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rusage children{};
  getrusage(RUSAGE_CHILDREN, &children);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "husk_dedup_scale: the command failed: %s\n", shell.c_str());
    return 1;
  }

  // ---- the corpus: ids in order, texts of the documents scored ----
  std::unordered_set<std::string> needed;
  std::vector<std::pair<std::string, std::string>> planted;
  {
    std::ifstream in(truth);
    std::string line;
    while (std::getline(in, line)) {
      auto j = nlohmann::json::parse(line);
      planted.emplace_back(j["a"], j["b"]);
      needed.insert(j["a"].get<std::string>());
      needed.insert(j["b"].get<std::string>());
    }
  }
  std::unordered_map<std::string, std::vector<uint32_t>> sets;
  std::vector<std::string> sample_ids;
  std::size_t documents = 0;
  {
    std::ifstream in(corpus);
    std::string line;
    while (std::getline(in, line)) {
      bool in_sample = documents++ < sample;
      // The id comes first in husk_corpus_gen's lines.
      std::size_t at = line.find("\"id\":\"");
      std::string id = line.substr(at + 6, line.find('"', at + 6) - at - 6);
      if (!in_sample && !needed.count(id)) continue;
      auto j = nlohmann::json::parse(line);
      sets[id] = shingles(j["text"].get<std::string>());
      if (in_sample) sample_ids.push_back(id);
    }
  }

  // ---- recall of the planted pairs ----
  std::unordered_map<std::string, std::size_t> cluster_of;
  {
    std::ifstream in(out + "/clusters.jsonl");
    std::string line;
    while (std::getline(in, line)) {
      auto j = nlohmann::json::parse(line);
      for (const auto& m : j["members"]) cluster_of[m.get<std::string>()] = j["cluster"].get<std::size_t>();
    }
  }
  std::size_t above = 0, found = 0;
  for (const auto& [a, b] : planted) {
    if (jaccard(sets[a], sets[b]) < threshold) continue;
    ++above;
    auto ca = cluster_of.find(a), cb = cluster_of.find(b);
    found += ca != cluster_of.end() && cb != cluster_of.end() && ca->second == cb->second;
  }

  // ---- precision on the sample, against brute force ----
  std::unordered_set<std::string> in_sample(sample_ids.begin(), sample_ids.end());
  std::unordered_set<Key, KeyHash> reported;
  {
    std::ifstream in(out + "/pairs.jsonl");
    std::string line;
    while (std::getline(in, line)) {
      auto j = nlohmann::json::parse(line);
      std::string a = j["a"], b = j["b"];
      if (in_sample.count(a) && in_sample.count(b)) reported.insert({a, b});
    }
  }
  std::unordered_map<uint32_t, std::vector<uint32_t>> postings;
  for (uint32_t i = 0; i < sample_ids.size(); ++i)
    for (uint32_t s : sets[sample_ids[i]]) postings[s].push_back(i);
  std::unordered_set<uint64_t> compared;
  std::size_t truly = 0, reported_true = 0;
  for (const auto& [s, docs] : postings)
    for (std::size_t x = 0; x < docs.size(); ++x)
      for (std::size_t y = x + 1; y < docs.size(); ++y) {
        uint64_t key = static_cast<uint64_t>(docs[x]) << 32 | docs[y];
        if (!compared.insert(key).second) continue;
        const std::string& a = sample_ids[docs[x]];
        const std::string& b = sample_ids[docs[y]];
        if (jaccard(sets[a], sets[b]) >= threshold) {
          ++truly;
          reported_true += reported.count({a, b});
        }
      }

  std::printf("documents        %zu\n", documents);
  std::printf("wall             %.2f s\n", wall);
  std::printf("pages/s          %.0f\n", static_cast<double>(documents) / wall);
  std::printf("peak memory      %.0f MB (largest process)\n",
              static_cast<double>(std::max(usage.ru_maxrss, children.ru_maxrss)) / 1024.0);
  std::printf("planted recall   %.4f (%zu of %zu planted pairs with Jaccard >= %.2f)\n",
              above ? static_cast<double>(found) / static_cast<double>(above) : 1.0, found, above, threshold);
  std::printf("sample precision %.4f (%zu of %zu reported pairs in the first %zu documents)\n",
              reported.empty() ? 1.0 : static_cast<double>(reported_true) / static_cast<double>(reported.size()),
              reported_true, reported.size(), sample_ids.size());
  std::printf("sample recall    %.4f (%zu of %zu pairs brute force finds)\n",
              truly ? static_cast<double>(reported_true) / static_cast<double>(truly) : 1.0, reported_true, truly);
  return 0;
}
