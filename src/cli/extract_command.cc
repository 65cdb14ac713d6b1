// husk extract: pages in, one JSON object (or text record) per page out, in
// input order, whatever --jobs is.
#include <atomic>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/commands.h"
#include "cli/progress.h"
#include "husk/ingest.h"
#include "husk/pipeline.h"

namespace husk::cli {

namespace {

struct ExtractArgs {
  std::vector<std::string> inputs;
  std::string extractor = "auto";
  std::string format = "jsonl";
  std::string output = "-";
  std::string config;
  std::string dump_features;
  unsigned jobs = 0;
  std::size_t max_page_bytes = IngestOptions{}.max_page_bytes;
};

std::string to_text(const PageResult& r) {
  std::string out = "==> " + r.id + (r.url.empty() ? "" : " " + r.url) + " <==\n";
  if (!r.error.empty()) return out + "error: " + r.error + "\n\n";
  if (!r.title.empty()) out += r.title + "\n\n";
  out += r.text;
  out += "\n\n";
  return out;
}

// One JSON line per block: the features, the label and where it sits, so
// thresholds can be retuned offline.
std::string feature_lines(const PageResult& r, const Blocks& blocks, const Extraction& extraction) {
  std::string out;
  for (std::size_t i = 0; i < blocks.blocks.size(); ++i) {
    const Block& b = blocks.blocks[i];
    const BlockFeatures& f = b.features;
    nlohmann::ordered_json j;
    j["id"] = r.id;
    j["block"] = i;
    j["content"] = i < extraction.keep.size() && extraction.keep[i] != 0;
    j["words"] = f.words;
    j["link_words"] = f.link_words;
    j["chars"] = f.chars;
    j["text_density"] = f.text_density;
    j["link_density"] = f.link_density;
    j["tag"] = std::string(tag_name(f.tag));
    j["heading"] = f.heading;
    j["flags"] = f.flags;
    j["path"] = tag_path(blocks, b.element);
    j["text"] = b.text.size() > 200 ? b.text.substr(0, b.text.find(' ', 200)) : b.text;
    out += j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out += '\n';
  }
  return out;
}

class Writer {
 public:
  Status open(const std::string& path, const std::string& features_path) {
    if (path != "-") {
      file_.open(path, std::ios::binary | std::ios::trunc);
      if (!file_) return Status(Code::kIo, path + ": cannot open for writing");
      out_ = &file_;
    }
    if (!features_path.empty()) {
      features_.open(features_path, std::ios::binary | std::ios::trunc);
      if (!features_) return Status(Code::kIo, features_path + ": cannot open for writing");
    }
    return Status();
  }
  std::ostream& out() { return *out_; }
  std::ofstream& features() { return features_; }
  bool want_features() const { return features_.is_open(); }

