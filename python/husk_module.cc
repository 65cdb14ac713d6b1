// husk._husk: the Python binding of husk::Processor and the stages around
// it (README "husk in Python"). Every call that works on pages releases the
// GIL; husk's errors become husk.Error; a page that fails comes back with
// its "error" field, as in the CLI.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <condition_variable>
#include <deque>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>
#include <unordered_set>

#include "husk/explain.h"
#include "husk/husk.h"

namespace py = pybind11;

namespace husk::python {

namespace {

py::object husk_error;

[[noreturn]] void raise(const Status& status) {
  PyErr_SetString(husk_error.ptr(), status.to_string().c_str());
  throw py::error_already_set();
}

// JSON to Python, for the records husk writes as JSON (the CLI's fields in
// the CLI's order).
py::object to_python(const nlohmann::ordered_json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return py::none();
    case nlohmann::json::value_t::boolean: return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(j.get<int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(j.get<uint64_t>());
    case nlohmann::json::value_t::number_float: return py::float_(j.get<double>());
    case nlohmann::json::value_t::string: return py::str(j.get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      py::list out;
      for (const auto& v : j) out.append(to_python(v));
      return out;
    }
    case nlohmann::json::value_t::object: {
      py::dict out;
      for (const auto& [k, v] : j.items()) out[py::str(k)] = to_python(v);
      return out;
    }
    default: return py::none();
  }
}

// A page given as bytes (husk decodes its charset) or str (already text).
RawPage raw_page(const py::object& html, const py::object& url) {
  RawPage page;
  if (!url.is_none() && !py::isinstance<py::str>(url)) throw py::type_error("url must be str or None");
  if (!url.is_none()) page.url = url.cast<std::string>();
  if (py::isinstance<py::bytes>(html)) {
    page.bytes = html.cast<std::string>();
  } else if (py::isinstance<py::str>(html)) {
    page.bytes = html.cast<std::string>();
    page.is_unicode = true;
  } else {
    throw py::type_error("html must be bytes or str");
  }
  return page;  // the processor gives a page without an id its page_id()
}

struct Options {
  std::string extractor = "auto";
  std::string format = "text";
  bool links = false, images = false, comments = false;
  std::string preset;
  bool sign = false;
  std::vector<std::string> signers;
  std::string idf;
  std::string sites;      // a directory of per-site XPath rules (*.toml)
  std::string templates;  // a template store (husk extract --state DIR)
  uint32_t page_timeout_ms = kDefaultPageTimeoutMs;
};

class PyProcessor {
 public:
  explicit PyProcessor(const Options& o) {
    ProcessorOptions options;
    options.extractor = o.extractor;
    options.page_timeout_ms = o.page_timeout_ms;
    if (o.format != "text" && o.format != "markdown" && o.format != "html")
      raise(Status(Code::kInvalidArgument, "format must be text, markdown or html, not \"" + o.format + "\""));
    options.markdown = o.format == "markdown";
    options.html = o.format == "html";
    options.format.links = o.links;
    options.format.images = o.images;
    options.comments = o.comments;
    if (o.preset == "precision") options.extract.preset = ExtractPreset::kPrecision;
    else if (o.preset == "recall") options.extract.preset = ExtractPreset::kRecall;
    else if (!o.preset.empty()) raise(Status(Code::kInvalidArgument, "preset must be precision or recall"));
    options.sign = o.sign;
    if (!o.signers.empty()) options.signing.signers = o.signers;
    if (!o.idf.empty()) {
      Result<CollectionStats> stats = load_collection_stats(o.idf);
      if (!stats.ok()) raise(stats.status());
      options.stats = std::make_shared<const CollectionStats>(std::move(*stats));
    }
    if (!o.sites.empty()) {
      auto rules = SiteRules::load_dir(o.sites);
      if (!rules.ok()) raise(rules.status());
      options.sites = *rules;
    }
    if (!o.templates.empty()) {
      auto store = TemplateStore::open(o.templates);
      if (!store.ok()) raise(store.status());
      options.templates = std::move(*store);
    }
    Result<Processor> made = Processor::make(options);
    if (!made.ok()) raise(made.status());
    processor_ = std::make_shared<Processor>(std::move(*made));
  }

