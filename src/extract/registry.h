// Constructors of the extractors, for make_extractor() (husk/extract.h).
#pragma once

#include <memory>

#include "husk/extract.h"

namespace husk {

std::unique_ptr<Extractor> make_fulltext_extractor();
std::unique_ptr<Extractor> make_density_extractor(const ExtractConfig& config);
std::unique_ptr<Extractor> make_xpath_extractor();
// The template extractor; `page_evidence` labels each page alone, beside
// the site's template (extractors/template.h, combine_evidence).
std::unique_ptr<Extractor> make_template_extractor(std::unique_ptr<Extractor> page_evidence);
// Fails when no block model was compiled in, or it does not fit the features.
Result<std::unique_ptr<Extractor>> make_learned_extractor(const ExtractConfig& config);

}  // namespace husk
