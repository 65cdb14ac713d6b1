// The persistent near-duplicate index (husk/index.h) on LMDB. Candidate
// search and verification are husk dedup's own (dedup/search.h): the same
// band keys, the same permuted-table layout, the same measures.
#include "husk/index.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <lmdb.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <system_error>
#include <thread>
#include <variant>

#include "dedup/search.h"
#include "record/record.h"
#include "husk/metadata.h"
#include "record/signature_json.h"
#include "sign/hashing.h"

namespace husk {

namespace {

// What LMDB maps beyond IndexOptions::map_size: room for deletions and
// cluster updates once adds are refused (a deletion copies the B-tree
// pages it changes before freeing any), an eighth of the limit and at
// least 8 MiB. Mapped address space costs nothing until written.
std::size_t map_reserve(std::size_t map_size) { return std::max<std::size_t>(map_size / 8, std::size_t(8) << 20); }

// The layout of the stored keys and values; an index written with another
// is refused. 3: the minhash table's value carries the page's language and
// arrival number before its minima and sketch.
constexpr uint64_t kFormat = 3;

// The number of pages the simhash tables are laid out for (Manku 2007
// section 3.1 weighs tables against run length for a given n): 16 million.
// At most 64 tables, so a page costs at most 64 postings.
constexpr double kDesignPages = 16777216.0;
constexpr uint64_t kMaxTables = 64;

Status lmdb_error(int rc, const std::string& what) { return Status(Code::kIo, what + ": " + mdb_strerror(rc)); }

// A stored record as written: a JSON object in valid UTF-8. Flipped bits
// on disk make it something else, which no reader is handed.
bool whole_record(std::string_view record) {
  return !record.empty() && record.front() == '{' && nlohmann::json::accept(record);
}

MDB_val val_of(std::string_view s) { return MDB_val{s.size(), const_cast<char*>(s.data())}; }
std::string_view view_of(const MDB_val& v) { return {static_cast<const char*>(v.mv_data), v.mv_size}; }

// Big-endian so that LMDB's byte order is numeric order.
void put_be(std::string& out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

uint64_t get_be(std::string_view in, std::size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = v << 8 | static_cast<uint8_t>(in[at + static_cast<std::size_t>(i)]);
  return v;
}

// A read transaction for the lifetime of a scope.
struct ReadTxn {
  MDB_txn* txn = nullptr;
  int rc = 0;
  explicit ReadTxn(MDB_env* env) { rc = mdb_txn_begin(env, nullptr, MDB_RDONLY, &txn); }
  ~ReadTxn() {
    if (txn != nullptr) mdb_txn_abort(txn);
  }
};

// Calls `each` with every (key, value) whose key starts with `prefix`, in
// key order, until it returns false.
template <typename Each>
int scan(MDB_txn* txn, MDB_dbi dbi, std::string_view prefix, Each&& each) {
  MDB_cursor* cursor = nullptr;
  int rc = mdb_cursor_open(txn, dbi, &cursor);
  if (rc != 0) return rc;
  MDB_val k = val_of(prefix), v{};
  for (rc = mdb_cursor_get(cursor, &k, &v, prefix.empty() ? MDB_FIRST : MDB_SET_RANGE); rc == 0;
       rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT)) {
    std::string_view key = view_of(k);
    if (key.substr(0, prefix.size()) != prefix) break;
    if (!each(key, view_of(v))) break;
  }
  mdb_cursor_close(cursor);
  return rc == MDB_NOTFOUND ? 0 : rc;
}

// A transaction's reads and writes with its first LMDB error kept: after
// an error every further step is skipped, and rc() says what failed. A key
// that is absent is no error.
class Txn {
 public:
  explicit Txn(MDB_txn* txn) : txn_(txn) {}
  MDB_txn* raw() const { return txn_; }
  int rc() const { return rc_; }
  void fail(int rc) {
    if (rc_ == 0 && rc != 0 && rc != MDB_NOTFOUND) rc_ = rc;
  }

  std::optional<std::string> get(MDB_dbi dbi, std::string_view key) {
    if (rc_ != 0) return std::nullopt;
    MDB_val k = val_of(key), v{};
    int rc = mdb_get(txn_, dbi, &k, &v);
    fail(rc);
    if (rc != 0) return std::nullopt;
    return std::string(view_of(v));
  }
  void put(MDB_dbi dbi, std::string_view key, std::string_view value) {
    if (rc_ != 0) return;
    MDB_val k = val_of(key), v = val_of(value);
    int rc = mdb_put(txn_, dbi, &k, &v, 0);
    if (rc != MDB_KEYEXIST) fail(rc);  // a posting already there
  }
  // Deletes a key, or one of its duplicates.
  void del(MDB_dbi dbi, std::string_view key, std::optional<std::string_view> value = {}) {
    if (rc_ != 0) return;
    MDB_val k = val_of(key);
    MDB_val v = value ? val_of(*value) : MDB_val{};
    fail(mdb_del(txn_, dbi, &k, value ? &v : nullptr));
  }
  // Whether a dup-sorted table holds exactly (key, value): one cursor
  // lookup, whatever the number of postings under the key.
  bool has_pair(MDB_dbi dbi, std::string_view key, std::string_view value) {
    if (rc_ != 0) return false;
    MDB_cursor* cursor = nullptr;
    int rc = mdb_cursor_open(txn_, dbi, &cursor);
    if (rc != 0) {
      fail(rc);
      return false;
    }
    MDB_val k = val_of(key), v = val_of(value);
    rc = mdb_cursor_get(cursor, &k, &v, MDB_GET_BOTH);
    mdb_cursor_close(cursor);
    fail(rc);
    return rc == 0;
  }
  // How many values a dup-sorted table holds under exactly `key`.
  std::size_t count(MDB_dbi dbi, std::string_view key) {
    if (rc_ != 0) return 0;
    MDB_cursor* cursor = nullptr;
    int rc = mdb_cursor_open(txn_, dbi, &cursor);
    if (rc != 0) {
      fail(rc);
      return 0;
    }
    MDB_val k = val_of(key), v{};
    std::size_t n = 0;
    rc = mdb_cursor_get(cursor, &k, &v, MDB_SET);
    if (rc == 0) rc = mdb_cursor_count(cursor, &n);
    mdb_cursor_close(cursor);
    fail(rc);
    return rc == 0 ? n : 0;
  }
  // The values stored under exactly `key` (a dup-sorted table's postings).
  std::vector<std::string> values(MDB_dbi dbi, std::string_view key) {
    std::vector<std::string> out;
    if (rc_ != 0) return out;
    fail(scan(txn_, dbi, key, [&](std::string_view k, std::string_view v) {
      if (k.size() == key.size()) out.emplace_back(v);
      return true;
    }));
    return out;
  }
  template <typename Each>
  void each(MDB_dbi dbi, std::string_view prefix, Each&& each) {
    if (rc_ == 0) fail(scan(txn_, dbi, prefix, std::forward<Each>(each)));
  }

 private:
  MDB_txn* txn_;
  int rc_ = 0;
};

// An export or a verification keeps its resident set bounded. LMDB maps
// the file, so every page a pass reads stays in the process's resident set
// (a 4 GB index exported gave a 4 GB peak RSS). Every 8 MiB it has mapped,
// the map's pages are dropped from this process (MADV_DONTNEED); they stay
// in the page cache and a later read maps them again. What a pass maps is
// not what it reads: the kernel maps the pages around each one read
// (fault-around), and a table's pages lie among the other tables'. Counting
// bytes read, a 4 GB index's export peaked at 0.2 GB and its verification
// at 0.4 GB; counting the fault-around windows touched, 36-206 MB as the
// page cache holds more or less of it (docs/service.md). LMDB maps the
// file read-only and shared (no MDB_WRITEMAP), so nothing is lost.
class MapRelease {
 public:
  // The map is the mapping of the index's data.mdb in /proc/self/maps
  // (LMDB names its address only for a fixed map).
  explicit MapRelease(MDB_env* env) {
    const char* dir = nullptr;
    if (mdb_env_get_path(env, &dir) != 0 || dir == nullptr) return;
    std::error_code ec;
    const std::filesystem::path file = std::filesystem::weakly_canonical(std::filesystem::path(dir) / "data.mdb", ec);
    std::ifstream maps("/proc/self/maps");
    for (std::string line; std::getline(maps, line);) {
      const std::size_t path = line.find('/');
      if (path == std::string::npos || line.compare(path, std::string::npos, file.string()) != 0) continue;
      uintptr_t start = 0, end = 0;
      if (std::sscanf(line.c_str(), "%zx-%zx", &start, &end) != 2 || end <= start) continue;
      map_ = reinterpret_cast<void*>(start);
      size_ = end - start;
      return;
    }
  }
  // A value read where the map holds it, and `lookups` point lookups
  // elsewhere in the file. The kernel maps a whole window around each page
  // it faults in (fault-around, 64 KiB by default), so what a pass maps is
  // counted in windows: each window a value lies in that the last value
  // did not counts whole, and so does each lookup.
  void read(std::string_view value, std::size_t lookups = 0) {
    if (map_ == nullptr) return;
    since_ += lookups * kFaultAround;
    const auto at = reinterpret_cast<uintptr_t>(value.data());
    for (uintptr_t w = at / kFaultAround, last = (at + std::max<std::size_t>(value.size(), 1) - 1) / kFaultAround;
         w <= last; ++w)
      if (w != window_) {
        since_ += kFaultAround;
        window_ = w;
      }
    if (since_ < kEvery) return;
    madvise(map_, size_, MADV_DONTNEED);
    since_ = 0;
  }