  py::dict process(const py::object& html, const py::object& url) const {
    RawPage page = raw_page(html, url);
    PageResult r;
    {
      py::gil_scoped_release release;
      r = processor_->process(page);
    }
    return record(r);
  }

  // husk explain's page (husk/explain.h) for one page.
  std::string explain(const py::object& html, const py::object& url) const {
    RawPage page = raw_page(html, url);
    py::gil_scoped_release release;
    Trace trace;
    PageResult r = processor_->process(page, &trace);
    return explain_html(r, trace);
  }

  // Pages processed on `jobs` threads, the results in input order. Each
  // page is an (id, url, html, content_type) tuple; id, url and
  // content_type may be None (the page's id is then its page_id()).
  py::list process_batch(const py::list& batch, unsigned jobs) const {
    std::vector<RawPage> pages;
    pages.reserve(batch.size());
    for (const py::handle& item : batch) {
      py::tuple page = item.cast<py::tuple>();
      if (page.size() != 4) throw py::value_error("process_batch takes (id, url, html, content_type) tuples");
      pages.push_back(raw_page(page[2], page[1]));
      if (!page[0].is_none()) pages.back().id = page[0].cast<std::string>();
      if (!page[3].is_none()) pages.back().content_type = page[3].cast<std::string>();
    }
    std::vector<PageResult> results(pages.size());
    {
      py::gil_scoped_release release;
      if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
      std::atomic<std::size_t> next{0};
      auto work = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < pages.size();) results[i] = processor_->process(pages[i]);
      };
      std::vector<std::thread> threads;
      for (unsigned t = 1; t < std::min<std::size_t>(jobs, pages.size()); ++t) threads.emplace_back(work);
      work();
      for (std::thread& t : threads) t.join();
    }
    py::list out;
    for (const PageResult& r : results) out.append(record(r));
    return out;
  }

  static py::dict record(const PageResult& r) {
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(to_jsonl(r), nullptr, false);
    py::dict out = to_python(j).cast<py::dict>();
    if (r.signatures) out["sig"] = to_python(nlohmann::ordered_json::parse(signatures_json(*r.signatures)));
    return out;
  }

 private:
  std::shared_ptr<const Processor> processor_;
};

py::dict sign_text(const std::string& text, const std::vector<std::string>& signers, const std::string& idf) {
  SignOptions options;
  if (!signers.empty()) options.signers = signers;
  if (Status st = check_signers(options.signers); !st.ok()) raise(st);
  std::optional<CollectionStats> stats;
  if (!idf.empty()) {
    Result<CollectionStats> loaded = load_collection_stats(idf);
    if (!loaded.ok()) raise(loaded.status());
    stats = std::move(*loaded);
  }
  std::string json;
  {
    py::gil_scoped_release release;
    json = signatures_json(sign(normalize(text, options.normalize), options, stats ? &*stats : nullptr));
  }
  return to_python(nlohmann::ordered_json::parse(json)).cast<py::dict>();
}

std::string normalize_text(const std::string& text) {
  py::gil_scoped_release release;
  NormalizedText n = normalize(text, NormalizeOptions{});
  std::string out;
  for (const std::string& t : n.terms) {
    if (!out.empty()) out.push_back(' ');
    out += t;
  }
  return out;
}

// A record's string field, when present (None counts as absent); `where`
// names the record in the error ("records[3]"), as the CLI names a line.
std::string field(const py::dict& d, const char* key, const std::string& where) {
  if (!d.contains(key) || d[key].is_none()) return {};
  if (!py::isinstance<py::str>(d[key])) throw py::type_error(where + ": \"" + key + "\" must be a string");
  return d[key].cast<std::string>();
}

// A record's number field, when present (None counts as absent).
double number_field(const py::dict& d, const char* key, const std::string& where, double absent) {
  if (!d.contains(key) || d[key].is_none()) return absent;
  if (!py::isinstance<py::int_>(d[key]) && !py::isinstance<py::float_>(d[key]))
    throw py::type_error(where + ": \"" + key + "\" must be a number");
  return d[key].cast<double>();
}

// The i-th item of a list of records, which must be a dict.
py::dict record_at(const py::handle& h, const std::string& where) {
  if (!py::isinstance<py::dict>(h)) throw py::type_error(where + ": expected a dict");
  return h.cast<py::dict>();
}

