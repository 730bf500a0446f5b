// GoLightly: the 2D compiler's sources (compile2d_internal.hpp; conventions in
// compile_project.cpp's header: point, region and line sources, one-way sheets, mode and
// plane-wave profiles, Bloch phases).
#include "compile2d_internal.hpp"

namespace golightly::compile2d {

// ----------------------------------------------------------------------------- sources

CompiledWaveform Compiler::compile_waveform(const Source& s, const std::string& path) {
    return detail::compile_waveform(s, path, file_);
}

void Compiler::add_one_way(const Source& src, const std::string& path, int normal, int s, int k_s,
                           const std::vector<LineNode>& nodes, const std::vector<double>& e_inc,
                           const std::vector<double>& h_inc, const std::vector<double>& delay_h_s,
                           const CompiledWaveform& wf) {
    (void)src;
    const TangentialPair tp = tangential_pair(sc().polarization, normal);
    long kh = s > 0 ? long(k_s) - 1 : long(k_s);
    if (!periodic(normal) && (kh < 0 || kh >= N_[normal]))
        throw ProjectError(file_, path, "a one-way source needs one cell of room behind it");
    const int k_h = wrap_or_clamp(normal, kh);
    std::vector<detail::OneWayNode> on(nodes.size());
    for (std::size_t n = 0; n < nodes.size(); ++n) {
        const int t = nodes[n].t;
        on[n].e_cell = normal == 0 ? flat(k_s, t) : flat(t, k_s);
        on[n].h_cell = normal == 0 ? flat(k_h, t) : flat(t, k_h);
        on[n].frac = nodes[n].frac;
        on[n].e_inc = e_inc[n];
        on[n].h_inc = h_inc[n];
        on[n].delay_h_s = delay_h_s[n];
    }
    detail::add_one_way_terms(sc(), tp, s, on, wf);
}

void Compiler::add_one_way_complex(const Source& src, const std::string& path, int normal, int s, int k_s,
                                   const std::vector<LineNode>& nodes, const OneWayProfile& p,
                                   const CompiledWaveform& wf) {
    // add_one_way skips zero weights, so the real and the imaginary parts' terms may list
    // different cells: merge them per (component, delay) and cell.
    const std::size_t first = sc().sources.size();
    add_one_way(src, path, normal, s, k_s, nodes, p.e_inc, p.h_inc, p.delay_h_s, wf);
    const std::size_t mid = sc().sources.size();
    add_one_way(src, path, normal, s, k_s, nodes, p.e_inc_im, p.h_inc_im, p.delay_h_s, wf);
    detail::merge_complex_source_terms(sc(), first, mid, wf);
}

bool Compiler::bloch_mode_line(const SourceLine& line, const std::vector<LineNode>& nodes, const std::string& path,
                               const std::string& what, double& phase) const {
    phase = 0;
    if (!project_.domain.is_bloch(line.tan)) return false;
    const bool spans = static_cast<int>(nodes.size()) == N_[line.tan];
    if (bloch_k_[line.tan] == 0) return spans;  // k = 0: the periodic modes when it spans
    const std::string ax = line.tan == 0 ? "x" : "y";
    if (!spans)
        throw ProjectError(file_, path + ".to",
                           "a " + what + " along the Bloch axis " + ax +
                               " with nonzero k must span the whole period (from " + ax + " = 0 to " + fmt(L_[line.tan]) +
                               " um: its mode is a Bloch mode of one period); this line covers " +
                               std::to_string(nodes.size()) + " of the " + std::to_string(N_[line.tan]) +
                               " grid nodes along " + ax);
    if (bloch_k_[line.normal] != 0)
        throw ProjectError(file_, path + ".to",
                           "a " + what + " along a Bloch axis needs zero Bloch k along its normal (" +
                               std::string(line.normal == 0 ? "x" : "y") + ")");
    phase = out_.scene.bloch_phase[line.tan];
    return true;
}

double Compiler::numerical_k0_per_um(double omega) const {
    return detail::numerical_k0_per_um(omega, out_.scene.dt_s);
}

double Compiler::half_cell_delay_s(double n_disc, double omega) const {
    return detail::half_cell_delay_s(n_disc, omega, dx_, out_.scene.dt_s);
}

double Compiler::source_strength(Component c, CellIndex cell) {
    return 2.0 * (is_electric(c) ? cb_at(c, cell) : sc().courant);
}

void Compiler::add_point_source(const Source& src, const std::string& path, const CompiledWaveform& wf) {
    const Component c = src.component;
    const Vec3 off = yee_offset(c);
    check_point(src.at, path + ".at", "source '" + src.name + "'");
    SourceTerm t;
    t.component = c;
    t.waveform = wf;
    for (const auto& [i, wi] : detail::point_source_nodes(project_, grid_, 0, src.at.x, off.x))
        for (const auto& [j, wj] : detail::point_source_nodes(project_, grid_, 1, src.at.y, off.y)) {
            t.cells.push_back(flat(int(i), int(j)));
            t.weights.push_back(wi * wj * source_strength(c, flat(int(i), int(j))) * (1.0 / dx_));
        }
    sc().sources.push_back(std::move(t));
}

void Compiler::add_region_source(const Source& src, const std::string& path, const CompiledWaveform& wf) {
    const Component c = src.component;
    if (!src.shape) throw ProjectError(file_, path + ".shape", "a region source needs a shape");
    const auto cov = shape_coverage(*src.shape, c, path + ".shape");
    SourceTerm t;
    t.component = c;
    t.waveform = wf;
    for (std::size_t k = 0; k < cov.size(); ++k)
        if (cov[k] > 1e-9) {
            t.cells.push_back(static_cast<CellIndex>(k));
            t.weights.push_back(source_strength(c, static_cast<CellIndex>(k)) * cov[k] * dx_);
        }
    if (t.cells.empty())
        throw ProjectError(file_, path + ".shape", "the region covers no grid node of " + to_string(c));
    sc().sources.push_back(std::move(t));
}

std::string Compiler::source_direction(const Source& src, const std::string& path) const {
    if (src.profile == SourceProfile::Mode) return src.direction;
    const auto it = src.extra.find("direction");
    const std::string direction = (it != src.extra.end() && it->is_string()) ? it->get<std::string>() : "";
    if (!direction.empty() && parse_direction(direction).first < 0)
        throw ProjectError(file_, path + ".direction", "must be one of +x, -x, +y, -y");
    return direction;
}

void Compiler::add_oblique_line_source(const Source& src, const CompiledWaveform& wf) {
    const Component c = src.component;
    const Vec3 off = yee_offset(c);
    const double len = std::hypot(src.to.x - src.from.x, src.to.y - src.from.y);
    const int n = std::max(1, static_cast<int>(std::ceil(len / (0.25 * dx_))));
    std::map<CellIndex, double> acc;
    const Vec2 mid{0.5 * (src.from.x + src.to.x), 0.5 * (src.from.y + src.to.y)};
    for (int k = 0; k < n; ++k) {
        const double u = (k + 0.5) / n;
        const Vec2 p{src.from.x + u * (src.to.x - src.from.x), src.from.y + u * (src.to.y - src.from.y)};
        double prof = 1.0;
        if (src.profile == SourceProfile::Gaussian) {
            const double r = std::hypot(p.x - mid.x, p.y - mid.y) / src.waist;
            prof = std::exp(-r * r);
        }
        acc[flat(nearest_index(0, p.x, off.x), nearest_index(1, p.y, off.y))] += prof * len / n / dx_;
    }
    SourceTerm t;
    t.component = c;
    t.waveform = wf;
    for (auto [cell, w] : acc) {
        t.cells.push_back(cell);
        t.weights.push_back(source_strength(c, cell) * w);
    }
    sc().sources.push_back(std::move(t));
}

void Compiler::add_two_way_line_source(const Source& src, const std::string& path, const SourceLine& line,
                                       const CompiledWaveform& wf) {
    const Component c = src.component;
    const Vec3 off = yee_offset(c);
    const auto nodes = line_nodes(line.tan, line.a, line.b, axis_of(off, line.tan));
    const int k_n = nearest_index(line.normal, line.x_n, axis_of(off, line.normal));
    SourceTerm t;
    t.component = c;
    t.waveform = wf;
    for (const LineNode& nd : nodes) {
        double prof = 1.0;
        if (src.profile == SourceProfile::Gaussian) {
            const double r = (nd.pos_um - line.centre) / src.waist;
            prof = std::exp(-r * r);
        }
        const CellIndex cell = line.normal == 0 ? flat(k_n, nd.t) : flat(nd.t, k_n);
        t.cells.push_back(cell);
        t.weights.push_back(source_strength(c, cell) * prof * nd.frac);
    }
    if (t.cells.empty()) throw ProjectError(file_, path, "the line covers no grid node");
    sc().sources.push_back(std::move(t));
}

Compiler::OneWayProfile Compiler::mode_profile(const Source& src, const std::string& path, double omega,
                                               const SourceLine& line, int s, int k_s,
                                               const std::vector<LineNode>& nodes,
                                               const std::vector<double>& eps_e) const {
    const Polarization pol = out_.scene.polarization;
    const TangentialPair tp = tangential_pair(pol, line.normal);
    const std::size_t n = nodes.size();
    std::vector<double> eps_mid;
    if (pol == Polarization::TEz) {
        // eps of the other (longitudinal) E component between the nodes, mean of
        // the two columns beside the plane.
        const Component other = tp.e == Component::Ey ? Component::Ex : Component::Ey;
        const int kn0 = wrap_or_clamp(line.normal, long(k_s) - 1), kn1 = k_s;
        eps_mid.resize(n + 1);
        for (std::size_t k = 0; k <= n; ++k) {
            const long tt = k < n ? nodes[k].t : long(nodes[n - 1].t) + 1;
            const int t = wrap_or_clamp(line.tan, tt);
            const CellIndex c0 = line.normal == 0 ? flat(kn0, t) : flat(t, kn0);
            const CellIndex c1 = line.normal == 0 ? flat(kn1, t) : flat(t, kn1);
            eps_mid[k] = 0.5 * (eps_[int(other)][std::size_t(c0)] + eps_[int(other)][std::size_t(c1)] +
                                (cell_pole_susceptibility(out_.scene, other, c0, omega) +
                                 cell_pole_susceptibility(out_.scene, other, c1, omega)).real());
        }
    }
    // eps(omega) of the nodes: the poles' susceptibility on top of eps_inf (real: the slab solver is real)
    std::vector<double> eps_w(eps_e);
    for (std::size_t k = 0; k < n; ++k) {
        const CellIndex c = line.normal == 0 ? flat(k_s, nodes[k].t) : flat(nodes[k].t, k_s);
        eps_w[k] += cell_pole_susceptibility(out_.scene, tp.e, c, omega).real();
    }
    const double wl_num_um = 2 * pi / numerical_k0_per_um(omega);
    if (double phase = 0; bloch_mode_line(line, nodes, path, "mode line", phase)) {
        // A line spanning a Bloch axis: the Bloch mode of the period
        // (mode_solver_bloch.hpp), complex; the tangential pair relates pointwise by n_eff
        // as for the real slab mode (Faraday / Ampere with d/dnormal = i beta).
        if (line_bend_radius(src.extra, path, file_) != 0)
            throw ProjectError(file_, path + ".bend_radius",
                               "a mode line along a Bloch axis cannot be bent (its mode is a Bloch mode of the period)");
        std::vector<double> mid;
        if (!eps_mid.empty()) mid.assign(eps_mid.begin(), eps_mid.begin() + std::ptrdiff_t(n));
        const double k = phase / (double(n) * dx_);  // the engine's phase over the period n dx
        const auto modes = solve_bloch_slab_modes(eps_w, dx_, wl_num_um, pol, src.mode_index + 1, k, mid);
        if (static_cast<int>(modes.size()) <= src.mode_index)
            throw ProjectError(file_, path + ".mode_index",
                               "no propagating Bloch mode " + std::to_string(src.mode_index) + " at " +
                                   fmt(units::hz_to_wavelength_um(omega / (2 * pi))) + " um on this line (Bloch k " +
                                   fmt(k) + " rad/um; " + std::to_string(modes.size()) + " propagating modes)");
        const BlochSlabMode& m = modes[std::size_t(src.mode_index)];
        OneWayProfile p(n);
        // k = 0 (a real run): the operator is real symmetric and the profile, divided by
        // its peak, real (a degenerate pair's real part is a mode too); no imaginary part
        if (phase != 0) {
            p.e_inc_im.resize(n);
            p.h_inc_im.resize(n);
        }
        p.n_eff = m.n_eff;
        double mx = 0;
        for (std::size_t q = 0; q < n; ++q) {
            std::complex<double> e, h;
            if (pol == Polarization::TMz) {
                e = m.profile[q];
                h = -tp.sigma_h * s * m.n_eff * e;
            } else {
                h = m.profile[q];
                e = -tp.sigma_e * s * m.n_eff * h / eps_w[q];
            }
            if (phase == 0) e = e.real(), h = h.real();
            p.e_inc[q] = e.real();
            p.h_inc[q] = h.real();
            if (phase != 0) {
                p.e_inc_im[q] = e.imag();
                p.h_inc_im[q] = h.imag();
            }
            p.delay_h_s[q] = half_cell_delay_s(m.n_eff, omega);
            mx = std::max(mx, std::abs(e));
        }
        // TEz with an electric source component: unit peak of the tangential E.
        if (pol == Polarization::TEz && is_electric(src.component) && mx > 0)
            for (std::size_t q = 0; q < n; ++q) {
                p.e_inc[q] /= mx, p.h_inc[q] /= mx;
                if (phase != 0) p.e_inc_im[q] /= mx, p.h_inc_im[q] /= mx;
            }
        return p;
    }
    if (const double R = line_bend_radius(src.extra, path, file_); R != 0) {
        // A bent line (mode_solver_bend.hpp): the bent slab's mode, its real part injected
        // (as 3D mode sources inject lossy modes), the tangential H~ from the solver's own
        // field (its ratio to E varies across a bend), signed as the straight profile's.
        const int pml = line_bend_pml_cells(dx_);
        if (int(n) <= 2 * pml + 2)
            throw ProjectError(file_, path + ".bend_radius",
                               "a bent mode line needs more than " + std::to_string(2 * pml + 2) +
                                   " grid nodes (the bend's PML takes " + std::to_string(pml) + " at each end)");
        std::vector<BentSlabMode> bent;
        try {
            bent = solve_bent_slab_modes(eps_w, dx_, wl_num_um, pol, src.mode_index + 1, R,
                                         line.centre - nodes[0].pos_um, pml, 0, eps_mid);
        } catch (const std::exception& e) {
            throw ProjectError(file_, path + ".bend_radius", std::string("bent mode solver: ") + e.what());
        }
        if (static_cast<int>(bent.size()) <= src.mode_index)
            throw ProjectError(file_, path + ".mode_index",
                               "no guided mode " + std::to_string(src.mode_index) + " of the line bent at R = " + fmt(R) +
                                   " um at " + fmt(units::hz_to_wavelength_um(omega / (2 * pi))) + " um");
        const BentSlabMode& m = bent[std::size_t(src.mode_index)];
        double cross = 0;  // Re sum h e*: the sign that makes h ~ +n_eff e (TMz) or + (eps/n_eff) e (TEz)
        for (std::size_t k = 0; k < n; ++k) cross += (m.h[k] * std::conj(m.e[k])).real();
        const double c = cross >= 0 ? 1.0 : -1.0;
        const double sig = pol == Polarization::TMz ? tp.sigma_h : tp.sigma_e;
        OneWayProfile p(n);
        p.n_eff = m.n_eff;
        p.n_eff_imag = m.n_eff_imag;
        for (std::size_t k = 0; k < n; ++k) {
            p.e_inc[k] = m.e[k].real();
            p.h_inc[k] = -sig * s * c * m.h[k].real();
            p.delay_h_s[k] = half_cell_delay_s(m.n_eff, omega);
        }
        // unit peak as the straight profile: Ez (TMz), Hz (TEz), or the tangential E (TEz
        // with an electric source component)
        const bool by_e = pol == Polarization::TMz || is_electric(src.component);
        double mx = 0;
        for (std::size_t k = 0; k < n; ++k) mx = std::max(mx, std::abs(by_e ? p.e_inc[k] : p.h_inc[k]));
        if (mx > 0)
            for (std::size_t k = 0; k < n; ++k) p.e_inc[k] /= mx, p.h_inc[k] /= mx;
        return p;
    }
    const auto modes = solve_slab_modes(eps_w, dx_, wl_num_um, pol, src.mode_index + 1, eps_mid);
    const double n_clad = std::sqrt(std::max(eps_w.front(), eps_w.back()));
    if (static_cast<int>(modes.size()) <= src.mode_index || !(modes[src.mode_index].n_eff > n_clad * (1 + 1e-9))) {
        std::string msg = "no guided mode " + std::to_string(src.mode_index) + " at " +
                          fmt(units::hz_to_wavelength_um(omega / (2 * pi))) + " um on this line (cladding index " +
                          fmt(n_clad);
        if (static_cast<int>(modes.size()) > src.mode_index) msg += ", n_eff " + fmt(modes[src.mode_index].n_eff);
        throw ProjectError(file_, path + ".mode_index", msg + ")");
    }
    const SlabMode& m = modes[src.mode_index];
    const double ne = m.n_eff;
    OneWayProfile p(n);
    p.n_eff = ne;
    for (std::size_t k = 0; k < n; ++k) {
        if (pol == Polarization::TMz) {
            p.e_inc[k] = m.profile[k];
            p.h_inc[k] = -tp.sigma_h * s * ne * p.e_inc[k];
        } else {
            p.h_inc[k] = m.profile[k];
            p.e_inc[k] = -tp.sigma_e * s * ne * p.h_inc[k] / eps_w[k];
        }
        p.delay_h_s[k] = half_cell_delay_s(ne, omega);
    }
    // TEz with an electric source component: unit peak of the tangential E.
    if (pol == Polarization::TEz && is_electric(src.component)) {
        double mx = 0;
        for (double v : p.e_inc) mx = std::max(mx, std::abs(v));
        for (std::size_t k = 0; k < n; ++k) p.e_inc[k] /= mx, p.h_inc[k] /= mx;
    }
    return p;
}

Compiler::OneWayProfile Compiler::plane_wave_profile(const Source& src, const std::string& path, double omega,
                                                     const SourceLine& line, int s,
                                                     const std::vector<LineNode>& nodes,
                                                     const std::vector<double>& eps_e) const {
    const Polarization pol = out_.scene.polarization;
    const TangentialPair tp = tangential_pair(pol, line.normal);
    const Component c = src.component;
    // Plane-wave one-way line: local index n = sqrt(eps) of the e nodes.
    if (!in_polarization(c, pol)) throw ProjectError(file_, path + ".component", "invalid component");
    const std::size_t n = nodes.size();
    OneWayProfile p(n);
    for (std::size_t k = 0; k < n; ++k) {
        double prof = 1.0;
        if (src.profile == SourceProfile::Gaussian) {
            const double r = (nodes[k].pos_um - line.centre) / src.waist;
            prof = std::exp(-r * r);
        }
        double nl = std::sqrt(eps_e[k]), n_perp = nl;
        if (bloch_k_[line.tan] != 0) {
            // Oblique plane wave (compile_bloch.cpp): the tangential H / E ratio takes the
            // normal index n cos(theta) of the grid's dispersion; TEz's E is tangential
            // with cos(theta): n_local = eps / n_perp in plane_wave_incident's H / n.
            n_perp = detail::oblique_normal_index(eps_e[k], numerical_k0_per_um(omega), bloch_k_, line.normal, dx_);
            if (!std::isfinite(n_perp))
                throw ProjectError(file_, path + ".angle_deg",
                                   "the plane wave is evanescent at the centre wavelength (Bloch k beyond n k0 of "
                                   "the medium at the source)");
            nl = pol == Polarization::TMz ? n_perp : eps_e[k] / n_perp;
        }
        detail::plane_wave_incident(is_electric(c), prof, nl, tp, s, p.e_inc[k], p.h_inc[k]);
        p.delay_h_s[k] = half_cell_delay_s(n_perp, omega);
    }
    return p;
}

void Compiler::add_one_way_line_source(const Source& src, const std::string& path, const SourceLine& line, int s,
                                       const CompiledWaveform& wf) {
    // One-way injection through a TF/SF plane at the e nodes nearest the line.
    const TangentialPair tp = tangential_pair(sc().polarization, line.normal);
    const double tan_off = axis_of(yee_offset(tp.e), line.tan);  // same for e and h
    const int k_s = nearest_index(line.normal, line.x_n, 0.0);
    auto nodes = line_nodes(line.tan, line.a, line.b, tan_off);
    const bool mode = src.profile == SourceProfile::Mode;
    if (mode) {
        // Only the nodes whose centre lies on the line take part in the mode.
        std::vector<LineNode> kept;
        for (const auto& nd : nodes)
            if (nd.frac >= 0.5 - 1e-9) kept.push_back(nd);
        nodes = kept;
        // along a Bloch axis with nonzero k: the line must span the period (its Bloch mode)
        double phase = 0;
        if (nodes.size() >= 3u) (void)bloch_mode_line(line, nodes, path, "mode source", phase);
    }
    if (nodes.size() < (mode ? 3u : 1u)) throw ProjectError(file_, path, "the line covers too few grid nodes");
    std::vector<double> eps_e(nodes.size());
    for (std::size_t k = 0; k < nodes.size(); ++k)
        eps_e[k] = line.normal == 0 ? eps_at(tp.e, k_s, nodes[k].t) : eps_at(tp.e, nodes[k].t, k_s);
    const OneWayProfile p = mode ? mode_profile(src, path, wf.omega, line, s, k_s, nodes, eps_e)
                                 : plane_wave_profile(src, path, wf.omega, line, s, nodes, eps_e);
    if (!p.e_inc_im.empty()) add_one_way_complex(src, path, line.normal, s, k_s, nodes, p, wf);
    else add_one_way(src, path, line.normal, s, k_s, nodes, p.e_inc, p.h_inc, p.delay_h_s, wf);
}

void Compiler::add_line_source(const Source& src, const std::string& path, const CompiledWaveform& wf) {
    check_point(src.from, path + ".from", "source '" + src.name + "'");
    check_point(src.to, path + ".to", "source '" + src.name + "'");
    if (src.profile == SourceProfile::Gaussian && !(src.waist > 0))
        throw ProjectError(file_, path + ".waist", "must be > 0");
    const bool along_y = std::abs(src.from.x - src.to.x) <= 1e-9 * std::max(1.0, L_[0]);
    const bool along_x = std::abs(src.from.y - src.to.y) <= 1e-9 * std::max(1.0, L_[1]);
    const auto [dir_axis, s] = parse_direction(source_direction(src, path));
    if (src.profile == SourceProfile::Mode) {
        if (!along_x && !along_y) throw ProjectError(file_, path + ".to", "a mode source needs an axis-aligned line");
        if (along_x && along_y) throw ProjectError(file_, path + ".to", "a mode source needs a line of nonzero length");
    }
    if (!along_x && !along_y) {  // oblique uniform/gaussian line: two-way
        add_oblique_line_source(src, wf);
        return;
    }
    SourceLine line;
    line.normal = along_y ? 0 : 1;  // a zero-length line counts as along y
    line.tan = 1 - line.normal;
    line.a = axis_of(src.from, line.tan);
    line.b = axis_of(src.to, line.tan);
    line.centre = 0.5 * (line.a + line.b);
    line.x_n = axis_of(src.from, line.normal);
    const std::string normal_dirs = line.normal == 0 ? "+x or -x" : "+y or -y";
    if (src.profile != SourceProfile::Mode && dir_axis >= 0 && dir_axis != line.normal)
        throw ProjectError(file_, path + ".direction",
                           "a one-way line source's direction must be normal to its line (" + normal_dirs + ")");
    const bool one_way = src.profile == SourceProfile::Mode || (dir_axis == line.normal && s != 0);
    if (src.profile == SourceProfile::Mode && dir_axis != line.normal)
        throw ProjectError(file_, path + ".direction",
                           "the direction of a mode source must be normal to its line (" + normal_dirs + ")");
    // A mode source along a Bloch axis with nonzero k injects the Bloch mode of the period
    // (mode_profile; the line must span the period).
    if (one_way) add_one_way_line_source(src, path, line, s, wf);
    else add_two_way_line_source(src, path, line, wf);
}

void Compiler::note_sources_end(std::size_t first_term) {
    for (std::size_t k = first_term; k < sc().sources.size(); ++k)
        out_.sources_end_s = std::max(out_.sources_end_s, sc().sources[k].waveform.end_time_s() +
                                                              std::max(0.0, sc().sources[k].delay_s));
}

void Compiler::resolve_bloch() {
    // The index at a source: sqrt(eps_r) of the first E component at the node nearest the
    // line's centre (an oblique plane wave starts in a uniform medium).
    auto n_at = [this](std::size_t i) {
        const Source& s = project_.sources[i];
        const Component e = electric_components(sc().polarization)[0];
        const Vec3 off = yee_offset(e);
        const int ii = nearest_index(0, 0.5 * (s.from.x + s.to.x), off[0]);
        const int jj = nearest_index(1, 0.5 * (s.from.y + s.to.y), off[1]);
        return std::sqrt(eps_at(e, ii, jj));
    };
    bloch_k_ = detail::resolve_bloch_k(project_, file_, {L_[0], L_[1], 0.0}, n_at);
    for (int a = 0; a < 2; ++a) sc().bloch_phase[a] = bloch_k_[a] * L_[a];
    sc().complex_fields = sc().has_bloch_phase();
}

void Compiler::compile_source(std::size_t si) {
    const Source& src = project_.sources[si];
    const std::string path = idx_path("sources", si);
    const Polarization pol = sc().polarization;
    const CompiledWaveform wf = compile_waveform(src, path);
    const std::size_t first_term = sc().sources.size();
    if (!in_polarization(src.component, pol) && src.profile != SourceProfile::Mode)
        throw ProjectError(file_, path + ".component",
                           "component " + to_string(src.component) + " is not a field of " + to_string(pol));
    switch (src.type) {
        case SourceType::Point: add_point_source(src, path, wf); break;
        case SourceType::Region: add_region_source(src, path, wf); break;
        case SourceType::Line:
        case SourceType::Plane: add_line_source(src, path, wf); break;
        case SourceType::Tfsf:
            if (sc().has_bloch_phase())
                throw ProjectError(file_, path + ".type",
                                   "a tfsf source injects at normal incidence and cannot run with a nonzero Bloch k; "
                                   "use a one-way line source with angle_deg");
            sc().tfsf.push_back(detail::compile_tfsf(project_, src, path, file_, sc(), grid_, wf));
            out_.sources_end_s = std::max(out_.sources_end_s, wf.end_time_s());
            break;
    }
    // A line across a Bloch axis is a plane wave of the Bloch k: the phase exp(i k.r). A
    // Bloch mode source's terms already carry their complex weights (the mode's own Bloch
    // phase; add_one_way_complex) and keep them.
    bool complex_terms = false;
    for (std::size_t k = first_term; k < sc().sources.size(); ++k)
        complex_terms = complex_terms || !sc().sources[k].weights_im.empty();
    if ((src.type == SourceType::Line || src.type == SourceType::Plane) && sc().has_bloch_phase() && !complex_terms)
        detail::apply_bloch_phase(sc(), first_term, bloch_k_);
    note_sources_end(first_term);
    for (std::size_t k = first_term; k < sc().sources.size(); ++k) sc().sources[k].origin = int(si);
}

}  // namespace golightly::compile2d
