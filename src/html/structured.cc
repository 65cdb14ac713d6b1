#include "html/structured.h"

#include <algorithm>
#include <functional>
#include <unordered_set>

#include "base/text_util.h"
#include "html/json_ld.h"

namespace husk {

namespace {

struct SchemaType {
  std::string_view name;
  uint32_t classes;
};

// Each type once. Articles: schema.org's Article subtree; the discussion
// types are also articles where schema.org puts them (SocialMediaPosting).
constexpr SchemaType kSchemaTypes[] = {
    {"Article", kSchemaArticle},
    {"AdvertiserContentArticle", kSchemaArticle},
    {"NewsArticle", kSchemaArticle},
    {"AnalysisNewsArticle", kSchemaArticle},
    {"AskPublicNewsArticle", kSchemaArticle},
    {"BackgroundNewsArticle", kSchemaArticle},
    {"OpinionNewsArticle", kSchemaArticle},
    {"ReportageNewsArticle", kSchemaArticle},
    {"ReviewNewsArticle", kSchemaArticle},
    {"Report", kSchemaArticle},
    {"SatiricalArticle", kSchemaArticle},
    {"ScholarlyArticle", kSchemaArticle},
    {"MedicalScholarlyArticle", kSchemaArticle},
    {"SocialMediaPosting", kSchemaArticle | kSchemaDiscussion},
    {"BlogPosting", kSchemaArticle},
    {"LiveBlogPosting", kSchemaArticle},
    {"DiscussionForumPosting", kSchemaArticle | kSchemaDiscussion},
    {"TechArticle", kSchemaArticle | kSchemaDocs},
    {"APIReference", kSchemaArticle | kSchemaDocs},
    {"Review", kSchemaWork | kSchemaReview},
    {"Recipe", kSchemaWork},
    {"HowTo", kSchemaWork | kSchemaDocs},
    {"Guide", kSchemaWork},
    {"SoftwareSourceCode", kSchemaDocs},
    {"WebPage", kSchemaWebPage},
    {"ItemPage", kSchemaWebPage},
    {"AboutPage", kSchemaWebPage},
    {"FAQPage", kSchemaWebPage},
    {"ProfilePage", kSchemaWebPage},
    {"QAPage", kSchemaWebPage | kSchemaDiscussion},
    {"MedicalWebPage", kSchemaWebPage},
    {"ContactPage", kSchemaWebPage},
    {"CheckoutPage", kSchemaWebPage},
    {"RealEstateListing", kSchemaWebPage},
    {"CollectionPage", kSchemaWebPage | kSchemaListingPage},
    {"SearchResultsPage", kSchemaWebPage | kSchemaListingPage},
    {"WebSite", kSchemaFurniture | kSchemaWebSite},
    {"Person", kSchemaFurniture},
    {"ImageObject", kSchemaFurniture},
    {"SiteNavigationElement", kSchemaFurniture},
    {"BreadcrumbList", kSchemaFurniture | kSchemaBreadcrumb},
    {"Organization", kSchemaFurniture | kSchemaOrganization},
    {"Corporation", kSchemaOrganization},
    {"LocalBusiness", kSchemaOrganization},
    {"ProfessionalService", kSchemaOrganization},
    {"FinancialService", kSchemaOrganization},
    {"LegalService", kSchemaOrganization},
    {"Service", kSchemaOrganization},
    {"Product", kSchemaProduct},
    {"ProductGroup", kSchemaProduct},
    {"IndividualProduct", kSchemaProduct},
    {"Offer", kSchemaOffer},
    {"AggregateOffer", kSchemaOffer},
    {"OfferCatalog", kSchemaItemList},
    {"ItemList", kSchemaItemList},
    {"ListItem", kSchemaListItem},
    {"AggregateRating", kSchemaReview},
    {"Rating", kSchemaReview},
    {"Comment", kSchemaDiscussion},
    {"Answer", kSchemaDiscussion},
    {"Question", kSchemaDiscussion},
    {"UserComments", kSchemaDiscussion},
    {"WebPageElement", kSchemaPagePart},
};

// Hashes of the word 3-grams of a text (its words as the segmenter
// collapsed them), one word alone when it has fewer than three.
void word_grams(std::string_view text, std::vector<uint64_t>& out) {
  std::vector<uint64_t> words;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t j = text.find(' ', i);
    if (j == std::string_view::npos) j = text.size();
    if (j > i) words.push_back(std::hash<std::string_view>{}(text.substr(i, j - i)));
    i = j + 1;
  }
  if (words.size() < 3) {
    out.insert(out.end(), words.begin(), words.end());
    return;
  }
  for (std::size_t i = 0; i + 2 < words.size(); ++i)
    out.push_back(words[i] ^ (words[i + 1] * 0x9E3779B97F4A7C15ull) ^ (words[i + 2] * 0xC2B2AE3D27D4EB4Full));
}

// A description longer than this is not a product's description.
constexpr std::size_t kMaxDescriptionBytes = 64 * 1024;
// Below this many words it adds nothing a title would not.
constexpr std::size_t kMinDescriptionWords = 8;
// The page shows it when this share of its 3-grams is in the page's text.
constexpr double kShownShare = 0.5;

}  // namespace

