// husk sign: extract output in, the same records with a "sig" object out;
// husk idf build: document frequencies of a corpus for the global signers.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "record/signature_file.h"
#include "cli/common.h"
#include "cli/dedup_input.h"
#include "cli/progress.h"
#include "husk/processor.h"

namespace husk::cli {

namespace {

struct SignArgs {
  std::vector<std::string> inputs;
  std::string signers = "all";
  std::string idf;
  std::string config;
  std::string normalize;
  std::string output = "-";
  std::string format = "jsonl";
  unsigned jobs = 0;
  bool identify_languages = false;
};

struct IdfArgs {
  std::vector<std::string> inputs;
  std::string config;
  std::string normalize;
  std::string output;
  double epsilon = 1e-6;
  unsigned jobs = 0;
};

// The text of a record, or why it has none to sign.
struct Record {
  nlohmann::json json;
  std::string text;
  bool signable = false;
  Status error;      // unreadable: too long, no JSON object, nested too deep
  Status malformed;  // a field of the wrong type ("text": 5), as husk dedup reads it
};

// A line too long to read, no JSON object, or one nested too deep to be
// written back (json_object) is `error`; a record whose fields husk dedup
// would refuse (read_record_fields) is `malformed` and not signable.
Record parse_record(const Line& line) {
  Record r;
  Result<nlohmann::json> parsed = json_object(line);
  if (!parsed.ok()) {
    r.error = parsed.status();
    return r;
  }
  r.json = std::move(*parsed);
  DedupPage fields;
  r.malformed = read_record_fields(r.json, line, fields);
  if (!r.malformed.ok()) return r;
  auto text = r.json.find("text");
  if (text == r.json.end() || !text->is_string() || r.json.contains("error")) return r;
  r.text = text->get<std::string>();
  r.signable = true;
  return r;
}

// --config FILE, then --normalize on top of it.
Result<SignOptions> options_from(const std::string& config, const std::string& normalize) {
  SignOptions options;
  if (!config.empty()) {
    auto loaded = load_sign_config(config);
    if (!loaded.ok()) return loaded.status();
    options = std::move(*loaded);
  }
  auto n = parse_normalize_options(normalize, options.normalize);
  if (!n.ok()) return n.status();
  options.normalize = *n;
  return options;
}

// A record that could not be signed: its source, the error, no signature.
std::string error_record(const Line& line, const std::string& error) {
  nlohmann::ordered_json j;
  j["id"] = line.source;
  j["error"] = error;
  j["sig"] = nullptr;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

int run_sign(const SignArgs& args) {
  auto configured = options_from(args.config, args.normalize);
  if (!configured.ok()) return fail("sign", configured.status().message(), 2);
  ProcessorOptions options;
  options.sign = true;
  options.signing = std::move(*configured);
  if (args.signers != "all") options.signing.signers = split_list(args.signers);
  if (!args.idf.empty()) {
    auto loaded = load_collection_stats(args.idf);
    if (!loaded.ok()) return fail("sign", loaded.status().message(), 1);
    if (!loaded->normalize.empty() && loaded->normalize != describe(options.signing.normalize))
      std::fprintf(stderr, "husk sign: warning: %s was built with --normalize %s, signing uses %s\n",
                   args.idf.c_str(), loaded->normalize.c_str(), describe(options.signing.normalize).c_str());
    options.stats = std::make_shared<const CollectionStats>(std::move(*loaded));
  } else {
    std::fprintf(stderr,
                 "husk sign: no --idf file: tfidf, heavy_sent and simhash weigh every term 1 and stop words 0; "
                 "lexrand and imatch use every term that is not a stop word\n");
  }
  Result<Processor> processor = Processor::make(options);
  if (!processor.ok()) return fail("sign", processor.status().message(), 2);
  Output output;
  if (Status st = output.open(args.output, args.inputs); !st.ok()) return fail("sign", st.message(), 1);
  std::ios::sync_with_stdio(false);
  const bool binary = args.format == "binary";
  if (binary) output.out() << signature_file_header();
  // The binary record of a signed line: the fields dedup reads.
  auto binary_record = [](const Line& line, const nlohmann::json& j, Signatures&& sig, const std::string& language) {
    DedupPage page;
    auto text = [&](const char* name) {
      auto it = j.find(name);
      return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    auto number = [&](const char* name) {
      auto it = j.find(name);
      return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
    };
    page.id = j.contains("id") && j["id"].is_string() ? text("id") : line.source;
    page.url = text("url");
    page.title = text("title");
    page.language = language;
    page.rank = number("rank");
    page.boilerplate = number("boilerplate");
    page.sig = std::move(sig);
    std::string out;
    append_signature_record(out, page);
    return out;
  };
  // What one line gives: its output, and why the record is malformed
  // (named on stderr as husk dedup names it; in JSONL output the record
  // also carries it as its "error").
  struct Signed {
    std::string out;
    std::string malformed;
  };
  Progress progress("sign");
  std::size_t done = 0, bad = 0, malformed_records = 0, bytes = 0;
  std::vector<Status> errors = over_lines<Signed>(
      args.inputs, args.jobs,
      [&](const Line& line) -> Signed {
        Record r = parse_record(line);
        if (!r.error.ok()) return {binary ? std::string() : error_record(line, r.error.message()), r.error.message()};
        // A malformed record becomes an error record.
        const Status& malformed = r.malformed;
        if (!malformed.ok() && binary) return {std::string(), malformed.message()};
        std::string sig = "null";
        // The language dedup compares the record under: its own tag, else
        // with --identify-languages the one its text reads as (dedup's
        // stage, page_language), written into the record.
        auto tag = r.json.find("language");
        const std::string given = tag != r.json.end() && tag->is_string() ? tag->get<std::string>() : std::string();
        std::string identified;
        if (r.signable) {
          if (args.identify_languages && given.empty()) identified = page_language(given, r.text);
          Signatures s = processor->sign(r.text);
          // Records without a signature are left out of the binary file
          // (dedup leaves them out anyway); they are counted below.
          if (binary)
            return {s.terms > 0 ? binary_record(line, r.json, std::move(s), given.empty() ? identified : given)
                                : std::string(),
                    ""};
          if (s.terms > 0) sig = signatures_json(s);
        }
        if (binary) return {};
        // The record stays as it came; "sig" is appended (or replaced).
        std::string record = line.text;
        if (r.json.contains("sig") || (!identified.empty() && tag != r.json.end()) || !malformed.ok()) {
          r.json.erase("sig");
          if (!identified.empty()) r.json.erase("language");
          if (!malformed.ok()) r.json.erase("error");
          record = r.json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        }
        while (!record.empty() && record.back() != '}') record.pop_back();
        record.pop_back();
        bool empty_object = record.find_first_not_of(" \t{") == std::string::npos;
        std::string added = identified.empty() ? std::string() : "\"language\":" + nlohmann::json(identified).dump() + ",";
        if (!malformed.ok()) added += "\"error\":" + nlohmann::json(malformed.message()).dump() + ",";
        return {record + (empty_object ? "" : ",") + added + "\"sig\":" + sig + "}\n", malformed.message()};
      },
      [&](const Line& line, Signed& result) {
        output.out() << result.out;
        ++done;
        if (binary ? result.out.empty() : result.out.ends_with("\"sig\":null}\n")) ++bad;
        if (!result.malformed.empty()) {
          ++malformed_records;
          progress.print("husk sign: " + result.malformed);
        }
        bytes += line.text.size();
        progress.update(done, bad, bytes);
      });
  progress.finish();
  output.out().flush();
  if (bad > 0)
    std::cerr << "husk sign: " << bad << " of " << done
              << " record(s) without a signature (an error record, no \"text\" string, or no terms in it)\n";
  if (malformed_records > 0)
    std::cerr << "husk sign: " << malformed_records
              << " record(s) unreadable or malformed, named above, given no signature\n";
  for (const Status& st : errors) fail("sign", st.message(), 1);
  if (!output.out()) return fail("sign", "write failed", 1);
  return done == 0 && !errors.empty() ? 1 : 0;
}

int run_idf_build(const IdfArgs& args) {
  if (Status st = not_an_input(args.output, args.inputs); !st.ok()) return fail("idf build", st.message(), 1);
  auto configured = options_from(args.config, args.normalize);
  if (!configured.ok()) return fail("idf build", configured.status().message(), 2);
  const NormalizeOptions normalize = configured->normalize;
  if (args.epsilon <= 0 || args.epsilon >= 1) return fail("idf build", "--epsilon must be between 0 and 1", 2);
  DfCounter counter(args.epsilon);
  // A record's terms, or why it was not read (named as husk sign names it).
  struct Counted {
    std::vector<std::string> terms;
    std::string bad;
  };
  Progress progress("idf");
  std::size_t done = 0, bad = 0, bytes = 0;
  std::vector<Status> errors = over_lines<Counted>(
      args.inputs, args.jobs,
      [&](const Line& line) -> Counted {
        Record r = parse_record(line);
        if (!r.error.ok()) return {{}, r.error.message()};
        if (!r.malformed.ok()) return {{}, r.malformed.message()};
        return {r.signable ? husk::normalize(r.text, normalize).terms : std::vector<std::string>(), ""};
      },
      [&](const Line& line, Counted& counted) {
        if (!counted.terms.empty()) counter.add_document(counted.terms);
        if (!counted.bad.empty()) {
          ++bad;
          progress.print("husk idf build: " + counted.bad);
        }
        ++done;
        bytes += line.text.size();
        progress.update(done, bad, bytes);
      });
  progress.finish();
  if (bad > 0)
    std::cerr << "husk idf build: " << bad << " record(s) unreadable or malformed, named above, not counted\n";
  for (const Status& st : errors) fail("idf build", st.message(), 1);
  if (done == 0 && !errors.empty()) return 1;
  CollectionStats stats = counter.finish();
  stats.normalize = describe(normalize);
  if (Status st = save_collection_stats(stats, args.epsilon, args.output); !st.ok())
    return fail("idf build", st.message(), 1);
  std::fprintf(stderr, "husk idf build: %llu documents, %zu terms -> %s\n",
               static_cast<unsigned long long>(stats.documents), stats.df.size(), args.output.c_str());
  return 0;
}

}  // namespace

Command add_sign_command(CLI::App& app) {
  auto args = std::make_shared<SignArgs>();
  std::string names;
  for (const std::string& n : signer_names()) names += (names.empty() ? "" : ", ") + n;
  CLI::App* cmd = app.add_subcommand(
      "sign",
      "Normalise the text of each record and add its near-duplicate signatures.\n"
      "INPUT: husk extract JSONL (or any JSONL with \"text\"); output: the same\n"
      "records with a \"sig\" object (null for records with an error or no terms).");
  cmd->add_option("INPUT", args->inputs, "JSONL files (plain or .gz) or -")->required();
  cmd->add_option("--signers", args->signers, "Comma-separated list or all: " + names)->capture_default_str();
  cmd->add_option("--idf", args->idf, "Collection statistics from `husk idf build`");
  cmd->add_option("--config", args->config, "TOML file overriding config/sign.toml");
  cmd->add_option("--normalize", args->normalize, "numbers=keep|drop|mask,letters=join|keep,min-run=N (default: " +
                                                      describe(NormalizeOptions{}) + ")");
  cmd->add_option("-o,--output", args->output, "Output file (- for stdout)")->capture_default_str();
  cmd->add_option("--format", args->format,
                  "jsonl: the records with \"sig\" added; binary: husk's signature file for husk dedup (the fields "
                  "dedup reads; records without a signature are left out and counted)")
      ->check(CLI::IsMember({"jsonl", "binary"}))
      ->capture_default_str();
  cmd->add_option("-j,--jobs", args->jobs, "Records processed in parallel (0: one per core)")->capture_default_str();
  cmd->add_flag("--identify-languages", args->identify_languages,
                "Give each record whose \"language\" is missing, null or empty the language of its text (CLD2 on "
                "its first 2 KB), as husk dedup --identify-languages does");
  return {cmd, [args] { return run_sign(*args); }};
}

Command add_idf_command(CLI::App& app) {
  auto args = std::make_shared<IdfArgs>();
  CLI::App* cmd = app.add_subcommand("idf", "Collection statistics for the global signers");
  cmd->require_subcommand(1);
  CLI::App* build = cmd->add_subcommand(
      "build",
      "Count document frequencies of normalised terms over extract output\n"
      "(streaming, bounded memory: lossy counting, Manku & Motwani 2002).");
  build->add_option("INPUT", args->inputs, "JSONL files (plain or .gz) or -")->required();
  build->add_option("-o,--output", args->output, "IDF file to write")->required();
  build->add_option("--config", args->config, "TOML file overriding config/sign.toml (its [normalize] applies)");
  build->add_option("--normalize", args->normalize, "As for husk sign; use the same options for both");
  build->add_option("--epsilon", args->epsilon, "Lossy-counting error bound (share of term occurrences)")
      ->capture_default_str();
  build->add_option("-j,--jobs", args->jobs, "Records normalised in parallel (0: one per core)")->capture_default_str();
  return {cmd, [args, build] { return build->parsed() ? run_idf_build(*args) : 2; }};
}

}  // namespace husk::cli
