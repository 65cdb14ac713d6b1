#include "eval/train.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

#include "base/url.h"
#include "eval/eval.h"
#include "extract/features.h"
#include "extract/registry.h"
#include "husk/normalize.h"
#include "ingest/gz_reader.h"
#include "base/ordered_batches.h"
#include "sign/hashing.h"

namespace husk {

namespace {

namespace fs = std::filesystem;

std::vector<std::string> lower_tokens(std::string_view text) {
  std::string lower = lower_case(text);
  std::vector<std::string> out;
  for (std::string_view t : word_tokens(lower)) out.emplace_back(t);
  return out;
}

uint64_t gram(std::string_view a, std::string_view b, std::string_view c) {
  return xxh64(a, 1) ^ (xxh64(b, 2) * 0x9E3779B97F4A7C15ull) ^ (xxh64(c, 3) * 0xC2B2AE3D27D4EB4Full);
}

// A page of the split read whole: its id, bytes and gold.
struct SplitPage {
  std::string id;
  RawPage raw;
  nlohmann::json gold;
};

}  // namespace

std::vector<uint32_t> token_ids(std::string_view text, std::unordered_map<std::string, uint32_t>& dictionary) {
  std::vector<uint32_t> out;
  for (std::string& t : lower_tokens(text)) {
    auto [it, inserted] = dictionary.try_emplace(std::move(t), static_cast<uint32_t>(dictionary.size()));
    out.push_back(it->second);
  }
  return out;
}

std::vector<float> gold_coverage(const Blocks& blocks, std::string_view gold) {
  std::vector<std::string> gold_tokens = lower_tokens(gold);
  std::vector<std::string> stream;
  std::vector<std::size_t> start(blocks.blocks.size() + 1, 0);
  for (std::size_t b = 0; b < blocks.blocks.size(); ++b) {
    start[b] = stream.size();
    for (std::string& t : lower_tokens(blocks.blocks[b].text)) stream.push_back(std::move(t));
  }
  start[blocks.blocks.size()] = stream.size();
  std::vector<uint8_t> covered(stream.size(), 0);
  if (gold_tokens.size() < 3) {
    std::unordered_set<std::string> words(gold_tokens.begin(), gold_tokens.end());
    for (std::size_t i = 0; i < stream.size(); ++i) covered[i] = words.count(stream[i]) > 0;
  } else {
    std::unordered_set<uint64_t> grams;
    for (std::size_t i = 0; i + 2 < gold_tokens.size(); ++i)
      grams.insert(gram(gold_tokens[i], gold_tokens[i + 1], gold_tokens[i + 2]));
    for (std::size_t i = 0; i + 2 < stream.size(); ++i)
      if (grams.count(gram(stream[i], stream[i + 1], stream[i + 2]))) covered[i] = covered[i + 1] = covered[i + 2] = 1;
  }
  std::vector<float> out(blocks.blocks.size(), 0.0f);
  for (std::size_t b = 0; b < blocks.blocks.size(); ++b) {
    std::size_t n = start[b + 1] - start[b], c = 0;
    for (std::size_t i = start[b]; i < start[b + 1]; ++i) c += covered[i];
    out[b] = n > 0 ? static_cast<float>(c) / static_cast<float>(n) : 0.0f;
  }
  return out;
}

double kept_f1(const TrainingPage& page, const std::vector<uint8_t>& keep) {
  std::size_t predicted = 0;
  std::unordered_map<uint32_t, int> counts;
  for (std::size_t b = 0; b < page.tokens.size() && b < keep.size(); ++b) {
    if (!keep[b]) continue;
    predicted += page.tokens[b].size();
    for (uint32_t t : page.tokens[b]) ++counts[t];
  }
  if (page.gold.empty()) return predicted == 0 ? 1.0 : 0.0;
  if (predicted == 0) return 0.0;
  std::size_t common = 0;
  for (uint32_t t : page.gold) {
    auto it = counts.find(t);
    if (it != counts.end() && it->second > 0) {
      --it->second;
      ++common;
    }
  }
  if (common == 0) return 0.0;
  double precision = static_cast<double>(common) / static_cast<double>(predicted);
  double recall = static_cast<double>(common) / static_cast<double>(page.gold.size());
  return 2 * precision * recall / (precision + recall);
}

Result<std::vector<TrainingPage>> collect_training_pages(const std::string& split, const Processor& processor,
                                                         const FeatureExtractor& features, unsigned jobs) {
  const fs::path root(split);
  std::error_code ec;
  std::vector<fs::path> golds;
  for (fs::directory_iterator it(root / "ground-truth", ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".json") golds.push_back(it->path());
  if (ec) return Status(Code::kIo, (root / "ground-truth").string() + ": " + ec.message());
  if (golds.empty()) return Status(Code::kNotFound, split + ": no ground-truth/*.json (a WCXB-layout split is needed)");
  std::sort(golds.begin(), golds.end());

  std::vector<SplitPage> split_pages;
  for (const fs::path& g : golds) {
    SplitPage p;
    p.id = g.stem().string();
    std::ifstream in(g, std::ios::binary);
    p.gold = nlohmann::json::parse(in, nullptr, false);
    if (p.gold.is_discarded() || !p.gold.is_object() || !p.gold.contains("ground_truth"))
      return Status(Code::kCorrupt, g.string() + ": not a WCXB ground-truth file");
    fs::path html = root / "html" / (p.id + ".html.gz");
    if (!fs::exists(html)) html = root / "html" / (p.id + ".html");
    GzReader reader;
    if (Status st = reader.open(html.string()); !st.ok()) return st;
    reader.read_all(p.raw.bytes, IngestOptions{}.max_page_bytes);
    if (!reader.status().ok()) return reader.status();
    p.raw.id = p.id;
    p.raw.source = html.string();
    split_pages.push_back(std::move(p));
  }

  std::unique_ptr<Extractor> density = make_density_extractor(processor.options().extract);
  struct Worked {
    TrainingPage page;
    std::vector<std::vector<std::string>> words;  // per block, then the gold's last
  };
  std::vector<TrainingPage> out;
  std::unordered_map<std::string, uint32_t> dictionary;
  auto work = [&](const SplitPage& sp) {
    Worked w;
    TrainingPage& t = w.page;
    t.id = sp.id;
    const nlohmann::json& truth = sp.gold["ground_truth"];
    std::string gold = truth.contains("main_content") && truth["main_content"].is_string()
                           ? truth["main_content"].get<std::string>()
                           : std::string();
    std::string url = sp.gold.contains("url") && sp.gold["url"].is_string() ? sp.gold["url"].get<std::string>() : "";
    t.domain = url_host(url);
    if (t.domain.rfind("www.", 0) == 0) t.domain.erase(0, 4);
    t.type = "article";
    if (auto internal = sp.gold.find("_internal"); internal != sp.gold.end() && internal->is_object()) {
      const nlohmann::json& pt = (*internal)["page_type"];
      if (pt.is_object() && pt.contains("primary") && pt["primary"].is_string()) t.type = pt["primary"].get<std::string>();
    }
    if (t.type == "category") t.type = "collection";
    Document d = processor.analyze(sp.raw, false);
    if (!d.result.status.ok()) return w;
    Labels density_labels = density->extract(PageView{d.blocks, nullptr, "", sp.id});
    t.x = features.rows(d.blocks, density_labels, "");
    t.coverage = gold_coverage(d.blocks, gold);
    for (const Block& b : d.blocks.blocks) t.block_element.push_back(b.element);
    for (const Element& e : d.blocks.elements) {
      t.parent.push_back(e.parent);
      t.first_block.push_back(e.first_block);
      t.end_block.push_back(e.end_block);
    }
    for (const Block& b : d.blocks.blocks) w.words.push_back(lower_tokens(b.text));
    w.words.push_back(lower_tokens(gold));
    return w;
  };
  auto intern = [&](std::vector<std::string>& words) {
    std::vector<uint32_t> ids;
    for (std::string& s : words) {
      auto [it, inserted] = dictionary.try_emplace(std::move(s), static_cast<uint32_t>(dictionary.size()));
      ids.push_back(it->second);
    }
    return ids;
  };
  OrderedBatches<SplitPage, Worked> batches(
      OrderedBatches<SplitPage, Worked>::resolve_jobs(jobs), work, [&](const SplitPage&, Worked& w) {
        if (w.words.empty()) w.words.emplace_back();
        for (std::size_t b = 0; b + 1 < w.words.size(); ++b) w.page.tokens.push_back(intern(w.words[b]));
        w.page.gold = intern(w.words.back());
        out.push_back(std::move(w.page));
      });
  for (SplitPage& p : split_pages) batches.push(std::move(p), 1);
  batches.finish();
  return out;
}

}  // namespace husk
