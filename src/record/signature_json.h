// The "sig" object read back from JSON (the inverse of signatures_json), for
// husk dedup and the service.
#pragma once

#include <nlohmann/json.hpp>

#include "husk/sign.h"

namespace husk {

Result<Signatures> signatures_from_json(const nlohmann::json& sig);
// The "sig" object itself (signatures_json() is its text).
nlohmann::ordered_json signatures_to_json(const Signatures& sig);

}  // namespace husk
