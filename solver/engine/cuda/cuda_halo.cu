// GoLightly halo exchange between CUDA engines (distributed.hpp HaloExchange, transport
// "cuda-peer"): cudaMemcpyPeerAsync of the halo planes, ordered by events on the engines'
// own streams, with no host synchronization:
//   1. each engine's stream records `done` after its queued step;
//   2. each transfer A -> B waits on A's `done` in B's stream and copies there (the copy
//      writes B's halo planes, which B's next step reads, in B's order);
//   3. each stream records `copied` after its incoming copies, and every source stream A
//      waits on `copied` of each B it feeds before its next step overwrites the planes the
//      copies read.
// Overlapped (start/finish, split steps: engine.hpp): start() records `begun` on every
// engine's stream (after its step_begin), and each receiving engine's copy stream waits for
// the `begun` of the source and of itself, copies, and records `copied`; finish() makes each
// receiving engine's stream wait for its `copied` (before step_boundary reads the halo) and
// each source's stream wait for the `copied` of those it feeds (before a later step writes
// the planes the copies read). The engines' interior updates, queued between the two,
// run on their streams while the copies run on the copy streams.
// A transfer across the wrap of a Bloch cut axis (HaloTransfer::phase) is rotated after its
// copies, on the same receiving stream: one kernel over the landed planes of every complex
// component, (re, im) <- (cos re - sin im, sin re + cos im) in double, as the host
// transports' apply_halo_phase (distributed.hpp). Only the fields travel (the 12 arrays of
// FieldStorage): pole and CPML state are each subdomain's own, as in the host transports.
// The MPI transport's CUDA destinations use the same kernel (cuda_apply_halo_phase).
// Peer access is enabled between every pair of distinct devices that supports it; without
// it the runtime stages the copy through the host. Traffic per exchange: each transfer moves
// planes * nx * ny (3D; nx in 2D) values of each component (partition.hpp HaloTransfer).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "golightly/distributed.hpp"
#include "golightly/errors.hpp"

