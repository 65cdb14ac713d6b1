// Per-host frame lines (HostLines) against a brute-force twin that counts
// every host's lines exactly.
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "base/text_util.h"
#include "husk/dedup.h"
#include "unit/test_util.h"

namespace husk {
namespace {

struct Doc {
  std::string url, text;
};

// A word for n in letters.
std::string word(const std::string& prefix, long long n) {
  std::string out = prefix;
  do {
    out.push_back(static_cast<char>('a' + n % 26));
    n /= 26;
  } while (n > 0);
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::string line;
  for (char c : text + "\n") {
    if (c != '\n') {
      line.push_back(c);
    } else if (!trim(line).empty()) {
      out.emplace_back(trim(line));
      line.clear();
    } else {
      line.clear();
    }
  }
  return out;
}

// The twin's line form: white space collapsed.
std::string form(const std::string& line) { return collapse_space(line); }

std::string host_of(const std::string& url) {
  const std::size_t start = url.find("://");
  if (start == std::string::npos) return "";
  const std::string rest = url.substr(start + 3);
  return rest.substr(0, rest.find('/'));
}

// The twin: each host's documents and, per line form, the documents that
// hold it, counted exactly; a text loses the lines held by at least
// max(min_documents, ceil(share x documents)), unless it would lose all;
// nullopt for a text that keeps every line.
std::vector<std::optional<std::string>> brute_strip(const std::vector<Doc>& docs, const HostLineOptions& o) {
  std::map<std::string, int> documents;
  std::map<std::pair<std::string, std::string>, std::set<std::size_t>> holders;
  for (std::size_t d = 0; d < docs.size(); ++d) {
    const std::string host = host_of(docs[d].url);
    if (host.empty()) continue;
    ++documents[host];
    for (const std::string& l : lines_of(docs[d].text)) holders[{host, form(l)}].insert(d);
  }
  std::vector<std::optional<std::string>> out;
  for (const Doc& doc : docs) {
    const std::string host = host_of(doc.url);
    std::string kept;
    bool dropped = false;
    const double threshold = std::max<double>(o.min_documents, std::ceil(o.share * documents[host]));
    for (const std::string& l : lines_of(doc.text)) {
      if (!host.empty() && holders[{host, form(l)}].size() >= threshold) {
        dropped = true;
      } else {
        kept += (kept.empty() ? "" : "\n") + l;
      }
    }
    out.push_back(dropped && !kept.empty() ? std::optional<std::string>(kept) : std::nullopt);
  }
  return out;
}

// Hosts of 1 to 60 pages, each page its host's frame lines (some with a
// number that changes) around lines of its own, some repeated from another
// page of the host.
std::vector<Doc> corpus(uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Doc> docs;
  for (int host = 0; host < 12; ++host) {
    const int pages = 1 + static_cast<int>(rng() % 60);
    std::vector<std::string> frame;
    for (int f = 0; f < 15; ++f) frame.push_back(word("frame" + word("", host) + "x", f) + " " + word("menu", f * 7 + host));
    for (int p = 0; p < pages; ++p) {
      std::string text;
      for (int f = 0; f < 15; ++f)
        if (rng() % 10 < 8) text += frame[f] + (f % 4 == 0 ? " page " + std::to_string(rng() % 500) : "") + "\n";
      const int own = static_cast<int>(rng() % 6);
      for (int o = 0; o < own; ++o) text += "  " + word("own", static_cast<long long>(rng() % 400)) + "  item\n\n";
      docs.push_back({host % 5 == 4 ? "" : "https://h" + std::to_string(host) + ".example/" + std::to_string(p), text});
    }
  }
  return docs;
}

TEST(HostLines, StripsWhatTheBruteForceTwinStrips) {
  for (uint32_t seed = 1; seed <= 6; ++seed)
    for (const HostLineOptions& o : {HostLineOptions{}, HostLineOptions{3, 0.0}, HostLineOptions{10, 0.2}}) {
      const std::vector<Doc> docs = corpus(seed);
      HostLines lines;
      for (const Doc& d : docs) lines.count(host_line_keys(d.url, d.text));
      const std::vector<std::optional<std::string>> expected = brute_strip(docs, o);
      std::size_t stripped = 0, whole = 0;
      for (std::size_t i = 0; i < docs.size(); ++i) {
        std::string text;
        const std::size_t dropped = lines.strip(docs[i].url, docs[i].text, text, o);
        if (dropped == 0) {
          EXPECT_EQ(text, "");
          EXPECT_FALSE(expected[i]) << "seed " << seed << ", page " << i << ": the twin strips it";
          ++whole;
        } else {
          ++stripped;
          EXPECT_EQ(std::optional<std::string>(text), expected[i]) << "seed " << seed << ", page " << i;
        }
      }
      EXPECT_GT(stripped, 0u) << "seed " << seed;
      EXPECT_GT(whole, 0u) << "seed " << seed;
    }
}

}  // namespace
}  // namespace husk
