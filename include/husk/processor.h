// The one entry point: a page in, everything husk says about it out.
//
//   bytes + url (+ Content-Type)
//     -> decode -> parse -> segment                       (husk/html.h)
//     -> the extraction cascade                           (husk/extract.h)
//          1. site rule   an operator's XPath rule for the page's URL or path
//          2. template    the stored template of the page's site group
//          3. learned     the page alone (density without a block model)
//        each stage runs only when its gate holds (a rule matches; a
//        template is stored); `extractor` other than "auto" picks one stage
//        (xpath and template still fall back to density for pages they
//        have nothing for)
//     -> clean text: the kept blocks, one paragraph each
//     -> normalise -> sign                                (husk/sign.h)
//
// A Processor is built once from its options and is then immutable and
// thread-safe: any number of threads may call process() on one Processor.
// process() never throws; a page that fails comes back with its status set
// and the run goes on. The CLI, the service and the index are thin clients
// of it.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "husk/extract.h"
#include "husk/format.h"
#include "husk/html.h"
#include "husk/ingest.h"
#include "husk/metadata.h"
#include "husk/sign.h"
#include "husk/status.h"

namespace husk {

// ProcessorOptions::page_timeout_ms's default (see there).
inline constexpr uint32_t kDefaultPageTimeoutMs = 10000;

struct ProcessorOptions {
  DecodeOptions decode;
  ParseOptions parse;
  SegmentOptions segment;
  // "auto" (the cascade), or one of "learned", "density", "fulltext",
  // "xpath", "template".
  std::string extractor = "auto";
  ExtractConfig extract = default_extract_config();
  std::shared_ptr<const SiteRules> sites;          // per-site XPath rules; null: none
  std::shared_ptr<const TemplateStore> templates;  // learned templates; null: none
  // Outputs beside the plain text (husk/format.h): Markdown, HTML, with
  // links and images when format.links / format.images (format.base_url is
  // set per page).
  bool markdown = false;
  bool html = false;
  FormatOptions format;
  // The page's user comment section (recognised on every page but forums,
  // whose posts are the content) is left out of the text; with `comments`
  // its text is returned apart in PageResult::comments.
  bool comments = false;
  MetadataOptions metadata;
  // Signing is off unless `sign` is set.
  bool sign = false;
  SignOptions signing;
  std::shared_ptr<const CollectionStats> stats;  // IDF for the global signers; null: none
  // The time one page may take, in milliseconds (0: no limit); a page past
  // it fails with Code::kTimeout and the run goes on. Checked between the
  // stages and in the block model's scoring, so a page stops within one
  // stage's time of it (the longest that cannot stop is the HTML5 parse,
  // bounded by ParseOptions::max_markup_bytes: 1.6 s for 16 MiB here).
  // 10 s: none of the 3,233 pages of AEB, WCXB dev, traf-snippets-dev and
  // the near-duplicate set takes 300 ms on one core (docs/cli.md), and
  // trafilatura's own limit is 30 s.
  uint32_t page_timeout_ms = kDefaultPageTimeoutMs;
  // Only Processor::analyze is called (husk train): no model is loaded, so
  // that a model that no longer fits the features does not stop the
  // training that replaces it. finish() then fails every page.
  bool analysis_only = false;
};

// Everything husk says about one page.
struct PageResult {
  Status status;  // not ok: the page failed; text is then empty and nothing is signed
  std::string id;
  std::string url;
  std::string source;     // where the page was read (file path), not written out
  int http_status = 0;    // the HTTP status of a WARC record; 0 when the page came otherwise
  std::string title;      // the headline (metadata.title)
  std::string text;       // the clean text: paragraphs separated by blank lines
  std::string markdown;   // with ProcessorOptions::markdown
  std::string html;       // with ProcessorOptions::html
  std::string comments;   // with ProcessorOptions::comments: the comment section's text
  Metadata metadata;
  Language language;      // of the clean text
  std::string extractor;  // the extractor that labelled the page
  // What kind of page it is: article, collection, documentation, forum,
  // listing, product or service (the page-type classifier's; empty for a
  // page without text).
  std::string page_type;
  std::string charset;
  double boilerplate = 0;  // share of the page's visible words extraction removed
  // How likely the text is right, in [0, 1]: the mean of the F1 the kept
  // blocks would score if each block were content with the block model's
  // probability, less the words the model was unsure of, and the precision
  // they would score (text_quality, husk/extract.h).
  // A crawler can send pages of low quality to a second extractor or a
  // person.
  double quality = 0;
  std::vector<std::string> warnings;
  std::size_t input_bytes = 0;
  std::optional<Signatures> signatures;  // with signing on, when the text has terms
};

// A page decoded, parsed and segmented, before the cascade: what the steps
// that need a whole site at once (learning templates, tuning rules) work on.
struct Document {
  PageResult result;  // id, url, source, title, charset, warnings; or why the page failed
  // From ProcessorOptions::page_timeout_ms, set when the page arrived;
  // paused between analyze() and finish(), whose time (a site's templates
  // learned meanwhile, perhaps on another thread) is not the page's.
  Deadline deadline = {};
  std::string content_language;  // the HTTP header, a hint for the language
  Blocks blocks;
  std::optional<Dom> dom;  // kept when asked for
};

// A page's blocks and their labels, for --dump-features and husk explain:
// the labels are the final ones (furniture and the comment section taken
// out); `furniture` and `comments` say which blocks those rules took out.
struct Trace {
  Blocks blocks;
  Labels labels;
  std::vector<uint8_t> comments;  // per block: 1 when the stage kept it and the comment rule took it out
  std::vector<std::string> furniture;  // per block: the furniture class that took it out of what the stage kept, or ""
  // per block: where the stage kept it and the repeat rule took it out, the
  // earlier block whose text it repeats (extract/repeats.h); else UINT32_MAX
  std::vector<uint32_t> repeats;
  std::optional<Dom> dom;         // when the page was analysed with its Dom kept
  // When the page's shape settled its type (an article's shape on a page
  // the classifier typed otherwise or doubted; docs/architecture.md): the
  // classifier's type and its probability that the page is an article.
  // Empty when the classifier's type stood.
  std::string classified_as;
  float classified_article = 0;
  // Whether that shape was read with the comment sections set aside (a
  // story over its readers' thread, which the classifier took for a forum).
  bool comments_aside = false;
};

class Processor {
 public:
  // Fails on a bad extractor name or unusable signing options.
  static Result<Processor> make(const ProcessorOptions& options);