// husk dedup over records: dicts with an id and a text (or a "sig" from
// husk.sign / husk sign), as the CLI reads JSONL; the library's dedup()
// chooses the engine as it does for the CLI (minhash with the Jaccard
// measure: the corpus engine, within `memory` bytes, spilling to
// `work_dir`).
py::list dedup(const py::list& records, const std::string& method, const py::object& threshold, uint32_t k,
               const std::string& cluster, const std::string& main, bool any_language, bool singletons, unsigned jobs,
               const std::string& measure, uint64_t memory, const std::string& work_dir, uint32_t host_lines,
               double host_share, bool identify_languages) {
  if (any_language && identify_languages) raise(Status(Code::kInvalidArgument, "identify_languages has no use with any_language"));
  std::vector<DedupPage> pages;
  std::vector<std::string> texts;
  std::vector<std::size_t> to_sign;
  std::unordered_set<std::string> ids;
  std::size_t position = 0;
  for (const py::handle& h : records) {
    const std::string where = "records[" + std::to_string(position++) + "]";
    py::dict d = record_at(h, where);
    DedupPage page;
    page.id = field(d, "id", where);
    // The records are in memory here, so every engine gets the in-memory
    // search's rule: an id names one page.
    if (!ids.insert(page.id).second)
      raise(Status(Code::kInvalidArgument, "the id \"" + page.id + "\" is given twice: every page needs an id of its own"));
    page.url = field(d, "url", where);
    page.title = field(d, "title", where);
    page.language = field(d, "language", where);
    page.rank = number_field(d, "rank", where, page.rank);
    page.boilerplate = number_field(d, "boilerplate", where, page.boilerplate);
    std::string text = field(d, "text", where);
    // husk dedup --identify-languages' stage, before any engine.
    if (identify_languages) page.language = page_language(page.language, text);
    if (d.contains("sig") && !d["sig"].is_none()) {
      std::string json = py::module_::import("json").attr("dumps")(d["sig"]).cast<std::string>();
      Result<Signatures> sig = parse_signatures(json);
      if (!sig.ok()) raise(Status(sig.status().code(), page.id + ": " + sig.status().message()));
      page.sig = std::move(*sig);
    } else if (d.contains("text")) {
      to_sign.push_back(pages.size());
    }
    texts.push_back(std::move(text));
    pages.push_back(std::move(page));
  }
  CorpusOptions options;
  options.dedup.method = method;
  options.dedup.threshold = threshold.is_none() ? default_threshold(measure) : threshold.cast<double>();
  options.dedup.measure = measure;
  options.dedup.k = k;
  options.dedup.within_language = !any_language;
  Result<ClusterMethod> method_named = cluster_method_named(cluster);
  if (!method_named.ok()) raise(method_named.status());
  options.dedup.cluster = *method_named;
  Result<MainPage> main_named = main_page_named(main);
  if (!main_named.ok()) raise(main_named.status());
  options.dedup.main = *main_named;
  const SignOptions sign_options;
  options.dedup.sketch = sign_options.minhash_sketch;
  options.minhash_permutations = sign_options.minhash_permutations;
  options.memory = memory;
  options.work_dir = work_dir;
  options.jobs = jobs;
  options.singletons = singletons;
  Result<DedupRun> run = Status();
  {
    py::gil_scoped_release release;
    // Frame lines out of the texts signed here, as husk dedup leaves them out.
    if (host_lines > 0) {
      HostLines lines;
      for (std::size_t i : to_sign) lines.count(host_line_keys(pages[i].url, texts[i]));
      std::string kept;
      for (std::size_t i : to_sign)
        if (lines.strip(pages[i].url, texts[i], kept, HostLineOptions{host_lines, host_share}) > 0) texts[i] = std::move(kept);
    }
    std::vector<std::string_view> views;
    for (std::size_t i : to_sign) views.push_back(texts[i]);
    std::vector<Signatures> signatures = sign_collection(views, sign_options, jobs);
    for (std::size_t n = 0; n < to_sign.size(); ++n) pages[to_sign[n]].sig = std::move(signatures[n]);
    std::unique_ptr<Exchange> one = one_process_exchange();
    run = husk::dedup(
        [&](const DedupSink& sink) {
          uint64_t ordinal = 0;
          for (DedupPage& p : pages)
            if (p.sig.terms > 0)
              if (Status st = sink(ordinal++, p); !st.ok()) return Status(st.code(), p.id + ": " + st.message());
          return Status();
        },
        options, *one);
  }
  if (!run.ok()) raise(run.status());
  py::list out;
  for (std::size_t c = 0; c < run->result.clusters.size(); ++c) {
    out.append(to_python(nlohmann::ordered_json::parse(cluster_json(c, run->result.clusters[c]))));
  }
  return out;
}

