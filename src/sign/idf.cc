#include <charconv>

#include "husk/sign.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <unordered_set>

#include "ingest/gz_reader.h"

namespace husk {

double CollectionStats::idf(std::string_view term) const {
  auto it = df.find(term);
  uint64_t d = it == df.end() ? 1 : std::max<uint64_t>(1, it->second);
  return std::log(static_cast<double>(std::max<uint64_t>(documents, d)) / static_cast<double>(d));
}

double CollectionStats::df_share(std::string_view term) const {
  if (documents == 0) return 0.0;
  auto it = df.find(term);
  return it == df.end() ? 0.0 : static_cast<double>(it->second) / static_cast<double>(documents);
}

DfCounter::DfCounter(double epsilon)
    : epsilon_(epsilon), bucket_width_(static_cast<uint64_t>(std::ceil(1.0 / epsilon))) {}

void DfCounter::add_document(const std::vector<std::string>& terms) {
  ++documents_;
  std::unordered_set<std::string_view> seen;
  for (const std::string& t : terms) {
    if (!seen.insert(t).second) continue;
    uint64_t bucket = items_ / bucket_width_ + 1;
    auto [it, inserted] = counts_.try_emplace(t, Entry{0, bucket - 1});
    ++it->second.count;
    if (++items_ % bucket_width_ == 0) prune();
  }
}

// At each bucket boundary, entries whose count plus possible under-count
// cannot exceed the bucket number are dropped (Manku & Motwani, fig. 3).
void DfCounter::prune() {
  uint64_t bucket = items_ / bucket_width_;
  for (auto it = counts_.begin(); it != counts_.end();) {
    if (it->second.count + it->second.delta <= bucket) {
      it = counts_.erase(it);
    } else {
      ++it;
    }
  }
}

CollectionStats DfCounter::finish() const {
  CollectionStats stats;
  stats.documents = documents_;
  for (const auto& [term, entry] : counts_) stats.df[term] = entry.count;
  return stats;
}

Status save_collection_stats(const CollectionStats& stats, double epsilon, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status(Code::kIo, path + ": cannot open for writing");
  std::vector<const std::pair<const std::string, uint64_t>*> rows;
  rows.reserve(stats.df.size());
  for (const auto& row : stats.df) rows.push_back(&row);
  std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->first < b->first; });
  out << "husk-idf 1\ndocuments " << stats.documents << "\nepsilon " << epsilon << "\n";
  if (!stats.normalize.empty()) out << "normalize " << stats.normalize << "\n";
  for (const auto* row : rows) out << row->first << '\t' << row->second << '\n';
  out.flush();
  if (!out) return Status(Code::kIo, path + ": write failed");
  return Status();
}

namespace {

// A whole field as an unsigned decimal number.
bool parse_count(std::string_view text, uint64_t& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

}  // namespace

Result<CollectionStats> load_collection_stats(const std::string& path) {
  GzReader reader;
  if (Status st = reader.open(path); !st.ok()) return st;
  std::string line;
  std::size_t line_no = 0;
  CollectionStats stats;
  auto bad = [&](const std::string& what) {
    return Status(Code::kCorrupt, path + ":" + std::to_string(line_no) + ": " + what);
  };
  while (reader.read_line(line, 1u << 20)) {
    ++line_no;
    if (reader.line_over()) return bad("line longer than 1 MiB");
    if (line_no == 1) {
      if (line != "husk-idf 1") return bad("not a husk IDF file (expected \"husk-idf 1\")");
      continue;
    }
    if (line.rfind("documents ", 0) == 0) {
      if (!parse_count(std::string_view(line).substr(10), stats.documents))
        return bad("documents: \"" + line.substr(10) + "\" is not a count of documents");
      continue;
    }
    if (line.rfind("epsilon ", 0) == 0) continue;
    if (line.rfind("normalize ", 0) == 0) {
      stats.normalize = line.substr(10);
      continue;
    }
    std::size_t tab = line.find('\t');
    if (tab == std::string::npos) return bad("expected TERM<TAB>DF");
    uint64_t df = 0;
    if (!parse_count(std::string_view(line).substr(tab + 1), df))
      return bad("document frequency of \"" + line.substr(0, tab) + "\" is not a count");
    stats.df.emplace(line.substr(0, tab), df);
  }
  if (!reader.status().ok()) return reader.status();
  if (line_no == 0) return Status(Code::kCorrupt, path + ": empty IDF file");
  return stats;
}

}  // namespace husk
