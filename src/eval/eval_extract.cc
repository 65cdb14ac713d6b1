#include <unicode/utf8.h>

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

using ShingleCounts = std::unordered_map<std::string, int>;

Result<nlohmann::json> read_gold_object(const std::string& gold_path) {
  std::ifstream in(gold_path, std::ios::binary);
  if (!in) return Status(Code::kNotFound, gold_path + ": cannot open gold file");
  nlohmann::json gold = nlohmann::json::parse(in, nullptr, false);
  if (gold.is_discarded() || !gold.is_object())
    return Status(Code::kCorrupt, gold_path + ": not a JSON object of pages");
  return gold;
}

// Shingles of n consecutive tokens; a text shorter than n is one shingle of
// all its tokens, an empty text none (the benchmark's _ngrams()).
ShingleCounts shingles(const std::vector<std::string_view>& tokens, std::size_t n) {
  ShingleCounts counts;
  if (tokens.empty()) return counts;
  std::size_t count = tokens.size() >= n ? tokens.size() - n + 1 : 1;
  for (std::size_t i = 0; i < count; ++i) {
    std::string key;
    for (std::size_t k = i; k < std::min(i + n, tokens.size()); ++k) {
      key.append(tokens[k]);
      key.push_back('\x1f');
    }
    ++counts[key];
  }
  return counts;
}

// The code point at s[i] (negative for an invalid sequence, as ICU's
// U8_NEXT says) and where the next one starts.
std::pair<UChar32, std::size_t> code_point(std::string_view s, std::size_t i) {
  auto at = static_cast<int32_t>(i);
  UChar32 cp = 0;
  U8_NEXT(reinterpret_cast<const uint8_t*>(s.data()), at, static_cast<int32_t>(s.size()), cp);
  return {cp, static_cast<std::size_t>(at)};
}

}  // namespace

bool is_cjk_gold(std::string_view text) {
  std::size_t cjk = 0, all = 0;
  for (std::size_t i = 0; i < text.size();) {
    auto [cp, next] = code_point(text, i);
    if (!(cp >= 0 && cp < 0x80 && is_ascii_space(static_cast<char>(cp)))) {
      ++all;
      cjk += cp >= 0 && is_cjk(static_cast<uint32_t>(cp));
    }
    i = next;
  }
  return all > 0 && cjk * 10 >= all * 3;
}

std::vector<std::string_view> cjk_char_tokens(const std::vector<std::string_view>& tokens) {
  std::vector<std::string_view> out;
  for (std::string_view t : tokens) {
    std::size_t run = 0;  // start of the current non-CJK run
    for (std::size_t i = 0; i < t.size();) {
      auto [cp, next] = code_point(t, i);
      if (cp >= 0 && is_cjk(static_cast<uint32_t>(cp))) {
        if (i > run) out.push_back(t.substr(run, i - run));
        out.push_back(t.substr(i, next - i));
        run = next;
      }
      i = next;
    }
    if (run < t.size()) out.push_back(t.substr(run));
  }
  return out;
}

ShingleMatch match_shingles(std::string_view gold, std::string_view prediction, std::size_t n, bool cjk_chars) {
  std::vector<std::string_view> gold_tokens = word_tokens(gold);
  std::vector<std::string_view> pred_tokens = word_tokens(prediction);
  if (cjk_chars) {
    gold_tokens = cjk_char_tokens(gold_tokens);
    pred_tokens = cjk_char_tokens(pred_tokens);
  }
  ShingleMatch m;
  m.exact = gold_tokens == pred_tokens;
  ShingleCounts g = shingles(gold_tokens, n);
  ShingleCounts p = shingles(pred_tokens, n);
  for (const auto& [key, gc] : g) {
    auto it = p.find(key);
    int pc = it == p.end() ? 0 : it->second;
    m.tp += std::min(gc, pc);
    m.fn += std::max(0, gc - pc);
    m.fp += std::max(0, pc - gc);
  }
  for (const auto& [key, pc] : p)
    if (!g.count(key)) m.fp += pc;
  double sum = m.tp + m.fp + m.fn;
  if (sum > 0) {
    m.tp /= sum;
    m.fp /= sum;
    m.fn /= sum;
  }
  return m;
}