  // The whole chain for one page. A page without an id gets page_id().
  PageResult process(const RawPage& page, Trace* trace = nullptr) const;
  PageResult process(std::string_view url, std::string_view bytes, std::string_view content_type = {}) const;

  // process() in two steps, for clients that need many pages between them:
  // decode + parse + segment; then the cascade, clean text and signing.
  Document analyze(const RawPage& page, bool keep_dom = true) const;
  PageResult finish(Document&& document, Trace* trace = nullptr) const;

  // Normalises and signs a clean text with the processor's signing options
  // and statistics (husk sign's records).
  Signatures sign(std::string_view text) const;

  const ProcessorOptions& options() const { return *options_; }

 private:
  struct Cascade;
  Processor(std::shared_ptr<const ProcessorOptions> options, std::shared_ptr<const Cascade> cascade);
  std::shared_ptr<const ProcessorOptions> options_;
  std::shared_ptr<const Cascade> cascade_;
};

// The id husk gives a page that has none: a hash of its URL, or of its
// bytes without one, so the same page posted again gets the same id.
std::string page_id(std::string_view url, std::string_view bytes);

// The `husk extract` JSONL record of a page: the page part of the field
// table (husk/record.h), then warnings and error when present;
// newline-terminated.
std::string to_jsonl(const PageResult& result);

}  // namespace husk
