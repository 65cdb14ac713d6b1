// The WCXB word score (eval/eval.h, "Extraction, the WCXB way").
#include <unicode/locid.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

#include "base/text_util.h"
#include "eval/eval.h"
#include "husk/normalize.h"
#include "ingest/lines.h"

namespace husk {

namespace {

namespace fs = std::filesystem;

std::unordered_map<std::string_view, int> counts(const std::vector<std::string_view>& tokens) {
  std::unordered_map<std::string_view, int> c;
  for (std::string_view t : tokens) ++c[t];
  return c;
}

// "category" is the benchmark's other name for a collection page.
std::string page_type_of(const nlohmann::json& gold) {
  auto internal = gold.find("_internal");
  if (internal != gold.end() && internal->is_object()) {
    auto type = internal->find("page_type");
    if (type != internal->end()) {
      std::string t;
      if (type->is_string()) t = type->get<std::string>();
      if (type->is_object() && type->contains("primary") && (*type)["primary"].is_string())
        t = (*type)["primary"].get<std::string>();
      if (t == "category") return "collection";
      if (!t.empty()) return t;
    }
  }
  return "article";
}

// What a prediction record says about its page's metadata.
struct PredictedMeta {
  double quality = -1;
  std::string title;
  std::vector<std::string> authors;
  std::string date;
};

Result<std::unordered_map<std::string, PredictedMeta>> read_metadata(const std::string& path) {
  std::unordered_map<std::string, PredictedMeta> out;
  Status st = for_each_json_object(path, [&](const nlohmann::json& record, const Line&) {
    auto id = record.find("id");
    if (id == record.end() || !id->is_string()) return Status();  // read_predictions reports it
    PredictedMeta m;
    if (auto t = record.find("title"); t != record.end() && t->is_string()) m.title = t->get<std::string>();
    if (auto q = record.find("quality"); q != record.end() && q->is_number()) m.quality = q->get<double>();
    if (auto a = record.find("author"); a != record.end()) {
      if (a->is_string()) m.authors.push_back(a->get<std::string>());
      if (a->is_array())
        for (const auto& v : *a)
          if (v.is_string()) m.authors.push_back(v.get<std::string>());
    }
    if (auto d = record.find("date_published"); d != record.end() && d->is_string()) m.date = d->get<std::string>();
    out[gold_key(id->get<std::string>())] = std::move(m);
    return Status();
  });
  if (!st.ok()) return st;
  return out;
}

// The benchmark's folding: lower case, \w+ tokens.
std::vector<std::string> folded(std::string_view text) {
  std::string lower = lower_case(text);
  std::vector<std::string> out;
  for (std::string_view t : word_tokens(lower)) out.emplace_back(t);
  return out;
}

std::string gold_string(const nlohmann::json& truth, const char* key) {
  auto it = truth.find(key);
  return it != truth.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void score_metadata(const nlohmann::json& truth, const PredictedMeta* predicted, bool headline_first_line,
                    WcxbPage& page) {
  std::string title = gold_string(truth, "title");
  if (title.empty() && headline_first_line) {
    std::string body = gold_string(truth, "main_content");
    const std::size_t start = body.find_first_not_of(" \t\r\n");
    title = start == std::string::npos ? "" : body.substr(start, body.find('\n', start) - start);
  }
  if (!folded(title).empty())
    page.title = predicted != nullptr && folded(predicted->title) == folded(title);
  if (std::string author = gold_string(truth, "author"); !folded(author).empty()) {
    page.author = 0;
    if (predicted != nullptr)
      for (const std::string& a : predicted->authors)
        if (folded(a) == folded(author)) page.author = 1;
  }
  if (std::string date = gold_string(truth, "publish_date"); date.size() >= 10)
    page.date = predicted != nullptr && predicted->date.size() >= 10 && predicted->date.substr(0, 10) == date.substr(0, 10);
}

void count(FieldScore& score, int8_t verdict) {
  if (verdict < 0) return;
  ++score.total;
  score.correct += verdict > 0;
}

}  // namespace

std::vector<std::string> strings_of(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& v : *it)
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

WordMatch match_words(std::string_view gold, std::string_view prediction, bool cjk_chars) {
  std::string g = lower_case(gold), p = lower_case(prediction);
  std::vector<std::string_view> gold_tokens = word_tokens(g), pred_tokens = word_tokens(p);
  if (cjk_chars) {
    gold_tokens = cjk_char_tokens(gold_tokens);
    pred_tokens = cjk_char_tokens(pred_tokens);
  }
  WordMatch m;
  if (gold_tokens.empty()) {
    m.precision = m.recall = m.f1 = pred_tokens.empty() ? 1.0 : 0.0;
    return m;
  }
  if (pred_tokens.empty()) return m;
  auto gold_counts = counts(gold_tokens);
  std::size_t common = 0;
  for (const auto& [token, n] : counts(pred_tokens)) {
    auto it = gold_counts.find(token);
    if (it != gold_counts.end()) common += static_cast<std::size_t>(std::min(n, it->second));
  }
  m.precision = static_cast<double>(common) / static_cast<double>(pred_tokens.size());
  m.recall = static_cast<double>(common) / static_cast<double>(gold_tokens.size());
  m.f1 = m.precision + m.recall > 0 ? 2 * m.precision * m.recall / (m.precision + m.recall) : 0.0;
  return m;
}

WcxbTotals wcxb_totals(const std::vector<const WcxbPage*>& pages) {
  WcxbTotals t;
  t.pages = pages.size();
  std::size_t with_found = 0, with_total = 0, without_found = 0, without_total = 0;
  for (const WcxbPage* p : pages) {
    t.precision += p->match.precision;
    t.recall += p->match.recall;
    t.f1 += p->match.f1;
    with_found += p->with_found;
    with_total += p->with_total;
    without_found += p->without_found;
    without_total += p->without_total;
  }
  if (!pages.empty()) {
    const auto n = static_cast<double>(pages.size());
    t.precision /= n;
    t.recall /= n;
    t.f1 /= n;
  }
  t.with_rate = with_total ? static_cast<double>(with_found) / static_cast<double>(with_total) : 0.0;
  t.without_rate = without_total ? static_cast<double>(without_found) / static_cast<double>(without_total) : 0.0;
  return t;
}

Result<WcxbScore> evaluate_wcxb(const std::string& gold_dir, const std::string& pred_path, bool headline_first_line) {
  std::error_code ec;
  fs::path dir = fs::is_directory(fs::path(gold_dir) / "ground-truth", ec) ? fs::path(gold_dir) / "ground-truth"
                                                                          : fs::path(gold_dir);
  std::vector<fs::path> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".json") files.push_back(it->path());
  if (ec) return Status(Code::kIo, dir.string() + ": " + ec.message());
  if (files.empty()) return Status(Code::kNotFound, dir.string() + ": no ground-truth *.json files");
  std::sort(files.begin(), files.end());

