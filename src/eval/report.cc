#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "base/text_util.h"
#include "eval/report.h"

namespace husk {

namespace {


std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  return out + "\"";
}

// Cluster sizes in the buckets the homework's histograms use: exact up to
// 9, then decades.
std::vector<std::pair<std::string, double>> size_histogram(const std::vector<Cluster>& clusters) {
  std::map<std::size_t, std::size_t> counts;
  for (const Cluster& c : clusters) ++counts[c.members.size()];
  std::vector<std::pair<std::string, std::size_t>> buckets = {{"2", 0}, {"3", 0}, {"4", 0}, {"5", 0}, {"6", 0},
                                                              {"7", 0}, {"8", 0}, {"9", 0}, {"10-19", 0},
                                                              {"20-49", 0}, {"50-99", 0}, {"100+", 0}};
  for (const auto& [size, n] : counts) {
    std::size_t at = size <= 9 ? size - 2 : size < 20 ? 8 : size < 50 ? 9 : size < 100 ? 10 : 11;
    buckets[at].second += n;
  }
  std::vector<std::pair<std::string, double>> out;
  for (const auto& [label, n] : buckets) out.emplace_back(label, static_cast<double>(n));
  return out;
}

Status write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.flush();
  if (!out) return Status(Code::kIo, path.string() + ": cannot write");
  return Status();
}

// A text's paragraphs (blank-line separated; a text without blank lines is
// one paragraph per line).
std::vector<std::string_view> paragraphs(std::string_view text) {
  std::vector<std::string_view> out;
  const bool blank_lines = text.find("\n\n") != std::string_view::npos;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find(blank_lines ? "\n\n" : "\n", at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view p = trim(text.substr(at, end - at));
    if (!p.empty()) out.push_back(p);
    at = end + (blank_lines ? 2 : 1);
  }
  return out;
}

// One column of the side-by-side view: each paragraph marked shared (the
// other text has it, white space aside) or differing.
std::string text_column(std::string_view text, std::string_view other) {
  std::unordered_set<std::string> theirs;
  for (std::string_view p : paragraphs(other)) theirs.insert(collapse_space(p));
  std::string out;
  for (std::string_view p : paragraphs(text)) {
    const bool shared = theirs.count(collapse_space(p)) > 0;
    out += std::string("<p class=\"") + (shared ? "shared" : "differs") + "\">" + xml_escape(p, false) + "</p>\n";
  }
  return out;
}

std::string score_text(double score, const std::string& measure) {
  char buf[48];
  if (measure == "equal") return "the same signature";
  if (measure == "hamming") {
    std::snprintf(buf, sizeof buf, "Hamming %d", static_cast<int>(score));
  } else {
    std::snprintf(buf, sizeof buf, "%s %.3f", measure.c_str(), score);
  }
  return buf;
}

