// husk::Processor: the one entry point (husk/processor.h). The extraction
// cascade is written here once; the CLI, the service and the index call it.
#include "husk/processor.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <new>
#include <optional>
#include <nlohmann/json.hpp>

#include "base/url.h"
#include "extract/comments.h"
#include "extract/features.h"
#include "extract/furniture.h"
#include "extract/page_type.h"
#include "extract/registry.h"
#include "extract/repeats.h"
#include "extract/teasers.h"
#include "record/record.h"
#include "sign/hashing.h"

namespace husk {

namespace {

// Fails a page whose time has run out, its outputs cleared; true then.
bool out_of_time(const Deadline& deadline, uint32_t budget_ms, PageResult& result) {
  if (!deadline.passed()) return false;
  result.status = Status(Code::kTimeout, "the page took more than its " + std::to_string(budget_ms) +
                                             " ms of CPU time (--page-timeout)");
  result.text.clear();
  result.markdown.clear();
  result.html.clear();
  result.signatures.reset();
  return true;
}

// A page with fewer visible words than this and at least this much markup
// in <noscript> is read from its noscript. On WCXB dev, of the pages that
// show under 300 words, those whose noscript is a notice or a tracking
// pixel keep under 700 bytes in it, the script-rendered ones (Discourse
// threads and the like: 0-29 words) over 11 KB.
constexpr uint32_t kScriptShellWords = 100;
constexpr std::size_t kNoscriptPageBytes = 4096;

}  // namespace

// The extraction cascade, after trafilatura's core.py: numbered stages,
// each with an explicit gate, the first whose gate holds labels the page.
//   1. rule      gate: site rules are loaded and one matches the page's URL
//                (or file path), and the page has its Dom
//   2. template  gate: the template store has a model for the page's site
//                group (climbing the path)
//   3. local     the page alone: the learned extractor (density when no
//                block model is compiled in), or the one asked for
// `extractor` picks the stages: auto runs all three; xpath runs 1 and 3
// (warning on pages no rule matches); template runs 2 and 3; learned,
// density and fulltext run 3 alone.
struct Processor::Cascade {
  bool rule_stage = false;
  bool template_stage = false;
  bool warn_without_rule = false;
  std::unique_ptr<Extractor> xpath;
  std::unique_ptr<Extractor> site_template;
  std::unique_ptr<Extractor> local;
  // The page type, from the block features the learned extractor reads
  // too; null when no page-type model is compiled in.
  std::unique_ptr<FeatureExtractor> features;
  std::unique_ptr<Extractor> density;
  std::unique_ptr<PageTyper> typer;
  // The block model, for the quality score of pages another stage labelled:
  // the local stage itself when it is the learned extractor, else its own.
  std::unique_ptr<Extractor> own_scorer;
  const Extractor* scorer = nullptr;
  FurnitureLines furniture;

