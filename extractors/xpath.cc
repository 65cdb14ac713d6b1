// The xpath extractor: an operator's rule for the page's site, applied
// through the shared XPath page (extract/xpath_page.h).
#include "extract/registry.h"
#include "extract/xpath_page.h"

namespace husk {

namespace {

class XpathExtractor final : public Extractor {
 public:
  std::string_view name() const override { return "xpath"; }

  // The cascade hands over a page only with its rule and Dom.
  Labels extract(const PageView& page) const override {
    if (page.rule == nullptr || page.sites == nullptr || page.dom == nullptr) return Labels{};
    const SiteRules::Compiled& c = page.sites->compiled(*page.rule);
    return XpathPage(page.blocks, *page.dom)
        .select(c.include, c.exclude, page.rule->include, page.rule->exclude,
                page.rule->file + ":" + std::to_string(page.rule->line));
  }
};

}  // namespace

std::unique_ptr<Extractor> make_xpath_extractor() { return std::make_unique<XpathExtractor>(); }

}  // namespace husk
