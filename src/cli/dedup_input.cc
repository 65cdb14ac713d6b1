#include "cli/dedup_input.h"

#include <nlohmann/json.hpp>

#include "cli/ordered_batches.h"
#include "cli/records.h"
#include "husk/idf.h"
#include "husk/ingest.h"
#include "husk/pipeline.h"
#include "sign/sig_json.h"
#include "text_util.h"

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
};

Loaded from_record(const std::string& line, const std::string& source) {
  Loaded l;
  nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return l;
  l.page.id = j.contains("id") && j["id"].is_string() ? j["id"].get<std::string>() : source;
  l.page.url = j.value("url", "");
  l.page.title = j.value("title", "");
  if (j.contains("rank") && j["rank"].is_number()) l.page.rank = j["rank"].get<double>();
  if (j.contains("boilerplate") && j["boilerplate"].is_number()) l.page.boilerplate = j["boilerplate"].get<double>();
  if (j.contains("sig")) {
    if (j["sig"].is_null()) return l;
    Result<Signatures> sig = signatures_from_json(j["sig"]);
    if (!sig.ok() || sig->terms == 0) return l;
    l.page.sig = std::move(*sig);
    l.has_signature = l.usable = true;
    return l;
  }
  if (j.contains("error") || !j.contains("text") || !j["text"].is_string()) return l;
  l.text = j["text"].get<std::string>();
  l.usable = true;
  return l;
}

}  // namespace

LoadedPages load_dedup_pages(const std::vector<std::string>& inputs, unsigned jobs) {
  LoadedPages out;
  std::vector<Loaded> loaded;
  jobs = OrderedBatches<int, int>::resolve_jobs(jobs);
  std::vector<std::string> records, raw;
  for (const std::string& in : inputs) (is_record_file(in) ? records : raw).push_back(in);

  OrderedBatches<RecordLine, Loaded> parse(
      jobs, [](const RecordLine& line) { return from_record(line.text, line.source); },
      [&](const RecordLine&, Loaded& l) { loaded.push_back(std::move(l)); });
  for (Status& st : for_each_line(records, [&](RecordLine&& line) {
         std::size_t size = line.text.size();
         parse.push(std::move(line), size);
       }))
    out.errors.push_back(std::move(st));
  parse.finish();

  if (!raw.empty()) {
    const PipelineOptions defaults;
    Result<Pipeline> pipeline = Pipeline::make(defaults);
    OrderedBatches<RawPage, Loaded> extract(
        jobs,
        [&](const RawPage& page) {
          PageResult r = pipeline->process(page);
          Loaded l;
          l.page.id = r.id;
          l.page.url = r.url;
          l.page.title = r.title;
          l.page.boilerplate = r.boilerplate;
          l.text = std::move(r.text);
          l.usable = r.error.empty();
          return l;
        },
        [&](const RawPage&, Loaded& l) { loaded.push_back(std::move(l)); });
    IngestStats stats = ingest(raw, IngestOptions{}, [&](RawPage&& page) {
      std::size_t size = page.bytes.size();
      extract.push(std::move(page), size);
      return true;
    });
    extract.finish();
    for (Status& st : stats.input_errors) out.errors.push_back(std::move(st));
  }

  // Texts without signatures: statistics from the texts themselves, then
  // every signer.
  std::vector<std::size_t> to_sign;
  for (std::size_t i = 0; i < loaded.size(); ++i)
    if (loaded[i].usable && !loaded[i].has_signature) to_sign.push_back(i);
  if (!to_sign.empty()) {
    SignOptions options;
    std::vector<NormalizedText> normalized(to_sign.size());
    OrderedBatches<std::size_t, NormalizedText> normalize_all(
        jobs, [&](const std::size_t& k) { return normalize(loaded[to_sign[k]].text, options.normalize); },
        [&](const std::size_t& k, NormalizedText& n) { normalized[k] = std::move(n); });
    for (std::size_t k = 0; k < to_sign.size(); ++k) normalize_all.push(std::size_t(k), 1);
    normalize_all.finish();
    DfCounter counter;
    for (const NormalizedText& n : normalized)
      if (!n.terms.empty()) counter.add_document(n.terms);
    CollectionStats stats = counter.finish();
    OrderedBatches<std::size_t, Signatures> sign_all(
        jobs, [&](const std::size_t& k) { return sign(normalized[k], options, &stats); },
        [&](const std::size_t& k, Signatures& s) {
          loaded[to_sign[k]].page.sig = std::move(s);
          loaded[to_sign[k]].has_signature = loaded[to_sign[k]].page.sig.terms > 0;
        });
    for (std::size_t k = 0; k < to_sign.size(); ++k) sign_all.push(std::size_t(k), 1);
    sign_all.finish();
    out.signed_here = to_sign.size();
  }
  for (Loaded& l : loaded) {
    if (l.usable && l.has_signature) {
      out.pages.push_back(std::move(l.page));
    } else {
      ++out.without_signature;
    }
  }
  return out;
}

}  // namespace husk::cli
