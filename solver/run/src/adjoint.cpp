// GoLightly: adjoint gradients over a design region's density (adjoint.hpp; the method and
// its formulas are in the header comment there).
#include "golightly/adjoint.hpp"
#include "golightly/adjoint_tensor.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_set>

#include <Eigen/Dense>

#include "golightly/dispersion.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/grid.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"

namespace golightly::adjoint {

namespace {

constexpr std::size_t kTableLimit = 65535;  // build_material_table's bound (uint16 index maps)

std::invalid_argument design_error(const std::string& what) { return std::invalid_argument("design region: " + what); }

std::vector<Component> scene_e_components(const Scene& scene) {
    if (scene.dimensions == 3) return {Component::Ex, Component::Ey, Component::Ez};
    return electric_components(scene.polarization);
}

std::array<std::int64_t, 3> grid_n(const Scene& s) { return {s.nx, s.ny, s.nz}; }

/// eps_r of a component's table entry at a cell (cb / S for the reciprocity weight).
const EUpdateCoeffs& entry_of(const Scene& scene, Component c, CellIndex cell) {
    const auto& map = scene.material_index[int(c)];
    if (map.empty()) throw std::invalid_argument(std::string("adjoint: the scene has no material map for ") + component_name(c));
    return scene.table.at(map.at(std::size_t(cell)));
}

void check_scene(const Scene& scene) {
    for (int a = 0; a < 3; ++a) {
        if (scene.symmetry[a] != 0)
            throw std::invalid_argument("adjoint: mirror symmetry (domain.symmetry) is not supported; simulate the whole domain");
    }
    if (scene.has_bloch_phase() || scene.complex_fields)
        throw std::invalid_argument("adjoint: Bloch-periodic (complex) fields are not supported");
    for (std::size_t s = 0; s < scene.sources.size(); ++s)
        if (!std::isfinite(scene.sources[s].waveform.end_time_s()))
            throw std::invalid_argument("adjoint: source " + std::to_string(s) +
                                        " is continuous-wave; the adjoint needs pulsed sources (their DFTs must converge)");
    for (std::size_t s = 0; s < scene.tfsf.size(); ++s)
        if (!std::isfinite(scene.tfsf[s].waveform.end_time_s()))
            throw std::invalid_argument("adjoint: TF/SF source " + std::to_string(s) + " is continuous-wave");
}

/// Time after which every source of the scene is off, s.
double sources_end_s(const Scene& scene) {
    double end = 0;
    for (const auto& s : scene.sources) end = std::max(end, s.waveform.end_time_s() + s.delay_s);
    for (const auto& s : scene.tfsf) end = std::max(end, s.waveform.end_time_s() + s.delay_s);
    return end;
}

struct RunOutput {
    std::vector<std::vector<std::complex<double>>> dft;  ///< per DFT set, engine layout
    long long steps = 0;
    double wall_s = 0;
};

/// Steps `scene` until its sources have ended and the energy has decayed (RunSettings).
RunOutput run_to_decay(const Scene& scene, const RunSettings& settings, std::vector<std::string>& warnings,
                       const char* which) {
    const auto t0 = std::chrono::steady_clock::now();
    auto engine = make_engine(scene, settings.backend, settings.precision, settings.threads, warnings);
    const double end_s = sources_end_s(scene);
    const int chunk = std::max(1, settings.check_every);
    double peak = 0;
    long long steps = 0;
    for (;;) {
        // before each chunk, as run_project's driver: a cancel waits for one chunk at most
        if (settings.cancel && settings.cancel->load()) throw Cancelled(which, steps);
        engine->step(chunk);
        steps += chunk;
        if (settings.on_progress) settings.on_progress(which, steps);
        const double e = engine->field_energy();
        if (!std::isfinite(e))
            throw RunError(std::string("adjoint: the ") + which + " run diverged after " + std::to_string(steps) + " steps");
        peak = std::max(peak, e);
        if (double(steps) * scene.dt_s > end_s && e <= settings.decay * peak) break;
        if (steps >= settings.max_steps)
            throw RunError(std::string("adjoint: the ") + which + " run did not decay to " + std::to_string(settings.decay) +
                           " of its peak energy within " + std::to_string(settings.max_steps) + " steps");
    }
    RunOutput out;
    out.steps = steps;
    for (std::size_t s = 0; s < scene.dft_sets.size(); ++s) out.dft.push_back(engine->dft(int(s)));
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

/// The DFT sets of the design sites: one per component, in the order of map_design (sites
/// grouped by component). first[c] is the first site of set c.
struct DesignSets {
    std::vector<DftSet> sets;
    std::vector<std::size_t> first;
};

DesignSets design_sets(const DesignSites& sites, const std::vector<double>& freqs) {
    DesignSets d;
    for (std::size_t s = 0; s < sites.size(); ++s) {
        if (d.sets.empty() || d.sets.back().component != sites.component[s]) {
            DftSet set;
            set.component = sites.component[s];
            set.frequencies_hz = freqs;
            d.sets.push_back(std::move(set));
            d.first.push_back(s);
        }
        DftSet& set = d.sets.back();
        set.cell0.push_back(sites.cell[s]);
        set.cell1.push_back(-1);
        set.w0.push_back(1.0);
        set.w1.push_back(0.0);
    }
    return d;
}

/// E_c(site s, f) from the design sets' accumulators (set `base` onwards).
std::complex<double> design_dft(const RunOutput& run, std::size_t base, const DesignSets& d, std::size_t s,
                                std::size_t f, std::size_t nf) {
    std::size_t k = d.first.size() - 1;
    while (d.first[k] > s) --k;
    return run.dft[base + k][(s - d.first[k]) * nf + f];
}

CompiledWaveform adjoint_waveform(const std::vector<double>& freqs) {
    const auto [lo, hi] = std::minmax_element(freqs.begin(), freqs.end());
    const double fc = 0.5 * (*lo + *hi);
    const double half = std::max(0.5 * (*hi - *lo), 0.2 * fc);
    // amplitude spectrum exp(-(w - wc)^2 tau^2 / 2) >= exp(-2) out to 1.25 half-bands
    CompiledWaveform w;
    w.type = WaveformType::GaussianPulse;
    w.omega = 2 * units::pi * fc;
    w.tau_s = 2.0 / (1.25 * 2 * units::pi * half);
    w.t0_s = 6.0 * w.tau_s;
    w.amplitude = 1.0;
    return w;
}

/// S(w) = sum_n s((n + 1/2) dt) exp(i w (n + 1) dt) dt over the run's steps (header comment).
std::complex<double> source_dft(const CompiledWaveform& w, double dt, long long steps, double f_hz) {
    const double omega = 2 * units::pi * f_hz;
    std::complex<double> sum = 0;
    for (long long n = 0; n < steps; ++n) {
        const double v = w.value((double(n) + 0.5) * dt);
        if (v != 0.0) sum += v * std::polar(1.0, omega * double(n + 1) * dt);
    }
    return sum * dt;
}

/// Adjoint sources for frequency-dependent weights: K = nf copies of the single broadband
/// pulse (adjoint_waveform) delayed by k delta, k = 0 .. K-1, and the inverse of
/// M[f][k] = S_k(w_f) = S(w_f) exp(i w_f k delta) (each copy's discrete DFT, as source_dft),
/// so that sources weighted alpha_k = sum_f inverse[k][f] w_f give the adjoint field at w_f
/// the spectrum of the weights w_f exactly. For evenly spaced frequencies and delta =
/// 2 pi / (K dw) M is S times a DFT matrix (condition number 1); delta starts at a tenth
/// of that and grows (x1.25 per try) until M's condition number is below 1e3, so that the
/// engine's rounding (1e-7 in float32) is amplified at most to 1e-4. The run is (K - 1)
/// delta longer than with one pulse, a fraction of a period of the frequency spacing:
/// shorter than K Gaussian pulses narrowed until they are told apart (measured on the
/// three-wavelength tests of test_adjoint.cpp: 1160 against 1380 adjoint steps).
struct AdjointBasis {
    std::vector<CompiledWaveform> pulses;
    std::vector<std::complex<double>> inverse;  ///< [k * nf + f]
};

AdjointBasis adjoint_basis(const std::vector<double>& freqs, double dt) {
    const std::size_t nf = freqs.size();
    const CompiledWaveform broad = adjoint_waveform(freqs);
    const auto [lo, hi] = std::minmax_element(freqs.begin(), freqs.end());
    const double dw = 2 * units::pi * (*hi - *lo) / double(std::max<std::size_t>(nf - 1, 1));
    if (!(dw > 0)) throw std::invalid_argument("adjoint: the frequencies of a functional must differ");
    double delta = 0.1 * 2 * units::pi / (double(nf) * dw);
    for (int attempt = 0; attempt < 40; ++attempt, delta *= 1.25) {
        AdjointBasis b;
        Eigen::MatrixXcd M(nf, nf);
        for (std::size_t k = 0; k < nf; ++k) {
            CompiledWaveform w = broad;
            w.t0_s = broad.t0_s + double(k) * delta;
            const long long steps = (long long)std::ceil((w.t0_s + 13.0 * w.tau_s) / dt);
            for (std::size_t f = 0; f < nf; ++f) M(Eigen::Index(f), Eigen::Index(k)) = source_dft(w, dt, steps, freqs[f]);
            b.pulses.push_back(w);
        }
        Eigen::JacobiSVD<Eigen::MatrixXcd> svd(M);
        const auto& sv = svd.singularValues();
        if (sv(sv.size() - 1) <= 0 || sv(0) / sv(sv.size() - 1) > 1e3) continue;
        const Eigen::MatrixXcd inv = M.inverse();
        b.inverse.resize(nf * nf);
        for (std::size_t k = 0; k < nf; ++k)
            for (std::size_t f = 0; f < nf; ++f) b.inverse[k * nf + f] = inv(Eigen::Index(k), Eigen::Index(f));
        return b;
    }
    throw std::invalid_argument("adjoint: the frequencies are too close together to be told apart by the adjoint sources");
}

void check_tfsf_faces(const Scene& scene, const DesignSites& sites, const std::string& what);

/// The design sites per component, for membership tests.
std::array<std::unordered_set<CellIndex>, 3> site_sets(const DesignSites& sites) {
    std::array<std::unordered_set<CellIndex>, 3> in;
    for (std::size_t s = 0; s < sites.size(); ++s) in[std::size_t(sites.component[s])].insert(sites.cell[s]);
    return in;
}

/// Design site s's first sub-pixel coupling to a site outside the design (its slot), or
/// size_t(-1) when it has none. in_design: site_sets(sites).
std::size_t outside_coupling(const Scene& scene, const DesignSites& sites, std::size_t s,
                             const std::array<std::unordered_set<CellIndex>, 3>& in_design) {
    const int c = int(sites.component[s]);
    const auto& l = scene.anisotropic.cells[c];
    const auto it = std::lower_bound(l.begin(), l.end(), sites.cell[s]);
    if (it == l.end() || *it != sites.cell[s]) return std::size_t(-1);
    const int dims = scene.dimensions == 3 ? 3 : 2;
    const std::size_t S = std::size_t(anisotropic_slots(dims)), k = std::size_t(it - l.begin());
    for (std::size_t slot = 0; slot < S; ++slot) {
        const std::int32_t nb = scene.anisotropic.neighbour[c][S * k + slot];
        if (nb < 0) continue;
        const int c2 = anisotropic_partner(c, int(slot / 4), dims);
        if (!in_design[std::size_t(c2)].count(scene.anisotropic.cells[c2][std::size_t(nb)])) return slot;
    }
    return std::size_t(-1);
}

/// The sub-pixel couplings of the design sites once their table entries are the design's
/// (header comment): a coupling between two design sites is removed (the density is
/// isotropic per site); one between design site p and outside site q keeps K(p, q) of the
/// compiled tensor, damped by s_p = min(1, 0.95 / (eps_bound sum_q |K(p, q)|)) so that
/// p's row stays diagonally dominant (K positive definite) for every eps_r(p) <= eps_bound,
/// a factor that does not depend on the density; the stored weights are rescaled to the
/// new table (weight(q, p) = K(q, p) eps_r(p)). eps_old: each site's table eps_r before.
void couple_design(Scene& scene, const DesignSites& sites, const std::vector<double>& eps_old, double eps_bound) {
    AnisotropicCells& an = scene.anisotropic;
    bool any = false;
    for (int c = 0; c < 3; ++c) any = any || !an.cells[c].empty();
    if (!any) return;
    const auto in = site_sets(sites);
    const int dims = scene.dimensions == 3 ? 3 : 2;
    const std::size_t S = std::size_t(anisotropic_slots(dims));
    auto row_of = [&](int c, CellIndex cell) -> std::size_t {
        const auto& l = an.cells[c];
        const auto it = std::lower_bound(l.begin(), l.end(), cell);
        return it == l.end() || *it != cell ? std::size_t(-1) : std::size_t(it - l.begin());
    };
    auto eps_at = [&](int c, CellIndex cell) { return scene.table[scene.material_index[c][std::size_t(cell)]].eps_r; };
    for (std::size_t s = 0; s < sites.size(); ++s) {
        const int c = int(sites.component[s]);
        const std::size_t k = row_of(c, sites.cell[s]);
        if (k == std::size_t(-1)) continue;
        double sum = 0;
        for (std::size_t slot = 0; slot < S; ++slot) {
            std::int32_t& nb = an.neighbour[c][S * k + slot];
            if (nb < 0) continue;
            const int c2 = anisotropic_partner(c, int(slot / 4), dims);
            const CellIndex cell2 = an.cells[c2][std::size_t(nb)];
            if (in[std::size_t(c2)].count(cell2)) {
                nb = -1;  // design to design: removed (the partner's slot in its own turn)
                an.weight[c][S * k + slot] = 0.0;
                continue;
            }
            sum += std::abs(an.weight[c][S * k + slot] / eps_at(c2, cell2));
        }
        const double damp = sum > 0 ? std::min(1.0, 0.95 / (eps_bound * sum)) : 1.0;
        const double eps_new = eps_at(c, sites.cell[s]);
        for (std::size_t slot = 0; slot < S; ++slot) {
            const std::int32_t nb = an.neighbour[c][S * k + slot];
            if (nb < 0) continue;
            const int c2 = anisotropic_partner(c, int(slot / 4), dims);
            an.weight[c][S * k + slot] *= damp;  // K(p, q) eps_r(q): q's table is unchanged
            // q's view of the pair: K(q, p) eps_r(p) with the new eps_r(p)
            const std::size_t kq = std::size_t(nb);
            bool found = false;
            for (std::size_t t = 0; t < S && !found; ++t) {
                std::int32_t& back = an.neighbour[c2][S * kq + t];
                if (back < 0 || anisotropic_partner(c2, int(t / 4), dims) != c || std::size_t(back) != k) continue;
                an.weight[c2][S * kq + t] *= damp * eps_new / eps_old[s];
                found = true;
            }
            if (!found)
                throw std::logic_error("design region: a sub-pixel coupling is listed one way only (scene.hpp \"Anisotropic cells\")");
        }
    }
}

}  // namespace

DesignSites map_design(const Scene& scene, const DesignRegion& region) {
    const int dims = scene.dimensions == 3 ? 3 : 2;
    for (int a = 0; a < dims; ++a) {
        if (!(region.hi_um[a] > region.lo_um[a]) || !std::isfinite(region.lo_um[a]) || !std::isfinite(region.hi_um[a]))
            throw design_error("the box is empty or inverted along " + std::string(1, char('x' + a)));
        if (region.n[a] < 1) throw design_error("the density grid needs at least 1 pixel along each axis");
    }
    if (dims == 2 && region.n[2] != 1) throw design_error("a 2D density grid has n[2] = 1");
    for (double e : {region.eps_min, region.eps_max})
        if (!std::isfinite(e) || e < 1e-3) throw design_error("eps_min and eps_max must be finite and >= 1e-3");
    check_scene(scene);

    std::unordered_set<CellIndex> source_cells[3];
    for (const auto& src : scene.sources)
        if (is_electric(src.component))
            for (CellIndex c : src.cells) source_cells[component_axis(src.component)].insert(c);

    const auto n = grid_n(scene);
    DesignSites sites;
    for (Component c : scene_e_components(scene)) {
        const Vec3 off = yee_offset(c);
        // index ranges of the sites inside the box, per axis (lo <= x < hi)
        std::int64_t first[3] = {0, 0, 0}, last[3] = {0, 0, 0};
        for (int a = 0; a < dims; ++a) {
            const double p_lo = region.lo_um[a] / scene.dx_um + scene.pml_lo[a] - off[a];
            const double p_hi = region.hi_um[a] / scene.dx_um + scene.pml_lo[a] - off[a];
            first[a] = std::int64_t(std::ceil(p_lo - 1e-9));
            last[a] = std::int64_t(std::ceil(p_hi - 1e-9)) - 1;
            if (first[a] < scene.pml_lo[a] || last[a] >= n[a] - scene.pml_hi[a])
                throw design_error("the box reaches into the PML or beyond the grid along " + std::string(1, char('x' + a)));
        }
        for (std::int64_t k = first[2]; k <= last[2]; ++k)
            for (std::int64_t j = first[1]; j <= last[1]; ++j)
                for (std::int64_t i = first[0]; i <= last[0]; ++i) {
                    const CellIndex cell = (k * n[1] + j) * n[0] + i;
                    if (source_cells[component_axis(c)].count(cell))
                        throw design_error("a source lies inside it");
                    sites.component.push_back(c);
                    sites.cell.push_back(cell);
                    // interpolation taps from the pixel centres
                    int idx[3][2] = {{0, 0}, {0, 0}, {0, 0}};
                    double wt[3][2] = {{1, 0}, {1, 0}, {1, 0}};
                    const std::int64_t ijk[3] = {i, j, k};
                    for (int a = 0; a < dims; ++a) {
                        const double x_um = (double(ijk[a]) + off[a] - scene.pml_lo[a]) * scene.dx_um;
                        const double h = (region.hi_um[a] - region.lo_um[a]) / region.n[a];
                        const double u = (x_um - region.lo_um[a]) / h - 0.5;
                        const double fl = std::floor(u);
                        const double t = u - fl;
                        const int i0 = int(fl);
                        idx[a][0] = std::clamp(i0, 0, region.n[a] - 1);
                        idx[a][1] = std::clamp(i0 + 1, 0, region.n[a] - 1);
                        wt[a][0] = 1.0 - t;
                        wt[a][1] = t;
                    }
                    for (int t = 0; t < 8; ++t) {
                        const int bx = t & 1, by = (t >> 1) & 1, bz = (t >> 2) & 1;
                        const double w = wt[0][bx] * wt[1][by] * wt[2][bz];
                        const std::int32_t p =
                            std::int32_t((std::int64_t(idx[2][bz]) * region.n[1] + idx[1][by]) * region.n[0] + idx[0][bx]);
                        sites.pixel.push_back(w == 0.0 ? 0 : p);
                        sites.weight.push_back(w);
                    }
                }
    }
    if (sites.size() == 0) throw design_error("no Yee site lies inside the box (smaller than a cell?)");
    check_tfsf_faces(scene, sites, "design region: it");
    // Sub-pixel tensor couplings (header comment): those between two design sites go, those
    // to a site outside the box stay and make the design site tensor-coupled, which the
    // engines step lossless and non-dispersive only.
    if (!region.lossless()) {
        const auto in_design = site_sets(sites);
        for (std::size_t s = 0; s < sites.size(); ++s)
            if (outside_coupling(scene, sites, s, in_design) != std::size_t(-1))
                throw design_error(std::string("its ") + component_name(sites.component[s]) + " site at cell " +
                                   std::to_string(sites.cell[s]) +
                                   " keeps a sub-pixel tensor coupling to the structure outside the box (an oblique "
                                   "interface crossing the box's edge), and a lossy or dispersive design material "
                                   "cannot be tensor-coupled (scene.hpp \"Anisotropic cells\"); move the interface off "
                                   "the box's edge or switch run.subpixel_averaging off");
    }
    return sites;
}

namespace {

/// TF/SF faces: their corrections scale with the site's cb, which the design changes.
/// `what` starts the message ("design region: it").
void check_tfsf_faces(const Scene& scene, const DesignSites& sites, const std::string& what) {
    const int dims = scene.dimensions == 3 ? 3 : 2;
    const auto n = grid_n(scene);
    for (std::size_t s = 0; s < scene.tfsf.size(); ++s) {
        const auto& tf = scene.tfsf[s];
        std::int64_t mn[3] = {n[0], n[1], n[2]}, mx[3] = {-1, -1, -1};
        for (std::size_t q = 0; q < sites.size(); ++q) {
            const CellIndex c = sites.cell[q];
            const std::int64_t ijk[3] = {c % n[0], (c / n[0]) % n[1], c / (n[0] * n[1])};
            for (int a = 0; a < 3; ++a) mn[a] = std::min(mn[a], ijk[a]), mx[a] = std::max(mx[a], ijk[a]);
        }
        bool touches = false;
        for (int a = 0; a < dims && !touches; ++a) {
            bool others = true;
            for (int b = 0; b < dims; ++b)
                if (b != a) others = others && mx[b] >= tf.lo[b] - 1 && mn[b] <= tf.hi[b] + 1;
            for (std::int64_t face : {tf.lo[a], tf.hi[a]})
                touches = touches || (others && face >= mn[a] - 1 && face <= mx[a] + 1);
        }
        if (touches)
            throw std::invalid_argument(what + " touches the face of TF/SF source " + std::to_string(s) +
                                        "; keep it inside or outside the box");
    }
}

}  // namespace

std::complex<double> design_epsilon(const DesignRegion& region, double rho, double omega, double dt) {
    const PoleSet lo{region.medium_min.poles}, hi{region.medium_max.poles};
    return (1.0 - rho) * discrete_epsilon(region.eps_min, region.medium_min.sigma_s_per_m, lo, 1.0, omega, dt) +
           rho * discrete_epsilon(region.eps_max, region.medium_max.sigma_s_per_m, hi, 1.0, omega, dt);
}

std::vector<double> site_density(const DesignSites& sites, const DesignRegion& region, const std::vector<double>& rho) {
    if (rho.size() != region.pixels())
        throw std::invalid_argument("design region: " + std::to_string(rho.size()) + " density values for " +
                                    std::to_string(region.pixels()) + " pixels");
    std::vector<double> out(sites.size());
    for (std::size_t s = 0; s < sites.size(); ++s) {
        double r = 0;
        for (int t = 0; t < 8; ++t) {
            const double v = rho[std::size_t(sites.pixel[8 * s + t])];
            if (std::isnan(v)) throw std::invalid_argument("design region: a density value is NaN");
            r += sites.weight[8 * s + t] * std::clamp(v, 0.0, 1.0);
        }
        out[s] = r;
    }
    return out;
}

void apply_design(Scene& scene, const DesignSites& sites, const DesignRegion& region, const std::vector<double>& rho_site) {
    if (rho_site.size() != sites.size()) throw std::invalid_argument("apply_design: one density per site");
    const std::size_t base = scene.table.size();
    if (base >= kTableLimit) throw RunError("design region: the material table is full");
    const std::size_t free = kTableLimit - base;
    const double dt = scene.dt_s;
    auto entry = [&](double r) {
        const double e = region.eps_min + r * (region.eps_max - region.eps_min);
        const double sigma = (1.0 - r) * region.medium_min.sigma_s_per_m + r * region.medium_max.sigma_s_per_m;
        const double loss = sigma * dt / (2.0 * units::eps0 * e);  // as the compiled table (scene.cpp)
        EUpdateCoeffs c;
        c.eps_r = e;
        c.sigma = sigma;
        c.ca = (1.0 - loss) / (1.0 + loss);
        c.cb = (scene.courant / e) / (1.0 + loss);
        return c;
    };
    // the density each site is given: rho~, or its level when the table is short (header comment)
    std::vector<double> r = rho_site;
    std::vector<std::uint16_t> index(sites.size());
    if (sites.size() <= free) {
        for (std::size_t s = 0; s < sites.size(); ++s) {
            scene.table.push_back(entry(r[s]));
            index[s] = std::uint16_t(base + s);
        }
    } else {
        const auto [lo, hi] = std::minmax_element(rho_site.begin(), rho_site.end());
        const double r0 = *lo, span = *hi - *lo;
        const std::size_t levels = free;
        for (std::size_t l = 0; l < levels; ++l) scene.table.push_back(entry(r0 + span * double(l) / double(levels - 1)));
        for (std::size_t s = 0; s < sites.size(); ++s) {
            const std::size_t l = span > 0 ? std::size_t(std::lround((rho_site[s] - r0) / span * double(levels - 1))) : 0;
            index[s] = std::uint16_t(base + l);
            r[s] = r0 + span * double(l) / double(levels - 1);
        }
    }
    std::vector<double> eps_old(sites.size());
    for (std::size_t s = 0; s < sites.size(); ++s) {
        std::uint16_t& m = scene.material_index[int(sites.component[s])][std::size_t(sites.cell[s])];
        eps_old[s] = scene.table[m].eps_r;
        m = index[s];
    }
    couple_design(scene, sites, eps_old, std::max(region.eps_min, region.eps_max));
    // The poles: the scene's dispersive entries at the sites give way to the design's, a pole
    // set per site holding both materials' poles with c3 scaled by 1 - rho~ and rho~ (a mixture,
    // scene.hpp), weight 1.
    const bool poles = !region.medium_min.poles.empty() || !region.medium_max.poles.empty();
    for (int c = 0; c < 3; ++c) {
        std::vector<std::size_t> mine;
        for (std::size_t s = 0; s < sites.size(); ++s)
            if (int(sites.component[s]) == c) mine.push_back(s);
        DispersiveCells& dc = scene.dispersive[c];
        if (mine.empty() || (dc.cells.empty() && !poles)) continue;
        std::unordered_set<CellIndex> taken;
        for (std::size_t s : mine) taken.insert(sites.cell[s]);
        std::vector<std::tuple<CellIndex, std::uint32_t, double>> rows;
        for (std::size_t k = 0; k < dc.cells.size(); ++k)
            if (!taken.count(dc.cells[k])) rows.emplace_back(dc.cells[k], dc.pole_set[k], dc.weight[k]);
        if (poles)
            for (std::size_t s : mine) {
                PoleSet ps;
                for (PoleCoeffs pc : region.medium_min.poles) {
                    pc.c3 *= 1.0 - r[s];
                    ps.poles.push_back(pc);
                }
                for (PoleCoeffs pc : region.medium_max.poles) {
                    pc.c3 *= r[s];
                    ps.poles.push_back(pc);
                }
                scene.pole_sets.push_back(std::move(ps));
                rows.emplace_back(sites.cell[s], std::uint32_t(scene.pole_sets.size() - 1), 1.0);
            }
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
        dc.cells.clear(), dc.pole_set.clear(), dc.weight.clear();
        for (const auto& [cell, set, w] : rows) dc.cells.push_back(cell), dc.pole_set.push_back(set), dc.weight.push_back(w);
    }
}

std::vector<double> interpolation_transpose(const DesignSites& sites, const DesignRegion& region,
                                            const std::vector<double>& d_rho_site) {
    std::vector<double> g(region.pixels(), 0.0);
    for (std::size_t s = 0; s < sites.size(); ++s)
        for (int t = 0; t < 8; ++t) g[std::size_t(sites.pixel[8 * s + t])] += sites.weight[8 * s + t] * d_rho_site[s];
    return g;
}

std::vector<double> site_permittivity(const DesignSites& sites, const DesignRegion& region,
                                      const std::vector<double>& rho) {
    if (rho.size() != region.pixels())
        throw std::invalid_argument("design region: " + std::to_string(rho.size()) + " density values for " +
                                    std::to_string(region.pixels()) + " pixels");
    for (double r : rho)
        if (std::isnan(r)) throw std::invalid_argument("design region: a density value is NaN");
    std::vector<double> eps(sites.size());
    for (std::size_t s = 0; s < sites.size(); ++s) {
        double r = 0;
        for (int t = 0; t < 8; ++t) r += sites.weight[8 * s + t] * std::clamp(rho[std::size_t(sites.pixel[8 * s + t])], 0.0, 1.0);
        eps[s] = region.eps_min + r * (region.eps_max - region.eps_min);
    }
    return eps;
}

void apply_design(Scene& scene, const DesignSites& sites, const std::vector<double>& eps) {
    if (eps.size() != sites.size()) throw std::invalid_argument("apply_design: one eps_r per site");
    const std::size_t base = scene.table.size();
    if (base >= kTableLimit) throw RunError("design region: the material table is full");
    const std::size_t free = kTableLimit - base;
    auto entry = [&](double e) {
        EUpdateCoeffs c;
        c.eps_r = e;
        c.ca = 1.0;
        c.cb = scene.courant / e;
        c.sigma = 0.0;
        return c;
    };
    std::vector<double> eps_old(sites.size());
    for (std::size_t s = 0; s < sites.size(); ++s)
        eps_old[s] = scene.table[scene.material_index[int(sites.component[s])][std::size_t(sites.cell[s])]].eps_r;
    const auto [lo, hi] = std::minmax_element(eps.begin(), eps.end());
    if (sites.size() <= free) {
        for (std::size_t s = 0; s < sites.size(); ++s) {
            scene.table.push_back(entry(eps[s]));
            scene.material_index[int(sites.component[s])][std::size_t(sites.cell[s])] = std::uint16_t(base + s);
        }
    } else {
        // Too few entries: evenly spaced levels over the range of eps
        const std::size_t levels = free;
        const double span = *hi - *lo;
        for (std::size_t l = 0; l < levels; ++l) scene.table.push_back(entry(*lo + span * double(l) / double(levels - 1)));
        for (std::size_t s = 0; s < sites.size(); ++s) {
            const std::size_t l = span > 0 ? std::size_t(std::lround((eps[s] - *lo) / span * double(levels - 1))) : 0;
            scene.material_index[int(sites.component[s])][std::size_t(sites.cell[s])] = std::uint16_t(base + l);
        }
    }
    couple_design(scene, sites, eps_old, *hi);
}

std::vector<double> pixel_gradient(const DesignSites& sites, const DesignRegion& region,
                                   const std::vector<double>& d_eps) {
    std::vector<double> g(region.pixels(), 0.0);
    const double span = region.eps_max - region.eps_min;
    for (std::size_t s = 0; s < sites.size(); ++s)
        for (int t = 0; t < 8; ++t) g[std::size_t(sites.pixel[8 * s + t])] += sites.weight[8 * s + t] * span * d_eps[s];
    return g;
}

FieldFunctional point_functional(const Scene& scene, Component component, const Vec3& position_um,
                                 const std::string& name) {
    const auto comps = scene_e_components(scene);
    if (!is_electric(component) || std::find(comps.begin(), comps.end(), component) == comps.end())
        throw std::invalid_argument(std::string("point functional: the scene has no ") + component_name(component));
    const auto n = grid_n(scene);
    const Vec3 off = yee_offset(component);
    std::int64_t ijk[3] = {0, 0, 0};
    const int dims = scene.dimensions == 3 ? 3 : 2;
    for (int a = 0; a < dims; ++a) {
        ijk[a] = std::llround(position_um[a] / scene.dx_um + scene.pml_lo[a] - off[a]);
        if (ijk[a] < 0 || ijk[a] >= n[a]) throw std::invalid_argument("point functional: the point lies outside the grid");
    }
    FieldFunctional f;
    f.name = name;
    f.component = {component};
    f.cell = {(ijk[2] * n[1] + ijk[1]) * n[0] + ijk[0]};
    f.weights = {1.0};
    return f;
}

namespace {

/// mode_functional of a 3D mode plane: mode_amplitudes' (dims 3) expansion written out per
/// sample. With the mode's transverse e, h (VectorMode, on the sets' nodes), dA = dx^2,
/// c = cos(beta_l dx / 2) and N = dA sum (e_u h_v - e_v h_u):
///   a+- = s [c J1 +- J2],  s = sqrt(c 1e-12 / eta0) / (2 c N),
///   J1 = dA sum (E_u h_v - E_v h_u),  J2 = dA sum (e_u H~_v - e_v H~_u),
/// so the weight of an E_u sample is s c dA h_v, of E_v -s c dA h_u, of H~_v +-s dA e_u and of
/// H~_u -+s dA e_v (upper signs: a+ in the plane's w direction), each times the set's w0 or
/// w1 for the two h nodes that H~ averages.
template <class SetOf>
FieldFunctional mode_functional_3d(const ModeMonitorPlan& plan, const SetOf& set_of, std::size_t mode, bool forward,
                                   const std::vector<std::size_t>& frequency_indices, const std::string& name) {
    // roles: 0 E_u, 1 E_v, 2 H~_u (E_v's nodes), 3 H~_v (E_u's nodes)
    const DftSet* sets[4] = {&set_of(plan.set_e[0]), &set_of(plan.set_e[1]), &set_of(plan.set_h[0]), &set_of(plan.set_h[1])};
    const std::size_t n_eu = sets[0]->cell0.size(), n_ev = sets[1]->cell0.size();
    if (sets[2]->cell0.size() != n_ev || sets[3]->cell0.size() != n_eu)
        throw std::invalid_argument("mode functional: the plane's E and H sets differ in size");
    FieldFunctional fn;
    fn.name = name;
    struct Slot {
        int role;
        std::size_t k;
        double w;
    };
    std::vector<Slot> slots;
    for (int r = 0; r < 4; ++r) {
        const DftSet& s = *sets[r];
        for (std::size_t k = 0; k < s.cell0.size(); ++k) {
            fn.component.push_back(s.component), fn.cell.push_back(s.cell0[k]), slots.push_back({r, k, s.w0[k]});
            if (s.cell1[k] >= 0)
                fn.component.push_back(s.component), fn.cell.push_back(s.cell1[k]), slots.push_back({r, k, s.w1[k]});
        }
    }
    fn.weights.assign(fn.cell.size(), 0.0);
    const double dA = plan.cs.grid.dx_um * plan.cs.grid.dx_um;
    const double pm = (plan.sign > 0) == forward ? 1.0 : -1.0;
    for (std::size_t f : frequency_indices) {
        if (f >= plan.frequencies_hz.size() || f >= plan.modes.size())
            throw std::invalid_argument("mode functional: frequency index out of range");
        std::vector<std::complex<double>> row(fn.cell.size(), 0.0);
        const VectorMode& vm = plan.modes[f][mode];
        if (vm.e[0].size() == n_eu && vm.h[1].size() == n_eu && vm.e[1].size() == n_ev && vm.h[0].size() == n_ev) {
            const double half = 0.5 * vm.beta_per_um * plan.cs.grid.dx_um;
            const double c = std::sqrt(std::max(1.0 - half * half, 1e-12));
            std::complex<double> nn = 0;
            for (std::size_t k = 0; k < n_eu; ++k) nn += vm.e[0][k] * vm.h[1][k];
            for (std::size_t k = 0; k < n_ev; ++k) nn -= vm.e[1][k] * vm.h[0][k];
            nn *= dA;
            if (std::abs(nn) != 0.0) {
                const std::complex<double> s = std::sqrt(c * 1e-12 / units::eta0) / (2 * c * nn) * dA;
                for (std::size_t q = 0; q < slots.size(); ++q) {
                    const Slot& sl = slots[q];
                    std::complex<double> v;
                    switch (sl.role) {
                        case 0: v = c * vm.h[1][sl.k]; break;
                        case 1: v = -c * vm.h[0][sl.k]; break;
                        case 2: v = -pm * vm.e[1][sl.k]; break;
                        default: v = pm * vm.e[0][sl.k]; break;
                    }
                    row[q] = s * v * sl.w;
                }
            }
        }
        fn.weights_per_frequency.push_back(std::move(row));
    }
    return fn;
}

}  // namespace

FieldFunctional mode_functional(const Scene& compiled, const ModeMonitorPlan& plan, std::size_t mode, bool forward,
                                const std::vector<std::size_t>& frequency_indices, const std::string& name) {
    if (mode >= plan.mode_indices.size()) throw std::invalid_argument("mode functional: mode slot out of range");
    const auto set_of = [&](int k) -> const DftSet& {
        if (k < 0 || std::size_t(k) >= compiled.dft_sets.size())
            throw std::invalid_argument("mode functional: the plan's DFT sets are not in the scene");
        return compiled.dft_sets[std::size_t(k)];
    };
    if (plan.dims == 3) return mode_functional_3d(plan, set_of, mode, forward, frequency_indices, name);
    const DftSet& es = set_of(plan.set_e[0]);
    const DftSet& hs = set_of(plan.set_h[0]);
    const std::size_t nn = es.cell0.size();
    if (hs.cell0.size() != nn) throw std::invalid_argument("mode functional: E and H sets differ in size");
    // entries: E sample k's cells, then H sample k's cells (w0 and, where averaged, w1)
    FieldFunctional fn;
    fn.name = name;
    struct Slot {
        bool e;
        std::size_t k;
        double w;
    };
    std::vector<Slot> slots;
    for (std::size_t k = 0; k < nn; ++k) {
        fn.component.push_back(es.component), fn.cell.push_back(es.cell0[k]), slots.push_back({true, k, es.w0[k]});
        if (es.cell1[k] >= 0)
            fn.component.push_back(es.component), fn.cell.push_back(es.cell1[k]), slots.push_back({true, k, es.w1[k]});
        fn.component.push_back(hs.component), fn.cell.push_back(hs.cell0[k]), slots.push_back({false, k, hs.w0[k]});
        if (hs.cell1[k] >= 0)
            fn.component.push_back(hs.component), fn.cell.push_back(hs.cell1[k]), slots.push_back({false, k, hs.w1[k]});
    }
    fn.weights.assign(fn.cell.size(), 0.0);
    // mode_amplitudes (dims 2): a+- = (J1 +- J2 / c) scale, J1 = sg sum E_k h_k, J2 = sg sum e_k H_k
    const bool plus = (plan.sign > 0) == forward;
    for (std::size_t f : frequency_indices) {
        if (f >= plan.frequencies_hz.size()) throw std::invalid_argument("mode functional: frequency index out of range");
        std::vector<std::complex<double>> row(fn.cell.size(), 0.0);
        const auto& e = plan.line_e[f][mode];
        const auto& h = plan.line_h[f][mode];
        if (e.size() == nn && h.size() == nn) {
            const double ne = plan.line_neff[f][mode];
            const double w = 2 * units::pi * plan.frequencies_hz[f];
            const double k0n = 2.0 / (units::c0 * plan.dt_s) * std::sin(0.5 * w * plan.dt_s) * units::um;
            const double half = 0.5 * ne * k0n * plan.dx_um;
            const double c = std::sqrt(std::max(1.0 - half * half, 1e-12));
            const double sg = plan.line_flux_sign * plan.dx_um;
            double nrm = 0;
            for (std::size_t k = 0; k < nn; ++k) nrm += e[k] * h[k];
            nrm *= sg;
            if (nrm > 0) {
                const double scale = std::sqrt(0.5 * c * nrm * 1e-6 / units::eta0) / (2 * nrm);
                for (std::size_t q = 0; q < slots.size(); ++q) {
                    const Slot& sl = slots[q];
                    row[q] = sl.e ? sg * h[sl.k] * scale * sl.w : (plus ? 1.0 : -1.0) * sg * e[sl.k] / c * scale * sl.w;
                }
            }
        }
        fn.weights_per_frequency.push_back(std::move(row));
    }
    return fn;
}

Objective intensity_objective(std::vector<std::vector<double>> weights) {
    return [weights](const Amplitudes& a, Amplitudes* g) {
        double F = 0;
        if (g) *g = a;
        for (std::size_t m = 0; m < a.size(); ++m)
            for (std::size_t f = 0; f < a[m].size(); ++f) {
                const double w = weights.empty() ? 1.0 : weights.at(m).at(f);
                F += w * std::norm(a[m][f]);
                if (g) (*g)[m][f] = 2.0 * w * a[m][f];
            }
        return F;
    };
}

namespace {

struct Prepared {
    Scene forward;        ///< design applied, design + functional DFT sets
    DesignSites sites;
    /// the DFT sets of the sites, then of the cluster's sites outside the design
    /// (cluster_sample: from index sites.size() on)
    DesignSets design;
    /// the tensor-coupled design sites and every site coupled to them (adjoint_tensor.hpp;
    /// empty without couplings); cluster_sample[i]: the sample (design site or extra set
    /// sample) of cluster site i
    TensorCluster cluster;
    std::vector<std::size_t> cluster_sample;
    std::vector<double> rho_site;  ///< the density: rho~ per site
    /// functional m, sample p -> (DFT set, sample index)
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> sample_of;
};

void check_problem(const Problem& problem) {
    if (problem.frequencies_hz.empty()) throw std::invalid_argument("adjoint: no frequencies");
    for (double f : problem.frequencies_hz)
        if (!(f > 0) || !std::isfinite(f)) throw std::invalid_argument("adjoint: frequencies must be positive");
    if (problem.functionals.empty()) throw std::invalid_argument("adjoint: no field functional");
    if (!problem.objective) throw std::invalid_argument("adjoint: no objective");
}

void prepare_sets(const Problem& problem, Prepared& p, const DesignSites& sampled);

Prepared prepare(const Problem& problem, const std::vector<double>& rho) {
    check_problem(problem);
    Prepared p;
    p.forward = problem.scene;
    p.sites = map_design(p.forward, problem.region);
    p.rho_site = site_density(p.sites, problem.region, rho);
    apply_design(p.forward, p.sites, problem.region, p.rho_site);
    // the design sites that keep a sub-pixel coupling (header comment): their D~ = K^-1 E
    // needs E over their cluster, sampled too
    std::vector<SiteKey> seeds;
    for (std::size_t s = 0; s < p.sites.size(); ++s)
        if (tensor_listed(p.forward, int(p.sites.component[s]), p.sites.cell[s]))
            seeds.emplace_back(int(p.sites.component[s]), p.sites.cell[s]);
    DesignSites sampled = p.sites;
    if (!seeds.empty()) {
        p.cluster = tensor_cluster(p.forward, seeds);
        std::map<SiteKey, std::size_t> design_index;
        for (std::size_t s = 0; s < p.sites.size(); ++s) design_index[{int(p.sites.component[s]), p.sites.cell[s]}] = s;
        for (const SiteKey& key : p.cluster.sites) {
            const auto it = design_index.find(key);
            if (it != design_index.end()) {
                p.cluster_sample.push_back(it->second);
                continue;
            }
            p.cluster_sample.push_back(sampled.size());
            sampled.component.push_back(Component(key.first));
            sampled.cell.push_back(key.second);
        }
    }
    prepare_sets(problem, p, sampled);
    return p;
}

/// evaluate_sites' sites, checked (adjoint.hpp), on the scene as it is.
Prepared prepare_sites(const Problem& problem, const DesignSites& sites) {
    check_problem(problem);
    check_scene(problem.scene);
    const Scene& scene = problem.scene;
    const auto comps = scene_e_components(scene);
    std::unordered_set<CellIndex> source_cells[3];
    for (const auto& src : scene.sources)
        if (is_electric(src.component))
            for (CellIndex c : src.cells) source_cells[component_axis(src.component)].insert(c);
    auto fail = [](const std::string& m) { return std::invalid_argument("shape sites: " + m); };
    const auto n = grid_n(scene);
    if (sites.component.size() != sites.cell.size()) throw fail("components and cells differ in length");
    for (std::size_t s = 0; s < sites.size(); ++s) {
        const Component c = sites.component[s];
        const CellIndex cell = sites.cell[s];
        const std::string at = std::string(component_name(c)) + " site " + std::to_string(cell);
        if (std::find(comps.begin(), comps.end(), c) == comps.end() || cell < 0 || std::size_t(cell) >= scene.cells())
            throw fail(at + " is not an E site of the scene");
        if (s > 0 && c != sites.component[s - 1])
            for (std::size_t r = 0; r + 1 < s; ++r)
                if (sites.component[r] == c) throw fail("the sites of one component must be consecutive");
        if (source_cells[component_axis(c)].count(cell)) throw fail(at + " holds a source");
        const std::int64_t ijk[3] = {cell % n[0], (cell / n[0]) % n[1], cell / (n[0] * n[1])};
        for (int a = 0; a < (scene.dimensions == 3 ? 3 : 2); ++a)
            if (ijk[a] < scene.pml_lo[a] || ijk[a] >= n[a] - scene.pml_hi[a])
                throw fail(at + " lies in the PML along " + std::string(1, char('x' + a)) +
                           " (a boundary moves there): the CPML update is not reciprocal enough for the sensitivity "
                           "(a slab through the PML gave errors of 4 % to 170 %); keep moving boundaries outside it");
    }
    check_tfsf_faces(scene, sites, "shape sites: a moving boundary");
    Prepared p;
    p.forward = scene;
    p.sites = sites;
    prepare_sets(problem, p, sites);
    return p;
}

/// The DFT sets of `sampled` (the design sites first) and of the functionals.
void prepare_sets(const Problem& problem, Prepared& p, const DesignSites& sampled) {
    p.design = design_sets(sampled, problem.frequencies_hz);
    p.forward.dft_sets = p.design.sets;
    p.forward.time_probes.clear();
    auto comps = scene_e_components(p.forward);
    if (p.forward.dimensions == 3)
        comps.insert(comps.end(), {Component::Hx, Component::Hy, Component::Hz});
    else
        for (Component c : magnetic_components(p.forward.polarization)) comps.push_back(c);
    const std::size_t cells = p.forward.cells();
    for (const auto& fn : problem.functionals) {
        if (fn.component.size() != fn.cell.size() || fn.cell.size() != fn.weights.size() || fn.cell.empty())
            throw std::invalid_argument("adjoint: functional " + fn.name + ": components, cells and weights differ in length or are empty");
        if (!fn.weights_per_frequency.empty()) {
            if (fn.weights_per_frequency.size() != problem.frequencies_hz.size())
                throw std::invalid_argument("adjoint: functional " + fn.name + ": weights_per_frequency needs one row per frequency");
            for (const auto& row : fn.weights_per_frequency)
                if (row.size() != fn.cell.size())
                    throw std::invalid_argument("adjoint: functional " + fn.name + ": a weights_per_frequency row has the wrong length");
        }
        std::map<Component, std::size_t> set_of;
        std::vector<std::pair<std::size_t, std::size_t>> samples;
        for (std::size_t q = 0; q < fn.cell.size(); ++q) {
            const Component c = fn.component[q];
            if (std::find(comps.begin(), comps.end(), c) == comps.end())
                throw std::invalid_argument("adjoint: functional " + fn.name + " reads " + component_name(c) +
                                            ", which is not a field component of the scene");
            if (fn.cell[q] < 0 || std::size_t(fn.cell[q]) >= cells)
                throw std::invalid_argument("adjoint: functional " + fn.name + " has a cell outside the grid");
            auto it = set_of.find(c);
            if (it == set_of.end()) {
                DftSet set;
                set.component = c;
                set.frequencies_hz = problem.frequencies_hz;
                p.forward.dft_sets.push_back(std::move(set));
                it = set_of.emplace(c, p.forward.dft_sets.size() - 1).first;
            }
            DftSet& set = p.forward.dft_sets[it->second];
            samples.emplace_back(it->second, set.cell0.size());
            set.cell0.push_back(fn.cell[q]);
            set.cell1.push_back(-1);
            set.w0.push_back(1.0);
            set.w1.push_back(0.0);
        }
        p.sample_of.push_back(std::move(samples));
    }
}

Amplitudes amplitudes_of(const Problem& problem, const Prepared& p, const RunOutput& run) {
    const std::size_t nf = problem.frequencies_hz.size();
    Amplitudes a(problem.functionals.size(), std::vector<std::complex<double>>(nf, 0.0));
    for (std::size_t m = 0; m < problem.functionals.size(); ++m)
        for (std::size_t q = 0; q < p.sample_of[m].size(); ++q) {
            const auto [set, k] = p.sample_of[m][q];
            const FieldFunctional& fn = problem.functionals[m];
            for (std::size_t f = 0; f < nf; ++f)
                a[m][f] += (fn.weights_per_frequency.empty() ? fn.weights[q] : fn.weights_per_frequency[f][q]) *
                           run.dft[set][k * nf + f];
        }
    return a;
}

}  // namespace

namespace {

/// E at every design site and frequency, [s * nf + f], from a run's design sets (set 0 on).
std::vector<std::complex<double>> design_fields(const RunOutput& run, const DesignSets& d, std::size_t sites,
                                                std::size_t nf) {
    std::vector<std::complex<double>> out;
    for (std::size_t k = 0; k < d.sets.size() && out.size() < sites * nf; ++k)
        out.insert(out.end(), run.dft[k].begin(), run.dft[k].end());
    out.resize(sites * nf);  // the cluster's extra samples follow the design sites
    return out;
}

/// The fields whose products give d F / d eps_r at the design sites, [s * nf + f]: E, and
/// at the tensor-coupled design sites D~ / eps_r with D~ = K^-1 E over their cluster
/// (adjoint_tensor.hpp): there only the diagonal 1 / eps_r of K changes with the density,
/// dK = -d eps / eps_r^2, so (1 - z) D~_adj dK D~_fwd = -(1 - z) (D~_adj / eps_r) (D~_fwd /
/// eps_r) d eps, the plain formula with E -> D~ / eps_r (docs/inverse-design.md section 6).
std::vector<std::complex<double>> gradient_fields(const Prepared& p, const RunOutput& run, std::size_t nf) {
    std::vector<std::complex<double>> out = design_fields(run, p.design, p.sites.size(), nf);
    if (p.cluster.sites.empty()) return out;
    const std::size_t n = p.cluster.sites.size();
    std::vector<std::vector<std::complex<double>>> e(1, std::vector<std::complex<double>>(n * nf));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t f = 0; f < nf; ++f) e[0][i * nf + f] = design_dft(run, 0, p.design, p.cluster_sample[i], f, nf);
    const auto d = solve_tensor(p.cluster.k, n, nf, e);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t s = p.cluster_sample[i];
        if (s >= p.sites.size()) continue;
        const auto& [c, cell] = p.cluster.sites[i];
        const double eps = p.forward.table[p.forward.material_index[c][std::size_t(cell)]].eps_r;
        for (std::size_t f = 0; f < nf; ++f) out[s * nf + f] = d[0][i * nf + f] / eps;
    }
    return out;
}

/// Problem::per_frequency's values, checked (one per frequency; the gradient's shape).
std::vector<double> per_frequency_values(const Problem& problem, const Amplitudes& a, Amplitudes* g) {
    std::vector<double> v = problem.per_frequency(a, g);
    if (v.size() != problem.frequencies_hz.size())
        throw std::invalid_argument("adjoint: the per-frequency objective gave " + std::to_string(v.size()) +
                                    " values for " + std::to_string(problem.frequencies_hz.size()) + " frequencies");
    if (g && (g->size() != a.size() || (!a.empty() && (*g)[0].size() != a[0].size())))
        throw std::invalid_argument("adjoint: the per-frequency objective's gradient has the wrong shape");
    return v;
}

/// The forward run of `p`: fills the evaluation's steps, time and amplitudes.
RunOutput forward_run(const Problem& problem, const Prepared& p, Evaluation& ev) {
    RunOutput run = run_to_decay(p.forward, problem.settings, ev.warnings, "forward");
    ev.forward_steps = run.steps;
    ev.forward_s = run.wall_s;
    ev.amplitudes = amplitudes_of(problem, p, run);
    return run;
}

}  // namespace