 private:
  static constexpr std::size_t kEvery = std::size_t(8) << 20;
  static constexpr std::size_t kFaultAround = std::size_t(64) << 10;
  void* map_ = nullptr;
  std::size_t size_ = 0;
  uintptr_t window_ = 0;
  std::size_t since_ = 0;
};

// A table read in key order beside another pass in key order, one step at
// a time (the pass over the records checks the tables keyed by page id
// against them without looking each id up).
class KeyCursor {
 public:
  KeyCursor(MDB_txn* txn, MDB_dbi dbi) {
    rc_ = mdb_cursor_open(txn, dbi, &cursor_);
    if (rc_ == 0) step(MDB_FIRST);
  }
  ~KeyCursor() {
    if (cursor_ != nullptr) mdb_cursor_close(cursor_);
  }
  KeyCursor(const KeyCursor&) = delete;
  KeyCursor& operator=(const KeyCursor&) = delete;
  bool done() const { return rc_ != 0; }
  std::string_view key() const { return key_; }
  std::string_view value() const { return value_; }
  void next() { step(MDB_NEXT); }
  // An LMDB error that ended the walk early, or 0.
  int error() const { return rc_ == MDB_NOTFOUND ? 0 : rc_; }

 private:
  void step(MDB_cursor_op op) {
    MDB_val k{}, v{};
    rc_ = mdb_cursor_get(cursor_, &k, &v, op);
    if (rc_ == 0) {
      key_ = view_of(k);
      value_ = view_of(v);
    }
  }
  MDB_cursor* cursor_ = nullptr;
  int rc_ = 0;
  std::string_view key_, value_;
};

// The URL in a stored record, or empty.
std::string url_of(const std::optional<std::string>& record) {
  if (!record) return {};
  nlohmann::json j = nlohmann::json::parse(*record, nullptr, false);
  return j.is_object() && j.contains("url") && j["url"].is_string() ? j["url"].get<std::string>() : std::string();
}

// What verification reads of an indexed page (the minhash table's value).
struct Stored {
  std::string language;  // primary subtag, "" when unknown
  uint64_t seq = 0;      // arrival number: the earliest centre wins
  std::vector<uint32_t> minhash;
  std::vector<uint32_t> sketch;
};

std::string encode_stored(const std::string& language, uint64_t seq, const Signatures& sig) {
  std::string out;
  const std::string lang = language.substr(0, 255);
  out.push_back(static_cast<char>(lang.size()));
  out += lang;
  put_be(out, seq, 8);
  put_be(out, sig.minhash.size(), 4);
  out.append(reinterpret_cast<const char*>(sig.minhash.data()), sig.minhash.size() * sizeof(uint32_t));
  out.append(reinterpret_cast<const char*>(sig.shingles.data()), sig.shingles.size() * sizeof(uint32_t));
  return out;
}

bool decode_stored(std::string_view in, Stored& out) {
  if (in.empty()) return false;
  const std::size_t lang = static_cast<uint8_t>(in[0]);
  if (in.size() < 1 + lang + 12) return false;
  out.language.assign(in.substr(1, lang));
  std::size_t at = 1 + lang;
  out.seq = get_be(in, at, 8);
  const uint64_t minima = get_be(in, at + 8, 4);
  at += 12;
  if ((in.size() - at) % sizeof(uint32_t) != 0 || minima > (in.size() - at) / sizeof(uint32_t)) return false;
  out.minhash.resize(minima);
  if (minima > 0) std::memcpy(out.minhash.data(), in.data() + at, minima * sizeof(uint32_t));
  at += minima * sizeof(uint32_t);
  out.sketch.resize((in.size() - at) / sizeof(uint32_t));
  if (at < in.size()) std::memcpy(out.sketch.data(), in.data() + at, in.size() - at);
  return true;
}

}  // namespace

// A table of counts, in the writer's transaction: 64-bit key (8 bytes,
// big-endian) -> count (4 bytes). The index's paragraph counts
// (husk/dedup.h, ParagraphCounts) and its host line counts.
struct LmdbCounts : ParagraphCounts {
  LmdbCounts(Txn& txn, MDB_dbi dbi) : txn(txn), dbi(dbi) {}
  static std::string key(uint64_t hash) {
    std::string k;
    put_be(k, hash, 8);
    return k;
  }
  uint32_t texts_holding(uint64_t paragraph) override {
    auto v = txn.get(dbi, key(paragraph));
    return v && v->size() == 4 ? static_cast<uint32_t>(get_be(*v, 0, 4)) : 0;
  }
  void count_one_more(uint64_t paragraph) override { set(paragraph, texts_holding(paragraph) + 1); }
  void count_one_less(uint64_t paragraph) {
    if (const uint32_t n = texts_holding(paragraph); n > 1)
      set(paragraph, n - 1);
    else if (n == 1)
      txn.del(dbi, key(paragraph));
  }
  void set(uint64_t paragraph, uint32_t n) {
    std::string v;
    put_be(v, n, 4);
    txn.put(dbi, key(paragraph), v);
  }
  Txn& txn;
  MDB_dbi dbi;
};

struct Index::Impl {
  IndexOptions options;
  MDB_env* env = nullptr;
  MDB_dbi docs = 0, minhash = 0, bands = 0, simhash = 0, clusters = 0, members = 0, cluster_of = 0, meta = 0;
  MDB_dbi paragraphs = 0, counted = 0;
  MDB_dbi host_line_counts = 0, framed = 0;
  uint32_t band_count = 0, band_rows = 0;
  SimhashTables tables;

  // One write path: additions and removals wait in `queue`; the writer
  // takes all of them into one transaction.
  struct Removal {
    std::string id;
  };
  struct Job {
    std::variant<std::vector<const PageResult*>, Removal> work;
    std::promise<std::vector<Result<Verdict>>> added;
    std::promise<Result<bool>> removed;
  };
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Job*> queue;
  bool stopping = false;
  std::thread writer;
  std::thread syncer;  // flushes the index to disk every sync_interval_ms
  std::condition_variable sync_wake;
  std::atomic<int> sync_error{0};  // the last flush's LMDB code, for verify()

  ~Impl() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    wake.notify_all();
    sync_wake.notify_all();
    if (writer.joinable()) writer.join();
    if (syncer.joinable()) syncer.join();
    if (env != nullptr) {
      mdb_env_sync(env, 1);
      mdb_env_close(env);
    }
  }

  // ---- keys ----

  bool containment() const { return options.measure == "containment"; }

  // The posting keys of a page: its band keys, or for a page of few
  // shingles its one whole-sketch key (band number 255; dedup/search.h,
  // few_shingles); with containment, one key per sketch value (254, then
  // the value), as husk dedup's containment search posts them.
  std::vector<std::string> band_keys(const Signatures& sig) const {
    std::vector<std::string> out;
    if (containment()) {
      for (uint32_t v : sig.shingles) {
        std::string key;
        put_be(key, 254, 1);
        put_be(key, v, 4);
        out.push_back(std::move(key));
      }
      return out;
    }
    if (few_shingles(sig, decision())) {
      std::string key;
      put_be(key, 255, 1);
      put_be(key, whole_sketch_key(sig), 8);
      out.push_back(std::move(key));
      return out;
    }
    const std::vector<uint32_t>& m = sig.minhash;
    for (uint32_t band = 0; band < band_count && (band + 1) * band_rows <= m.size(); ++band) {
      std::string key;
      put_be(key, band, 1);
      put_be(key, band_key(m, band, band_rows), 8);
      out.push_back(std::move(key));
    }
    return out;
  }


  // Per table: [table][fingerprint & key mask] is the lookup prefix, the
  // fingerprint follows so that a posting carries what verification needs.
  std::string simhash_prefix(std::size_t table, uint64_t fp) const {
    std::string key;
    put_be(key, table, 1);
    put_be(key, fp & tables.key_masks[table], 8);
    return key;
  }

  std::vector<std::string> simhash_keys(uint64_t fp) const {
    std::vector<std::string> out;
    for (std::size_t t = 0; t < tables.key_masks.size(); ++t) {
      std::string key = simhash_prefix(t, fp);
      put_be(key, fp, 8);
      out.push_back(std::move(key));
    }
    return out;
  }

  // ---- reads, in any transaction ----

