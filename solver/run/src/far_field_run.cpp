#include "far_field_run.hpp"

#include <algorithm>
#include <cmath>

#include "golightly/cuda_far_field.hpp"
#include "golightly/distributed.hpp"
#include "golightly/grid.hpp"
#include "golightly/units.hpp"

namespace golightly::detail {

using cplx = std::complex<double>;

namespace {

/// Unit vector of Component c's axis (Ex/Hx: x, ...).
int axis_of(Component c) { return int(c) % 3; }

/// a x b for a unit axis vector a = sign e_na and b = value e_nb.
std::array<cplx, 3> axis_cross(int na, double sign, int nb, cplx value) {
    std::array<cplx, 3> out{};
    if (na == nb) return out;
    // e_x x e_y = e_z (cyclic), reversed order negative
    const int third = 3 - na - nb;
    const double s = ((nb - na + 3) % 3 == 1) ? 1.0 : -1.0;
    out[std::size_t(third)] = sign * s * value;
    return out;
}

}  // namespace

RadiationVectorsFn radiation_vectors_on(const Engine& engine) {
    if (engine.backend() != "cuda") return {};
    return [](const SurfaceCurrents& s, const std::vector<std::array<double, 3>>& unit) {
        const double k = 2 * units::pi * s.frequency_hz / units::c0;
        return cuda_radiation_vectors(k, s.dimensions == 2, s.position_m, s.j, s.m, s.ds, unit);
    };
}

SurfaceCurrents surface_currents(const Scene& scene, const CompiledMonitor& m, std::size_t f,
                                 const std::map<int, std::vector<cplx>>& sets, std::size_t column, std::size_t columns,
                                 const std::map<int, std::vector<cplx>>* ref) {
    SurfaceCurrents s;
    s.dimensions = scene.dimensions;
    s.polarization = scene.polarization;
    const Grid g = scene.grid();
    for (const FluxTerm& t : m.flux_terms) {
        const DftSet& es = scene.dft_sets.at(std::size_t(t.e_set));
        const DftSet& hs = scene.dft_sets.at(std::size_t(t.h_set));
        const std::size_t nf = es.frequencies_hz.size();
        s.frequency_hz = es.frequencies_hz.at(f);
        const auto& ev = sets.at(t.e_set);
        const auto& hv = sets.at(t.h_set);
        const std::vector<cplx>* er = ref && ref->count(t.e_set) ? &ref->at(t.e_set) : nullptr;
        const std::vector<cplx>* hr = ref && ref->count(t.h_set) ? &ref->at(t.h_set) : nullptr;
        const int ea = axis_of(es.component), ha = axis_of(hs.component);
        const Vec3 off = yee_offset(es.component);
        const double ds = t.ds_um * std::pow(units::um, t.ds_dims);
        for (std::size_t k = 0; k < es.cell0.size(); ++k) {
            const CellIndex c = es.cell0[k];
            const std::int64_t i = c % scene.nx, j = (c / scene.nx) % scene.ny, kk = c / (std::int64_t(scene.nx) * scene.ny);
            Vec3 p{g.position_um(0, i, off.x) * units::um, g.position_um(1, j, off.y) * units::um,
                   scene.dimensions == 3 ? g.position_um(2, kk, off.z) * units::um : 0.0};
            cplx e = ev.at(k * columns + column), h = hv.at(k * columns + column);
            if (er) e -= (*er)[k * nf + f];
            if (hr) h -= (*hr)[k * nf + f];
            // the E sample carries the covered fraction w0 of its node (half at a face's
            // edge); the H~ sample does not (the flux multiplies the two): weight it here
            h *= es.w0[k];
            // J = n x H (H = H~ / eta0), M = -n x E, n = direction along normal_axis
            s.position_m.push_back(p);
            s.j.push_back(axis_cross(t.normal_axis, t.direction, ha, h / units::eta0));
            s.m.push_back(axis_cross(t.normal_axis, -t.direction, ea, e));
            s.ds.push_back(ds);
        }
    }
    return s;
}

void replicate_periods(SurfaceCurrents& s, const Scene& scene, int normal_axis, const std::array<int, 2>& periods) {
    const int n_cells[3] = {scene.nx, scene.ny, scene.dimensions == 3 ? scene.nz : 1};
    int slot = 0;
    for (int a = 0; a < scene.dimensions && slot < 2; ++a) {
        if (a == normal_axis) continue;
        const int n = periods[std::size_t(slot++)];
        if (n <= 1) continue;
        const double period_m = double(n_cells[a]) * scene.dx_um * units::um;
        const std::size_t one = s.position_m.size();
        SurfaceCurrents out = s;
        out.position_m.clear();
        out.j.clear();
        out.m.clear();
        out.ds.clear();
        for (int c = 0; c < n; ++c) {
            const int shift = c - (n - 1) / 2;  // copies around the simulated period
            const cplx phase = std::polar(1.0, double(shift) * scene.bloch_phase[a]);
            for (std::size_t k = 0; k < one; ++k) {
                Vec3 p = s.position_m[k];
                (a == 0 ? p.x : a == 1 ? p.y : p.z) += double(shift) * period_m;
                out.position_m.push_back(p);
                std::array<cplx, 3> j = s.j[k], mm = s.m[k];
                for (int q = 0; q < 3; ++q) {
                    j[std::size_t(q)] *= phase;
                    mm[std::size_t(q)] *= phase;
                }
                out.j.push_back(j);
                out.m.push_back(mm);
                out.ds.push_back(s.ds[k]);
            }
        }
        s = std::move(out);
    }
}

std::optional<FarFieldResult> far_field_result(Engine& engine, const Scene& scene, const CompiledMonitor& m,
                                               const FarFieldSettings& ff, const std::vector<double>& spectrum_hz,
                                               const std::map<int, std::vector<cplx>>* ref,
                                               const std::vector<double>& i_inc) {
    FarFieldResult r;
    r.name = m.name;
    r.dimensions = scene.dimensions;
    r.polarization = scene.polarization;
    r.n_theta = scene.dimensions == 3 ? ff.theta_points : 1;
    r.n_phi = ff.phi_points > 0 ? ff.phi_points : (scene.dimensions == 3 ? 72 : 360);
    // the spectrum points nearest the requested wavelengths (default: the band's centre)
    std::vector<double> want = ff.wavelengths;
    if (want.empty() && !spectrum_hz.empty())
        want.push_back(units::hz_to_wavelength_um(0.5 * (spectrum_hz.front() + spectrum_hz.back())));
    std::vector<std::size_t> points;
    for (double wl : want) {
        const double f = units::wavelength_um_to_hz(wl);
        std::size_t best = 0;
        for (std::size_t q = 1; q < spectrum_hz.size(); ++q)
            if (std::fabs(spectrum_hz[q] - f) < std::fabs(spectrum_hz[best] - f)) best = q;
        if (std::find(points.begin(), points.end(), best) == points.end()) points.push_back(best);
    }
    // every surface set at the projected points only, in one gather to the rank that projects
    std::vector<int> set_ids;
    for (const FluxTerm& t : m.flux_terms)
        for (int id : {t.e_set, t.h_set})
            if (std::find(set_ids.begin(), set_ids.end(), id) == set_ids.end()) set_ids.push_back(id);
    std::vector<std::vector<cplx>> gathered;
    if (!dft_on_root(engine, scene, set_ids, points, gathered)) return std::nullopt;  // rank 0 projects
    std::map<int, std::vector<cplx>> sets;
    for (std::size_t i = 0; i < set_ids.size(); ++i) sets[set_ids[i]] = std::move(gathered[i]);
    std::vector<std::array<double, 2>> dirs;
    for (int i = 0; i < r.n_theta; ++i)
        for (int j = 0; j < r.n_phi; ++j)
            dirs.push_back({r.n_theta == 1 ? 0.5 * units::pi : units::pi * i / (r.n_theta - 1),
                            2 * units::pi * j / r.n_phi});
    for (std::size_t column = 0; column < points.size(); ++column) {
        const std::size_t q = points[column];
        SurfaceCurrents sc = surface_currents(scene, m, q, sets, column, points.size(), ref);
        if (!m.flux_terms.empty()) replicate_periods(sc, scene, m.flux_terms.front().normal_axis, ff.periods);
        r.frequency_hz.push_back(spectrum_hz[q]);
        r.wavelength_um.push_back(units::hz_to_wavelength_um(spectrum_hz[q]));
        r.samples.push_back(project_far_field(sc, dirs, radiation_vectors_on(engine)));
        r.power.push_back(radiated_power(r.samples.back(), r.n_theta, r.n_phi));
        if (!i_inc.empty()) r.i_inc.push_back(i_inc.at(q));
        r.surfaces.push_back(std::move(sc));
    }
    return r;
}

}  // namespace golightly::detail
