// The page record: one declared table of its fields.
//
// Every record husk writes of a page is these fields, in this order, or a
// selection of them by part: husk extract's JSONL and Python's dict
// (husk::to_jsonl) are the page part and the outcome; the hook's and the
// service's answers are all three parts; the record the index stores
// (GET /v1/pages/ID, husk db export) is the page part and the verdict.
// docs/cli.md ("The record") prints the same table, and a test keeps the
// two equal.
#pragma once

#include <string_view>
#include <vector>

namespace husk {

enum class RecordPart {
  kPage,     // what extraction found
  kVerdict,  // the near-duplicate verdict of the index (hook, service, stored record)
  kOutcome,  // warnings and the error, where a page is answered
};

struct RecordField {
  std::string_view name;
  std::string_view type;     // JSON: "string", "number", "string or null", ...
  std::string_view present;  // when the record carries it, and what it holds
  RecordPart part;
};

// The fields in the order records carry them.
const std::vector<RecordField>& record_fields();

}  // namespace husk