namespace {

/// The forward run of a prepared problem (evaluate, evaluate_sites).
Evaluation forward_only(const Problem& problem, const Prepared& p) {
    Evaluation ev;
    const RunOutput fwd = forward_run(problem, p, ev);
    ev.objective = problem.objective(ev.amplitudes, nullptr);
    if (problem.per_frequency) ev.objective_per_frequency = per_frequency_values(problem, ev.amplitudes, nullptr);
    if (problem.settings.on_fields) {
        DesignFields fields;
        fields.sites = &p.sites;
        fields.frequencies_hz = problem.frequencies_hz;
        fields.forward = design_fields(fwd, p.design, p.sites.size(), problem.frequencies_hz.size());
        problem.settings.on_fields(fields);
    }
    return ev;
}

/// d F / d v per site to the gradient's variables (interpolation_transpose for the density,
/// v = rho~; the identity for evaluate_sites, v = eps_r), and the number of those variables.
using Chain = std::function<std::vector<double>(const std::vector<double>&)>;

/// The forward and adjoint runs of a prepared problem (evaluate_with_gradient, evaluate_sites).
/// d_eps_dv[f]: d eps_d(w_f) / d v of every site (the density: eps_d,max - eps_d,min; the
/// sites: 1); keep_fields: fill Evaluation::site_forward, site_adjoint(_per_frequency).
Evaluation with_adjoint(const Problem& problem, const Prepared& p, const Chain& chain, std::size_t variables,
                        const std::vector<std::complex<double>>& d_eps_dv, bool keep_fields) {
    Evaluation ev;
    const RunOutput fwd = forward_run(problem, p, ev);
    Amplitudes g;
    ev.objective = problem.objective(ev.amplitudes, &g);
    if (g.size() != ev.amplitudes.size()) throw std::invalid_argument("adjoint: the objective's gradient has the wrong shape");
    // the per-frequency values F_f and their gradients: gf[m][f] = d F_f / d a_mf
    const bool split = bool(problem.per_frequency);
    Amplitudes gf;
    if (split) ev.objective_per_frequency = per_frequency_values(problem, ev.amplitudes, &gf);

    const std::size_t nf = problem.frequencies_hz.size();
    const double dt = p.forward.dt_s;
    const std::vector<std::complex<double>> fwd_g = gradient_fields(p, fwd, nf);
    ev.d_eps.assign(p.sites.size(), 0.0);
    // d F_f / d rho: each (functional, frequency) term goes through the interpolation's
    // transpose at once, so that no per-frequency copy of the sites is held (the memory
    // estimate, compile.hpp design_dft_bytes, counts the DFT fields only)
    if (split) ev.gradient_per_frequency.assign(nf, std::vector<double>(variables, 0.0));
    std::vector<double> d_eps_mf(split ? p.sites.size() : 0);
    const CompiledWaveform wave = adjoint_waveform(problem.frequencies_hz);
    // the adjoint field of F for RunSettings::on_fields, [s * nf + f]
    const bool want_fields = bool(problem.settings.on_fields) || keep_fields;
    std::vector<std::complex<double>> adjoint_field(want_fields ? p.sites.size() * nf : 0, 0.0);
    std::vector<std::complex<double>> adjoint_field_f(keep_fields && split ? p.sites.size() * nf : 0, 0.0);
    std::vector<double> d_v(p.sites.size(), 0.0);  // d F / d v per site
    for (std::size_t m = 0; m < problem.functionals.size(); ++m) {
        bool any = false;
        for (const auto& v : g[m]) any = any || v != 0.0;
        if (split)
            for (const auto& v : gf[m]) any = any || v != 0.0;
        if (!any) continue;  // neither F nor an F_f depends on this functional
        const FieldFunctional& fn = problem.functionals[m];
        Scene adj = p.forward;
        adj.sources.clear();
        adj.tfsf.clear();
        adj.time_probes.clear();
        adj.dft_sets = p.design.sets;
        // The adjoint sources: one pulse carrying the weights when they do not depend on
        // the frequency; else one pulse per frequency (basis) with the weights alpha = M^-1 w
        // that give each frequency its own weights (AdjointBasis).
        const bool per_frequency = !fn.weights_per_frequency.empty() && nf > 1;
        std::vector<CompiledWaveform> pulses;
        std::vector<std::vector<std::complex<double>>> alpha;  // [pulse][sample]
        if (per_frequency) {
            const AdjointBasis basis = adjoint_basis(problem.frequencies_hz, dt);
            pulses = basis.pulses;
            alpha.assign(nf, std::vector<std::complex<double>>(fn.cell.size(), 0.0));
            for (std::size_t q = 0; q < fn.cell.size(); ++q)
                for (std::size_t k = 0; k < nf; ++k)
                    for (std::size_t f = 0; f < nf; ++f) alpha[k][q] += basis.inverse[k * nf + f] * fn.weights_per_frequency[f][q];
        } else {
            pulses = {wave};
            alpha = {fn.weights_per_frequency.empty() ? fn.weights : fn.weights_per_frequency[0]};
        }
        bool complex_weights = false;
        for (const auto& row : alpha)
            for (const auto& w : row) complex_weights = complex_weights || w.imag() != 0.0;
        for (std::size_t k = 0; k < pulses.size(); ++k) {
            std::map<Component, std::size_t> term_of;
            for (std::size_t q = 0; q < fn.cell.size(); ++q) {
                const Component c = fn.component[q];
                auto it = term_of.find(c);
                if (it == term_of.end()) {
                    SourceTerm t;
                    t.component = c;
                    t.waveform = pulses[k];
                    adj.sources.push_back(std::move(t));
                    it = term_of.emplace(c, adj.sources.size() - 1).first;
                }
                SourceTerm& t = adj.sources[it->second];
                // E: the curl source J' = u / cb; H~ (mu_r = 1): -u (header comment)
                const double scale = is_electric(c) ? entry_of(adj, c, fn.cell[q]).cb / adj.courant : -1.0;
                t.cells.push_back(fn.cell[q]);
                t.weights.push_back(alpha[k][q].real() * scale);
                if (complex_weights) t.weights_im.push_back(alpha[k][q].imag() * scale);
            }
        }
        adj.complex_fields = complex_weights;
        const RunOutput ar = run_to_decay(adj, problem.settings, ev.warnings, "adjoint");
        ev.adjoint_steps += ar.steps;
        ev.adjoint_s += ar.wall_s;
        const std::vector<std::complex<double>> adj_g = gradient_fields(p, ar, nf);
        for (std::size_t f = 0; f < nf; ++f) {
            const bool need_f = split && gf[m][f] != 0.0;
            if (g[m][f] == 0.0 && !need_f) continue;
            const double omega = 2 * units::pi * problem.frequencies_hz[f];
            // the basis already gives each frequency unit source spectrum; one pulse has S(w)
            const std::complex<double> S =
                per_frequency ? std::complex<double>(1.0) : source_dft(wave, dt, ar.steps, problem.frequencies_hz[f]);
            // d a / d eps(x) = -(1 - exp(i w dt)) E_fwd E_adj / S  (header comment)
            const std::complex<double> factor = -(1.0 - std::polar(1.0, omega * dt)) / S;
            const std::complex<double> gc = std::conj(g[m][f]);
            const std::complex<double> gcf = split ? std::conj(gf[m][f]) : 0.0;
            const std::complex<double> dv = d_eps_dv.at(f);
            for (std::size_t s = 0; s < p.sites.size(); ++s) {
                // d a_mf / d eps_d(s, w_f) (gradient_fields: E, or D~ / eps_r where coupled)
                const std::complex<double> da = factor * fwd_g[s * nf + f] * adj_g[s * nf + f];
                ev.d_eps[s] += std::real(gc * da);
                d_v[s] += std::real(gc * da * dv);
                if (need_f) d_eps_mf[s] = std::real(gcf * da * dv);
                if (!want_fields) continue;
                const std::complex<double> ea = design_dft(ar, 0, p.design, s, f, nf);  // E, for the pictures
                adjoint_field[s * nf + f] += gc * ea / S;
                if (!adjoint_field_f.empty()) adjoint_field_f[s * nf + f] += gcf * ea / S;
            }
            if (need_f) {
                const std::vector<double> term = chain(d_eps_mf);
                for (std::size_t k = 0; k < term.size(); ++k) ev.gradient_per_frequency[f][k] += term[k];
            }
        }
    }
    ev.gradient = chain(d_v);
    if (keep_fields) {
        ev.site_forward = design_fields(fwd, p.design, p.sites.size(), nf);
        ev.site_adjoint = adjoint_field;
        ev.site_adjoint_per_frequency = std::move(adjoint_field_f);
    }
    if (problem.settings.on_fields) {
        DesignFields fields;
        fields.sites = &p.sites;
        fields.frequencies_hz = problem.frequencies_hz;
        fields.forward = design_fields(fwd, p.design, p.sites.size(), nf);
        fields.adjoint = std::move(adjoint_field);
        problem.settings.on_fields(fields);
    }
    return ev;
}

}  // namespace

