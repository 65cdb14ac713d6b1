#include "cli/dedup_input.h"

#include <nlohmann/json.hpp>
#include <optional>

#include "base/text_util.h"
#include "cli/common.h"
#include "cli/progress.h"
#include "husk/metadata.h"
#include "record/signature_file.h"
#include "record/signature_json.h"

namespace husk::cli {

namespace {

bool is_record_file(const std::string& path) {
  std::string_view p = path;
  if (ends_with_ci(p, ".gz")) p.remove_suffix(3);
  return path == "-" || ends_with_ci(p, ".jsonl") || ends_with_ci(p, ".ndjson");
}

// A page read from a record, and the text it still has to be signed from.
struct Loaded {
  DedupPage page;
  std::string text;
  bool has_signature = false;
  bool usable = false;
  bool extracted = false;  // from a page: its language identified by the processor
  Status error;            // the record is malformed
  Status page_error;       // the page could not be read or extracted (a broken WARC record, a timeout)
  std::vector<uint64_t> host_keys;  // counting frame lines: the text's keys (host_line_keys)
  std::size_t frame_lines = 0;      // frame lines left out of the text before signing
};

// The one stage where dedup's input gains languages: a record's text
// without a tag is identified (page_language) when the run asks for it,
// before any engine sees the page. A page was identified by the processor;
// a signature without its text has nothing to identify.
void identify_language_stage(Loaded& l, bool identify_languages) {
  if (identify_languages && !l.extracted) l.page.language = page_language(l.page.language, l.text);
}

// Whether a page's text is still to be signed here.
bool to_sign(const Loaded& l) { return l.usable && !l.has_signature && l.error.ok(); }

// Whether frame lines apply: to records' texts signed here. A page given
// as HTML is extracted by husk, which leaves its frame out already.
bool framed(const Loaded& l) { return to_sign(l) && !l.extracted; }

// A field that is present and not null must be a string; anything else is
// the record's error.
Status string_typed(const nlohmann::json& j, const char* name, const Line& line) {
  auto it = j.find(name);
  if (it == j.end() || it->is_null() || it->is_string()) return Status();
  return Status(Code::kInvalidArgument, line.source + ": \"" + name + "\" must be a string");
}

// A string field, when present (string_typed).
Status string_field(const nlohmann::json& j, const char* name, const Line& line, std::string& out) {
  if (Status st = string_typed(j, name, line); !st.ok()) return st;
  if (auto it = j.find(name); it != j.end() && it->is_string()) out = it->get<std::string>();
  return Status();
}

Status number_field(const nlohmann::json& j, const char* name, const Line& line, double& out) {
  auto it = j.find(name);
  if (it == j.end() || it->is_null()) return Status();
  if (!it->is_number()) return Status(Code::kInvalidArgument, line.source + ": \"" + name + "\" must be a number");
  out = it->get<double>();
  return Status();
}

}  // namespace

Status read_record_fields(const nlohmann::json& j, const Line& line, DedupPage& page) {
  page.id = line.source;
  for (Status st : {string_field(j, "id", line, page.id), string_field(j, "url", line, page.url),
                    string_field(j, "title", line, page.title), number_field(j, "rank", line, page.rank),
                    number_field(j, "boilerplate", line, page.boilerplate),
                    string_field(j, "language", line, page.language)})
    if (!st.ok()) return st;
  if (j.contains("sig") || j.contains("error")) return Status();
  return string_typed(j, "text", line);  // checked, not copied: a text is the record's bulk
}

namespace {

// With `keep_text`, a signed record's text is kept too (for the report).
Loaded from_record(const Line& line, bool keep_text = false) {
  Loaded l;
  Result<nlohmann::json> parsed = json_object(line);
  if (!parsed.ok()) {
    l.error = parsed.status();
    return l;
  }
  const nlohmann::json& j = *parsed;
  if (Status st = read_record_fields(j, line, l.page); !st.ok()) {
    l.error = st;
    return l;
  }
  if (j.contains("sig")) {
    if (j["sig"].is_null()) return l;
    Result<Signatures> sig = signatures_from_json(j["sig"]);
    if (!sig.ok()) {
      l.error = Status(sig.status().code(), line.source + ": " + sig.status().message());
      return l;
    }
    if (sig->terms == 0) return l;
    l.page.sig = std::move(*sig);
    l.has_signature = l.usable = true;
    // The text only tells the language, when the record does not.
    if (l.page.language.empty() || keep_text) (void)string_field(j, "text", line, l.text);
    return l;
  }
  if (j.contains("error")) return l;
  (void)string_field(j, "text", line, l.text);  // read_record_fields checked its type
  l.usable = j.contains("text");
  return l;
}

// A page the processor extracted (its language identified there), to be signed.
Loaded from_page(PageResult&& r) {
  Loaded l;
  l.page.id = r.id;
  l.page.url = r.url;
  l.page.title = r.title;
  l.page.boilerplate = r.boilerplate;
  l.page.language = r.language.code;
  l.text = std::move(r.text);
  l.usable = r.status.ok();
  // A page that could not be read or extracted is named with its error:
  // only counted among the pages without text, it was never seen. As in
  // husk extract, it does not fail the run.
  if (!r.status.ok()) l.page_error = Status(r.status.code(), r.id + ": " + r.status.message());
  l.extracted = true;
  return l;
}

// The inputs by kind, each kind read in this order.
struct Inputs {
  std::vector<std::string> binary, records, raw;
};

Inputs classify(const std::vector<std::string>& inputs) {
  Inputs out;
  for (const std::string& in : inputs)
    (is_signature_file(in) ? out.binary : is_record_file(in) ? out.records : out.raw).push_back(in);
  return out;
}

// The one reader of dedup's inputs: signature files, then records, then
// pages, each item numbered by its position among all of them (its
// ordinal). Only this rank's share (ordinal mod ranks) is read further:
// records are parsed and pages extracted on `jobs` threads, `prepare`
// runs there on each, and `take` receives them in ordinal order.
// `only_records`: signature files and pages are not read, and a record
// line is read further (handed to a job) only when `wanted` says so.
// `progress` is updated as items are taken: this rank's share taken, those
// that failed, the bytes of every item read.
std::vector<Status> read_inputs(const std::vector<std::string>& inputs, unsigned jobs, int rank, int ranks,
                                bool keep_text, const std::function<void(Loaded&)>& prepare,
                                const std::function<void(uint64_t, Loaded&)>& take_item, Progress* progress,
                                bool only_records = false,
                                const std::function<bool(const std::string&)>& wanted = nullptr) {
  std::vector<Status> errors;
  jobs = OrderedBatches<int, int>::resolve_jobs(jobs);
  const auto [binary, records, raw] = classify(inputs);
  const auto share = static_cast<uint64_t>(ranks);
  uint64_t ordinal = 0;
  uint64_t bytes = 0, taken = 0, failed = 0;
  auto mine = [&] { return ordinal++ % share == static_cast<uint64_t>(rank); };
  // Items are taken in order on this thread (OrderedBatches hands them on
  // here), so the line is drawn from one thread.
  auto take = [&](uint64_t at, Loaded& l) {
    if (!l.error.ok() || !l.page_error.ok()) ++failed;
    take_item(at, l);
    if (progress != nullptr) progress->update(++taken, failed, bytes);
  };

  for (const std::string& in : only_records ? std::vector<std::string>() : binary)
    if (Status st = read_signature_file(in, [&](DedupPage&& page) {
          if (!mine()) return;
          Loaded l;
          l.page = std::move(page);
          l.has_signature = l.usable = l.page.sig.terms > 0;
          take(ordinal - 1, l);
        });
        !st.ok())
      errors.push_back(std::move(st));

  struct Item {
    uint64_t ordinal = 0;
    Line line;
    RawPage page;
  };
  auto hand_on = [&](const Item& item, Loaded& l) { take(item.ordinal, l); };
  OrderedBatches<Item, Loaded> from_records(
      jobs,
      [&](const Item& item) {
        Loaded l = from_record(item.line, keep_text);
        prepare(l);
        return l;
      },
      hand_on);
  for (const std::string& input : records) {
    Status st = for_each_line(input, [&](Line&& line) {
      bytes += line.text.size() + 1;
      if (!mine() || (wanted && !wanted(line.text))) return true;
      std::size_t size = line.text.size();
      from_records.push(Item{ordinal - 1, std::move(line), {}}, size);
      return true;
    });
    if (!st.ok()) errors.push_back(std::move(st));
  }
  from_records.finish();

  if (!raw.empty() && !only_records) {
    const ProcessorOptions defaults;
    Result<Processor> processor = Processor::make(defaults);
    if (!processor.ok()) {
      errors.push_back(processor.status());
      return errors;
    }
    OrderedBatches<Item, Loaded> from_pages(
        jobs,
        [&](const Item& item) {
          Loaded l = from_page(processor->process(item.page));
          prepare(l);
          return l;
        },
        hand_on);
    IngestStats stats = ingest(raw, IngestOptions{}, [&](RawPage&& page) {
      bytes += page.bytes.size();
      if (!mine()) return true;
      std::size_t size = page.bytes.size();
      from_pages.push(Item{ordinal - 1, {}, std::move(page)}, size);
      return true;
    });
    from_pages.finish();
    for (Status& st : stats.input_errors) errors.push_back(std::move(st));
  }
  return errors;
}

}  // namespace

LoadedPages load_dedup_pages(const std::vector<std::string>& inputs, unsigned jobs, bool keep_texts,
                             const HostLineOptions& frame, bool identify_languages, Progress* progress) {
  LoadedPages out;
  std::vector<Loaded> loaded;
  // The text is kept only to be signed below, or for the report.
  auto prepare = [keep_texts, identify_languages](Loaded& l) {
    identify_language_stage(l, identify_languages);
    if (l.has_signature && !keep_texts) l.text.clear();
  };
  out.errors = read_inputs(inputs, jobs, 0, 1, keep_texts, prepare,
                           [&](uint64_t, Loaded& l) { loaded.push_back(std::move(l)); }, progress);

  // Texts without signatures: frame lines out, statistics from the texts
  // themselves, then every signer.
  jobs = OrderedBatches<int, int>::resolve_jobs(jobs);
  std::vector<std::size_t> unsigned_pages;
  for (std::size_t i = 0; i < loaded.size(); ++i)
    if (to_sign(loaded[i])) unsigned_pages.push_back(i);
  std::vector<std::optional<std::string>> stripped(unsigned_pages.size());  // texts that lost frame lines
  if (frame.min_documents > 0) {
    HostLines lines;
    for (std::size_t i : unsigned_pages)
      if (framed(loaded[i])) lines.count(host_line_keys(loaded[i].page.url, loaded[i].text));
    for (std::size_t k = 0; k < unsigned_pages.size(); ++k) {
      const Loaded& l = loaded[unsigned_pages[k]];
      if (!framed(l)) continue;
      std::string text;
      if (const std::size_t dropped = lines.strip(l.page.url, l.text, text, frame); dropped > 0) {
        stripped[k] = std::move(text);
        out.frame.lines += dropped;
        ++out.frame.texts;
      }
    }
  }
  if (!unsigned_pages.empty()) {
    std::vector<std::string_view> texts;
    for (std::size_t k = 0; k < unsigned_pages.size(); ++k)
      texts.push_back(stripped[k] ? std::string_view(*stripped[k]) : std::string_view(loaded[unsigned_pages[k]].text));
    // Drawn only where it shows: a pipe's run does nothing per text.
    CollectionProgress signing;
    if (progress != nullptr && progress->enabled())
      signing = [progress](const char* pass, std::size_t done, std::size_t total) {
        progress->stage(std::string(pass) + " texts", done, total);
      };
    std::vector<Signatures> signatures = sign_collection(texts, SignOptions{}, jobs, signing);
    if (progress != nullptr) progress->finish();
    for (std::size_t k = 0; k < unsigned_pages.size(); ++k) {
      loaded[unsigned_pages[k]].page.sig = std::move(signatures[k]);
      loaded[unsigned_pages[k]].has_signature = loaded[unsigned_pages[k]].page.sig.terms > 0;
    }
    out.signed_here = unsigned_pages.size();
  }
  for (Loaded& l : loaded) {
    if (!l.error.ok()) {
      out.record_errors.push_back(std::move(l.error));
    } else if (l.usable && l.has_signature) {
      out.pages.push_back(std::move(l.page));
      if (keep_texts) out.texts.push_back(std::move(l.text));
    } else {
      ++out.without_signature;
      if (!l.page_error.ok()) out.page_errors.push_back(std::move(l.page_error));
    }
  }
  return out;
}

std::vector<Status> count_host_lines(const std::vector<std::string>& inputs, unsigned jobs, int rank, int ranks,
                                     HostLines& lines, Progress* progress) {
  // Keys on the reading threads, counts in input order on this one. Only
  // records with a URL are parsed: a record without one has no host.
  auto prepare = [&](Loaded& l) {
    if (framed(l)) l.host_keys = host_line_keys(l.page.url, l.text);
    l.text.clear();
  };
  auto with_url = [](const std::string& line) { return line.find("\"url\"") != std::string::npos; };
  return read_inputs(inputs, jobs, rank, ranks, false, prepare, [&](uint64_t, Loaded& l) { lines.count(l.host_keys); },
                     progress, /*only_records=*/true, with_url);
}

StreamedPages stream_dedup_pages(const std::vector<std::string>& inputs, unsigned jobs, int rank, int ranks,
                                 const SignOptions& sign_options, const DedupSink& sink, const HostLines* lines,
                                 const HostLineOptions& frame, bool identify_languages, Progress* progress) {
  StreamedPages out;
  SignOptions minhash_only = sign_options;
  minhash_only.signers = {"minhash"};
  // Signs a text that came without signatures; nothing of the text is kept.
  auto prepare = [&](Loaded& l) {
    identify_language_stage(l, identify_languages);
    if (to_sign(l)) {
      std::string kept;
      if (lines != nullptr && framed(l)) l.frame_lines = lines->strip(l.page.url, l.text, kept, frame);
      l.page.sig = sign(normalize(l.frame_lines > 0 ? kept : l.text, minhash_only.normalize), minhash_only, nullptr);
      l.has_signature = true;
    }
    l.text = std::string();
  };
  auto take = [&](uint64_t ordinal, Loaded& l) {
    if (l.frame_lines > 0) {
      out.frame.lines += l.frame_lines;
      ++out.frame.texts;
    }
    if (!l.error.ok()) {
      out.record_errors.push_back(std::move(l.error));
    } else if (!l.usable || !l.has_signature || l.page.sig.minhash.empty()) {
      ++out.without_signature;
      if (!l.page_error.ok()) out.page_errors.push_back(std::move(l.page_error));
    } else if (Status st = sink(ordinal, l.page); !st.ok()) {
      out.record_errors.push_back(std::move(st));
    } else {
      ++out.pages;
    }
  };
  out.errors = read_inputs(inputs, jobs, rank, ranks, false, prepare, take, progress);
  return out;
}

}  // namespace husk::cli
