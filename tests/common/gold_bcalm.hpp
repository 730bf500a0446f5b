// The gold nanosphere of B-CALM (issue 15; examples/gold_nanosphere_bcalm_3d.glproj):
// P. Wahl, D. S. Ly-Gagnon, C. Debaes, D. A. B. Miller, H. Thienpont, "B-CALM: an
// open-source multi-GPU-based 3D-FDTD with multi-pole dispersion for plasmonics",
// Prog. Electromagn. Res. 138, 467-478 (2013): an 80 nm diameter gold sphere in air, gold
// as the paper's Table 1 (Drude + 5 Lorentz poles), absorption and scattering
// cross-sections over 0.3 - 1.2 um against the Mie series.
//
// Shared by tests/solver/test_gold_bcalm.cpp (CPU: the material check and a hidden
// resolution study) and tests/gpu/cuda_gold_bcalm.cpp (the 3 % accuracy test on CUDA).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../solver/mie_series.hpp"
#include "golightly/dispersion.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"

namespace golightly::gold_bcalm {

inline std::filesystem::path example_path() {
    return std::filesystem::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "gold_nanosphere_bcalm_3d.glproj";
}

/// The compact variant of the example for resolution studies (tests/data): the same sphere,
/// material, plane wave, spectrum and 1 nm cells in a 0.15 um cube (0.42 of the example's
/// cells), the boxes 5 (absorption), 10 (TF/SF) and 20 nm (scattering) from the gold, the
/// PML 15 nm beyond the scattering box. On an H200 it gave the example's worst errors at
/// 1 nm and 0.5 nm (validation/README.md); pass it as GOLIGHTLY_GOLD_BCALM_PROJECT.
inline std::filesystem::path compact_variant_path() {
    return std::filesystem::path(GOLIGHTLY_SOURCE_DIR) / "tests" / "data" / "gold_bcalm_compact_3d.glproj";
}

/// The fine example (examples/gold_nanosphere_bcalm_3d_fine.glproj): the example's sphere,
/// material, plane wave and spectrum on 0.25 nm cells (radius 160 cells) in a 0.12 um cube,
/// the boxes 3 (absorption), 6 (TF/SF) and 10 nm (scattering) from the gold, the PML 10 nm
/// beyond the scattering box, Courant 0.55: 512^3 = 134 M cells. Issue 15's 3 % run.
inline std::filesystem::path fine_example_path() {
    return std::filesystem::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "gold_nanosphere_bcalm_3d_fine.glproj";
}

/// The project a resolution study runs: GOLIGHTLY_GOLD_BCALM_PROJECT (a variant of the
/// example: the sphere the first layer's first shape, monitors 0 and 1 the scattering and
/// absorption boxes), else `fallback` (the example unless given).
inline std::string study_project_path(const std::filesystem::path& fallback = example_path()) {
    const char* other = std::getenv("GOLIGHTLY_GOLD_BCALM_PROJECT");
    return other ? std::string(other) : fallback.string();
}

/// B-CALM's gold (Drude + 5 Lorentz poles) as the bundled example writes it (its first
/// material with poles). Throws std::runtime_error when the example has none.
inline Material example_gold() {
    const Project ex = load_project(example_path());
    for (const Material& m : ex.materials)
        if (!m.poles.empty()) return m;
    throw std::runtime_error("the B-CALM example " + example_path().string() + " has no dispersive material");
}

/// eps(omega) of B-CALM's gold written out from the paper's formula and Table 1, independent
/// of the project format's pole convention (exp(-i w t), Im eps > 0 absorbs):
///   eps(w) = eps_inf - wD^2 / (w^2 + i w gD) + sum_k wp_k^2 / (w0_k^2 - w^2 - i w g_k),
/// eps_inf = 1, (wD, gD) = (1.1959e16, 8.05e13) rad/s, (wp_k, g_k, w0_k) in rad/s as listed.
/// `omega` in rad/s.
inline std::complex<double> bcalm_epsilon(double omega) {
    using cd = std::complex<double>;
    const cd I(0, 1);
    const double wD = 1.1959e16, gD = 8.05e13;
    struct L { double wp, g, w0; };
    const L lorentz[5] = {{2.125e15, 3.661e14, 6.30e14},
                          {1.372e15, 5.241e14, 1.261e15},
                          {3.655e15, 1.3216e15, 4.51e15},
                          {1.0634e16, 3.7887e15, 6.538e15},
                          {2.8722e16, 3.3633e15, 2.0235e16}};
    cd eps = 1.0 - wD * wD / (omega * omega + I * omega * gD);
    for (const L& l : lorentz) eps += l.wp * l.wp / (l.w0 * l.w0 - omega * omega - I * omega * l.g);
    return eps;
}

/// Runs `p` (the example or a variant; `file` names it in messages) on `backend`, printing
/// its progress every `every_s` seconds of wall time (fine grids run for minutes): step,
/// time, energy below its peak, speed.
inline RunResult run_with_progress(const Project& p, const std::string& file, BackendChoice backend, int every_s = 30) {
    RunOptions opts;
    opts.backend = backend;
    auto last = std::make_shared<std::chrono::steady_clock::time_point>(std::chrono::steady_clock::now());
    opts.progress = [last, every_s](const ProgressInfo& pi) {
        const auto now = std::chrono::steady_clock::now();
        if (now - *last < std::chrono::seconds(every_s)) return;
        *last = now;
        std::printf("  %s: step %lld/%lld, %.1f fs, %.1f dB below peak, %.0f Mcells/s\n", pi.phase.c_str(),
                    (long long)pi.step, (long long)pi.max_steps, pi.time_fs, pi.energy_db, pi.mcells_per_s);
        std::fflush(stdout);
    };
    return run_project(p, file, opts);
}

/// One spectrum point of a run against the Mie series of the sphere with the project
/// material's analytic eps(w) (golightly::analytic_epsilon): cross-sections in um^2,
/// relative errors sim / Mie - 1.
struct MieRow {
    double wavelength_um = 0;
    double sca = 0, sca_mie = 0, abs = 0, abs_mie = 0;
    double err_sca() const { return sca / sca_mie - 1; }
    double err_abs() const { return abs / abs_mie - 1; }
};

/// Rows of a run of the example (or a variant of it): monitor 0 the scattering box, monitor
/// 1 the absorption box, the sphere the first shape of the first layer, its material the
/// project's first. Prints one line per point, prefixed by `label`.
inline std::vector<MieRow> compare_with_mie(const Project& p, const RunResult& r, const std::string& label) {
    std::vector<MieRow> rows;
    const double a = p.layers.at(0).shapes.at(0).radius, area = units::pi * a * a;
    for (std::size_t f = 0; f < r.frequency_hz.size(); ++f) {
        MieRow row;
        row.wavelength_um = units::hz_to_wavelength_um(r.frequency_hz[f]);
        const std::complex<double> n = std::sqrt(analytic_epsilon(p.materials.at(0), 2 * units::pi * r.frequency_hz[f]));
        const auto q = mie::sphere_efficiencies(2 * units::pi * a / row.wavelength_um, n);
        row.sca = r.spectra.at(0).normalized.at(f);
        row.abs = r.spectra.at(1).normalized.at(f);
        row.sca_mie = q.sca * area;
        row.abs_mie = q.abs() * area;
        std::printf("%s: wl %.4f um  sca %.4e (Mie %.4e, %+6.2f %%)  abs %.4e (Mie %.4e, %+6.2f %%)\n", label.c_str(),
                    row.wavelength_um, row.sca, row.sca_mie, 100 * row.err_sca(), row.abs, row.abs_mie,
                    100 * row.err_abs());
        rows.push_back(row);
    }
    double ws = 0, wa = 0;
    for (const MieRow& row : rows) {
        ws = std::max(ws, std::abs(row.err_sca()));
        wa = std::max(wa, std::abs(row.err_abs()));
    }
    std::printf("%s (%s, %s, %lld cells, %lld steps, %s, %.1f s, %.0f Mcells/s): worst |error| sca %.2f %%, abs %.2f %%\n",
                label.c_str(), r.backend.c_str(), r.precision == Precision::Float64 ? "float64" : "float32",
                (long long)r.cells, (long long)r.steps, to_string(r.stop_reason).c_str(), r.wall_s, r.mcells_per_s,
                100 * ws, 100 * wa);
    std::fflush(stdout);
    return rows;
}

/// One grid of a resolution study: cell size (um), sub-pixel averaging and the scheme for
/// the gold's cut cells (run.subpixel_metal), float64.
struct StudyGrid {
    double dx_um = 0;
    bool subpixel = false;
    SubpixelMetal metal = SubpixelMetal::Tangential;
    bool f64 = false;
    /// "staircase" without averaging, else the metal scheme's name
    std::string label() const { return subpixel ? to_string(metal) : std::string("no averaging"); }
    void apply(Project& p) const {
        p.domain.cell_size = dx_um;
        p.run.subpixel_averaging = subpixel;
        p.run.subpixel_metal = metal;
        p.run.precision = f64 ? Precision::Float64 : Precision::Float32;
    }
};

/// The study grids of GOLIGHTLY_GOLD_BCALM (comma-separated dx_um:averaging:precision(32|64)
/// triples; averaging 0 (off), 1 (on, the default metal scheme) or a run.subpixel_metal name:
/// tangential, staircase, fraction, conformal), `fallback` when it is unset.
inline std::vector<StudyGrid> study_grids(const std::string& fallback) {
    const char* env = std::getenv("GOLIGHTLY_GOLD_BCALM");
    const std::string spec = env ? env : fallback;
    std::vector<StudyGrid> grids;
    for (std::size_t pos = 0; pos <= spec.size();) {
        const std::size_t comma = spec.find(',', pos);
        const std::string item = spec.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        const std::size_t c1 = item.find(':'), c2 = item.find(':', c1 + 1);
        StudyGrid g;
        g.dx_um = std::stod(item.substr(0, c1));
        const std::string avg = c1 == std::string::npos ? "0" : item.substr(c1 + 1, c2 == std::string::npos ? c2 : c2 - c1 - 1);
        g.subpixel = avg != "0";
        if (avg == "staircase") g.metal = SubpixelMetal::Staircase;
        if (avg == "fraction") g.metal = SubpixelMetal::Fraction;
        if (avg == "conformal") g.metal = SubpixelMetal::Conformal;
        g.f64 = c2 != std::string::npos && item.substr(c2 + 1) == "64";
        grids.push_back(g);
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return grids;
}

}  // namespace golightly::gold_bcalm
