// husk train: the learned models from a WCXB-layout split.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/common.h"
#include "eval/train.h"
#include "extract/features.h"

namespace husk::cli {

namespace {

struct TrainArgs {
  std::string split;
  std::string dump;
  unsigned jobs = 0;
};

// The training matrix for analysis outside husk: names.txt, x.f32 (rows of
// float32), blocks.tsv (page, block, coverage, tokens), pages.tsv (page,
// id, domain, type, gold tokens), tokens.jsonl (per page, each block's
// token ids and the gold's).
Status dump(const std::string& dir, const FeatureExtractor& features, const std::vector<TrainingPage>& pages) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status(Code::kIo, dir + ": " + ec.message());
  std::ofstream names(dir + "/names.txt"), x(dir + "/x.f32", std::ios::binary), blocks(dir + "/blocks.tsv"),
      meta(dir + "/pages.tsv"), tokens(dir + "/tokens.jsonl");
  for (const std::string& n : features.names()) names << n << '\n';
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const TrainingPage& t = pages[p];
    x.write(reinterpret_cast<const char*>(t.x.data()), static_cast<std::streamsize>(t.x.size() * sizeof(float)));
    for (std::size_t b = 0; b < t.coverage.size(); ++b)
      blocks << p << '\t' << b << '\t' << t.coverage[b] << '\t' << t.tokens[b].size() << '\n';
    meta << p << '\t' << t.id << '\t' << t.domain << '\t' << t.type << '\t' << t.gold.size() << '\n';
    tokens << nlohmann::json({{"blocks", t.tokens},
                              {"gold", t.gold},
                              {"element", t.block_element},
                              {"parent", t.parent},
                              {"first", t.first_block},
                              {"end", t.end_block}})
                  .dump()
           << '\n';
  }
  if (!names || !x || !blocks || !meta || !tokens) return Status(Code::kIo, dir + ": write failed");
  return Status();
}

int run_train_extract(const TrainArgs& args) {
  const ProcessorOptions options;
  Result<Processor> processor = Processor::make(options);
  if (!processor.ok()) return fail("train", processor.status().message(), 2);
  FeatureExtractor features(options.extract);
  Result<std::vector<TrainingPage>> pages = collect_training_pages(args.split, *processor, features, args.jobs);
  if (!pages.ok()) return fail("train", pages.status().message(), 1);
  std::size_t blocks = 0;
  for (const TrainingPage& p : *pages) blocks += p.coverage.size();
  std::fprintf(stderr, "husk train: %zu pages, %zu blocks, %zu features\n", pages->size(), blocks, features.columns());
  if (!args.dump.empty())
    if (Status st = dump(args.dump, features, *pages); !st.ok()) return fail("train", st.message(), 1);
  return 0;
}

}  // namespace

Command add_train_command(CLI::App& app) {
  auto args = std::make_shared<TrainArgs>();
  CLI::App* cmd = app.add_subcommand("train", "Train husk's learned models on a WCXB-layout split");
  cmd->require_subcommand(1);
  CLI::App* extract = cmd->add_subcommand(
      "extract",
      "The block model: every page of SPLIT (html/NNNN.html.gz beside ground-truth/NNNN.json)\n"
      "analysed, its blocks' features labelled by the gold text.");
  extract->add_option("SPLIT", args->split, "The split's directory")->required()->check(CLI::ExistingDirectory);
  extract->add_option("--dump", args->dump, "Write the training matrix to DIR for analysis");
  extract->add_option("-j,--jobs", args->jobs, "Pages analysed in parallel (0: one per core)")->capture_default_str();
  return {cmd, [args, extract] { return extract->parsed() ? run_train_extract(*args) : 2; }};
}

}  // namespace husk::cli
