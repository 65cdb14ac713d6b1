// The ranks of a husk dedup run: MPI's when an MPI launcher (mpirun,
// mpiexec, Slurm's srun) started this process and husk was built with MPI,
// else one process.
#pragma once

#include <memory>
#include <string>

#include "husk/corpus.h"

namespace husk::cli {

// Whether the environment names this process a rank of a launched job
// (Open MPI's OMPI_COMM_WORLD_SIZE, PMIx's PMIX_RANK, PMI's PMI_SIZE).
bool launched_by_mpi();

// MPI is initialised on the first call and finalised when the exchange
// goes; an error says why there is no MPI (husk built without it).
Result<std::unique_ptr<Exchange>> launcher_exchange();

// Ends every rank of the job after a fatal error on one (the others would
// wait for it in the next exchange).
[[noreturn]] void abort_ranks(int status);

}  // namespace husk::cli
