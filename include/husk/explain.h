// husk explain: one page's extraction shown block by block, for a person
// who asks why a paragraph was kept or removed.
#pragma once

#include <string>

#include "husk/processor.h"

namespace husk {

// A self-contained HTML page (inline style, no script, nothing fetched):
// the page's record and where each metadata field was read
// (Metadata::sources), then its blocks in document order, each marked kept
// or removed, with the stage that decided (the labelling extractor: site
// rule, stored template, the learned model with its probability, density,
// fulltext; or the comment rule that took it out of the text), its
// element's XPath (absolute, with positions: a site rule's include or
// exclude can name it) and the class and id words nearest to it. `trace`
// is what Processor::process filled; its Dom, when kept, gives the
// XPaths. Each block is an element with class "block kept" or "block
// removed" and data-stage, data-xpath and data-probability attributes.
std::string explain_html(const PageResult& result, const Trace& trace);

}  // namespace husk
