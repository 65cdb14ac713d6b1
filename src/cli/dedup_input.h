// Pages for husk dedup and husk eval dedup --compare: `husk sign` output,
// or anything earlier in the data flow, brought up to signatures here.
//   JSONL with "sig"             used as it is (records with "sig": null,
//                                failed pages, are counted and left out)
//   JSONL with "text", no "sig"  normalised and signed here
//   HTML, WARC, directories      extracted (density), then signed here
// Texts signed here use collection statistics built from the same texts.
#pragma once

#include <string>
#include <vector>

#include "husk/dedup.h"
#include "husk/sign.h"
#include "husk/status.h"

namespace husk::cli {

struct LoadedPages {
  std::vector<DedupPage> pages;
  std::size_t without_signature = 0;  // failed pages and records with nothing to sign
  std::size_t signed_here = 0;
  std::vector<Status> errors;         // inputs that could not be read
  std::vector<Status> record_errors;  // records that are malformed (file:line and field)
};

LoadedPages load_dedup_pages(const std::vector<std::string>& inputs, unsigned jobs);

}  // namespace husk::cli
