// CorpusDedup (husk/corpus.h): the minhash search as map, group, verify and
// cluster stages over ranks, each stage bounded in memory.
#include "husk/corpus.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <thread>
#include <unordered_map>

#include "base/bytes.h"
#include "base/hash_sort.h"
#include "dedup/search.h"
#include "dedup/stages.h"
#include "sign/hashing.h"

namespace husk {

namespace {

// Runs work(thread, item) for the items [0, n) on `jobs` threads, the
// caller's among them, each thread taking the next item when it is free.
// A thread stops at its first error; the first thread's error in thread
// order is returned.
template <typename Work>
Status on_threads(std::size_t n, unsigned jobs, Work&& work) {
  jobs = std::max(1u, static_cast<unsigned>(std::min<std::size_t>(jobs, n)));
  std::vector<Status> errors(jobs);
  std::atomic<std::size_t> next{0};
  auto run = [&](unsigned t) {
    for (std::size_t i = next++; i < n; i = next++)
      if (Status st = work(t, i); !st.ok()) {
        errors[t] = std::move(st);
        return;
      }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(run, t);
  run(0);
  for (std::thread& t : threads) t.join();
  for (Status& st : errors)
    if (!st.ok()) return st;
  return Status();
}

// One band key of one page: the record of the map step (16 bytes).
struct Key {
  uint64_t key;
  uint32_t page;   // ordinal
  uint32_t whole;  // hash of the page's whole sketch: equal for copies
};
static_assert(sizeof(Key) == 16);

// A function object, not a function: std::sort then inlines the
// comparison, where through a function pointer it made a call of each.
constexpr auto key_order = [](const Key& x, const Key& y) {
  return x.key != y.key ? x.key < y.key : x.page < y.page;
};

Status io_error(const std::string& what, const std::string& path) {
  return Status(Code::kIo, path + ": " + what + ": " + std::strerror(errno));
}

// An append-only file written through a buffer, read back with pread.
class SpillFile {
 public:
  SpillFile() = default;
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;
  ~SpillFile() {
    if (fd_ >= 0) ::close(fd_);
  }

  Status open(const std::string& path) {
    path_ = path;
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    return fd_ < 0 ? io_error("cannot create", path) : Status();
  }
  bool is_open() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }
  uint64_t size() const { return written_ + buffer_.size(); }

  // A block as large as the buffer is written as it is, so that the buffer
  // never grows past kBuffer (64 partitions spill at once).
  Status append(const void* data, std::size_t n) {
    if (n >= kBuffer) {
      if (Status st = flush(); !st.ok()) return st;
      return write(static_cast<const char*>(data), n);
    }
    buffer_.append(static_cast<const char*>(data), n);
    return buffer_.size() >= kBuffer ? flush() : Status();
  }

  Status flush() {
    if (Status st = write(buffer_.data(), buffer_.size()); !st.ok()) return st;
    buffer_.clear();
    return Status();
  }

  // n bytes at offset into out; flushed data only.
  Status read(uint64_t offset, std::size_t n, std::string& out) const {
    out.resize(n);
    std::size_t done = 0;
    while (done < n) {
      ssize_t r = ::pread(fd_, out.data() + done, n - done, static_cast<off_t>(offset + done));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) return io_error("cannot read back", path_);
      done += static_cast<std::size_t>(r);
    }
    return Status();
  }

  // The file is no longer needed: its blocks go back at once.
  void discard() {
    if (fd_ >= 0) {
      ::close(fd_);
      fd_ = -1;
      ::unlink(path_.c_str());
    }
    buffer_.clear();
    buffer_.shrink_to_fit();
    written_ = 0;
  }

