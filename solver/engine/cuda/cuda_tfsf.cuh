// GoLightly CUDA backend: total-field / scattered-field plane waves (scene.hpp "TF/SF",
// TfsfSource), 2D and 3D. The plan (incident lines, corrections) is the CPU engine's
// (golightly/tfsf_plan.hpp, make_tfsf_plan), so both backends add the same corrections.
// Per step, all on the engine's stream (graph-capturable, no host synchronization):
//   before_step: one block per incident line saves e^n, steps h to n+1/2 and e to n+1 and
//                sets the hard source at t = (n+1) dt (waveform evaluated on the device
//                from the device step counter, as cuda_sources.cuh does);
//   after_h:     H corrections with E_inc^n (after the H sources);
//   after_e:     E corrections with H~_inc^{n+1/2} (after the E sources, before the tensor
//                couplings), coefficient sign * cb of the cell.
// The lines are double precision (as on the CPU); several corrections may name one cell
// (box edges and corners), so they are added with atomicAdd.
#pragma once

#include <cstddef>
#include <vector>

#include "cuda_common.cuh"
#include "cuda_sources.cuh"  // DevWaveform, waveform_value
#include "golightly/tfsf_plan.hpp"

namespace golightly::cuda {
namespace {

struct TfsfLineDev {
    long long offset, len, m_src;
    DevWaveform waveform;  // delay = the source's delay_s
};

struct TfsfLinesDev {
    const TfsfLineDev* lines;
    const double *ea, *eb, *ha, *hb;  // concatenated coefficients
    double *e, *e_old, *h;            // concatenated line fields
    double dt;
};

// One block per line: e_old = e and h to n+1/2 (reads e only), then e to n+1 (reads h
// only), then the hard source. Traffic per line node and step: 4 coefficients, e read
// twice, e written twice (e_old, e), h read three times and written once: about 12
// doubles, i.e. 96 B per node (the lines are a few hundred nodes: negligible).
__global__ void tfsf_lines_step(TfsfLinesDev a, const long long* d_step, int step_offset) {
    const TfsfLineDev L = a.lines[blockIdx.x];
    double* e = a.e + L.offset;
    double* eo = a.e_old + L.offset;
    double* h = a.h + L.offset;
    const double *ea = a.ea + L.offset, *eb = a.eb + L.offset, *ha = a.ha + L.offset, *hb = a.hb + L.offset;
    for (long long m = threadIdx.x; m < L.len; m += blockDim.x) {
        eo[m] = e[m];
        h[m] = ha[m] * h[m] + hb[m] * ((m + 1 < L.len ? e[m + 1] : 0.0) - e[m]);
    }
    __syncthreads();
    for (long long m = threadIdx.x; m < L.len; m += blockDim.x)
        e[m] = ea[m] * e[m] + eb[m] * (h[m] - (m > 0 ? h[m - 1] : 0.0));
    __syncthreads();
    if (threadIdx.x == 0) {
        const double t_next = double(*d_step + step_offset + 1) * a.dt;
        e[L.m_src] = waveform_value(L.waveform, t_next);
    }
}

template <class T> struct TfsfCorrDev {
    int count;
    const int* cell;
    const int* slot;   // FieldArrays slot of the corrected component
    const int* line;   // index into the concatenated line values
    const T* coef;     // sign * S (H) or sign * cb (E)
    const double* inc; // e_old (H corrections) or h (E corrections)
    T* f[6];
};

// Traffic per correction: cell, slot, line (12 B), coefficient (s), the incident value
// (8 B, from L2: lines are short), an atomic read-modify-write of the field (2 s).
template <class T>
__global__ void tfsf_correct(TfsfCorrDev<T> c) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= c.count) return;
    atomicAdd(c.f[c.slot[k]] + c.cell[k], c.coef[k] * T(c.inc[c.line[k]]));
}

/// The TF/SF sources of a scene on the device (empty when Scene::tfsf is).
template <class T>
class Tfsf {
public:
    /// Builds the plan (make_tfsf_plan; RunError for an invalid source or a box reaching
    /// into the PML) and uploads it. f: the scene's fields by slot (FieldArrays).
    void setup(const Scene& sc, const FieldArrays<T>& f, cudaStream_t stream) {
        if (sc.tfsf.empty()) return;
        bool has[6] = {false, false, false, false, false, false};
        for (int c = 0; c < 6; ++c) has[c] = field_slot(sc, Component(c)) >= 0;
        TfsfPlan plan = make_tfsf_plan(sc, has, "CUDA engine");
        std::vector<TfsfLineDev> lines;
        std::vector<double> ea, eb, ha, hb;
        for (const TfsfLine& L : plan.lines) {
            const TfsfSource& t = sc.tfsf[L.src];
            const auto& w = t.waveform;
            TfsfLineDev d;
            d.offset = (long long)L.offset;
            d.len = L.len;
            d.m_src = L.m_src;
            d.waveform = {w.type == WaveformType::GaussianPulse ? 0 : 1, w.omega, w.t0_s, w.tau_s, w.ramp_s,
                          w.amplitude, w.phase_rad, t.delay_s};
            lines.push_back(d);
            ea.insert(ea.end(), L.ea.begin(), L.ea.end());
            eb.insert(eb.end(), L.eb.begin(), L.eb.end());
            ha.insert(ha.end(), L.ha.begin(), L.ha.end());
            hb.insert(hb.end(), L.hb.begin(), L.hb.end());
        }
        upload(lines_, lines, stream);
        upload(ea_, ea, stream);
        upload(eb_, eb, stream);
        upload(ha_, ha, stream);
        upload(hb_, hb, stream);
        const std::vector<double> zero(plan.line_size, 0.0);
        upload(e_, zero, stream);
        upload(e_old_, zero, stream);
        upload(h_, zero, stream);
        n_lines_ = int(lines.size());
        args_.lines = lines_.template as<TfsfLineDev>();
        args_.ea = ea_.template as<double>();
        args_.eb = eb_.template as<double>();
        args_.ha = ha_.template as<double>();
        args_.hb = hb_.template as<double>();
        args_.e = e_.template as<double>();
        args_.e_old = e_old_.template as<double>();
        args_.h = h_.template as<double>();
        args_.dt = sc.dt_s;
        h_corr_ = plan.h;
        e_corr_ = plan.e;
        setup_corrections(sc, f, h_corr_, H_, hc_, args_.e_old, stream);
        setup_corrections(sc, f, e_corr_, E_, ec_, args_.h, stream);
        corrections_ = plan.h.size() + plan.e.size();
        line_nodes_ = plan.line_size;
    }

