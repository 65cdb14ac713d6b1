#include "extractors/registry.h"

#include "husk/site_rules.h"

namespace husk {

std::vector<std::string> extractor_names() { return {"auto", "density", "fulltext", "xpath"}; }

Result<std::unique_ptr<Extractor>> make_extractor(std::string_view name, const ExtractConfig& config) {
  if (name == "density") return make_density_extractor(config);
  // auto: a site rule when one matches the page, else density (the xpath
  // extractor falls back to density itself).
  if (name == "auto")
    return config.sites && !config.sites->rules().empty() ? make_xpath_extractor(config, false)
                                                          : make_density_extractor(config);
  if (name == "xpath") return make_xpath_extractor(config, true);
  if (name == "fulltext") return make_fulltext_extractor();
  std::string known;
  for (const std::string& n : extractor_names()) known += (known.empty() ? "" : ", ") + n;
  return Status(Code::kInvalidArgument, "unknown extractor \"" + std::string(name) + "\" (known: " + known + ")");
}

}  // namespace husk
