// A shared library opened when a command first needs it (dlopen), not at
// every start of husk. Each library the binary names is loaded, relocated
// and searched for symbols before main() runs, with its own dependencies:
// libcurl brings 29 more (TLS, Kerberos, LDAP, HTTP/2, SSH, IDN), libmicro-
// httpd GnuTLS's, Open MPI a dozen. Most runs never fetch a URL, serve
// HTTP or run under mpirun, and a crawler that runs husk once per fetched
// page pays the start for every page (docs/architecture.md, "Libraries
// opened on use").
#pragma once

#include <dlfcn.h>

#include <string>

namespace husk {

class SharedLibrary {
 public:
  // Opens `soname` (the name the package installs, "libcurl.so.4"). The
  // library stays loaded for the life of the process. `global`: its
  // symbols join the process's global scope, for a library whose own
  // plug-ins look for them there (Open MPI's components).
  explicit SharedLibrary(const char* soname, bool global = false);
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  // Whether the library and every symbol asked for so far were found;
  // error() says which was not.
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  // The function or object `name` as `Pointer` (decltype of the address
  // of what the library's header declares), nullptr when it is missing.
  template <class Pointer>
  Pointer symbol(const char* name) {
    if (handle_ == nullptr) return nullptr;
    void* found = dlsym(handle_, name);
    if (found == nullptr && error_.empty()) error_ = soname_ + " has no " + name;
    return reinterpret_cast<Pointer>(found);
  }

 private:
  std::string soname_;
  void* handle_ = nullptr;
  std::string error_;
};

}  // namespace husk

namespace husk {

// The symbols of one library (a struct holding its SharedLibrary and the
// functions taken from it, each a HUSK_LIBRARY_SYMBOL), opened by the first
// call, whichever thread makes it, and kept for the life of the process.
template <class Library>
const Library& opened() {
  static const Library library;
  return library;
}

}  // namespace husk

// The function or object `name` of `library`, typed as the library's
// header declares it; decltype reads the declaration without a reference
// the linker would have to resolve.
#define HUSK_LIBRARY_SYMBOL(library, name) (library).symbol<decltype(&name)>(#name)
