// Per-host boilerplate lines (husk/dedup.h, HostLines).
#include <algorithm>
#include <cmath>

#include "base/text_util.h"
#include "base/url.h"
#include "husk/dedup.h"
#include "sign/hashing.h"

namespace husk {

namespace {

constexpr uint32_t kRows = 4;

// Each line of a text (split at line breaks), trimmed, empty ones left out.
template <typename Each>
void for_each_line(std::string_view text, Each&& each) {
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = trim(text.substr(0, end));
    if (!line.empty()) each(line);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
  }
}

// A line as it is compared: white space collapsed.
std::string line_form(std::string_view line) { return collapse_space(line); }

uint64_t host_seed(std::string_view host) { return xxh64(host, 0x686f7374); }
// The host's document-count key: a hash no line of it can take but by chance.
uint64_t document_key(uint64_t seed) { return xxh64("\x01documents", seed); }
uint64_t line_key(uint64_t seed, std::string_view line) { return xxh64(line_form(line), seed); }

// The counter of `key` (itself a hash) in row r, by double hashing
// (Kirsch and Mitzenmacher 2006: two hash values stand in for k).
std::size_t slot(uint64_t key, uint32_t row, uint32_t width_log2) {
  const uint64_t mask = (uint64_t(1) << width_log2) - 1;
  const uint64_t step = (key >> 32) | 1;
  return (static_cast<std::size_t>(row) << width_log2) | static_cast<std::size_t>((key + row * step) & mask);
}

}  // namespace

HostLines::HostLines(uint32_t width_log2) : width_log2_(std::clamp<uint32_t>(width_log2, 4, 28)) {}

std::vector<uint32_t>& HostLines::counters() {
  if (counters_.empty()) counters_.assign(std::size_t(kRows) << width_log2_, 0);
  return counters_;
}

std::vector<uint64_t> host_line_keys(std::string_view url, std::string_view text) {
  std::vector<uint64_t> out;
  const std::string host = url_host(url);
  if (host.empty()) return out;
  const uint64_t seed = host_seed(host);
  out.push_back(document_key(seed));
  for_each_line(text, [&](std::string_view line) { out.push_back(line_key(seed, line)); });
  // A line a document repeats counts once for it.
  std::sort(out.begin() + 1, out.end());
  out.erase(std::unique(out.begin() + 1, out.end()), out.end());
  return out;
}

std::size_t strip_host_lines(std::string_view url, std::string_view text, std::string& kept,
                             const HostLineOptions& options, const std::function<uint32_t(uint64_t)>& count) {
  kept.clear();
  const std::string host = url_host(url);
  if (host.empty()) return 0;
  const uint64_t seed = host_seed(host);
  const double documents = count(document_key(seed));
  const double threshold = std::max<double>(options.min_documents, std::ceil(options.share * documents));
  std::size_t dropped = 0;
  for_each_line(text, [&](std::string_view line) {
    if (count(line_key(seed, line)) >= threshold) {
      ++dropped;
      return;
    }
    if (!kept.empty()) kept += '\n';
    kept.append(line);
  });
  // A text all of whose lines are its host's (a page that is all frame, or
  // a story the host repeats in most of its pages) is kept whole: there is
  // nothing else to compare it by.
  if (dropped > 0 && !kept.empty()) return dropped;
  kept.clear();
  return 0;
}

void HostLines::count(const std::vector<uint64_t>& keys) {
  if (keys.empty()) return;
  std::vector<uint32_t>& c = counters();
  for (uint64_t key : keys) {
    // Conservative update: only the counters at the current estimate rise.
    std::size_t at[kRows];
    uint32_t low = UINT32_MAX;
    for (uint32_t r = 0; r < kRows; ++r) {
      at[r] = slot(key, r, width_log2_);
      low = std::min(low, c[at[r]]);
    }
    if (low == UINT32_MAX) continue;
    for (uint32_t r = 0; r < kRows; ++r) c[at[r]] = std::max(c[at[r]], low + 1);
  }
}

uint32_t HostLines::estimate(uint64_t key) const {
  if (counters_.empty()) return 0;
  uint32_t low = UINT32_MAX;
  for (uint32_t r = 0; r < kRows; ++r) low = std::min(low, counters_[slot(key, r, width_log2_)]);
  return low;
}

std::size_t HostLines::strip(std::string_view url, std::string_view text, std::string& kept,
                             const HostLineOptions& options) const {
  return strip_host_lines(url, text, kept, options, [this](uint64_t key) { return estimate(key); });
}

}  // namespace husk