  Result<std::unordered_map<std::string, std::string>> predictions =
      read_predictions(pred_path, [](const std::string& id) { return gold_key(id); });
  if (!predictions.ok()) return predictions.status();
  Result<std::unordered_map<std::string, PredictedMeta>> metadata = read_metadata(pred_path);
  if (!metadata.ok()) return metadata.status();

  WcxbScore score;
  score.predictions = predictions->size();
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    nlohmann::json gold = nlohmann::json::parse(in, nullptr, false);
    if (gold.is_discarded() || !gold.is_object() || !gold.contains("ground_truth") || !gold["ground_truth"].is_object())
      return Status(Code::kCorrupt, f.string() + ": not a WCXB ground-truth file (no \"ground_truth\" object)");
    const nlohmann::json& truth = gold["ground_truth"];
    auto main = truth.find("main_content");
    std::string content = main != truth.end() && main->is_string() ? main->get<std::string>() : "";
    WcxbPage page;
    page.id = f.stem().string();
    page.type = page_type_of(gold);
    if (auto language = gold.find("language"); language != gold.end() && language->is_string())
      page.language = language->get<std::string>();
    auto it = predictions->find(page.id);
    page.predicted = it != predictions->end();
    const std::string prediction = page.predicted ? it->second : std::string();
    if (!page.predicted) ++score.missing;
    page.match = match_words(content, prediction);
    page.cjk = is_cjk_gold(content);
    page.match_cjk = page.cjk ? match_words(content, prediction, true) : page.match;
    score.cjk_pages += page.cjk;
    const std::string predicted_lower = lower_case(prediction);
    for (const std::string& snippet : strings_of(truth, "with")) {
      ++page.with_total;
      page.with_found += predicted_lower.find(lower_case(snippet)) != std::string::npos;
    }
    for (const std::string& snippet : strings_of(truth, "without")) {
      ++page.without_total;
      page.without_found += predicted_lower.find(lower_case(snippet)) != std::string::npos;
    }
    auto meta = metadata->find(page.id);
    score_metadata(truth, meta != metadata->end() ? &meta->second : nullptr, headline_first_line, page);
    if (meta != metadata->end()) page.quality = meta->second.quality;
    count(score.title, page.title);
    count(score.author, page.author);
    count(score.date, page.date);
    score.per_page.push_back(std::move(page));
  }
  std::vector<const WcxbPage*> all;
  std::map<std::string, std::vector<const WcxbPage*>> typed, languages;
  for (const WcxbPage& p : score.per_page) {
    all.push_back(&p);
    typed[p.type].push_back(&p);
    if (!p.language.empty()) languages[p.language].push_back(&p);
  }
  score.all = wcxb_totals(all);
  std::vector<double> quality, f1;
  for (const WcxbPage& p : score.per_page)
    if (p.quality >= 0) {
      quality.push_back(p.quality);
      f1.push_back(p.cjk ? p.match_cjk.f1 : p.match.f1);
    }
  score.quality_pages = quality.size();
  score.quality_spearman = spearman(quality, f1);
  for (const auto& [type, pages] : typed) score.by_type[type] = wcxb_totals(pages);
  for (const auto& [language, pages] : languages) score.by_language[language] = wcxb_totals(pages);
  std::vector<WcxbPage> by_char = score.per_page;
  std::vector<const WcxbPage*> all_by_char;
  for (WcxbPage& p : by_char) {
    p.match = p.match_cjk;
    all_by_char.push_back(&p);
  }
  score.all_cjk = wcxb_totals(all_by_char);
  return score;
}

}  // namespace husk