// The persistent index of husk serve, or one in a temporary directory.
class PyIndex {
 public:
  PyIndex(const py::object& path, const py::object& threshold, uint32_t simhash_k, const py::object& idf,
          const std::string& measure, uint32_t dedup_paragraphs, uint32_t host_lines, double host_share) {
    IndexOptions options;
    if (path.is_none()) {
      std::mt19937_64 rng(std::random_device{}());
      temporary_ = std::filesystem::temp_directory_path() / ("husk-index-" + std::to_string(rng()));
      options.dir = temporary_.string();
      options.map_size = std::size_t(1) << 30;
    } else {
      options.dir = py::str(path).cast<std::string>();
    }
    options.measure = measure;
    options.dedup_paragraphs = dedup_paragraphs;
    options.threshold = threshold.is_none() ? default_threshold(measure) : threshold.cast<double>();
    options.simhash_k = simhash_k;
    options.host_lines = HostLineOptions{host_lines, host_share};
    ProcessorOptions signing;
    signing.sign = true;
    if (!idf.is_none()) {
      Result<CollectionStats> stats = load_collection_stats(py::str(idf).cast<std::string>());
      if (!stats.ok()) raise(stats.status());
      signing.stats = std::make_shared<const CollectionStats>(std::move(*stats));
      options.simhash = true;  // simhash finds candidates only with collection statistics
    }
    Result<Processor> signer = Processor::make(signing);
    if (!signer.ok()) raise(signer.status());
    signer_ = std::make_unique<Processor>(std::move(*signer));
    // Texts are signed by the index, once their URL host's frame lines
    // have left them (IndexOptions::host_lines).
    options.sign_text = [signer = signer_.get()](std::string_view text) { return signer->sign(text); };
    Result<std::unique_ptr<Index>> index = Index::open(options);
    if (!index.ok()) raise(index.status());
    index_ = std::move(*index);
  }
  ~PyIndex() {
    index_.reset();
    std::error_code ec;
    if (!temporary_.empty()) std::filesystem::remove_all(temporary_, ec);
  }

  // Indexes a page under an id, given as its clean text or as its
  // signatures (a "sig" dict): its cluster, and the page it
  // near-duplicates when it joined one.
  py::dict add(const std::string& id, const py::object& text_or_signatures, const std::string& url) {
    std::vector<PageResult> pages;
    pages.push_back(page_of(id, text_or_signatures, url));
    std::vector<Result<Verdict>> verdicts = index_pages(pages);
    if (!verdicts.at(0).ok()) raise(verdicts[0].status());
    return verdict_dict(*verdicts[0]);
  }

  // Many pages in one commit (the service's batch): (id, text or "sig"
  // dict[, url]) tuples or {"id", "text" or "sig", "url"} dicts; one
  // verdict per page in order, {"error": ...} for a page the index refuses.
  py::list add_many(const py::iterable& items) {
    std::vector<PageResult> pages;
    std::size_t position = 0;
    for (const py::handle& item : items) {
      const std::string where = "pages[" + std::to_string(position++) + "]";
      if (py::isinstance<py::dict>(item)) {
        py::dict d = item.cast<py::dict>();
        if (!d.contains("id")) throw py::value_error(where + ": each page needs an \"id\"");
        const py::object body = d.contains("sig") && !d["sig"].is_none() ? py::object(d["sig"])
                                : d.contains("text")                      ? py::object(d["text"])
                                                                          : py::object(py::str(""));
        pages.push_back(page_of(field(d, "id", where), body, field(d, "url", where)));
      } else {
        if (!py::isinstance<py::tuple>(item))
          throw py::type_error(where + ": expected a dict or an (id, text_or_signatures[, url]) tuple");
        py::tuple t = item.cast<py::tuple>();
        if (t.size() < 2 || t.size() > 3) throw py::value_error(where + ": expected (id, text_or_signatures[, url])");
        pages.push_back(page_of(t[0].cast<std::string>(), t[1], t.size() == 3 ? t[2].cast<std::string>() : ""));
      }
    }
    std::vector<Result<Verdict>> verdicts = index_pages(pages);
    py::list out;
    for (const Result<Verdict>& v : verdicts) {
      if (v.ok()) {
        out.append(verdict_dict(*v));
      } else {
        py::dict error;
        error["error"] = v.status().to_string();
        out.append(error);
      }
    }
    return out;
  }

