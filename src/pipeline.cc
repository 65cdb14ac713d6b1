#include "husk/pipeline.h"

#include <cmath>
#include <exception>
#include <nlohmann/json.hpp>

namespace husk {

std::string to_jsonl(const PageResult& r) {
  nlohmann::ordered_json j;
  j["id"] = r.id;
  j["url"] = r.url;
  j["title"] = r.title;
  j["text"] = r.text;
  j["extractor"] = r.extractor;
  j["boilerplate"] = std::round(r.boilerplate * 10000.0) / 10000.0;
  if (!r.error.empty()) j["error"] = r.error;
  if (!r.warnings.empty()) j["warnings"] = r.warnings;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Result<Pipeline> Pipeline::make(const PipelineOptions& options) {
  auto extractor = make_extractor(options.extractor, options.config);
  if (!extractor.ok()) return extractor.status();
  return Pipeline(options, std::shared_ptr<const Extractor>(std::move(*extractor)));
}

Pipeline::Pipeline(const PipelineOptions& options, std::shared_ptr<const Extractor> extractor)
    : options_(options), extractor_(std::move(extractor)) {}

PageResult Pipeline::process(const RawPage& page) const { return process(page, nullptr, nullptr); }

PageResult Pipeline::process(const RawPage& page, Blocks* blocks_out, Extraction* extraction_out) const {
  PageResult result;
  result.id = page.id;
  result.url = page.url;
  result.extractor = std::string(extractor_->name());
  result.input_bytes = page.bytes.size();
  if (!page.error.empty()) {
    result.error = page.error;
    return result;
  }
  if (page.bytes.empty()) {
    result.error = "invalid argument: empty page";
    return result;
  }
  try {
    Decoded decoded = page.is_unicode ? decode_utf8(page.bytes) : decode(page.bytes, page.content_type, options_.decode);
    result.charset = decoded.charset;
    result.warnings = std::move(decoded.warnings);
    Result<Dom> dom = parse(decoded.html, options_.parse);
    if (!dom.ok()) {
      result.error = dom.status().to_string();
      return result;
    }
    for (const std::string& w : dom->warnings()) result.warnings.push_back(w);
    Blocks blocks = segment(*dom, options_.segment);
    Extraction extraction = extractor_->extract(PageView{blocks, &*dom, page.url, page.id});
    for (std::string& w : extraction.warnings) result.warnings.push_back(std::move(w));
    if (!extraction.extractor.empty()) result.extractor = extraction.extractor;
    CleanText clean = clean_text(blocks, extraction);
    double all_words = 0, kept_words = 0;
    for (std::size_t i = 0; i < blocks.blocks.size(); ++i) {
      all_words += blocks.blocks[i].features.words;
      if (i < extraction.keep.size() && extraction.keep[i]) kept_words += blocks.blocks[i].features.words;
    }
    result.boilerplate = all_words > 0 ? 1.0 - kept_words / all_words : 0.0;
    result.title = std::move(clean.title);
    result.text = clean.text();
    if (blocks_out != nullptr) *blocks_out = std::move(blocks);
    if (extraction_out != nullptr) *extraction_out = std::move(extraction);
  } catch (const std::bad_alloc&) {
    result = PageResult{};
    result.id = page.id;
    result.url = page.url;
    result.extractor = std::string(extractor_->name());
    result.error = "limit: out of memory";
    result.input_bytes = page.bytes.size();
  } catch (const std::exception& e) {
    result.title.clear();
    result.text.clear();
    result.error = std::string("internal: ") + e.what();
  }
  return result;
}

}  // namespace husk
