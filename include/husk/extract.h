// Extract: label the blocks of a page as content or boilerplate, and turn
// the content blocks into clean text.
//
// An extractor is a pure function of the page's Blocks; its tunables are
// fixed when it is made (see husk/params.h). Extractors:
//   fulltext  every visible block (the baseline)
//   density   local, one page alone (extractors/density.cc)
//   auto      density for now
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "husk/blocks.h"
#include "husk/dom.h"
#include "husk/params.h"
#include "husk/status.h"

namespace husk {

struct Extraction {
  std::vector<uint8_t> keep;  // one entry per block: 1 = content
  std::vector<std::string> warnings;
  std::string extractor;      // set when another extractor than the one asked for ran
};

// What an extractor sees of a page.
struct PageView {
  const Blocks& blocks;
  const Dom* dom = nullptr;  // the parsed tree, for extractors that query it (xpath)
  std::string_view url;
  std::string_view id;  // the page's id, or for files the path it was read from
};

class Extractor {
 public:
  virtual ~Extractor() = default;
  virtual std::string_view name() const = 0;
  virtual Extraction extract(const PageView& page) const = 0;
};

// Names accepted by make_extractor, for --help and error messages.
std::vector<std::string> extractor_names();

Result<std::unique_ptr<Extractor>> make_extractor(std::string_view name, const ExtractConfig& config);

struct CleanText {
  std::string title;
  std::vector<std::string> paragraphs;
  // Paragraphs separated by blank lines.
  std::string text() const;
};

// The kept blocks as paragraphs (one per block), in page order.
CleanText clean_text(const Blocks& blocks, const Extraction& extraction);

}  // namespace husk