  uint64_t counter(Txn& txn, std::string_view name) const {
    auto v = txn.get(meta, name);
    return v && v->size() == 8 ? get_be(*v, 0, 8) : 0;
  }

  struct Candidate {
    std::string id;
    double score = 0;
    uint64_t seq = 0;
    uint8_t contained = 0;  // containment: 1 the page inside this one, 2 this one inside the page
  };

  // The index's decision options, as husk dedup takes them.
  DedupOptions decision() const {
    DedupOptions o;
    o.measure = options.measure;
    o.threshold = options.threshold;
    o.min_shingles = options.min_shingles;
    o.within_language = options.within_language;
    o.sketch = options.sketch;
    return o;
  }

  // The Jaccard similarity of a page (its signatures, their distinct
  // shingles, its language) with a stored page when the one decision calls
  // them near-duplicates; the stored page's minima are taken.
  static std::optional<double> near_stored(const Signatures& sig, std::size_t distinct, const std::string& language,
                                           Stored& stored, const DedupOptions& o) {
    if (!comparable_pages(language, 0, stored.language, 0, o)) return std::nullopt;
    Signatures other;
    other.minhash = std::move(stored.minhash);
    other.shingles = std::move(stored.sketch);
    const double j = minhash_similarity(sig, other, o.sketch);
    if (!near_duplicate(j, distinct, distinct_shingles(other), o)) return std::nullopt;
    return j;
  }

  // Containment (text reuse) of a page and a stored page, as husk dedup's
  // containment search decides it (dedup/find_pairs.cc): the larger of
  // the two containments, at least the threshold, the contained text
  // holding at least min_shingles shingles. The stored page came first, so
  // it is the pair's first page: it is the contained one on a tie.
  static std::optional<std::pair<double, uint8_t>> contained_stored(const Signatures& sig, const std::string& language,
                                                                    const Stored& stored, const DedupOptions& o) {
    if (!comparable_pages(language, 0, stored.language, 0, o)) return std::nullopt;
    const double page_in_stored = sketch_containment(sig.shingles, stored.sketch, o.sketch);
    const double stored_in_page = sketch_containment(stored.sketch, sig.shingles, o.sketch);
    const bool stored_inside = stored_in_page >= page_in_stored;
    const double c = std::max(page_in_stored, stored_in_page);
    if ((stored_inside ? stored.sketch.size() : sig.shingles.size()) < o.min_shingles || c < o.threshold)
      return std::nullopt;
    return std::make_pair(c, static_cast<uint8_t>(stored_inside ? 2 : 1));
  }

  // Containment candidates: stored pages sharing at least two sketch
  // values with the page (fewer when a sketch is that small), values
  // posted for more than max(1000, 1%) of the pages skipped, as husk
  // dedup's containment search takes them.
  void contained_candidates(Txn& txn, const Signatures& sig, const std::string& language,
                            std::vector<Candidate>& out) const {
    const std::size_t max_df = std::max<std::size_t>(1000, counter(txn, "pages") / 100);
    std::map<std::string, uint32_t> shared;
    for (const std::string& key : band_keys(sig)) {
      if (txn.count(bands, key) > max_df) continue;
      for (std::string& id : txn.values(bands, key)) ++shared[std::move(id)];
    }
    const DedupOptions o = decision();
    Stored stored;
    for (const auto& [id, n] : shared) {
      auto raw = txn.get(minhash, id);
      if (!raw || !decode_stored(*raw, stored)) continue;
      if (n < std::min<std::size_t>(2, std::min(sig.shingles.size(), stored.sketch.size()))) continue;
      if (auto c = contained_stored(sig, language, stored, o)) out.push_back({id, c->first, stored.seq, c->second});
    }
  }

