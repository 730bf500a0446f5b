#include "diffraction_run.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "golightly/errors.hpp"
#include "golightly/grid.hpp"
#include "golightly/units.hpp"

namespace golightly::detail {

using cplx = std::complex<double>;

namespace {

/// Axis of a component (Ex/Hx: 0, Ey/Hy: 1, Ez/Hz: 2).
int axis_of(Component c) { return int(c) % 3; }

/// The tangential axes t1 < t2 of a plane normal to `normal` (2D: t2 is z).
std::array<int, 2> tangential_axes(int normal) {
    std::array<int, 2> t{};
    for (int a = 0, k = 0; a < 3; ++a)
        if (a != normal) t[std::size_t(k++)] = a;
    return t;
}

}  // namespace

FloquetPlaneFields floquet_plane_fields(const Scene& scene, const CompiledMonitor& m, std::size_t f,
                                        const std::map<int, std::vector<cplx>>& sets,
                                        const std::map<int, std::vector<cplx>>* ref) {
    if (m.flux_terms.empty()) throw RunError("diffraction monitor '" + m.name + "' has no flux samples");
    const Grid g = scene.grid();
    FloquetPlaneFields p;
    p.dimensions = scene.dimensions;
    p.normal_axis = m.flux_terms[0].normal_axis;
    p.direction = m.flux_terms[0].direction;
    const std::array<int, 2> t = tangential_axes(p.normal_axis);
    for (int c = 0; c < 2; ++c) {
        const int a = t[std::size_t(c)];
        p.n[std::size_t(c)] = a < scene.dimensions ? int(g.n[std::size_t(a)]) : 1;
        p.period_um[std::size_t(c)] = a < scene.dimensions ? g.interior_um(a) : 1.0;
        if (a < scene.dimensions && !g.periodic(a))
            throw RunError("diffraction monitor '" + m.name + "': the domain is not periodic along " +
                           std::string(1, char('x' + a)));
    }
    const std::size_t ns = std::size_t(p.n[0]) * std::size_t(p.n[1]);
    for (const FluxTerm& term : m.flux_terms) {
        if (term.normal_axis != p.normal_axis || term.direction != p.direction)
            throw RunError("diffraction monitor '" + m.name + "': its flux terms lie on different planes");
        const DftSet& es = scene.dft_sets.at(std::size_t(term.e_set));
        const DftSet& hs = scene.dft_sets.at(std::size_t(term.h_set));
        const int ea = axis_of(es.component), ha = axis_of(hs.component);
        const int ce = ea == t[0] ? 0 : 1, ch = ha == t[0] ? 0 : 1;
        if (ea == p.normal_axis || ha == p.normal_axis || ce == ch)
            throw RunError("diffraction monitor '" + m.name + "': a flux term is not a tangential E, H pair");
        const std::size_t nf = es.frequencies_hz.size();
        const auto& ev = sets.at(term.e_set);
        const auto& hv = sets.at(term.h_set);
        const std::vector<cplx>* er = ref && ref->count(term.e_set) ? &ref->at(term.e_set) : nullptr;
        const std::vector<cplx>* hr = ref && ref->count(term.h_set) ? &ref->at(term.h_set) : nullptr;
        if (es.cell0.size() != ns)
            throw RunError("diffraction monitor '" + m.name + "' has " + std::to_string(es.cell0.size()) +
                           " samples of " + component_name(es.component) + " where one period has " +
                           std::to_string(ns) + ": it must span the whole period");
        std::vector<cplx> e(ns), h(ns);
        std::vector<char> seen(ns, 0);
        const Vec3 off = yee_offset(es.component);
        for (std::size_t k = 0; k < ns; ++k) {
            const CellIndex cell = es.cell0[k];
            const std::int64_t ijk[3] = {cell % scene.nx, (cell / scene.nx) % scene.ny,
                                         cell / (std::int64_t(scene.nx) * scene.ny)};
            const std::size_t i = std::size_t(ijk[t[0]]), j = t[1] < scene.dimensions ? std::size_t(ijk[t[1]]) : 0;
            const std::size_t q = j * std::size_t(p.n[0]) + i;
            if (q >= ns || seen[q] || std::abs(es.w0[k] - 1.0) > 1e-9)
                throw RunError("diffraction monitor '" + m.name + "': its samples are not one whole period");
            seen[q] = 1;
            e[q] = ev.at(k * nf + f) - (er ? (*er).at(k * nf + f) : cplx{});
            h[q] = hv.at(k * nf + f) - (hr ? (*hr).at(k * nf + f) : cplx{});
        }
        p.e[std::size_t(ce)] = std::move(e);
        p.h[std::size_t(ch)] = std::move(h);
        // pair ce = (E_t_ce, H_t_(1-ce)): its samples sit on the E nodes; (i, j) = (0, 0) at
        // the component's Yee offset (periodic axes have no PML: index 0 is x = offset dx)
        const double o[3] = {off.x, off.y, off.z};
        for (int c = 0; c < 2; ++c) {
            const int a = t[std::size_t(c)];
            p.origin_um[std::size_t(ce)][std::size_t(c)] = a < scene.dimensions ? g.position_um(a, 0, o[a]) : 0.0;
        }
    }
    return p;
}

double monitor_index(const Scene& scene, const CompiledMonitor& m, std::vector<std::string>& warnings) {
    double sum = 0, lo = 1e300, hi = -1e300;
    std::size_t count = 0;
    bool dispersive = false;
    for (const FluxTerm& term : m.flux_terms) {
        const DftSet& es = scene.dft_sets.at(std::size_t(term.e_set));
        const int c = int(es.component);
        const auto& map = scene.material_index[c];
        const auto& disp = scene.dispersive[c].cells;
        for (CellIndex cell : es.cell0) {
            const double eps = map.empty() ? 1.0 : scene.table.at(map.at(std::size_t(cell))).eps_r;
            sum += eps;
            lo = std::min(lo, eps);
            hi = std::max(hi, eps);
            ++count;
            if (!disp.empty() && std::find(disp.begin(), disp.end(), cell) != disp.end()) dispersive = true;
        }
    }
    const double eps = count ? sum / double(count) : 1.0;
    if (hi - lo > 1e-6 * hi)
        warnings.push_back("diffraction monitor '" + m.name + "' does not lie in one uniform medium (eps_r " +
                           std::to_string(lo) + " to " + std::to_string(hi) +
                           "): its orders are not plane waves there; the angles use the mean index. Move it into "
                           "a uniform region or set \"index\"");
    if (dispersive)
        warnings.push_back("diffraction monitor '" + m.name +
                           "' lies in a dispersive material: its angles use eps_inf; set \"index\" for the band");
    return std::sqrt(std::max(eps, 1e-12));
}

DiffractionResult diffraction_result(Engine& engine, const Scene& scene, const CompiledMonitor& m,
                                     const DiffractionSettings& ds, const std::vector<double>& spectrum_hz,
                                     const std::vector<double>* p_inc, const std::map<int, std::vector<cplx>>* ref,
                                     std::array<double, 2> k_bloch_per_um, std::vector<std::string>& warnings) {
    DiffractionResult r;
    r.name = m.name;
    r.kind = m.kind;
    r.dimensions = scene.dimensions;
    r.index = ds.index ? *ds.index : monitor_index(scene, m, warnings);
    r.normalized = p_inc != nullptr;
    r.reference_subtracted = ref != nullptr;
    std::map<int, std::vector<cplx>> sets;
    for (const FluxTerm& t : m.flux_terms) {
        if (!sets.count(t.e_set)) sets[t.e_set] = engine.dft(t.e_set);
        if (!sets.count(t.h_set)) sets[t.h_set] = engine.dft(t.h_set);
    }
    for (std::size_t f = 0; f < spectrum_hz.size(); ++f) {
        const FloquetPlaneFields p = floquet_plane_fields(scene, m, f, sets, ref);
        const double wl = units::hz_to_wavelength_um(spectrum_hz[f]);
        double total = 0;
        try {
            r.orders.push_back(floquet_orders(p, wl, r.index, k_bloch_per_um, &total));
        } catch (const std::invalid_argument& e) {
            throw RunError("diffraction monitor '" + m.name + "': " + e.what());
        }
        r.wavelength_um.push_back(wl);
        r.reference_power.push_back(p_inc ? p_inc->at(f) : total);
    }
    return r;
}

}  // namespace golightly::detail
