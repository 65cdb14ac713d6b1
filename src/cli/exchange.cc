#include "cli/exchange.h"

#include <climits>
#include <cstdlib>

#ifdef HUSK_WITH_MPI
#include <mpi.h>

#include "base/shared_library.h"
#endif

namespace husk::cli {

bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
    if (std::getenv(name)) return true;
  return false;
}

#ifdef HUSK_WITH_MPI

namespace {

// Open MPI, opened only under an MPI launcher (base/shared_library.h): no
// other run loads it or the dozen libraries it brings. Its components look
// for libmpi's symbols in the process's global scope, so it joins it. The
// predefined communicator, datatypes and operation are objects its header
// names (MPI_COMM_WORLD is &ompi_mpi_comm_world), taken like its functions.
struct Mpi {
  SharedLibrary library{"libmpi.so.40", /*global=*/true};
  decltype(&MPI_Init_thread) init_thread = HUSK_LIBRARY_SYMBOL(library, MPI_Init_thread);
  decltype(&MPI_Initialized) initialized = HUSK_LIBRARY_SYMBOL(library, MPI_Initialized);
  decltype(&MPI_Finalized) finalized = HUSK_LIBRARY_SYMBOL(library, MPI_Finalized);
  decltype(&MPI_Finalize) finalize = HUSK_LIBRARY_SYMBOL(library, MPI_Finalize);
  decltype(&MPI_Abort) abort = HUSK_LIBRARY_SYMBOL(library, MPI_Abort);
  decltype(&MPI_Comm_rank) comm_rank = HUSK_LIBRARY_SYMBOL(library, MPI_Comm_rank);
  decltype(&MPI_Comm_size) comm_size = HUSK_LIBRARY_SYMBOL(library, MPI_Comm_size);
  decltype(&MPI_Alltoall) alltoall = HUSK_LIBRARY_SYMBOL(library, MPI_Alltoall);
  decltype(&MPI_Allreduce) allreduce = HUSK_LIBRARY_SYMBOL(library, MPI_Allreduce);
  decltype(&MPI_Irecv) irecv = HUSK_LIBRARY_SYMBOL(library, MPI_Irecv);
  decltype(&MPI_Isend) isend = HUSK_LIBRARY_SYMBOL(library, MPI_Isend);
  decltype(&MPI_Waitall) waitall = HUSK_LIBRARY_SYMBOL(library, MPI_Waitall);
  MPI_Comm world = static_cast<MPI_Comm>(static_cast<void*>(HUSK_LIBRARY_SYMBOL(library, ompi_mpi_comm_world)));
  MPI_Datatype byte = static_cast<MPI_Datatype>(static_cast<void*>(HUSK_LIBRARY_SYMBOL(library, ompi_mpi_byte)));
  MPI_Datatype uint64 = static_cast<MPI_Datatype>(static_cast<void*>(HUSK_LIBRARY_SYMBOL(library, ompi_mpi_uint64_t)));
  MPI_Op sum = static_cast<MPI_Op>(static_cast<void*>(HUSK_LIBRARY_SYMBOL(library, ompi_mpi_op_sum)));
};

const Mpi& mpi() { return opened<Mpi>(); }

class MpiExchange final : public Exchange {
 public:
  MpiExchange() {
    int provided = 0;
    // Only the main thread talks to MPI; verification threads do not.
    mpi().init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    mpi().comm_rank(mpi().world, &rank_);
    mpi().comm_size(mpi().world, &size_);
  }
  ~MpiExchange() override { mpi().finalize(); }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  std::vector<std::string> all_to_all(std::vector<std::string> out) override {
    const auto n = static_cast<std::size_t>(size_);
    std::vector<uint64_t> send_sizes(n), recv_sizes(n);
    for (std::size_t r = 0; r < n; ++r) send_sizes[r] = out[r].size();
    mpi().alltoall(send_sizes.data(), 1, mpi().uint64, recv_sizes.data(), 1, mpi().uint64, mpi().world);
    // Point to point, in pieces MPI's int counts can hold.
    constexpr uint64_t kPiece = uint64_t(1) << 30;
    std::vector<std::string> in(n);
    std::vector<MPI_Request> requests;
    for (std::size_t r = 0; r < n; ++r) {
      in[r].resize(recv_sizes[r]);
      for (uint64_t at = 0; at < recv_sizes[r]; at += kPiece) {
        requests.emplace_back();
        mpi().irecv(in[r].data() + at, static_cast<int>(std::min(kPiece, recv_sizes[r] - at)), mpi().byte,
                  static_cast<int>(r), 7, mpi().world, &requests.back());
      }
    }
    for (std::size_t r = 0; r < n; ++r)
      for (uint64_t at = 0; at < send_sizes[r]; at += kPiece) {
        requests.emplace_back();
        mpi().isend(out[r].data() + at, static_cast<int>(std::min(kPiece, send_sizes[r] - at)), mpi().byte,
                  static_cast<int>(r), 7, mpi().world, &requests.back());
      }
    mpi().waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    return in;
  }

  uint64_t sum(uint64_t value) override {
    uint64_t total = 0;
    mpi().allreduce(&value, &total, 1, mpi().uint64, mpi().sum, mpi().world);
    return total;
  }

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace

Result<std::unique_ptr<Exchange>> launcher_exchange() {
  if (!launched_by_mpi()) return one_process_exchange();
  if (!mpi().library.ok()) return Status(Code::kUnsupported, "started by an MPI launcher: " + mpi().library.error());
  return std::unique_ptr<Exchange>(std::make_unique<MpiExchange>());
}

void abort_ranks(int status) {
  if (!launched_by_mpi() || !mpi().library.ok()) std::exit(status);
  int initialised = 0, finalised = 0;
  mpi().initialized(&initialised);
  mpi().finalized(&finalised);
  if (initialised && !finalised) mpi().abort(mpi().world, status);
  std::exit(status);
}

#else

Result<std::unique_ptr<Exchange>> launcher_exchange() {
  if (launched_by_mpi())
    return Status(Code::kUnsupported,
                  "started by an MPI launcher, but this husk was built without MPI (install libopenmpi-dev and "
                  "rebuild)");
  return one_process_exchange();
}

void abort_ranks(int status) { std::exit(status); }

#endif

}  // namespace husk::cli