  // Indexed pages that near-duplicate `sig` by the one decision, best
  // first (the highest score, then the id).
  std::vector<Candidate> candidates(Txn& txn, const Signatures& sig, const std::string& language) const {
    std::vector<Candidate> out;
    if (containment())
      contained_candidates(txn, sig, language, out);
    else
      similar_candidates(txn, sig, language, out);
    std::stable_sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
      if (a.score != b.score) return a.score > b.score;
      return a.id < b.id;
    });
    return out;
  }

  // Jaccard candidates: stored pages sharing a minhash band (and with the
  // simhash arm a simhash table key within k), each verified once.
  void similar_candidates(Txn& txn, const Signatures& sig, const std::string& language,
                          std::vector<Candidate>& out) const {
    std::set<std::string> seen;
    const DedupOptions o = decision();
    Stored stored;
    const std::size_t mine = distinct_shingles(sig);
    auto verify = [&](std::string_view id) {
      if (!seen.insert(std::string(id)).second) return;
      auto raw = txn.get(minhash, id);
      if (!raw || !decode_stored(*raw, stored)) return;
      if (auto j = near_stored(sig, mine, language, stored, o)) out.push_back({std::string(id), *j, stored.seq});
    };
    for (const std::string& key : band_keys(sig))
      for (const std::string& id : txn.values(bands, key)) verify(id);
    if (options.simhash && sig.simhash) {
      for (std::size_t t = 0; t < tables.key_masks.size(); ++t)
        txn.each(simhash, simhash_prefix(t, *sig.simhash), [&](std::string_view k, std::string_view id) {
          if (hamming(get_be(k, 9, 8), *sig.simhash) <= static_cast<int>(options.simhash_k)) verify(id);
          return true;
        });
    }
  }

  // The main page of a cluster's stored value ("id\nurl").
  static std::string main_of(std::string_view value) { return std::string(value.substr(0, value.find('\n'))); }

  // ---- writes, in the writer's transaction ----

  void add_counter(Txn& txn, std::string_view name, int64_t delta) const {
    std::string v;
    put_be(v, static_cast<uint64_t>(static_cast<int64_t>(counter(txn, name)) + delta), 8);
    txn.put(meta, name, v);
  }

  // Rewrites a stored page's verdict (its cluster and duplicate_of) after
  // the cluster table changed under it, keeping the duplicates counter.
  void set_verdict(Txn& txn, const std::string& id, const std::string& cluster, const std::optional<Match>& of) {
    auto raw = txn.get(docs, id);
    if (!raw) return;
    nlohmann::ordered_json record = nlohmann::ordered_json::parse(*raw, nullptr, false);
    if (!record.is_object()) return;  // a damaged record stays as it is for verify to report
    const bool was_duplicate = record.contains("duplicate_of") && record["duplicate_of"].is_object();
    Verdict verdict;
    verdict.duplicate_of = of;
    verdict.cluster = cluster;
    put_verdict(record, &verdict);
    if (was_duplicate != of.has_value()) add_counter(txn, "duplicates", of ? 1 : -1);
    txn.put(docs, id, record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }

  // Rewrites a stored page's cluster, keeping its duplicate_of.
  void set_cluster(Txn& txn, const std::string& id, const std::string& cluster) {
    auto raw = txn.get(docs, id);
    if (!raw) return;
    nlohmann::ordered_json record = nlohmann::ordered_json::parse(*raw, nullptr, false);
    if (!record.is_object()) return;  // a damaged record stays as it is for verify to report
    record["cluster"] = cluster;
    txn.put(docs, id, record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }

  // Removes a stored page from every table; false when it was not there.
  bool unindex(Txn& txn, const std::string& id) {
    auto record = txn.get(docs, id);
    if (!record) return false;
    nlohmann::json j = nlohmann::json::parse(*record, nullptr, false);
    if (j.is_object() && j.contains("sig")) {
      Result<Signatures> sig = signatures_from_json(j["sig"]);
      if (sig.ok()) {
        for (const std::string& key : band_keys(*sig)) txn.del(bands, key, id);
        if (options.simhash && sig->simhash)
          for (const std::string& key : simhash_keys(*sig->simhash)) txn.del(simhash, key, id);
      }
    }
    if (j.is_object() && j.contains("duplicate_of") && j["duplicate_of"].is_object()) add_counter(txn, "duplicates", -1);
    if (txn.get(counted, id)) {
      // The paragraphs its stored text was counted for.
      LmdbCounts counts{txn, paragraphs};
      if (j.is_object() && j.contains("text") && j["text"].is_string())
        for (uint64_t hash : paragraph_hashes(j["text"].get<std::string>())) counts.count_one_less(hash);
      txn.del(counted, id);
    }
    if (auto keys = txn.get(framed, id)) {
      // The host line keys its text was counted for.
      LmdbCounts counts{txn, host_line_counts};
      for (uint64_t key : decode_keys(*keys)) counts.count_one_less(key);
      txn.del(framed, id);
    }
    txn.del(minhash, id);
    if (auto cluster = txn.get(cluster_of, id)) {
      txn.del(members, *cluster, id);
      txn.del(cluster_of, id);
      recluster(txn, *cluster);
    }
    add_counter(txn, "pages", -1);
    txn.del(docs, id);
    return true;
  }

  // A stored page as verification reads it: its signatures from its record
  // and its language and arrival number from the minhash table.
  struct StoredPage {
    Signatures sig;
    std::string language;
    uint64_t seq = 0;
  };
  std::optional<StoredPage> stored_page(Txn& txn, const std::string& id) const {
    auto raw = txn.get(minhash, id);
    auto record = txn.get(docs, id);
    Stored s;
    if (!raw || !record || !decode_stored(*raw, s)) return std::nullopt;
    nlohmann::json j = nlohmann::json::parse(*record, nullptr, false);
    if (!j.is_object() || !j.contains("sig")) return std::nullopt;
    Result<Signatures> sig = signatures_from_json(j["sig"]);
    if (!sig.ok()) return std::nullopt;
    return StoredPage{std::move(*sig), std::move(s.language), s.seq};
  }

  // duplicate_of for a page that is not its cluster's main page: the
  // earliest-indexed of its verified near-duplicates, so that the page it
  // names is one it resembles, never one it reaches only through a chain.
  std::optional<Match> earliest_of(Txn& txn, const std::vector<Candidate>& found, const std::string& self) const {
    const Candidate* first = nullptr;
    for (const Candidate& c : found)
      if (c.id != self && (first == nullptr || c.seq < first->seq)) first = &c;
    if (first == nullptr) return std::nullopt;
    return match_of(txn, *first);
  }

  // A candidate as answers name it.
  Match match_of(Txn& txn, const Candidate& c) const {
    static const char* const inside[] = {"", "page", "match"};
    return Match{c.id, url_of(txn.get(docs, c.id)), options.measure, c.score, inside[c.contained]};
  }

  // Clusters are the connected components of the verified pairs (husk
  // dedup's default), keyed by their earliest-indexed page, the main page.
  // A cluster's pages after one of them left: the components of the pairs
  // among the rest, found again with the index's own search and joined by
  // husk dedup's own cluster_pairs, each keyed by its earliest page. A page
  // that bridged two parts of a chain splits the cluster, as husk dedup
  // would on the pages that are left.
  void recluster(Txn& txn, const std::string& cluster) {
    std::vector<std::string> ids = txn.values(members, cluster);
    txn.del(clusters, cluster);
    add_counter(txn, "clusters", -1);
    for (const std::string& id : ids) txn.del(members, cluster, id);
    // The pages in arrival order (a damaged one last, alone, for verify to
    // report), so that each component's first page is its earliest.
    struct Left {
      std::string id;
      std::optional<StoredPage> page;
      std::vector<Candidate> near;  // its near-duplicates among the rest
    };
    std::vector<Left> rest;
    for (std::string& id : ids) {
      std::optional<StoredPage> page = stored_page(txn, id);
      rest.push_back({std::move(id), std::move(page), {}});
    }
    auto seq = [](const Left& l) { return l.page ? l.page->seq : UINT64_MAX; };
    std::sort(rest.begin(), rest.end(), [&](const Left& a, const Left& b) {
      return seq(a) != seq(b) ? seq(a) < seq(b) : a.id < b.id;
    });
    std::map<std::string, uint32_t> at;
    for (uint32_t i = 0; i < rest.size(); ++i) at[rest[i].id] = i;
    std::vector<Pair> pairs;
    for (uint32_t i = 0; i < rest.size(); ++i) {
      if (!rest[i].page) continue;
      for (Candidate& c : candidates(txn, rest[i].page->sig, rest[i].page->language)) {
        auto j = at.find(c.id);
        if (j == at.end() || j->second == i) continue;
        pairs.push_back({std::min(i, j->second), std::max(i, j->second), static_cast<float>(c.score)});
        rest[i].near.push_back(std::move(c));
      }
    }
    for (const Cluster& c : cluster_pairs(rest.size(), pairs, ClusterMethod::kComponents, /*singletons=*/true)) {
      const std::string& home = rest[c.main].id;
      txn.put(clusters, home, home + "\n" + url_of(txn.get(docs, home)));
      add_counter(txn, "clusters", 1);
      for (uint32_t m : c.members) {
        txn.put(members, home, rest[m].id);
        txn.put(cluster_of, rest[m].id, home);
        set_verdict(txn, rest[m].id, home, m == c.main ? std::nullopt : earliest_of(txn, rest[m].near, rest[m].id));
      }
    }
  }

  // The arrival number of a cluster's main page (its key).
  uint64_t main_seq(Txn& txn, const std::string& cluster) const {
    auto raw = txn.get(minhash, cluster);
    Stored s;
    return raw && decode_stored(*raw, s) ? s.seq : UINT64_MAX;
  }

  // Moves every page of cluster `from` into `into`, whose main page is
  // older. The main page of `from` is a main page no more: its verdict
  // names its earliest near-duplicate; the others keep theirs.
  void merge(Txn& txn, const std::string& from, const std::string& into) {
    txn.del(clusters, from);
    add_counter(txn, "clusters", -1);
    for (const std::string& m : txn.values(members, from)) {
      txn.del(members, from, m);
      txn.put(members, into, m);
      txn.put(cluster_of, m, into);
      if (m != from) {
        set_cluster(txn, m, into);
        continue;
      }
      std::optional<StoredPage> page = stored_page(txn, m);
      set_verdict(txn, m, into, page ? earliest_of(txn, candidates(txn, page->sig, page->language), m) : std::nullopt);
    }
  }

  static std::string encode_keys(const std::vector<uint64_t>& keys) {
    std::string out;
    for (uint64_t key : keys) put_be(out, key, 8);
    return out;
  }
  static std::vector<uint64_t> decode_keys(std::string_view bytes) {
    std::vector<uint64_t> out;
    for (std::size_t at = 0; at + 8 <= bytes.size(); at += 8) out.push_back(get_be(bytes, at, 8));
    return out;
  }

  // `text` without its URL host's frame lines (IndexOptions::host_lines),
  // into `kept`, by the counts of the pages stored now with this text
  // among them (and not the earlier version of page `id`, when it is
  // posted again); returns how many lines left. `keys`: what index() then
  // counts for the page.
  std::size_t strip_frame(Txn& txn, const std::string& id, std::string_view url, std::string_view text,
                          std::string& kept, std::vector<uint64_t>& keys) const {
    kept.clear();
    keys.clear();
    if (options.host_lines.min_documents > 0) keys = host_line_keys(url, text);
    if (keys.empty()) return 0;
    std::vector<uint64_t> before;
    if (auto raw = id.empty() ? std::nullopt : txn.get(framed, id)) before = decode_keys(*raw);
    std::sort(before.begin(), before.end());
    LmdbCounts counts{txn, host_line_counts};
    // Every key strip_host_lines asks for is one of this text's own.
    return strip_host_lines(url, text, kept, options.host_lines, [&](uint64_t key) {
      return counts.texts_holding(key) + 1 - (std::binary_search(before.begin(), before.end(), key) ? 1 : 0);
    });
  }

  // A page given as text, signed here (IndexOptions::sign_text) once its
  // frame lines have left it.
  PageResult signed_text_page(Txn& txn, const PageResult& page, std::vector<uint64_t>& keys, std::size_t& dropped) {
    PageResult out = page;
    std::string kept;
    dropped = strip_frame(txn, page.id, page.url, page.text, kept, keys);
    out.signatures = options.sign_text(dropped > 0 ? std::string_view(kept) : std::string_view(page.text));
    if (out.signatures->terms == 0) out.signatures.reset();  // nothing to index: indexable() says so
    return out;
  }

  Verdict index(Txn& txn, const PageResult& page, const std::vector<uint64_t>& frame_keys = {},
                std::size_t frame_lines = 0) {
    unindex(txn, page.id);
    if (!frame_keys.empty()) {
      LmdbCounts counts{txn, host_line_counts};
      for (uint64_t key : frame_keys) counts.count_one_more(key);
      txn.put(framed, page.id, encode_keys(frame_keys));
    }
    const Signatures& sig = *page.signatures;
    const std::string language = primary_language(page.language.code);
    const std::vector<Candidate> found = candidates(txn, sig, language);
    // The clusters the page joins become one, under the oldest main page.
    std::set<std::string> joined;
    for (const Candidate& c : found)
      if (auto cluster = txn.get(cluster_of, c.id)) joined.insert(*cluster);
    std::string cluster = page.id;
    uint64_t oldest = UINT64_MAX;
    for (const std::string& c : joined)
      if (const uint64_t s = main_seq(txn, c); cluster == page.id || s < oldest) {
        cluster = c;  // the page's own id names no cluster: unindex took it out
        oldest = s;
      }
    Verdict verdict;
    verdict.cluster = cluster;
    verdict.duplicate_of = earliest_of(txn, found, page.id);
    verdict.frame_lines = frame_lines;
    if (joined.empty()) {
      txn.put(clusters, cluster, page.id + "\n" + page.url);
      add_counter(txn, "clusters", 1);
    }
    // The record as husk extract writes it, with the verdict: what the
    // service answered for it (GET and db export return it).
    nlohmann::ordered_json record = page_record(page);
    if (options.dedup_paragraphs > 0 && record.contains("text") && record["text"].is_string()) {
      std::string text = record["text"].get<std::string>();
      LmdbCounts counts{txn, paragraphs};
      verdict.paragraphs_dropped = drop_seen_paragraphs(text, options.dedup_paragraphs, counts);
      txn.put(counted, page.id, "");
      if (verdict.paragraphs_dropped > 0) {
        record["text"] = text;
        verdict.text = std::move(text);
      }
    }
    add_verdict(record, page.signatures, &verdict);
    const uint64_t seq = counter(txn, "seq");
    add_counter(txn, "seq", 1);
    txn.put(docs, page.id, record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    txn.put(minhash, page.id, encode_stored(language, seq, sig));
    for (const std::string& key : band_keys(sig)) txn.put(bands, key, page.id);
    if (options.simhash && sig.simhash)
      for (const std::string& key : simhash_keys(*sig.simhash)) txn.put(simhash, key, page.id);
    txn.put(members, cluster, page.id);
    txn.put(cluster_of, page.id, cluster);
    add_counter(txn, "pages", 1);
    if (verdict.duplicate_of) add_counter(txn, "duplicates", 1);
    // Merged after the page is stored, so that each former main page finds
    // it among its near-duplicates.
    for (const std::string& c : joined)
      if (c != cluster) merge(txn, c, cluster);
    return verdict;
  }

  // Why a page cannot be indexed, or ok.
  Status indexable(const PageResult& page) const {
    if (!page.status.ok()) return page.status;
    if (page.id.empty()) return Status(Code::kInvalidArgument, "a page needs an id to be indexed");
    // Ids are LMDB keys and dup-sorted values: past the key limit (511
    // bytes) the write would fail, and with it every page of its commit
    // group. Refused here, the page fails alone.
    if (const auto limit = static_cast<std::size_t>(mdb_env_get_maxkeysize(env)); page.id.size() > limit)
      return Status(Code::kInvalidArgument, "the id is " + std::to_string(page.id.size()) +
                                                " bytes; the index takes ids of at most " + std::to_string(limit));
    if (!page.signatures || page.signatures->minhash.empty())
      return Status(Code::kInvalidArgument, "no text to sign: not indexed");
    if (page.signatures->minhash.size() != options.minhash_permutations)
      return Status(Code::kInvalidArgument, "the page has " + std::to_string(page.signatures->minhash.size()) +
                                                " minima; the index holds " +
                                                std::to_string(options.minhash_permutations));
    return Status();
  }

  // Aborts a write transaction unless it was committed.
  struct WriteTxn {
    MDB_txn* txn = nullptr;
    ~WriteTxn() {
      if (txn != nullptr) mdb_txn_abort(txn);
    }
    int commit() {
      int rc = mdb_txn_commit(txn);
      txn = nullptr;
      return rc;
    }
  };

  // The bytes the index holds: the pages up to the highest one written,
  // less those on LMDB's free list (freed by deletions, reused by later
  // writes). The free list is read only when the first figure is over the
  // limit, which is rare, or when asked for the `exact` figure.
  uint64_t used_bytes(MDB_txn* txn, bool exact = false) {
    MDB_envinfo info{};
    MDB_stat stat{};
    if (mdb_env_info(env, &info) != 0 || mdb_env_stat(env, &stat) != 0) return 0;
    const uint64_t written = (static_cast<uint64_t>(info.me_last_pgno) + 1) * stat.ms_psize;
    if (!exact && written < options.map_size) return written;
    uint64_t free_pages = 0;
    MDB_cursor* cursor = nullptr;
    if (mdb_cursor_open(txn, 0, &cursor) == 0) {  // LMDB's free list is table 0
      MDB_val k{}, v{};
      for (int rc = mdb_cursor_get(cursor, &k, &v, MDB_FIRST); rc == 0; rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT))
        if (v.mv_size >= sizeof(std::size_t)) {
          std::size_t n = 0;
          std::memcpy(&n, v.mv_data, sizeof n);  // each record: a count, then that many page numbers
          free_pages += n;
        }
      mdb_cursor_close(cursor);
    }
    const uint64_t free_bytes = free_pages * stat.ms_psize;
    return written > free_bytes ? written - free_bytes : 0;
  }

  // A data.mdb shorter than the pages its header records (a partial copy,
  // a disk that filled during a copy) is refused: LMDB maps the file and
  // would fault with SIGBUS on the first read past its end. LMDB writes a
  // transaction's pages before the header that names them, so a whole
  // file is never shorter than this.
  Status check_length(const std::string& file) {
    MDB_envinfo info{};
    MDB_stat stat{};
    int rc = mdb_env_info(env, &info);
    if (rc == 0) rc = mdb_env_stat(env, &stat);
    if (rc != 0) return lmdb_error(rc, file + ": cannot read the index header");
    const uint64_t needed = (static_cast<uint64_t>(info.me_last_pgno) + 1) * stat.ms_psize;
    std::error_code ec;
    const uint64_t length = std::filesystem::file_size(file, ec);
    if (ec) return Status(Code::kIo, file + ": " + ec.message());
    if (length < needed)
      return Status(Code::kCorrupt, file + " is truncated: " + std::to_string(length) + " of " +
                                        std::to_string(needed) + " bytes; restore it from a whole copy");
    return Status();
  }

  // Reader slots left by killed processes (an export cut by `head`) pin
  // the pages they read: LMDB never reuses them, and an index with
  // deletions and re-posts grows to its limit within a second of commits.
  // They are cleared at open and by the writer before every transaction:
  // a scan of LMDB's reader table and one lock test per other process,
  // microseconds beside a commit.
  void clear_stale_readers() {
    int dead = 0;
    mdb_reader_check(env, &dead);
  }

  static Status full_error(std::size_t limit) {
    return Status(Code::kLimit, "the index is full (its limit is " + std::to_string(limit >> 20) +
                                    " MiB: husk serve --map-size); the page is not indexed");
  }

  // One transaction for every job waiting; each job learns its outcome.
  // When the index is full, adds are refused (Code::kLimit) and removals
  // still go through, in the reserve LMDB maps beyond the limit. When a
  // group does not fit, it is written again one page at a time, each in a
  // nested transaction: the pages that do not fit fail alone.
  void commit(std::vector<Job*>& jobs) {
    bool full = false;
    {
      ReadTxn r(env);  // read as stats() reads it, before the write begins
      full = r.rc == 0 && used_bytes(r.txn) >= options.map_size;
    }
    if (commit(jobs, full, /*each_alone=*/false) == MDB_MAP_FULL) commit(jobs, full, /*each_alone=*/true);
  }

  // `full`: adds are refused. Returns LMDB's outcome; MDB_MAP_FULL without
  // `each_alone` leaves the jobs unanswered, for the second pass.
  int commit(std::vector<Job*>& jobs, bool full, bool each_alone) {
    WriteTxn w;
    int rc = mdb_txn_begin(env, nullptr, 0, &w.txn);
    Txn txn(w.txn);
    txn.fail(rc);
    // Runs `write` in a transaction nested in the group's, kept when it
    // succeeds; false when it did not fit.
    auto alone = [&](auto&& write) {
      MDB_txn* child = nullptr;
      int crc = mdb_txn_begin(env, w.txn, 0, &child);
      if (crc != 0) {
        txn.fail(crc);
        return false;
      }
      Txn nested(child);
      write(nested);
      crc = nested.rc();
      if (crc == 0) {
        crc = mdb_txn_commit(child);  // frees the child, committed or not
      } else {
        mdb_txn_abort(child);
      }
      if (crc != 0 && crc != MDB_MAP_FULL) txn.fail(crc);
      return crc == 0;
    };
    std::vector<std::vector<Result<Verdict>>> added(jobs.size());
    std::vector<Result<bool>> removed(jobs.size(), Result<bool>(false));
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      if (auto* pages = std::get_if<std::vector<const PageResult*>>(&jobs[j]->work)) {
        for (const PageResult* page : *pages) {
          std::optional<PageResult> text_page;  // given as text: signed here
          std::vector<uint64_t> keys;
          std::size_t frame_lines = 0;
          if (!page->signatures && page->status.ok() && !page->text.empty() && options.sign_text) {
            text_page = signed_text_page(txn, *page, keys, frame_lines);
            page = &*text_page;
          }
          Status why = indexable(*page);
          if (why.ok() && full) why = full_error(options.map_size);
          if (!why.ok()) {
            added[j].push_back(why);
          } else if (!each_alone) {
            added[j].push_back(index(txn, *page, keys, frame_lines));
          } else {
            Verdict verdict;
            added[j].push_back(alone([&](Txn& t) { verdict = index(t, *page, keys, frame_lines); })
                                   ? Result<Verdict>(verdict)
                                   : full_error(options.map_size));
          }
        }
      } else if (!each_alone) {
        removed[j] = unindex(txn, std::get<Removal>(jobs[j]->work).id);
      } else {
        bool gone = false;
        removed[j] = alone([&](Txn& t) { gone = unindex(t, std::get<Removal>(jobs[j]->work).id); })
                         ? Result<bool>(gone)
                         : Result<bool>(full_error(options.map_size));
      }
    }
    rc = txn.rc();
    if (rc == 0) rc = w.commit();
    if (rc == MDB_MAP_FULL && !each_alone) return rc;  // written again one page at a time
    Status failed = rc == 0 ? Status() : lmdb_error(rc, "index write failed");
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      if (std::holds_alternative<Removal>(jobs[j]->work)) {
        jobs[j]->removed.set_value(failed.ok() ? removed[j] : Result<bool>(failed));
        continue;
      }
      if (!failed.ok())
        for (Result<Verdict>& r : added[j])
          if (r.ok()) r = failed;
      jobs[j]->added.set_value(std::move(added[j]));
    }
    return rc;
  }

  void write_loop() {
    for (;;) {
      std::vector<Job*> jobs;
      {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [&] { return stopping || !queue.empty(); });
        if (queue.empty() && stopping) return;
        jobs.assign(queue.begin(), queue.end());
        queue.clear();
      }
      clear_stale_readers();
      // The writer's thread boundary: whatever escapes a commit (memory,
      // the JSON library) fails that commit's requests, not the process.
      try {
        commit(jobs);
      } catch (const std::exception& e) {
        Status failed(Code::kInternal, std::string("index write failed: ") + e.what());
        for (Job* job : jobs) {
          if (std::holds_alternative<Removal>(job->work)) {
            job->removed.set_value(failed);
          } else {
            job->added.set_value(std::vector<Result<Verdict>>(
                std::get<std::vector<const PageResult*>>(job->work).size(), Result<Verdict>(failed)));
          }
        }
      }
    }
  }

  void submit(Job& job) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      queue.push_back(&job);
    }
    wake.notify_one();
  }

  // The settings an index was written with must be the ones it is opened
  // with: its keys depend on them.
  Status check_settings(Txn& txn, bool adopt = true) {
    nlohmann::ordered_json want;
    want["format"] = kFormat;
    want["threshold"] = options.threshold;
    want["min_shingles"] = options.min_shingles;
    want["within_language"] = options.within_language;
    want["simhash"] = options.simhash;
    want["simhash_k"] = options.simhash_k;
    want["minhash_permutations"] = options.minhash_permutations;
    want["sketch"] = options.sketch;
    // Written only when it is not the default, so that an index written
    // before the measure existed opens as it was.
    if (options.measure != "jaccard") want["measure"] = options.measure;
    std::string text = want.dump();
    auto stored = txn.get(meta, "settings");
    if (stored && adopt && options.adopt_settings) {
      nlohmann::json j = nlohmann::json::parse(*stored, nullptr, false);
      if (j.is_object() && j.value("format", uint64_t(0)) == kFormat) {
        options.threshold = j.value("threshold", options.threshold);
        options.min_shingles = j.value("min_shingles", options.min_shingles);
        options.within_language = j.value("within_language", options.within_language);
        options.simhash = j.value("simhash", options.simhash);
        options.simhash_k = j.value("simhash_k", options.simhash_k);
        options.minhash_permutations = j.value("minhash_permutations", options.minhash_permutations);
        options.sketch = j.value("sketch", options.sketch);
        options.measure = j.value("measure", std::string("jaccard"));
        return check_settings(txn, false);
      }
    }
    if (!stored) {
      txn.put(meta, "settings", text);
      return txn.rc() == 0 ? Status() : lmdb_error(txn.rc(), options.dir + ": settings");
    }
    if (*stored != text)
      return Status(Code::kInvalidArgument,
                    options.dir + ": the index was written with " + *stored + ", not " + text + "; open it with those");
    return Status();
  }
};

