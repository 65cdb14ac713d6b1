#include "husk/pipeline.h"

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

Analyzed Pipeline::analyze(const RawPage& page, bool keep_dom) const {
  Analyzed a;
  PageResult& result = a.result;
  result.id = page.id;
  result.url = page.url;
  result.source = page.source;
  result.extractor = std::string(extractor_->name());
  result.input_bytes = page.bytes.size();
  if (!page.error.empty()) {
    result.error = page.error;
    return a;
  }
  if (page.bytes.empty()) {
    result.error = "invalid argument: empty page";
    return a;
  }
  try {
    Decoded decoded = page.is_unicode ? decode_utf8(page.bytes) : decode(page.bytes, page.content_type, options_.decode);
    result.charset = decoded.charset;
    result.warnings = std::move(decoded.warnings);
    Result<Dom> dom = parse(decoded.html, options_.parse);
    if (!dom.ok()) {
      result.error = dom.status().to_string();
      return a;
    }
    for (const std::string& w : dom->warnings()) result.warnings.push_back(w);
    a.blocks = segment(*dom, options_.segment);
    result.title = choose_title(a.blocks);
    if (keep_dom) a.dom.emplace(std::move(*dom));
    a.ok = true;
  } catch (const std::bad_alloc&) {
    result.error = "limit: out of memory";
  } catch (const std::exception& e) {
    result.error = std::string("internal: ") + e.what();
  }
  return a;
}

PageResult Pipeline::finish(Analyzed&& a, Extraction&& extraction) const {
  PageResult result = std::move(a.result);
  if (!a.ok) return result;
  for (std::string& w : extraction.warnings) result.warnings.push_back(std::move(w));
  if (!extraction.extractor.empty()) result.extractor = extraction.extractor;
  CleanText clean = clean_text(a.blocks, extraction);
  result.text = clean.text();
  double all_words = 0, kept_words = 0;
  for (std::size_t i = 0; i < a.blocks.blocks.size(); ++i) {
    all_words += a.blocks.blocks[i].features.words;
    if (i < extraction.keep.size() && extraction.keep[i]) kept_words += a.blocks.blocks[i].features.words;
  }
  result.boilerplate = all_words > 0 ? 1.0 - kept_words / all_words : 0.0;
  return result;
}

Extraction Pipeline::extract(const Analyzed& a) const {
  if (!a.ok) return Extraction{};
  return extractor_->extract(
      PageView{a.blocks, a.dom ? &*a.dom : nullptr, a.result.url, a.result.source.empty() ? a.result.id : a.result.source});
}

PageResult Pipeline::process(const RawPage& page, Blocks* blocks_out, Extraction* extraction_out) const {
  Analyzed a = analyze(page, true);
  Extraction extraction = extract(a);
  Blocks blocks = blocks_out ? a.blocks : Blocks{};
  Extraction labels = extraction_out ? extraction : Extraction{};
  PageResult result = finish(std::move(a), std::move(extraction));
  if (blocks_out) *blocks_out = std::move(blocks);
  if (extraction_out) *extraction_out = std::move(labels);
  return result;
}

}  // namespace husk
