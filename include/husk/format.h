// Output formats of the clean text: the kept blocks with their structure.
//
// Each kept block is written by its role, found from the elements that hold
// it (the segmenter's element table): a heading (<h1>-<h6>, its level), a
// list item (<li>: nested by the lists above it, ordered or not, with its
// number), a table cell (a table without tables inside becomes a table, its
// first row the header row), preformatted code (<pre>, its line breaks kept,
// the language from class="language-..."), a quotation (<blockquote>) or a
// paragraph (anything else, captions included). Extractors decide what is
// kept; the roles only shape the output. Every format holds the same words
// as the plain text, in the same order.
//
//   markdown  CommonMark with GitHub's pipe tables: ATX headings, nested
//             "-" and "1." lists, fenced code blocks, "> " quotations,
//             *emphasis*, **strong**, `code`; [text](url) and ![alt](src)
//             with FormatOptions::links / images
//   html      a small, valid, escaped document of h1-h6, p, ul/ol/li,
//             table/tr/th/td, pre/code, blockquote, a and img (an XML parser
//             reads it)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "husk/html.h"

namespace husk {

struct FormatOptions {
  bool links = false;   // keep hyperlinks, absolute (resolved against base_url)
  bool images = false;  // keep images with their alt text
  std::string base_url;  // the page's URL, or its <base href> resolved against it
};

// The SegmentOptions::markup bits and ParseOptions::keep_urls a format
// needs from the segmenter.
uint32_t markup_for(const FormatOptions& options);

std::string to_markdown(const Blocks& blocks, const std::vector<uint8_t>& keep, const FormatOptions& options);

// `title` becomes the document's <title>.
std::string to_html(const Blocks& blocks, const std::vector<uint8_t>& keep, const FormatOptions& options,
                    std::string_view title);

}  // namespace husk
