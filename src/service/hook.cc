#include "husk/hook.h"

#include <lmdb.h>

#include <bit>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <filesystem>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "husk/dedup.h"
#include "husk/template_store.h"
#include "sign/hashing.h"
#include "sign/sig_json.h"

namespace husk {

namespace {

Status lmdb_error(int rc, const std::string& what) { return Status(Code::kIo, what + ": " + mdb_strerror(rc)); }

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

// A page made ready outside the write lock: extracted, signed, keyed.
struct Prepared {
  HookResult result;
  Signatures sig;
  std::vector<std::string> band_keys;     // 1 byte band + 8 bytes key
  std::vector<std::string> simhash_keys;  // 1 byte table + 2 bytes block + 8 bytes fingerprint
  bool indexable = false;
};

}  // namespace

struct Hook::Impl {
  HookOptions options;
  Pipeline pipeline;
  std::unique_ptr<TemplateStore> templates;
  MDB_env* env = nullptr;
  MDB_dbi docs = 0, minhash = 0, bands = 0, simhash = 0, clusters = 0, members = 0, cluster_of = 0, meta = 0;
  uint32_t band_count = 0, band_rows = 0;

  // Group commit: pages wait in `queue`; the writer takes them all.
  struct Job {
    std::vector<Prepared> pages;
    std::promise<std::vector<HookResult>> done;
  };
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Job*> queue;
  bool stopping = false;
  std::thread writer;
  std::thread syncer;  // flushes the index to disk every sync_interval_ms
  std::condition_variable sync_wake;

  explicit Impl(const HookOptions& o, Pipeline p) : options(o), pipeline(std::move(p)) {}

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

  std::vector<std::string> keys_of_bands(const std::vector<uint32_t>& m) const {
    std::vector<std::string> out;
    for (uint32_t band = 0; band < band_count && (band + 1) * band_rows <= m.size(); ++band) {
      std::string_view bytes(reinterpret_cast<const char*>(m.data() + band * band_rows), band_rows * sizeof(uint32_t));
      std::string key;
      put_be(key, band, 1);
      put_be(key, xxh64(bytes, band), 8);
      out.push_back(std::move(key));
    }
    return out;
  }

  // Manku's tables for k = 3: four 16-bit blocks, a pair within distance 3
  // agrees on one of them.
  static std::vector<std::string> keys_of_simhash(uint64_t fp) {
    std::vector<std::string> out;
    for (int table = 0; table < 4; ++table) {
      std::string key;
      put_be(key, static_cast<uint64_t>(table), 1);
      put_be(key, (fp >> (16 * (3 - table))) & 0xFFFF, 2);
      put_be(key, fp, 8);
      out.push_back(std::move(key));
    }
    return out;
  }

  // A stored site template when there is one, else the pipeline's own
  // extractor.
  PageResult extract(const RawPage& page) const {
    if (!templates) return pipeline.process(page);
    Analyzed a = pipeline.analyze(page, true);
    std::optional<TemplateModel> model = a.ok ? templates->find(a.result.url, a.result.id) : std::nullopt;
    if (!model) {
      Extraction e = pipeline.extract(a);
      return pipeline.finish(std::move(a), std::move(e));
    }
    Extraction e = apply_template(*model, a.blocks);
    e.extractor = "template";
    return pipeline.finish(std::move(a), std::move(e));
  }

  Prepared prepare(const RawPage& page) const {
    Prepared p;
    PageResult r = extract(page);
    p.result.id = page.id;
    p.result.url = r.url;
    p.result.title = r.title;
    p.result.text = r.text;
    p.result.warnings = r.warnings;
    p.result.error = r.error;
    p.result.sig_json = "null";
    if (!r.error.empty()) return p;
    p.sig = sign(normalize(r.text, options.sign.normalize), options.sign, nullptr);
    if (p.sig.terms == 0) {
      p.result.warnings.push_back("no text to sign: not indexed");
      return p;
    }
    p.result.sig_json = signatures_json(p.sig);
    p.band_keys = keys_of_bands(p.sig.minhash);
    if (p.sig.simhash) p.simhash_keys = keys_of_simhash(*p.sig.simhash);
    p.indexable = true;
    return p;
  }

