// husk extract: pages in, one JSON object (or text record) per page out, in
// input order, whatever --jobs is.
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/text_util.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/progress.h"
#include "husk/dedup.h"
#include "husk/explain.h"
#include "husk/record.h"
#include "ingest/fetch.h"
#include "ingest/lines.h"

namespace husk::cli {

namespace {

// `text` in lines of at most `width` characters, broken at spaces.
std::string wrap(const std::string& text, std::size_t width) {
  std::string out, line;
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return out + line;
}

struct ExtractArgs {
  std::vector<std::string> inputs;
  std::string extractor = "auto";
  std::string format = "jsonl";
  std::string output = "-";
  std::string config;
  std::string model;
  std::string sites;
  std::string dump_features;
  std::string learner = "infholder";
  std::string state;
  std::size_t min_group_pages = TemplateOptions{}.min_group_pages;
  unsigned jobs = 0;
  std::size_t max_page_bytes = IngestOptions{}.max_page_bytes;
  uint32_t page_timeout_ms = kDefaultPageTimeoutMs;
  bool with_markdown = false;
  bool with_html = false;
  bool links = false;
  bool images = false;
  bool comments = false;
  std::string languages;
  bool precision = false;
  bool recall = false;
  bool all_statuses = false;
  uint32_t dedup_paragraphs = 0;  // 0: off; N: drop a paragraph N earlier pages held
  std::string url_list;  // a file of URLs, one per line
  double fetch_timeout_s = IngestOptions{}.fetch_timeout_ms / 1000.0;
};

// The URLs of a --url-list file: one per line; blank lines and lines
// opening with '#' are skipped. A line that is no http:// or https:// URL
// is said on stderr and skipped: read as a file name it would have been
// reported as a missing file, or read a local file the list never meant.
Status read_url_list(const std::string& path, std::vector<std::string>& inputs) {
  return for_each_line(path, [&](Line&& line) {
    if (!line.status.ok()) {
      fail("extract", line.status.message(), 1);
      return true;
    }
    std::string_view url = trim(line.text);
    if (url.empty() || url.front() == '#') return true;
    if (is_url(url))
      inputs.emplace_back(url);
    else
      fail("extract", line.source + ": not an http:// or https:// URL, skipped: " + std::string(url.substr(0, 200)), 1);
    return true;
  });
}

// The languages --languages keeps ("en,de"), as primary subtags.
std::vector<std::string> language_list(const std::string& csv) {
  std::vector<std::string> out;
  for (const std::string& item : split_list(csv))
    if (std::string code = primary_language(item); !code.empty()) out.push_back(code);
  return out;
}

// A page's header line in the markdown and html streams: a comment, so
// that each page's part stays valid Markdown or HTML.
std::string page_comment(const PageResult& r) {
  std::string inner = r.id + (r.url.empty() ? "" : " " + r.url);
  if (!r.status.ok()) inner += " error: " + r.status.to_string();
  // "--" may not stand inside an HTML comment.
  for (std::size_t p; (p = inner.find("--")) != std::string::npos;) inner.replace(p, 2, "%2D%2D");
  return "<!-- husk: " + inner + " -->\n";
}

std::string formatted(const PageResult& r, const std::string& format) {
  if (format == "markdown") return page_comment(r) + (r.status.ok() ? r.markdown + "\n\n" : "\n");
  if (format == "html") return page_comment(r) + (r.status.ok() ? r.html : "\n");
  return {};
}

std::string to_text(const PageResult& r) {
  std::string out = "==> " + r.id + (r.url.empty() ? "" : " " + r.url) + " <==\n";
  if (!r.status.ok()) return out + "error: " + r.status.to_string() + "\n\n";
  // The title once: not again when the text opens with it (the headline
  // is often the first kept block).
  const std::string_view first_line = std::string_view(r.text).substr(0, r.text.find('\n'));
  if (!r.title.empty() && first_line != r.title) out += r.title + "\n\n";
  out += r.text;
  out += "\n\n";
  return out;
}

// One JSON line per block: the features, the label and where it sits, so
// thresholds can be retuned offline.
std::string feature_lines(const PageResult& r, const Trace& trace) {
  std::string out;
  const Blocks& blocks = trace.blocks;
  for (std::size_t i = 0; i < blocks.blocks.size(); ++i) {
    const Block& b = blocks.blocks[i];
    const BlockFeatures& f = b.features;
    nlohmann::ordered_json j = {{"id", r.id},
                                {"block", i},
                                {"content", i < trace.labels.keep.size() && trace.labels.keep[i] != 0},
                                {"words", f.words},
                                {"link_words", f.link_words},
                                {"local_link_words", f.local_link_words},
                                {"chars", f.chars},
                                {"text_density", f.text_density},
                                {"link_density", f.link_density},
                                {"tag", std::string(tag_name(f.tag))},
                                {"heading", f.heading},
                                {"flags", f.flags},
                                {"path", tag_path(blocks, b.element)},
                                {"text", b.text.size() > 200 ? b.text.substr(0, b.text.find(' ', 200)) : b.text}};
    out += j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out += '\n';
  }
  return out;
}

// --extractor template: every page is analysed first, templates are
// learned per site group into the store, then every page goes through the
// cascade, which finds its group's template (or falls back to density).
IngestStats extract_with_templates(const ExtractArgs& args, const Processor& processor, TemplateStore& store,
                                   const IngestOptions& ingest_options,
                                   const std::function<void(PageResult&, const Trace*)>& emit, bool trace) {
  IngestStats stats;
  std::vector<Document> documents = analyze_all(args.inputs, ingest_options, processor, args.jobs, false, stats);
  std::vector<TemplatePage> pages;
  for (const Document& d : documents) {
    if (!d.result.status.ok()) continue;
    pages.push_back({d.result.url, d.result.source.empty() ? d.result.id : d.result.source, &d.blocks});
  }
  TemplateOptions options;
  options.learner = args.learner == "inbreeding" ? TemplateLearner::kInbreeding : TemplateLearner::kInfholder;
  options.min_group_pages = args.min_group_pages;
  for (const auto& [group, model] : learn_templates(pages, options))
    if (Status st = store.put(group, model); !st.ok()) fail("extract", st.message(), 0);
  for (Document& d : documents) {
    Trace t;
    PageResult r = processor.finish(std::move(d), trace ? &t : nullptr);
    emit(r, trace ? &t : nullptr);
  }
  return stats;
}

// The inputs as an error message names them: "a.warc, pages/".
std::string input_names(const std::vector<std::string>& inputs) {
  std::string named;
  for (const std::string& input : inputs) named += (named.empty() ? "" : ", ") + input;
  return named;
}

// The processor's options from the command line (husk extract's and husk
// explain's), the template store opened when asked; 0, or the exit code of
// the error it printed.
int processor_options(const ExtractArgs& args, const char* command, ProcessorOptions& options,
                      std::shared_ptr<TemplateStore>& store) {
  options.extractor = args.extractor;
  if (!args.config.empty()) {
    Result<ExtractConfig> config = load_extract_config(args.config);
    if (!config.ok()) return fail(command, config.status().message(), 2);
    options.extract = std::move(*config);
  }
  options.extract.block_model = args.model;
  if (args.precision) options.extract.preset = ExtractPreset::kPrecision;
  if (args.recall) options.extract.preset = ExtractPreset::kRecall;
  options.markdown = args.format == "markdown" || args.with_markdown;
  options.html = args.format == "html" || args.with_html;
  options.format.links = args.links;
  options.format.images = args.images;
  options.comments = args.comments;
  options.page_timeout_ms = args.page_timeout_ms;
  for (const std::string& code : language_list(args.languages))
    if (!is_known_language(code))
      return fail(command, "--languages: \"" + code + "\" is not a language code CLD2 identifies (ISO 639-1: en, de, zh...)", 2);
  if (!args.sites.empty()) {
    auto sites = SiteRules::load_dir(args.sites);
    if (!sites.ok()) return fail(command, sites.status().message(), 2);
    options.sites = std::move(*sites);
  }
  if (!args.state.empty()) {
    auto opened = TemplateStore::open(args.state);
    if (!opened.ok()) return fail(command, opened.status().message(), 1);
    store = std::move(*opened);
  } else if (args.extractor == "template") {
    store = TemplateStore::in_memory();
  }
  options.templates = store;
  return 0;
}

int run_extract(ExtractArgs args) {
  if (!args.url_list.empty()) {
    if (Status st = read_url_list(args.url_list, args.inputs); !st.ok()) return fail("extract", st.message(), 1);
    if (args.inputs.empty()) return fail("extract", args.url_list + ": no http:// or https:// URL in it", 1);
  }
  if (args.inputs.empty()) return fail("extract", "no input: name files, directories, URLs, - or --url-list FILE", 2);
  ProcessorOptions options;
  std::shared_ptr<TemplateStore> store;
  if (int code = processor_options(args, "extract", options, store); code != 0) return code;
  const std::vector<std::string> languages = language_list(args.languages);
  if (args.dedup_paragraphs > 0 && (options.markdown || options.html))
    return fail("extract", "--dedup-paragraphs leaves paragraphs out of text only: use it with --format jsonl or text, "
                           "without --with-markdown or --with-html", 2);
  Result<Processor> processor = Processor::make(options);
  if (!processor.ok()) return fail("extract", processor.status().message(), 2);
  Output output;
  if (Status st = output.open(args.output, args.inputs); !st.ok()) return fail("extract", st.message(), 1);
  std::ofstream features;
  if (!args.dump_features.empty()) {
    if (Status st = not_an_input(args.dump_features, args.inputs); !st.ok()) return fail("extract", st.message(), 1);
    features.open(args.dump_features, std::ios::binary | std::ios::trunc);
    if (!features) return fail("extract", args.dump_features + ": cannot open for writing", 1);
  }
  std::ios::sync_with_stdio(false);
  const bool text_format = args.format == "text";
  const bool jsonl_format = args.format == "jsonl";
  std::size_t other_language = 0;
  const bool trace = features.is_open();

  Progress progress("extract");
  if (progress.enabled()) progress.set_total(count_pages(args.inputs));
  std::size_t done = 0, errors = 0, bytes = 0;
  auto wanted = [&](const PageResult& r) {
    return languages.empty() || !r.status.ok() ||
           std::find(languages.begin(), languages.end(), primary_language(r.language.code)) != languages.end();
  };
  auto format = [&](const PageResult& r) {
    return jsonl_format ? to_jsonl(r) : text_format ? to_text(r) : formatted(r, args.format);
  };
  // `written`: the page's output, when a worker formatted it already.
  // --dedup-paragraphs: in input order, whatever --jobs is.
  std::optional<SeenParagraphs> seen;
  if (args.dedup_paragraphs > 0) seen.emplace(args.dedup_paragraphs);
  std::size_t paragraphs_dropped = 0;
  auto emit = [&](PageResult& r, const Trace* t, const std::string* written = nullptr) {
    if (seen && r.status.ok()) {
      if (std::size_t dropped = seen->filter(r.text); dropped > 0) {
        paragraphs_dropped += dropped;
        r.warnings.push_back(seen_paragraphs_warning(dropped));
        written = nullptr;  // formatted again below, without them
      }
    }
    if (!wanted(r)) {
      ++other_language;
    } else {
      output.out() << (written != nullptr ? *written : format(r));
    }
    if (t != nullptr) features << feature_lines(r, *t);
    ++done;
    if (!r.status.ok()) ++errors;
    bytes += r.input_bytes;
    progress.update(done, errors, bytes);
  };
  struct Processed {
    PageResult result;
    Trace trace;
    std::string written;  // formatted by the worker, so the ordered writer only writes
  };
  IngestOptions ingest_options;
  ingest_options.max_page_bytes = args.max_page_bytes;
  ingest_options.all_statuses = args.all_statuses;
  ingest_options.fetch_timeout_ms = static_cast<long>(args.fetch_timeout_s * 1000);
  ingest_options.leave_out = {args.output};
  IngestStats stats;
  if (args.extractor == "template") {
    stats = extract_with_templates(args, *processor, *store, ingest_options, emit, trace);
  } else {
    OrderedBatches<RawPage, Processed> batches(
        OrderedBatches<RawPage, Processed>::resolve_jobs(args.jobs),
        [&](const RawPage& page) {
          Processed p;
          p.result = processor->process(page, trace ? &p.trace : nullptr);
          if (wanted(p.result)) p.written = format(p.result);
          return p;
        },
        [&](const RawPage&, Processed& p) { emit(p.result, trace ? &p.trace : nullptr, &p.written); });
    stats = ingest(args.inputs, ingest_options, [&](RawPage&& page) {
      std::size_t size = page.bytes.size();
      batches.push(std::move(page), size);
      return true;
    });
    batches.finish();
  }
  progress.finish();
  output.out().flush();
  if (seen)
    std::cerr << "extract: " << paragraphs_dropped << " paragraph(s) seen on earlier pages left out (--dedup-paragraphs "
              << args.dedup_paragraphs << ")\n";
  if (!languages.empty())
    std::cerr << "extract: " << other_language << " page(s) in other languages than --languages left out\n";
  // A crawl's WARC holds requests, metadata and other media beside its
  // pages: the count says why fewer records came out than went in.
  if (stats.skipped > 0)
    std::cerr << "extract: " << stats.skipped
              << " WARC record(s) skipped: no HTML page in them (requests, metadata, other media; answers other "
                 "than 2xx unless --all-statuses)\n";
  for (const Status& st : stats.input_errors) fail("extract", st.message(), 1);
  if (!output.out()) return fail("extract", "write failed", 1);
  if (stats.pages == 0 && !stats.input_errors.empty()) return 1;
  if (stats.pages == 0 && stats.skipped == 0) {
    const std::string named = input_names(args.inputs);
    return fail("extract", "no pages found in " + named +
                               " (husk reads .html/.htm/.xhtml/.shtml, .warc and .jsonl files, any of them .gz)", 1);
  }
  return 0;
}

// husk explain: one page of the inputs (the first, or the one --id names)
// through the same cascade as husk extract, written as husk explain's HTML.
int run_explain(const ExtractArgs& args, const std::string& id) {
  if (args.inputs.empty()) return fail("explain", "no input: name a page, a WARC or JSONL file, a directory or a URL", 2);
  ProcessorOptions options;
  std::shared_ptr<TemplateStore> store;
  if (int code = processor_options(args, "explain", options, store); code != 0) return code;
  Result<Processor> processor = Processor::make(options);
  if (!processor.ok()) return fail("explain", processor.status().message(), 2);
  IngestOptions ingest_options;
  ingest_options.max_page_bytes = args.max_page_bytes;
  ingest_options.all_statuses = true;
  ingest_options.fetch_timeout_ms = static_cast<long>(args.fetch_timeout_s * 1000);
  ingest_options.leave_out = {args.output};
  std::optional<RawPage> chosen;
  bool more = false;  // the inputs hold another page after the first
  IngestStats stats = ingest(args.inputs, ingest_options, [&](RawPage&& page) {
    if (chosen) {
      more = true;
      return false;
    }
    if (!id.empty() && page.id != id && page.url != id) return true;
    chosen = std::move(page);
    return id.empty();
  });
  for (const Status& st : stats.input_errors) fail("explain", st.message(), 1);
  if (!chosen) {
    const std::string named = input_names(args.inputs);
    return fail("explain", id.empty() ? "no pages found in " + named : "no page with id or URL \"" + id + "\" in " + named, 1);
  }
  if (more)
    std::cerr << "explain: " << (chosen->id.empty() ? chosen->url : chosen->id)
              << " (the first page; --id ID picks another)\n";
  Trace trace;
  PageResult result = processor->process(*chosen, &trace);
  Output output;
  if (Status st = output.open(args.output, args.inputs); !st.ok()) return fail("explain", st.message(), 1);
  output.out() << explain_html(result, trace);
  output.out().flush();
  if (!output.out()) return fail("explain", "write failed", 1);
  if (!result.status.ok()) return fail("explain", result.id + ": " + result.status.to_string(), 1);
  return 0;
}

}  // namespace

Command add_explain_command(CLI::App& app) {
  auto args = std::make_shared<ExtractArgs>();
  auto id = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "explain",
      "Show why each block of a page was kept or removed.\n" +
          wrap("INPUT: as husk extract reads (a page, a directory, a WARC or JSONL file, a URL); the first "
               "page, or the one --id names. Output: one self-contained HTML page: the record and where each "
               "metadata field was read, then every block, kept (green) or removed (red), with the stage that "
               "decided (site rule, stored template, learned model and its probability, density, the comment "
               "rule), its XPath and its nearest class/id words.",
               72));
  cmd->add_option("INPUT", args->inputs, "Files, directories, http(s) URLs or -")->required();
  cmd->add_option("--id", *id, "The page to explain: its record id (as husk extract writes it) or its URL")
      ->type_name("ID");
  cmd->add_option("-o,--output", args->output, "HTML file to write (- for stdout)")->capture_default_str();
  cmd->add_option("--extractor", args->extractor, "As husk extract's --extractor")
      ->check(CLI::IsMember(extractor_names()))
      ->capture_default_str();
  auto* precision = cmd->add_flag("--precision", args->precision, "As husk extract's --precision");
  cmd->add_flag("--recall", args->recall, "As husk extract's --recall")->excludes(precision);
  cmd->add_option("--config", args->config, "TOML file overriding the built-in config/extract.toml");
  cmd->add_option("--model", args->model, "Block model for the learned extractor (and FILE_others beside it for pages typed as other than articles, when there); default: built in")->check(CLI::ExistingFile);
  cmd->add_option("--sites", args->sites, "Directory of per-site XPath rules (*.toml)")->type_name("DIR");
  cmd->add_option("--state", args->state, "Template store (LMDB) in DIR, as husk extract --state")->type_name("DIR");
  cmd->add_option("--fetch-timeout", args->fetch_timeout_s, "Seconds a page fetched by URL may take")->capture_default_str();
  cmd->add_option("--max-page-bytes", args->max_page_bytes, "A larger page is an error")->capture_default_str();
  return {cmd, [args, id] { return run_explain(*args, *id); }};
}