Index::Index(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Index::~Index() = default;

Result<std::unique_ptr<Index>> Index::open(const IndexOptions& options) {
  if (options.simhash_k > kMaxIndexSimhashK)
    return Status(Code::kInvalidArgument, "simhash k " + std::to_string(options.simhash_k) +
                                              ": the index serves k = 0.." + std::to_string(kMaxIndexSimhashK));
  if (options.measure != "jaccard" && options.measure != "containment")
    return Status(Code::kInvalidArgument, "unknown measure \"" + options.measure + "\" (known: jaccard, containment)");
  if (options.threshold <= 0 || options.threshold > 1)
    return Status(Code::kInvalidArgument, "the " + options.measure + " threshold must be in (0, 1]");
  if (options.minhash_permutations == 0)
    return Status(Code::kInvalidArgument, "the index needs minhash signatures (minhash_permutations > 0)");
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  std::error_code ec;
  std::filesystem::create_directories(options.dir, ec);
  if (ec) return Status(Code::kIo, options.dir + ": " + ec.message());
  const std::string file = (std::filesystem::path(options.dir) / "data.mdb").string();
  // An empty data.mdb is a failed copy, not a new index: LMDB would write
  // a fresh header into it and every page would be lost without a word.
  if (std::filesystem::exists(file, ec) && std::filesystem::file_size(file, ec) == 0 && !ec)
    return Status(Code::kCorrupt, file + " is empty: not an index (a failed copy?); restore it, or remove it to "
                                         "start a new index");
  int rc = mdb_env_create(&impl->env);
  if (rc == 0) rc = mdb_env_set_maxdbs(impl->env, 16);
  if (rc == 0) rc = mdb_env_set_mapsize(impl->env, options.map_size + map_reserve(options.map_size));
  if (rc == 0) rc = mdb_env_open(impl->env, options.dir.c_str(), options.fsync_each_commit ? 0 : MDB_NOSYNC, 0664);
  if (rc != 0) return lmdb_error(rc, file + ": cannot open the index");
  if (Status st = impl->check_length(file); !st.ok()) return st;
  impl->clear_stale_readers();
  MDB_txn* txn = nullptr;
  rc = mdb_txn_begin(impl->env, nullptr, 0, &txn);
  if (rc != 0) return lmdb_error(rc, options.dir);
  struct Named {
    const char* name;
    MDB_dbi* dbi;
    unsigned flags;
  };
  for (const Named& n : {Named{"docs", &impl->docs, 0}, Named{"minhash", &impl->minhash, 0},
                         Named{"bands", &impl->bands, MDB_DUPSORT}, Named{"simhash", &impl->simhash, MDB_DUPSORT},
                         Named{"clusters", &impl->clusters, 0}, Named{"members", &impl->members, MDB_DUPSORT},
                         Named{"cluster_of", &impl->cluster_of, 0}, Named{"meta", &impl->meta, 0},
                         Named{"paragraphs", &impl->paragraphs, 0}, Named{"counted", &impl->counted, 0},
                         Named{"host_lines", &impl->host_line_counts, 0}, Named{"framed", &impl->framed, 0}}) {
    rc = mdb_dbi_open(txn, n.name, MDB_CREATE | n.flags, n.dbi);
    if (rc != 0) {
      mdb_txn_abort(txn);
      return lmdb_error(rc, options.dir + ": table " + n.name);
    }
  }
  Txn settings(txn);
  if (Status st = impl->check_settings(settings); !st.ok()) {
    mdb_txn_abort(txn);
    return st;
  }
  rc = mdb_txn_commit(txn);
  if (rc != 0) return lmdb_error(rc, options.dir);
  const IndexOptions& kept = impl->options;  // the stored settings, when adopted
  auto [b, r] = lsh_bands_for(kept.threshold, kept.minhash_permutations);
  impl->band_count = b;
  impl->band_rows = r;
  impl->tables = simhash_tables(~0ull, kept.simhash_k, simhash_tables_m(kept.simhash_k, 64, kDesignPages, kMaxTables));
  try {
    impl->writer = std::thread([raw = impl.get()] { raw->write_loop(); });
    if (!options.fsync_each_commit)
      impl->syncer = std::thread([raw = impl.get()] {
        std::unique_lock<std::mutex> lock(raw->mutex);
        while (!raw->stopping) {
          raw->sync_wake.wait_for(lock, std::chrono::milliseconds(raw->options.sync_interval_ms));
          lock.unlock();
          raw->sync_error = mdb_env_sync(raw->env, 1);
          lock.lock();
        }
      });
  } catch (const std::system_error& e) {
    return Status(Code::kInternal, options.dir + ": cannot start the index writer: " + e.what());
  }
  return std::unique_ptr<Index>(new Index(std::move(impl)));
}

std::vector<Result<Verdict>> Index::add(const std::vector<const PageResult*>& pages) {
  Impl::Job job;
  job.work = pages;
  auto done = job.added.get_future();
  impl_->submit(job);
  return done.get();
}

Result<bool> Index::remove(const std::string& id) {
  Impl::Job job;
  job.work = Impl::Removal{id};
  auto done = job.removed.get_future();
  impl_->submit(job);
  return done.get();
}

Result<std::optional<std::string>> Index::get(const std::string& id) const {
  ReadTxn r(impl_->env);
  if (r.rc != 0) return lmdb_error(r.rc, "cannot read the index");
  Txn txn(r.txn);
  std::optional<std::string> record = txn.get(impl_->docs, id);
  if (txn.rc() != 0) return lmdb_error(txn.rc(), "reading page " + id);
  if (record && !whole_record(*record))
    return Status(Code::kCorrupt, "the stored record of page " + id + " is damaged (not JSON); husk db verify lists "
                                  "every damaged record");
  return record;
}

std::optional<std::string> Index::cluster(const std::string& id) const {
  ReadTxn r(impl_->env);
  if (r.rc != 0) return std::nullopt;
  Txn txn(r.txn);
  auto main = txn.get(impl_->clusters, id);
  if (!main) return std::nullopt;
  std::vector<std::string> ids = txn.values(impl_->members, id);
  if (txn.rc() != 0) return std::nullopt;
  std::string line = json_line(cluster_record(id, main->substr(0, main->find('\n')), ids, nullptr));
  line.pop_back();  // the newline
  return line;
}

std::vector<Match> Index::similar(const Signatures& signatures, const std::string& language) const {
  std::vector<Match> out;
  ReadTxn r(impl_->env);
  if (r.rc != 0) return out;
  Txn txn(r.txn);
  for (const Impl::Candidate& c : impl_->candidates(txn, signatures, primary_language(language)))
    out.push_back(impl_->match_of(txn, c));
  return out;
}

std::string Index::without_frame_lines(std::string_view url, std::string_view text) const {
  ReadTxn r(impl_->env);
  if (r.rc != 0) return std::string(text);
  Txn txn(r.txn);
  std::string kept;
  std::vector<uint64_t> keys;
  return impl_->strip_frame(txn, "", url, text, kept, keys) > 0 ? kept : std::string(text);
}

const IndexOptions& Index::options() const { return impl_->options; }

IndexStats Index::stats() const {
  IndexStats s;
  ReadTxn r(impl_->env);
  if (r.rc != 0) return s;
  Txn txn(r.txn);
  s.pages = impl_->counter(txn, "pages");
  s.clusters = impl_->counter(txn, "clusters");
  s.duplicates = impl_->counter(txn, "duplicates");
  MDB_stat st{};
  if (mdb_stat(r.txn, impl_->bands, &st) == 0) s.band_postings = st.ms_entries;
  if (mdb_stat(r.txn, impl_->simhash, &st) == 0) s.simhash_postings = st.ms_entries;
  std::error_code ec;
  s.bytes_on_disk = std::filesystem::file_size(std::filesystem::path(impl_->options.dir) / "data.mdb", ec);
  s.used_bytes = impl_->used_bytes(r.txn);
  s.limit_bytes = impl_->options.map_size;
  return s;
}

namespace {

// A pass over one table, told to Index::Progress entry by entry, of the
// entries the table holds in the pass's transaction.
class PassProgress {
 public:
  PassProgress(const Index::Progress& progress, std::string reading, MDB_txn* txn, MDB_dbi table)
      : progress_(progress), reading_(std::move(reading)) {
    MDB_stat st{};
    if (progress_ && mdb_stat(txn, table, &st) == 0) total_ = st.ms_entries;
  }
  void step() {
    if (progress_) progress_(reading_, ++done_, total_);
  }

 private:
  const Index::Progress& progress_;
  std::string reading_;
  uint64_t done_ = 0, total_ = 0;
};

// The posting tables' contents as multisets, summed by the posted page's
// bucket without being held: what the stored records say the tables hold
// beside what they hold. A bucket whose sums differ holds a problem; only
// its pages and postings are then looked up one by one. Two 64-bit sums
// and a count per bucket: a damaged posting passes unseen only if its
// hashes cancel in both sums at once.
class PostingLedger {
 public:
  static constexpr std::size_t kBuckets = 4096;
  static std::size_t bucket(std::string_view id) { return xxh64(id, 11) % kBuckets; }

  void add(std::size_t table, std::string_view key, std::string_view id) {
    Sum& s = sums_[table * kBuckets + bucket(id)];
    const uint64_t k = xxh64(key, 13), v = xxh64(id, 17);
    s.a += k ^ (v * 0x9E3779B97F4A7C15ull);
    s.b += (k * 0xC2B2AE3D27D4EB4Full) + v;
    ++s.n;
  }
  // Whether `other` summed something else for the table's bucket.
  bool differs(const PostingLedger& other, std::size_t table, std::size_t b) const {
    const Sum& x = sums_[table * kBuckets + b];
    const Sum& y = other.sums_[table * kBuckets + b];
    return x.a != y.a || x.b != y.b || x.n != y.n;
  }

 private:
  struct Sum {
    uint64_t a = 0, b = 0, n = 0;
  };
  std::vector<Sum> sums_ = std::vector<Sum>(3 * kBuckets);
};

}  // namespace

// Checked in bounded memory, every table read in key order: the stored
// records (in id order) with the tables keyed by id beside them, then the
// posting tables (bands, simhash, members) as sums by bucket
// (PostingLedger). LMDB maps the file, so a point lookup per posting, the
// way `exhaustive` checks, faults pages all over it: a 4 GB index verified
// so peaked at a 4 GB resident set. Reading in order, the map's pages are
// dropped as they are passed (MapRelease).
std::vector<std::string> Index::verify(bool exhaustive, const Progress& progress) const {
  std::vector<std::string> problems;
  ReadTxn r(impl_->env);
  if (r.rc != 0) return {std::string("cannot open a read transaction: ") + mdb_strerror(r.rc)};
  const Impl& I = *impl_;
  auto pass = [&](std::string reading, MDB_dbi table) { return PassProgress(progress, std::move(reading), r.txn, table); };
  Txn txn(r.txn);
  MapRelease release(impl_->env);
  uint64_t pages = 0, duplicates = 0;
  enum Posting : std::size_t { kBand, kSimhash, kMember };
  const MDB_dbi posting_table[] = {I.bands, I.simhash, I.members};
  const char* const missing[] = {": band posting missing", ": simhash posting missing", ""};
  const char* const posting_name[] = {"band postings", "simhash postings", "cluster members"};
  PostingLedger expected, found;
  // A posting is looked up one by one where its bucket's sums differ, or
  // everywhere when exhaustive.
  std::vector<uint8_t> suspect(3 * PostingLedger::kBuckets, exhaustive ? 1 : 0);
  auto suspected = [&](std::size_t table, std::string_view id) {
    return suspect[table * PostingLedger::kBuckets + PostingLedger::bucket(id)] != 0;
  };
  // The postings a stored page should have: counted, or looked up.
  auto postings = [&](const Signatures& sig, auto&& each) {
    for (const std::string& k : I.band_keys(sig)) each(kBand, k);
    if (I.options.simhash && sig.simhash)
      for (const std::string& k : I.simhash_keys(*sig.simhash)) each(kSimhash, k);
  };
  auto signatures_in = [](const nlohmann::json& record) {
    return signatures_from_json(record.contains("sig") ? record["sig"] : nlohmann::json());
  };
  // Counts are kept only for stored pages: counts left by a page that is
  // gone would take its paragraphs and lines out of other pages' texts.
  // The pages counted are read beside the records, both in id order.
  KeyCursor paragraphs_counted(r.txn, I.counted), lines_counted(r.txn, I.framed);
  const std::pair<KeyCursor*, const char*> counted[] = {{&paragraphs_counted, "paragraph"},
                                                        {&lines_counted, "host line"}};
  // Passes the counted ids up to `id` (all of them without one), naming
  // those that are not `id`.
  auto counted_up_to = [&](std::optional<std::string_view> id) {
    for (const auto& [keys, what] : counted)
      for (; !keys->done() && (!id || keys->key() <= *id); keys->next()) {
        release.read(keys->value());
        if (!id || keys->key() != *id)
          problems.push_back(std::string(keys->key()) + ": " + what + " counts are kept for a page that is not stored");
      }
  };
  PassProgress stored = pass("pages", I.docs);
  txn.each(I.docs, "", [&](std::string_view key, std::string_view record) {
    stored.step();
    release.read(record, 4);  // minima, cluster, its main, duplicate_of's cluster
    counted_up_to(key);
    std::string id(key);
    ++pages;
    nlohmann::json j = nlohmann::json::parse(record, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      problems.push_back(id + ": record is not JSON");
      return true;
    }
    Result<Signatures> sig = signatures_in(j);
    if (!sig.ok()) {
      problems.push_back(id + ": bad signatures");
      return true;
    }
    if (!txn.get(I.minhash, id)) problems.push_back(id + ": minima missing");
    postings(*sig, [&](std::size_t table, const std::string& k) { expected.add(table, k, id); });
    const bool duplicate = j.contains("duplicate_of") && j["duplicate_of"].is_object();
    duplicates += duplicate;
    auto cluster = txn.get(I.cluster_of, id);
    if (!cluster) {
      problems.push_back(id + ": cluster missing");
    } else {
      expected.add(kMember, *cluster, id);
      auto main = txn.get(I.clusters, *cluster);
      if (!main) problems.push_back(id + ": cluster " + *cluster + " has no main");
      // The record says what the tables say: its cluster, and, unless it
      // is the cluster's main page, duplicate_of a stored page of the same
      // cluster.
      if (j.value("cluster", nlohmann::json()) != *cluster)
        problems.push_back(id + ": the record names cluster " + j.value("cluster", nlohmann::json()).dump() +
                           ", the table " + *cluster);
      if (main && duplicate == (Impl::main_of(*main) == id)) {
        problems.push_back(id + (duplicate ? ": the record names a duplicate_of but the page is its cluster's main"
                                           : ": the record has no duplicate_of but the page is not its cluster's main"));
      } else if (duplicate) {
        const std::string of = j["duplicate_of"].value("id", "");
        if (txn.get(I.cluster_of, of) != cluster)
          problems.push_back(id + ": the record's duplicate_of " + of + " is not a page of its cluster " + *cluster);
      }
    }
    return true;
  });
  bool any = exhaustive;
  if (!exhaustive) {
    for (std::size_t table : {kBand, kSimhash, kMember}) {
      PassProgress postings_read = pass(posting_name[table], posting_table[table]);
      txn.each(posting_table[table], "", [&](std::string_view key, std::string_view id) {
        postings_read.step();
        release.read(id);
        found.add(table, key, id);
        return true;
      });
    }
    for (std::size_t table : {kBand, kSimhash, kMember})
      for (std::size_t b = 0; b < PostingLedger::kBuckets; ++b)
        any |= suspect[table * PostingLedger::kBuckets + b] = expected.differs(found, table, b);
  }
  // The suspect buckets' pages, their postings looked up one by one.
  PassProgress looked_up = pass("pages whose postings are looked up", I.docs);
  if (any)
    txn.each(I.docs, "", [&](std::string_view key, std::string_view record) {
      looked_up.step();
      release.read(record, 8);
      if (!suspected(kBand, key) && !suspected(kSimhash, key) && !suspected(kMember, key)) return true;
      const std::string id(key);
      // A damaged record was reported by the first pass.
      const nlohmann::json j = nlohmann::json::parse(record, nullptr, false);
      if (j.is_object())
        if (Result<Signatures> sig = signatures_in(j); sig.ok())
          postings(*sig, [&](std::size_t table, const std::string& k) {
            if (suspected(table, id) && !txn.has_pair(posting_table[table], k, id))
              problems.push_back(id + missing[table]);
          });
      if (suspected(kMember, id))
        if (auto cluster = txn.get(I.cluster_of, id); cluster && !txn.has_pair(I.members, *cluster, id))
          problems.push_back(id + ": not a member of " + *cluster);
      return true;
    });
  // Postings of pages that are not stored.
  for (std::size_t table : {kBand, kSimhash, kMember}) {
    PassProgress posted = pass(std::string(posting_name[table]) + "' pages", posting_table[table]);
    txn.each(posting_table[table], "", [&](std::string_view key, std::string_view id) {
      posted.step();
      release.read(id, suspected(table, id));
      if (suspected(table, id) && !txn.get(I.docs, id)) problems.push_back("posting to missing page " + std::string(id));
      return true;
    });
  }
  uint64_t clusters = 0;
  PassProgress clusters_read = pass("clusters", I.clusters);
  txn.each(I.clusters, "", [&](std::string_view key, std::string_view value) {
    clusters_read.step();
    release.read(value, 1);
    ++clusters;
    const std::string main = Impl::main_of(value);
    if (main != key) problems.push_back("cluster " + std::string(key) + " is keyed apart from its main page " + main);
    if (!txn.has_pair(I.members, std::string(key), main))
      problems.push_back("cluster " + std::string(key) + ": its main page is not a member");
    return true;
  });
  counted_up_to(std::nullopt);
  for (const auto& [keys, what] : counted)
    if (keys->error() != 0) problems.push_back(std::string("reading the index failed: ") + mdb_strerror(keys->error()));
  if (clusters != I.counter(txn, "clusters"))
    problems.push_back("cluster counter " + std::to_string(I.counter(txn, "clusters")) + " but " +
                       std::to_string(clusters) + " clusters");
  if (duplicates != I.counter(txn, "duplicates"))
    problems.push_back("duplicate counter " + std::to_string(I.counter(txn, "duplicates")) + " but " +
                       std::to_string(duplicates) + " records name a duplicate_of");
  if (pages != I.counter(txn, "pages"))
    problems.push_back("page counter " + std::to_string(I.counter(txn, "pages")) + " but " + std::to_string(pages) +
                       " pages");
  if (txn.rc() != 0) problems.push_back(std::string("reading the index failed: ") + mdb_strerror(txn.rc()));
  if (int rc = I.sync_error.load(); rc != 0)
    problems.push_back(std::string("the last background flush to disk failed: ") + mdb_strerror(rc));
  return problems;
}

// The copy is written to data.mdb.partial, flushed to disk and only then
// renamed to data.mdb: a compaction killed midway leaves no data.mdb, so
// the target never holds a half-written index that LMDB would map (a
// truncated map file faults with SIGBUS when read).
// LMDB writes the copy from a thread of its own and says nothing while it
// does; a copy of gigabytes takes minutes. Where it stands is the copy's
// size, read from beside it a few times a second, against the bytes the
// index uses (the compacted copy leaves the free pages out, so it ends at
// or under that figure).
class CopyWatch {
 public:
  CopyWatch(const Index::Progress& progress, int fd, uint64_t total) : progress_(progress), fd_(fd), total_(total) {
    if (progress_) watcher_ = std::thread([this] { watch(); });
  }
  // Stops watching and reports the copy's size as both figures.
  void finish() {
    if (!watcher_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    woken_.notify_one();
    watcher_.join();
    const uint64_t size = written();
    progress_(kReading, size, size);
  }
  ~CopyWatch() { finish(); }

 private:
  static constexpr const char* kReading = "bytes written";
  uint64_t written() const {
    struct stat st {};
    return ::fstat(fd_, &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
  }
  void watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!woken_.wait_for(lock, std::chrono::milliseconds(200), [this] { return done_; }))
      progress_(kReading, std::min(written(), total_), total_);
  }
  const Index::Progress& progress_;
  const int fd_;
  const uint64_t total_;
  std::mutex mutex_;
  std::condition_variable woken_;
  bool done_ = false;
  std::thread watcher_;
};

Status Index::compact_to(const std::string& dir, const Progress& progress) const {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status(Code::kIo, dir + ": " + ec.message());
  const fs::path target = fs::path(dir) / "data.mdb";
  if (fs::exists(target, ec)) return Status(Code::kInvalidArgument, dir + ": already holds an index (data.mdb)");
  const fs::path partial = fs::path(dir) / "data.mdb.partial";
  int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status(Code::kIo, partial.string() + ": " + std::strerror(errno));
  uint64_t used = 0;
  if (progress) {
    ReadTxn r(impl_->env);
    if (r.rc == 0) used = impl_->used_bytes(r.txn, true);
  }
  CopyWatch watch(progress, fd, used);
  int rc = mdb_env_copyfd2(impl_->env, fd, MDB_CP_COMPACT);
  const bool synced = rc == 0 && ::fsync(fd) == 0;
  watch.finish();
  ::close(fd);
  if (rc != 0) return lmdb_error(rc, partial.string());
  if (!synced) return Status(Code::kIo, partial.string() + ": " + std::strerror(errno));
  fs::rename(partial, target, ec);
  if (ec) return Status(Code::kIo, target.string() + ": " + ec.message());
  // The rename is durable once the directory is flushed.
  if (int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return Status();
}

Status Index::export_jsonl(std::ostream& out, const Progress& progress) const {
  ReadTxn r(impl_->env);
  if (r.rc != 0) return lmdb_error(r.rc, "cannot read the index");
  Txn txn(r.txn);
  std::vector<std::string> damaged;
  MapRelease release(impl_->env);
  PassProgress exported(progress, "pages", r.txn, impl_->docs);
  txn.each(impl_->docs, "", [&](std::string_view id, std::string_view record) {
    exported.step();
    release.read(record);
    if (!whole_record(record)) {
      damaged.emplace_back(id);
      return true;
    }
    out << record << '\n';
    return static_cast<bool>(out);
  });
  if (txn.rc() != 0) return lmdb_error(txn.rc(), "reading the index");
  if (!out) return Status(Code::kIo, "write failed");
  if (!damaged.empty()) {
    std::string named;
    for (std::size_t i = 0; i < damaged.size() && i < 10; ++i) named += (i ? ", " : "") + damaged[i];
    return Status(Code::kCorrupt, std::to_string(damaged.size()) + " damaged record(s) left out (not JSON): " + named +
                                      (damaged.size() > 10 ? ", ..." : ""));
  }
  return Status();
}

}  // namespace husk
