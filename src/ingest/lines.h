// Line-oriented inputs (JSONL records, plain or gzip, "-" for stdin): the
// one reader every JSONL consumer shares (ingest, husk sign, husk dedup,
// the hook, the evaluators).
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "husk/status.h"
#include "ingest/gz_reader.h"

namespace husk {

struct Line {
  std::string source;  // "file:line", for messages
  std::size_t number = 0;
  std::string text;  // without its newline
  Status status;     // not ok when the line was longer than the limit (text is then empty)
};

// Lines longer than this are reported, not read: a JSON string may escape
// every byte of a page, so twice the page limit of husk extract.
constexpr std::size_t kMaxLineBytes = std::size_t(128) << 20;

// Calls `sink` with every non-blank line of one input, in order, until it
// returns false. Returns the input's own failure (cannot be opened, read
// error, truncated gzip) naming the input and byte offset.
Status for_each_line(const std::string& input, const std::function<bool(Line&&)>& sink,
                     std::size_t max_line_bytes = kMaxLineBytes);
// The same over an input already open (`name` in messages).
Status for_each_line(GzReader& reader, const std::string& name, const std::function<bool(Line&&)>& sink,
                     std::size_t max_line_bytes = kMaxLineBytes);

// How deep a record's values may nest. Writing a JSON value back out
// (nlohmann::json::dump) recurses once per level: a line of 200,000 nested
// arrays, 400 KB, parses but overflows the stack when written. A record
// husk writes nests 3 levels; 64 leaves room for anyone's extra fields.
constexpr std::size_t kMaxJsonDepth = 64;

// The nesting depth of a JSON value (a scalar is 1, [[1]] is 3), walked
// without recursion.
std::size_t json_depth(const nlohmann::json& root);

// A line parsed as a JSON object nested at most kMaxJsonDepth levels; an
// error names "file:line".
Result<nlohmann::json> json_object(const Line& line);

// Every line of `path` as a JSON object; the first bad line, or a non-ok
// Status from `each`, stops the reading with that error (the evaluators'
// gold and prediction files, where one bad line makes the score wrong).
Status for_each_json_object(const std::string& path,
                            const std::function<Status(const nlohmann::json&, const Line&)>& each);

}  // namespace husk