  // The page's teaser lists come back in `teasers` when reading its shape
  // needed them, for the teaser rule after the cascade to reuse.
  Labels run(const ProcessorOptions& o, const Blocks& blocks, const Dom* dom, std::string_view url,
             std::string_view id, PageType* type, std::optional<Teasers>* teasers, const Deadline& deadline) const {
    PageView view{blocks, dom, url, id};
    view.deadline = deadline;
    PageFeatures page_features;
    if (typer && !blocks.blocks.empty()) {
      page_features = compute_page_features(*features, *density, view);
      view.features = &page_features;
      *type = typer->classify(*features, page_features.rows);
      // The page's shape, read with the prose that is not its own set
      // aside (teasers' leads, furniture, and `more` besides); what it reads
      // is computed once for both tests below.
      std::vector<uint8_t> aside, dates, titled, sentences;
      auto shape_without = [&](const std::vector<uint8_t>& more) {
        if (!*teasers) {
          *teasers = teaser_lists(blocks);
          aside = aside_prose(teaser_leads(**teasers, blocks.blocks.size()),
                              furniture_classes(blocks, furniture, kProseMinWords));
          dates = datelines(blocks);
          titled = title_headlines(blocks);
          sentences = sentence_ends(blocks);
        }
        std::vector<uint8_t> set_aside = aside;
        rule_out(set_aside, more);
        return features->article_shape(page_features.rows, set_aside, dates, titled, sentences);
      };
      if (shape_decides(*type)) *type = settle_type(*type, shape_without({}));
      // A thread under one story is its comments (settle_commented).
      if (taken_for_forum(type->name, type->forum)) {
        const std::vector<uint8_t> in_comments =
            comment_blocks(blocks,
                           comment_sections(blocks, comment_vocabulary(o.extract.families),
                                            o.extract.vocabulary.comment_headings),
                           word_counts(blocks));
        if (std::find(in_comments.begin(), in_comments.end(), 1) != in_comments.end())
          *type = settle_commented(*type, shape_without(in_comments));
      }
      view.page_type = type->name;
      view.article_probability = type->article;
    }
    // 1. rule. A rule that keeps nothing on a page (the site's markup
    // changed, or the rule was written for other pages) does not empty
    // it: the cascade goes on, and the page's warnings say why.
    std::vector<std::string> rule_warnings;
    if (rule_stage && o.sites && dom != nullptr) {
      view.sites = o.sites.get();
      view.rule = o.sites->find(url, id);
      if (view.rule != nullptr) {
        Labels labels = labelled(*xpath, view);
        if (blocks.blocks.empty() || std::find(labels.keep.begin(), labels.keep.end(), 1) != labels.keep.end())
          return labels;
        rule_warnings = std::move(labels.warnings);
        rule_warnings.push_back("the site rule keeps nothing on this page; the cascade goes on without it");
        view.rule = nullptr;
      }
    }
    // 2. template
    std::shared_ptr<const TemplateModel> model;
    if (template_stage && o.templates) model = o.templates->find(url, id);
    Labels labels;
    if (model) {
      view.site_template = model.get();
      labels = labelled(*site_template, view);
    } else {
      // 3. local
      labels = labelled(*local, view);
      if (warn_without_rule && rule_warnings.empty())
        labels.warnings.push_back("no site rule matches this page; " + labels.extractor + " used");
    }
    labels.warnings.insert(labels.warnings.begin(), rule_warnings.begin(), rule_warnings.end());
    if (labels.probability.empty() && scorer && !blocks.blocks.empty())
      labels.probability = scorer->extract(view).probability;
    return labels;
  }

