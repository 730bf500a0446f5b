// GoLightly: the 2D compiler's monitors (compile2d_internal.hpp; conventions in
// compile_project.cpp's header: flux lines, mode line monitors, field and probe monitors).
#include "compile2d_internal.hpp"

namespace golightly::compile2d {

// ----------------------------------------------------------------------------- monitors

int Compiler::add_flux_line(const Vec2& from, const Vec2& to, int normal, int s, const std::string& path,
                            CompiledMonitor& mon) {
    const TangentialPair tp = tangential_pair(sc().polarization, normal);
    const int tan = 1 - normal;
    const double tan_off = axis_of(yee_offset(tp.e), tan);
    const int k = nearest_index(normal, axis_of(from, normal), 0.0);
    const auto nodes = line_nodes(tan, axis_of(from, tan), axis_of(to, tan), tan_off);
    if (nodes.empty()) throw ProjectError(file_, path, "the flux line covers no grid node");
    long km = long(k) - 1;
    if (!periodic(normal) && km < 0)
        throw ProjectError(file_, path, "a flux line needs one cell of room on each side (it lies on the outer edge)");
    const int k0 = wrap_or_clamp(normal, km);
    DftSet es, hs;
    es.component = tp.e;
    hs.component = tp.h;
    es.frequencies_hz = hs.frequencies_hz = out_.spectrum_hz;
    for (const LineNode& nd : nodes) {
        const CellIndex cell = normal == 0 ? flat(k, nd.t) : flat(nd.t, k);
        detail::add_flux_sample(es, hs, cell, nd.frac, normal == 0 ? flat(k0, nd.t) : flat(nd.t, k0), cell);
    }
    FluxTerm term;
    term.e_set = static_cast<int>(sc().dft_sets.size());
    sc().dft_sets.push_back(std::move(es));
    term.h_set = static_cast<int>(sc().dft_sets.size());
    sc().dft_sets.push_back(std::move(hs));
    // S_normal = -sigma_h e h (TMz: Sx = -Ez Hy, Sy = Ez Hx; TEz: Sx = Ey Hz, Sy = -Ex Hz).
    term.sign = -tp.sigma_h * s;
    term.ds_um = dx_;
    term.normal_axis = normal;
    term.direction = s;
    mon.flux_terms.push_back(term);
    return term.e_set;
}

void Compiler::add_mode_line_monitor(const Monitor& m, const std::string& path, int normal, int s,
                                     CompiledMonitor& cm) {
    auto plan = std::make_shared<ModeMonitorPlan>();
    plan->dims = 2;
    plan->sign = s;
    plan->frequencies_hz = out_.spectrum_hz;
    plan->dx_um = dx_;
    plan->dt_s = sc().dt_s;
    plan->mode_indices = parse_mode_list(m.extra, path, file_);
    const TangentialPair tp = tangential_pair(sc().polarization, normal);
    const int tan = 1 - normal;
    const double tan_off = axis_of(yee_offset(tp.e), tan);
    const int k = nearest_index(normal, axis_of(m.from, normal), 0.0);
    std::vector<LineNode> nodes;
    for (const LineNode& nd : line_nodes(tan, axis_of(m.from, tan), axis_of(m.to, tan), tan_off))
        if (nd.frac >= 0.5 - 1e-9) nodes.push_back(nd);
    if (nodes.size() < 3) throw ProjectError(file_, path, "the mode monitor's line covers too few grid nodes");
    const long km = long(k) - 1;
    if (!periodic(normal) && km < 0)
        throw ProjectError(file_, path, "a mode monitor needs one cell of room on each side (it lies on the outer edge)");
    const int k0 = wrap_or_clamp(normal, km);
    DftSet es, hs;
    es.component = tp.e;
    hs.component = tp.h;
    es.frequencies_hz = hs.frequencies_hz = out_.spectrum_hz;
    std::vector<double> eps_e(nodes.size());
    for (std::size_t q = 0; q < nodes.size(); ++q) {
        const LineNode& nd = nodes[q];
        const CellIndex cell = normal == 0 ? flat(k, nd.t) : flat(nd.t, k);
        detail::add_flux_sample(es, hs, cell, 1.0, normal == 0 ? flat(k0, nd.t) : flat(nd.t, k0), cell);
        eps_e[q] = normal == 0 ? eps_at(tp.e, k, nd.t) : eps_at(tp.e, nd.t, k);
    }
    plan->set_e[0] = static_cast<int>(sc().dft_sets.size());
    sc().dft_sets.push_back(std::move(es));
    plan->set_h[0] = static_cast<int>(sc().dft_sets.size());
    sc().dft_sets.push_back(std::move(hs));
    // S_normal = -sigma_h e h (add_flux_line), along +normal: the modes are taken for
    // propagation along +normal (mode_profile with s = +1, so that a line's forward and
    // backward modes share E_t and differ in the sign of H~_t, as in 3D); "fwd" / "bwd"
    // are swapped for a monitor pointing along -normal (mode_amplitudes)
    plan->line_flux_sign = -tp.sigma_h;
    SourceLine line;
    line.normal = normal;
    line.tan = tan;
    line.a = axis_of(m.from, tan);
    line.b = axis_of(m.to, tan);
    line.centre = 0.5 * (line.a + line.b);
    line.x_n = axis_of(m.from, normal);
    Source fake;
    fake.component = sc().polarization == Polarization::TMz ? Component::Ez : Component::Hz;
    // a bent line (line_bend_radius): the monitor's modes are the bent slab's
    if (const double R = line_bend_radius(m.extra, path, file_); R != 0) {
        const int pml = line_bend_pml_cells(dx_);
        if (int(nodes.size()) <= 2 * pml + 2)
            throw ProjectError(file_, path + ".bend_radius",
                               "a bent mode line needs more than " + std::to_string(2 * pml + 2) +
                                   " grid nodes (the bend's PML takes " + std::to_string(pml) + " at each end)");
        fake.extra["bend_radius"] = R;
    }
    // a line spanning a Bloch axis with nonzero k: complex Bloch modes (mode_profile), kept
    // in line_e_im / line_h_im too; such a line must span the period and be straight (at
    // k = 0 a spanning line's periodic modes are real: line_e / line_h alone)
    double bloch_phase = 0;
    const bool period_line = bloch_mode_line(line, nodes, path, "mode monitor", bloch_phase);
    const bool bloch_line = period_line && bloch_phase != 0;
    if (period_line && fake.extra.contains("bend_radius"))
        throw ProjectError(file_, path + ".bend_radius",
                           "a mode line along a Bloch axis cannot be bent (its mode is a Bloch mode of the period)");
    for (double f : out_.spectrum_hz) {
        std::vector<std::vector<double>> es_f, hs_f, es_im_f, hs_im_f;
        std::vector<double> ne_f, ni_f;
        for (int mi : plan->mode_indices) {
            fake.mode_index = mi;
            try {
                const OneWayProfile p = mode_profile(fake, path, 2 * pi * f, line, +1, k, nodes, eps_e);
                es_f.push_back(p.e_inc);
                hs_f.push_back(p.h_inc);
                es_im_f.push_back(p.e_inc_im);
                hs_im_f.push_back(p.h_inc_im);
                ne_f.push_back(p.n_eff);
                ni_f.push_back(p.n_eff_imag);
            } catch (const ProjectError&) {  // no such guided mode at this frequency
                es_f.emplace_back();
                hs_f.emplace_back();
                es_im_f.emplace_back();
                hs_im_f.emplace_back();
                ne_f.push_back(0.0);
                ni_f.push_back(0.0);
            }
        }
        plan->line_e.push_back(std::move(es_f));
        plan->line_h.push_back(std::move(hs_f));
        if (bloch_line) {
            plan->line_e_im.push_back(std::move(es_im_f));
            plan->line_h_im.push_back(std::move(hs_im_f));
        }
        plan->line_neff.push_back(std::move(ne_f));
        plan->line_neff_imag.push_back(std::move(ni_f));
    }
    cm.mode_plan = std::move(plan);
}

void Compiler::compile_monitor(std::size_t mi) {
    const Monitor& m = project_.monitors[mi];
    const std::string path = idx_path("monitors", mi);
    const Polarization pol = sc().polarization;
    CompiledMonitor cm;
    cm.name = m.name;
    cm.type = m.type;
    cm.kind = m.kind;
    const std::string what = "monitor '" + m.name + "'";
    switch (m.type) {
        case MonitorType::Flux: {
            check_point(m.from, path + ".from", what);
            check_point(m.to, path + ".to", what);
            const bool along_y = std::abs(m.from.x - m.to.x) <= 1e-9 * std::max(1.0, L_[0]);
            const bool along_x = std::abs(m.from.y - m.to.y) <= 1e-9 * std::max(1.0, L_[1]);
            if (along_x == along_y)
                throw ProjectError(file_, path + ".to",
                                   along_x ? "a flux line needs nonzero length"
                                           : "flux lines must be axis-aligned (oblique lines are not supported)");
            const int normal = along_y ? 0 : 1;
            const auto [axis, s] = parse_direction(m.direction);
            if (axis != normal)
                throw ProjectError(file_, path + ".direction",
                                   "must be normal to the line: " + std::string(normal == 0 ? "+x or -x" : "+y or -y"));
            add_flux_line(m.from, m.to, normal, s, path, cm);
            cm.extent_um = std::hypot(m.to.x - m.from.x, m.to.y - m.from.y);
            if (m.kind == "mode") add_mode_line_monitor(m, path, normal, s, cm);
            break;
        }
        case MonitorType::FluxBox: {
            if (!m.min || !m.max) throw ProjectError(file_, path, "a flux_box needs min and max");
            Vec2 lo{std::min(m.min->x, m.max->x), std::min(m.min->y, m.max->y)};
            Vec2 hi{std::max(m.min->x, m.max->x), std::max(m.min->y, m.max->y)};
            check_point(lo, path + ".min", what);
            check_point(hi, path + ".max", what);
            if (!(hi.x - lo.x > 0) || !(hi.y - lo.y > 0))
                throw ProjectError(file_, path + ".max", "the box must have nonzero width and height");
            add_flux_line({lo.x, lo.y}, {lo.x, hi.y}, 0, -1, path + ".min", cm);
            add_flux_line({hi.x, lo.y}, {hi.x, hi.y}, 0, +1, path + ".max", cm);
            add_flux_line({lo.x, lo.y}, {hi.x, lo.y}, 1, -1, path + ".min", cm);
            add_flux_line({lo.x, hi.y}, {hi.x, hi.y}, 1, +1, path + ".max", cm);
            break;
        }
        case MonitorType::Time: {
            if (!in_polarization(m.component, pol))
                throw ProjectError(file_, path + ".component",
                                   "component " + to_string(m.component) + " is not a field of " + to_string(pol));
            TimeProbe tp;
            tp.component = m.component;
            tp.reduce = m.reduce;
            const Vec3 off = yee_offset(m.component);
            if (m.at) {
                check_point(*m.at, path + ".at", what);
                tp.cells = {flat(nearest_index(0, m.at->x, off.x), nearest_index(1, m.at->y, off.y))};
                tp.weights = {1.0};
            } else if (m.shape) {
                const auto cov = shape_coverage(*m.shape, m.component, path + ".shape");
                for (std::size_t k = 0; k < cov.size(); ++k)
                    if (cov[k] > 1e-9) {
                        tp.cells.push_back(static_cast<CellIndex>(k));
                        tp.weights.push_back(cov[k]);
                    }
                if (tp.cells.empty())
                    throw ProjectError(file_, path + ".shape", "the shape covers no grid node of " + to_string(m.component));
            } else {
                throw ProjectError(file_, path, "a time monitor needs `at` or `shape`");
            }
            cm.time_probe = static_cast<int>(sc().time_probes.size());
            sc().time_probes.push_back(std::move(tp));
            break;
        }
        case MonitorType::DftField: {
            Vec2 lo{0, 0}, hi{L_[0], L_[1]};
            if (m.min) lo = *m.min;
            if (m.max) hi = *m.max;
            if (lo.x > hi.x) std::swap(lo.x, hi.x);
            if (lo.y > hi.y) std::swap(lo.y, hi.y);
            check_point(lo, path + ".min", what);
            check_point(hi, path + ".max", what);
            int i0 = static_cast<int>(std::lround(lo.x / dx_)) + pml_lo(0);
            int i1 = static_cast<int>(std::lround(hi.x / dx_)) + pml_lo(0);
            int j0 = static_cast<int>(std::lround(lo.y / dx_)) + pml_lo(1);
            int j1 = static_cast<int>(std::lround(hi.y / dx_)) + pml_lo(1);
            i0 = std::clamp(i0, 0, N_[0] - 1);
            j0 = std::clamp(j0, 0, N_[1] - 1);
            i1 = std::clamp(std::max(i1, i0 + 1), 1, N_[0]);
            j1 = std::clamp(std::max(j1, j0 + 1), 1, N_[1]);
            cm.region_nx = i1 - i0;
            cm.region_ny = j1 - j0;
            const std::vector<double> freqs = detail::dft_field_frequencies(m, path, file_);
            std::vector<Component> comps = m.components.empty() ? electric_components(pol) : m.components;
            {  // the region's samples and accumulators, before allocating them
                const double need = double(cm.region_nx) * cm.region_ny * double(comps.size()) *
                                    (32.0 + 16.0 * double(freqs.size()));
                const double host = double(limits::host_memory_bytes());
                if (host > 0 && need > host)
                    throw ProjectError(file_, path + ".wavelengths",
                                       "the DFT field maps (" + std::to_string(cm.region_nx) + " x " +
                                           std::to_string(cm.region_ny) + " cells, " + std::to_string(comps.size()) +
                                           " components, " + std::to_string(freqs.size()) + " wavelengths) need about " +
                                           limits::format_bytes(need) + ", more than this machine's memory (" +
                                           limits::format_bytes(host) + ")");
            }
            for (std::size_t k = 0; k < comps.size(); ++k) {
                if (!in_polarization(comps[k], pol))
                    throw ProjectError(file_, path + ".components[" + std::to_string(k) + "]",
                                       "component " + to_string(comps[k]) + " is not a field of " + to_string(pol));
                cm.dft_field_sets.push_back(static_cast<int>(sc().dft_sets.size()));
                cm.dft_field_components.push_back(comps[k]);
                sc().dft_sets.push_back(detail::box_dft_set(grid_, CellBox{{i0, j0, 0}, {i1, j1, 1}}, comps[k], freqs));
            }
            break;
        }
    }
    out_.monitors.push_back(std::move(cm));
}

}  // namespace golightly::compile2d
