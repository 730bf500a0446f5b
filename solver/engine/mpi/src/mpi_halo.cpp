// GoLightly halo exchange between MPI ranks (mpi.hpp mpi_halo_factory, transport "mpi").
//
// One exchange, after every rank's engines have stepped (exchange()), or split into start()
// (steps 1-3) and finish() (steps 4-5) around the interior updates of a split step (overlap
// mode of the distributed engine: the GPUs compute while finish() waits for the messages):
//   1. CUDA engines: wait for the engine's stream (its step, and the previous exchange's
//      host -> device copies, which read the staging buffers reused below);
//   2. MPI_Irecv of every (transfer, component) whose destination is local: into the
//      halo planes of a CPU engine's array, or into a staging buffer for a CUDA engine
//      (CUDA-aware MPI: into the device array itself);
//   3. every transfer whose source is local: a CUDA engine's planes are copied to the
//      pinned staging buffer (device -> host, then the stream is waited for; CUDA-aware
//      MPI: sent from the device array); then MPI_Isend (destination remote) or a copy
//      (destination local too);
//   4. MPI_Waitall; staged CUDA destinations: host -> device copies on the engine's stream
//      (the engine's next step is queued after them);
//   5. (in finish(), after those copies) the transfers across the wrap of a Bloch cut axis
//      (HaloTransfer::phase): once the real and imaginary copies of the planes have both
//      landed, they are rotated by exp(i phase) (distributed.hpp apply_halo_phase): on the
//      host in a CPU engine; in a CUDA engine by the device kernel (cuda_apply_halo_phase)
//      queued on its stream after the host -> device copies of step 4 (host-staged), or on
//      the planes MPI or the local copy of step 3 wrote into the device arrays (CUDA-aware),
//      so that every landing path of a GPU rank takes the phase in one place.
// CUDA-aware MPI is used when the library says it supports device buffers at run time
// (Open MPI's MPIX_Query_cuda_support, mpi-ext.h) or GOLIGHTLY_MPI_CUDA_AWARE=1 says so
// (MPI libraries without that query, e.g. Cray MPICH with MPICH_GPU_SUPPORT_ENABLED=1);
// GOLIGHTLY_MPI_CUDA_AWARE=0 forces host staging. Debian's Open MPI is built without CUDA:
// host-staged.
// Bytes per transfer and component: planes * cells-per-plane * 4 (float32) or 8 (float64),
// raw, so every rank must run the same precision (it does: one project). Around the
// distributed engine's pairs (two steps between exchanges, HaloExchange::with_psi) the CPML
// psi of the x and y slabs on the transferred planes travel too, as more arrays of the same
// messages' kind (FieldStorage::psi; every subdomain of a z cut has the same x and y slabs,
// so sender and receiver agree on which arrays exist without asking each other).
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI: MPIX_Query_cuda_support
#endif

#ifdef GOLIGHTLY_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "golightly/errors.hpp"
#include "golightly/mpi.hpp"
#include "golightly/tuning.hpp"