Evaluation evaluate(const Problem& problem, const std::vector<double>& rho) {
    return forward_only(problem, prepare(problem, rho));
}

Evaluation evaluate_with_gradient(const Problem& problem, const std::vector<double>& rho) {
    const Prepared p = prepare(problem, rho);
    const auto chain = [&](const std::vector<double>& d_rho) {
        return interpolation_transpose(p.sites, problem.region, d_rho);
    };
    // d eps_d / d rho~ at each objective frequency (header comment; eps_max - eps_min when lossless)
    std::vector<std::complex<double>> d_eps_dv;
    for (double f : problem.frequencies_hz)
        d_eps_dv.push_back(problem.region.lossless()
                               ? std::complex<double>(problem.region.eps_max - problem.region.eps_min)
                               : design_epsilon(problem.region, 1.0, 2 * units::pi * f, p.forward.dt_s) -
                                     design_epsilon(problem.region, 0.0, 2 * units::pi * f, p.forward.dt_s));
    return with_adjoint(problem, p, chain, problem.region.pixels(), d_eps_dv, false);
}

Evaluation evaluate_sites(const Problem& problem, const DesignSites& sites, bool with_gradient) {
    const Prepared p = prepare_sites(problem, sites);
    if (!with_gradient) return forward_only(problem, p);
    return with_adjoint(problem, p, [](const std::vector<double>& d_eps) { return d_eps; }, sites.size(),
                        std::vector<std::complex<double>>(problem.frequencies_hz.size(), 1.0), true);
}

}  // namespace golightly::adjoint
