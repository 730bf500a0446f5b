// GoLightly CUDA backend: monitors (scene.hpp step 3): DFT sets accumulate sample *
// exp(+i 2 pi f t) dt, E components at t = (n+1) dt and H components at (n+1/2) dt, and
// time probes record one reduced value per step. Monitors<T> owns the sample lists, the
// accumulators, the DFT sample ring and the probe sample storage (grown by
// ensure_probe_capacity outside the captured graph).
//
// The DFT is batched over kDftSlots steps: phase after_step launches
//   monitors        every step: each DFT sample (the weighted 1- or 2-cell gather, times
//                   dt) goes to ring slot n % kDftSlots (step n -> n+1), and the probes
//                   record step n;
//   dft_accumulate  every step, but it returns at once unless (n+1) % kDftSlots == 0; then
//                   the ring holds steps n+1-kDftSlots .. n (slot s: step n+1-kDftSlots+s)
//                   and every accumulator gets sum_s sample_s exp(+i 2 pi f t_s), once per
//                   kDftSlots steps.
// The step number n is the device counter (*d_step + k, StepLaunch), so this works inside
// the captured CUDA graph. The slots filled since the last full ring (steps_done %
// kDftSlots of them) are added by dft() on the host's request (flush), which zeroes them so
// that the next full-ring accumulation adds them nothing. The slots are added one after
// the other in step order with the phase of a step-by-step accumulation (same expression,
// double sincospi): the same terms in the same order, whatever the number of steps and of
// dft() calls.
#pragma once

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_common.cuh"

