#include "sign/context.h"

#include <algorithm>
#include <unordered_map>

#include "normalize/languages.h"
#include "sign/hashing.h"

namespace husk {

double SignContext::idf(const TermWeight& term) const {
  if (stats != nullptr && stats->documents > 0) return stats->idf(term.term);
  return term.stopword ? 0.0 : 1.0;
}

bool SignContext::in_lexicon(const TermWeight& term) const {
  if (stats == nullptr || stats->documents == 0) return !term.stopword;
  auto it = stats->df.find(term.term);
  uint64_t df = it == stats->df.end() ? 0 : it->second;
  return df >= options.lexicon_min_df &&
         static_cast<double>(df) <= options.lexicon_max_df_share * static_cast<double>(stats->documents);
}

const std::vector<uint64_t>& SignContext::term_hashes() {
  if (term_hashes_.size() != text.terms.size()) {
    term_hashes_.clear();
    term_hashes_.reserve(text.terms.size());
    for (const std::string& t : text.terms) term_hashes_.push_back(xxh64(t, 0));
  }
  return term_hashes_;
}

const std::vector<TermWeight>& SignContext::weights() {
  if (weights_) return *weights_;
  // Terms are told apart by their 64-bit hashes (two distinct terms of one
  // text sharing one: probability ~2^-45), and listed in order of first
  // occurrence, which is canonical for a given text.
  // The hash index is open addressing with linear probing over a power of
  // two at least twice the number of terms: no allocation per term.
  const std::vector<uint64_t>& hashes = term_hashes();
  std::size_t capacity = 16;
  while (capacity < hashes.size() * 2) capacity <<= 1;
  const std::size_t mask = capacity - 1;
  constexpr uint32_t kEmpty = 0xFFFFFFFFu;
  std::vector<uint32_t> table(capacity, kEmpty);
  std::vector<TermWeight> out;
  slot_.resize(hashes.size());
  const WordSet& stopwords = language_data().stopwords;
  for (uint32_t i = 0; i < hashes.size(); ++i) {
    std::size_t at = hashes[i] & mask;
    while (table[at] != kEmpty && out[table[at]].hash != hashes[i]) at = (at + 1) & mask;
    if (table[at] == kEmpty) {
      table[at] = static_cast<uint32_t>(out.size());
      out.push_back({text.terms[i], 0, 0.0, hashes[i], stopwords.contains(text.terms[i])});
    }
    ++out[table[at]].count;
    slot_[i] = table[at];
  }
  const double total = static_cast<double>(hashes.size());
  for (TermWeight& t : out) t.weight = static_cast<double>(t.count) / total * idf(t);
  weights_ = std::move(out);
  return *weights_;
}

const std::vector<const TermWeight*>& SignContext::lexicon() {
  if (lexicon_) return *lexicon_;
  std::vector<const TermWeight*> out;
  for (const TermWeight& t : weights())
    if (in_lexicon(t)) out.push_back(&t);
  std::sort(out.begin(), out.end(), [](const TermWeight* a, const TermWeight* b) { return a->hash < b->hash; });
  lexicon_ = std::move(out);
  return *lexicon_;
}

double SignContext::weight_at(uint32_t position) { return term_at(position).weight; }

const TermWeight& SignContext::term_at(uint32_t position) {
  weights();
  return (*weights_)[slot_[position]];
}

std::vector<uint64_t> SignContext::word_shingles(uint32_t w) {
  const std::vector<uint64_t>& hashes = term_hashes();
  std::vector<uint64_t> out;
  if (hashes.empty()) return out;
  w = std::max<uint32_t>(w, 1);
  auto mix = [](uint64_t h, uint64_t term) {
    uint64_t mixed = h ^ term;
    return splitmix64(mixed);
  };
  if (hashes.size() < w) {  // one shingle of every term
    uint64_t h = w;
    for (uint64_t term : hashes) h = mix(h, term);
    out.push_back(h);
    return out;
  }
  const std::size_t count = hashes.size() - w + 1;
  out.resize(count);
  // Four shingles a step: each is a chain of w mixes, each mix waiting on
  // the one before, so four chains side by side keep the multipliers busy.
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    uint64_t h0 = w, h1 = w, h2 = w, h3 = w;
    const uint64_t* t = hashes.data() + i;
    for (std::size_t k = 0; k < w; ++k) {
      h0 = mix(h0, t[k]);
      h1 = mix(h1, t[k + 1]);
      h2 = mix(h2, t[k + 2]);
      h3 = mix(h3, t[k + 3]);
    }
    out[i] = h0;
    out[i + 1] = h1;
    out[i + 2] = h2;
    out[i + 3] = h3;
  }
  for (; i < count; ++i) {
    uint64_t h = w;
    for (std::size_t k = i; k < i + w; ++k) h = mix(h, hashes[k]);
    out[i] = h;
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
