// What every subcommand of the CLI shares: error reporting, the output
// file, comma lists, and reading many pages through the processor.
#pragma once

#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "base/ordered_batches.h"
#include "husk/ingest.h"
#include "husk/processor.h"
#include "husk/status.h"
#include "ingest/lines.h"

namespace husk::cli {

// "husk COMMAND: message" on stderr; returns `code` (1 a file or record
// could not be read or written, 2 a usage error).
int fail(const char* command, const std::string& message, int code);

// A file to write, or stdout for "-".
// An error when `path`, a file a command is to write, is one of its
// `inputs` (the same file by another name too): opening it for writing
// would empty the input before it is read, or replace it with another
// kind of file once it has been. An empty path (an option not given) and
// "-" (stdout) write no file.
Status not_an_input(const std::string& path, const std::vector<std::string>& inputs);

class Output {
 public:
  // Refuses a path that is one of `inputs` (not_an_input).
  Status open(const std::string& path, const std::vector<std::string>& inputs = {});
  std::ostream& out() { return *out_; }

 private:
  std::ofstream file_;
  std::ostream* out_ = &std::cout;
};

// "a,b,,c" -> {"a", "b", "c"}.
std::vector<std::string> split_list(const std::string& text);

// Every page of the inputs decoded, parsed and segmented on `jobs`
// threads, in input order: for the commands that need all of a site's
// pages at once (template learning, tune).
std::vector<Document> analyze_all(const std::vector<std::string>& inputs, const IngestOptions& ingest_options,
                                  const Processor& processor, unsigned jobs, bool keep_dom, IngestStats& stats);

// Why a line that opens an input of records is not one: pages (HTML or
// WARC) where husk extract's records belong. Empty when it may be a record.
std::string not_records(std::string_view first_line);

// Each input line once, in order, on `jobs` threads; a line's result is
// handed on with the line. Inputs that cannot be read, or that hold pages
// rather than records (said once, not once per line), are reported and the
// others go on.
template <typename Out>
std::vector<Status> over_lines(const std::vector<std::string>& inputs, unsigned jobs,
                               const std::function<Out(const Line&)>& work,
                               const std::function<void(const Line&, Out&)>& emit) {
  OrderedBatches<Line, Out> batches(OrderedBatches<Line, Out>::resolve_jobs(jobs), work, emit);
  std::vector<Status> errors;
  for (const std::string& input : inputs) {
    std::string pages;
    bool first = true;
    Status st = for_each_line(input, [&](Line&& line) {
      if (first && line.status.ok() && !(pages = not_records(line.text)).empty()) return false;
      first = false;
      std::size_t size = line.text.size();
      batches.push(std::move(line), size);
      return true;
    });
    if (!pages.empty()) st = Status(Code::kInvalidArgument, input + ": " + pages);
    if (!st.ok()) errors.push_back(std::move(st));
  }
  batches.finish();
  return errors;
}

}  // namespace husk::cli
