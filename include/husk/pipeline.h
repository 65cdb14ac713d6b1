// The page pipeline: RawPage -> decode -> parse -> segment -> extract ->
// clean text, as one call. This is what `husk extract` runs per page and
// what the service and the benchmarks call.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "husk/decode.h"
#include "husk/dom.h"
#include "husk/extract.h"
#include "husk/page.h"
#include "husk/params.h"

namespace husk {

struct PipelineOptions {
  DecodeOptions decode;
  ParseOptions parse;
  SegmentOptions segment;
  std::string extractor = "auto";
  ExtractConfig config = default_extract_config();
};

struct PageResult {
  std::string id;
  std::string url;
  std::string source;  // where the page was read (file path), not written out
  std::string title;
  std::string text;
  std::string extractor;
  std::string charset;
  double boilerplate = 0;  // share of the page's visible words extraction removed
  std::string error;  // non-empty when the page failed; text is then empty
  std::vector<std::string> warnings;
  std::size_t input_bytes = 0;
};

// The `husk extract` JSONL record of a page: id, url, title, text,
// extractor, boilerplate (share of visible words removed, 4 decimals), then
// error and warnings when present; newline-terminated.
std::string to_jsonl(const PageResult& result);

// A page decoded, parsed and segmented, waiting for an extractor's labels
// (the template extractor labels many pages at once).
struct Analyzed {
  PageResult result;  // id, url, title, charset, warnings, or error
  Blocks blocks;
  std::optional<Dom> dom;  // kept only when asked for (XPath needs it)
  bool ok = false;
};

class Pipeline {
 public:
  // Fails only on a bad extractor name.
  static Result<Pipeline> make(const PipelineOptions& options);

  // Never throws; a failed page comes back with `error` set.
  PageResult process(const RawPage& page) const;
  // The same, keeping the intermediate Blocks and labels (--dump-features).
  PageResult process(const RawPage& page, Blocks* blocks, Extraction* extraction) const;

  // process() in three steps: decode + parse + segment; the pipeline's own
  // extractor's labels; clean text from labels (from any extractor).
  Analyzed analyze(const RawPage& page, bool keep_dom) const;
  Extraction extract(const Analyzed& analyzed) const;
  PageResult finish(Analyzed&& analyzed, Extraction&& extraction) const;

 private:
  Pipeline(const PipelineOptions& options, std::shared_ptr<const Extractor> extractor);
  PipelineOptions options_;
  std::shared_ptr<const Extractor> extractor_;
};

}  // namespace husk
