#include "extract/xgboost_library.h"

namespace husk {

const XGBoostLibrary& xgboost() {
  const XGBoostLibrary& library = opened<XGBoostLibrary>();
  static const bool quiet = library.library.ok() && library.set_global_config("{\"verbosity\": 0}") == 0;
  static_cast<void>(quiet);
  return library;
}

Status xgboost_loaded() {
  const XGBoostLibrary& x = xgboost();
  return x.library.ok() ? Status() : Status(Code::kUnsupported, x.library.error());
}

Status xgboost_error(const std::string& what) {
  return Status(Code::kInternal, what + ": " + xgboost().get_last_error());
}

}  // namespace husk
