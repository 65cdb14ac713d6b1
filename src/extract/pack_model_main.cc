// Packs a model for husk's binary at build time: reads XGBoost's UBJSON
// (or JSON) as husk does and writes TreeModel::packed(), which the binary
// reads back without parsing XGBoost's format (src/extract/model.h).
// Usage: husk_pack_model MODEL OUT; a MODEL that does not exist (no model
// trained yet) gives an empty OUT, which husk reports when it needs it.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "extract/model.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: husk_pack_model MODEL OUT\n");
    return 2;
  }
  std::string packed;
  if (std::filesystem::exists(argv[1])) {
    std::ifstream in(argv[1], std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto model = husk::TreeModel::load(bytes, argv[1]);
    if (!model.ok()) {
      std::fprintf(stderr, "husk_pack_model: %s\n", model.status().message().c_str());
      return 1;
    }
    packed = (*model)->packed();
  }
  std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
  out << packed;
  if (!out.flush()) {
    std::fprintf(stderr, "husk_pack_model: %s: write failed\n", argv[2]);
    return 1;
  }
  return 0;
}