  // Removes a page from every table (its cluster keeps its other pages);
  // False when there was no such page.
  bool remove(const std::string& id) {
    Result<bool> removed = Status();
    {
      py::gil_scoped_release release;
      removed = index_->remove(id);
    }
    if (!removed.ok()) raise(removed.status());
    return *removed;
  }

  // The stored record of a page (the record husk serve's GET returns), or
  // None.
  py::object get(const std::string& id) const {
    Result<std::optional<std::string>> record = index_->get(id);
    if (!record.ok()) raise(record.status());
    if (!*record) return py::none();
    return to_python(nlohmann::ordered_json::parse(**record));
  }

  // The indexed pages that near-duplicate a text (or signatures), best
  // first; a text with a URL is signed as add() would sign it, without its
  // host's frame lines.
  py::list query(const py::object& text_or_signatures, const std::string& url) const {
    std::optional<Signatures> given = signatures_of(text_or_signatures);
    std::string text = given ? std::string() : text_or_signatures.cast<std::string>();
    std::vector<Match> matches;
    {
      py::gil_scoped_release release;
      matches = given ? index_->similar(*given)
                      : index_->similar(signer_->sign(index_->without_frame_lines(url, text)),
                                        identify_language(text).code);
    }
    py::list out;
    for (const Match& m : matches) {
      py::dict d;
      d["id"] = m.id;
      d["url"] = m.url;
      d["measure"] = m.measure;
      d["score"] = m.score;
      if (!m.contained.empty()) d["contained"] = m.contained;
      out.append(d);
    }
    return out;
  }

  std::size_t size() const { return index_->stats().pages; }

  // The maintenance of husk db: its counts (stats), its consistency
  // (verify: the problems found, none when clean), a compacted copy in an
  // empty directory (compact: the backup) and every stored record as
  // JSON lines in a file (export).
  py::dict stats() const { return to_python(nlohmann::ordered_json::parse(index_stats_json(index_->stats()))); }

  std::vector<std::string> verify(bool exhaustive) const {
    py::gil_scoped_release release;
    return index_->verify(exhaustive);
  }

  void compact(const std::string& dir) const {
    Status st;
    {
      py::gil_scoped_release release;
      st = index_->compact_to(dir);
    }
    if (!st.ok()) raise(st);
  }

  // Written whole or not at all: to PATH.partial, renamed to PATH once
  // every record is there, as a backup should be. A damaged record is
  // left out, the others written, and the error names it.
  void export_records(const std::string& path) const {
    const std::string partial = path + ".partial";
    Status st;
    {
      py::gil_scoped_release release;
      std::ofstream out(partial, std::ios::binary | std::ios::trunc);
      st = out ? index_->export_jsonl(out) : Status(Code::kIo, partial + ": " + std::strerror(errno));
      out.close();
      if (st.ok() && !out) st = Status(Code::kIo, partial + ": write failed");
      std::error_code ec;
      if (st.ok() || st.code() == Code::kCorrupt) std::filesystem::rename(partial, path, ec);
      if (ec) st = Status(Code::kIo, path + ": " + ec.message());
      if (std::filesystem::exists(partial, ec)) std::filesystem::remove(partial, ec);
    }
    if (!st.ok()) raise(st);
  }

 private:
  // A page to index: its text (signed, its language identified, as husk
  // dedup's loaders do when a record names none) or its signatures.
  // A verdict as add() returns it; with dedup_paragraphs, also the text
  // kept and how many paragraphs seen before left it, when any did.
  static py::dict verdict_dict(const Verdict& verdict) {
    py::dict d = to_python(nlohmann::ordered_json::parse(verdict_json(verdict))).cast<py::dict>();
    if (verdict.paragraphs_dropped > 0) {
      d["text"] = verdict.text.value_or("");
      d["paragraphs_dropped"] = verdict.paragraphs_dropped;
    }
    if (verdict.frame_lines > 0) d["frame_lines"] = verdict.frame_lines;
    return d;
  }

