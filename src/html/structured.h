// What a page says about itself in structured data: the schema.org types
// of its JSON-LD and microdata, og:type, its canonical URL, and the
// product description a shop puts in JSON-LD when its page shows it only
// in a tab a script fills.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "husk/html.h"

namespace husk {

// ---- The schema.org vocabulary ----
//
// One table of the schema.org types husk reads, each with the classes it
// belongs to; every reader (the features, the metadata's choice of the
// main node, the product description) asks it. The classes follow
// schema.org's type hierarchy (https://schema.org/docs/full.html): the
// article class is Article and its subtypes.
enum SchemaClass : uint32_t {
  kSchemaArticle = 1u << 0,       // Article and its subtypes: a story, post, report or paper
  kSchemaWork = 1u << 1,          // a main work that is no article: a review, recipe, how-to
  kSchemaWebPage = 1u << 2,       // WebPage and its subtypes
  kSchemaFurniture = 1u << 3,     // the site, its publisher, a person, an image, the navigation
  kSchemaProduct = 1u << 4,       // Product and its subtypes
  kSchemaOffer = 1u << 5,         // an offer of a product
  kSchemaReview = 1u << 6,        // a review or rating
  kSchemaDiscussion = 1u << 7,    // comments, questions and answers, forum and social posts
  kSchemaBreadcrumb = 1u << 8,    // BreadcrumbList
  kSchemaItemList = 1u << 9,      // ItemList and OfferCatalog
  kSchemaListItem = 1u << 10,     // ListItem
  kSchemaListingPage = 1u << 11,  // a page of items: collections, search results
  kSchemaDocs = 1u << 12,         // documentation and code
  kSchemaOrganization = 1u << 13, // an organization or the service it offers
  kSchemaPagePart = 1u << 14,     // WebPageElement: a marked part of the page (mainContentOfPage)
  kSchemaWebSite = 1u << 15,      // WebSite: the site, whose name is the site's name
};

// "https://schema.org/Product" -> "Product"; "schema:Product" -> "Product".
std::string_view bare_schema_type(std::string_view type);

// The classes of a type, bare or not, matched without regard to case
// (pages write "newsarticle"); 0 for a type husk does not read.
uint32_t schema_classes(std::string_view type);


// The schema.org types and OpenGraph type a page declares, in JSON-LD
// (JsonLd::types), microdata itemtype and og:type ("og:product"), each
// once, bare ("https://schema.org/Product" -> "Product").
std::vector<std::string> declared_types(const Blocks& blocks);

// The URL a page gives for itself: <link rel=canonical>, else og:url.
std::string declared_url(const Blocks& blocks);

// Adds the JSON-LD product description to the blocks when the page's own
// text does not hold most of it: its paragraphs become blocks of one new
// element under <body>, flagged kElemStructured, after the page's blocks.
void add_product_description(Blocks& blocks, const SegmentOptions& options);

}  // namespace husk
