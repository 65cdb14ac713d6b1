#include "base/shared_library.h"

namespace husk {

SharedLibrary::SharedLibrary(const char* soname, bool global) : soname_(soname) {
  // RTLD_NOW: a missing symbol is found here, not at the first call.
  handle_ = dlopen(soname, RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
  if (handle_ == nullptr) {
    const char* why = dlerror();
    error_ = soname_ + " cannot be loaded: " + (why != nullptr ? why : "unknown error") +
             " (make deps installs it)";
  }
}

}  // namespace husk