namespace golightly::mpi {

namespace {

std::int64_t plane_cells(const FieldStorage& fs) { return fs.n[2] > 1 ? fs.n[0] * fs.n[1] : fs.n[0]; }

#ifdef GOLIGHTLY_HAVE_CUDA
void cuda_ok(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        cudaGetLastError();
        throw RunError(std::string("MPI halo exchange: ") + what + ": " + cudaGetErrorString(e));
    }
}
#endif

/// Host memory for staging a CUDA engine's planes: pinned (cudaMallocHost) with CUDA, so
/// that the copies run at full speed and the host -> device copy is truly asynchronous.
class StagingBuffer {
public:
    StagingBuffer() = default;
    StagingBuffer(const StagingBuffer&) = delete;
    StagingBuffer& operator=(const StagingBuffer&) = delete;
    StagingBuffer(StagingBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
    ~StagingBuffer() { release(); }
    unsigned char* data() const { return p_; }
    /// At least `bytes` bytes (the contents are lost when it grows).
    unsigned char* get(std::size_t bytes) {
        if (bytes <= n_) return p_;
        release();
#ifdef GOLIGHTLY_HAVE_CUDA
        void* p = nullptr;
        cuda_ok(cudaMallocHost(&p, bytes), "cudaMallocHost of the staging buffer");
        p_ = static_cast<unsigned char*>(p);
#else
        throw RunError("MPI halo exchange: a CUDA engine's planes in a build without CUDA");
#endif
        n_ = bytes;
        return p_;
    }

private:
    void release() {
#ifdef GOLIGHTLY_HAVE_CUDA
        if (p_) cudaFreeHost(p_);
#endif
        p_ = nullptr;
        n_ = 0;
    }
    unsigned char* p_ = nullptr;
    std::size_t n_ = 0;
};

/// Whether MPI may be handed device pointers (file comment): GOLIGHTLY_MPI_CUDA_AWARE=0/1,
/// else the library's run-time answer where it has one, else no.
bool mpi_takes_device_buffers() {
    if (const std::optional<std::string> v = MpiTuning::from_environment().cuda_aware) {
        if (*v == "1") return true;
        if (*v == "0") return false;
        throw RunError("GOLIGHTLY_MPI_CUDA_AWARE must be 0 or 1, not '" + *v + "'");
    }
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
    return MPIX_Query_cuda_support() == 1;
#else
    return false;
#endif
}

void copy_from_device(void* dst, const void* src, std::size_t bytes, const FieldStorage& fs) {
#ifdef GOLIGHTLY_HAVE_CUDA
    cuda_ok(cudaSetDevice(fs.cuda_device), "cudaSetDevice");
    cuda_ok(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, static_cast<cudaStream_t>(fs.cuda_stream)),
            "device -> host copy of the halo planes");
#else
    (void)dst, (void)src, (void)bytes, (void)fs;
    throw RunError("MPI halo exchange: a CUDA engine's planes in a build without CUDA");
#endif
}

void copy_to_device(void* dst, const void* src, std::size_t bytes, const FieldStorage& fs) {
#ifdef GOLIGHTLY_HAVE_CUDA
    cuda_ok(cudaSetDevice(fs.cuda_device), "cudaSetDevice");
    // cudaMemcpyDefault: `src` is host memory, or device memory with CUDA-aware MPI
    cuda_ok(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, static_cast<cudaStream_t>(fs.cuda_stream)),
            "copy of the halo planes into the device");
#else
    (void)dst, (void)src, (void)bytes, (void)fs;
    throw RunError("MPI halo exchange: a CUDA engine's planes in a build without CUDA");
#endif
}

void wait_stream(const FieldStorage& fs) {
#ifdef GOLIGHTLY_HAVE_CUDA
    cuda_ok(cudaSetDevice(fs.cuda_device), "cudaSetDevice");
    cuda_ok(cudaStreamSynchronize(static_cast<cudaStream_t>(fs.cuda_stream)), "waiting for the engine's stream");
#else
    (void)fs;
#endif
}

/// One array a transfer moves: a field (slot c < kArrays) or, with psi, the CPML psi of
/// component c along axis a (slot kArrays + 2 c + a); its planes are plane_bytes apart.
struct Slot {
    int id;
    unsigned char* base;
    std::size_t plane_bytes;
};

/// The arrays of `fs` a transfer moves, in slot order: the non-null fields, then (with_psi)
/// the non-null psi arrays.
std::vector<Slot> slots_of(const FieldStorage& fs, bool with_psi) {
    std::vector<Slot> out;
    const std::size_t plane = std::size_t(plane_cells(fs)) * std::size_t(fs.element_bytes);
    for (int c = 0; c < FieldStorage::kArrays; ++c)
        if (fs.field[c]) out.push_back({c, static_cast<unsigned char*>(fs.field[c]), plane});
    for (int c = 0; c < 6 && with_psi; ++c)
        for (int a = 0; a < 2; ++a)
            if (fs.psi[c][a])
                out.push_back({FieldStorage::kArrays + 2 * c + a, static_cast<unsigned char*>(fs.psi[c][a]),
                               std::size_t(fs.psi_plane_bytes[c][a])});
    return out;
}

constexpr int kSlots = FieldStorage::kArrays + 12;