  static PageResult page_of(const std::string& id, const py::object& text_or_signatures, const std::string& url) {
    PageResult page;
    page.id = id;
    page.url = url;
    std::optional<Signatures> given = signatures_of(text_or_signatures);
    if (given) {
      page.signatures = std::move(*given);
    } else {
      page.text = text_or_signatures.cast<std::string>();
    }
    return page;
  }

  // Signs the pages given as texts and indexes them all in one commit.
  std::vector<Result<Verdict>> index_pages(std::vector<PageResult>& pages) {
    py::gil_scoped_release release;
    std::vector<const PageResult*> pointers;
    for (PageResult& page : pages) {
      if (!page.signatures && !page.text.empty()) page.language = identify_language(page.text);
      pointers.push_back(&page);
    }
    return index_->add(pointers);
  }

  // Signatures given as a "sig" dict, or nothing for a text.
  static std::optional<Signatures> signatures_of(const py::object& value) {
    if (!py::isinstance<py::dict>(value)) {
      if (!py::isinstance<py::str>(value)) throw py::type_error("expected a text (str) or signatures (dict)");
      return std::nullopt;
    }
    Result<Signatures> sig = parse_signatures(py::module_::import("json").attr("dumps")(value).cast<std::string>());
    if (!sig.ok()) raise(sig.status());
    return std::move(*sig);
  }

  std::filesystem::path temporary_;
  std::unique_ptr<Index> index_;
  std::unique_ptr<Processor> signer_;
};

// Pages of files, directories, WARC and JSONL as the CLI reads them: a
// reader thread fills a bounded queue the Python iterator takes from.
class PageReader {
 public:
  explicit PageReader(std::vector<std::string> inputs) : total_(count_pages(inputs)) {
    thread_ = std::thread([this, inputs = std::move(inputs)] {
      IngestStats stats = ingest(inputs, IngestOptions{}, [this](RawPage&& page) {
        std::unique_lock lock(mutex_);
        room_.wait(lock, [this] { return queue_.size() < kQueue || closed_; });
        if (closed_) return false;
        queue_.push_back(std::move(page));
        ready_.notify_one();
        return true;
      });
      std::lock_guard lock(mutex_);
      errors_ = std::move(stats.input_errors);
      done_ = true;
      ready_.notify_all();
    });
  }
  ~PageReader() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
      room_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
  }

  // The number of pages, when the inputs tell it before they are read
  // (HTML files, directories of them, URLs); progress bars read it.
  std::size_t size() const {
    if (total_ == 0) throw py::type_error("the number of pages is not known before reading (WARC, JSONL or stdin)");
    return total_;
  }

  py::dict next() {
    std::optional<RawPage> page;
    {
      py::gil_scoped_release release;
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [this] { return !queue_.empty() || done_; });
      if (!queue_.empty()) {
        page = std::move(queue_.front());
        queue_.pop_front();
        room_.notify_one();
      }
    }
    if (!page) {
      if (!errors_.empty()) {
        Status first = errors_.front();
        errors_.clear();
        raise(first);
      }
      throw py::stop_iteration();
    }
    py::dict d;
    d["id"] = page->id;
    d["url"] = page->url;
    d["html"] = page->is_unicode ? py::object(py::str(page->bytes)) : py::object(py::bytes(page->bytes));
    d["content_type"] = page->content_type;
    d["error"] = page->status.ok() ? py::object(py::none()) : py::object(py::str(page->status.to_string()));
    return d;
  }

 private:
  static constexpr std::size_t kQueue = 64;
  std::size_t total_ = 0;  // 0: not known before reading
  std::mutex mutex_;
  std::condition_variable ready_, room_;
  std::deque<RawPage> queue_;
  std::vector<Status> errors_;
  bool done_ = false, closed_ = false;
  std::thread thread_;
};

}  // namespace