  // ---- in a write transaction ----

  static std::optional<std::string> get_in(MDB_txn* txn, MDB_dbi dbi, std::string_view key) {
    MDB_val k = val_of(key), v{};
    if (mdb_get(txn, dbi, &k, &v) != 0) return std::nullopt;
    return std::string(view_of(v));
  }

  static int put_in(MDB_txn* txn, MDB_dbi dbi, std::string_view key, std::string_view value, unsigned flags = 0) {
    MDB_val k = val_of(key), v = val_of(value);
    return mdb_put(txn, dbi, &k, &v, flags);
  }

  static int del_in(MDB_txn* txn, MDB_dbi dbi, std::string_view key, std::optional<std::string_view> value = {}) {
    MDB_val k = val_of(key);
    if (!value) return mdb_del(txn, dbi, &k, nullptr);
    MDB_val v = val_of(*value);
    return mdb_del(txn, dbi, &k, &v);
  }

  uint64_t counter(MDB_txn* txn, std::string_view name) const {
    auto v = get_in(txn, meta, name);
    return v && v->size() == 8 ? get_be(*v, 0, 8) : 0;
  }

  int add_counter(MDB_txn* txn, std::string_view name, int64_t delta) const {
    std::string v;
    put_be(v, static_cast<uint64_t>(static_cast<int64_t>(counter(txn, name)) + delta), 8);
    return put_in(txn, meta, name, v);
  }

  // Every page id stored under a dup-sorted key (or key prefix).
  static std::vector<std::pair<std::string, std::string>> scan(MDB_txn* txn, MDB_dbi dbi, std::string_view prefix) {
    std::vector<std::pair<std::string, std::string>> out;
    MDB_cursor* cursor = nullptr;
    if (mdb_cursor_open(txn, dbi, &cursor) != 0) return out;
    MDB_val k = val_of(prefix), v{};
    for (int rc = mdb_cursor_get(cursor, &k, &v, prefix.empty() ? MDB_FIRST : MDB_SET_RANGE); rc == 0;
         rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT)) {
      std::string_view key = view_of(k);
      if (key.substr(0, prefix.size()) != prefix) break;
      out.emplace_back(std::string(key), std::string(view_of(v)));
    }
    mdb_cursor_close(cursor);
    return out;
  }

  // Removes a stored page from every table; returns an LMDB error code.
  int unindex(MDB_txn* txn, const std::string& id, bool& existed) {
    existed = false;
    auto record = get_in(txn, docs, id);
    if (!record) return 0;
    existed = true;
    nlohmann::json j = nlohmann::json::parse(*record, nullptr, false);
    if (!j.is_discarded() && j.contains("sig")) {
      Result<Signatures> sig = signatures_from_json(j["sig"]);
      if (sig.ok()) {
        for (const std::string& key : keys_of_bands(sig->minhash)) del_in(txn, bands, key, id);
        if (sig->simhash)
          for (const std::string& key : keys_of_simhash(*sig->simhash)) del_in(txn, simhash, key, id);
      }
    }
    if (!j.is_discarded() && j.value("duplicate_of", nlohmann::json()).is_object()) add_counter(txn, "duplicates", -1);
    del_in(txn, minhash, id);
    if (auto cluster = get_in(txn, cluster_of, id)) {
      del_in(txn, members, *cluster, id);
      del_in(txn, cluster_of, id);
      auto main = get_in(txn, clusters, *cluster);
      if (main && main->substr(0, main->find('\n')) == id) {
        // The main page goes: the earliest remaining member takes over.
        auto rest = scan(txn, members, *cluster);
        std::erase_if(rest, [&](const auto& kv) { return kv.first != *cluster; });
        if (rest.empty()) {
          del_in(txn, clusters, *cluster);
          add_counter(txn, "clusters", -1);
        } else {
          auto next = get_in(txn, docs, rest.front().second);
          std::string url = next ? nlohmann::json::parse(*next, nullptr, false).value("url", "") : "";
          put_in(txn, clusters, *cluster, rest.front().second + "\n" + url);
        }
      }
    }
    add_counter(txn, "pages", -1);
    return del_in(txn, docs, id);
  }

