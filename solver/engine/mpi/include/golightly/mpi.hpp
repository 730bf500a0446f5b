// GoLightly across processes with MPI (issue 18): `mpirun -np N golightly-cli run PROJECT`
// steps one subdomain of the grid per rank (partition_scene with N pieces, subdomain =
// rank) on the rank's GPU or CPU cores, exchanges the halo planes between ranks after every
// step, and combines the reductions of the distributed engine (distributed.hpp) across ranks
// so that every rank's run driver sees the same energy, finite flag, DFTs, time samples and
// frames and takes the same decisions; rank 0 writes the results (cli/main.cpp).
// `mpirun -np N golightly-cli optimize --adjoint PROJECT` makes every forward, adjoint and
// normalization run's engine with make_rank_engine (adjoint.hpp RunSettings::engine_factory,
// cli/cmd_optimize_adjoint.cpp): the same reductions give every rank the same objective and
// gradient, so every rank's optimizer takes the same steps.
//
// Built only when CMake finds MPI (option GOLIGHTLY_MPI, target golightly_mpi, linked by
// golightly-cli alone: the IDE and the libraries do not need MPI). This header does not
// include <mpi.h>.
//
// Transport: MpiHaloExchange (mpi_halo.cpp): every transfer (partition.hpp HaloTransfer)
// whose source subdomain is local is sent, whose destination is local is received, with
// non-blocking MPI_Isend / MPI_Irecv of each field component's planes (one message per
// transfer and component: planes * cells-per-plane values of 4 or 8 bytes), then
// MPI_Waitall. CPU engines send from and receive into their field arrays; CUDA engines
// hand MPI their device arrays where the library is CUDA-aware (Open MPI's run-time
// MPIX_Query_cuda_support, or GOLIGHTLY_MPI_CUDA_AWARE=1), else they are host-staged
// (device -> pinned host buffer, send; receive, host -> device on the engine's stream).
// HaloExchange::transport() says which: "mpi", "mpi (cuda-aware)", "mpi (host-staged)".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "golightly/distributed.hpp"
#include "golightly/engine.hpp"
#include "golightly/scene.hpp"

namespace golightly::mpi {

/// True when an MPI launcher started this process: OMPI_COMM_WORLD_SIZE (Open MPI's
/// mpirun), PMI_SIZE (Slurm srun with PMI-2, MPICH's Hydra) or PMIX_RANK (PMIx: srun
/// --mpi=pmix, Open MPI 5) is set. A plain `golightly-cli run` never initializes MPI.
bool launched_by_mpi();

/// The MPI library for this process: MPI_Init_thread (MPI_THREAD_FUNNELED: only the main
/// thread calls MPI) on construction, MPI_Finalize on destruction. At most one per
/// process. Throws RunError when MPI cannot be initialized.
class Session {
public:
    Session(int* argc, char*** argv);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    /// Rank among the processes of this host (MPI_Comm_split_type MPI_COMM_TYPE_SHARED;
    /// under Open MPI's mpirun it equals OMPI_COMM_WORLD_LOCAL_RANK) and their count.
    int local_rank() const { return local_rank_; }
    int local_size() const { return local_size_; }
    /// MPI_Get_processor_name.
    const std::string& host() const { return host_; }
    /// Reductions over MPI_COMM_WORLD (make_mpi_communicator).
    std::shared_ptr<Communicator> communicator() const { return comm_; }
    /// MPI_Abort(MPI_COMM_WORLD, code): ends every rank; mpirun exits with `code`.
    [[noreturn]] void abort(int code) const;

private:
    int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
    std::string host_;
    std::shared_ptr<Communicator> comm_;
};

/// The Communicator of distributed.hpp over MPI_COMM_WORLD (needs an initialized MPI):
///   sum        MPI_Reduce (MPI_SUM) to rank 0, then MPI_Bcast of rank 0's result, so that
///              every rank has the same bits (MPI_Allreduce does not promise that);
///   all        MPI_Allreduce (MPI_LAND);
///   broadcast  MPI_Bcast of the size, then of the values;
///   gather     MPI_Allgather of the lengths, then MPI_Allgatherv of the characters;
///   gather_to  MPI_Gather of the counts to the root, then MPI_Gatherv of the values.
/// Arrays longer than INT_MAX values go in pieces.
std::shared_ptr<Communicator> make_mpi_communicator();

/// The halo exchange between ranks (transport "mpi"): owner[s] is the rank that steps
/// subdomain s. A transfer with a local source is sent, with a local destination
/// received (both local: copied in place). Messages are matched by tag (transfer index * 6 +
/// component, modulo 32768) and, for repeated tags, by MPI's in-order matching between
/// one pair of ranks (every rank walks the transfers in the same order). Throws RunError
/// (CUDA staging errors, a message above INT_MAX bytes).
HaloExchangeFactory mpi_halo_factory(std::vector<int> owner);

/// run.backend / --backend (project.hpp BackendChoice; the engine layer does not see the
/// project model).
enum class RankBackend { Auto, Cuda, Cpu };

/// Where this rank steps its subdomain:
///   backend cpu: the CPU; cuda: a GPU (RunError naming the reason, and this rank's host
///   when it sees no device, where cuda_cannot_run (capabilities.hpp) refuses the scene:
///   3D Mur faces, no usable device, dispersion without support); auto: a GPU where
///   cuda_cannot_run accepts the scene, else the CPU.
///   GPU: device local_rank % cuda_device_count() (one GPU per rank: start as many ranks
///   per host as it has GPUs, or give each rank one with CUDA_VISIBLE_DEVICES /
///   srun --gpus-per-task=1).
///   CPU threads: `threads` when > 0, else the CPUs this process may run on
///   (sched_getaffinity), divided among the host's ranks when they are not bound.
SubdomainDevice rank_device(const Scene& scene, RankBackend backend, Precision precision, int threads,
                            const Session& session);

/// The engine of this rank for one phase of a run: with one rank an ordinary engine on
/// rank_device(); with N ranks a DistributedEngine over partition_scene(scene, N) (equal
/// shares) that steps subdomain `rank` here, with make_mpi_communicator() and
/// mpi_halo_factory(). Collective: every rank calls it for the same scene. The engine
/// views `scene` (it must outlive the engine). Throws RunError (device, partition: a grid
/// too thin for N ranks, memory), and, for tests of the failure path, when the
/// environment variable GOLIGHTLY_MPI_FAIL_RANK equals this rank.
std::unique_ptr<Engine> make_rank_engine(const Scene& scene, RankBackend backend, Precision precision, int threads,
                                         const Session& session);

}  // namespace golightly::mpi
