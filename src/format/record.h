// A page's JSON record, written once: husk extract's JSONL
// (husk::to_jsonl), Python's dict, the service's and the hook's answers and
// the record the index stores (GET /v1/pages/ID, husk db export) are each
// page_record, with the index's verdict (add_verdict) where there is one
// and the page's outcome (add_outcome) where it is answered. A field added
// here reaches every one of them.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "husk/index.h"
#include "husk/processor.h"

namespace husk {

// id, url, status, title, text (unless !with_text), markdown, html and
// comments (when present), extractor, boilerplate, quality, then the
// metadata fields (add_metadata).
nlohmann::ordered_json page_record(const PageResult& page, bool with_text = true);

// Adds page_type, author, date_published, date_modified, sitename,
// description, language, language_confidence, canonical_url, image, tags,
// categories and license to `record`, in that order: each null when the
// page does not say.
void add_metadata(nlohmann::ordered_json& record, const PageResult& page);

// Adds sig (null without signatures), duplicate_of ({id, url, measure,
// score}, or null) and cluster (null without a verdict).
void add_verdict(nlohmann::ordered_json& record, const std::optional<Signatures>& signatures, const Verdict* verdict);
// Sets duplicate_of and cluster alone: the index rewrites a stored record's
// verdict when the cluster table changes under it.
void put_verdict(nlohmann::ordered_json& record, const Verdict* verdict);

// Adds warnings (when there are any) and error (when `error` is not ok).
void add_outcome(nlohmann::ordered_json& record, const std::vector<std::string>& warnings, const Status& error);

}  // namespace husk