    /// Phase before_step: the incident lines from n to n+1.
    void before_step(const StepLaunch& at) const {
        if (n_lines_ == 0) return;
        tfsf_lines_step<<<n_lines_, 256, 0, at.stream>>>(args_, at.d_step, at.k);
        CUDA_CHECK_LAUNCH();
    }
    /// The field arrays the next launches read and write (the 3D engine's two buffer sets
    /// alternate between steps, cuda_bulk3d.cuh).
    void rebind(const FieldArrays<T>& f) {
        for (int q = 0; q < 6; ++q) hc_.f[q] = ec_.f[q] = f.f[q];
    }

    /// Phase after_h (after the H sources): H corrections with E_inc^n.
    void after_h(cudaStream_t stream) const { launch(hc_, stream); }
    /// Phase after_e (after the E sources): E corrections with H~_inc^{n+1/2}.
    void after_e(cudaStream_t stream) const { launch(ec_, stream); }

    /// Two steps per pass (cuda_twostep3d.cuh two_step_tfsf): the H corrections (incident
    /// values E_inc of the lines' e_old) and the E corrections (H~_inc of the lines' h), for a
    /// kernel that adds them to a pass's output.
    const TfsfCorrDev<T>& h_corrections() const { return hc_; }
    const TfsfCorrDev<T>& e_corrections() const { return ec_; }

    /// 12 B + 3 s + 8 B per correction, 96 B per line node (kernels above).
    double bytes_per_step() const { return double(corrections_) * (20.0 + 3.0 * sizeof(T)) + 96.0 * double(line_nodes_); }

    /// Live edit: the E corrections carry cb of their cells (the CPU extension's
    /// materials_changed); rewritten in place, so a captured step graph stays valid.
    /// Synchronizes `stream`.
    void materials_changed(const Scene& edited, cudaStream_t stream) {
        if (e_corr_.empty()) return;
        const std::vector<T> coef = coefficients(edited, e_corr_);
        CUDA_CHECK(cudaMemcpyAsync(E_.coef.template as<void>(), coef.data(), coef.size() * sizeof(T),
                                   cudaMemcpyHostToDevice, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
    }

private:
    struct CorrBufs { DevBuf cell, slot, line, coef; };

    static std::vector<T> coefficients(const Scene& sc, const std::vector<TfsfCorrection>& v) {
        std::vector<T> coef(v.size());
        for (std::size_t k = 0; k < v.size(); ++k) {
            const TfsfCorrection& c = v[k];
            double m = sc.courant;
            if (c.component < 3) {
                const auto& idx = sc.material_index[c.component];
                m = std::size_t(c.cell) < idx.size() ? sc.table[idx[std::size_t(c.cell)]].cb : sc.courant;
            }
            coef[k] = T(c.sign * m);
        }
        return coef;
    }

    void setup_corrections(const Scene& sc, const FieldArrays<T>& f, const std::vector<TfsfCorrection>& v,
                           CorrBufs& B, TfsfCorrDev<T>& d, const double* inc, cudaStream_t stream) {
        std::vector<int> cell(v.size()), slot(v.size()), line(v.size());
        for (std::size_t k = 0; k < v.size(); ++k) {
            cell[k] = int(v[k].cell);
            slot[k] = field_slot(sc, Component(v[k].component));
            line[k] = v[k].line;
        }
        upload(B.cell, cell, stream);
        upload(B.slot, slot, stream);
        upload(B.line, line, stream);
        upload(B.coef, coefficients(sc, v), stream);
        d.count = int(v.size());
        d.cell = B.cell.template as<int>();
        d.slot = B.slot.template as<int>();
        d.line = B.line.template as<int>();
        d.coef = B.coef.template as<T>();
        d.inc = inc;
        for (int q = 0; q < 6; ++q) d.f[q] = f.f[q];
    }

    void launch(const TfsfCorrDev<T>& d, cudaStream_t stream) const {
        if (d.count == 0) return;
        tfsf_correct<T><<<(d.count + 255) / 256, 256, 0, stream>>>(d);
        CUDA_CHECK_LAUNCH();
    }

    DevBuf lines_, ea_, eb_, ha_, hb_, e_, e_old_, h_;
    CorrBufs H_, E_;
    TfsfLinesDev args_{};
    TfsfCorrDev<T> hc_{}, ec_{};
    int n_lines_ = 0;
    std::size_t corrections_ = 0, line_nodes_ = 0;
    std::vector<TfsfCorrection> h_corr_, e_corr_;
};

}  // namespace
}  // namespace golightly::cuda
