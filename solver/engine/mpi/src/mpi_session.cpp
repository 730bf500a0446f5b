// GoLightly MPI (mpi.hpp): the session, the communicator over MPI_COMM_WORLD and this
// rank's engine.
#include <mpi.h>
#include <sched.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "golightly/capabilities.hpp"
#include "golightly/cuda_device.hpp"
#include "golightly/errors.hpp"
#include "golightly/mpi.hpp"
#include "golightly/tuning.hpp"

namespace golightly::mpi {

namespace {

/// MPI counts are int: longer arrays go in pieces of this many values.
constexpr std::size_t kChunk = std::size_t(1) << 30;

class MpiCommunicator final : public Communicator {
public:
    MpiCommunicator() {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
        MPI_Comm_size(MPI_COMM_WORLD, &size_);
    }
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    std::string name() const override { return "mpi"; }

    void sum(double* values, std::size_t n) override {
        // Reduce to rank 0, then every rank takes rank 0's bits.
        for (std::size_t first = 0; first < n || first == 0; first += kChunk) {
            const int count = int(std::min(kChunk, n - first));
            double* p = values + first;
            if (rank_ == 0)
                MPI_Reduce(MPI_IN_PLACE, p, count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            else
                MPI_Reduce(p, nullptr, count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            MPI_Bcast(p, count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
            if (n == 0) break;
        }
    }

    bool all(bool value) override {
        int v = value ? 1 : 0;
        MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        return v != 0;
    }

    void broadcast(std::vector<double>& values, int root) override {
        unsigned long long n = values.size();
        MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD);
        values.resize(std::size_t(n));
        for (std::size_t first = 0; first < values.size(); first += kChunk)
            MPI_Bcast(values.data() + first, int(std::min(kChunk, values.size() - first)), MPI_DOUBLE, root,
                      MPI_COMM_WORLD);
    }

    std::vector<std::string> gather(const std::string& text) override {
        if (text.size() > std::size_t(INT_MAX) / std::size_t(size_))
            throw RunError("MPI gather: " + std::to_string(text.size()) + " characters are too many");
        int len = int(text.size());
        std::vector<int> lens(static_cast<std::size_t>(size_)), offsets(static_cast<std::size_t>(size_));
        MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, MPI_COMM_WORLD);
        int total = 0;
        for (int r = 0; r < size_; ++r) {
            offsets[std::size_t(r)] = total;
            total += lens[std::size_t(r)];
        }
        std::vector<char> all(std::size_t(std::max(total, 1)));
        MPI_Allgatherv(text.data(), len, MPI_CHAR, all.data(), lens.data(), offsets.data(), MPI_CHAR, MPI_COMM_WORLD);
        std::vector<std::string> out;
        for (int r = 0; r < size_; ++r)
            out.emplace_back(all.data() + offsets[std::size_t(r)], std::size_t(lens[std::size_t(r)]));
        return out;
    }

    std::vector<double> gather_to(const std::vector<double>& values, int root) override {
        // one MPI_Gather of the counts, one MPI_Gatherv of the values (int counts and offsets)
        if (values.size() > std::size_t(INT_MAX))
            throw RunError("MPI gather to rank " + std::to_string(root) + ": " + std::to_string(values.size()) +
                           " values are too many for one message");
        const int n = int(values.size());
        const bool me = rank_ == root;
        std::vector<int> counts(me ? std::size_t(size_) : 0), offsets(me ? std::size_t(size_) : 0);
        MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, root, MPI_COMM_WORLD);
        std::size_t total = 0;
        for (std::size_t r = 0; r < counts.size(); ++r) {
            if (total > std::size_t(INT_MAX)) break;  // refused below
            offsets[r] = int(total);
            total += std::size_t(counts[r]);
        }
        if (me && total > std::size_t(INT_MAX))  // MPI_Abort follows (cli/main.cpp): the others wait in MPI_Gatherv
            throw RunError("MPI gather to rank " + std::to_string(root) + ": " + std::to_string(total) +
                           " values are too many for one message");
        std::vector<double> all(me ? total : 0);
        MPI_Gatherv(values.data(), n, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE, root,
                    MPI_COMM_WORLD);
        return all;
    }

private:
    int rank_ = 0, size_ = 1;
};

/// CPUs this process may run on (sched_getaffinity), at least 1.
int affinity_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
    return int(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace

bool launched_by_mpi() {
    // The launcher's own variables, not a knob (tuning.hpp MpiTuning says why they stay here).
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
        if (const char* s = std::getenv(v); s && *s) return true;
    return false;
}

std::shared_ptr<Communicator> make_mpi_communicator() { return std::make_shared<MpiCommunicator>(); }

Session::Session(int* argc, char*** argv) {
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        throw RunError("MPI_Init_thread failed");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local_rank_);
    MPI_Comm_size(node, &local_size_);
    MPI_Comm_free(&node);
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int len = 0;
    MPI_Get_processor_name(name, &len);
    host_.assign(name, std::size_t(std::max(0, len)));
    comm_ = make_mpi_communicator();
}

Session::~Session() {
    comm_.reset();
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
}

void Session::abort(int code) const {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);  // MPI_Abort does not return; in case it does
}

SubdomainDevice rank_device(const Scene& scene, RankBackend backend, Precision precision, int threads,
                            const Session& session) {
    // The same capabilities as the run driver's make_engine (capabilities.hpp). There is no
    // warning list here, so auto falls back to the CPU without a warning.
    bool cuda = false;
    if (backend != RankBackend::Cpu) {
        const std::optional<Unsupported> why = cuda_cannot_run(scene, precision);
        if (why && backend == RankBackend::Cuda) throw RunError(why->refusal(session.host()));
        cuda = !why;
    }
    SubdomainDevice d;
    d.rank = session.rank();
    d.host = session.host();
    if (cuda) {
        d.cuda = true;
        d.ordinal = session.local_rank() % std::max(1, cuda_device_count());
    } else {
        int n = affinity_cpus();
        const int hw = int(std::max(1u, std::thread::hardware_concurrency()));
        if (n >= hw && session.local_size() > 1) n = std::max(1, n / session.local_size());  // ranks not bound
        d.threads = threads > 0 ? threads : n;
    }
    return d;
}

std::unique_ptr<Engine> make_rank_engine(const Scene& scene, RankBackend backend, Precision precision, int threads,
                                         const Session& session) {
    if (const std::optional<std::string> f = MpiTuning::from_environment().fail_rank; f && std::atoi(f->c_str()) == session.rank())
        throw RunError("GOLIGHTLY_MPI_FAIL_RANK=" + *f + " asks this rank to fail (a test of the failure path)");
    const SubdomainDevice mine = rank_device(scene, backend, precision, threads, session);
    const SceneView view = view_of(scene);
    if (session.size() == 1)
        return mine.cuda ? make_cuda_engine(view, precision, mine.ordinal) : make_cpu_engine(view, precision, mine.threads);
    DistributedSetup setup;
    std::vector<int> owner;
    for (int r = 0; r < session.size(); ++r) {
        SubdomainDevice d;
        d.rank = r;
        if (r == session.rank()) d = mine;
        setup.devices.push_back(d);
        owner.push_back(r);
    }
    setup.comm = session.communicator();
    setup.halo = mpi_halo_factory(owner);
    return make_distributed_engine(view, precision, std::move(setup));
}

}  // namespace golightly::mpi
