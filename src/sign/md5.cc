// md5: MD5 of the normalised text, the exact-duplicate baseline (Sergukova's lecture:
// "very precise, but sensitive to any change of the text").
#include "sign/context.h"
#include "sign/hashing.h"

namespace husk {

const Signer kMd5Signer{"md5", [](SignContext& c, Signatures& out) { out.md5 = md5_hex(c.text.joined()); }};

}  // namespace husk