  static Labels labelled(const Extractor& extractor, const PageView& view) {
    Labels labels = extractor.extract(view);
    labels.extractor = std::string(extractor.name());
    return labels;
  }
};

Result<Processor> Processor::make(const ProcessorOptions& options) {
  const std::string& name = options.extractor;
  auto cascade = std::make_shared<Cascade>();
  const bool known = name == "auto" || name == "learned" || name == "density" || name == "fulltext" ||
                     name == "xpath" || name == "template";
  if (!known) {
    Result<std::unique_ptr<Extractor>> unknown = make_extractor(name, options.extract);
    return unknown.ok() ? Status(Code::kInvalidArgument, "extractor \"" + name + "\" cannot run alone") : unknown.status();
  }
  if (options.analysis_only) return Processor(std::make_shared<ProcessorOptions>(options), std::move(cascade));
  cascade->rule_stage = name == "auto" || name == "xpath";
  cascade->template_stage = name == "auto" || name == "template";
  cascade->warn_without_rule = name == "xpath";
  Result<std::unique_ptr<Extractor>> local = make_extractor(name == "fulltext" || name == "density" ? name : "learned",
                                                            options.extract);
  // A block model that does not load or does not fit the features (the
  // built-in one included) is an error, never a silent fall back to
  // density: the page types and the figures husk reports assume it.
  Result<std::unique_ptr<Extractor>> xpath = make_extractor("xpath", options.extract);
  Result<std::unique_ptr<Extractor>> site_template = make_extractor("template", options.extract);
  if (!local.ok()) return local.status();
  if (!xpath.ok()) return xpath.status();
  if (!site_template.ok()) return site_template.status();
  cascade->local = std::move(*local);
  if (cascade->local->name() == "learned") {
    cascade->scorer = cascade->local.get();
  } else {
    Result<std::unique_ptr<Extractor>> scorer = make_extractor("learned", options.extract);
    if (!scorer.ok()) return scorer.status();
    cascade->own_scorer = std::move(*scorer);
    cascade->scorer = cascade->own_scorer.get();
  }
  cascade->xpath = std::move(*xpath);
  cascade->site_template = std::move(*site_template);
  cascade->features = std::make_unique<FeatureExtractor>(options.extract);
  cascade->density = make_density_extractor(options.extract);
  Result<std::unique_ptr<PageTyper>> typer = PageTyper::builtin(*cascade->features);
  if (!typer.ok()) return typer.status();
  cascade->typer = std::move(*typer);
  cascade->furniture = FurnitureLines(options.extract.furniture);
  if (options.sign)
    if (Status st = check_signers(options.signing.signers); !st.ok()) return st;
  auto kept = std::make_shared<ProcessorOptions>(options);
  // Site rules' XPaths may name any attribute or text as written.
  if (kept->sites) kept->parse.trim_markup = false;
  // The Markdown and HTML outputs need the inline markup, and links and
  // images their URLs.
  if (kept->markdown || kept->html) {
    kept->segment.markup |= markup_for(kept->format);
    kept->parse.keep_urls = kept->parse.keep_urls || kept->format.links || kept->format.images;
  }
  return Processor(std::move(kept), std::move(cascade));
}

Processor::Processor(std::shared_ptr<const ProcessorOptions> options, std::shared_ptr<const Cascade> cascade)
    : options_(std::move(options)), cascade_(std::move(cascade)) {}

Document Processor::analyze(const RawPage& page, bool keep_dom) const {
  Document d;
  PageResult& result = d.result;
  d.deadline = Deadline::after(std::chrono::milliseconds(options_->page_timeout_ms));
  result.id = page.id;
  result.url = page.url;
  result.source = page.source;
  if (cascade_->local) result.extractor = std::string(cascade_->local->name());  // until the cascade says which ran
  result.input_bytes = page.bytes.size();
  d.content_language = page.content_language;
  result.http_status = page.http_status;
  if (!page.status.ok()) {
    result.status = page.status;
    return d;
  }
  if (page.bytes.empty()) {
    result.status = Status(Code::kInvalidArgument, "empty page");
    return d;
  }
  if (!page.is_unicode && looks_binary(page.bytes, page.content_type)) {
    result.status = Status(Code::kUnsupported, "binary content, not an HTML page (a NUL byte or a PDF header in its first 4 KB)");
    return d;
  }
  // Third-party code (the charset converter, the parser's allocations)
  // may throw; what it throws becomes this page's error.
  try {
    const ProcessorOptions& o = *options_;
    Decoded decoded = page.is_unicode ? decode_utf8(page.bytes) : decode(page.bytes, page.content_type, o.decode);
    result.charset = decoded.charset;
    result.warnings = std::move(decoded.warnings);
    if (out_of_time(d.deadline, options_->page_timeout_ms, result)) return d;
    Result<Dom> dom = parse(decoded.html, o.parse);
    if (!dom.ok()) {
      result.status = dom.status();
      return d;
    }
    if (out_of_time(d.deadline, options_->page_timeout_ms, result)) return d;
    d.blocks = segment(*dom, o.segment);
    // A page rendered by script shows crawlers its server-rendered copy in
    // <noscript> (forum software does): when the page alone has almost no
    // text and its noscript holds markup, that markup is the page.
    if (visible_words(d.blocks) < kScriptShellWords && dom->noscript_bytes() >= kNoscriptPageBytes) {
      ParseOptions unwrapped = o.parse;
      unwrapped.unwrap_noscript = true;
      Result<Dom> again = parse(decoded.html, unwrapped);
      if (again.ok()) {
        Blocks blocks = segment(*again, o.segment);
        if (visible_words(blocks) > visible_words(d.blocks)) {
          d.blocks = std::move(blocks);
          dom = std::move(again);
          result.warnings.push_back("the page's text is in <noscript>");
        }
      }
    }
    // Script-revealed text: a page that still shows almost nothing, read
    // with its hidden elements.
    if (visible_words(d.blocks) < kScriptShellWords) {
      SegmentOptions revealed = o.segment;
      revealed.keep_hidden = true;
      Blocks blocks = segment(*dom, revealed);
      if (visible_words(blocks) > visible_words(d.blocks)) {
        d.blocks = std::move(blocks);
        result.warnings.push_back("the page's text is hidden until a script shows it");
      }
    }
    for (const std::string& w : dom->warnings()) result.warnings.push_back(w);
    if (out_of_time(d.deadline, options_->page_timeout_ms, result)) return d;
    if (keep_dom) d.dom.emplace(std::move(*dom));
    d.deadline.pause();
  } catch (const std::bad_alloc&) {
    result.status = Status(Code::kLimit, "out of memory");
  } catch (const std::exception& e) {
    result.status = Status(Code::kInternal, e.what());
  }
  return d;
}

PageResult Processor::finish(Document&& d, Trace* trace) const {
  d.deadline.resume();
  PageResult result = std::move(d.result);
  auto expired = [&] { return out_of_time(d.deadline, options_->page_timeout_ms, result); };
  if (!result.status.ok() || expired()) return result;
  if (!cascade_->local) {
    result.status = Status(Code::kInvalidArgument, "this processor only analyses pages (analysis_only)");
    return result;
  }
  try {
    const ProcessorOptions& o = *options_;
    std::string_view path = result.source.empty() ? std::string_view(result.id) : std::string_view(result.source);
    PageType type;
    std::optional<Teasers> teaser_list;
    Labels labels =
        cascade_->run(o, d.blocks, d.dom ? &*d.dom : nullptr, result.url, path, &type, &teaser_list, d.deadline);
    if (expired()) return result;
    result.page_type = std::move(type.name);
    for (std::string& w : labels.warnings) result.warnings.push_back(std::move(w));
    result.extractor = labels.extractor;
    // Page furniture leaves the text whatever kept it.
    std::vector<uint8_t> furniture = take_out_furniture(d.blocks, cascade_->furniture, labels.keep);
    // Link lines leave what the stages that judge blocks by their own
    // cues kept (the learned model, density); a site rule or a stored
    // template is the site's own structure, which outranks a generic cue,
    // and fulltext keeps every visible line by its promise.
    // So do the leads of the other stories' teasers listed beside the
    // article.
    const std::vector<double> words = word_counts(d.blocks);
    std::vector<uint8_t> link_lines, teasers;
    if ((labels.extractor == "learned" || labels.extractor == "density") && sure_article(result.page_type, type.article)) {
      link_lines = take_out_link_lines(d.blocks, labels.keep);
      if (!teaser_list) teaser_list = teaser_lists(d.blocks);
      teasers = take_out_teasers(*teaser_list, words, labels.keep);
    }
    // The user comments: out of the text, and returned apart when asked.
    // On a forum the posts are the content.
    std::vector<uint8_t> taken_out;  // blocks the stage kept that the comment rule took out
    std::vector<uint8_t> in_comments;
    if (!taken_for_forum(result.page_type, type.forum)) {
      if (trace != nullptr) taken_out = labels.keep;
      in_comments = take_out_comments(comment_sections(d.blocks, comment_vocabulary(o.extract.families),
                                                       o.extract.vocabulary.comment_headings), words,
                                      labels.keep);
      for (std::size_t i = 0; i < taken_out.size(); ++i)
        taken_out[i] = taken_out[i] && i < in_comments.size() && in_comments[i];
      if (o.comments) result.comments = comment_text(d.blocks, in_comments);
    }
    // A passage the page carries twice is read once.
    std::vector<uint32_t> repeats = take_out_repeats(repeat_keys(d.blocks), words, labels.keep);
    result.text = kept_text(d.blocks, labels);
    std::vector<uint8_t> ruled_out = teasers;
    rule_out(ruled_out, in_comments);
    rule_out(ruled_out, furniture);
    result.quality = text_quality(labels.probability, labels.keep, words, ruled_out);
    result.metadata = extract_metadata(d.blocks, labels.keep, result.url, o.metadata, result.page_type);
    result.title = result.metadata.title;
    result.language = identify_language(result.text, d.blocks.lang, d.content_language);
    if (expired()) return result;
    if (o.markdown || o.html) {
      FormatOptions format = o.format;
      format.base_url = d.blocks.facts.base.empty() ? result.url : resolve_url(result.url, d.blocks.facts.base);
      if (o.markdown) result.markdown = to_markdown(d.blocks, labels.keep, format);
      if (o.html) result.html = to_html(d.blocks, labels.keep, format, result.title);
    }
    double all_words = 0, kept_words = 0;
    for (std::size_t i = 0; i < d.blocks.blocks.size(); ++i) {
      all_words += d.blocks.blocks[i].features.words;
      if (i < labels.keep.size() && labels.keep[i]) kept_words += d.blocks.blocks[i].features.words;
    }
    result.boilerplate = all_words > 0 ? 1.0 - kept_words / all_words : 0.0;
    if (expired()) return result;
    if (o.sign) {
      Signatures s = sign(result.text);
      if (s.terms > 0) result.signatures = std::move(s);
    }
    if (expired()) return result;
    if (trace != nullptr) {
      trace->blocks = std::move(d.blocks);
      trace->labels = std::move(labels);
      trace->comments = std::move(taken_out);
      trace->repeats = std::move(repeats);
      trace->furniture.assign(furniture.size(), std::string());
      for (std::size_t i = 0; i < furniture.size(); ++i)
        trace->furniture[i] = std::string(cascade_->furniture.name(furniture[i]));
      // The rules after the furniture name the blocks they took out.
      auto name_taken = [&](const std::vector<uint8_t>& taken, std::string_view rule) {
        for (std::size_t i = 0; i < taken.size() && i < trace->furniture.size(); ++i)
          if (taken[i]) trace->furniture[i] = std::string(rule);
      };
      name_taken(link_lines, kLinkLineClass);
      name_taken(teasers, kTeaserClass);
      trace->dom = std::move(d.dom);
      trace->classified_as = std::move(type.classified_as);
      trace->classified_article = type.classified_article;
      trace->comments_aside = type.comments_aside;
    }
  } catch (const std::bad_alloc&) {
    result.status = Status(Code::kLimit, "out of memory");
    result.text.clear();
    result.signatures.reset();
  } catch (const std::exception& e) {
    result.status = Status(Code::kInternal, e.what());
    result.text.clear();
    result.signatures.reset();
  }
  return result;
}

PageResult Processor::process(const RawPage& page, Trace* trace) const {
  if (page.id.empty()) {
    RawPage named = page;
    named.id = page_id(page.url, page.bytes);
    return finish(analyze(named, true), trace);
  }
  return finish(analyze(page, true), trace);
}

PageResult Processor::process(std::string_view url, std::string_view bytes, std::string_view content_type) const {
  RawPage page;
  page.url = std::string(url);
  page.bytes = std::string(bytes);
  page.content_type = std::string(content_type);
  page.id = page_id(url, bytes);
  return process(page);
}

Signatures Processor::sign(std::string_view text) const {
  const ProcessorOptions& o = *options_;
  return husk::sign(normalize(text, o.signing.normalize), o.signing, o.stats.get());
}

std::string page_id(std::string_view url, std::string_view bytes) {
  return hex64(xxh64(url.empty() ? bytes : url, url.empty() ? 0x6279746573ull : 0x75726cull));
}

std::string to_jsonl(const PageResult& r) {
  nlohmann::ordered_json j = page_record(r);
  add_outcome(j, r.warnings, r.status);
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace husk
