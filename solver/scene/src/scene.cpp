// GoLightly compiled scene helpers: component sets, Yee offsets, the E-update
// coefficient table and the CPML profiles (scene.hpp).
#include "golightly/scene.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "golightly/errors.hpp"

namespace golightly {

std::vector<Component> electric_components(Polarization p) {
    if (p == Polarization::TMz) return {Component::Ez};
    return {Component::Ex, Component::Ey};
}

std::vector<Component> magnetic_components(Polarization p) {
    if (p == Polarization::TMz) return {Component::Hx, Component::Hy};
    return {Component::Hz};
}

std::vector<double> permittivity_picture(const Scene& sc, double* eps_max) {
    std::vector<double> eps(sc.cells(), 1.0);
    const bool tm = sc.polarization == Polarization::TMz;
    double top = 1.0;
    for (std::size_t k = 0; k < eps.size(); ++k) {
        double e = 1.0;
        if (tm && !sc.material_index[2].empty()) e = sc.table[sc.material_index[2][k]].eps_r;
        else if (!tm && !sc.material_index[0].empty() && !sc.material_index[1].empty())
            e = 0.5 * (sc.table[sc.material_index[0][k]].eps_r + sc.table[sc.material_index[1][k]].eps_r);
        eps[k] = e;
        top = std::max(top, e);
    }
    if (eps_max) *eps_max = top;
    return eps;
}

Grid Scene::grid() const {
    Grid g;
    g.n = {nx, ny, dimensions == 3 ? nz : 1};
    g.dx_um = dx_um;
    for (int a = 0; a < (dimensions == 3 ? 3 : 2); ++a) {
        g.boundary[a] = boundary[a];
        g.pml_lo[a] = pml_lo[a];
        g.pml_hi[a] = pml_hi[a];
    }
    return g;
}

namespace {

/// Key of a positive quantity rounded to 1 / per_unit relative (per_unit 1e7: 1e-7); 0 maps
/// to a key of its own.
long long relative_key(double v, double per_unit) {
    if (v == 0.0) return std::numeric_limits<long long>::min();
    const double l = std::log(std::abs(v)) * per_unit;
    const long long k = std::llround(l);
    return v < 0 ? -k - 1 : k;  // negative values (not physical here) keep distinct keys
}

struct PairHash {
    std::size_t operator()(const std::pair<long long, long long>& p) const noexcept {
        return std::hash<long long>()(p.first) * 1000003u ^ std::hash<long long>()(p.second);
    }
};

}  // namespace

namespace {

/// One attempt of build_material_table at the given rounding; false when more than 65535
/// entries would be needed (the scene is then left half filled: the caller retries).
bool fill_material_table(Scene& scene, const std::vector<Component>& comps,
                         const std::vector<std::vector<double>>& eps_r_per_component,
                         const std::vector<std::vector<double>>& sigma_per_component, double per_unit) {
    const std::size_t n = scene.cells();
    const double S = scene.courant;
    const double dt = scene.dt_s;
    scene.table.clear();
    for (auto& m : scene.material_index) m.clear();
    std::unordered_map<std::pair<long long, long long>, std::uint16_t, PairHash> lookup;
    for (std::size_t k = 0; k < comps.size(); ++k) {
        const int ci = static_cast<int>(comps[k]);
        const std::size_t src = eps_r_per_component.size() == 3 ? std::size_t(ci) : k;
        if (src >= eps_r_per_component.size() || eps_r_per_component[src].size() != n)
            throw RunError("build_material_table: eps_r of component " + std::to_string(ci) +
                           " must hold nx*ny = " + std::to_string(n) + " values");
        const std::vector<double>& eps = eps_r_per_component[src];
        const std::vector<double>* sig =
            src < sigma_per_component.size() && !sigma_per_component[src].empty()
                ? &sigma_per_component[src] : nullptr;
        if (sig && sig->size() != n)
            throw RunError("build_material_table: sigma must hold nx*ny values or be empty");
        auto& idx = scene.material_index[ci];
        idx.resize(n);
        std::pair<long long, long long> last_key{0, 0};
        std::uint16_t last_index = 0;
        bool have_last = false;
        for (std::size_t c = 0; c < n; ++c) {
            const double e = eps[c];
            const double s = sig ? (*sig)[c] : 0.0;
            if (!(e > 0.0) || !std::isfinite(e) || !std::isfinite(s) || s < 0.0) {
                std::ostringstream os;
                os << "build_material_table: invalid material at cell " << c << " (eps_r " << e
                   << ", sigma " << s << " S/m): eps_r must be > 0 and sigma >= 0";
                throw RunError(os.str());
            }
            const std::pair<long long, long long> key{relative_key(e, per_unit), relative_key(s, per_unit)};
            if (have_last && key == last_key) { idx[c] = last_index; continue; }
            auto it = lookup.find(key);
            std::uint16_t id;
            if (it == lookup.end()) {
                if (scene.table.size() >= 65535) return false;
                EUpdateCoeffs co;
                const double loss = s * dt / (2.0 * units::eps0 * e);
                co.eps_r = e;
                co.sigma = s;
                co.ca = (1.0 - loss) / (1.0 + loss);
                co.cb = (S / e) / (1.0 + loss);
                id = static_cast<std::uint16_t>(scene.table.size());
                scene.table.push_back(co);
                lookup.emplace(key, id);
            } else {
                id = it->second;
            }
            idx[c] = id;
            last_key = key;
            last_index = id;
            have_last = true;
        }
    }
    return true;
}

}  // namespace

void build_material_table(Scene& scene, const std::vector<std::vector<double>>& eps_r_per_component,
                          const std::vector<std::vector<double>>& sigma_per_component) {
    // Vectors are given either in the order of electric_components(polarization) or, when
    // three are given, indexed by component (Ex, Ey, Ez).
    const auto comps = scene.dimensions == 3 ? std::vector<Component>{Component::Ex, Component::Ey, Component::Ez}
                                             : electric_components(scene.polarization);
    // Equal entries merge after rounding eps_r and sigma to 1e-7 relative; when that leaves
    // more than 65535 entries (sub-pixel averaging of large 3D grids gives a near-continuum
    // of eps_r), the table is rebuilt with 1e-6, 1e-5, then 1e-4 relative rounding, far below
    // the discretization error of the averaging (an entry keeps the first value of its bin).
    const double per_unit_levels[4] = {1e7, 1e6, 1e5, 1e4};
    for (int level = 0;; ++level) {
        if (fill_material_table(scene, comps, eps_r_per_component, sigma_per_component, per_unit_levels[level])) return;
        if (level == 3)
            throw RunError("build_material_table: more than 65535 distinct (eps_r, sigma) entries even after "
                           "rounding eps_r and sigma to 1e-4 relative");
    }
}

std::size_t engine_state_bytes(const Scene& s, Precision precision, long long recorded_steps) {
    const std::size_t R = precision == Precision::Float32 ? 4 : 8;
    const std::size_t index = sizeof(CellIndex), weight = sizeof(double);
    const std::size_t n = s.cells();
    const bool three = s.dimensions == 3;
    const std::size_t n_e = three ? 3 : electric_components(s.polarization).size();
    std::size_t b = (three ? 6 : 3) * n * R;                                              // fields
    b += n_e * n * (sizeof(std::uint16_t) + 2 * R);                                     // index, ca, cb
    b += s.table.size() * (sizeof(EUpdateCoeffs) + 2 * R + sizeof(double));
    const std::size_t nx = std::size_t(s.nx), ny = std::size_t(s.ny), nz = three ? std::size_t(s.nz) : 1;
    const std::size_t wx = std::size_t(s.pml_lo[0] + s.pml_hi[0]), wy = std::size_t(s.pml_lo[1] + s.pml_hi[1]);
    if (three) {
        // 3D: per axis four psi arrays (two E and two H components differentiate along it),
        // twice: the CUDA engine's fused kernel keeps two sets (cuda_bulk3d.cuh; its second
        // set of the six fields, 6 n R, is within the 3 n (2 R) of ca, cb above, which it
        // does not store per cell).
        const std::size_t wz = std::size_t(s.pml_lo[2] + s.pml_hi[2]);
        b += 2 * 4 * (wx * ny * nz + wy * nx * nz + wz * nx * ny) * R;  // psi
        b += 6 * (nx + ny + nz) * R;                                 // CPML profiles
    } else {
        b += 2 * (wx * ny + wy * nx) * R;  // psi
        b += 6 * (nx + ny) * R;            // CPML profiles
    }
    for (const DftSet& d : s.dft_sets)  // + 16 sample slots: the CUDA engines' DFT ring
        b += d.cell0.size() * (2 * (index + weight) + d.frequencies_hz.size() * 2 * sizeof(double) + 16 * sizeof(double));
    for (const TimeProbe& p : s.time_probes)
        b += p.cells.size() * (index + weight) + std::size_t(std::max(0LL, recorded_steps)) * sizeof(double);
    for (const SourceTerm& t : s.sources) b += t.cells.size() * (index + weight);
    // TF/SF: the 1D auxiliary line (E, H, saved E and the absorber coefficients, double, with
    // margins and a 64-cell absorber) and one correction (64-bit cell, aux index, kind,
    // coefficient) per face node and component: at most 4 per node of the box surface.
    for (const TfsfSource& t : s.tfsf) {
        const std::size_t len = std::size_t(std::max<std::int64_t>(0, t.hi[t.axis % 3] - t.lo[t.axis % 3])) + 80;
        b += len * 8 * sizeof(double);
        std::size_t ext[3];
        for (int a = 0; a < 3; ++a) ext[a] = std::size_t(std::max<std::int64_t>(0, t.hi[a] - t.lo[a])) + 3;
        if (!three) ext[2] = 1;
        const std::size_t surface = 2 * (ext[0] * ext[1] + ext[1] * ext[2] + ext[0] * ext[2]);
        b += 4 * surface * (sizeof(std::int64_t) + 2 * sizeof(std::int32_t) + 2 * sizeof(double));
    }
    std::size_t max_poles = 0, pole_total = 0;
    for (const PoleSet& ps : s.pole_sets) {
        max_poles = std::max(max_poles, ps.poles.size());
        pole_total += ps.poles.size();
    }
    for (const DispersiveCells& d : s.dispersive)
        b += d.cells.size() * (index + sizeof(std::uint32_t) + weight + (2 + 2 * max_poles) * R);
    b += pole_total * 5 * (sizeof(double) + R) + s.pole_sets.size() * 2 * sizeof(std::int32_t);
    const std::size_t slots = std::size_t(anisotropic_slots(s.dimensions));
    for (int c = 0; c < 3; ++c)
        b += s.anisotropic.cells[c].size() * ((1 + slots) * index + slots * weight + (1 + slots) * R);
    if (s.complex_fields) {  // the imaginary copy (header comment "Bloch-periodic axes")
        std::size_t im = (three ? 6 : 3) * n * R;
        if (three) {
            const std::size_t wz = std::size_t(s.pml_lo[2] + s.pml_hi[2]);
            im += 4 * (wx * ny * nz + wy * nx * nz + wz * nx * ny) * R;
        } else {
            im += 2 * (wx * ny + wy * nx) * R;
        }
        for (const DftSet& d : s.dft_sets) im += d.cell0.size() * d.frequencies_hz.size() * 2 * sizeof(double);
        for (const DispersiveCells& d : s.dispersive) im += d.cells.size() * (2 + 2 * max_poles) * R;
        for (const SourceTerm& t : s.sources) im += t.cells.size() * (index + 2 * weight);
        b += im;
    }
    return b;
}

// CPML profiles. Depth d (in cells) is measured from the interior edge of the slab, which
// lies at e position pml_lo (low side) and at e position n - pml_hi (high side):
//   low side,  index i in [0, pml_lo):     e position i      -> d = pml_lo - i
//                                           h position i+1/2  -> d = pml_lo - i - 1/2
//   high side, index i in [n-pml_hi, n):   e position i      -> d = i - (n - pml_hi)
//                                           h position i+1/2  -> d = i + 1/2 - (n - pml_hi)
// so h positions interleave the e positions at half-cell depths on both sides, and the
// grading is the same function of the distance from the interior on both sides.
// L = pml cells of that side; d/L is clamped to [0, 1].
//
// Roden & Gedney, MOTL 27, 334 (2000), eqs. 7-8 (also Taflove & Hagness 3rd ed. 7.102-7.114):
//   sigma(d) = sigma_max (d/L)^m,  kappa(d) = 1 + (kappa_max - 1) (d/L)^m,
//   alpha(d) = alpha_max (1 - d/L),
//   b = exp(-(sigma/kappa + alpha) dt / eps0),
//   c = sigma / (sigma kappa + kappa^2 alpha) * (b - 1)   (0 where sigma = 0).
//   sigma_max = -(m+1) ln(R) / (2 eta0 L dx).
//
// Defaults (scene.hpp): kappa_max = 1 (plain stretching: the point-source test in vacuum
// reflects least with kappa_max = 1 at 8..24 cells; kappa > 1 only pays off for strongly
// evanescent fields inside the slab). alpha_max < 0 selects the grid-scaled value
//   alpha_max = eps0 * c0 / (dx * 100),
// i.e. alpha/(omega eps0) = lambda / (200 pi dx) ~ 0.03..0.06 for the usual 20..40 cells
// per wavelength: small enough not to spoil absorption at the operating band, large
// enough to keep the CFS pole away from DC (late-time low-frequency drift).
void build_cpml(Scene& scene, double grading_order, double target_reflection, double kappa_max,
                double alpha_max_s_per_m) {
    if (!(scene.dx_um > 0) || !(scene.dt_s > 0) || scene.nx <= 0 || scene.ny <= 0 ||
        (scene.dimensions == 3 && scene.nz <= 0))
        throw RunError("build_cpml: nx, ny, (3D: nz,) dx_um and dt_s must be set first");
    if (!(target_reflection > 0 && target_reflection < 1))
        throw RunError("build_cpml: target_reflection must lie in (0, 1)");
    if (!(grading_order >= 0)) throw RunError("build_cpml: grading_order must be >= 0");
    if (!(kappa_max >= 1)) throw RunError("build_cpml: kappa_max must be >= 1");
    const double dx_m = scene.dx_um * units::um;
    const double dt = scene.dt_s;
    const double eps0 = units::eps0;
    const double alpha_max =
        alpha_max_s_per_m < 0 ? eps0 * units::c0 / (dx_m * 100.0) : alpha_max_s_per_m;
    const double m = grading_order;

    // 2D: x and y (z is the periodic axis of one cell); 3D: x, y and z alike.
    const int axes = scene.dimensions == 3 ? 3 : 2;
    for (int a = 0; a < axes; ++a) {
        const int n = a == 0 ? scene.nx : a == 1 ? scene.ny : scene.nz;
        CpmlAxis& ax = scene.cpml[a];
        ax.b_e.assign(n, 0.0); ax.c_e.assign(n, 0.0); ax.inv_kappa_e.assign(n, 1.0);
        ax.b_h.assign(n, 0.0); ax.c_h.assign(n, 0.0); ax.inv_kappa_h.assign(n, 1.0);
        const int lo = scene.pml_lo[a], hi = scene.pml_hi[a];
        if (lo < 0 || hi < 0 || lo + hi > n)
            throw RunError("build_cpml: PML cells exceed the grid along axis " + std::to_string(a));

        auto profile = [&](double d, int L, double& b, double& c, double& inv_kappa) {
            const double u = std::clamp(d / L, 0.0, 1.0);
            const double sigma_max = -(m + 1.0) * std::log(target_reflection) / (2.0 * units::eta0 * L * dx_m);
            const double g = std::pow(u, m);
            const double sigma = sigma_max * g;
            const double kappa = 1.0 + (kappa_max - 1.0) * g;
            const double alpha = alpha_max * (1.0 - u);
            b = std::exp(-(sigma / kappa + alpha) * dt / eps0);
            c = sigma > 0 ? sigma / (sigma * kappa + kappa * kappa * alpha) * (b - 1.0) : 0.0;
            inv_kappa = 1.0 / kappa;
        };
        for (int i = 0; i < lo; ++i) {
            profile(lo - i, lo, ax.b_e[i], ax.c_e[i], ax.inv_kappa_e[i]);
            profile(lo - i - 0.5, lo, ax.b_h[i], ax.c_h[i], ax.inv_kappa_h[i]);
        }
        for (int i = n - hi; i < n; ++i) {
            profile(i - (n - hi), hi, ax.b_e[i], ax.c_e[i], ax.inv_kappa_e[i]);
            profile(i + 0.5 - (n - hi), hi, ax.b_h[i], ax.c_h[i], ax.inv_kappa_h[i]);
        }
    }
}

}  // namespace golightly
