// A page's JSON record, written once from the field table of
// husk/record.h: husk extract's JSONL (husk::to_jsonl), Python's dict, the
// service's and the hook's answers and the record the index stores (GET
// /v1/pages/ID, husk db export) are each page_record, with the index's
// verdict (add_verdict) where there is one and the page's outcome
// (add_outcome) where it is answered. A field added to the table reaches
// every one of them. The cluster and pair lines of husk dedup, the
// service's cluster answer and Python's clusters are written here too.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "husk/index.h"
#include "husk/record.h"
#include "husk/processor.h"

namespace husk {

// The page part of the record (RecordPart::kPage), text left out when
// !with_text (the service's answers with text=false).
nlohmann::ordered_json page_record(const PageResult& page, bool with_text = true);

// Adds sig (null without signatures), duplicate_of ({id, url, measure,
// score} and with containment "contained", or null) and cluster (null
// without a verdict).
void add_verdict(nlohmann::ordered_json& record, const std::optional<Signatures>& signatures, const Verdict* verdict);
// Sets duplicate_of and cluster alone: the index rewrites a stored record's
// verdict when the cluster table changes under it.
void put_verdict(nlohmann::ordered_json& record, const Verdict* verdict);

// Adds warnings (when there are any) and error (when `error` is not ok).
void add_outcome(nlohmann::ordered_json& record, const std::vector<std::string>& warnings, const Status& error);

// One cluster: {cluster, size, main, members, urls}. `cluster` is husk
// dedup's number or the index's id; urls (each member's, so that a WARC
// record id can be acted on) are left out when null: the index keeps
// none for members.
nlohmann::ordered_json cluster_record(const nlohmann::ordered_json& cluster, const std::string& main,
                                      const std::vector<std::string>& members,
                                      const std::vector<std::string>* urls);

// A verified pair, with its measure by name next to its value; with
// containment, "contained" names the member (a or b, `contained` 1 or 2)
// whose text the other's holds.
nlohmann::ordered_json pair_record(const std::string& a, const std::string& b, const std::string& url_a,
                                   const std::string& url_b, const std::string& measure, float score,
                                   uint8_t contained);

// A record as one JSON line: invalid UTF-8 replaced, newline-terminated.
std::string json_line(const nlohmann::ordered_json& record);

}  // namespace husk