  int index(MDB_txn* txn, Prepared& p) {
    HookResult& r = p.result;
    bool existed = false;
    if (int rc = unindex(txn, r.id, existed); rc != 0 && rc != MDB_NOTFOUND) return rc;
    // Candidates: minhash buckets, verified by estimated Jaccard; simhash
    // tables (prefix scans), verified by Hamming distance.
    std::string best;
    double best_jaccard = -1;
    int best_hamming = 65;
    std::set<std::string> seen;
    for (const std::string& key : p.band_keys)
      for (const auto& [k, id] : scan(txn, bands, key)) {
        if (k != key || !seen.insert(id).second) continue;
        auto raw = get_in(txn, minhash, id);
        if (!raw || raw->size() != p.sig.minhash.size() * 4) continue;
        std::size_t equal = 0;
        for (std::size_t i = 0; i < p.sig.minhash.size(); ++i) {
          uint32_t v;
          std::memcpy(&v, raw->data() + i * 4, 4);
          equal += v == p.sig.minhash[i];
        }
        double jac = static_cast<double>(equal) / static_cast<double>(p.sig.minhash.size());
        if (jac >= options.threshold && jac > best_jaccard) {
          best_jaccard = jac;
          best = id;
        }
      }
    if (best.empty() && p.sig.simhash)
      for (const std::string& key : p.simhash_keys)
        for (const auto& [k, id] : scan(txn, simhash, std::string_view(key).substr(0, 3))) {
          int d = std::popcount(get_be(k, 3, 8) ^ *p.sig.simhash);
          if (d <= static_cast<int>(options.simhash_k) && d < best_hamming) {
            best_hamming = d;
            best = id;
          }
        }
    std::string cluster = r.id;
    if (!best.empty()) {
      cluster = get_in(txn, cluster_of, best).value_or(best);
      std::string main = get_in(txn, clusters, cluster).value_or(best + "\n");
      r.duplicate_of = main.substr(0, main.find('\n'));
      r.duplicate_url = main.substr(main.find('\n') + 1);
      char measure[32];
      if (best_jaccard >= 0) {
        std::snprintf(measure, sizeof(measure), "jaccard %.3f", best_jaccard);
      } else {
        std::snprintf(measure, sizeof(measure), "hamming %d", best_hamming);
      }
      r.duplicate_measure = measure;
    } else {
      if (int rc = put_in(txn, clusters, cluster, r.id + "\n" + r.url); rc != 0) return rc;
      add_counter(txn, "clusters", 1);
    }
    r.cluster = cluster;
    nlohmann::ordered_json record;
    record["id"] = r.id;
    record["url"] = r.url;
    record["title"] = r.title;
    record["text"] = r.text;
    record["sig"] = nlohmann::json::parse(r.sig_json);
    record["cluster"] = cluster;
    record["duplicate_of"] = r.duplicate_of ? nlohmann::json({{"id", *r.duplicate_of}, {"url", *r.duplicate_url},
                                                              {"measure", *r.duplicate_measure}})
                                            : nlohmann::json(nullptr);
    std::string minima(reinterpret_cast<const char*>(p.sig.minhash.data()), p.sig.minhash.size() * 4);
    int rc = put_in(txn, docs, r.id, record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (rc == 0) rc = put_in(txn, minhash, r.id, minima);
    for (const std::string& key : p.band_keys)
      if (rc == 0) rc = put_in(txn, bands, key, r.id);
    for (const std::string& key : p.simhash_keys)
      if (rc == 0) rc = put_in(txn, simhash, key, r.id);
    if (rc == 0) rc = put_in(txn, members, cluster, r.id);
    if (rc == 0) rc = put_in(txn, cluster_of, r.id, cluster);
    if (rc == 0) rc = add_counter(txn, "pages", 1);
    if (rc == 0 && r.duplicate_of) rc = add_counter(txn, "duplicates", 1);
    return rc == MDB_KEYEXIST ? 0 : rc;
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
      MDB_txn* txn = nullptr;
      int rc = mdb_txn_begin(env, nullptr, 0, &txn);
      for (Job* job : jobs)
        for (Prepared& p : job->pages)
          if (rc == 0 && p.indexable) rc = index(txn, p);
      if (rc == 0) {
        rc = mdb_txn_commit(txn);
      } else if (txn != nullptr) {
        mdb_txn_abort(txn);
      }
      for (Job* job : jobs) {
        std::vector<HookResult> results;
        for (Prepared& p : job->pages) {
          if (rc != 0 && p.indexable) {
            p.result.error = std::string("io: index write failed: ") + mdb_strerror(rc);
            p.result.duplicate_of.reset();
          }
          results.push_back(std::move(p.result));
        }
        job->done.set_value(std::move(results));
      }
    }
  }

