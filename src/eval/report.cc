#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

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

Status write_dedup_report(const std::string& dir, const DedupReport& r, const std::vector<DedupPage>& pages) {
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

  // Top 10.
  std::vector<const Cluster*> top;
  for (const Cluster& c : r.clusters) top.push_back(&c);
  std::stable_sort(top.begin(), top.end(), [](const Cluster* a, const Cluster* b) { return a->members.size() > b->members.size(); });
  if (top.size() > 10) top.resize(10);
  std::ostringstream top_csv;
  nlohmann::ordered_json top_json = nlohmann::json::array();
  top_csv << "rank,size,main,url,title\n";
  html << "<h2>Top " << top.size() << " clusters</h2>\n<table border=\"1\" cellpadding=\"4\"><tr><th>#</th><th>size</th>"
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
    html << "<tr><td>" << i + 1 << "</td><td>" << top[i]->members.size() << "</td><td>" << xml_escape(m.id, true)
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