namespace {

std::vector<double> ranks(const std::vector<double>& v) {
  std::vector<std::size_t> order(v.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    const double mean = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
    for (std::size_t k = i; k <= j; ++k) r[order[k]] = mean;
    i = j + 1;
  }
  return r;
}

}  // namespace

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n = std::min(a.size(), b.size());
  if (n < 2 || a.size() != b.size()) return std::nan("");
  const std::vector<double> ra = ranks(a), rb = ranks(b);
  double ma = 0, mb = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ma += ra[i];
    mb += rb[i];
  }
  ma /= static_cast<double>(n);
  mb /= static_cast<double>(n);
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sab += (ra[i] - ma) * (rb[i] - mb);
    saa += (ra[i] - ma) * (ra[i] - ma);
    sbb += (rb[i] - mb) * (rb[i] - mb);
  }
  return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : std::nan("");
}

double page_f1(const ShingleMatch& m) {
  double precision = m.tp + m.fp > 0 ? m.tp / (m.tp + m.fp) : 0;
  double recall = m.tp + m.fn > 0 ? m.tp / (m.tp + m.fn) : 0;
  return precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
}

ExtractScore score_pages(std::vector<PageScore> pages) {
  ExtractScore s;
  s.pages = pages.size();
  double p_sum = 0, r_sum = 0;
  std::size_t p_n = 0, r_n = 0, exact = 0;
  for (const PageScore& page : pages) {
    const ShingleMatch& m = page.match;
    if (!page.predicted) ++s.missing;
    if (m.exact) ++exact;
    if (m.tp + m.fp > 0) {
      p_sum += (m.fp == 0 && m.fn == 0) ? 1.0 : (m.tp == 0 && m.fp == 0) ? 0.0 : m.tp / (m.tp + m.fp);
      ++p_n;
    }
    if (m.tp + m.fn > 0) {
      r_sum += (m.fp == 0 && m.fn == 0) ? 1.0 : (m.tp == 0 && m.fn == 0) ? 0.0 : m.tp / (m.tp + m.fn);
      ++r_n;
    }
  }
  s.precision = p_n ? p_sum / static_cast<double>(p_n) : 0.0;
  s.recall = r_n ? r_sum / static_cast<double>(r_n) : 0.0;
  s.f1 = s.precision + s.recall > 0 ? 2 * s.precision * s.recall / (s.precision + s.recall) : 0.0;
  s.accuracy = pages.empty() ? 0.0 : static_cast<double>(exact) / static_cast<double>(pages.size());
  s.per_page = std::move(pages);
  return s;
}

Result<std::unordered_map<std::string, std::string>> read_predictions(
    const std::string& path, const std::function<std::string(const std::string&)>& key_of) {
  std::unordered_map<std::string, std::string> predictions;
  Status st = for_each_json_object(path, [&](const nlohmann::json& record, const Line& line) {
    auto id_field = record.find("id");
    auto text_field = record.find("text");
    if (id_field == record.end() || !id_field->is_string())
      return Status(Code::kInvalidArgument, line.source + ": \"id\" must be a string");
    if (text_field != record.end() && !text_field->is_string() && !text_field->is_null())
      return Status(Code::kInvalidArgument, line.source + ": \"text\" must be a string");
    std::string text = text_field != record.end() && text_field->is_string() ? text_field->get<std::string>() : "";
    predictions[key_of(id_field->get<std::string>())] = std::move(text);
    return Status();
  });
  if (!st.ok()) return st;
  return predictions;
}

std::string gold_key(std::string_view id) {
  std::size_t slash = id.find_last_of('/');
  if (slash != std::string_view::npos) id.remove_prefix(slash + 1);
  for (std::string_view ext : {".gz", ".html", ".htm"})
    if (ends_with_ci(id, ext)) id.remove_suffix(ext.size());
  return std::string(id);
}

Result<ExtractScore> evaluate_extraction(const std::string& gold_path, const std::string& pred_path) {
  Result<nlohmann::json> gold_object = read_gold_object(gold_path);
  if (!gold_object.ok()) return gold_object.status();
  const nlohmann::json& gold = *gold_object;

  Result<std::unordered_map<std::string, std::string>> predictions =
      read_predictions(pred_path, [&](const std::string& id) { return gold.contains(id) ? id : gold_key(id); });
  if (!predictions.ok()) return predictions.status();

  std::vector<PageScore> pages;
  for (const auto& [key, value] : gold.items()) {
    std::string body;
    if (value.is_object() && value.contains("articleBody") && value["articleBody"].is_string())
      body = value["articleBody"].get<std::string>();
    PageScore page;
    page.id = key;
    auto it = predictions->find(key);
    page.predicted = it != predictions->end();
    const std::string_view predicted = page.predicted ? std::string_view(it->second) : std::string_view();
    page.match = match_shingles(body, predicted);
    page.cjk = is_cjk_gold(body);
    page.match_cjk = page.cjk ? match_shingles(body, predicted, 4, true) : page.match;
    pages.push_back(std::move(page));
  }
  std::vector<PageScore> by_char = pages;
  std::size_t cjk_pages = 0;
  for (PageScore& p : by_char) {
    p.match = p.match_cjk;
    cjk_pages += p.cjk;
  }
  ExtractScore chars = score_pages(std::move(by_char));
  ExtractScore score = score_pages(std::move(pages));
  score.cjk_pages = cjk_pages;
  score.predictions = predictions->size();
  score.precision_cjk = chars.precision;
  score.recall_cjk = chars.recall;
  score.f1_cjk = chars.f1;
  return score;
}

