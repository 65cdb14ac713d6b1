#include <gumbo.h>

#include <cstring>

#include "html/dom_impl.h"
#include "html/prescan.h"

namespace husk {

void* Arena::allocate(std::size_t size) {
  size = (size + 15) & ~static_cast<std::size_t>(15);
  if (size > kChunk / 4) {
    // Large blocks (long text buffers) get a chunk of their own; the
    // current chunk's free space stays in use.
    chunks_.emplace_back(new char[size]);
    return chunks_.back().get();
  }
  if (size > left_) {
    chunks_.emplace_back(new char[kChunk]);
    next_ = chunks_.back().get();
    left_ = kChunk;
  }
  void* p = next_;
  next_ += size;
  left_ -= size;
  return p;
}

namespace {

void* arena_allocate(void* userdata, size_t size) {
  return static_cast<Arena*>(userdata)->allocate(size);
}

void arena_free(void*, void*) {}

}  // namespace

Dom::Dom(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Dom::~Dom() = default;
Dom::Dom(Dom&&) noexcept = default;
Dom& Dom::operator=(Dom&&) noexcept = default;

const std::vector<std::string>& Dom::warnings() const { return impl_->warnings; }
const std::vector<std::string>& Dom::json_ld() const { return impl_->json_ld; }
std::size_t Dom::noscript_bytes() const { return impl_->noscript_bytes; }

uint32_t count_elements(const GumboNode* node) {
  uint32_t count = 0;
  std::vector<const GumboNode*> stack{node};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type != GUMBO_NODE_ELEMENT && n->type != GUMBO_NODE_TEMPLATE) continue;
    ++count;
    const GumboVector& kids = n->v.element.children;
    for (unsigned i = 0; i < kids.length; ++i) stack.push_back(static_cast<const GumboNode*>(kids.data[i]));
  }
  return count;
}

Result<Dom> parse(std::string_view html, const ParseOptions& options) {
  auto impl = std::make_unique<Dom::Impl>();
  Prescanned pre = prescan(html, options);
  impl->html = std::move(pre.html);
  impl->warnings = std::move(pre.warnings);
  impl->json_ld = std::move(pre.json_ld);
  impl->noscript_bytes = pre.noscript_bytes;
  GumboOptions gumbo = kGumboDefaultOptions;
  gumbo.allocator = arena_allocate;
  gumbo.deallocator = arena_free;
  gumbo.userdata = &impl->arena;
  gumbo.max_errors = 0;  // parse errors are not used; recording them costs time
  impl->output = gumbo_parse_with_options(&gumbo, impl->html.data(), impl->html.size());
  if (impl->output == nullptr || impl->output->root == nullptr)
    return Status(Code::kCorrupt, "HTML parser produced no document");
  if (impl->output->root->type != GUMBO_NODE_ELEMENT)
    return Status(Code::kCorrupt, "HTML parser produced no <html> element");
  return Dom(std::move(impl));
}

std::string decode_character_references(std::string_view text) {
  if (text.find('&') == std::string_view::npos) return std::string(text);
  // The text as a <textarea>'s: escapable raw text, whose character
  // references the tokenizer decodes by HTML5's whole table while markup
  // stays text. The newline after the start tag is the one the parser
  // drops; an end tag inside the text is escaped so that it stays text.
  std::string html = "<textarea>\n";
  html.reserve(text.size() + 32);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') html += "&lt;";
    else html.push_back(text[i]);
  }
  html += "</textarea>";
  GumboOutput* output = gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size());
  std::string out;
  const GumboNode* node = output != nullptr ? output->root : nullptr;
  for (GumboTag tag : {GUMBO_TAG_BODY, GUMBO_TAG_TEXTAREA}) {
    const GumboNode* next = nullptr;
    if (node != nullptr && node->type == GUMBO_NODE_ELEMENT)
      for (unsigned i = 0; i < node->v.element.children.length && next == nullptr; ++i) {
        const auto* kid = static_cast<const GumboNode*>(node->v.element.children.data[i]);
        if (kid->type == GUMBO_NODE_ELEMENT && kid->v.element.tag == tag) next = kid;
      }
    node = next;
  }
  if (node != nullptr)
    for (unsigned i = 0; i < node->v.element.children.length; ++i) {
      const auto* kid = static_cast<const GumboNode*>(node->v.element.children.data[i]);
      if (kid->type == GUMBO_NODE_TEXT) out += kid->v.text.text;
    }
  if (output != nullptr) gumbo_destroy_output(&kGumboDefaultOptions, output);
  return node != nullptr ? out : std::string(text);
}

}  // namespace husk