PYBIND11_MODULE(_husk, m) {
  m.doc() = "husk: boilerplate removal and near-duplicate detection (the C++ library, bound)";
  m.attr("__version__") = HUSK_VERSION;  // the CMake project's version
  husk_error = py::exception<std::runtime_error>(m, "Error");

  py::class_<PyProcessor>(m, "Processor")
      .def(py::init([](const std::string& extractor, const std::string& format, bool links, bool images, bool comments,
                       const py::object& preset, bool sign, const std::vector<std::string>& signers,
                       const py::object& idf, uint32_t page_timeout_ms, const py::object& sites,
                       const py::object& templates) {
             Options o;
             if (!sites.is_none()) o.sites = py::str(sites).cast<std::string>();
             if (!templates.is_none()) o.templates = py::str(templates).cast<std::string>();
             o.page_timeout_ms = page_timeout_ms;
             o.extractor = extractor;
             o.format = format;
             o.links = links;
             o.images = images;
             o.comments = comments;
             if (!preset.is_none()) o.preset = preset.cast<std::string>();
             o.sign = sign;
             o.signers = signers;
             if (!idf.is_none()) o.idf = py::str(idf).cast<std::string>();
             return PyProcessor(o);
           }),
           py::arg("extractor") = "auto", py::arg("format") = "text", py::arg("links") = false,
           py::arg("images") = false, py::arg("comments") = false, py::arg("preset") = py::none(),
           py::arg("sign") = false, py::arg("signers") = std::vector<std::string>{}, py::arg("idf") = py::none(),
           py::arg("page_timeout_ms") = kDefaultPageTimeoutMs, py::arg("sites") = py::none(),
           py::arg("templates") = py::none())
      .def("process", &PyProcessor::process, py::arg("html"), py::arg("url") = py::none())
      .def("explain", &PyProcessor::explain, py::arg("html"), py::arg("url") = py::none())
      .def("process_batch", &PyProcessor::process_batch, py::arg("batch"), py::arg("jobs") = 0);

  m.def("normalize", &normalize_text, py::arg("text"));
  m.def("sign", &sign_text, py::arg("text"), py::arg("signers") = std::vector<std::string>{},
        py::arg("idf") = std::string());
  m.def("dedup", &dedup, py::arg("records"), py::arg("method") = "minhash", py::arg("threshold") = py::none(),
        py::arg("k") = 6, py::arg("cluster") = cluster_method_name(DedupOptions{}.cluster), py::arg("main") = "first",
        py::arg("any_language") = false, py::arg("singletons") = false, py::arg("jobs") = 0,
        py::arg("measure") = "jaccard", py::arg("memory") = uint64_t(1) << 30, py::arg("work_dir") = std::string(),
        py::arg("host_lines") = HostLineOptions{}.min_documents, py::arg("host_share") = HostLineOptions{}.share,
        py::arg("identify_languages") = false);

  py::class_<PyIndex>(m, "DedupIndex")
      .def(py::init<const py::object&, const py::object&, uint32_t, const py::object&, const std::string&, uint32_t,
                    uint32_t, double>(),
           py::arg("path") = py::none(), py::arg("threshold") = py::none(), py::arg("simhash_k") = 3,
           py::arg("idf") = py::none(), py::arg("measure") = "jaccard", py::arg("dedup_paragraphs") = 0,
           py::arg("host_lines") = HostLineOptions{}.min_documents, py::arg("host_share") = HostLineOptions{}.share)
      .def("add", &PyIndex::add, py::arg("id"), py::arg("text_or_signatures"), py::arg("url") = std::string())
      .def("add_many", &PyIndex::add_many, py::arg("pages"))
      .def("remove", &PyIndex::remove, py::arg("id"))
      .def("get", &PyIndex::get, py::arg("id"))
      .def("query", &PyIndex::query, py::arg("text_or_signatures"), py::arg("url") = std::string())
      .def("__len__", &PyIndex::size)
      .def("stats", &PyIndex::stats)
      .def("verify", &PyIndex::verify, py::arg("exhaustive") = false)
      .def("compact", &PyIndex::compact, py::arg("path"))
      .def("export", &PyIndex::export_records, py::arg("path"));

  py::class_<PageReader>(m, "PageReader")
      .def(py::init<std::vector<std::string>>())
      .def("__iter__", [](PageReader& r) -> PageReader& { return r; })
      .def("__next__", &PageReader::next)
      .def("__len__", &PageReader::size);
}

}  // namespace husk::python