namespace golightly::cuda {
namespace {

constexpr int kDftSlots = 16;       // steps per DFT accumulation (ring slots)
constexpr int kDftChunk = 64;       // samples per dft_accumulate block item
constexpr int kMonitorThreads = 128;  // threads per block; also samples per gather block
constexpr int kDftGroup = 4;        // accumulators loaded together per thread (loads in flight)
// dft_accumulate blocks resident per SM: its launch bound (79 registers, no spills) and its
// grid; 40 KiB of shared memory each, so 5 fit. Before (8 accumulators per thread, all 16
// phase factors in registers): 228 registers, 2 blocks (8 warps) per SM, and the accumulation
// ran at 0.48 TB/s (1.64 ms for 2.3 GB on a 420^3 sphere's flux boxes, Nsight Compute).
constexpr int kDftBlocksPerSm = 5;

// DFT sets. The ring is slot-major: slot s of global sample g at ring[s * ring_stride + g]
// (ring_stride = all sets' samples; DftSetDev::ring points at the set's first sample).
template <class T> struct DftSetDev {
    int field;        // slot of FieldArrays (cuda_common.cuh)
    int is_h;         // sample time (n+1/2) dt instead of (n+1) dt
    int n_samples, n_freq;
    const int* cell0; const int* cell1;
    const double* w0; const double* w1;
    const double* freq;
    double2* acc;     // n_samples x n_freq, frequency fastest
    double* ring;     // + s * ring_stride: slot s
};
struct DftBlock { int set, k_begin, k_end; };
struct ProbeDev {
    int field, n_cells, reduce;  // reduce: 0 value, 1 mean, 2 rms, 3 sum_squares
    double weight_sum;
    const int* cell; const double* w;
    double* samples;  // capacity values
};

template <class T> struct MonitorArgs {
    T* f[6];
    const DftSetDev<T>* sets;
    const DftBlock* blocks;  // gather blocks: <= kMonitorThreads samples each
    int n_dft_blocks;
    const ProbeDev* probes;
    int n_probes;
    double dt;
    std::size_t ring_stride;
};

template <class T> struct DftAccumArgs {
    const DftSetDev<T>* sets;
    const DftBlock* blocks;  // accumulate block items: <= kDftChunk samples each
    int n_blocks;
    double dt;
    std::size_t ring_stride;
};

// Every step. DFT gather blocks: one thread per sample; traffic per sample its cell0 and
// cell1 indices (4 + 4 B), w0 and the field value (8 + sizeof(T)), for a 2-cell sample also
// w1 and the second value (8 + sizeof(T)), and the ring write (8 B). Probe blocks: one
// probe per block, a block reduction of sum w F and sum w F^2; per probe cell its index,
// weight and value.
template <class T>
__global__ void __launch_bounds__(kMonitorThreads) monitors(MonitorArgs<T> a, const long long* d_step, int step_offset) {
    __shared__ double scratch[32];
    const long long n = *d_step + step_offset;
    if (int(blockIdx.x) < a.n_dft_blocks) {
        const DftBlock blk = a.blocks[blockIdx.x];
        const DftSetDev<T> s = a.sets[blk.set];
        const T* F = a.f[s.field];
        const int kk = blk.k_begin + int(threadIdx.x);
        if (kk < blk.k_end) {
            double v = s.w0[kk] * double(F[s.cell0[kk]]);
            if (s.cell1[kk] >= 0) v += s.w1[kk] * double(F[s.cell1[kk]]);
            s.ring[std::size_t(n % kDftSlots) * a.ring_stride + kk] = v * a.dt;
        }
        return;
    }
    const int p = int(blockIdx.x) - a.n_dft_blocks;
    if (p >= a.n_probes) return;
    const ProbeDev pr = a.probes[p];
    const T* F = a.f[pr.field];
    double s1 = 0, s2 = 0;
    for (int k = threadIdx.x; k < pr.n_cells; k += blockDim.x) {
        const double v = double(F[pr.cell[k]]);
        s1 += pr.w[k] * v;
        s2 += pr.w[k] * v * v;
    }
    s1 = block_sum(s1, scratch);
    s2 = block_sum(s2, scratch);
    if (threadIdx.x == 0) {
        double r = s1;
        if (pr.reduce == 1) r = s1 / pr.weight_sum;
        else if (pr.reduce == 2) r = sqrt(s2 / pr.weight_sum);
        else if (pr.reduce == 3) r = s2;
        pr.samples[n] = r;
    }
}

// DFT accumulation of ring slots [s0, s1) of steps base .. base + kDftSlots - 1 (slot s:
// step base + s). Device mode (d_step set, launched every step): returns unless
// (n+1) % kDftSlots == 0, n = *d_step + step_offset; then base = n+1-kDftSlots, all slots.
// Host mode (d_step null, dft()'s flush): base, s0, s1 as given, and the slots read are
// zeroed. Block items: (set, chunk of <= kDftChunk samples), grid-stride over items; the
// item's slots are read once into shared memory (slots outside [s0, s1) as 0, which adds
// exactly nothing), each thread owns frequencies f = threadIdx.x + m*blockDim.x, computes
// the kDftSlots phase factors of f once per item (one sincospi at a time into its column of
// phase[], read back from there one slot at a time) and adds the slots in step order to
// kDftGroup accumulators X[k][f] at a time (loads in flight; coalesced over f). A set of fewer frequencies than
// threads (a flux box's 19, say) is spread over lanes: thread t owns f = t % n_freq and the
// samples k = t / n_freq + lanes * j, so that not only n_freq of the block's threads work
// (before: 19 of 128, and the accumulation took 8 % of a gold-sphere step on an H200).
// Traffic per accumulation: 8 B per sample and slot (ring read; host mode also its
// zeroing) + 32 B per accumulator (double2 read + write), i.e. per step 8 B per sample and
// 32 B / kDftSlots per accumulator.
template <class T>
__global__ void __launch_bounds__(kMonitorThreads, kDftBlocksPerSm)
    dft_accumulate(DftAccumArgs<T> a, const long long* d_step, int step_offset, long long base, int s0, int s1) {
    __shared__ double sample[kDftSlots][kDftChunk];         // 8 KiB
    __shared__ double2 phase[kDftSlots][kMonitorThreads];  // 32 KiB: staging of the phase factors
    if (d_step) {
        const long long n = *d_step + step_offset;
        if ((n + 1) % kDftSlots != 0) return;
        base = n + 1 - kDftSlots;
        s0 = 0;
        s1 = kDftSlots;
    }
    int phase_set = -1;  // the set whose phase factors phase[q][f] hold (few-frequency path)
    for (int b = blockIdx.x; b < a.n_blocks; b += gridDim.x) {
        const DftBlock blk = a.blocks[b];
        const DftSetDev<T> s = a.sets[blk.set];
        const int m = blk.k_end - blk.k_begin;
        for (int e = threadIdx.x; e < kDftSlots * kDftChunk; e += blockDim.x) {
            const int slot = e / kDftChunk, k = e % kDftChunk;
            double v = 0;
            if (k < m && slot >= s0 && slot < s1) {
                double* r = s.ring + std::size_t(slot) * a.ring_stride + blk.k_begin + k;
                v = *r;
                if (!d_step) *r = 0.0;  // flushed by the host: the next full ring adds nothing
            }
            sample[slot][k] = v;
        }
        __syncthreads();
        const double t_off = s.is_h ? 0.5 : 1.0;
        if (s.n_freq > 0 && s.n_freq < int(blockDim.x)) {
            // Few frequencies (flux boxes: typically 10-100): thread t owns frequency
            // f = t % n_freq of lane t / n_freq, and the lanes share the item's samples
            // (k = lane + lanes * j), so that all lanes * n_freq threads work instead of
            // n_freq. Consecutive threads then touch consecutive accumulators X[k][f].
            // The phase factors depend on the set and base only: computed when the set
            // changes (a block's items mostly belong to one set), not per item.
            const int nf = s.n_freq, lanes = int(blockDim.x) / nf;
            if (blk.set != phase_set && int(threadIdx.x) < nf) {
                const double fr = s.freq[threadIdx.x];
#pragma unroll 1
                for (int q = 0; q < kDftSlots; ++q) {
                    const double t = (double(base + q) + t_off) * a.dt;  // the unbatched kernel's t
                    double sn, cs;
                    sincospi(2.0 * fr * t, &sn, &cs);
                    phase[q][threadIdx.x] = make_double2(cs, sn);  // column f
                }
            }
            phase_set = blk.set;  // the same in every thread: the block walks one item list
            __syncthreads();
            const int lane = int(threadIdx.x) / nf, f = int(threadIdx.x) % nf;
            if (lane < lanes) {
                double2* acc = s.acc + std::size_t(blk.k_begin) * nf + f;
                for (int k0 = lane; k0 < m; k0 += lanes * kDftGroup) {
                    double2 x[kDftGroup];
#pragma unroll
                    for (int u = 0; u < kDftGroup; ++u)
                        if (k0 + u * lanes < m) x[u] = acc[std::size_t(k0 + u * lanes) * nf];
                    // Slots outer, accumulators inner: each accumulator still adds the slots
                    // in step order (the same terms in the same order as before), and a
                    // thread holds one phase factor instead of all kDftSlots (kDftBlocksPerSm).
#pragma unroll 1
                    for (int q = 0; q < kDftSlots; ++q) {  // step order, as the unbatched sum
                        const double2 ph = phase[q][f];
#pragma unroll
                        for (int u = 0; u < kDftGroup; ++u) {
                            const int k = k0 + u * lanes;
                            if (k < m) {
                                x[u].x += sample[q][k] * ph.x;
                                x[u].y += sample[q][k] * ph.y;
                            }
                        }
                    }
#pragma unroll
                    for (int u = 0; u < kDftGroup; ++u)
                        if (k0 + u * lanes < m) acc[std::size_t(k0 + u * lanes) * nf] = x[u];
                }
            }
            __syncthreads();  // sample[] (and phase[] for another set) are refilled by the next item
            continue;
        }
        phase_set = -1;  // the per-thread columns below overwrite phase[]
        for (int f = threadIdx.x; f < s.n_freq; f += blockDim.x) {
            const double fr = s.freq[f];
#pragma unroll 1
            for (int q = 0; q < kDftSlots; ++q) {  // one at a time: sincospi's registers stay few
                const double t = (double(base + q) + t_off) * a.dt;  // the unbatched kernel's t
                double sn, cs;
                sincospi(2.0 * fr * t, &sn, &cs);
                phase[q][threadIdx.x] = make_double2(cs, sn);  // this thread's column only
            }
            double2* acc = s.acc + std::size_t(blk.k_begin) * s.n_freq + f;
            for (int k0 = 0; k0 < m; k0 += kDftGroup) {
                const int g = min(kDftGroup, m - k0);
                double2 x[kDftGroup];
#pragma unroll
                for (int u = 0; u < kDftGroup; ++u)
                    if (u < g) x[u] = acc[std::size_t(k0 + u) * s.n_freq];
#pragma unroll 1
                for (int q = 0; q < kDftSlots; ++q) {  // step order, as the unbatched sum
                    const double2 ph = phase[q][threadIdx.x];  // slots outer, as above
#pragma unroll
                    for (int u = 0; u < kDftGroup; ++u) {
                        if (u < g) {
                            x[u].x += sample[q][k0 + u] * ph.x;
                            x[u].y += sample[q][k0 + u] * ph.y;
                        }
                    }
                }
#pragma unroll
                for (int u = 0; u < kDftGroup; ++u)
                    if (u < g) acc[std::size_t(k0 + u) * s.n_freq] = x[u];
            }
        }
        __syncthreads();  // sample[] is refilled by the next item
    }
}

/// The DFT sets and time probes of a scene.
template <class T>
class Monitors {
public:
    void setup(const Scene& sc, const DevGrid<T>& grid, cudaStream_t stream) { setup(sc, fields_of(grid), stream); }
    /// The same for any grid (2D or 3D): `fields` by slot (FieldArrays).
    void setup(const Scene& sc, const FieldArrays<T>& fields, cudaStream_t stream) {
        rebind(fields);
        dt_ = sc.dt_s;
        n_probes_ = int(sc.time_probes.size());
        // DFT sets.
        std::vector<int> c0, c1;
        std::vector<double> w0, w1, fr;
        std::vector<std::size_t> off_k, off_f;
        dft_total_ = 0;
        for (const auto& s : sc.dft_sets) {
            // cell1 / w1 may be empty: single-cell samples.
            const bool two = !s.cell1.empty();
            if (s.w0.size() != s.cell0.size() || (two && (s.cell1.size() != s.cell0.size() || s.w1.size() != s.cell0.size())))
                throw RunError("CUDA engine: DFT set arrays differ in length");
            if (field_slot(sc, s.component) < 0)
                throw RunError("CUDA engine: DFT set of a component the polarization lacks");
            off_k.push_back(c0.size());
            off_f.push_back(fr.size());
            dft_offset_.push_back(dft_total_);
            dft_size_.push_back(s.cell0.size() * s.frequencies_hz.size());
            for (std::size_t k = 0; k < s.cell0.size(); ++k) {
                const CellIndex second = two ? s.cell1[k] : -1;
                if (s.cell0[k] < 0 || std::size_t(s.cell0[k]) >= sc.cells() || std::size_t(std::max<CellIndex>(0, second)) >= sc.cells())
                    throw RunError("CUDA engine: DFT sample cell out of range");
                c0.push_back(int(s.cell0[k])); c1.push_back(int(second)); w0.push_back(s.w0[k]); w1.push_back(two ? s.w1[k] : 0.0);
            }
            fr.insert(fr.end(), s.frequencies_hz.begin(), s.frequencies_hz.end());
            dft_total_ += s.cell0.size() * s.frequencies_hz.size();
        }
        upload(dft_c0_, c0, stream); upload(dft_c1_, c1, stream);
        upload(dft_w0_, w0, stream); upload(dft_w1_, w1, stream); upload(dft_f_, fr, stream);
        dft_acc_.alloc(std::max<std::size_t>(1, dft_total_) * sizeof(double2));
        CUDA_CHECK(cudaMemsetAsync(dft_acc_.template as<void>(), 0, dft_acc_.bytes(), stream));
        ring_stride_ = c0.size();
        dft_ring_.alloc(std::max<std::size_t>(1, ring_stride_ * kDftSlots) * sizeof(double));
        CUDA_CHECK(cudaMemsetAsync(dft_ring_.template as<void>(), 0, dft_ring_.bytes(), stream));
        flushed_ = 0;
        std::vector<DftSetDev<T>> sets;
        std::vector<DftBlock> blocks, acc_blocks;
        dft_sample_bytes_ = 0;
        for (std::size_t q = 0; q < sc.dft_sets.size(); ++q) {
            const auto& s = sc.dft_sets[q];
            DftSetDev<T> d{};
            d.field = field_slot(sc, s.component);
            d.is_h = is_magnetic(s.component);
            d.n_samples = int(s.cell0.size());
            d.n_freq = int(s.frequencies_hz.size());
            d.cell0 = dft_c0_.template as<int>() + off_k[q]; d.cell1 = dft_c1_.template as<int>() + off_k[q];
            d.w0 = dft_w0_.template as<double>() + off_k[q]; d.w1 = dft_w1_.template as<double>() + off_k[q];
            d.freq = dft_f_.template as<double>() + off_f[q];
            d.acc = dft_acc_.template as<double2>() + dft_offset_[q];
            d.ring = dft_ring_.template as<double>() + off_k[q];
            sets.push_back(d);
            if (d.n_freq > 0) {
                for (int k = 0; k < d.n_samples; k += kMonitorThreads)
                    blocks.push_back({int(q), k, std::min(d.n_samples, k + kMonitorThreads)});
                for (int k = 0; k < d.n_samples; k += kDftChunk)
                    acc_blocks.push_back({int(q), k, std::min(d.n_samples, k + kDftChunk)});
                // Per sample and step (traffic comments of the kernels): the gather, the ring
                // write and, amortized, the accumulation's ring read.
                const bool two = !s.cell1.empty();
                for (int k = 0; k < d.n_samples; ++k)
                    dft_sample_bytes_ += 4 + 4 + 8 + double(sizeof(T)) + (two && s.cell1[k] >= 0 ? 8 + double(sizeof(T)) : 0) + 8 + 8;
            }
        }
        upload(dft_sets_, sets, stream);
        upload(dft_blocks_, blocks, stream);
        upload(dft_acc_blocks_, acc_blocks, stream);
        n_dft_blocks_ = int(blocks.size());
        n_acc_blocks_ = int(acc_blocks.size());
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        acc_grid_ = std::max(1, std::min(n_acc_blocks_, kDftBlocksPerSm * std::max(1, sms)));  // grid-stride: a cheap early return
        // Time probes (sample storage allocated by ensure_probe_capacity).
        std::vector<int> pc;
        std::vector<double> pw;
        std::vector<std::size_t> off;
        for (const auto& p : sc.time_probes) {
            if (p.cells.size() != p.weights.size()) throw RunError("CUDA engine: probe cells/weights differ in length");
            if (field_slot(sc, p.component) < 0)
                throw RunError("CUDA engine: time probe of a component the polarization lacks");
            off.push_back(pc.size());
            for (std::size_t k = 0; k < p.cells.size(); ++k) {
                if (p.cells[k] < 0 || std::size_t(p.cells[k]) >= sc.cells()) throw RunError("CUDA engine: probe cell out of range");
                pc.push_back(int(p.cells[k])); pw.push_back(p.weights[k]);
            }
        }
        upload(probe_cells_, pc, stream); upload(probe_w_, pw, stream);
        for (std::size_t q = 0; q < sc.time_probes.size(); ++q) {
            const auto& p = sc.time_probes[q];
            ProbeDev d{};
            d.field = field_slot(sc, p.component);
            d.n_cells = int(p.cells.size());
            d.reduce = p.reduce == Reduce::Value ? 0 : p.reduce == Reduce::Mean ? 1 : p.reduce == Reduce::Rms ? 2 : 3;
            d.weight_sum = 0;
            for (double w : p.weights) d.weight_sum += w;
            d.cell = probe_cells_.template as<int>() + off[q];
            d.w = probe_w_.template as<double>() + off[q];
            d.samples = nullptr;  // set by ensure_probe_capacity
            probe_proto_.push_back(d);
        }
    }

