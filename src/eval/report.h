// The dedup report (--report DIR), written by husk itself: SVG charts a
// person can open, the same numbers as CSV and JSON, and an index.html.
//   sizes-<setting>.svg   cluster-size histogram per setting (k = 3, 5, 10,
//                         15 for simhash; several thresholds otherwise)
//   cluster_sizes.csv     setting,size,clusters
//   distances.svg/.csv    candidate pairs per distance (simhash: Hamming
//                         0-64; minhash/spotsigs: Jaccard in 0.05 steps),
//                         log scale
//   top10.csv/.json       the largest clusters with their main page
//   summary.json          method, settings, counts, time
//   clusters.html         every cluster, largest first (the first
//                         kReportClusters): its members with url, title,
//                         language and their score against the main page
//                         (or the member they were joined through), and
//                         each member's text beside the main page's, the
//                         paragraphs they share and those that differ marked
//   index.html            all of the above on one page, linking clusters.html
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "husk/dedup.h"
#include "husk/status.h"

namespace husk {

struct DedupReport {
  std::string method;
  std::string setting;  // the run's own setting, "k=6" or "threshold=0.5"
  std::size_t pages = 0;
  double seconds = 0;
  DedupStats stats;
  std::vector<Cluster> clusters;  // the run's clusters (2+ pages)
  std::vector<Pair> pairs;        // the run's verified pairs, for the members' scores
  std::string measure;            // what a pair's score is: "jaccard", "containment", "hamming"
  // Cluster sizes under other settings, for the histograms.
  std::vector<std::pair<std::string, std::vector<Cluster>>> settings;
};

// The clusters clusters.html shows, and the members of each whose texts it
// sets beside the main page's.
inline constexpr std::size_t kReportClusters = 500;
inline constexpr std::size_t kReportTexts = 5;

// `texts`: each page's text, or empty (then clusters.html says the input
// held none: husk sign's records leave it out).
Status write_dedup_report(const std::string& dir, const DedupReport& report, const std::vector<DedupPage>& pages,
                          const std::vector<std::string>& texts);

// One SVG bar chart; log_scale draws bars on log10(1 + value).
std::string bar_chart_svg(const std::string& title, const std::string& x_label,
                          const std::vector<std::pair<std::string, double>>& bars, bool log_scale);

}  // namespace husk
