// Pages for husk dedup and husk eval dedup --compare: `husk sign` output,
// or anything earlier in the data flow, brought up to signatures here.
//   JSONL with "sig"             used as it is (records with "sig": null,
//                                failed pages, are counted and left out)
//   JSONL with "text", no "sig"  normalised and signed here
//   husk signature files         (husk sign --format binary) used as they are
//   HTML, WARC, directories      extracted (density), then signed here
// Signature files come first, then JSONL, then pages.
// Texts signed here use collection statistics built from the same texts.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "husk/corpus.h"
#include "husk/dedup.h"
#include "husk/sign.h"
#include "husk/status.h"
#include "ingest/lines.h"

namespace husk::cli {

class Progress;

// The fields of a record that husk dedup reads, into `page`: the id (the
// line's source when missing), url, title and language as strings, rank
// and boilerplate as numbers, and, in a record without "sig" or "error",
// the text as a string; each may be missing or null. A field of another
// type is the record's error, naming its line and the field. husk sign
// checks its input with it, so that the records it signs are the records
// dedup reads.
Status read_record_fields(const nlohmann::json& j, const Line& line, DedupPage& page);

// Per-host frame lines (husk/dedup.h, HostLines): the lines of a record's
// text that recur in many documents of its URL's host are left out before
// it is signed here. Signed records, and pages given as HTML (husk's
// extraction leaves their frame out), are used as they are. Off unless
// asked for.
inline constexpr HostLineOptions kNoFrameLines{0, 0};

// What leaving out frame lines did.
struct FrameStats {
  uint64_t texts = 0;  // texts that lost a line
  uint64_t lines = 0;  // lines left out
};

struct LoadedPages {
  std::vector<DedupPage> pages;
  std::vector<std::string> texts;     // with keep_texts: each page's text ("" when its record had none)
  std::size_t without_signature = 0;  // failed pages and records with nothing to sign
  std::size_t signed_here = 0;
  std::vector<Status> errors;         // inputs that could not be read
  std::vector<Status> record_errors;  // records that are malformed (file:line and field)
  std::vector<Status> page_errors;    // pages that could not be read or extracted (among without_signature)
  FrameStats frame;
};

// With keep_texts, each page's text as its record gave it, frame lines
// included. With identify_languages, a record's text that names no
// language is identified (page_language, husk/metadata.h) as it is read;
// otherwise it is compared under no language. Each reader below updates
// `progress`, when given, with the records and pages read, those that
// failed, and the bytes read.
LoadedPages load_dedup_pages(const std::vector<std::string>& inputs, unsigned jobs, bool keep_texts = false,
                             const HostLineOptions& frame = kNoFrameLines, bool identify_languages = false,
                             Progress* progress = nullptr);

// The first pass of a streamed run with frame lines: counts the host lines
// of this rank's share of the texts into `lines` (to be summed over the
// ranks before the second pass); returns the inputs that could not be read.
std::vector<Status> count_host_lines(const std::vector<std::string>& inputs, unsigned jobs, int rank, int ranks,
                                     HostLines& lines, Progress* progress = nullptr);

// The same inputs as a stream, for the corpus-scale search: each page's
// ordinal is its position among all records and pages of the inputs; only
// pages whose ordinal mod `ranks` is `rank` are parsed, extracted and
// signed (minhash alone, which needs no collection statistics), their
// languages identified as load_dedup_pages does, on `jobs` threads, and
// handed to `sink` in ordinal order. Nothing is kept.
struct StreamedPages {
  uint64_t pages = 0;              // handed to the sink
  uint64_t without_signature = 0;  // of this rank's share
  std::vector<Status> errors;
  std::vector<Status> record_errors;
  std::vector<Status> page_errors;  // as LoadedPages'
  FrameStats frame;
};

// `lines`: the counts of every rank's texts (count_host_lines), when frame
// lines are left out by `frame`.
StreamedPages stream_dedup_pages(const std::vector<std::string>& inputs, unsigned jobs, int rank, int ranks,
                                 const SignOptions& sign_options, const DedupSink& sink,
                                 const HostLines* lines = nullptr, const HostLineOptions& frame = kNoFrameLines,
                                 bool identify_languages = false, Progress* progress = nullptr);

}  // namespace husk::cli