class MpiHaloExchange final : public HaloExchange {
public:
    MpiHaloExchange(std::vector<int> owner, const std::vector<SubdomainAccess*>& engines) : owner_(std::move(owner)) {
        MPI_Comm_rank(MPI_COMM_WORLD, &me_);
        if (owner_.size() != engines.size())
            throw RunError("MPI halo exchange: " + std::to_string(owner_.size()) + " owners for " +
                           std::to_string(engines.size()) + " subdomains");
        for (std::size_t s = 0; s < engines.size(); ++s) {
            if ((owner_[s] == me_) != (engines[s] != nullptr))
                throw RunError("MPI halo exchange: subdomain " + std::to_string(s) + " is owned by rank " +
                               std::to_string(owner_[s]) + " but its engine is " +
                               (engines[s] ? "here" : "missing") + " on rank " + std::to_string(me_));
            if (engines[s] && engines[s]->field_storage().cuda_device >= 0) cuda_ = true;
        }
        stage_ = cuda_ && !mpi_takes_device_buffers();
    }

    std::string transport() const override {
        return !cuda_ ? "mpi" : stage_ ? "mpi (host-staged)" : "mpi (cuda-aware)";
    }
    bool moves_psi() const override { return true; }

    void exchange(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) override {
        start(transfers, engines);
        finish(transfers, engines);
    }

    /// Steps 1-3 (file comment): after the engines' step_begin in overlapped mode (the
    /// distributed engine then queues the interior updates, which run while finish() waits
    /// for the messages).
    void start(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) override {
        std::vector<FieldStorage>& fs = fs_;
        fs.assign(engines.size(), FieldStorage{});
        cuda_fs_.clear();
        for (std::size_t s = 0; s < engines.size(); ++s)
            if (engines[s]) {
                fs[s] = engines[s]->field_storage();
                if (fs[s].cuda_device < 0) continue;
                wait_stream(fs[s]);  // 1.
                cuda_fs_.push_back(fs[s]);
            }
        if (send_.size() < transfers.size()) {
            send_.resize(transfers.size());
            recv_.resize(transfers.size());
        }
        requests_.clear();
        std::vector<Landing>& to_device = to_device_;
        to_device.clear();

        // 2. receives
        for (std::size_t i = 0; i < transfers.size(); ++i) {
            const HaloTransfer& t = transfers[i];
            if (owner_.at(std::size_t(t.to)) != me_ || owner_.at(std::size_t(t.from)) == me_) continue;
            const FieldStorage& b = fs[std::size_t(t.to)];
            const std::vector<Slot> slots = slots_of(b, with_psi);
            unsigned char* stage = b.cuda_device >= 0 && stage_ ? recv_[i].get(staged_bytes(t, slots)) : nullptr;
            std::size_t at = 0;  // offset in the staging buffer
            for (const Slot& sl : slots) {
                const std::size_t bytes = transfer_bytes(t, sl);
                unsigned char* landed = sl.base + std::size_t(t.to_plane) * sl.plane_bytes;
                void* dst = stage ? static_cast<void*>(stage + at) : static_cast<void*>(landed);
                requests_.emplace_back();
                MPI_Irecv(dst, int(bytes), MPI_BYTE, owner_[std::size_t(t.from)], tag(i, sl.id), MPI_COMM_WORLD,
                          &requests_.back());
                if (stage) to_device.push_back({i, landed, at, bytes});
                at += bytes;
            }
        }
        // 3. sends (and copies between two local subdomains)
        for (std::size_t i = 0; i < transfers.size(); ++i) {
            const HaloTransfer& t = transfers[i];
            if (owner_.at(std::size_t(t.from)) != me_) continue;
            const FieldStorage& a = fs[std::size_t(t.from)];
            const std::vector<Slot> slots = slots_of(a, with_psi);
            const bool local_to = owner_.at(std::size_t(t.to)) == me_;
            std::vector<Slot> to_slots;
            if (local_to) {
                to_slots = slots_of(fs[std::size_t(t.to)], with_psi);
                if (to_slots.size() != slots.size())
                    throw RunError("MPI halo exchange: subdomains " + std::to_string(t.from) + " and " +
                                   std::to_string(t.to) + " hold different arrays");
            }
            unsigned char* stage = a.cuda_device >= 0 && stage_ ? send_[i].get(staged_bytes(t, slots)) : nullptr;
            if (stage) {
                std::size_t at = 0;
                for (const Slot& sl : slots) {
                    const std::size_t bytes = transfer_bytes(t, sl);
                    copy_from_device(stage + at, sl.base + std::size_t(t.from_plane) * sl.plane_bytes, bytes, a);
                    at += bytes;
                }
                wait_stream(a);
            }
            std::size_t at = 0;
            for (std::size_t q = 0; q < slots.size(); ++q) {
                const Slot& sl = slots[q];
                const std::size_t bytes = transfer_bytes(t, sl);
                const void* src = stage ? static_cast<const void*>(stage + at)
                                        : static_cast<const void*>(sl.base + std::size_t(t.from_plane) * sl.plane_bytes);
                at += bytes;
                if (local_to) {
                    const FieldStorage& b = fs[std::size_t(t.to)];
                    void* dst = to_slots[q].base + std::size_t(t.to_plane) * to_slots[q].plane_bytes;
                    if (b.cuda_device >= 0) {
                        copy_to_device(dst, src, bytes, b);
                        wait_stream(b);  // the staging buffer `src` is rewritten by the next exchange
                    } else {
                        std::memcpy(dst, src, bytes);
                    }
                    continue;
                }
                requests_.emplace_back();
                MPI_Isend(src, int(bytes), MPI_BYTE, owner_[std::size_t(t.to)], tag(i, sl.id), MPI_COMM_WORLD,
                          &requests_.back());
            }
        }
    }

