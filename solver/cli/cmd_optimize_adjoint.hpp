// golightly-cli optimize --adjoint PROJECT --out DIR (spec/cli.md "optimize --adjoint"):
// gradient-based topology optimization of the project's design region (adjoint_project.hpp).
// main.cpp hands the command line here, before its own parse, when `optimize` is given
// with `--adjoint`, so the derivative-free `optimize` (cmd_sweep.cpp) stays as it is.
#pragma once

#include <functional>
#include <memory>

#include "golightly/project.hpp"

namespace golightly {
class Communicator;
class Engine;
struct Scene;
}  // namespace golightly

namespace golightly::cli {

/// true when argv is `golightly-cli optimize ... --adjoint ...`.
bool is_adjoint_optimize(int argc, char** argv);

/// The MPI job of `mpirun -np N golightly-cli optimize --adjoint` (main.cpp makes it from
/// its mpi::Session; this file does not see MPI): every forward, adjoint and normalization
/// run steps one subdomain per rank, the runs' reductions (field energy, DFTs) give every
/// rank the same bits, so every rank's optimizer takes the same steps; rank 0 alone prints
/// and writes (docs/cluster.md).
struct AdjointRanks {
    /// Reductions over the ranks (distributed.hpp Communicator; rank(), size()).
    std::shared_ptr<Communicator> comm;
    /// This rank's engine of one run (golightly/mpi.hpp make_rank_engine; collective) for
    /// the backend, precision and CPU threads of the command line or the project.
    std::function<std::unique_ptr<Engine>(const Scene& scene, BackendChoice backend, Precision precision, int threads)>
        rank_engine;
    /// Ends every rank with the exit code (MPI_Abort): a failure on one rank, whose
    /// partners would otherwise wait for it.
    std::function<void(int code)> abort;
};

/// Parses and runs the command: its exit code (0 done, 1 usage, 2 invalid project or
/// options, 3 run failure or interrupted). `ranks` non-null: under mpirun (AdjointRanks);
/// what cannot run there is refused with exit 3, as `run` refuses run.sparameters.
int run_optimize_adjoint(int argc, char** argv, const AdjointRanks* ranks = nullptr);

}  // namespace golightly::cli