    /// Makes room for `steps` probe samples per probe (outside graph capture). Returns
    /// true when the storage moved (the captured graph holds the old kernel arguments).
    bool ensure_probe_capacity(std::int64_t steps, cudaStream_t stream) {
        if (probe_proto_.empty() || std::size_t(steps) <= probe_capacity_) return false;
        std::size_t cap = std::max<std::size_t>(4096, probe_capacity_ * 2);
        while (cap < std::size_t(steps)) cap *= 2;
        const std::size_t np = probe_proto_.size();
        DevBuf fresh;
        fresh.alloc(np * cap * sizeof(double));
        CUDA_CHECK(cudaMemsetAsync(fresh.template as<void>(), 0, fresh.bytes(), stream));
        if (probe_capacity_ > 0)
            CUDA_CHECK(cudaMemcpy2DAsync(fresh.template as<void>(), cap * sizeof(double), probe_samples_.template as<void>(),
                                         probe_capacity_ * sizeof(double), probe_capacity_ * sizeof(double), np,
                                         cudaMemcpyDeviceToDevice, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        fresh.swap(probe_samples_);
        probe_capacity_ = cap;
        std::vector<ProbeDev> pd;
        for (std::size_t q = 0; q < np; ++q) {
            ProbeDev d = probe_proto_[q];
            d.samples = probe_samples_.template as<double>() + q * cap;
            pd.push_back(d);
        }
        upload(probes_, pd, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        return true;
    }

    /// The field arrays the next launches read (the 3D engine's buffers alternate between steps).
    void rebind(const FieldArrays<T>& fields) { for (int q = 0; q < 6; ++q) f_[q] = fields.f[q]; }

    /// Phase after_step: every DFT sample goes to the ring and every probe samples the
    /// completed step; every kDftSlots steps the ring is added to the accumulators.
    void after_step(const StepLaunch& l) const {
        const int nblocks = n_dft_blocks_ + n_probes_;
        if (nblocks > 0) {
            MonitorArgs<T> a{};
            for (int q = 0; q < 6; ++q) a.f[q] = f_[q];
            a.sets = dft_sets_.template as<DftSetDev<T>>();
            a.blocks = dft_blocks_.template as<DftBlock>();
            a.n_dft_blocks = n_dft_blocks_;
            a.probes = probes_.template as<ProbeDev>();
            a.n_probes = n_probes_;
            a.dt = dt_;
            a.ring_stride = ring_stride_;
            monitors<T><<<nblocks, kMonitorThreads, 0, l.stream>>>(a, l.d_step, l.k);
            CUDA_CHECK_LAUNCH();
        }
        if (n_acc_blocks_ > 0) {
            dft_accumulate<T><<<acc_grid_, kMonitorThreads, 0, l.stream>>>(accum_args(), l.d_step, l.k, 0, 0, 0);
            CUDA_CHECK_LAUNCH();
        }
    }

    /// DFT traffic per step (the kernels' traffic comments): per sample the gather (cell
    /// indices 8 B, weights and field values 8 B + sizeof(T) per cell), the ring write (8 B)
    /// and the accumulation's ring read (8 B per step), plus 32 B per accumulator every
    /// kDftSlots steps. The probes and dft()'s flushes are not in the model.
    double bytes_per_step() const { return dft_sample_bytes_ + double(dft_total_) * 32.0 / kDftSlots; }

    /// Accumulators of DFT set `set` after `steps_done` steps (the engine's count; sample-
    /// major, frequency fastest); synchronizes. First adds the ring slots filled since the
    /// last full ring (flush), so the result is the sum over all steps done.
    std::vector<std::complex<double>> dft(int set, std::int64_t steps_done, cudaStream_t stream) {
        if (set < 0 || set >= int(dft_size_.size())) throw std::out_of_range("dft: no DFT set " + std::to_string(set));
        flush(steps_done, stream);
        std::vector<std::complex<double>> out(dft_size_[set]);
        static_assert(sizeof(std::complex<double>) == sizeof(double2));
        if (!out.empty())
            CUDA_CHECK(cudaMemcpyAsync(out.data(), dft_acc_.template as<double2>() + dft_offset_[set], out.size() * sizeof(double2),
                                       cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        return out;
    }

    /// The first `steps` samples of time probe `probe`; synchronizes.
    std::vector<double> time_samples(int probe, std::int64_t steps, cudaStream_t stream) const {
        if (probe < 0 || probe >= n_probes_)
            throw std::out_of_range("time_samples: no time probe " + std::to_string(probe));
        std::vector<double> out(static_cast<std::size_t>(steps));
        if (!out.empty())
            CUDA_CHECK(cudaMemcpyAsync(out.data(), probe_samples_.template as<double>() + std::size_t(probe) * probe_capacity_,
                                       out.size() * sizeof(double), cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        return out;
    }

private:
    DftAccumArgs<T> accum_args() const {
        DftAccumArgs<T> a{};
        a.sets = dft_sets_.template as<DftSetDev<T>>();
        a.blocks = dft_acc_blocks_.template as<DftBlock>();
        a.n_blocks = n_acc_blocks_;
        a.dt = dt_;
        a.ring_stride = ring_stride_;
        return a;
    }

    /// Adds the ring slots of steps [max(flushed_, base), steps_done) to the accumulators
    /// (all sets) and zeroes them, base = steps_done rounded down to a multiple of
    /// kDftSlots: the device added every step before base (full rings), and the slots of
    /// steps [base, flushed_) were added and zeroed by the previous flush. Asynchronous.
    void flush(std::int64_t steps_done, cudaStream_t stream) {
        const std::int64_t base = steps_done - steps_done % kDftSlots;
        const int s0 = flushed_ > base ? int(flushed_ - base) : 0;
        const int s1 = int(steps_done - base);
        flushed_ = std::max(flushed_, steps_done);
        if (n_acc_blocks_ == 0 || s1 <= s0) return;
        dft_accumulate<T><<<acc_grid_, kMonitorThreads, 0, stream>>>(accum_args(), nullptr, 0, base, s0, s1);
        CUDA_CHECK_LAUNCH();
    }

    T* f_[6] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
    double dt_ = 0;
    int n_probes_ = 0;
    DevBuf dft_c0_, dft_c1_, dft_w0_, dft_w1_, dft_f_, dft_acc_, dft_sets_, dft_blocks_, dft_acc_blocks_;
    DevBuf dft_ring_;                                 // kDftSlots x ring_stride_ doubles
    std::vector<std::size_t> dft_offset_, dft_size_;  // per set: first accumulator, count
    std::size_t dft_total_ = 0;                       // accumulators of all sets
    std::size_t ring_stride_ = 0;                     // samples of all sets
    double dft_sample_bytes_ = 0;                     // per step: gathers + ring (bytes_per_step)
    std::int64_t flushed_ = 0;                        // steps_done of the last flush
    int n_dft_blocks_ = 0, n_acc_blocks_ = 0, acc_grid_ = 1;
    DevBuf probe_cells_, probe_w_, probe_samples_, probes_;
    std::vector<ProbeDev> probe_proto_;    // per probe, samples pointer unset
    std::size_t probe_capacity_ = 0;
};

}  // namespace
}  // namespace golightly::cuda