constexpr const char* kClustersStyle = R"(
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 80em; color: #222; }
table.members { border-collapse: collapse; } table.members td, table.members th { border-bottom: 1px solid #ddd; padding: .2em .5em; text-align: left; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; margin: .6em 0 1.4em; }
.pair h4 { margin: .2em 0; font-size: .9em; }
p.shared { background: #eef3fb; border-left: 4px solid #7a9cc6; padding: .2em .5em; margin: .3em 0; }
p.differs { background: #fdf3e3; border-left: 4px solid #d9912b; padding: .2em .5em; margin: .3em 0; }
.note { color: #666; font-size: .9em; }
)";

// clusters.html: every cluster (the kReportClusters largest), its members
// and their scores, and texts side by side.
std::string clusters_page(const DedupReport& r, const std::vector<DedupPage>& pages,
                          const std::vector<std::string>& texts, const std::vector<const Cluster*>& order) {
  // Each shown page's cluster and place in it; then, in one pass over the
  // pairs whatever the clusters' sizes, its pair with its main page and its
  // nearest pair inside its cluster (on a tie, with the member listed first).
  constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> cluster_of(pages.size(), kNone), place(pages.size(), 0);
  for (std::size_t n = 0; n < order.size(); ++n)
    for (std::size_t k = 0; k < order[n]->members.size(); ++k) {
      cluster_of[order[n]->members[k]] = static_cast<uint32_t>(n);
      place[order[n]->members[k]] = static_cast<uint32_t>(k);
    }
  auto other = [](const Pair& p, uint32_t page) { return p.a == page ? p.b : p.a; };
  // The nearer of two scores: a Hamming distance is nearer when smaller,
  // a similarity when larger.
  const bool distance = r.measure == "hamming";
  auto nearer = [distance](double x, double y) { return distance ? x < y : x > y; };
  std::vector<const Pair*> with_main(pages.size(), nullptr), best(pages.size(), nullptr);
  for (const Pair& p : r.pairs) {
    if (cluster_of[p.a] == kNone || cluster_of[p.a] != cluster_of[p.b]) continue;
    for (uint32_t page : {p.a, p.b}) {
      if (other(p, page) == order[cluster_of[page]]->main) with_main[page] = &p;
      const Pair*& b = best[page];
      if (b == nullptr || nearer(p.score, b->score) ||
          (p.score == b->score && place[other(p, page)] < place[other(*b, page)]))
        b = &p;
    }
  }
  auto text_of = [&](uint32_t page) -> std::string_view {
    return page < texts.size() ? std::string_view(texts[page]) : std::string_view();
  };
  std::ostringstream html;
  html << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>husk dedup: clusters</title><style>"
       << kClustersStyle << "</style></head><body>\n<h1>husk dedup: " << xml_escape(r.method, true) << " "
       << xml_escape(r.setting, true) << ", " << r.clusters.size() << " clusters</h1>\n"
       << "<p class=\"note\">Largest first" << (order.size() < r.clusters.size() ? ", the first " + std::to_string(order.size()) : std::string())
       << ". Each member's score is its pair's with the main page; a member with no pair of its own with the main page "
          "was joined through another member, named with that pair's score. Beside the main page's text, the first "
       << kReportTexts << " members' texts: <span style=\"background:#eef3fb\">paragraphs both texts hold</span>, "
       << "<span style=\"background:#fdf3e3\">paragraphs only one holds</span>.</p>\n";
  for (std::size_t n = 0; n < order.size(); ++n) {
    const Cluster& c = *order[n];
    const DedupPage& main = pages[c.main];
    html << "<section class=\"cluster\" id=\"c" << n + 1 << "\" data-size=\"" << c.members.size() << "\">\n<h2>Cluster "
         << n + 1 << ": " << c.members.size() << " pages, main " << xml_escape(main.id, false) << "</h2>\n"
         << "<table class=\"members\"><tr><th>page</th><th>url</th><th>title</th><th>language</th><th>score</th></tr>\n";
    for (uint32_t m : c.members) {
      const DedupPage& p = pages[m];
      std::string score;
      if (m == c.main) {
        score = "main page";
      } else if (with_main[m] != nullptr) {
        score = score_text(with_main[m]->score, r.measure);
      } else {
        // Joined through another member: its nearest pair inside the cluster.
        score = best[m] == nullptr ? "joined through the cluster"
                                   : "via " + pages[other(*best[m], m)].id + ": " + score_text(best[m]->score, r.measure);
      }
      html << "<tr class=\"member\" data-id=\"" << xml_escape(p.id, true) << "\"><td>" << xml_escape(p.id, false)
           << "</td><td>" << xml_escape(p.url, false) << "</td><td>" << xml_escape(p.title, false) << "</td><td>"
           << xml_escape(p.language, false) << "</td><td>" << xml_escape(score, false) << "</td></tr>\n";
    }
    html << "</table>\n";
    std::size_t shown = 0;
    for (uint32_t m : c.members) {
      if (m == c.main || shown == kReportTexts) continue;
      ++shown;
      if (text_of(c.main).empty() && text_of(m).empty()) {
        html << "<p class=\"note\">No texts: the input's records hold none (husk sign leaves them out; "
                "run husk dedup on husk extract's records to see them).</p>\n";
        break;
      }
      html << "<div class=\"pair\"><div><h4>" << xml_escape(main.id, false) << " (main)</h4>\n"
           << text_column(text_of(c.main), text_of(m)) << "</div><div><h4>" << xml_escape(pages[m].id, false)
           << "</h4>\n" << text_column(text_of(m), text_of(c.main)) << "</div></div>\n";
    }
    html << "</section>\n";
  }
  html << "</body></html>\n";
  return html.str();
}

}  // namespace

std::string bar_chart_svg(const std::string& title, const std::string& x_label,
                          const std::vector<std::pair<std::string, double>>& bars, bool log_scale) {
  const double width = 720, height = 360, left = 60, right = 20, top = 40, bottom = 60;
  const double plot_w = width - left - right, plot_h = height - top - bottom;
  auto scale = [&](double v) { return log_scale ? std::log10(1.0 + v) : v; };
  double max_v = 0;
  for (const auto& b : bars) max_v = std::max(max_v, scale(b.second));
  if (max_v <= 0) max_v = 1;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"11\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << width / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">" << xml_escape(title, true)
      << "</text>\n"
      << "<line x1=\"" << left << "\" y1=\"" << top + plot_h << "\" x2=\"" << left + plot_w << "\" y2=\"" << top + plot_h
      << "\" stroke=\"black\"/>\n"
      << "<line x1=\"" << left << "\" y1=\"" << top << "\" x2=\"" << left << "\" y2=\"" << top + plot_h
      << "\" stroke=\"black\"/>\n";
  // Y ticks: decades on a log scale, quarters otherwise.
  std::vector<double> ticks;
  if (log_scale) {
    for (double t = 1; scale(t) <= max_v * 1.0001; t *= 10) ticks.push_back(t);
  } else {
    for (int q = 0; q <= 4; ++q) ticks.push_back(std::round(max_v * q / 4));
  }
  for (double t : ticks) {
    double y = top + plot_h - scale(t) / max_v * plot_h;
    svg << "<line x1=\"" << left - 4 << "\" y1=\"" << y << "\" x2=\"" << left + plot_w << "\" y2=\"" << y
        << "\" stroke=\"#ddd\"/>\n<text x=\"" << left - 6 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">" << t
        << "</text>\n";
  }
  const double slot = bars.empty() ? plot_w : plot_w / static_cast<double>(bars.size());
  const std::size_t label_every = std::max<std::size_t>(1, bars.size() / 16);
  for (std::size_t i = 0; i < bars.size(); ++i) {
    double h = scale(bars[i].second) / max_v * plot_h;
    double x = left + slot * static_cast<double>(i);
    svg << "<rect x=\"" << x + slot * 0.1 << "\" y=\"" << top + plot_h - h << "\" width=\"" << slot * 0.8
        << "\" height=\"" << h << "\" fill=\"#4477aa\"><title>" << xml_escape(bars[i].first, true) << ": " << bars[i].second
        << "</title></rect>\n";
    if (i % label_every == 0)
      svg << "<text x=\"" << x + slot / 2 << "\" y=\"" << top + plot_h + 16 << "\" text-anchor=\"middle\">"
          << xml_escape(bars[i].first, true) << "</text>\n";
  }
  svg << "<text x=\"" << left + plot_w / 2 << "\" y=\"" << height - 16 << "\" text-anchor=\"middle\">"
      << xml_escape(x_label, true) << "</text>\n</svg>\n";
  return svg.str();
}

Status write_dedup_report(const std::string& dir, const DedupReport& r, const std::vector<DedupPage>& pages,
                          const std::vector<std::string>& texts) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status(Code::kIo, dir + ": " + ec.message());
  fs::path root(dir);
  std::ostringstream html, sizes_csv;
  html << "<!doctype html><meta charset=\"utf-8\"><title>husk dedup report</title>\n"
       << "<body style=\"font-family:sans-serif\"><h1>husk dedup: " << xml_escape(r.method, true) << " "
       << xml_escape(r.setting, true) << "</h1>\n<p>" << r.pages << " pages, " << r.clusters.size() << " clusters, "
       << r.stats.pairs << " pairs from " << r.stats.candidates << " candidates, " << r.seconds << " s</p>\n";
  sizes_csv << "setting,size,clusters\n";
  html << "<h2>Cluster sizes</h2>\n";
  for (const auto& [setting, clusters] : r.settings) {
    std::string name = "sizes-" + setting + ".svg";
    for (char& c : name)
      if (c == '=') c = '-';
    auto hist = size_histogram(clusters);
    if (Status st = write(root / name, bar_chart_svg(r.method + " " + setting + ": " + std::to_string(clusters.size()) +
                                                         " clusters", "cluster size (pages)", hist, true));
        !st.ok())
      return st;
    std::map<std::size_t, std::size_t> exact;
    for (const Cluster& c : clusters) ++exact[c.members.size()];
    for (const auto& [size, n] : exact) sizes_csv << setting << "," << size << "," << n << "\n";
    html << "<img src=\"" << name << "\" alt=\"cluster sizes " << xml_escape(setting, true) << "\">\n";
  }
  if (Status st = write(root / "cluster_sizes.csv", sizes_csv.str()); !st.ok()) return st;

  // Candidate distances.
  std::vector<std::pair<std::string, double>> dist;
  std::ostringstream dist_csv;
  const bool hamming = r.stats.distance_histogram.size() == 65;
  dist_csv << (hamming ? "hamming" : "jaccard") << ",candidates\n";
  for (std::size_t i = 0; i < r.stats.distance_histogram.size(); ++i) {
    std::string label = hamming ? std::to_string(i) : std::to_string(i * 5) + "%";
    dist.emplace_back(label, static_cast<double>(r.stats.distance_histogram[i]));
    dist_csv << (hamming ? std::to_string(i) : std::to_string(i * 0.05)) << "," << r.stats.distance_histogram[i] << "\n";
  }
  if (!dist.empty()) {
    if (Status st = write(root / "distances.svg", bar_chart_svg("candidate pairs by " +
                                                                    std::string(hamming ? "Hamming distance" : "estimated Jaccard similarity") +
                                                                    " (log scale)",
                                                                hamming ? "Hamming distance" : "Jaccard similarity", dist, true));
        !st.ok())
      return st;
    if (Status st = write(root / "distances.csv", dist_csv.str()); !st.ok()) return st;
    html << "<h2>Candidate distances</h2>\n<img src=\"distances.svg\" alt=\"candidate distances\">\n";
  }

  // Every cluster, largest first; the top 10.
  std::vector<const Cluster*> order;
  for (const Cluster& c : r.clusters) order.push_back(&c);
  std::stable_sort(order.begin(), order.end(),
                   [](const Cluster* a, const Cluster* b) { return a->members.size() > b->members.size(); });
  if (order.size() > kReportClusters) order.resize(kReportClusters);
  if (Status st = write(root / "clusters.html", clusters_page(r, pages, texts, order)); !st.ok()) return st;
  std::vector<const Cluster*> top(order.begin(), order.begin() + std::min<std::size_t>(order.size(), 10));
  std::ostringstream top_csv;
  nlohmann::ordered_json top_json = nlohmann::json::array();
  top_csv << "rank,size,main,url,title\n";
  html << "<h2>Top " << top.size() << " clusters</h2>\n<p><a href=\"clusters.html\">Every cluster: its members, their "
          "scores and their texts side by side</a></p>\n<table border=\"1\" cellpadding=\"4\"><tr><th>#</th><th>size</th>"
       << "<th>main page</th><th>url</th><th>title</th></tr>\n";
  for (std::size_t i = 0; i < top.size(); ++i) {
    const DedupPage& m = pages[top[i]->main];
    top_csv << i + 1 << "," << top[i]->members.size() << "," << csv_field(m.id) << "," << csv_field(m.url) << ","
            << csv_field(m.title) << "\n";
    nlohmann::ordered_json j;
    j["rank"] = i + 1;
    j["size"] = top[i]->members.size();
    j["main"] = m.id;
    j["url"] = m.url;
    j["title"] = m.title;
    top_json.push_back(j);
    html << "<tr><td><a href=\"clusters.html#c" << i + 1 << "\">" << i + 1 << "</a></td><td>" << top[i]->members.size() << "</td><td>" << xml_escape(m.id, true)
         << "</td><td>" << xml_escape(m.url, true) << "</td><td>" << xml_escape(m.title, true) << "</td></tr>\n";
  }
  html << "</table>\n</body>\n";
  if (Status st = write(root / "top10.csv", top_csv.str()); !st.ok()) return st;
  if (Status st = write(root / "top10.json", top_json.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"); !st.ok())
    return st;

  nlohmann::ordered_json summary;
  summary["method"] = r.method;
  summary["setting"] = r.setting;
  summary["pages"] = r.pages;
  summary["clusters"] = r.clusters.size();
  std::size_t clustered = 0;
  for (const Cluster& c : r.clusters) clustered += c.members.size();
  summary["pages_in_clusters"] = clustered;
  summary["pairs"] = r.stats.pairs;
  summary["candidates"] = r.stats.candidates;
  summary["seconds"] = r.seconds;
  nlohmann::ordered_json per = nlohmann::json::object();
  for (const auto& [setting, clusters] : r.settings) per[setting] = clusters.size();
  summary["clusters_by_setting"] = per;
  if (Status st = write(root / "summary.json", summary.dump(1) + "\n"); !st.ok()) return st;
  return write(root / "index.html", html.str());
}

}  // namespace husk
