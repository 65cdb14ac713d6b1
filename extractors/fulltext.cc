// The fulltext extractor: every visible block. The baseline every other
// extractor has to beat (html-text scores 0.665 F1 on the
// article-extraction-benchmark).
#include "extract/registry.h"

namespace husk {

namespace {

class FulltextExtractor final : public Extractor {
 public:
  std::string_view name() const override { return "fulltext"; }
  Labels extract(const PageView& page) const override {
    Labels out;
    out.keep.assign(page.blocks.blocks.size(), 1);
    return out;
  }
};

}  // namespace

std::unique_ptr<Extractor> make_fulltext_extractor() { return std::make_unique<FulltextExtractor>(); }

}  // namespace husk
