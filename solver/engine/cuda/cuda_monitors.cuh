// GoLightly CUDA backend: monitors (scene.hpp step 3): DFT sets accumulate sample *
// exp(+i 2 pi f t) dt, E components at t = (n+1) dt and H components at (n+1/2) dt, and
// time probes record one reduced value per step. Monitors<T> owns the sample lists, the
// accumulators and the probe sample storage (grown by ensure_probe_capacity outside the
// captured graph); phase after_step launches one kernel for all DFT chunks and probes.
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

constexpr int kDftChunk = 64;       // samples per DFT block
constexpr int kMonitorThreads = 128;

// Monitors. DFT blocks: one (set, chunk of <= kDftChunk samples) per block; the samples of
// the chunk are gathered once into shared memory, then each thread owns frequencies
// f = threadIdx.x + m*blockDim.x and adds sample * exp(+i 2 pi f t) dt to X[k][f] for the
// chunk (coalesced over f). Traffic: the sample cells (2 gathers) + 32 B per accumulator.
// Probe blocks: one probe per block, a block reduction of sum w F and sum w F^2.
template <class T> struct DftSetDev {
    int field;        // slot of FieldArrays (cuda_common.cuh)
    int is_h;         // sample time (n+1/2) dt instead of (n+1) dt
    int n_samples, n_freq;
    const int* cell0; const int* cell1;
    const double* w0; const double* w1;
    const double* freq;
    double2* acc;
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
    const DftBlock* blocks;
    int n_dft_blocks;
    const ProbeDev* probes;
    int n_probes;
    double dt;
};

// Traffic: per DFT sample its cells, weights and field values (2 gathers), per
// accumulator 32 B (double2 read + write); per probe cell its index, weight and value.
template <class T>
__global__ void __launch_bounds__(kMonitorThreads) monitors(MonitorArgs<T> a, const long long* d_step, int step_offset) {
    __shared__ double sample[kDftChunk];
    __shared__ double scratch[32];
    const long long n = *d_step + step_offset;
    if (int(blockIdx.x) < a.n_dft_blocks) {
        const DftBlock blk = a.blocks[blockIdx.x];
        const DftSetDev<T> s = a.sets[blk.set];
        const T* F = a.f[s.field];
        const int m = blk.k_end - blk.k_begin;
        for (int k = threadIdx.x; k < m; k += blockDim.x) {
            const int kk = blk.k_begin + k;
            double v = s.w0[kk] * double(F[s.cell0[kk]]);
            if (s.cell1[kk] >= 0) v += s.w1[kk] * double(F[s.cell1[kk]]);
            sample[k] = v * a.dt;
        }
        __syncthreads();
        const double t = (double(n) + (s.is_h ? 0.5 : 1.0)) * a.dt;
        for (int f = threadIdx.x; f < s.n_freq; f += blockDim.x) {
            double sn, cs;
            sincospi(2.0 * s.freq[f] * t, &sn, &cs);
            double2* acc = s.acc + std::size_t(blk.k_begin) * s.n_freq + f;
            for (int k = 0; k < m; ++k) {
                double2 x = acc[std::size_t(k) * s.n_freq];
                x.x += sample[k] * cs;
                x.y += sample[k] * sn;
                acc[std::size_t(k) * s.n_freq] = x;
            }
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

/// The DFT sets and time probes of a scene.
template <class T>
class Monitors {
public:
    void setup(const Scene& sc, const DevGrid<T>& grid, cudaStream_t stream) { setup(sc, fields_of(grid), stream); }
    /// The same for any grid (2D or 3D): `fields` by slot (FieldArrays).
    /// The field arrays the next launches read (the 3D engine's buffers alternate between steps).
    void rebind(const FieldArrays<T>& fields) { for (int q = 0; q < 6; ++q) f_[q] = fields.f[q]; }
    void setup(const Scene& sc, const FieldArrays<T>& fields, cudaStream_t stream) {
        for (int q = 0; q < 6; ++q) f_[q] = fields.f[q];
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
        std::vector<DftSetDev<T>> sets;
        std::vector<DftBlock> blocks;
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
            sets.push_back(d);
            if (d.n_freq > 0)
                for (int k = 0; k < d.n_samples; k += kDftChunk)
                    blocks.push_back({int(q), k, std::min(d.n_samples, k + kDftChunk)});
        }
        upload(dft_sets_, sets, stream);
        upload(dft_blocks_, blocks, stream);
        n_dft_blocks_ = int(blocks.size());
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

    /// Phase after_step: every DFT chunk and every probe samples the completed step.
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
            monitors<T><<<nblocks, kMonitorThreads, 0, l.stream>>>(a, l.d_step, l.k);
            CUDA_CHECK_LAUNCH();
        }
    }

    /// DFT traffic: 32 B per accumulator and step (the sample gathers and the probes are
    /// not in the model).
    double bytes_per_step() const { return double(dft_total_) * 32.0; }

    /// Accumulators of DFT set `set` (sample-major, frequency fastest); synchronizes.
    std::vector<std::complex<double>> dft(int set, cudaStream_t stream) const {
        if (set < 0 || set >= int(dft_size_.size())) throw std::out_of_range("dft: no DFT set " + std::to_string(set));
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
    T* f_[6] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
    double dt_ = 0;
    int n_probes_ = 0;
    DevBuf dft_c0_, dft_c1_, dft_w0_, dft_w1_, dft_f_, dft_acc_, dft_sets_, dft_blocks_;
    std::vector<std::size_t> dft_offset_, dft_size_;  // per set: first accumulator, count
    std::size_t dft_total_ = 0;
    int n_dft_blocks_ = 0;
    DevBuf probe_cells_, probe_w_, probe_samples_, probes_;
    std::vector<ProbeDev> probe_proto_;    // per probe, samples pointer unset
    std::size_t probe_capacity_ = 0;
};

}  // namespace
}  // namespace golightly::cuda