  std::vector<HookResult> submit(std::vector<Prepared> pages) {
    Job job;
    job.pages = std::move(pages);
    auto future = job.done.get_future();
    {
      std::lock_guard<std::mutex> lock(mutex);
      queue.push_back(&job);
    }
    wake.notify_one();
    return future.get();
  }
};

Hook::Hook(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Hook::~Hook() = default;

std::string Hook::page_id(std::string_view url, std::string_view bytes) {
  return hex64(xxh64(url.empty() ? bytes : url, url.empty() ? 0x6279746573ull : 0x75726cull));
}

Result<std::unique_ptr<Hook>> Hook::open(const HookOptions& options) {
  Result<Pipeline> pipeline = Pipeline::make(options.pipeline);
  if (!pipeline.ok()) return pipeline.status();
  auto impl = std::make_unique<Impl>(options, std::move(*pipeline));
  std::error_code ec;
  std::filesystem::create_directories(options.db, ec);
  if (ec) return Status(Code::kIo, options.db + ": " + ec.message());
  int rc = mdb_env_create(&impl->env);
  if (rc == 0) rc = mdb_env_set_maxdbs(impl->env, 16);
  if (rc == 0) rc = mdb_env_set_mapsize(impl->env, options.map_size);
  if (rc == 0) rc = mdb_env_open(impl->env, options.db.c_str(), options.fsync_each_commit ? 0 : MDB_NOSYNC, 0664);
  if (rc != 0) return lmdb_error(rc, options.db + ": cannot open the index");
  MDB_txn* txn = nullptr;
  rc = mdb_txn_begin(impl->env, nullptr, 0, &txn);
  if (rc != 0) return lmdb_error(rc, options.db);
  struct Named {
    const char* name;
    MDB_dbi* dbi;
    unsigned flags;
  };
  for (const Named& n : {Named{"docs", &impl->docs, 0}, Named{"minhash", &impl->minhash, 0},
                         Named{"bands", &impl->bands, MDB_DUPSORT}, Named{"simhash", &impl->simhash, MDB_DUPSORT},
                         Named{"clusters", &impl->clusters, 0}, Named{"members", &impl->members, MDB_DUPSORT},
                         Named{"cluster_of", &impl->cluster_of, 0}, Named{"meta", &impl->meta, 0}}) {
    rc = mdb_dbi_open(txn, n.name, MDB_CREATE | n.flags, n.dbi);
    if (rc != 0) {
      mdb_txn_abort(txn);
      return lmdb_error(rc, options.db + ": table " + n.name);
    }
  }
  rc = mdb_txn_commit(txn);
  if (rc != 0) return lmdb_error(rc, options.db);
  if (!options.templates.empty()) {
    auto store = TemplateStore::open(options.templates);
    if (!store.ok()) return store.status();
    impl->templates = std::move(*store);
  }
  auto [b, r] = lsh_bands_for(options.threshold, options.sign.minhash_permutations);
  impl->band_count = b;
  impl->band_rows = r;
  impl->writer = std::thread([raw = impl.get()] { raw->write_loop(); });
  if (!options.fsync_each_commit)
    impl->syncer = std::thread([raw = impl.get()] {
      std::unique_lock<std::mutex> lock(raw->mutex);
      while (!raw->stopping) {
        raw->sync_wake.wait_for(lock, std::chrono::milliseconds(raw->options.sync_interval_ms));
        lock.unlock();
        mdb_env_sync(raw->env, 1);
        lock.lock();
      }
    });
  return std::unique_ptr<Hook>(new Hook(std::move(impl)));
}

HookResult Hook::process(std::string_view url, std::string_view bytes, std::string_view content_type) {
  RawPage page;
  page.url = std::string(url);
  page.id = page_id(url, bytes);
  page.bytes = std::string(bytes);
  page.content_type = std::string(content_type);
  std::vector<RawPage> one;
  one.push_back(std::move(page));
  return std::move(process_batch(one).front());
}

std::vector<HookResult> Hook::process_batch(const std::vector<RawPage>& pages) {
  std::vector<Prepared> prepared;
  for (const RawPage& page : pages) {
    RawPage p = page;
    if (p.id.empty()) p.id = page_id(p.url, p.bytes);
    prepared.push_back(impl_->prepare(p));
  }
  return impl_->submit(std::move(prepared));
}

namespace {

// A read transaction for the lifetime of a scope.
struct ReadTxn {
  MDB_txn* txn = nullptr;
  explicit ReadTxn(MDB_env* env) { mdb_txn_begin(env, nullptr, MDB_RDONLY, &txn); }
  ~ReadTxn() {
    if (txn != nullptr) mdb_txn_abort(txn);
  }
};

}  // namespace

std::optional<std::string> Hook::get(const std::string& id) const {
  ReadTxn r(impl_->env);
  if (r.txn == nullptr) return std::nullopt;
  return Impl::get_in(r.txn, impl_->docs, id);
}

Result<bool> Hook::remove(const std::string& id) {
  // LMDB lets one write transaction run at a time: this waits for the writer.
  MDB_txn* txn = nullptr;
  int rc = mdb_txn_begin(impl_->env, nullptr, 0, &txn);
  if (rc != 0) return lmdb_error(rc, "remove " + id);
  bool existed = false;
  rc = impl_->unindex(txn, id, existed);
  if (rc != 0 && rc != MDB_NOTFOUND) {
    mdb_txn_abort(txn);
    return lmdb_error(rc, "remove " + id);
  }
  rc = mdb_txn_commit(txn);
  if (rc != 0) return lmdb_error(rc, "remove " + id);
  return existed;
}

std::optional<std::string> Hook::cluster(const std::string& id) const {
  ReadTxn r(impl_->env);
  if (r.txn == nullptr) return std::nullopt;
  auto main = Impl::get_in(r.txn, impl_->clusters, id);
  if (!main) return std::nullopt;
  nlohmann::ordered_json j;
  j["cluster"] = id;
  j["main"] = main->substr(0, main->find('\n'));
  nlohmann::json members = nlohmann::json::array();
  for (const auto& [k, v] : Impl::scan(r.txn, impl_->members, id))
    if (k == id) members.push_back(v);
  j["size"] = members.size();
  j["members"] = members;
  return j.dump();
}

IndexStats Hook::stats() const {
  IndexStats s;
  ReadTxn r(impl_->env);
  if (r.txn == nullptr) return s;
  s.pages = impl_->counter(r.txn, "pages");
  s.clusters = impl_->counter(r.txn, "clusters");
  s.duplicates = impl_->counter(r.txn, "duplicates");
  MDB_stat st{};
  if (mdb_stat(r.txn, impl_->bands, &st) == 0) s.band_postings = st.ms_entries;
  if (mdb_stat(r.txn, impl_->simhash, &st) == 0) s.simhash_postings = st.ms_entries;
  std::error_code ec;
  s.bytes_on_disk = std::filesystem::file_size(std::filesystem::path(impl_->options.db) / "data.mdb", ec);
  return s;
}

std::vector<std::string> Hook::verify() const {
  std::vector<std::string> problems;
  ReadTxn r(impl_->env);
  if (r.txn == nullptr) return {"cannot open a read transaction"};
  auto& I = *impl_;
  uint64_t pages = 0;
  for (const auto& [id, record] : Impl::scan(r.txn, I.docs, "")) {
    ++pages;
    nlohmann::json j = nlohmann::json::parse(record, nullptr, false);
    if (j.is_discarded()) {
      problems.push_back(id + ": record is not JSON");
      continue;
    }
    Result<Signatures> sig = signatures_from_json(j.value("sig", nlohmann::json()));
    if (!sig.ok()) {
      problems.push_back(id + ": bad signatures");
      continue;
    }
    if (!Impl::get_in(r.txn, I.minhash, id)) problems.push_back(id + ": minima missing");
    // clang 14 (the fuzz build) cannot capture a structured binding, so the
    // page id comes in through an init-capture.
    auto has = [&r, &page = id](MDB_dbi dbi, const std::string& key) {
      for (const auto& [k, v] : Impl::scan(r.txn, dbi, key))
        if (k == key && v == page) return true;
      return false;
    };
    for (const std::string& key : I.keys_of_bands(sig->minhash))
      if (!has(I.bands, key)) problems.push_back(id + ": band posting missing");
    if (sig->simhash)
      for (const std::string& key : Impl::keys_of_simhash(*sig->simhash))
        if (!has(I.simhash, key)) problems.push_back(id + ": simhash posting missing");
    auto cluster = Impl::get_in(r.txn, I.cluster_of, id);
    if (!cluster) {
      problems.push_back(id + ": cluster missing");
    } else {
      if (!has(I.members, *cluster)) problems.push_back(id + ": not a member of " + *cluster);
      if (!Impl::get_in(r.txn, I.clusters, *cluster)) problems.push_back(id + ": cluster " + *cluster + " has no main");
    }
  }
  for (MDB_dbi dbi : {I.bands, I.simhash, I.members})
    for (const auto& [k, id] : Impl::scan(r.txn, dbi, ""))
      if (!Impl::get_in(r.txn, I.docs, id)) problems.push_back("posting to missing page " + id);
  if (pages != I.counter(r.txn, "pages"))
    problems.push_back("page counter " + std::to_string(I.counter(r.txn, "pages")) + " but " + std::to_string(pages) + " pages");
  return problems;
}

Status Hook::compact_to(const std::string& dir) const {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  int rc = mdb_env_copy2(impl_->env, dir.c_str(), MDB_CP_COMPACT);
  return rc == 0 ? Status() : lmdb_error(rc, dir);
}

Status Hook::export_jsonl(std::ostream& out) const {
  ReadTxn r(impl_->env);
  if (r.txn == nullptr) return Status(Code::kIo, "cannot read the index");
  for (const auto& [id, record] : Impl::scan(r.txn, impl_->docs, "")) out << record << '\n';
  return out ? Status() : Status(Code::kIo, "write failed");
}

}  // namespace husk