    /// Steps 4-5 (file comment): the messages, the wrap phase, then the host -> device
    /// copies on the CUDA engines' streams (queued after their interior updates, before
    /// step_boundary).
    void finish(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) override {
        (void)engines;
        const std::vector<FieldStorage>& fs = fs_;
        if (!requests_.empty())
            MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
        requests_.clear();
        for (const Landing& l : to_device_) {
            const HaloTransfer& t = transfers[l.transfer];
            const FieldStorage& b = fs[std::size_t(t.to)];
            copy_to_device(l.dst, recv_[l.transfer].data() + l.offset, l.bytes, b);
        }
        // 5. the Bloch phase of the wrap transfers (HaloTransfer::phase), both copies landed:
        // host arrays now; device arrays by a kernel on the engine's stream, after the copies
        // just queued there (and before the engine's next step, queued after it)
        for (const HaloTransfer& t : transfers)
            if (t.phase != 0 && owner_.at(std::size_t(t.to)) == me_)
                apply_halo_phase(fs[std::size_t(t.to)], t.to_plane, t.planes, t.phase);
    }

    /// The host -> device copies of the last exchange (on the CUDA engines' streams); the
    /// MPI messages have finished when exchange() returns.
    void wait() override {
        for (const FieldStorage& f : cuda_fs_) wait_stream(f);
    }

private:
    static int tag(std::size_t transfer, int slot) { return int((transfer * kSlots + std::size_t(slot)) % 32768); }
    static std::size_t transfer_bytes(const HaloTransfer& t, const Slot& sl) {
        const std::size_t bytes = std::size_t(t.planes) * sl.plane_bytes;
        if (bytes > std::size_t(INT_MAX))
            throw RunError("MPI halo exchange: " + std::to_string(bytes) + " bytes per message exceed INT_MAX");
        return bytes;
    }
    /// Staging bytes of one transfer: its arrays back to back.
    static std::size_t staged_bytes(const HaloTransfer& t, const std::vector<Slot>& slots) {
        std::size_t n = 0;
        for (const Slot& sl : slots) n += transfer_bytes(t, sl);
        return n;
    }

    std::vector<int> owner_;
    int me_ = 0;
    bool cuda_ = false;   ///< some local engine is a CUDA engine
    bool stage_ = false;  ///< CUDA engines' planes go through pinned host buffers (MPI is not CUDA-aware)
    std::vector<StagingBuffer> send_, recv_;
    std::vector<FieldStorage> cuda_fs_;  ///< the local CUDA engines' arrays at the last exchange
    std::vector<MPI_Request> requests_;
    struct Landing {
        std::size_t transfer;
        void* dst;  ///< where the planes land in the device array
        std::size_t offset, bytes;  ///< in the staging buffer
    };
    std::vector<Landing> to_device_;     ///< start() -> finish(): staged receives of CUDA engines
    std::vector<FieldStorage> fs_;       ///< start() -> finish(): the engines' arrays
};

}  // namespace

HaloExchangeFactory mpi_halo_factory(std::vector<int> owner) {
    return [owner = std::move(owner)](const std::vector<SubdomainAccess*>& engines) -> std::unique_ptr<HaloExchange> {
        return std::make_unique<MpiHaloExchange>(owner, engines);
    };
}

}  // namespace golightly::mpi
