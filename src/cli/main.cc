// husk: boilerplate removal and near-duplicate detection for crawled pages.
// A thin client of the library: each subcommand parses its options and
// calls husk::Processor and the stages of include/husk/.
#include <malloc.h>

#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace {

int run(int argc, char** argv) {
  CLI::App app{
      "husk: clean main text out of crawled HTML (boilerplate removal), sign it and\n"
      "group near-duplicate pages.\n"
      "Run `husk COMMAND --help` for the options of a command.",
      "husk"};
  app.set_version_flag("--version", "husk 0.1.0");
  app.require_subcommand(1);
  std::vector<husk::cli::Command> commands = {husk::cli::add_extract_command(app), husk::cli::add_explain_command(app),
                                               husk::cli::add_sign_command(app),
                                               husk::cli::add_idf_command(app), husk::cli::add_dedup_command(app),
                                               husk::cli::add_tune_command(app), husk::cli::add_serve_command(app),
                                               husk::cli::add_hook_command(app), husk::cli::add_db_command(app),
                                               husk::cli::add_eval_command(app), husk::cli::add_train_command(app)};
  // `husk` alone shows what it can do; `husk frobnicate` says that there
  // is no such command and lists the ones there are (CLI11 would say only
  // that a subcommand is required).
  if (argc < 2) {
    std::fputs(app.help().c_str(), stderr);
    return 2;
  }
  bool known_command = argv[1][0] == '-';
  std::string known;
  for (const husk::cli::Command& command : commands) {
    known_command = known_command || command.app->check_name(argv[1]);
    known += (known.empty() ? "" : ", ") + command.app->get_name();
  }
  if (!known_command) {
    std::fprintf(stderr, "husk: no command \"%s\" (commands: %s; husk --help describes them)\n", argv[1],
                 known.c_str());
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every usage error exits 2.
    return app.exit(e) == 0 ? 0 : 2;
  }
  for (const husk::cli::Command& command : commands)
    if (command.app->parsed()) return command.run();
  return 2;
}

}  // namespace

// The last resort: whatever escapes a command becomes a message and exit
// status 2, never an abort.
int main(int argc, char** argv) {
  // husk goes page after page, each allocating and freeing from a few
  // hundred KB to a few MB (the page, the parser's arena, the text). By
  // default glibc maps blocks over its adaptive threshold anew and hands
  // the heap's free top back to the system, so every page touched fresh
  // memory the kernel had to zero: 8% of husk extract -j1's time on AEB
  // was the kernel's (perf). Blocks under 32 MiB now come from the heap,
  // which keeps up to 64 MiB free for the next page.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "husk: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "husk: internal error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "husk: internal error\n");
  }
  return 2;
}
