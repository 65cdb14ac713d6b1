// husk: boilerplate removal and near-duplicate detection for crawled pages.
// A thin client of the library: each subcommand parses its options and
// calls the stages in include/husk/.
#include <vector>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{
      "husk: clean main text out of crawled HTML (boilerplate removal), sign it and\n"
      "group near-duplicate pages.\n"
      "Run `husk COMMAND --help` for the options of a command."};
  app.set_version_flag("--version", "husk 0.1.0");
  app.require_subcommand(1);
  std::vector<husk::cli::Command> commands = {husk::cli::add_extract_command(app), husk::cli::add_sign_command(app),
                                               husk::cli::add_idf_command(app), husk::cli::add_dedup_command(app),
                                               husk::cli::add_tune_command(app), husk::cli::add_serve_command(app),
                                               husk::cli::add_hook_command(app), husk::cli::add_db_command(app),
                                               husk::cli::add_eval_command(app)};
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
