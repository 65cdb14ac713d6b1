// The binary signature file: husk sign --format binary writes it, husk
// dedup reads it, a quarter the size of the JSON and read without parsing
// text. JSONL stays the format for people and other tools.
//
//   header   "HUSKSIG\n", u32 version (1), u32 reserved (0)
//   record   u32 payload length, payload, u32 check (low 32 bits of the
//            payload's xxHash64)
//   payload  id, url, title, language (u32 length + UTF-8 each), f64 rank,
//            f64 boilerplate, then the signatures: u32 terms, md5 and
//            imatch (strings), tfidf, long_sent, heavy_sent (u8 present +
//            u32), simhash, simhash_hyperplane (u8 present + u64), lists
//            (u32 count + values) of lexrand pairs, minhash, minhash_bands,
//            shingles, supershingles, spotsigs
// All integers little-endian, as x86-64 and AArch64 Linux store them.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "husk/dedup.h"

namespace husk {

std::string signature_file_header();
// One record appended to `out`.
void append_signature_record(std::string& out, const DedupPage& page);
// One record from the front of `in`, as append_signature_record wrote it
// (husk dedup's ranks send pages to rank 0 so); `in` is advanced past it.
Status take_signature_record(std::string_view& in, DedupPage& page);
// Whether the file starts with the signature file's magic.
bool is_signature_file(const std::string& path);
// Every record, in order; a bad header, a truncated record or a failed
// check is an error naming the file and the byte offset of the record.
Status read_signature_file(const std::string& path, const std::function<void(DedupPage&&)>& each);

}  // namespace husk