namespace golightly {
namespace {

/// exp(i phase) (re[k] + i im[k]) for k < count, in place (cos c, sin s of the phase).
template <class T>
__global__ void rotate_halo_kernel(T* re, T* im, std::size_t count, double c, double s) {
    for (std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; k < count;
         k += std::size_t(gridDim.x) * blockDim.x) {
        const double r = double(re[k]), i = double(im[k]);
        re[k] = T(c * r - s * i);
        im[k] = T(s * r + c * i);
    }
}

/// rotate_halo_kernel on planes [first, first + planes) of every component of `fs` with both
/// copies, queued on `stream` (the device of fs current).
void rotate_halo_planes(const FieldStorage& fs, std::int64_t first, std::int64_t planes, double phase,
                        cudaStream_t stream) {
    if (phase == 0) return;
    const std::int64_t plane = fs.n[2] > 1 ? fs.n[0] * fs.n[1] : fs.n[0];
    const std::size_t offset = std::size_t(first * plane), count = std::size_t(planes * plane);
    if (count == 0) return;
    const double c = std::cos(phase), s = std::sin(phase);
    const int threads = 256;
    const int blocks = int(std::min<std::size_t>((count + threads - 1) / threads, 4096));
    for (int k = 0; k < 6; ++k) {
        if (!fs.field[k] || !fs.field[6 + k]) continue;
        if (fs.element_bytes == 8)
            rotate_halo_kernel<double><<<blocks, threads, 0, stream>>>(static_cast<double*>(fs.field[k]) + offset,
                                                                       static_cast<double*>(fs.field[6 + k]) + offset,
                                                                       count, c, s);
        else
            rotate_halo_kernel<float><<<blocks, threads, 0, stream>>>(static_cast<float*>(fs.field[k]) + offset,
                                                                      static_cast<float*>(fs.field[6 + k]) + offset,
                                                                      count, c, s);
        CUDA_CHECK(cudaGetLastError());
    }
}

class CudaPeerHalo final : public HaloExchange {
public:
    explicit CudaPeerHalo(const std::vector<SubdomainAccess*>& engines) {
        for (SubdomainAccess* e : engines) {
            if (!e) throw RunError("halo exchange (cuda-peer): an engine is missing");
            const FieldStorage fs = e->field_storage();
            if (fs.cuda_device < 0) throw RunError("halo exchange (cuda-peer): an engine's fields are not on a GPU");
            Side s;
            s.device = fs.cuda_device;
            s.stream = static_cast<cudaStream_t>(fs.cuda_stream);
            CUDA_CHECK(cudaSetDevice(s.device));
            CUDA_CHECK(cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming));
            CUDA_CHECK(cudaEventCreateWithFlags(&s.copied, cudaEventDisableTiming));
            CUDA_CHECK(cudaEventCreateWithFlags(&s.begun, cudaEventDisableTiming));
            CUDA_CHECK(cudaEventCreateWithFlags(&s.copied_in, cudaEventDisableTiming));
            CUDA_CHECK(cudaStreamCreateWithFlags(&s.copy_stream, cudaStreamNonBlocking));
            sides_.push_back(s);
        }
        for (const Side& a : sides_)
            for (const Side& b : sides_) {
                if (a.device == b.device) continue;
                int can = 0;
                CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a.device, b.device));
                if (!can) continue;
                CUDA_CHECK(cudaSetDevice(a.device));
                const cudaError_t e = cudaDeviceEnablePeerAccess(b.device, 0);
                if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();
                else CUDA_CHECK(e);
            }
    }
    ~CudaPeerHalo() override {
        for (Side& s : sides_) {
            cudaSetDevice(s.device);
            if (s.done) cudaEventDestroy(s.done);
            if (s.copied) cudaEventDestroy(s.copied);
            if (s.begun) cudaEventDestroy(s.begun);
            if (s.copied_in) cudaEventDestroy(s.copied_in);
            if (s.copy_stream) {
                cudaStreamSynchronize(s.copy_stream);
                cudaStreamDestroy(s.copy_stream);
            }
        }
    }

    std::string transport() const override { return "cuda-peer"; }
    bool moves_psi() const override { return true; }

    void exchange(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) override {
        for (Side& s : sides_) {
            CUDA_CHECK(cudaSetDevice(s.device));
            CUDA_CHECK(cudaEventRecord(s.done, s.stream));
        }
        for (const HaloTransfer& t : transfers) {
            const Side& a = sides_.at(std::size_t(t.from));
            const Side& b = sides_.at(std::size_t(t.to));
            CUDA_CHECK(cudaSetDevice(b.device));
            CUDA_CHECK(cudaStreamWaitEvent(b.stream, a.done, 0));
            copy_planes(t, engines[std::size_t(t.from)]->field_storage(), engines[std::size_t(t.to)]->field_storage(), a,
                        b, b.stream, with_psi);
        }
        for (Side& s : sides_) {
            CUDA_CHECK(cudaSetDevice(s.device));
            CUDA_CHECK(cudaEventRecord(s.copied, s.stream));
        }
        for (const HaloTransfer& t : transfers) {
            const Side& a = sides_.at(std::size_t(t.from));
            const Side& b = sides_.at(std::size_t(t.to));
            CUDA_CHECK(cudaSetDevice(a.device));
            CUDA_CHECK(cudaStreamWaitEvent(a.stream, b.copied, 0));
        }
    }

    /// One host thread per subdomain (distributed.cpp, mode "threads"): the copies into
    /// `to` on its own stream, then a wait for them. The sources have finished their step
    /// (the caller synchronized and passed a barrier) and do not step again before the
    /// next barrier, so no events are needed.
    void exchange_into(int to, const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) override {
        const Side& b = sides_.at(std::size_t(to));
        CUDA_CHECK(cudaSetDevice(b.device));
        const FieldStorage fb = engines[std::size_t(to)]->field_storage();
        for (const HaloTransfer& t : transfers) {
            if (t.to != to) continue;
            const Side& a = sides_.at(std::size_t(t.from));
            copy_planes(t, engines[std::size_t(t.from)]->field_storage(), fb, a, b, b.stream, with_psi);
        }
        CUDA_CHECK(cudaStreamSynchronize(b.stream));
    }

    void start(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) override {
        for (Side& s : sides_) {
            CUDA_CHECK(cudaSetDevice(s.device));
            CUDA_CHECK(cudaEventRecord(s.begun, s.stream));
        }
        for (std::size_t to = 0; to < sides_.size(); ++to) {
            Side& b = sides_[to];
            CUDA_CHECK(cudaSetDevice(b.device));
            CUDA_CHECK(cudaStreamWaitEvent(b.copy_stream, b.begun, 0));
            const FieldStorage fb = engines[to]->field_storage();
            for (const HaloTransfer& t : transfers) {
                if (std::size_t(t.to) != to) continue;
                const Side& a = sides_.at(std::size_t(t.from));
                CUDA_CHECK(cudaStreamWaitEvent(b.copy_stream, a.begun, 0));
                copy_planes(t, engines[std::size_t(t.from)]->field_storage(), fb, a, b, b.copy_stream);
            }
            CUDA_CHECK(cudaEventRecord(b.copied_in, b.copy_stream));
        }
    }

    void finish(const std::vector<HaloTransfer>& transfers, const std::vector<SubdomainAccess*>& engines) override {
        (void)engines;
        for (Side& b : sides_) {
            CUDA_CHECK(cudaSetDevice(b.device));
            CUDA_CHECK(cudaStreamWaitEvent(b.stream, b.copied_in, 0));
        }
        for (const HaloTransfer& t : transfers) {
            const Side& a = sides_.at(std::size_t(t.from));
            const Side& b = sides_.at(std::size_t(t.to));
            CUDA_CHECK(cudaSetDevice(a.device));
            CUDA_CHECK(cudaStreamWaitEvent(a.stream, b.copied_in, 0));
        }
    }

    void wait() override {
        for (Side& s : sides_) {
            CUDA_CHECK(cudaSetDevice(s.device));
            CUDA_CHECK(cudaStreamSynchronize(s.copy_stream));
            CUDA_CHECK(cudaStreamSynchronize(s.stream));
        }
    }