Command add_extract_command(CLI::App& app) {
  auto args = std::make_shared<ExtractArgs>();
  // The record's fields as the field table (husk/record.h) gives them.
  std::string fields;
  for (const RecordField& f : record_fields())
    if (f.part != RecordPart::kVerdict) fields += (fields.empty() ? "" : ", ") + std::string(f.name);
  CLI::App* cmd = app.add_subcommand(
      "extract",
      "Extract the main text of pages.\n"
      "INPUT: .html/.htm files (optionally .gz), directories (recursive),\n"
      ".warc/.warc.gz, .jsonl with url+html, or - for stdin.\n"
      "Output (--format jsonl): one JSON object per page, with the fields\n" +
          wrap(fields + " (docs/cli.md, \"The record\", says when each is present).", 72) +
          "\n--format text|markdown|html writes each page's title and text,\n"
          "Markdown or HTML document after a header line naming the page.");
  cmd->add_option("INPUT", args->inputs, "Files, directories, http(s) URLs or -");
  cmd->add_option("--url-list", args->url_list, "A file of URLs to fetch and extract, one per line ('#' comments)")
      ->type_name("FILE");
  cmd->add_option("--fetch-timeout", args->fetch_timeout_s,
                  "Seconds a page fetched by URL may take to arrive, connection included")
      ->capture_default_str();
  cmd->add_option("--extractor", args->extractor,
                  "auto (site rule, else stored template, else the learned extractor) | learned | density | fulltext | xpath | "
                  "template (the site's template weighed against the page's own evidence)")
      ->check(CLI::IsMember(extractor_names()))
      ->capture_default_str();
  cmd->add_option("-j,--jobs", args->jobs, "Pages processed in parallel (0: one per core)")->capture_default_str();
  cmd->add_option("--page-timeout", args->page_timeout_ms,
                  "Milliseconds of CPU time one page may take, its own thread's, so the same whatever --jobs or the load (0: no limit); a page past it gets error \"timeout\" and the run goes on")
      ->capture_default_str();
  cmd->add_option("--format", args->format, "jsonl | text | markdown | html")
      ->check(CLI::IsMember({"jsonl", "text", "markdown", "html"}))
      ->capture_default_str();
  cmd->add_flag("--with-markdown", args->with_markdown, "jsonl: add a markdown field to each record");
  cmd->add_flag("--with-html", args->with_html, "jsonl: add an html field (a small HTML document) to each record");
  cmd->add_flag("--links", args->links, "Markdown/HTML: keep hyperlinks, made absolute against the page URL or <base>");
  cmd->add_flag("--images", args->images, "Markdown/HTML: keep images as ![alt](src) / <img>");
  cmd->add_flag("--comments", args->comments,
                "Return the page's user comment section in a comments field (it is never part of text)");
  cmd->add_option("--languages", args->languages,
                  "Keep only pages in these languages (ISO 639-1, comma-separated: en,de), as identified by CLD2");
  auto* precision = cmd->add_flag("--precision", args->precision,
                                  "Favour precision: keep only blocks the extractor is surer of (less boilerplate, some text lost)");
  cmd->add_flag("--recall", args->recall, "Favour recall: keep blocks the extractor is less sure of (more text, more boilerplate)")
      ->excludes(precision);
  cmd->add_option("-o,--output", args->output, "Output file (- for stdout)")->capture_default_str();
  cmd->add_option("--config", args->config, "TOML file overriding the built-in config/extract.toml");
  cmd->add_option("--model", args->model, "Block model for the learned extractor (husk train extract -o FILE; and FILE_others beside it for pages typed as other than articles, when there); default: built in")
      ->check(CLI::ExistingFile);
  cmd->add_option("--sites", args->sites, "Directory of per-site XPath rules (*.toml); default: none")->type_name("DIR");
  cmd->add_option("--learner", args->learner, "template: infholder | inbreeding")
      ->check(CLI::IsMember({"infholder", "inbreeding"}))
      ->capture_default_str();
  cmd->add_option("--state", args->state,
                  "Template store (LMDB) in DIR: template runs save what they learn, auto and template runs use it");
  cmd->add_option("--min-group", args->min_group_pages, "template: pages a site group needs to learn from")
      ->capture_default_str();
  cmd->add_option("--dedup-paragraphs", args->dedup_paragraphs,
                  "Leave out of text each paragraph that N earlier pages of the run already held (a site's notices, "
                  "a syndicated story's paragraphs; CCNet's paragraph dedup); 0: off. jsonl and text formats")
      ->capture_default_str();
  cmd->add_option("--dump-features", args->dump_features, "Write every block's features and label as JSONL to FILE");
  cmd->add_flag("--all-statuses", args->all_statuses,
                "WARC: also extract responses whose HTTP status is not 2xx (404 pages, redirects)");
  cmd->add_option("--max-page-bytes", args->max_page_bytes, "Pages larger than this are reported as errors")
      ->capture_default_str();
  return {cmd, [args] { return run_extract(*args); }};
}

}  // namespace husk::cli
