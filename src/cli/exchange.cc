#include "cli/exchange.h"

#include <climits>
#include <cstdlib>

#ifdef HUSK_WITH_MPI
#include <mpi.h>
#endif

namespace husk::cli {

bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
    if (std::getenv(name)) return true;
  return false;
}

#ifdef HUSK_WITH_MPI

namespace {

class MpiExchange final : public Exchange {
 public:
  MpiExchange() {
    int provided = 0;
    // Only the main thread talks to MPI; verification threads do not.
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~MpiExchange() override { MPI_Finalize(); }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  std::vector<std::string> all_to_all(std::vector<std::string> out) override {
    const auto n = static_cast<std::size_t>(size_);
    std::vector<uint64_t> send_sizes(n), recv_sizes(n);
    for (std::size_t r = 0; r < n; ++r) send_sizes[r] = out[r].size();
    MPI_Alltoall(send_sizes.data(), 1, MPI_UINT64_T, recv_sizes.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
    // Point to point, in pieces MPI's int counts can hold.
    constexpr uint64_t kPiece = uint64_t(1) << 30;
    std::vector<std::string> in(n);
    std::vector<MPI_Request> requests;
    for (std::size_t r = 0; r < n; ++r) {
      in[r].resize(recv_sizes[r]);
      for (uint64_t at = 0; at < recv_sizes[r]; at += kPiece) {
        requests.emplace_back();
        MPI_Irecv(in[r].data() + at, static_cast<int>(std::min(kPiece, recv_sizes[r] - at)), MPI_BYTE,
                  static_cast<int>(r), 7, MPI_COMM_WORLD, &requests.back());
      }
    }
    for (std::size_t r = 0; r < n; ++r)
      for (uint64_t at = 0; at < send_sizes[r]; at += kPiece) {
        requests.emplace_back();
        MPI_Isend(out[r].data() + at, static_cast<int>(std::min(kPiece, send_sizes[r] - at)), MPI_BYTE,
                  static_cast<int>(r), 7, MPI_COMM_WORLD, &requests.back());
      }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    return in;
  }

  uint64_t sum(uint64_t value) override {
    uint64_t total = 0;
    MPI_Allreduce(&value, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return total;
  }

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace

Result<std::unique_ptr<Exchange>> launcher_exchange() {
  if (!launched_by_mpi()) return one_process_exchange();
  return std::unique_ptr<Exchange>(std::make_unique<MpiExchange>());
}

void abort_ranks(int status) {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (initialised && !finalised) MPI_Abort(MPI_COMM_WORLD, status);
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