namespace {

// White space collapsed to single spaces and trimmed, as the snippet score
// defines it: ASCII white space and the Unicode spaces (no-break space,
// U+2000-U+200A, U+202F, U+205F, U+3000) alike.
std::string collapse_white_space(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool space = false;
  for (std::size_t i = 0; i < s.size();) {
    auto [cp, next] = code_point(s, i);
    const bool white = (cp >= 0 && cp < 0x80 && is_ascii_space(static_cast<char>(cp))) || cp == 0xA0 ||
                       (cp >= 0x2000 && cp <= 0x200A) || cp == 0x202F || cp == 0x205F || cp == 0x3000;
    if (white) {
      space = !out.empty();
    } else {
      if (space) out.push_back(' ');
      space = false;
      out.append(s.substr(i, next - i));
    }
    i = next;
  }
  return out;
}

std::vector<std::string> snippets(const nlohmann::json& entry, const char* field) {
  std::vector<std::string> out;
  auto it = entry.find(field);
  if (it == entry.end() || !it->is_array()) return out;
  for (const auto& s : *it)
    if (s.is_string()) {
      std::string collapsed = collapse_white_space(s.get<std::string>());
      if (!collapsed.empty()) out.push_back(std::move(collapsed));
    }
  return out;
}

}  // namespace

bool is_snippet_gold(const std::string& gold_path) {
  Result<nlohmann::json> gold = read_gold_object(gold_path);
  if (!gold.ok() || gold->empty()) return false;
  const nlohmann::json& first = gold->begin().value();
  return first.is_object() && (first.contains("with") || first.contains("without"));
}

Result<SnippetScore> evaluate_snippets(const std::string& gold_path, const std::string& pred_path) {
  Result<nlohmann::json> gold = read_gold_object(gold_path);
  if (!gold.ok()) return gold.status();
  Result<std::unordered_map<std::string, std::string>> predictions = read_predictions(pred_path, gold_key);
  if (!predictions.ok()) return predictions.status();
  SnippetScore s;
  for (const auto& [key, entry] : gold->items()) {
    if (!entry.is_object())
      return Status(Code::kCorrupt, gold_path + ": entry \"" + key + "\" is not an object");
    SnippetPage page;
    auto file = entry.find("file");
    page.id = gold_key(file != entry.end() && file->is_string() ? file->get<std::string>() : key);
    auto it = predictions->find(page.id);
    page.predicted = it != predictions->end();
    const std::string text = page.predicted ? collapse_white_space(it->second) : std::string();
    for (const std::string& w : snippets(entry, "with")) {
      ++page.with_total;
      page.with_found += text.find(w) != std::string::npos;
    }
    for (const std::string& w : snippets(entry, "without")) {
      ++page.without_total;
      page.without_found += text.find(w) != std::string::npos;
    }
    s.tp += page.with_found;
    s.fn += page.with_total - page.with_found;
    s.fp += page.without_found;
    s.tn += page.without_total - page.without_found;
    s.missing += !page.predicted;
    s.per_page.push_back(std::move(page));
  }
  s.pages = s.per_page.size();
  s.predictions = predictions->size();
  s.precision = s.tp + s.fp > 0 ? static_cast<double>(s.tp) / static_cast<double>(s.tp + s.fp) : 0.0;
  s.recall = s.tp + s.fn > 0 ? static_cast<double>(s.tp) / static_cast<double>(s.tp + s.fn) : 0.0;
  s.f1 = s.precision + s.recall > 0 ? 2 * s.precision * s.recall / (s.precision + s.recall) : 0.0;
  return s;
}

}  // namespace husk