 private:
  static constexpr std::size_t kBuffer = 1 << 20;
  Status write(const char* data, std::size_t n) {
    std::size_t done = 0;
    while (done < n) {
      ssize_t w = ::pwrite(fd_, data + done, n - done, static_cast<off_t>(written_ + done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return io_error("cannot write (disk full?)", path_);
      done += static_cast<std::size_t>(w);
    }
    written_ += n;
    return Status();
  }
  std::string path_;
  int fd_ = -1;
  std::string buffer_;
  uint64_t written_ = 0;
};

// A page as the store keeps it.
struct Stored {
  std::string id;
  double rank = 0;
  double boilerplate = 0;
  std::string language;
  uint32_t terms = 0;
  std::vector<uint32_t> sketch;
  std::string url;
};

void encode(std::string& out, const Stored& s) {
  out.clear();
  put_bytes<uint32_t>(out, 0);  // length, filled below
  put_bytes<uint32_t>(out, static_cast<uint32_t>(s.id.size()));
  out += s.id;
  put_bytes(out, s.rank);
  put_bytes(out, s.boilerplate);
  put_bytes<uint8_t>(out, static_cast<uint8_t>(std::min<std::size_t>(s.language.size(), 255)));
  out.append(s.language, 0, std::min<std::size_t>(s.language.size(), 255));
  put_bytes(out, s.terms);
  put_bytes<uint32_t>(out, static_cast<uint32_t>(s.sketch.size()));
  out.append(reinterpret_cast<const char*>(s.sketch.data()), s.sketch.size() * sizeof(uint32_t));
  put_bytes<uint32_t>(out, static_cast<uint32_t>(s.url.size()));
  out += s.url;
  uint32_t length = static_cast<uint32_t>(out.size());
  std::memcpy(out.data(), &length, sizeof(length));
}

bool decode(std::string_view in, Stored& s) {
  uint32_t length = 0, id_size = 0, n = 0;
  uint8_t lang_size = 0;
  if (!take_bytes(in, length) || !take_bytes(in, id_size) || in.size() < id_size) return false;
  s.id.assign(in.substr(0, id_size));
  in.remove_prefix(id_size);
  if (!take_bytes(in, s.rank) || !take_bytes(in, s.boilerplate) || !take_bytes(in, lang_size) || in.size() < lang_size) return false;
  s.language.assign(in.substr(0, lang_size));
  in.remove_prefix(lang_size);
  if (!take_bytes(in, s.terms) || !take_bytes(in, n) || in.size() < n * sizeof(uint32_t)) return false;
  s.sketch.resize(n);
  if (n > 0) std::memcpy(s.sketch.data(), in.data(), n * sizeof(uint32_t));  // an empty vector's data() may be null
  in.remove_prefix(n * sizeof(uint32_t));
  uint32_t url_size = 0;
  if (!take_bytes(in, url_size) || in.size() < url_size) return false;
  s.url.assign(in.substr(0, url_size));
  return true;
}

// A verified pair (ordinals a < b).
struct Verified {
  uint32_t a, b;
  float score;
};

// Union-find over a sparse set of pages: the smaller ordinal is the root,
// so a component's root is its first page whatever the merge order.
struct SparseForest {
  std::unordered_map<uint32_t, uint32_t> parent;
  uint32_t find(uint32_t x) {
    auto it = parent.find(x);
    if (it == parent.end()) return x;
    uint32_t root = x;
    while (true) {
      auto p = parent.find(root);
      if (p == parent.end() || p->second == root) break;
      root = p->second;
    }
    while (x != root) {  // path compression
      uint32_t& px = parent[x];
      uint32_t next = px;
      px = root;
      x = next;
    }
    return root;
  }
  void unite(uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (a > b) std::swap(a, b);
    parent[b] = a;
    parent.try_emplace(a, a);
  }
  // (page, root) for every page not a root, sorted.
  std::vector<std::pair<uint32_t, uint32_t>> edges() {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    std::vector<uint32_t> pages;
    for (const auto& [p, q] : parent) pages.push_back(p);
    for (uint32_t p : pages) {
      uint32_t r = find(p);
      if (r != p) out.emplace_back(p, r);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
};

std::string mb(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f MB", static_cast<double>(bytes) / 1e6);
  return buf;
}

}  // namespace

std::string default_work_dir() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

struct CorpusDedup::Impl {
  CorpusOptions options;
  Exchange& exchange;
  int rank = 0;
  int ranks = 1;
  uint32_t bands = 0, rows = 0;
  std::string dir;  // this rank's work directory
  uint64_t key_limit = 0;  // bytes of keys held before spilling

  // Pages of this rank: store offset per local slot (ordinal / ranks).
  SpillFile store;
  std::vector<uint64_t> offsets;
  static constexpr uint64_t kAbsent = UINT64_MAX;
  uint64_t last_ordinal = 0;
  bool any = false;
  uint64_t pages = 0;
  // (hash of its id, ordinal) of each page of this rank: a cluster names
  // its pages by id, so check_ids() refuses two pages under one id, as
  // the in-memory search does.
  std::vector<std::pair<uint64_t, uint32_t>> id_hashes;

  // Keys owned by this rank: in memory until key_limit, then partitioned
  // to disk. In memory they are kept apart by their top six bits, the
  // partition they spill to: the 64 ranges share no key, so each is sorted
  // and grouped on its own, on whichever thread is free.
  std::array<std::vector<Key>, 64> keys;
  uint64_t held = 0;  // keys in `keys`
  std::vector<std::unique_ptr<SpillFile>> partitions;
  uint64_t keys_total = 0;
  uint64_t spilled = 0;
  // Keys owned by other ranks, until the shuffle.
  std::vector<std::unique_ptr<SpillFile>> outgoing;

  std::string scratch;
  StageLines stages{options};

  Impl(const CorpusOptions& o, Exchange& e) : options(o), exchange(e) {}

  ~Impl() {
    if (!dir.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  }

  void report(const std::string& line) {
    if (rank == 0) stages(line);
  }

  int owner_of_key(uint64_t key) const { return static_cast<int>((key >> 32) % static_cast<uint64_t>(ranks)); }
  int owner_of_page(uint32_t page) const { return static_cast<int>(page % static_cast<uint32_t>(ranks)); }

  Status open() {
    rank = exchange.rank();
    ranks = exchange.size();
    std::tie(bands, rows) = lsh_bands_for(options.dedup.threshold, options.minhash_permutations);
    key_limit = std::max<uint64_t>(options.memory / 4, 4096);
    const std::string base = options.work_dir.empty() ? default_work_dir() : options.work_dir;
    std::string pattern = base + "/husk-dedup-" + std::to_string(rank) + "-XXXXXX";
    if (!::mkdtemp(pattern.data())) return io_error("cannot make a work directory", base);
    dir = pattern;
    if (Status st = store.open(dir + "/pages"); !st.ok()) return st;
    outgoing.resize(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
      if (r == rank) continue;
      outgoing[r] = std::make_unique<SpillFile>();
      if (Status st = outgoing[r]->open(dir + "/to-" + std::to_string(r)); !st.ok()) return st;
    }
    return Status();
  }

  // ---- map ----

  Status spill_keys() {
    if (partitions.empty()) {
      for (int p = 0; p < 64; ++p) {
        partitions.push_back(std::make_unique<SpillFile>());
        if (Status st = partitions.back()->open(dir + "/keys-" + std::to_string(p)); !st.ok()) return st;
      }
    }
    for (std::size_t p = 0; p < keys.size(); ++p) {
      if (Status st = partitions[p]->append(keys[p].data(), keys[p].size() * sizeof(Key)); !st.ok()) return st;
      keys[p].clear();
    }
    spilled += held * sizeof(Key);
    held = 0;
    return Status();
  }

  // Each range holds up to its share of key_limit and a sixteenth more
  // (keys are hashes: their top bits spread them evenly), taken at its
  // first key. A range never grows past it: a full one spills them all, so
  // the keys in memory stay within the budget however they fall.
  Status keep_key(const Key& k) {
    ++keys_total;
    std::vector<Key>& range = keys[k.key >> 58];
    if (range.capacity() == 0) {
      range.reserve(std::max<uint64_t>(key_limit / sizeof(Key) / keys.size() * 17 / 16, 16));
    } else if (range.size() == range.capacity()) {
      if (Status st = spill_keys(); !st.ok()) return st;
    }
    range.push_back(k);
    if (++held * sizeof(Key) >= key_limit) return spill_keys();
    return Status();
  }

  Status add(uint64_t ordinal, const DedupPage& page) {
    if (ordinal % static_cast<uint64_t>(ranks) != static_cast<uint64_t>(rank))
      return Status(Code::kInvalidArgument, "page " + page.id + ": ordinal " + std::to_string(ordinal) +
                                                " belongs to rank " + std::to_string(ordinal % ranks));
    if (ordinal > UINT32_MAX) return Status(Code::kLimit, "more than 2^32 pages in one run");
    if (any && ordinal <= last_ordinal)
      return Status(Code::kInvalidArgument, "page " + page.id + ": ordinals must increase");
    if (page.sig.minhash.size() != options.minhash_permutations)
      return Status(Code::kInvalidArgument, "page " + page.id + ": " + std::to_string(page.sig.minhash.size()) +
                                                " minhash minima, expected " +
                                                std::to_string(options.minhash_permutations));
    any = true;
    last_ordinal = ordinal;
    id_hashes.emplace_back(xxh64(page.id, 0), static_cast<uint32_t>(ordinal));
    Stored s{page.id, page.rank, page.boilerplate, page.language, page.sig.terms, page.sig.shingles, page.url};
    const std::size_t slot = ordinal / static_cast<uint64_t>(ranks);
    if (offsets.size() <= slot) offsets.resize(slot + 1, kAbsent);
    offsets[slot] = store.size();
    encode(scratch, s);
    if (Status st = store.append(scratch.data(), scratch.size()); !st.ok()) return st;
    ++pages;
    const std::vector<uint32_t>& whole_of = page.sig.shingles.empty() ? page.sig.minhash : page.sig.shingles;
    const auto whole = static_cast<uint32_t>(
        xxh64(std::string_view(reinterpret_cast<const char*>(whole_of.data()), whole_of.size() * sizeof(uint32_t)), 0));
    if (few_shingles(page.sig, options.dedup)) {
      // Only its own copies can match it: one key, its whole sketch.
      Key k{whole_sketch_key(page.sig), static_cast<uint32_t>(ordinal), whole};
      int to = owner_of_key(k.key);
      return to == rank ? keep_key(k) : outgoing[to]->append(&k, sizeof(k));
    }
    for (uint32_t band = 0; band < bands; ++band) {
      Key k{band_key(page.sig.minhash, band, rows), static_cast<uint32_t>(ordinal), whole};
      int to = owner_of_key(k.key);
      Status st = to == rank ? keep_key(k) : outgoing[to]->append(&k, sizeof(k));
      if (!st.ok()) return st;
    }
    return Status();
  }

  // ---- shuffle: keys to their owners, in rounds of bounded size ----

  Status shuffle() {
    if (ranks == 1) return Status();
    const uint64_t chunk = std::max<uint64_t>(key_limit / static_cast<uint64_t>(2 * ranks), 1 << 16) / sizeof(Key) * sizeof(Key);
    std::vector<uint64_t> sent(static_cast<std::size_t>(ranks), 0);
    for (auto& f : outgoing)
      if (f)
        if (Status st = f->flush(); !st.ok()) return st;
    while (true) {
      uint64_t left = 0;
      std::vector<std::string> out(static_cast<std::size_t>(ranks));
      for (int r = 0; r < ranks; ++r) {
        if (r == rank) continue;
        uint64_t n = std::min(chunk, outgoing[r]->size() - sent[r]);
        if (n > 0)
          if (Status st = outgoing[r]->read(sent[r], n, out[r]); !st.ok()) return st;
        sent[r] += n;
        left += outgoing[r]->size() - sent[r];
      }
      std::vector<std::string> in = exchange.all_to_all(std::move(out));
      for (const std::string& bytes : in) {
        if (bytes.size() % sizeof(Key) != 0) return Status(Code::kCorrupt, "a rank sent a partial key");
        for (std::size_t at = 0; at < bytes.size(); at += sizeof(Key)) {
          Key k;
          std::memcpy(&k, bytes.data() + at, sizeof(k));
          if (Status st = keep_key(k); !st.ok()) return st;
        }
      }
      if (exchange.sum(left) == 0) break;
    }
    for (auto& f : outgoing)
      if (f) f->discard();
    return Status();
  }

  // ---- group: pages sharing a key become candidate pairs ----

  // Candidate pairs (a << 32 | b, a < b) of one grouping thread, sorted
  // and made unique whenever they have doubled since.
  struct CandidateSet {
    std::vector<uint64_t> pairs;
    std::size_t sorted = 0;
    void compact() {
      std::sort(pairs.begin(), pairs.end());
      pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
      sorted = pairs.size();
    }
    void add(uint32_t a, uint32_t b) {
      if (a == b) return;
      if (a > b) std::swap(a, b);
      pairs.push_back(static_cast<uint64_t>(a) << 32 | b);
      if (pairs.size() >= 2 * std::max<std::size_t>(sorted, 1 << 20)) compact();
    }
  };
  CandidateSet candidates;

  // The grouping threads: as many as verify uses.
  unsigned group_jobs() const { return std::max(1u, options.jobs ? options.jobs : std::thread::hardware_concurrency()); }

  // Keys sorted by (key, page), by the keys' own spread (they are hashes;
  // std::sort's comparisons were 6% of husk dedup's CPU samples, perf);
  // `scratch` is the sort's room, a range's size.
  static void group(std::vector<Key>& keys, std::vector<Key>& scratch, CandidateSet& out) {
    sort_by_hash(keys, scratch, [](const Key& k) { return k.key; }, key_order);
    const Key* begin = keys.data();
    const std::size_t n = keys.size();
    std::vector<std::pair<uint64_t, uint32_t>> bucket;
    for (std::size_t i = 0; i < n;) {
      std::size_t j = i + 1;
      while (j < n && begin[j].key == begin[i].key) ++j;
      if (j - i >= kHeavyBucket) {
        // Copies (equal sketches) reduced as the in-memory search reduces
        // them (dedup/search.h).
        bucket.clear();
        for (std::size_t x = i; x < j; ++x) bucket.emplace_back(begin[x].whole, begin[x].page);
        pair_heavy_bucket(bucket, [&out](uint32_t a, uint32_t b) { out.add(a, b); });
      } else {
        for (std::size_t x = i; x < j; ++x)
          for (std::size_t y = x + 1; y < j; ++y) out.add(begin[x].page, begin[y].page);
      }
      i = j;
    }
  }

  // Keys in memory: each of the 64 ranges grouped on whichever thread is
  // free, and let go as soon as it is.
  void group_in_memory(std::vector<CandidateSet>& found) {
    std::vector<std::vector<Key>> scratch(found.size());
    (void)on_threads(keys.size(), static_cast<unsigned>(found.size()), [&](unsigned t, std::size_t b) {
      group(keys[b], scratch[t], found[t]);
      std::vector<Key>().swap(keys[b]);
      return Status();
    });
    held = 0;
  }

  // A partition file, split further while it is larger than `limit`.
  Status group_file(SpillFile& file, int depth, uint64_t limit, CandidateSet& out) {
    if (Status st = file.flush(); !st.ok()) return st;
    const uint64_t size = file.size();
    if (size <= limit || depth >= 9) {
      std::string bytes;
      if (Status st = file.read(0, size, bytes); !st.ok()) return st;
      file.discard();
      std::vector<Key> ks(size / sizeof(Key));
      if (!ks.empty()) std::memcpy(ks.data(), bytes.data(), ks.size() * sizeof(Key));
      bytes.clear();
      bytes.shrink_to_fit();
      std::vector<Key> scratch;  // in the room the bytes left
      group(ks, scratch, out);
      return Status();
    }
    std::vector<std::unique_ptr<SpillFile>> parts;
    for (int p = 0; p < 64; ++p) {
      parts.push_back(std::make_unique<SpillFile>());
      if (Status st = parts.back()->open(file.path() + "-" + std::to_string(p)); !st.ok()) return st;
    }
    const int shift = 58 - 6 * (depth + 1);
    std::string bytes;
    for (uint64_t at = 0; at < size;) {
      uint64_t n = std::min<uint64_t>(size - at, 16 << 20);
      if (Status st = file.read(at, n, bytes); !st.ok()) return st;
      for (std::size_t x = 0; x + sizeof(Key) <= bytes.size(); x += sizeof(Key)) {
        Key k;
        std::memcpy(&k, bytes.data() + x, sizeof(k));
        if (Status st = parts[(k.key >> shift) & 63]->append(&k, sizeof(k)); !st.ok()) return st;
      }
      at += n;
    }
    file.discard();
    for (auto& p : parts)
      if (Status st = group_file(*p, depth + 1, limit, out); !st.ok()) return st;
    return Status();
  }

  // Each thread groups whole partitions into its own candidates, which are
  // then put together: the same candidates as one thread would find. Spilled
  // partitions are read a budget's share per thread at a time.
  Status group_all() {
    std::vector<CandidateSet> found(group_jobs());
    if (partitions.empty()) {
      group_in_memory(found);
    } else {
      if (Status st = spill_keys(); !st.ok()) return st;
      for (std::vector<Key>& range : keys) std::vector<Key>().swap(range);
      const uint64_t limit = std::max<uint64_t>(key_limit / found.size(), sizeof(Key));
      Status st = on_threads(partitions.size(), static_cast<unsigned>(found.size()), [&](unsigned t, std::size_t p) {
        return group_file(*partitions[p], 0, limit, found[t]);
      });
      partitions.clear();
      if (!st.ok()) return st;
    }
    for (CandidateSet& f : found) {
      candidates.pairs.insert(candidates.pairs.end(), f.pairs.begin(), f.pairs.end());
      f.pairs = {};
    }
    candidates.compact();
    return Status();
  }

  // ---- verify ----

  Status read_stored(uint32_t page, Stored& s, std::string& buf) const {
    const std::size_t slot = page / static_cast<uint32_t>(ranks);
    if (slot >= offsets.size() || offsets[slot] == kAbsent)
      return Status(Code::kInternal, "page " + std::to_string(page) + " is not stored on rank " + std::to_string(rank));
    uint32_t length = 0;
    if (Status st = store.read(offsets[slot], sizeof(length), buf); !st.ok()) return st;
    std::memcpy(&length, buf.data(), sizeof(length));
    if (Status st = store.read(offsets[slot], length, buf); !st.ok()) return st;
    if (!decode(buf, s)) return Status(Code::kCorrupt, store.path() + ": bad record at offset " + std::to_string(offsets[slot]));
    return Status();
  }

  std::vector<Verified> verified;
  uint64_t compared = 0;

  // Candidates to the owner of b, deduplicated there.
  Status route_candidates(std::vector<uint64_t>& mine) {
    if (ranks == 1) {
      mine = std::move(candidates.pairs);
      return Status();
    }
    const std::size_t chunk = std::max<std::size_t>(key_limit / 8 / static_cast<std::size_t>(ranks), 1 << 14);
    std::size_t at = 0;
    // Sorted by a: one pass deals each chunk out by the owner of b.
    while (true) {
      std::vector<std::string> out(static_cast<std::size_t>(ranks));
      std::size_t end = std::min(candidates.pairs.size(), at + chunk);
      for (; at < end; ++at)
        put_bytes(out[owner_of_page(static_cast<uint32_t>(candidates.pairs[at]))], candidates.pairs[at]);
      std::vector<std::string> in = exchange.all_to_all(std::move(out));
      for (const std::string& bytes : in)
        for (std::size_t x = 0; x + 8 <= bytes.size(); x += 8) {
          uint64_t c;
          std::memcpy(&c, bytes.data() + x, 8);
          mine.push_back(c);
        }
      if (exchange.sum(candidates.pairs.size() - at) == 0) break;
    }
    candidates.pairs = {};
    std::sort(mine.begin(), mine.end());
    mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
    return Status();
  }

  // Pairs arrive with b's sketch; a's is read here, on `jobs` threads.
  Status verify_batch(const std::string& bytes, std::vector<Verified>& out) {
    struct Item {
      uint32_t a, b;
      Stored other;
    };
    std::vector<Item> items;
    std::string_view in = bytes;
    while (!in.empty()) {
      Item item;
      uint32_t length = 0;
      if (!take_bytes(in, item.a) || !take_bytes(in, item.b)) return Status(Code::kCorrupt, "a rank sent a partial pair");
      std::memcpy(&length, in.data(), std::min<std::size_t>(in.size(), sizeof(length)));
      if (in.size() < length || length < sizeof(length) || !decode(in.substr(0, length), item.other))
        return Status(Code::kCorrupt, "a rank sent a partial page record");
      in.remove_prefix(length);
      items.push_back(std::move(item));
    }
    const unsigned jobs = std::min<unsigned>(group_jobs(), static_cast<unsigned>(items.size() / 256 + 1));
    std::vector<std::vector<Verified>> found(jobs);
    std::vector<Stored> mine(jobs);
    std::vector<std::string> buf(jobs);
    std::vector<uint32_t> cached(jobs, UINT32_MAX);
    Status st = on_threads(items.size(), jobs, [&](unsigned t, std::size_t i) {
      Item& item = items[i];
      if (item.a != cached[t]) {
        if (Status read = read_stored(item.a, mine[t], buf[t]); !read.ok()) return read;
        cached[t] = item.a;
      }
      double j = sketch_jaccard(mine[t].sketch, item.other.sketch, options.dedup.sketch);
      if (!near_duplicate(j, mine[t].sketch.size(), item.other.sketch.size(), options.dedup)) return Status();
      if (!comparable_pages(mine[t].language, mine[t].terms, item.other.language, item.other.terms, options.dedup))
        return Status();
      found[t].push_back({item.a, item.b, static_cast<float>(j)});
      return Status();
    });
    if (!st.ok()) return st;
    for (const std::vector<Verified>& f : found) out.insert(out.end(), f.begin(), f.end());
    return Status();
  }

  Status verify_all() {
    std::vector<uint64_t> mine;  // pairs whose b this rank owns
    if (Status st = route_candidates(mine); !st.ok()) return st;
    compared = mine.size();
    // By (a's owner, a, b): each batch for one owner holds runs of one a,
    // so a's record is read once per run.
    std::sort(mine.begin(), mine.end(), [&](uint64_t x, uint64_t y) {
      int ox = owner_of_page(static_cast<uint32_t>(x >> 32)), oy = owner_of_page(static_cast<uint32_t>(y >> 32));
      return ox != oy ? ox < oy : x < y;
    });
    // b's record is attached to every pair naming it: cache the last few.
    std::unordered_map<uint32_t, std::string> cache;
    std::string buf;
    Stored s;
    const std::size_t batch_bytes = std::max<std::size_t>(key_limit / 4, 1 << 20);
    std::size_t at = 0;
    while (true) {
      std::vector<std::string> out(static_cast<std::size_t>(ranks));
      std::size_t bytes = 0;
      for (; at < mine.size() && bytes < batch_bytes; ++at) {
        auto a = static_cast<uint32_t>(mine[at] >> 32), b = static_cast<uint32_t>(mine[at]);
        auto it = cache.find(b);
        if (it == cache.end()) {
          if (cache.size() > 4096) cache.clear();
          if (Status st = read_stored(b, s, buf); !st.ok()) return st;
          // Rank, boilerplate, id and URL stay here.
          s.id.clear();
          s.url.clear();
          encode(buf, s);
          it = cache.emplace(b, buf).first;
        }
        std::string& to = out[owner_of_page(a)];
        put_bytes(to, a);
        put_bytes(to, b);
        to += it->second;
        bytes += 8 + it->second.size();
      }
      std::vector<std::string> in = exchange.all_to_all(std::move(out));
      for (const std::string& batch : in)
        if (Status st = verify_batch(batch, verified); !st.ok()) return st;
      if (exchange.sum(mine.size() - at) == 0) break;
    }
    return Status();
  }

  // ---- cluster ----

  // Buffers from every rank to rank 0 (the others get nothing back).
  std::vector<std::string> to_root(std::string mine) {
    std::vector<std::string> out(static_cast<std::size_t>(ranks));
    out[0] = std::move(mine);
    return exchange.all_to_all(std::move(out));
  }

  // Components: local forests merged pairwise up a binary tree.
  std::vector<std::pair<uint32_t, uint32_t>> component_edges() {
    SparseForest forest;
    for (const Verified& v : verified) forest.unite(v.a, v.b);
    std::vector<std::pair<uint32_t, uint32_t>> edges = forest.edges();
    for (int step = 1; step < ranks; step <<= 1) {
      std::vector<std::string> out(static_cast<std::size_t>(ranks));
      const bool sender = rank % (2 * step) == step;
      if (sender)
        for (const auto& [p, r] : edges) {
          put_bytes(out[rank - step], p);
          put_bytes(out[rank - step], r);
        }
      std::vector<std::string> in = exchange.all_to_all(std::move(out));
      if (sender) {
        edges.clear();
        continue;
      }
      if (rank % (2 * step) != 0 || rank + step >= ranks) continue;
      SparseForest merged;
      for (const auto& [p, r] : edges) merged.unite(p, r);
      std::string_view bytes = in[rank + step];
      uint32_t p = 0, r = 0;
      while (take_bytes(bytes, p) && take_bytes(bytes, r)) merged.unite(p, r);
      edges = merged.edges();
    }
    return edges;
  }

  // Every verified pair at rank 0, sorted.
  std::vector<Verified> pairs_at_root() {
    std::string mine;
    for (const Verified& v : verified) put_bytes(mine, v);
    std::vector<std::string> in = to_root(std::move(mine));
    std::vector<Verified> all;
    for (const std::string& bytes : in) {
      std::string_view view = bytes;
      Verified v;
      while (take_bytes(view, v)) all.push_back(v);
    }
    std::sort(all.begin(), all.end(), [](const Verified& x, const Verified& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
    return all;
  }

  // The stored records of `wanted` pages (rank 0's list; sorted) from their owners.
  Status fetch(const std::vector<uint32_t>& wanted, bool everything, std::unordered_map<uint32_t, Stored>& got) {
    std::vector<std::string> requests(static_cast<std::size_t>(ranks));
    if (rank == 0 && !everything)
      for (uint32_t p : wanted) put_bytes(requests[owner_of_page(p)], p);
    std::vector<std::string> asked = exchange.all_to_all(std::move(requests));
    std::string reply;
    std::string buf;
    Stored s;
    auto answer = [&](uint32_t p) -> Status {
      if (Status st = read_stored(p, s, buf); !st.ok()) return st;
      // Rank 0 needs the id, rank and boilerplate only.
      s.sketch.clear();
      encode(buf, s);
      put_bytes(reply, p);
      reply += buf;
      return Status();
    };
    if (everything) {
      for (std::size_t slot = 0; slot < offsets.size(); ++slot)
        if (offsets[slot] != kAbsent)
          if (Status st = answer(static_cast<uint32_t>(slot * ranks + rank)); !st.ok()) return st;
    } else {
      std::string_view view = asked[0];
      uint32_t p = 0;
      while (take_bytes(view, p))
        if (Status st = answer(p); !st.ok()) return st;
    }
    std::vector<std::string> in = to_root(std::move(reply));
    for (const std::string& bytes : in) {
      std::string_view view = bytes;
      uint32_t p = 0, length = 0;
      while (take_bytes(view, p)) {
        if (view.size() < sizeof(length)) return Status(Code::kCorrupt, "a rank sent a partial page record");
        std::memcpy(&length, view.data(), sizeof(length));
        Stored record;
        if (view.size() < length || !decode(view.substr(0, length), record))
          return Status(Code::kCorrupt, "a rank sent a partial page record");
        view.remove_prefix(length);
        got.emplace(p, std::move(record));
      }
    }
    return Status();
  }

  // Pages whose ids hash alike meet at the hash's owner; rank 0 compares
  // their stored ids. Every rank returns the same verdict.
  Status check_ids() {
    std::vector<std::string> out(static_cast<std::size_t>(ranks));
    for (const auto& [hash, ordinal] : id_hashes) {
      std::string& to = out[hash % static_cast<uint64_t>(ranks)];
      put_bytes(to, hash);
      put_bytes(to, ordinal);
    }
    std::vector<std::pair<uint64_t, uint32_t>>().swap(id_hashes);
    std::vector<std::pair<uint64_t, uint32_t>> mine;
    for (const std::string& bytes : exchange.all_to_all(std::move(out))) {
      std::string_view view = bytes;
      std::pair<uint64_t, uint32_t> h;
      while (take_bytes(view, h.first) && take_bytes(view, h.second)) mine.push_back(h);
    }
    std::sort(mine.begin(), mine.end());
    std::string alike;  // ordinal pairs whose ids hash alike
    for (std::size_t i = 1; i < mine.size(); ++i)
      if (mine[i].first == mine[i - 1].first) {
        put_bytes(alike, mine[i - 1].second);
        put_bytes(alike, mine[i].second);
      }
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    std::vector<uint32_t> wanted;
    for (const std::string& bytes : to_root(std::move(alike))) {
      std::string_view view = bytes;
      std::pair<uint32_t, uint32_t> p;
      while (take_bytes(view, p.first) && take_bytes(view, p.second)) {
        pairs.push_back(p);
        wanted.push_back(p.first);
        wanted.push_back(p.second);
      }
    }
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    std::unordered_map<uint32_t, Stored> got;
    if (Status st = fetch(wanted, false, got); !st.ok()) return st;
    std::string twice;
    for (const auto& [a, b] : pairs)
      if (auto x = got.find(a), y = got.find(b); x != got.end() && y != got.end() && x->second.id == y->second.id) {
        twice = x->second.id;
        break;
      }
    if (exchange.sum(twice.empty() ? 0 : 1) == 0) return Status();
    if (rank == 0) return id_given_twice(twice);
    return Status(Code::kInvalidArgument, "an id is given twice (rank 0 names it)");
  }

  Result<CorpusResult> finish() {
    CorpusResult result;
    if (Status st = store.flush(); !st.ok()) return st;
    if (Status st = check_ids(); !st.ok()) return st;
    result.pages = exchange.sum(pages);
    report("read " + std::to_string(result.pages) + " pages");
    if (Status st = shuffle(); !st.ok()) return st;
    if (Status st = group_all(); !st.ok()) return st;
    result.keys = exchange.sum(keys_total);
    result.spilled_bytes = exchange.sum(spilled);
    report("grouped " + std::to_string(result.keys) + " band keys (" + std::to_string(bands) + " bands of " +
           std::to_string(rows) + " rows), " + mb(result.spilled_bytes) + " spilled");
    if (Status st = verify_all(); !st.ok()) return st;
    result.candidates = exchange.sum(compared);
    result.verified = exchange.sum(verified.size());
    report("verified " + std::to_string(result.verified) + " pairs of " + std::to_string(result.candidates) +
           " candidates");

    // Groups of ordinals, at rank 0.
    std::vector<std::vector<uint32_t>> groups;
    const bool greedy = options.dedup.cluster != ClusterMethod::kComponents;
    std::vector<Verified> all;
    if (greedy || options.keep_pairs) all = pairs_at_root();
    if (!greedy) {
      std::vector<std::pair<uint32_t, uint32_t>> edges;
      if (options.keep_pairs) {
        SparseForest forest;
        for (const Verified& v : all) forest.unite(v.a, v.b);
        edges = forest.edges();
      } else {
        edges = component_edges();
      }
      if (rank == 0) {
        std::sort(edges.begin(), edges.end(),
                  [](const auto& x, const auto& y) { return x.second != y.second ? x.second < y.second : x.first < y.first; });
        for (std::size_t i = 0; i < edges.size();) {
          std::vector<uint32_t> g{edges[i].second};
          std::size_t j = i;
          for (; j < edges.size() && edges[j].second == edges[i].second; ++j) g.push_back(edges[j].first);
          groups.push_back(std::move(g));
          i = j;
        }
      }
    } else if (rank == 0) {
      // The greedy methods over the pages that have pairs, renumbered in
      // order (pages without pairs are their own groups either way).
      std::vector<uint32_t> touched;
      for (const Verified& v : all) {
        touched.push_back(v.a);
        touched.push_back(v.b);
      }
      std::sort(touched.begin(), touched.end());
      touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
      auto dense = [&](uint32_t p) {
        return static_cast<uint32_t>(std::lower_bound(touched.begin(), touched.end(), p) - touched.begin());
      };
      std::vector<Pair> local;
      for (const Verified& v : all) local.push_back({dense(v.a), dense(v.b), v.score});
      for (const Cluster& c : cluster_pairs(touched.size(), local, options.dedup.cluster)) {
        std::vector<uint32_t> g{touched[c.main]};  // the centre first
        for (uint32_t m : c.members)
          if (m != c.main) g.push_back(touched[m]);
        groups.push_back(std::move(g));
      }
    }

    std::vector<uint32_t> wanted;
    for (const auto& g : groups) wanted.insert(wanted.end(), g.begin(), g.end());
    for (const Verified& v : all) {
      wanted.push_back(v.a);
      wanted.push_back(v.b);
    }
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    std::unordered_map<uint32_t, Stored> info;
    if (Status st = fetch(wanted, options.singletons, info); !st.ok()) return st;
    if (rank != 0) return result;

    if (options.singletons) {
      std::unordered_map<uint32_t, bool> in_group;
      for (const auto& g : groups)
        for (uint32_t p : g) in_group[p] = true;
      for (const auto& [p, s] : info)
        if (!in_group.count(p)) groups.push_back({p});
    }
    // Each group's first page is its centre (a component's smallest page);
    // members are written in input order.
    std::vector<std::pair<uint32_t, std::vector<uint32_t>>> ordered;
    for (auto& g : groups) {
      const uint32_t centre = g.front();
      std::sort(g.begin(), g.end());
      ordered.emplace_back(centre, std::move(g));
    }
    std::sort(ordered.begin(), ordered.end(),
              [](const auto& x, const auto& y) { return x.second.front() < y.second.front(); });
    for (const auto& [centre, g] : ordered) {
      uint32_t best = options.dedup.main == MainPage::kFirst ? centre : g.front();
      for (uint32_t m : g) {
        const Stored& sm = info[m];
        const Stored& sb = info[best];
        if (options.dedup.main == MainPage::kRank && sm.rank > sb.rank) best = m;
        if (options.dedup.main == MainPage::kLeastBoilerplate && sm.boilerplate < sb.boilerplate) best = m;
      }
      CorpusCluster c;
      c.main = info[best].id;
      for (uint32_t m : g) {
        c.members.push_back(info[m].id);
        c.urls.push_back(info[m].url);
      }
      result.clusters.push_back(std::move(c));
    }
    for (const Verified& v : all)
      result.pairs.push_back({info[v.a].id, info[v.b].id, info[v.a].url, info[v.b].url, v.score});
    report("clustered: " + std::to_string(result.clusters.size()) + " clusters");
    return result;
  }
};

namespace {

class OneProcess final : public Exchange {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::vector<std::string> all_to_all(std::vector<std::string> out) override { return out; }
  uint64_t sum(uint64_t value) override { return value; }
};

}  // namespace

std::unique_ptr<Exchange> one_process_exchange() { return std::make_unique<OneProcess>(); }

CorpusDedup::CorpusDedup(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CorpusDedup::~CorpusDedup() = default;

Result<std::unique_ptr<CorpusDedup>> CorpusDedup::make(const CorpusOptions& options, Exchange& exchange) {
  if (options.dedup.method != "minhash")
    return Status(Code::kInvalidArgument, "corpus-scale dedup runs the minhash method, not \"" + options.dedup.method + "\"");
  if (options.minhash_permutations == 0) return Status(Code::kInvalidArgument, "minhash_permutations must be positive");
  auto impl = std::make_unique<Impl>(options, exchange);
  if (Status st = impl->open(); !st.ok()) return st;
  return std::unique_ptr<CorpusDedup>(new CorpusDedup(std::move(impl)));
}

Status CorpusDedup::add(uint64_t ordinal, const DedupPage& page) {
  return impl_->add(ordinal, page);
}

Result<CorpusResult> CorpusDedup::finish() { return impl_->finish(); }

}  // namespace husk
