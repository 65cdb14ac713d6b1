// Option parsing shared by husk dedup and husk eval dedup.
#pragma once

#include <string>

#include "husk/dedup.h"
#include "husk/status.h"

namespace husk::cli {

Result<ClusterMethod> parse_cluster_method(const std::string& name);
Result<MainPage> parse_main_page(const std::string& name);

}  // namespace husk::cli
