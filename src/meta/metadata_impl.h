// Helpers the metadata sources share (src/meta).
#pragma once

#include <ctime>
#include <string>
#include <string_view>

namespace husk::meta {

// A date in a URL's path ("/2024/05/12/", "/2024-05-12-", "/20240512/")
// as "2024-05-12", or empty.
std::string date_in_url(std::string_view url);

// Whether an ISO date is neither more than a day past `now` nor, unless it
// comes from structured markup, before `min_year`.
bool plausible(std::string_view iso, std::time_t now, int min_year, bool structured);

}  // namespace husk::meta
