#include "sign/context.h"

#include <algorithm>
#include <map>

#include "husk/languages.h"
#include "sign/hashing.h"

namespace husk {

double SignContext::idf(std::string_view term) const {
  if (stats != nullptr && stats->documents > 0) return stats->idf(term);
  return is_stopword(term) ? 0.0 : 1.0;
}

bool SignContext::is_stopword(std::string_view term) const {
  return language_data().stopwords.count(std::string(term)) > 0;
}

bool SignContext::in_lexicon(std::string_view term) const {
  if (stats == nullptr || stats->documents == 0) return !is_stopword(term);
  auto it = stats->df.find(std::string(term));
  uint64_t df = it == stats->df.end() ? 0 : it->second;
  return df >= options.lexicon_min_df &&
         static_cast<double>(df) <= options.lexicon_max_df_share * static_cast<double>(stats->documents);
}

const std::vector<TermWeight>& SignContext::weights() {
  if (weights_) return *weights_;
  std::map<std::string_view, uint32_t> counts;
  for (const std::string& t : text.terms) ++counts[t];
  std::vector<TermWeight> out;
  out.reserve(counts.size());
  const double total = static_cast<double>(text.terms.size());
  for (const auto& [term, count] : counts) {
    double w = static_cast<double>(count) / total * idf(term);
    out.push_back({term, count, w});
    weight_index_.emplace(term, w);
  }
  weights_ = std::move(out);
  return *weights_;
}

double SignContext::weight_of(std::string_view term) {
  weights();
  auto it = weight_index_.find(term);
  return it == weight_index_.end() ? 0.0 : it->second;
}

std::vector<uint64_t> SignContext::word_shingles(uint32_t w) const {
  const auto& terms = text.terms;
  std::vector<uint64_t> out;
  if (terms.empty()) return out;
  w = std::max<uint32_t>(w, 1);
  std::size_t count = terms.size() >= w ? terms.size() - w + 1 : 1;
  out.reserve(count);
  std::string shingle;
  for (std::size_t i = 0; i < count; ++i) {
    shingle.clear();
    for (std::size_t k = i; k < std::min<std::size_t>(i + w, terms.size()); ++k) {
      if (k > i) shingle.push_back(' ');
      shingle += terms[k];
    }
    out.push_back(xxh64(shingle, 0));
  }
  return out;
}

std::string SignContext::sentence_text(const Sentence& s) const {
  std::string out;
  for (uint32_t i = s.first_term; i < s.end_term; ++i) {
    if (i > s.first_term) out.push_back(' ');
    out += text.terms[i];
  }
  return out;
}

std::vector<uint32_t> top_in_order(const std::vector<double>& scores, uint32_t count) {
  std::vector<uint32_t> order(scores.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return scores[a] > scores[b]; });
  if (order.size() > count) order.resize(count);
  std::sort(order.begin(), order.end());
  return order;
}

}  // namespace husk
