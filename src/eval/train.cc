#include "eval/train.h"


#include <algorithm>
#include <filesystem>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <set>
#include <unordered_set>

#include "base/text_util.h"
#include "base/url.h"
#include "eval/eval.h"
#include "extract/features.h"
#include "extract/furniture.h"
#include "extract/model.h"
#include "extract/page_type.h"
#include "extract/registry.h"
#include "extract/repeats.h"
#include "extract/xgboost_library.h"
#include "husk/html.h"
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

// A page of a gold set read whole: its bytes, gold text and what the gold
// says about it.
struct SplitPage {
  RawPage raw;
  std::string gold, url, host, type, source, language;
  bool snippet_gold = false;  // a snippet set's page: `keep` and `drop` instead of `gold`
  std::vector<std::string> keep, drop;
};

Status read_html(const fs::path& html, const std::string& id, SplitPage& p) {
  GzReader reader;
  if (Status st = reader.open(html.string()); !st.ok()) return st;
  reader.read_all(p.raw.bytes, IngestOptions{}.max_page_bytes);
  if (!reader.status().ok()) return reader.status();
  p.raw.id = id;
  p.raw.source = html.string();
  return Status();
}

std::string string_at(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A WCXB-layout split: ground-truth/NNNN.json beside html/NNNN.html.gz.
Status read_wcxb(const fs::path& root, std::vector<SplitPage>& out) {
  std::error_code ec;
  std::vector<fs::path> golds;
  for (fs::directory_iterator it(root / "ground-truth", ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".json") golds.push_back(it->path());
  if (ec) return Status(Code::kIo, (root / "ground-truth").string() + ": " + ec.message());
  if (golds.empty()) return Status(Code::kNotFound, root.string() + ": no ground-truth/*.json");
  std::sort(golds.begin(), golds.end());
  for (const fs::path& g : golds) {
    SplitPage p;
    std::ifstream in(g, std::ios::binary);
    nlohmann::json gold = nlohmann::json::parse(in, nullptr, false);
    if (gold.is_discarded() || !gold.is_object() || !gold.contains("ground_truth") || !gold["ground_truth"].is_object())
      return Status(Code::kCorrupt, g.string() + ": not a WCXB ground-truth file");
    p.gold = string_at(gold["ground_truth"], "main_content");
    p.url = string_at(gold, "url");
    p.host = string_at(gold, "host");  // daniel-dev names its page's host, not its URL
    p.language = string_at(gold, "language");
    p.type = "article";
    if (auto internal = gold.find("_internal"); internal != gold.end() && internal->is_object()) {
      auto pt = internal->find("page_type");
      if (pt != internal->end() && pt->is_object() && !string_at(*pt, "primary").empty())
        p.type = string_at(*pt, "primary");
    }
    if (p.type == "category") p.type = "collection";
    const std::string id = g.stem().string();
    fs::path html = root / "html" / (id + ".html.gz");
    if (!fs::exists(html)) html = root / "html" / (id + ".html");
    if (Status st = read_html(html, id, p); !st.ok()) return st;
    out.push_back(std::move(p));
  }
  return Status();
}

// The page's file beside a JSON gold: html/<name>(.gz) or html/<name>.html(.gz).
fs::path html_beside(const fs::path& file, const std::string& name) {
  for (const std::string& candidate : {name + ".html.gz", name + ".html", name + ".gz", name})
    if (fs::exists(file.parent_path() / "html" / candidate)) return file.parent_path() / "html" / candidate;
  return file.parent_path() / "html" / (name + ".html.gz");
}

// A JSON gold file: the article-extraction-benchmark's layout ({id:
// {articleBody, url}}, every page an article) or a snippet set's
// (trafilatura's evaldata.json: {url: {file, with, without}}), each with
// its pages in html/ beside it. A snippet set's key is the page's URL, or
// "hard::<host>-<slug>" for the pages it names by file.
Status read_json_gold(const fs::path& file, std::vector<SplitPage>& out) {
  std::ifstream in(file, std::ios::binary);
  nlohmann::json gold = nlohmann::json::parse(in, nullptr, false);
  if (gold.is_discarded() || !gold.is_object())
    return Status(Code::kCorrupt, file.string() + ": not a JSON object of pages");
  for (const auto& [key, entry] : gold.items()) {
    if (!entry.is_object())
      return Status(Code::kCorrupt, file.string() + ": entry \"" + key + "\" is not an object");
    SplitPage p;
    p.type = "article";
    std::string name = key;
    if (entry.contains("articleBody")) {
      p.gold = string_at(entry, "articleBody");
      p.url = string_at(entry, "url");
    } else if (entry.contains("with") || entry.contains("without")) {
      p.snippet_gold = true;
      p.keep = strings_of(entry, "with");
      p.drop = strings_of(entry, "without");
      if (!string_at(entry, "file").empty()) name = string_at(entry, "file");
      if (key.rfind("hard::", 0) == 0) {
        const std::size_t dash = key.find('-', 6);
        p.host = key.substr(6, dash == std::string::npos ? std::string::npos : dash - 6);
      } else {
        p.url = key;
      }
    } else {
      return Status(Code::kCorrupt, file.string() + ": entry \"" + key +
                                        "\" has neither articleBody nor with/without snippets");
    }
    if (Status st = read_html(html_beside(file, name), name, p); !st.ok()) return st;
    out.push_back(std::move(p));
  }
  return Status();
}

}  // namespace

std::vector<uint32_t> token_ids(std::string_view text, std::unordered_map<std::string, uint32_t>& dictionary) {
  std::vector<uint32_t> out;
  for (std::string& t : lower_tokens(text)) {
    auto [it, inserted] = dictionary.try_emplace(std::move(t), static_cast<uint32_t>(dictionary.size()));
    out.push_back(it->second);
  }
  return out;
}

TextCoverage text_coverage(const Blocks& blocks, const std::vector<std::string>& texts) {
  std::vector<std::string> stream;
  std::vector<uint32_t> block_of;
  for (std::size_t b = 0; b < blocks.blocks.size(); ++b)
    for (std::string& t : lower_tokens(blocks.blocks[b].text)) {
      stream.push_back(std::move(t));
      block_of.push_back(static_cast<uint32_t>(b));
    }
  std::vector<uint8_t> covered(stream.size(), 0);
  TextCoverage out;
  out.blocks.resize(texts.size());
  out.places.resize(texts.size());
  for (std::size_t t = 0; t < texts.size(); ++t) {
    std::vector<std::string> text_tokens = lower_tokens(texts[t]);
    for (std::size_t i = 0; !text_tokens.empty() && i + text_tokens.size() <= stream.size(); ++i) {
      if (!std::equal(text_tokens.begin(), text_tokens.end(), stream.begin() + static_cast<std::ptrdiff_t>(i)))
        continue;
      std::vector<uint32_t> spanned;
      for (std::size_t k = i; k < i + text_tokens.size(); ++k)
        if (spanned.empty() || spanned.back() != block_of[k]) spanned.push_back(block_of[k]);
      out.places[t].push_back(std::move(spanned));
    }
    std::vector<uint8_t> here(stream.size(), 0);
    if (text_tokens.size() < 3) {
      std::unordered_set<std::string> words(text_tokens.begin(), text_tokens.end());
      for (std::size_t i = 0; i < stream.size(); ++i) here[i] = words.count(stream[i]) > 0;
    } else {
      std::unordered_set<uint64_t> grams;
      for (std::size_t i = 0; i + 2 < text_tokens.size(); ++i)
        grams.insert(gram(text_tokens[i], text_tokens[i + 1], text_tokens[i + 2]));
      for (std::size_t i = 0; i + 2 < stream.size(); ++i)
        if (grams.count(gram(stream[i], stream[i + 1], stream[i + 2]))) here[i] = here[i + 1] = here[i + 2] = 1;
    }
    for (std::size_t i = 0; i < stream.size(); ++i) {
      if (!here[i]) continue;
      covered[i] = 1;
      if (out.blocks[t].empty() || out.blocks[t].back() != block_of[i]) out.blocks[t].push_back(block_of[i]);
    }
  }
  std::vector<std::size_t> n(blocks.blocks.size(), 0), c(blocks.blocks.size(), 0);
  for (std::size_t i = 0; i < stream.size(); ++i) {
    ++n[block_of[i]];
    c[block_of[i]] += covered[i];
  }
  out.share.assign(blocks.blocks.size(), 0.0f);
  for (std::size_t b = 0; b < blocks.blocks.size(); ++b)
    out.share[b] = n[b] > 0 ? static_cast<float>(c[b]) / static_cast<float>(n[b]) : 0.0f;
  return out;
}

std::vector<float> gold_coverage(const Blocks& blocks, std::string_view gold) {
  return text_coverage(blocks, {std::string(gold)}).share;
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

std::string describe_collections(const std::vector<TrainingPage>& pages) {
  std::vector<std::string> order;
  std::map<std::string, std::pair<std::size_t, uint64_t>> sets;
  for (const TrainingPage& p : pages) {
    auto [it, inserted] = sets.try_emplace(p.source, 0, 0);
    if (inserted) order.push_back(p.source);
    ++it->second.first;
    it->second.second = it->second.second * 0x100000001B3ull ^ p.fingerprint;
  }
  std::string out;
  for (const std::string& name : order)
    out += (out.empty() ? "" : "; ") + name + " " + std::to_string(sets[name].first) + " pages xxh64 " +
           hex64(sets[name].second);
  return out;
}

void CollectionScore::add(const TrainingPage& page, const std::vector<uint8_t>& keep) {
  if (!page.snippet_gold) {
    f1_sum_ += kept_f1(page, keep);
    ++text_pages_;
    return;
  }
  auto all_kept = [&](const std::vector<uint32_t>& blocks) {
    bool kept = !blocks.empty();
    for (uint32_t b : blocks) kept = kept && b < keep.size() && keep[b];
    return kept;
  };
  for (const TrainingSnippet& s : page.snippets) {
    bool found = s.places.empty() && all_kept(s.blocks);
    for (const std::vector<uint32_t>& place : s.places) found = found || all_kept(place);
    if (s.keep) (found ? tp_ : fn_) += 1;
    else if (found) ++fp_;
  }
}

double CollectionScore::f1() const {
  if (text_pages_ > 0) return f1_sum_ / static_cast<double>(text_pages_);
  const double precision = tp_ + fp_ > 0 ? static_cast<double>(tp_) / static_cast<double>(tp_ + fp_) : 0.0;
  const double recall = tp_ + fn_ > 0 ? static_cast<double>(tp_) / static_cast<double>(tp_ + fn_) : 0.0;
  return precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
}

Result<std::vector<TrainingPage>> collect_training_pages(const std::vector<std::string>& gold_sets,
                                                         const Processor& processor, const FeatureExtractor& features,
                                                         unsigned jobs, const TrainingProgress& progress) {
  std::vector<SplitPage> split_pages;
  for (const std::string& set : gold_sets) {
    const fs::path path(set);
    std::string source = (fs::is_directory(path) ? path : path.parent_path()).filename().string();
    const std::size_t first = split_pages.size();
    Status st = fs::is_directory(path) ? read_wcxb(path, split_pages) : read_json_gold(path, split_pages);
    if (!st.ok()) return st;
    for (std::size_t i = first; i < split_pages.size(); ++i) split_pages[i].source = source;
  }

  std::unique_ptr<Extractor> density = make_density_extractor(processor.options().extract);
  const FurnitureLines furniture(processor.options().extract.furniture);
  struct Worked {
    TrainingPage page;
    std::vector<std::vector<std::string>> words;  // per block, then the gold's last
  };
  std::vector<TrainingPage> out;
  std::unordered_map<std::string, uint32_t> dictionary;
  auto work = [&](const SplitPage& sp) {
    Worked w;
    TrainingPage& t = w.page;
    t.id = sp.raw.id;
    t.source = sp.source;
    t.type = sp.type;
    t.language = sp.language;
    t.domain = sp.url.empty() ? sp.host : url_host(sp.url);
    if (t.domain.rfind("www.", 0) == 0) t.domain.erase(0, 4);
    uint64_t fingerprint = xxh64(sp.raw.bytes, 1) ^ (xxh64(sp.gold, 2) * 0x9E3779B97F4A7C15ull);
    for (const auto* list : {&sp.keep, &sp.drop})
      for (const std::string& snippet : *list) fingerprint = fingerprint * 0x100000001B3ull ^ xxh64(snippet, 3);
    t.fingerprint = fingerprint;
    Document d = processor.analyze(sp.raw, false);
    if (!d.result.status.ok()) return w;
    Labels density_labels = density->extract(PageView{d.blocks, nullptr, "", sp.raw.id});
    t.x = features.rows(d.blocks, density_labels);
    t.snippet_gold = sp.snippet_gold;
    // A gold cut from a page whose text was encoded twice is encoded twice
    // too ("LLCâ€™s": 13 WCXB dev golds), and only its repair matches the
    // blocks decode() repaired: labels come from the repaired gold, scores
    // from the gold as published (what `husk eval extract` reads).
    auto repaired = [](std::vector<std::string> texts) {
      for (std::string& text : texts) undo_double_encoding(text);
      return texts;
    };
    if (sp.snippet_gold) {
      TextCoverage kept = text_coverage(d.blocks, repaired(sp.keep));
      TextCoverage dropped = text_coverage(d.blocks, repaired(sp.drop));
      t.coverage = std::move(kept.share);
      t.drop_coverage = std::move(dropped.share);
      for (std::size_t i = 0; i < kept.blocks.size(); ++i)
        t.snippets.push_back({true, std::move(kept.blocks[i]), std::move(kept.places[i])});
      for (std::size_t i = 0; i < dropped.blocks.size(); ++i)
        t.snippets.push_back({false, std::move(dropped.blocks[i]), std::move(dropped.places[i])});
    } else {
      t.coverage = gold_coverage(d.blocks, repaired({sp.gold}).front());
    }
    for (const Block& b : d.blocks.blocks) t.block_element.push_back(b.element);
    for (const Element& e : d.blocks.elements) {
      t.parent.push_back(e.parent);
      t.first_block.push_back(e.first_block);
      t.end_block.push_back(e.end_block);
    }
    t.comment_sections = comment_sections(d.blocks, comment_vocabulary(processor.options().extract.families),
                                          processor.options().extract.vocabulary.comment_headings);
    t.comment_blocks = comment_blocks(d.blocks, t.comment_sections, word_counts(d.blocks));
    t.furniture = furniture_classes(d.blocks, furniture);
    for (const Block& b : d.blocks.blocks) t.link_line.push_back(is_link_line(b));
    t.teasers = teaser_lists(d.blocks);
    t.dateline = datelines(d.blocks);
    t.titled = title_headlines(d.blocks);
    t.sentences = sentence_ends(d.blocks);
    t.repeat_key = repeat_keys(d.blocks);
    for (const Block& b : d.blocks.blocks) w.words.push_back(lower_tokens(b.text));
    w.words.push_back(lower_tokens(sp.gold));
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
  const std::size_t total = split_pages.size();
  OrderedBatches<SplitPage, Worked> batches(
      OrderedBatches<SplitPage, Worked>::resolve_jobs(jobs), work, [&](const SplitPage&, Worked& w) {
        if (w.words.empty()) w.words.emplace_back();
        for (std::size_t b = 0; b + 1 < w.words.size(); ++b) w.page.tokens.push_back(intern(w.words[b]));
        w.page.gold = intern(w.words.back());
        out.push_back(std::move(w.page));
        if (progress) progress("analysing pages", out.size(), total);
      });
  for (SplitPage& p : split_pages) batches.push(std::move(p), 1);
  batches.finish();
  return out;
}

}  // namespace husk

// ---- training ----

namespace husk {

namespace {

// CrossValidation::furniture from the out-of-fold probabilities.
void furniture_by_class(const std::vector<TrainingPage>& pages, const std::vector<std::vector<float>>& scores,
                        const std::vector<std::vector<double>>& words, CrossValidation& cv) {
  uint8_t classes = 0;
  for (const TrainingPage& t : pages)
    for (uint8_t c : t.furniture) classes = std::max(classes, c);
  if (classes == 0) return;
  std::vector<uint8_t> measured;
  for (uint8_t c = 1; c <= classes && c < kEveryFurniture; ++c) measured.push_back(c);
  measured.push_back(kEveryFurniture);
  // What each page keeps with every class left in the text: the blocks a
  // class takes out are its blocks among them.
  std::vector<std::vector<uint8_t>> kept_with_all(pages.size());
  for (std::size_t p = 0; p < pages.size(); ++p)
    kept_with_all[p] = cv.kept(p, pages[p], scores[p], cv.threshold_of(p), words[p], kEveryFurniture).keep;
  for (uint8_t c : measured) {
    CrossValidation::Furniture& f = cv.furniture[c];
    std::map<std::string, CollectionScore> sources;
    for (std::size_t p = 0; p < pages.size(); ++p) {
      const TrainingPage& t = pages[p];
      sources[t.source].add(
          t, c == kEveryFurniture ? kept_with_all[p] : cv.kept(p, t, scores[p], cv.threshold_of(p), words[p], c).keep);
      const std::vector<uint8_t>& all = kept_with_all[p];
      for (std::size_t b = 0; b < t.furniture.size() && b < all.size(); ++b) {
        if (!all[b] || t.furniture[b] == 0 || (c != kEveryFurniture && t.furniture[b] != c)) continue;
        ++f.taken;
        if (b < t.coverage.size() && t.coverage[b] >= 0.5f) ++f.gold;
      }
    }
    for (const auto& [source, s] : sources) f.f1_left[source] = s.f1();
  }
}

// CrossValidation::teasers from the out-of-fold probabilities.
void teasers_measured(const std::vector<TrainingPage>& pages, const std::vector<std::vector<float>>& scores,
                      const std::vector<std::vector<double>>& words, CrossValidation& cv) {
  std::map<std::string, CollectionScore> sources;
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const TrainingPage& t = pages[p];
    const std::vector<uint8_t> without = cv.kept(p, t, scores[p], cv.threshold_of(p), words[p], 0, false).keep;
    sources[t.source].add(t, without);
    if (!cv.article_of(p) || t.teasers.lists.empty()) continue;
    const std::vector<uint8_t> with = cv.kept(p, t, scores[p], cv.threshold_of(p), words[p]).keep;
    for (std::size_t b = 0; b < without.size() && b < with.size(); ++b) {
      if (!without[b] || with[b]) continue;
      ++cv.teasers.taken;
      if (b < t.coverage.size() && t.coverage[b] >= 0.5f) ++cv.teasers.gold;
    }
  }
  for (const auto& [source, s] : sources) cv.teasers.f1_left[source] = s.f1();
}

struct Booster {
  BoosterHandle h = nullptr;
  ~Booster() {
    if (h != nullptr) xgboost().booster_free(h);
  }
};

struct Matrix {
  DMatrixHandle h = nullptr;
  ~Matrix() {
    if (h != nullptr) xgboost().dmatrix_free(h);
  }
};

// The rows of the chosen pages, their labels and weights.
Status matrix_of(const std::vector<TrainingPage>& pages, const std::vector<std::size_t>& chosen, std::size_t cols,
                 const BlockModelOptions& o, Matrix& m) {
  // Sized once: the matrix of all development pages is ~350 MB, and
  // growing it page by page copied it over and over.
  std::size_t cells = 0, blocks = 0;
  for (std::size_t p : chosen) {
    cells += pages[p].x.size();
    blocks += pages[p].coverage.size();
  }
  std::vector<float> x, label, weight;
  x.reserve(cells);
  label.reserve(blocks);
  weight.reserve(blocks);
  for (std::size_t p : chosen) {
    const TrainingPage& t = pages[p];
    x.insert(x.end(), t.x.begin(), t.x.end());
    // A snippet set's page labels only the blocks its snippets cover; the
    // others weigh nothing.
    auto labelled = [&](std::size_t b) {
      return !t.snippet_gold || t.coverage[b] >= o.label_cover || t.drop_coverage[b] >= o.label_cover;
    };
    double tokens = 0;
    for (std::size_t b = 0; b < t.tokens.size(); ++b)
      if (labelled(b)) tokens += static_cast<double>(t.tokens[b].size());
    auto named = o.collection_weight.find(t.source);
    const double page_weight = named == o.collection_weight.end() ? 1.0 : named->second;
    for (std::size_t b = 0; b < t.coverage.size(); ++b) {
      label.push_back(t.coverage[b] >= o.label_cover ? 1.0f : 0.0f);
      weight.push_back(labelled(b) ? static_cast<float>(page_weight * (static_cast<double>(t.tokens[b].size()) /
                                                                         std::max(1.0, tokens) + 0.001))
                                   : 0.0f);
    }
  }
  const bst_ulong rows = label.size();
  if (xgboost().dmatrix_create_from_mat(x.data(), rows, cols, NAN, &m.h) != 0) return xgboost_error("training matrix");
  if (xgboost().dmatrix_set_float_info(m.h, "label", label.data(), rows) != 0) return xgboost_error("labels");
  if (xgboost().dmatrix_set_float_info(m.h, "weight", weight.data(), rows) != 0) return xgboost_error("weights");
  return Status();
}

// Fits `b` to `m`; o.progress hears of each round as `doing`'s.
Status fit(const Matrix& m, const TreeOptions& o, const char* objective, int classes, Booster& b,
           const std::string& doing) {
  if (xgboost().booster_create(&m.h, 1, &b.h) != 0) return xgboost_error("booster");
  const std::string threads = std::to_string(std::max(1u, o.threads));
  const std::string seed = std::to_string(o.seed);
  const std::string depth = std::to_string(o.max_depth);
  const std::string eta = std::to_string(o.eta), subsample = std::to_string(o.subsample),
                    colsample = std::to_string(o.colsample), num_class = std::to_string(classes);
  const std::pair<const char*, const char*> params[] = {
      {"objective", objective},     {"tree_method", "hist"},          {"max_depth", depth.c_str()},
      {"eta", eta.c_str()},         {"subsample", subsample.c_str()}, {"colsample_bytree", colsample.c_str()},
      {"nthread", threads.c_str()}, {"seed", seed.c_str()},           {"verbosity", "0"}};
  for (const auto& [k, v] : params)
    if (xgboost().booster_set_param(b.h, k, v) != 0) return xgboost_error(std::string("parameter ") + k);
  if (classes > 1 && xgboost().booster_set_param(b.h, "num_class", num_class.c_str()) != 0)
    return xgboost_error("parameter num_class");
  const auto rounds = static_cast<std::size_t>(std::max(0, o.rounds));
  for (int round = 0; round < o.rounds; ++round) {
    if (xgboost().booster_update_one_iter(b.h, round, m.h) != 0) return xgboost_error("training");
    if (o.progress) o.progress(doing, static_cast<std::size_t>(round) + 1, rounds);
  }
  return Status();
}

Status fit(const Matrix& m, const BlockModelOptions& o, Booster& b, const std::string& doing) {
  return fit(m, o, "binary:logistic", 1, b, doing);
}

// The trained model with its feature names and attributes, in UBJSON.
Result<std::string> saved(const Booster& b, const std::vector<std::string>& names,
                          const std::vector<std::pair<std::string, std::string>>& attributes) {
  std::vector<const char*> name_ptrs;
  for (const std::string& n : names) name_ptrs.push_back(n.c_str());
  if (xgboost().booster_set_str_feature_info(b.h, "feature_name", name_ptrs.data(), name_ptrs.size()) != 0)
    return xgboost_error("feature names");
  for (const auto& [key, value] : attributes)
    if (xgboost().booster_set_attr(b.h, key.c_str(), value.c_str()) != 0) return xgboost_error("attributes");
  bst_ulong len = 0;
  const char* bytes = nullptr;
  if (xgboost().booster_save_model_to_buffer(b.h, "{\"format\": \"ubj\"}", &len, &bytes) != 0) return xgboost_error("saving");
  return std::string(bytes, len);
}

Result<std::vector<float>> predict(const Booster& b, const Matrix& m) {
  static const char* kConfig =
      "{\"type\": 0, \"training\": false, \"iteration_begin\": 0, \"iteration_end\": 0, \"strict_shape\": false}";
  const bst_ulong* shape = nullptr;
  bst_ulong dim = 0;
  const float* result = nullptr;
  if (xgboost().booster_predict_from_dmatrix(b.h, m.h, kConfig, &shape, &dim, &result) != 0) return xgboost_error("prediction");
  bst_ulong size = 1;
  for (bst_ulong d = 0; d < dim; ++d) size *= shape[d];
  return std::vector<float>(result, result + size);
}

// The pages the second block model is fitted to: their gold type is not
// an article (BlockModels::others).
bool of_other_type(const TrainingPage& page) { return page.type != kArticleType; }

// Cross-validation: for each fold (`fold`: each page's, 0..folds-1), a
// model fitted (`fitted`, told what it is fitting: `doing` and the fold) on
// the matrix (`matrix_of`) of the other folds' pages predicts the fold's
// pages, and `scored(test pages, predictions)` takes the predictions.
// `takes(page, testing)` says whether a page is among the fold's test
// pages (testing) or among the training pages of the others.
template <typename Takes, typename MatrixOf, typename Fitted, typename Scored>
Status each_fold(const std::vector<TrainingPage>& pages, const std::vector<int>& fold, int folds,
                 const std::string& doing, Takes&& takes, MatrixOf&& matrix_of, Fitted&& fitted, Scored&& scored) {
  for (int f = 0; f < folds; ++f) {
    std::vector<std::size_t> train, test;
    for (std::size_t p = 0; p < pages.size(); ++p)
      if (takes(p, fold[p] == f)) (fold[p] == f ? test : train).push_back(p);
    if (test.empty() || train.empty()) continue;
    Matrix tm, em;
    Booster b;
    if (Status st = matrix_of(train, tm); !st.ok()) return st;
    if (Status st = fitted(tm, b, doing + ", fold " + std::to_string(f + 1) + " of " + std::to_string(folds)); !st.ok())
      return st;
    if (Status st = matrix_of(test, em); !st.ok()) return st;
    Result<std::vector<float>> p = predict(b, em);
    if (!p.ok()) return p.status();
    scored(test, *p);
  }
  return Status();
}

}  // namespace

std::vector<int> domain_folds(const std::vector<TrainingPage>& pages, int folds) {
  std::map<std::string, std::vector<std::size_t>> by_domain;
  for (std::size_t p = 0; p < pages.size(); ++p) by_domain[pages[p].domain.empty() ? pages[p].id : pages[p].domain].push_back(p);
  std::vector<std::pair<std::string, std::vector<std::size_t>>> domains(by_domain.begin(), by_domain.end());
  std::stable_sort(domains.begin(), domains.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  std::vector<int> fold(pages.size(), 0);
  std::vector<std::size_t> size(static_cast<std::size_t>(folds), 0);
  for (const auto& [domain, members] : domains) {
    auto lightest = static_cast<int>(std::min_element(size.begin(), size.end()) - size.begin());
    for (std::size_t p : members) fold[p] = lightest;
    size[static_cast<std::size_t>(lightest)] += members.size();
  }
  return fold;
}

std::vector<int> collection_folds(const std::vector<TrainingPage>& pages, int* folds) {
  std::map<std::string, int> number;
  for (const TrainingPage& p : pages) number.emplace(p.source, 0);
  int n = 0;
  for (auto& [source, f] : number) f = n++;
  std::vector<int> fold;
  for (const TrainingPage& p : pages) fold.push_back(number[p.source]);
  *folds = n;
  return fold;
}

namespace {

std::vector<int> folds_of(const std::vector<TrainingPage>& pages, const TreeOptions& o, int* folds) {
  if (o.by_collection) return collection_folds(pages, folds);
  *folds = o.folds;
  return domain_folds(pages, o.folds);
}

bool cross_validates(const std::vector<TrainingPage>& pages, const TreeOptions& o) {
  if (!o.by_collection) return o.folds >= 2;
  std::set<std::string> sources;
  for (const TrainingPage& p : pages) sources.insert(p.source);
  return sources.size() >= 2;
}

// CrossValidation::leaked_by_class from the out-of-fold probabilities.
// A family column holds 1 / (1 + distance) to the nearest ancestor of the
// family (features.cc), so three levels is >= 0.25.
void leaked_by_class(const std::vector<TrainingPage>& pages, const std::vector<std::vector<float>>& scores,
                     const std::vector<std::vector<double>>& words, const std::vector<std::string>& names,
                     const BlockModelOptions& o, CrossValidation& cv) {
  constexpr float kWithinThreeLevels = 0.25f;
  std::vector<std::pair<std::size_t, std::string>> families;
  for (std::size_t c = 0; c < names.size(); ++c) {
    const std::string& n = names[c];
    if (n.rfind("family_", 0) == 0 && n.size() > 12 && n.compare(n.size() - 5, 5, "_near") == 0 &&
        n != "family_content_near")
      families.emplace_back(c, n.substr(7, n.size() - 12));
  }
  std::map<std::string, std::map<std::string, double>> leaked;
  std::map<std::string, double> kept;
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const TrainingPage& t = pages[p];
    if (t.snippet_gold) continue;
    const std::vector<uint8_t> keep = cv.kept(p, t, scores[p], cv.threshold_of(p), words[p]).keep;
    for (std::size_t b = 0; b < keep.size() && b < t.tokens.size(); ++b) {
      if (!keep[b]) continue;
      const double words = static_cast<double>(t.tokens[b].size());
      kept[t.source] += words;
      if (t.coverage[b] >= o.label_cover) continue;
      std::string kind = "none";
      float nearest = kWithinThreeLevels;
      for (const auto& [column, family] : families) {
        const float near = t.x[b * names.size() + column];
        if (near >= nearest && (kind == "none" || near > nearest)) {
          nearest = near;
          kind = family;
        }
      }
      leaked[kind][t.source] += words;
    }
  }
  for (const auto& [kind, by_source] : leaked)
    for (const auto& [source, words] : by_source)
      cv.leaked_by_class[kind][source] = kept[source] > 0 ? words / kept[source] : 0;
}

}  // namespace

namespace {

// One page row per page, and its type's class number.
Status page_matrix(const std::vector<TrainingPage>& pages, const std::vector<std::size_t>& chosen,
                   const FeatureExtractor& features, const std::vector<std::string>& types, Matrix& m) {
  std::vector<float> x, label;
  for (std::size_t p : chosen) {
    std::vector<float> row = features.page_row(pages[p].x);
    x.insert(x.end(), row.begin(), row.end());
    label.push_back(static_cast<float>(std::lower_bound(types.begin(), types.end(), pages[p].type) - types.begin()));
  }
  const auto rows = static_cast<bst_ulong>(chosen.size());
  if (xgboost().dmatrix_create_from_mat(x.data(), rows, features.page_names().size(), NAN, &m.h) != 0)
    return xgboost_error("training matrix");
  if (xgboost().dmatrix_set_float_info(m.h, "label", label.data(), rows) != 0) return xgboost_error("labels");
  return Status();
}

// The page types the gold sets name, sorted (the classifier's classes).
std::vector<std::string> page_types(const std::vector<TrainingPage>& pages) {
  std::vector<std::string> types;
  for (const TrainingPage& p : pages)
    if (!p.snippet_gold) types.push_back(p.type);
  std::sort(types.begin(), types.end());
  types.erase(std::unique(types.begin(), types.end()), types.end());
  return types;
}

// Each page's type as a page-type classifier trained on the other folds'
// pages says it ("" for a page of a fold with no other to learn from), and
// the probability it gives the page of being a forum; the snippet sets name
// no types, so they are typed but not trained on. Empty when the gold sets
// name fewer than two types.
struct OutOfFoldTypes {
  std::vector<std::string> type;
  std::vector<float> forum, article;
};
Result<OutOfFoldTypes> out_of_fold_types(const std::vector<TrainingPage>& pages, const std::vector<int>& fold,
                                         int folds, const FeatureExtractor& features, const PageTypeOptions& o) {
  const std::vector<std::string> types = page_types(pages);
  OutOfFoldTypes out;
  if (types.size() < 2) return out;
  out.type.assign(pages.size(), std::string());
  out.forum.assign(pages.size(), 0.0f);
  out.article.assign(pages.size(), 0.0f);
  const auto forum = static_cast<std::size_t>(std::find(types.begin(), types.end(), kForumType) - types.begin());
  const auto article = static_cast<std::size_t>(std::find(types.begin(), types.end(), kArticleType) - types.begin());
  // A snippet set names no page types: its pages are typed, never trained on.
  Status folded = each_fold(
      pages, fold, folds, "page types", [&](std::size_t p, bool testing) { return testing || !pages[p].snippet_gold; },
      [&](const std::vector<std::size_t>& of, Matrix& m) { return page_matrix(pages, of, features, types, m); },
      [&](const Matrix& m, Booster& b, const std::string& doing) {
        return fit(m, o, "multi:softprob", static_cast<int>(types.size()), b, doing);
      },
      [&](const std::vector<std::size_t>& test, const std::vector<float>& p) {
        for (std::size_t i = 0; i < test.size(); ++i) {
          const float* row = p.data() + i * types.size();
          out.type[test[i]] = types[static_cast<std::size_t>(std::max_element(row, row + types.size()) - row)];
          if (forum < types.size()) out.forum[test[i]] = row[forum];
          if (article < types.size()) out.article[test[i]] = row[article];
        }
      });
  if (!folded.ok()) return folded;
  // As extraction decides: an article's shape outranks a listing's type,
  // and a thread under one story is its comments.
  for (std::size_t p = 0; p < pages.size(); ++p) {
    PageType t;
    t.name = out.type[p];
    t.forum = out.forum[p];
    t.article = out.article[p];
    const TrainingPage& page = pages[p];
    const std::vector<uint8_t> aside =
        aside_prose(teaser_leads(page.teasers, page.block_element.size()), page.furniture);
    if (shape_decides(t))
      t = settle_type(t, features.article_shape(page.x, aside, page.dateline, page.titled, page.sentences));
    const std::vector<uint8_t>& in_comments = page.comment_blocks;
    if (taken_for_forum(t.name, t.forum) && std::find(in_comments.begin(), in_comments.end(), 1) != in_comments.end()) {
      std::vector<uint8_t> without_comments = aside;
      rule_out(without_comments, in_comments);
      t = settle_commented(
          t, features.article_shape(page.x, without_comments, page.dateline, page.titled, page.sentences));
    }
    out.type[p] = std::move(t.name);
    out.article[p] = t.article;
    out.forum[p] = t.forum;
  }
  return out;
}

}  // namespace

double CrossValidation::threshold_of(std::size_t page) const {
  return type_threshold(type_of(page), threshold, other_threshold);
}

std::string_view CrossValidation::type_of(std::size_t page) const {
  return page < typed_as.size() ? std::string_view(typed_as[page]) : std::string_view();
}

bool CrossValidation::forum_of(std::size_t page) const {
  return taken_for_forum(type_of(page), page < forum_probability.size() ? forum_probability[page] : 0.0f);
}

bool CrossValidation::article_of(std::size_t page) const {
  return sure_article(type_of(page), page < article_probability.size() ? article_probability[page] : 0.0f);
}

bool CrossValidation::typed_article_of(std::size_t page) const { return type_of(page) == kArticleType; }

KeptBlocks CrossValidation::kept(std::size_t page, const TrainingPage& t, const std::vector<float>& probability,
                                 double threshold, const std::vector<double>& words, uint8_t left_class,
                                 bool teasers) const {
  return kept_blocks(t, probability, threshold, words, forum_of(page), article_of(page), left_class, teasers,
                     typed_article_of(page));
}

double best_threshold(const std::map<double, double>& f1) {
  double best = -1;
  for (const auto& [threshold, figure] : f1) best = std::max(best, figure);
  double chosen = 0.5;
  for (const auto& [threshold, figure] : f1)
    if (figure >= best - kThresholdTie) chosen = threshold;
  return chosen;
}

KeptBlocks kept_blocks(const TrainingPage& page, const std::vector<float>& probability, double threshold,
                       const std::vector<double>& words, bool forum, bool article, uint8_t left_class,
                       bool teasers, bool typed_article) {
  KeptBlocks out;
  out.keep.resize(probability.size());
  float best = 0;
  for (float p : probability) best = std::max(best, p);
  const double cut = page_threshold(threshold, best, article || typed_article);
  out.ruled_out.assign(probability.size(), 0);
  for (std::size_t b = 0; b < out.keep.size(); ++b) {
    const bool kept = probability[b] >= cut;
    const bool furniture = b < page.furniture.size() && page.furniture[b] != 0 && left_class != kEveryFurniture &&
                           page.furniture[b] != left_class;
    out.keep[b] = kept && !furniture && !(article && b < page.link_line.size() && page.link_line[b] != 0);
    // Furniture the model kept is what extraction takes out (take_out_furniture).
    out.ruled_out[b] = kept && furniture;
  }
  if (article && teasers) rule_out(out.ruled_out, take_out_teasers(page.teasers, words, out.keep));
  if (!forum && !page.comment_sections.empty())
    rule_out(out.ruled_out, take_out_comments(page.comment_sections, words, out.keep));
  take_out_repeats(page.repeat_key, words, out.keep);
  return out;
}

Result<BlockModels> train_block_model(const std::vector<TrainingPage>& pages, const FeatureExtractor& features,
                                      const BlockModelOptions& o, CrossValidation* cv) {
  const std::vector<std::string>& names = features.names();
  if (Status st = xgboost_loaded(); !st.ok()) return st;
  const std::size_t cols = names.size();
  if (cv != nullptr && cross_validates(pages, o)) {
    std::vector<std::vector<float>> scores(pages.size());
    int folds = 0;
    const std::vector<int> fold = folds_of(pages, o, &folds);
    auto block_matrix = [&](const std::vector<std::size_t>& of, Matrix& m) { return matrix_of(pages, of, cols, o, m); };
    auto fitted = [&](const Matrix& m, Booster& b, const std::string& doing) { return fit(m, o, b, doing); };
    // Each test page's blocks' probabilities, in the order of the rows.
    auto take_scores = [&](const std::vector<std::size_t>& test, const std::vector<float>& p) {
      std::size_t at = 0;
      for (std::size_t page : test) {
        std::size_t n = pages[page].coverage.size();
        scores[page].assign(p.begin() + static_cast<std::ptrdiff_t>(at), p.begin() + static_cast<std::ptrdiff_t>(at + n));
        at += n;
      }
    };
    Status folded = each_fold(
        pages, fold, folds, "block model", [](std::size_t, bool) { return true; }, block_matrix, fitted, take_scores);
    if (!folded.ok()) return folded;
    cv->folds = static_cast<std::size_t>(folds);
    cv->by_collection = o.by_collection;
    PageTypeOptions typer;
    typer.threads = o.threads;
    typer.seed = o.seed;
    typer.progress = o.progress;
    Result<OutOfFoldTypes> typed = out_of_fold_types(pages, fold, folds, features, typer);
    if (!typed.ok()) return typed.status();
    cv->typed_as = std::move(typed->type);
    cv->forum_probability = std::move(typed->forum);
    cv->article_probability = std::move(typed->article);
    // Per page type over the collections that name more than one (WCXB's).
    std::map<std::string, std::set<std::string>> types_of;
    for (const TrainingPage& p : pages) types_of[p.source].insert(p.type);
    std::vector<std::vector<double>> words(pages.size());
    for (std::size_t p = 0; p < pages.size(); ++p) words[p] = features.block_words(pages[p].x);
    // Each collection's figure with page p held to threshold(p).
    auto score = [&](auto&& threshold) {
      std::map<std::string, CollectionScore> sources;
      for (std::size_t p = 0; p < pages.size(); ++p)
        sources[pages[p].source].add(pages[p], cv->kept(p, pages[p], scores[p], threshold(p), words[p]).keep);
      std::map<std::string, double> out;
      for (const auto& [source, s] : sources) out[source] = s.f1();
      return out;
    };
    auto mean = [](const std::map<std::string, double>& by_source) {
      double sum = 0;
      for (const auto& [source, f1] : by_source) sum += f1;
      return by_source.empty() ? 0 : sum / static_cast<double>(by_source.size());
    };
    // The threshold is the one with the best mean of the collections'
    // figures: each collection is another population of pages, and a
    // threshold fitted to the largest alone would not be the one that
    // generalises. Then, the others at it, the one of the pages typed as
    // anything but articles, the same way.
    for (double threshold : o.thresholds) {
      cv->f1_by_source_at[threshold] = score([&](std::size_t) { return threshold; });
      cv->f1[threshold] = mean(cv->f1_by_source_at[threshold]);
    }
    cv->threshold = best_threshold(cv->f1);
    // The pages the second model scores (scored_by_others), by the second
    // model of their fold: after the articles' threshold is chosen, which is
    // the articles' model's alone, before the other pages' one.
    if (o.others_model && !cv->typed_as.empty()) {
      std::vector<uint8_t> routed(pages.size());
      for (std::size_t p = 0; p < pages.size(); ++p) {
        const float best = scores[p].empty() ? 0.0f : *std::max_element(scores[p].begin(), scores[p].end());
        routed[p] = scored_by_others(cv->typed_as[p], cv->article_probability[p], best);
      }
      Status second = each_fold(
          pages, fold, folds, "second block model",
          [&](std::size_t p, bool testing) { return testing ? routed[p] != 0 : of_other_type(pages[p]); },
          block_matrix, fitted, take_scores);
      if (!second.ok()) return second;
    }
    cv->other_threshold = cv->threshold;
    if (!cv->typed_as.empty()) {
      for (double other : o.thresholds)
        cv->other_f1[other] = mean(score([&](std::size_t p) {
          return type_threshold(cv->typed_as[p], cv->threshold, other);
        }));
      cv->other_threshold = best_threshold(cv->other_f1);
    }
    std::map<std::string, CollectionScore> typed_scores, sources, languages;
    for (std::size_t p = 0; p < pages.size(); ++p) {
      const std::vector<uint8_t> keep = cv->kept(p, pages[p], scores[p], cv->threshold_of(p), words[p]).keep;
      if (types_of[pages[p].source].size() > 1) typed_scores[pages[p].type].add(pages[p], keep);
      sources[pages[p].source].add(pages[p], keep);
      if (!pages[p].language.empty()) languages[pages[p].language].add(pages[p], keep);
    }
    for (const auto& [type, s] : typed_scores) cv->f1_by_type[type] = s.f1();
    for (const auto& [source, s] : sources) cv->f1_by_source[source] = s.f1();
    for (const auto& [language, s] : languages) cv->f1_by_language[language] = s.f1();
    // The quality score against the page F1, under the decision.
    std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> quality;
    for (std::size_t p = 0; p < pages.size(); ++p) {
      if (pages[p].snippet_gold) continue;
      const KeptBlocks kept = cv->kept(p, pages[p], scores[p], cv->threshold_of(p), words[p]);
      const double score = text_quality(scores[p], kept.keep, words[p], kept.ruled_out),
                   f1 = kept_f1(pages[p], kept.keep);
      for (const std::string& key : {pages[p].source, std::string("all")}) {
        quality[key].first.push_back(score);
        quality[key].second.push_back(f1);
      }
    }
    for (const auto& [source, series] : quality) cv->quality_spearman[source] = spearman(series.first, series.second);
    leaked_by_class(pages, scores, words, names, o, *cv);
    furniture_by_class(pages, scores, words, *cv);
    teasers_measured(pages, scores, words, *cv);
    cv->out_of_fold = std::move(scores);
  }
  std::vector<std::size_t> all(pages.size());
  for (std::size_t p = 0; p < pages.size(); ++p) all[p] = p;
  Matrix m;
  Booster b;
  if (Status st = matrix_of(pages, all, cols, o, m); !st.ok()) return st;
  if (Status st = fit(m, o, b, "block model, all pages"); !st.ok()) return st;
  char threshold[32];
  std::snprintf(threshold, sizeof(threshold), "%.3f", cv != nullptr && cv->folds ? cv->threshold : 0.45);
  char other[32];
  std::snprintf(other, sizeof(other), "%.3f", cv != nullptr && cv->folds ? cv->other_threshold : 0.45);
  std::vector<std::pair<std::string, std::string>> attributes = {
      {"threshold", threshold}, {"other_threshold", other}, {"trained_on", describe_collections(pages)}};
  attributes.insert(attributes.end(), o.provenance.begin(), o.provenance.end());
  if (cv != nullptr && cv->folds) {
    std::string figures;
    for (const auto& [source, f1] : cv->f1_by_source) {
      char figure[64];
      std::snprintf(figure, sizeof(figure), "%.4f", f1);
      figures += (figures.empty() ? "" : "; ") + source + " " + figure;
    }
    attributes.emplace_back(cv->by_collection ? "leave_collection_out_f1" : "cross_validated_f1", figures);
  }
  BlockModels out;
  Result<std::string> model = saved(b, names, attributes);
  if (!model.ok()) return model.status();
  out.model = std::move(*model);
  if (!o.others_model) return out;
  std::vector<std::size_t> others;
  for (std::size_t p = 0; p < pages.size(); ++p)
    if (of_other_type(pages[p])) others.push_back(p);
  if (others.empty()) return Status(Code::kInvalidArgument, "no page of the gold sets has a type other than article: no second block model to fit");
  Matrix om;
  Booster ob;
  if (Status st = matrix_of(pages, others, cols, o, om); !st.ok()) return st;
  if (Status st = fit(om, o, ob, "second block model, all pages"); !st.ok()) return st;
  std::vector<std::pair<std::string, std::string>> other_attributes = {
      {"threshold", other}, {"pages", "the gold sets' pages whose type is not article"},
      {"trained_on", describe_collections(pages)}};
  other_attributes.insert(other_attributes.end(), o.provenance.begin(), o.provenance.end());
  Result<std::string> second = saved(ob, names, other_attributes);
  if (!second.ok()) return second.status();
  out.others = std::move(*second);
  return out;
}

Result<std::string> train_page_type_model(const std::vector<TrainingPage>& pages, const FeatureExtractor& features,
                                          const PageTypeOptions& o, PageTypeValidation* cv) {
  if (Status st = xgboost_loaded(); !st.ok()) return st;
  const std::vector<std::string> types = page_types(pages);
  if (types.size() < 2) return Status(Code::kInvalidArgument, "the gold sets name fewer than two page types");
  const int classes = static_cast<int>(types.size());
  if (cv != nullptr && cross_validates(pages, o)) {
    int folds = 0;
    const std::vector<int> fold = folds_of(pages, o, &folds);
    Result<OutOfFoldTypes> oof = out_of_fold_types(pages, fold, folds, features, o);
    if (!oof.ok()) return oof.status();
    const std::vector<std::string>& typed = oof->type;
    cv->types = types;
    cv->confusion.assign(types.size(), std::vector<std::size_t>(types.size(), 0));
    std::map<std::string, std::pair<std::size_t, std::size_t>> by_source;  // right, all
    std::size_t right = 0;
    auto class_of = [&](const std::string& type) {
      return static_cast<std::size_t>(std::lower_bound(types.begin(), types.end(), type) - types.begin());
    };
    for (std::size_t p = 0; p < pages.size(); ++p) {
      if (typed[p].empty()) continue;
      const std::size_t predicted = class_of(typed[p]), gold = class_of(pages[p].type);
      ++cv->confusion[gold][predicted];
      right += predicted == gold;
      auto& s = by_source[pages[p].source];
      s.first += predicted == gold;
      ++s.second;
    }
    cv->folds = static_cast<std::size_t>(folds);
    cv->accuracy = pages.empty() ? 0 : static_cast<double>(right) / static_cast<double>(pages.size());
    for (const auto& [source, s] : by_source)
      cv->accuracy_by_source[source] = static_cast<double>(s.first) / static_cast<double>(s.second);
  }
  std::vector<std::size_t> all(pages.size());
  for (std::size_t p = 0; p < pages.size(); ++p) all[p] = p;
  Matrix m;
  Booster b;
  if (Status st = page_matrix(pages, all, features, types, m); !st.ok()) return st;
  if (Status st = fit(m, o, "multi:softprob", classes, b, "page types, all pages"); !st.ok()) return st;
  std::string joined;
  for (const std::string& t : types) joined += (joined.empty() ? "" : ",") + t;
  std::vector<std::pair<std::string, std::string>> attributes = {{"types", joined},
                                                                  {"trained_on", describe_collections(pages)}};
  attributes.insert(attributes.end(), o.provenance.begin(), o.provenance.end());
  if (cv != nullptr && cv->folds) {
    char accuracy[32];
    std::snprintf(accuracy, sizeof(accuracy), "%.4f", cv->accuracy);
    attributes.emplace_back(o.by_collection ? "leave_collection_out_accuracy" : "cross_validated_accuracy", accuracy);
  }
  return saved(b, features.page_names(), attributes);
}

}  // namespace husk
