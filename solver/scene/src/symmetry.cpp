// Mirror symmetry planes (symmetry.hpp): the reduced scene and the whole-domain map.
#include "golightly/symmetry.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <sstream>
#include <tuple>

#include "golightly/errors.hpp"
#include "golightly/grid.hpp"

namespace golightly {

namespace {

const char* axis_name(int a) { return a == 0 ? "x" : a == 1 ? "y" : "z"; }

std::array<std::int64_t, 3> unflat(CellIndex cell, const std::array<std::int64_t, 3>& n) {
    return {cell % n[0], (cell / n[0]) % n[1], cell / (n[0] * n[1])};
}

CellIndex flat(const std::array<std::int64_t, 3>& ijk, const std::array<std::int64_t, 3>& n) {
    return (ijk[2] * n[1] + ijk[1]) * n[0] + ijk[0];
}

double offset_along(Component c, int axis) {
    const Vec3 o = yee_offset(c);
    return axis == 0 ? o.x : axis == 1 ? o.y : o.z;
}

std::array<std::int64_t, 3> scene_n(const Scene& s) {
    return {s.nx, s.ny, s.dimensions == 3 ? s.nz : 1};
}

/// The E component a material map / dispersive list / anisotropic list index c (0..2) holds.
Component e_of(int c) { return Component(c); }

/// The whole-domain image of (c, ijk) through the plane of one axis only (for the checks).
std::array<std::int64_t, 3> mirror_one(const MirrorPlane& p, Component c, std::array<std::int64_t, 3> ijk) {
    const double o = offset_along(c, p.axis);
    ijk[p.axis] = std::llround(2.0 * p.plane - double(ijk[p.axis]) - 2.0 * o);
    return ijk;
}

bool on_plane(const MirrorPlane& p, Component c, std::int64_t i) {
    return std::abs(double(i) + offset_along(c, p.axis) - p.plane) < 1e-9;
}

}  // namespace

int mirror_parity(Component c, int axis, int sign) {
    const bool normal = component_axis(c) == axis;
    if (is_electric(c)) return normal ? -sign : sign;
    return normal ? sign : -sign;
}

std::int64_t MirrorMap::map_index(int axis, std::int64_t i, double offset, int parity_sign, int* sign) const {
    for (const MirrorPlane& p : planes) {
        if (p.axis != axis) continue;
        if (i >= p.first) {
            *sign = 1;
            return i - p.first;
        }
        if (std::abs(double(i) + offset - p.plane) < 1e-9) {  // on the plane: parity -1 there
            *sign = 0;
            return -1;
        }
        *sign = parity_sign;
        return std::llround(2.0 * p.plane - double(i) - 2.0 * offset) - p.first;
    }
    *sign = 1;
    return i;
}

MirrorMap::Site MirrorMap::map(Component c, std::array<std::int64_t, 3> ijk) const {
    Site s;
    int total = 1;
    std::array<std::int64_t, 3> h = ijk;
    for (const MirrorPlane& p : planes) {
        int sg = 0;
        h[p.axis] = map_index(p.axis, ijk[p.axis], offset_along(c, p.axis), mirror_parity(c, p.axis, p.sign), &sg);
        if (sg == 0) return s;
        total *= sg;
    }
    for (int a = 0; a < 3; ++a)
        if (h[a] < 0 || h[a] >= n_half[a]) return s;  // beyond the whole domain's image: none
    s.cell = flat(h, n_half);
    s.factor = double(total);
    return s;
}

MirrorMap::Site MirrorMap::map(Component c, CellIndex full) const { return map(c, unflat(full, n_full)); }

double MirrorMap::cell_ratio() const {
    double r = 1;
    for (int a = 0; a < 3; ++a) r *= double(n_full[a]) / double(n_half[a]);
    return r;
}

/// Why TF/SF source t breaks the mirror plane p, or nothing. A plane wave keeps a mirror
/// plane parallel to its propagation axis when its box is the plane's mirror image of itself
/// (lo + hi = 2 P in index units) and the parity fits the polarization: E normal to the
/// plane (e_component along the plane's axis) needs -1, E tangential +1 (Tidy3D's symmetry
/// convention: a -1 plane has no tangential E, a +1 plane no tangential H).
std::optional<std::string> tfsf_symmetry_problem(const TfsfSource& t, const MirrorPlane& p) {
    const std::size_t a = std::size_t(p.axis);
    if (t.axis == p.axis)
        return std::string("the plane wave propagates along ") + axis_name(p.axis) +
               ", through the plane (no mirror image of itself)";
    if (double(t.lo[a] + t.hi[a]) != 2 * p.plane)
        return "the TF/SF box [" + std::to_string(t.lo[a]) + ", " + std::to_string(t.hi[a]) + "] along " +
               axis_name(p.axis) + " is not centred on the plane (index " + std::to_string(p.plane) + ")";
    const bool e_normal = component_axis(t.e_component) == p.axis;
    if (e_normal && p.sign != -1)
        return std::string("its E (") + component_name(t.e_component) + ") is normal to the plane: the sign must be -1";
    if (!e_normal && p.sign != 1)
        return std::string("its E (") + component_name(t.e_component) + ") is tangential to the plane: the sign must be +1";
    return std::nullopt;
}

MirrorMap mirror_map(const Scene& full) {
    MirrorMap m;
    m.n_full = scene_n(full);
    m.n_half = m.n_full;
    for (int a = 0; a < 3; ++a) {
        const int s = full.symmetry[a];
        if (s == 0) continue;
        const std::string what = std::string("symmetry in ") + axis_name(a) + ": ";
        if (s != 1 && s != -1) throw RunError(what + "the sign must be -1, 0 or +1");
        if (a == 2 && full.dimensions != 3) throw RunError(what + "a 2D domain has no symmetry in z");
        if (full.boundary[a] != BoundaryKind::Pml)
            throw RunError(what + "needs a pml boundary on that axis (the plane replaces its lower half)");
        if (full.pml_lo[a] != full.pml_hi[a]) throw RunError(what + "needs the same PML on both sides");
        if (full.window.active) throw RunError(what + "the scene is a subdomain (reduce before partitioning)");
        const std::int64_t n_int = m.n_full[a] - full.pml_lo[a] - full.pml_hi[a];
        const bool even = n_int % 2 == 0;
        if ((s == -1) != even)
            throw RunError(what + "a " + (s == -1 ? "-1 (PEC) plane needs an even" : "+1 (PMC) plane needs an odd") +
                           " number of interior cells along " + axis_name(a) + ", so that the centre falls on the " +
                           (s == -1 ? "E" : "H") + " nodes; the domain has " + std::to_string(n_int));
        MirrorPlane p;
        p.axis = a;
        p.sign = s;
        p.plane = double(full.pml_lo[a]) + double(n_int) / 2.0;
        p.first = std::int64_t(std::ceil(p.plane - 1e-9));
        m.planes.push_back(p);
        m.n_half[a] = m.n_full[a] - p.first;
    }
    return m;
}

Scene reduce_by_symmetry(const Scene& full, const MirrorMap& map, ReducedMonitors* monitors) {
    if (!map.active()) throw RunError("reduce_by_symmetry: the scene has no symmetry plane");
    const auto& nf = map.n_full;
    const auto& nh = map.n_half;
    std::array<std::int64_t, 3> first{0, 0, 0};
    for (const MirrorPlane& p : map.planes) first[p.axis] = p.first;
    auto kept = [&](const std::array<std::int64_t, 3>& ijk) {
        return ijk[0] >= first[0] && ijk[1] >= first[1] && ijk[2] >= first[2];
    };
    auto to_half = [&](std::array<std::int64_t, 3> ijk) {
        for (int a = 0; a < 3; ++a) ijk[a] -= first[a];
        return flat(ijk, nh);
    };

    Scene r;
    r.dimensions = full.dimensions;
    r.polarization = full.polarization;
    r.nx = int(nh[0]), r.ny = int(nh[1]), r.nz = int(nh[2]);
    r.dx_um = full.dx_um, r.dt_s = full.dt_s, r.courant = full.courant;
    // Bloch phases live on periodic axes, never on a symmetric (pml) one: kept as they are.
    for (int a = 0; a < 3; ++a) r.bloch_phase[a] = full.bloch_phase[a];
    r.complex_fields = full.complex_fields;
    for (int a = 0; a < 3; ++a) {
        r.boundary[a] = full.boundary[a];
        r.pml_lo[a] = first[a] > 0 ? 0 : full.pml_lo[a];
        r.pml_hi[a] = full.pml_hi[a];
        const CpmlAxis& c = full.cpml[a];
        CpmlAxis& o = r.cpml[a];
        auto crop = [&](const std::vector<double>& v, std::vector<double>& out) {
            if (v.empty() || first[a] == 0) {
                out = v;
                return;
            }
            out.assign(v.begin() + std::min<std::ptrdiff_t>(first[a], std::ptrdiff_t(v.size())), v.end());
        };
        crop(c.b_e, o.b_e), crop(c.c_e, o.c_e), crop(c.inv_kappa_e, o.inv_kappa_e);
        crop(c.b_h, o.b_h), crop(c.c_h, o.c_h), crop(c.inv_kappa_h, o.inv_kappa_h);
    }

    // Material table and maps; a PEC plane's tangential E takes the entry ca = 1, cb = 0.
    r.table = full.table;
    bool any_pec = false;
    for (const MirrorPlane& p : map.planes) any_pec = any_pec || p.sign == -1;
    std::uint16_t pec_entry = 0;
    if (any_pec) {
        if (r.table.size() >= 65535) throw RunError("symmetry: the material table is full (65535 entries)");
        EUpdateCoeffs pec;
        pec.ca = 1, pec.cb = 0, pec.eps_r = 1, pec.sigma = 0;  // lossless: keeps E at its initial 0
        pec_entry = std::uint16_t(r.table.size());
        r.table.push_back(pec);
    }
    auto pec_node = [&](int c, const std::array<std::int64_t, 3>& ijk) {
        for (const MirrorPlane& p : map.planes)
            if (p.sign == -1 && component_axis(e_of(c)) != p.axis && ijk[p.axis] == p.first) return true;
        return false;
    };
    const std::size_t cells_half = std::size_t(nh[0] * nh[1] * nh[2]);
    for (int c = 0; c < 3; ++c) {
        const auto& src = full.material_index[c];
        if (src.empty()) continue;
        auto& dst = r.material_index[c];
        dst.resize(cells_half);
        for (std::int64_t k = 0; k < nh[2]; ++k)
            for (std::int64_t j = 0; j < nh[1]; ++j) {
                const std::size_t from = std::size_t(((k + first[2]) * nf[1] + j + first[1]) * nf[0] + first[0]);
                const std::size_t to = std::size_t((k * nh[1] + j) * nh[0]);
                std::copy(src.begin() + std::ptrdiff_t(from), src.begin() + std::ptrdiff_t(from + std::size_t(nh[0])),
                          dst.begin() + std::ptrdiff_t(to));
                if (!any_pec) continue;
                for (std::int64_t i = 0; i < nh[0]; ++i)
                    if (pec_node(c, {i + first[0], j + first[1], k + first[2]})) dst[to + std::size_t(i)] = pec_entry;
            }
    }

    // Dispersive cells: those of the kept part (a PEC-plane node's cb = 0 silences its pole).
    r.pole_sets = full.pole_sets;
    for (int c = 0; c < 3; ++c) {
        const DispersiveCells& d = full.dispersive[c];
        DispersiveCells& o = r.dispersive[c];
        for (std::size_t k = 0; k < d.cells.size(); ++k) {
            const auto ijk = unflat(d.cells[k], nf);
            if (!kept(ijk)) continue;
            o.cells.push_back(to_half(ijk));
            o.pole_set.push_back(d.pole_set[k]);
            o.weight.push_back(d.weight[k]);
        }
    }

    // Anisotropic couplings: kept sites; a coupling across a plane reads the mirror site
    // with the partner component's parity; a PEC-plane site keeps no coupling.
    {
        const AnisotropicCells& a = full.anisotropic;
        AnisotropicCells& o = r.anisotropic;
        const int S = anisotropic_slots(full.dimensions);
        for (int c = 0; c < 3; ++c)
            for (CellIndex cell : a.cells[c]) {
                const auto ijk = unflat(cell, nf);
                if (kept(ijk)) o.cells[c].push_back(to_half(ijk));
            }
        for (int c = 0; c < 3; ++c) {
            for (std::size_t k = 0; k < a.cells[c].size(); ++k) {
                const auto ijk = unflat(a.cells[c][k], nf);
                if (!kept(ijk)) continue;
                const bool pec = any_pec && pec_node(c, ijk);
                for (int q = 0; q < S; ++q) {
                    const std::int32_t nb = a.neighbour[c][std::size_t(S) * k + std::size_t(q)];
                    const double w = a.weight[c][std::size_t(S) * k + std::size_t(q)];
                    std::int32_t nn = -1;
                    double ww = 0;
                    if (nb >= 0 && !pec) {
                        const int p = anisotropic_partner(c, q / 4, full.dimensions);
                        const MirrorMap::Site site = map.map(e_of(p), a.cells[p][std::size_t(nb)]);
                        if (site.cell >= 0) {
                            const auto& list = o.cells[p];
                            const auto it = std::lower_bound(list.begin(), list.end(), site.cell);
                            if (it != list.end() && *it == site.cell) {
                                nn = std::int32_t(it - list.begin());
                                ww = w * site.factor;
                            }
                        }
                    }
                    o.neighbour[c].push_back(nn);
                    o.weight[c].push_back(ww);
                }
            }
        }
    }

    // Sources: the kept nodes (their images are the symmetry's; a node on a plane, where
    // the field vanishes, is dropped).
    for (const SourceTerm& t : full.sources) {
        SourceTerm o = t;
        o.cells.clear(), o.weights.clear(), o.weights_im.clear();
        for (std::size_t k = 0; k < t.cells.size(); ++k) {
            const auto ijk = unflat(t.cells[k], nf);
            if (!kept(ijk)) continue;
            bool zero = false;
            for (const MirrorPlane& p : map.planes) zero = zero || on_plane(p, t.component, ijk[p.axis]);
            if (zero) continue;
            o.cells.push_back(to_half(ijk));
            o.weights.push_back(t.weights[k]);
            if (!t.weights_im.empty()) o.weights_im.push_back(t.weights_im[k]);
        }
        if (!o.cells.empty()) r.sources.push_back(std::move(o));
    }

    for (std::size_t k = 0; k < full.tfsf.size(); ++k) {
        TfsfSource t = full.tfsf[k];
        for (const MirrorPlane& p : map.planes) {
            // A box symmetric about the plane (find_symmetry_violation) keeps its upper half:
            // the TF region runs on through the plane, which carries no face.
            if (tfsf_symmetry_problem(t, p))
                throw RunError(std::string("symmetry: TF/SF source ") + std::to_string(k) + ": " +
                               *tfsf_symmetry_problem(t, p));
            t.open_lo[std::size_t(p.axis)] = true;
            t.lo[p.axis] = 0;
            t.hi[p.axis] -= p.first;
        }
        // The incident line's background is the whole domain's (its lo corner may be mirrored).
        if (std::isnan(t.line_ca)) {
            const int ec = component_axis(t.e_component);
            const auto& mi = full.material_index[ec];
            if (!mi.empty()) {
                const EUpdateCoeffs& e = full.table[mi[std::size_t(flat(full.tfsf[k].lo, nf))]];
                t.line_ca = e.ca, t.line_cb = e.cb;
            }
        }
        r.tfsf.push_back(t);
    }

    // DFT sets: every whole-domain sample from its reduced node(s); a sample equal to
    // another up to sign (its mirror image) is accumulated once.
    if (monitors) monitors->dft_samples.clear(), monitors->rms_probes.clear();
    for (const DftSet& d : full.dft_sets) {
        DftSet o;
        o.component = d.component;
        o.frequencies_hz = d.frequencies_hz;
        std::map<std::tuple<CellIndex, CellIndex, double, double>, std::int64_t> unique;
        std::vector<std::int64_t> expand(d.cell0.size(), 0);
        for (std::size_t k = 0; k < d.cell0.size(); ++k) {
            const MirrorMap::Site s0 = map.map(d.component, d.cell0[k]);
            CellIndex c0 = s0.cell >= 0 ? s0.cell : -1, c1 = -1;
            double w0 = s0.cell >= 0 ? d.w0[k] * s0.factor : 0.0, w1 = 0;
            if (d.cell1[k] >= 0) {
                const MirrorMap::Site s1 = map.map(d.component, d.cell1[k]);
                if (s1.cell >= 0) c1 = s1.cell, w1 = d.w1[k] * s1.factor;
            }
            if (c0 < 0 || w0 == 0) std::swap(c0, c1), std::swap(w0, w1);
            if (c0 < 0 || w0 == 0) continue;  // vanishes: expand[k] = 0
            if (c1 < 0 || w1 == 0) c1 = -1, w1 = 0;
            const double sign = w0 < 0 ? -1.0 : 1.0;  // the key has w0 > 0
            const auto key = std::make_tuple(c0, c1, sign * w0, sign * w1);
            auto it = unique.find(key);
            if (it == unique.end()) {
                it = unique.emplace(key, std::int64_t(o.cell0.size())).first;
                o.cell0.push_back(c0);
                o.cell1.push_back(c1);
                o.w0.push_back(sign * w0);
                o.w1.push_back(sign * w1);
            }
            expand[k] = sign > 0 ? it->second + 1 : -(it->second + 1);
        }
        if (o.cell0.empty()) {  // every sample vanishes: one zero sample keeps the set
            o.cell0.push_back(0), o.cell1.push_back(-1), o.w0.push_back(0.0), o.w1.push_back(0.0);
        }
        r.dft_sets.push_back(std::move(o));
        if (monitors) monitors->dft_samples.push_back(std::move(expand));
    }

    for (std::size_t pi = 0; pi < full.time_probes.size(); ++pi) {
        const TimeProbe& t = full.time_probes[pi];
        TimeProbe o;
        o.component = t.component;
        double wsum = 0;
        for (double w : t.weights) wsum += w;
        const bool squares = t.reduce == Reduce::Rms || t.reduce == Reduce::SumSquares;
        const double scale = (t.reduce == Reduce::Mean || t.reduce == Reduce::Rms) && wsum != 0 ? 1.0 / wsum : 1.0;
        o.reduce = t.reduce == Reduce::Mean ? Reduce::Value : t.reduce == Reduce::Rms ? Reduce::SumSquares : t.reduce;
        if (t.reduce == Reduce::Rms && monitors) monitors->rms_probes.push_back(int(pi));
        for (std::size_t k = 0; k < t.cells.size(); ++k) {
            const MirrorMap::Site s = map.map(t.component, t.cells[k]);
            if (s.cell < 0) continue;
            o.cells.push_back(s.cell);
            o.weights.push_back(t.weights[k] * scale * (squares ? 1.0 : s.factor));
        }
        if (o.cells.empty()) {  // every node vanishes: a zero record of the right length
            o.cells.push_back(0);
            o.weights.push_back(0.0);
        }
        r.time_probes.push_back(std::move(o));
    }
    return r;
}

std::optional<SymmetryViolation> find_symmetry_violation(const Scene& full, const MirrorMap& map) {
    const auto& nf = map.n_full;
    auto position = [&](Component c, const std::array<std::int64_t, 3>& ijk) {
        const Vec3 o = yee_offset(c);
        return std::array<double, 3>{full.position_um(0, double(ijk[0]) + o.x),
                                     full.position_um(1, double(ijk[1]) + o.y),
                                     full.dimensions == 3 ? full.position_um(2, double(ijk[2]) + o.z) : 0.0};
    };
    auto fmt = [](double v) {
        std::ostringstream s;
        s.precision(6);
        s << v;
        return s.str();
    };
    for (const MirrorPlane& p : map.planes) {
        // Structure: every E node against its image through this plane (same component).
        for (int c = 0; c < 3; ++c) {
            const auto& mi = full.material_index[c];
            if (mi.empty()) continue;
            for (std::int64_t k = 0; k < nf[2]; ++k)
                for (std::int64_t j = 0; j < nf[1]; ++j)
                    for (std::int64_t i = 0; i < nf[0]; ++i) {
                        const std::array<std::int64_t, 3> ijk{i, j, k};
                        if (ijk[p.axis] >= p.first || on_plane(p, e_of(c), ijk[p.axis])) continue;
                        const auto im = mirror_one(p, e_of(c), ijk);
                        if (im[p.axis] < 0 || im[p.axis] >= nf[p.axis]) continue;
                        const EUpdateCoeffs& a = full.table[mi[std::size_t(flat(ijk, nf))]];
                        const EUpdateCoeffs& b = full.table[mi[std::size_t(flat(im, nf))]];
                        const double tol = 1e-4;  // the averaging keeps fractions in float32
                        if (std::abs(a.eps_r - b.eps_r) > tol * std::max(a.eps_r, b.eps_r) ||
                            std::abs(a.sigma - b.sigma) > tol * std::max({a.sigma, b.sigma, 1e-300})) {
                            SymmetryViolation v;
                            v.kind = SymmetryViolation::Kind::Structure;
                            v.axis = p.axis;
                            v.where_um = position(e_of(c), ijk);
                            v.detail = std::string(component_name(e_of(c))) + " sees eps_r " + fmt(a.eps_r) +
                                       ", sigma " + fmt(a.sigma) + " S/m there but eps_r " + fmt(b.eps_r) +
                                       ", sigma " + fmt(b.sigma) + " S/m at its mirror image";
                            return v;
                        }
                    }
        }
        // Dispersive nodes: each with its image (same pole set and weight).
        for (int c = 0; c < 3; ++c) {
            const DispersiveCells& d = full.dispersive[c];
            std::map<CellIndex, std::size_t> at;
            for (std::size_t k = 0; k < d.cells.size(); ++k) at[d.cells[k]] = k;
            for (std::size_t k = 0; k < d.cells.size(); ++k) {
                const auto ijk = unflat(d.cells[k], nf);
                if (on_plane(p, e_of(c), ijk[p.axis])) continue;
                const auto im = mirror_one(p, e_of(c), ijk);
                if (im[p.axis] < 0 || im[p.axis] >= nf[p.axis]) continue;
                const auto it = at.find(flat(im, nf));
                if (it == at.end() || d.pole_set[it->second] != d.pole_set[k] ||
                    std::abs(d.weight[it->second] - d.weight[k]) > 1e-4) {
                    SymmetryViolation v;
                    v.axis = p.axis;
                    v.where_um = position(e_of(c), ijk);
                    v.detail = std::string(component_name(e_of(c))) +
                               " is in a dispersive material there but its mirror image is not (or differently)";
                    return v;
                }
            }
        }
        // Sources: the weights of every term with the same component, waveform and delay
        // (one point source is one term; a centred dipole given as several is symmetric
        // only together) against their images times the parity.
        auto same_drive = [](const SourceTerm& a, const SourceTerm& b) {
            const CompiledWaveform &x = a.waveform, &y = b.waveform;
            return a.component == b.component && a.delay_s == b.delay_s && x.type == y.type && x.omega == y.omega &&
                   x.t0_s == y.t0_s && x.tau_s == y.tau_s && x.ramp_s == y.ramp_s && x.phase_rad == y.phase_rad;
        };
        std::vector<bool> done(full.sources.size(), false);
        for (std::size_t t0 = 0; t0 < full.sources.size(); ++t0) {
            if (done[t0]) continue;
            const SourceTerm& s = full.sources[t0];
            double wmax = 0;
            // cell -> (summed weight x amplitude, real then imaginary part (Bloch phases), a term)
            std::map<CellIndex, std::pair<std::array<double, 2>, int>> w;
            for (std::size_t t = t0; t < full.sources.size(); ++t) {
                const SourceTerm& u = full.sources[t];
                if (done[t] || !same_drive(s, u)) continue;
                done[t] = true;
                for (std::size_t k = 0; k < u.cells.size(); ++k) {
                    const double wr = u.weights[k] * u.waveform.amplitude;
                    const double wi = u.weights_im.empty() ? 0.0 : u.weights_im[k] * u.waveform.amplitude;
                    auto& e = w[u.cells[k]];
                    e.first[0] += wr, e.first[1] += wi;
                    e.second = int(t);
                    wmax = std::max(wmax, std::hypot(wr, wi));
                }
            }
            const int parity = mirror_parity(s.component, p.axis, p.sign);
            for (int part = 0; part < 2; ++part)
            for (const auto& [cell, entry] : w) {
                const double wk = entry.first[std::size_t(part)];
                const auto ijk = unflat(cell, nf);
                double expect = 0;
                std::string what;
                if (on_plane(p, s.component, ijk[p.axis])) {
                    what = " on the plane, where the field vanishes by this symmetry";
                } else {
                    const auto im = mirror_one(p, s.component, ijk);
                    if (im[p.axis] >= 0 && im[p.axis] < nf[p.axis]) {
                        const auto it = w.find(flat(im, nf));
                        expect = parity * (it == w.end() ? 0.0 : it->second.first[std::size_t(part)]);
                    }
                    what = " whose mirror image has " + fmt(expect) + " (" + (parity > 0 ? "even" : "odd") +
                           " parity of " + component_name(s.component) + " expected)";
                }
                if (std::abs(wk - expect) > 1e-3 * wmax) {
                    SymmetryViolation v;
                    v.kind = SymmetryViolation::Kind::Source;
                    v.axis = p.axis;
                    v.term = entry.second;
                    v.where_um = position(s.component, ijk);
                    v.detail = std::string(component_name(s.component)) + " weight " + fmt(wk) + what;
                    return v;
                }
            }
        }
        for (std::size_t k = 0; k < full.tfsf.size(); ++k)
            if (const auto why = tfsf_symmetry_problem(full.tfsf[k], p)) {
                SymmetryViolation v;
                v.kind = SymmetryViolation::Kind::Tfsf;
                v.axis = p.axis;
                v.term = int(k);
                v.detail = *why;
                return v;
            }
    }
    return std::nullopt;
}

}  // namespace golightly