 private:
  std::ofstream file_;
  std::ofstream features_;
  std::ostream* out_ = &std::cout;
};

int run_extract(const ExtractArgs& args) {
  PipelineOptions options;
  options.extractor = args.extractor;
  if (!args.config.empty()) {
    Result<ExtractConfig> config = load_extract_config(args.config);
    if (!config.ok()) {
      std::fprintf(stderr, "husk extract: %s\n", config.status().message().c_str());
      return 2;
    }
    options.config = std::move(*config);
  }
  Result<Pipeline> pipeline = Pipeline::make(options);
  if (!pipeline.ok()) {
    std::fprintf(stderr, "husk extract: %s\n", pipeline.status().message().c_str());
    return 2;
  }
  Writer writer;
  if (Status st = writer.open(args.output, args.dump_features); !st.ok()) {
    std::fprintf(stderr, "husk extract: %s\n", st.message().c_str());
    return 1;
  }
  std::ios::sync_with_stdio(false);
  unsigned jobs = args.jobs != 0 ? args.jobs : std::max(1u, std::thread::hardware_concurrency());
  const bool text_format = args.format == "text";

  Progress progress("extract");
  std::size_t done = 0, errors = 0, bytes = 0;
  // Pages are gathered into batches; a batch is processed by `jobs` threads
  // and written in input order. One job processes each page as it arrives.
  const std::size_t batch_pages = jobs == 1 ? 1 : 64 * jobs;
  const std::size_t batch_bytes = 64u << 20;
  std::vector<RawPage> batch;
  std::size_t batch_size = 0;

  auto flush = [&] {
    std::vector<PageResult> results(batch.size());
    std::vector<Blocks> blocks(writer.want_features() ? batch.size() : 0);
    std::vector<Extraction> labels(writer.want_features() ? batch.size() : 0);
    auto work = [&](std::size_t i) {
      if (writer.want_features()) {
        results[i] = pipeline->process(batch[i], &blocks[i], &labels[i]);
      } else {
        results[i] = pipeline->process(batch[i]);
      }
    };
    if (jobs == 1 || batch.size() == 1) {
      for (std::size_t i = 0; i < batch.size(); ++i) work(i);
    } else {
      std::atomic<std::size_t> next{0};
      auto worker = [&] {
        for (std::size_t i = next++; i < batch.size(); i = next++) work(i);
      };
      std::vector<std::thread> threads;
      for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
      worker();
      for (std::thread& t : threads) t.join();
    }
    for (std::size_t i = 0; i < results.size(); ++i) {
      const PageResult& r = results[i];
      writer.out() << (text_format ? to_text(r) : to_jsonl(r));
      if (writer.want_features()) writer.features() << feature_lines(r, blocks[i], labels[i]);
      ++done;
      if (!r.error.empty()) ++errors;
      bytes += r.input_bytes;
    }
    progress.update(done, errors, bytes);
    batch.clear();
    batch_size = 0;
  };

  IngestOptions ingest_options;
  ingest_options.max_page_bytes = args.max_page_bytes;
  IngestStats stats = ingest(args.inputs, ingest_options, [&](RawPage&& page) {
    batch_size += page.bytes.size();
    batch.push_back(std::move(page));
    if (batch.size() >= batch_pages || batch_size >= batch_bytes) flush();
    return true;
  });
  if (!batch.empty()) flush();
  progress.finish();
  writer.out().flush();
  for (const Status& st : stats.input_errors) std::fprintf(stderr, "husk extract: %s\n", st.message().c_str());
  if (!writer.out()) {
    std::fprintf(stderr, "husk extract: write failed\n");
    return 1;
  }
  if (stats.pages == 0 && !stats.input_errors.empty()) return 1;
  return 0;
}

}  // namespace

Command add_extract_command(CLI::App& app) {
  auto args = std::make_shared<ExtractArgs>();
  CLI::App* cmd = app.add_subcommand(
      "extract",
      "Extract the main text of pages.\n"
      "INPUT: .html/.htm files (optionally .gz), directories (recursive),\n"
      ".warc/.warc.gz, .jsonl with url+html, or - for stdin.\n"
      "Output: one JSON object per page: id, url, title, text, extractor,\n"
      "and error (when the page failed) / warnings.");
  cmd->add_option("INPUT", args->inputs, "Files, directories or -")->required();
  cmd->add_option("--extractor", args->extractor, "auto | density | fulltext")
      ->check(CLI::IsMember(extractor_names()))
      ->capture_default_str();
  cmd->add_option("-j,--jobs", args->jobs, "Pages processed in parallel (0: one per core)")->capture_default_str();
  cmd->add_option("--format", args->format, "jsonl | text")->check(CLI::IsMember({"jsonl", "text"}))->capture_default_str();
  cmd->add_option("-o,--output", args->output, "Output file (- for stdout)")->capture_default_str();
  cmd->add_option("--config", args->config, "TOML file overriding config/extract.toml");
  cmd->add_option("--dump-features", args->dump_features, "Write every block's features and label as JSONL to FILE");
  cmd->add_option("--max-page-bytes", args->max_page_bytes, "Pages larger than this are reported as errors")
      ->capture_default_str();
  return {cmd, [args] { return run_extract(*args); }};
}

}  // namespace husk::cli
