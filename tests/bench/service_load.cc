// A load client for husk serve on loopback: posts the pages of a corpus
// (repeated, each repetition under new URLs) over N connections and
// reports throughput and latency percentiles.
//
//   husk_load --port PORT --corpus DIR [--connections N] [--repeat R]
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "husk/ingest.h"

int main(int argc, char** argv) {
  int port = 0, connections = 2, repeat = 3;
  std::string corpus;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--port")) port = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--corpus")) corpus = argv[i + 1];
    if (!std::strcmp(argv[i], "--connections")) connections = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[i + 1]);
  }
  if (port == 0 || corpus.empty()) {
    std::fprintf(stderr, "usage: husk_load --port PORT --corpus DIR [--connections N] [--repeat R]\n");
    return 2;
  }
  std::vector<husk::RawPage> pages;
  husk::ingest({corpus}, husk::IngestOptions{}, [&](husk::RawPage&& p) {
    if (p.status.ok()) pages.push_back(std::move(p));
    return true;
  });
  const std::size_t total = pages.size() * static_cast<std::size_t>(repeat);
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> failed{0};
  std::mutex mutex;
  std::vector<double> latencies;
  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int c = 0; c < connections; ++c)
    threads.emplace_back([&] {
      httplib::Client client("127.0.0.1", port);
      client.set_keep_alive(true);
      client.set_tcp_nodelay(true);
      client.set_read_timeout(60, 0);
      std::vector<double> mine;
      for (std::size_t i = next++; i < total; i = next++) {
        const husk::RawPage& p = pages[i % pages.size()];
        std::string url = "https://load.example/" + std::to_string(i / pages.size()) + "/" + p.id;
        auto t0 = std::chrono::steady_clock::now();
        auto r = client.Post("/v1/pages?text=0", {{"X-Url", url}}, p.bytes, "text/html");
        mine.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        if (!r || r->status != 200) ++failed;
      }
      std::lock_guard<std::mutex> lock(mutex);
      latencies.insert(latencies.end(), mine.begin(), mine.end());
    });
  for (auto& t : threads) t.join();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::sort(latencies.begin(), latencies.end());
  auto pct = [&](double q) { return latencies.empty() ? 0.0 : latencies[static_cast<std::size_t>(q * (latencies.size() - 1))]; };
  std::printf("{\"connections\":%d,\"pages\":%zu,\"failed\":%zu,\"seconds\":%.3f,\"pages_per_s\":%.1f,\"p50_ms\":%.2f,\"p99_ms\":%.2f}\n",
              connections, total, failed.load(), seconds, static_cast<double>(total) / seconds, pct(0.5) * 1000,
              pct(0.99) * 1000);
  return failed == 0 ? 0 : 1;
}
