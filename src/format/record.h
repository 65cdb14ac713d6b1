// The metadata fields of a page's JSON record, shared by husk extract's
// JSONL (husk::to_jsonl) and the service's answers: each field null when
// the page does not say.
#pragma once

#include <nlohmann/json.hpp>

#include "husk/processor.h"

namespace husk {

// Adds page_type, author, date_published, date_modified, sitename,
// description, language, language_confidence, canonical_url, image, tags,
// categories and license to `record`, in that order.
void add_metadata(nlohmann::ordered_json& record, const PageResult& page);

}  // namespace husk
