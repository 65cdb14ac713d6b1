// husk extract: pages in, one JSON object (or text record) per page out, in
// input order, whatever --jobs is.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/analyze_all.h"
#include "cli/commands.h"
#include "cli/ordered_batches.h"
#include "cli/progress.h"
#include "husk/ingest.h"
#include "husk/pipeline.h"
#include "husk/site_rules.h"
#include "husk/template.h"
#include "husk/template_store.h"

namespace husk::cli {

namespace {

struct ExtractArgs {
  std::vector<std::string> inputs;
  std::string extractor = "auto";
  std::string format = "jsonl";
  std::string output = "-";
  std::string config;
  std::string sites = std::string(HUSK_SOURCE_DIR) + "/config/sites";
  bool sites_given = false;
  std::string dump_features;
  std::string learner = "infholder";
  std::string state;
  std::size_t min_group_pages = TemplateOptions{}.min_group_pages;
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
    j["local_link_words"] = f.local_link_words;
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

// --extractor template: every page is read and segmented first, templates
// are learned per site group, and pages come out in input order. Pages of
// groups too small to learn from get the density extractor's labels.
IngestStats extract_with_templates(const ExtractArgs& args, const Pipeline& pipeline, TemplateStore* store,
                                   const IngestOptions& ingest_options,
                                   const std::function<void(const PageResult&)>& emit) {
  IngestStats stats;
  std::vector<Analyzed> analyzed = analyze_all(args.inputs, ingest_options, pipeline, args.jobs, false, stats);
  std::vector<TemplatePage> pages;
  for (const Analyzed& a : analyzed)
    pages.push_back({a.result.url, a.result.source.empty() ? a.result.id : a.result.source, &a.blocks});
  TemplateOptions options;
  options.learner = args.learner == "inbreeding" ? TemplateLearner::kInbreeding : TemplateLearner::kInfholder;
  options.min_group_pages = args.min_group_pages;
  std::vector<std::optional<Extraction>> labels =
      template_extract(pages, options, [&](const std::string& group, const TemplateModel& model) {
        if (store == nullptr) return;
        if (Status st = store->put(group, model); !st.ok())
          std::fprintf(stderr, "husk extract: %s\n", st.message().c_str());
      });
  for (std::size_t i = 0; i < analyzed.size(); ++i) {
    Extraction e;
    std::optional<TemplateModel> stored;
    if (!labels[i] && store != nullptr) stored = store->find(pages[i].url, pages[i].id);
    if (labels[i]) {
      e = std::move(*labels[i]);
      e.extractor = "template";
    } else if (stored) {
      e = apply_template(*stored, analyzed[i].blocks);
      e.extractor = "template";
    } else {
      e = pipeline.extract(analyzed[i]);
    }
    emit(pipeline.finish(std::move(analyzed[i]), std::move(e)));
  }
  return stats;
}

// --extractor auto with a template store: a site rule when one matches,
// else the stored template of the page's site, else density.
PageResult process_auto(const Pipeline& pipeline, const ExtractConfig& config, const TemplateStore& store,
                        const RawPage& page) {
  Analyzed a = pipeline.analyze(page, true);
  if (!a.ok) return pipeline.finish(std::move(a), Extraction{});
  std::string_view path = a.result.source.empty() ? std::string_view(a.result.id) : std::string_view(a.result.source);
  bool ruled = config.sites && config.sites->find(a.result.url, path) != nullptr;
  Extraction e;
  std::optional<TemplateModel> stored;
  if (!ruled) stored = store.find(a.result.url, path);
  if (stored) {
    e = apply_template(*stored, a.blocks);
    e.extractor = "template";
  } else {
    e = pipeline.extract(a);
  }
  return pipeline.finish(std::move(a), std::move(e));
}

int run_extract(const ExtractArgs& args) {
  PipelineOptions options;
  options.extractor = args.extractor == "template" ? "density" : args.extractor;
  if (!args.config.empty()) {
    Result<ExtractConfig> config = load_extract_config(args.config);
    if (!config.ok()) {
      std::fprintf(stderr, "husk extract: %s\n", config.status().message().c_str());
      return 2;
    }
    options.config = std::move(*config);
  }
  if (args.sites_given || std::filesystem::is_directory(args.sites)) {
    auto sites = SiteRules::load_dir(args.sites);
    if (!sites.ok()) {
      std::fprintf(stderr, "husk extract: %s\n", sites.status().message().c_str());
      return 2;
    }
    options.config.sites = std::move(*sites);
  }
  std::unique_ptr<TemplateStore> store;
  if (!args.state.empty()) {
    auto opened = TemplateStore::open(args.state);
    if (!opened.ok()) {
      std::fprintf(stderr, "husk extract: %s\n", opened.status().message().c_str());
      return 1;
    }
    store = std::move(*opened);
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
  const bool text_format = args.format == "text";
  const bool features = writer.want_features();

  Progress progress("extract");
  std::size_t done = 0, errors = 0, bytes = 0;
  struct Processed {
    PageResult result;
    Blocks blocks;
    Extraction labels;
  };
  OrderedBatches<RawPage, Processed> batches(
      OrderedBatches<RawPage, Processed>::resolve_jobs(args.jobs),
      [&](const RawPage& page) {
        Processed p;
        if (store && args.extractor == "auto") {
          p.result = process_auto(*pipeline, options.config, *store, page);
        } else {
          p.result = features ? pipeline->process(page, &p.blocks, &p.labels) : pipeline->process(page);
        }
        return p;
      },
      [&](const RawPage&, Processed& p) {
        const PageResult& r = p.result;
        writer.out() << (text_format ? to_text(r) : to_jsonl(r));
        if (features) writer.features() << feature_lines(r, p.blocks, p.labels);
        ++done;
        if (!r.error.empty()) ++errors;
        bytes += r.input_bytes;
        progress.update(done, errors, bytes);
      });

  IngestOptions ingest_options;
  ingest_options.max_page_bytes = args.max_page_bytes;
  IngestStats stats;
  if (args.extractor == "template") {
    stats = extract_with_templates(args, *pipeline, store.get(), ingest_options, [&](const PageResult& r) {
      writer.out() << (text_format ? to_text(r) : to_jsonl(r));
      ++done;
      if (!r.error.empty()) ++errors;
      bytes += r.input_bytes;
      progress.update(done, errors, bytes);
    });
  } else {
    stats = ingest(args.inputs, ingest_options, [&](RawPage&& page) {
      std::size_t size = page.bytes.size();
      batches.push(std::move(page), size);
      return true;
    });
    batches.finish();
  }
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
  std::vector<std::string> names = extractor_names();
  names.push_back("template");
  cmd->add_option("--extractor", args->extractor, "auto | density | fulltext | xpath | template")
      ->check(CLI::IsMember(names))
      ->capture_default_str();
  cmd->add_option("-j,--jobs", args->jobs, "Pages processed in parallel (0: one per core)")->capture_default_str();
  cmd->add_option("--format", args->format, "jsonl | text")->check(CLI::IsMember({"jsonl", "text"}))->capture_default_str();
  cmd->add_option("-o,--output", args->output, "Output file (- for stdout)")->capture_default_str();
  cmd->add_option("--config", args->config, "TOML file overriding config/extract.toml");
  cmd->add_option_function<std::string>(
         "--sites",
         [args](const std::string& dir) {
           args->sites = dir;
           args->sites_given = true;
         },
         "Directory of per-site XPath rules (*.toml); default: config/sites")
      ->type_name("DIR");
  cmd->add_option("--learner", args->learner, "template: infholder | inbreeding")
      ->check(CLI::IsMember({"infholder", "inbreeding"}))
      ->capture_default_str();
  cmd->add_option("--state", args->state,
                  "Template store (LMDB) in DIR: template runs save what they learn, auto and template runs use it");
  cmd->add_option("--min-group", args->min_group_pages, "template: pages a site group needs to learn from")
      ->capture_default_str();
  cmd->add_option("--dump-features", args->dump_features, "Write every block's features and label as JSONL to FILE");
  cmd->add_option("--max-page-bytes", args->max_page_bytes, "Pages larger than this are reported as errors")
      ->capture_default_str();
  return {cmd, [args] { return run_extract(*args); }};
}

}  // namespace husk::cli