private:
    struct Side {
        int device = 0;
        cudaStream_t stream = nullptr;
        cudaEvent_t done = nullptr, copied = nullptr;
        cudaStream_t copy_stream = nullptr;  // overlapped transfers into this side
        cudaEvent_t begun = nullptr, copied_in = nullptr;
    };

    /// Enqueues transfer t (every component; with `psi` also FieldStorage::psi) on `stream`
    /// of the receiving side b.
    static void copy_planes(const HaloTransfer& t, const FieldStorage& fa, const FieldStorage& fb, const Side& a,
                            const Side& b, cudaStream_t stream, bool psi = false) {
        const std::int64_t plane = fa.n[2] > 1 ? fa.n[0] * fa.n[1] : fa.n[0];
        const std::size_t eb = std::size_t(fa.element_bytes);
        const std::size_t bytes = std::size_t(t.planes * plane) * eb;
        for (int c = 0; c < FieldStorage::kArrays; ++c) {
            if (!fa.field[c] || !fb.field[c]) continue;
            void* dst = static_cast<unsigned char*>(fb.field[c]) + std::size_t(t.to_plane * plane) * eb;
            const void* src = static_cast<const unsigned char*>(fa.field[c]) + std::size_t(t.from_plane * plane) * eb;
            if (a.device == b.device)
                CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));
            else
                CUDA_CHECK(cudaMemcpyPeerAsync(dst, b.device, src, a.device, bytes, stream));
        }
        for (int c = 0; c < 6 && psi; ++c)
            for (int x = 0; x < 2; ++x) {
                const std::int64_t pb = fa.psi_plane_bytes[c][x];
                if (!fa.psi[c][x] || !fb.psi[c][x] || pb != fb.psi_plane_bytes[c][x]) continue;
                void* dst = static_cast<unsigned char*>(fb.psi[c][x]) + std::size_t(t.to_plane * pb);
                const void* src = static_cast<const unsigned char*>(fa.psi[c][x]) + std::size_t(t.from_plane * pb);
                const std::size_t n = std::size_t(t.planes * pb);
                if (a.device == b.device)
                    CUDA_CHECK(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, stream));
                else
                    CUDA_CHECK(cudaMemcpyPeerAsync(dst, b.device, src, a.device, n, stream));
            }
        rotate_halo_planes(fb, t.to_plane, t.planes, t.phase, stream);  // after both copies, on b's device
    }
    std::vector<Side> sides_;
};

}  // namespace

void cuda_apply_halo_phase(const FieldStorage& fs, std::int64_t first, std::int64_t planes, double phase) {
    if (phase == 0) return;
    if (fs.cuda_device < 0)
        throw RunError("cuda_apply_halo_phase: the arrays are in host memory (apply_halo_phase rotates those)");
    if (fs.element_bytes != 4 && fs.element_bytes != 8)
        throw std::invalid_argument("cuda_apply_halo_phase: element_bytes " + std::to_string(fs.element_bytes) +
                                    ", not 4 or 8");
    CUDA_CHECK(cudaSetDevice(fs.cuda_device));
    rotate_halo_planes(fs, first, planes, phase, static_cast<cudaStream_t>(fs.cuda_stream));
}

std::unique_ptr<HaloExchange> make_cuda_peer_halo_exchange(const std::vector<SubdomainAccess*>& engines) {
    return std::make_unique<CudaPeerHalo>(engines);
}

}  // namespace golightly
