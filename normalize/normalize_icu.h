// normalize() with every paragraph through ICU's iterators, the ASCII path
// left out: the twin the ASCII path is tested against (normalize.cc).
#pragma once

#include <string_view>

#include "husk/normalize.h"

namespace husk {

NormalizedText normalize_by_icu(std::string_view text, const NormalizeOptions& options = {});

}  // namespace husk