std::string_view bare_schema_type(std::string_view type) {
  if (std::size_t slash = type.find_last_of("/#:"); slash != std::string_view::npos) type.remove_prefix(slash + 1);
  return type;
}

uint32_t schema_classes(std::string_view type) {
  type = bare_schema_type(type);
  for (const SchemaType& t : kSchemaTypes)
    if (iequals(t.name, type)) return t.classes;
  return 0;
}

std::vector<std::string> declared_types(const Blocks& blocks) {
  std::vector<std::string> raw = json_ld_of(blocks).types();
  for (const std::string& t : blocks.schema_types) raw.push_back(t);
  for (const auto& [key, value] : blocks.meta)
    if (key == "og:type") raw.push_back("og:" + ascii_lower(value));
  std::vector<std::string> out;
  for (std::string& t : raw) {
    std::string bare = t.rfind("og:", 0) == 0 ? t : std::string(bare_schema_type(t));
    if (!bare.empty() && std::find(out.begin(), out.end(), bare) == out.end()) out.push_back(std::move(bare));
  }
  return out;
}

std::string declared_url(const Blocks& blocks) {
  if (!blocks.canonical.empty()) return blocks.canonical;
  for (const auto& [key, value] : blocks.meta)
    if (key == "og:url") return value;
  return {};
}

void add_product_description(Blocks& blocks, const SegmentOptions& options) {
  if (blocks.elements.empty()) return;
  std::string description = json_ld_of(blocks).product_description();
  if (description.empty() || description.size() > kMaxDescriptionBytes) return;
  // The description may hold markup or entities; either way the
  // segmenter makes blocks of it, paragraphs and lists as on a page.
  Result<Dom> dom = parse("<body>" + description + "</body>");
  if (!dom.ok()) return;
  SegmentOptions inner = options;
  inner.product_description = false;
  Blocks parsed = segment(*dom, inner);
  std::size_t words = 0;
  std::vector<uint64_t> grams;
  for (const Block& b : parsed.blocks) {
    words += b.features.words;
    word_grams(b.text, grams);
  }
  if (words < kMinDescriptionWords) return;
  std::vector<uint64_t> page;
  for (const Block& b : blocks.blocks) word_grams(b.text, page);
  std::unordered_set<uint64_t> shown(page.begin(), page.end());
  std::size_t found = 0;
  for (uint64_t g : grams) found += shown.count(g);
  if (static_cast<double>(found) >= kShownShare * static_cast<double>(grams.size())) return;

  Element wrapper;
  wrapper.parent = 0;
  wrapper.tag = Tag::kDiv;
  wrapper.depth = 1;
  wrapper.flags = kElemStructured | kElemDescription;
  wrapper.first_block = static_cast<uint32_t>(blocks.blocks.size());
  const auto index = static_cast<uint32_t>(blocks.elements.size());
  for (Block& b : parsed.blocks) {
    b.element = index;
    b.features.position = static_cast<uint32_t>(blocks.blocks.size());
    blocks.blocks.push_back(std::move(b));
  }
  wrapper.end_block = static_cast<uint32_t>(blocks.blocks.size());
  blocks.elements.push_back(std::move(wrapper));
  blocks.elements[0].end_block = static_cast<uint32_t>(blocks.blocks.size());
}

}  // namespace husk
