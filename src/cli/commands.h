// The subcommands of the husk CLI: each registers its options on a CLI11
// app and runs against the library. Exit codes: 0 success, 1 nothing could
// be read or written, 2 usage error (CLI11's own).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace husk::cli {

// A registered subcommand and what runs it once the arguments are parsed.
struct Command {
  CLI::App* app;
  std::function<int()> run;
};
Command add_extract_command(CLI::App& app);
Command add_explain_command(CLI::App& app);
Command add_eval_command(CLI::App& app);
Command add_sign_command(CLI::App& app);
Command add_idf_command(CLI::App& app);
Command add_dedup_command(CLI::App& app);
Command add_tune_command(CLI::App& app);
Command add_hook_command(CLI::App& app);
Command add_serve_command(CLI::App& app);
Command add_db_command(CLI::App& app);
Command add_train_command(CLI::App& app);

}  // namespace husk::cli
