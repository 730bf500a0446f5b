// GoLightly: a 3D project's cross-section on a plane for the mode solver (mode_plane.hpp).
#include "golightly/mode_plane.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "compile_internal.hpp"
#include "golightly/dispersion.hpp"
#include "golightly/errors.hpp"
#include "golightly/geometry.hpp"
#include "golightly/mode_cache.hpp"
#include "golightly/units.hpp"

namespace golightly {

std::array<ModeBoundary, 2> mode_window_boundaries(const Project& project, int normal, const Vec3& size,
                                                   const Json& mode_boundary, const std::string& json_path,
                                                   const std::string& file_label) {
    const std::string path = json_path + ".mode_boundary";
    const int axes[2] = {(normal + 1) % 3, (normal + 2) % 3};
    const double dx = project.domain.cell_size;
    auto spans = [&](int a) {
        return std::lround(std::abs(size[a]) / dx) >= std::lround(project.domain.size[std::size_t(a)] / dx);
    };
    auto parse = [&](const Json& j, const std::string& p) {
        if (j.is_string()) {
            const std::string v = j.get<std::string>();
            if (v == "pec") return ModeBoundary::pec;
            if (v == "pmc") return ModeBoundary::pmc;
            if (v == "periodic") return ModeBoundary::periodic;
        }
        throw ProjectError(file_label, p, "must be \"pec\", \"pmc\" or \"periodic\"");
    };
    std::array<ModeBoundary, 2> out{ModeBoundary::pec, ModeBoundary::pec};
    for (int k = 0; k < 2; ++k) {
        const int a = axes[k];
        const BoundaryKind d = project.domain.boundaries[std::size_t(a)];
        if (spans(a)) {
            if (d == BoundaryKind::Periodic) out[std::size_t(k)] = ModeBoundary::periodic;
            if (d == BoundaryKind::Pmc) out[std::size_t(k)] = ModeBoundary::pmc;
        }
    }
    if (mode_boundary.is_null()) return out;
    if (mode_boundary.is_string()) {
        out[0] = out[1] = parse(mode_boundary, path);
    } else if (mode_boundary.is_array() && mode_boundary.size() == 3) {
        for (int k = 0; k < 2; ++k)
            out[std::size_t(k)] = parse(mode_boundary[std::size_t(axes[k])], path + "[" + std::to_string(axes[k]) + "]");
    } else {
        throw ProjectError(file_label, path,
                           "must be \"pec\", \"pmc\" or \"periodic\", or a list of three of them (per axis x, y, z)");
    }
    for (int k = 0; k < 2; ++k) {
        const int a = axes[k];
        if (out[std::size_t(k)] == ModeBoundary::periodic && project.domain.boundaries[std::size_t(a)] == BoundaryKind::Periodic &&
            !spans(a))
            throw ProjectError(file_label, path,
                               std::string("a periodic window must span the periodic domain along ") + "xyz"[a] +
                                   " (one period)");
    }
    return out;
}

CrossSection sample_cross_section(const Project& project, const Vec3& center, const Vec3& size, bool reference_run,
                                  const std::string& json_path, const std::string& file_label, const Json& extra,
                                  double wavelength_um) {
    if (project.domain.dimensions != 3)
        throw ProjectError(file_label, json_path, "a 2D cross-section needs a 3D project (a 2D project's line uses the slab solver)");
    int normal = -1, zeros = 0;
    for (int a = 0; a < 3; ++a)
        if (size[a] == 0) {
            normal = a;
            ++zeros;
        }
    if (zeros != 1) throw ProjectError(file_label, json_path + ".size", "a plane needs exactly one zero entry");
    const Json none;
    const auto walls = mode_window_boundaries(project, normal, size,
                                              extra.is_object() && extra.contains("mode_boundary") ? extra["mode_boundary"] : none,
                                              json_path, file_label);
    const double dx = project.domain.cell_size;
    CrossSection cs;
    cs.axis_w = normal;
    cs.axis_u = (normal + 1) % 3;
    cs.axis_v = (normal + 2) % 3;
    cs.grid.dx_um = dx;
    cs.grid.boundary_u = walls[0];
    cs.grid.boundary_v = walls[1];
    cs.i0_u = static_cast<int>(std::lround((center[cs.axis_u] - 0.5 * size[cs.axis_u]) / dx));
    cs.i0_v = static_cast<int>(std::lround((center[cs.axis_v] - 0.5 * size[cs.axis_v]) / dx));
    cs.i_w = static_cast<int>(std::lround(center[normal] / dx));
    cs.grid.nu = static_cast<int>(std::lround(std::abs(size[cs.axis_u]) / dx));
    cs.grid.nv = static_cast<int>(std::lround(std::abs(size[cs.axis_v]) / dx));
    // On an axis with a symmetry plane a window centred on it must stay centred on the grid
    // (lround of a half-cell edge would shift it by half a cell, and the mode with it): one
    // cell more where the centre and the cell count disagree in parity.
    auto centre_window = [&](int axis, int& i0, int& n) {
        if (project.domain.symmetry[std::size_t(axis)] == 0) return;
        const double c2 = 2.0 * center[axis] / dx;  // the centre in half cells
        if (std::abs(c2 - (2.0 * i0 + n)) < 1e-6) return;
        if (std::abs(c2 - std::round(c2)) > 1e-6) return;  // not on the grid's half cells: leave it
        if ((std::llround(c2) - n) % 2 != 0) ++n;
        i0 = int((std::llround(c2) - n) / 2);
    };
    centre_window(cs.axis_u, cs.i0_u, cs.grid.nu);
    centre_window(cs.axis_v, cs.i0_v, cs.grid.nv);
    if (cs.grid.nu < 2 || cs.grid.nv < 2)
        throw ProjectError(file_label, json_path + ".size", "the plane spans fewer than 2 cells along an axis");
    cs.u0_um = cs.i0_u * dx;
    cs.v0_um = cs.i0_v * dx;
    cs.w_um = cs.i_w * dx;
    const Component comps[3] = {Component::Ex, Component::Ey, Component::Ez};
    const int local_axis[3] = {cs.axis_u, cs.axis_v, cs.axis_w};
    const double wl = wavelength_um > 0
                          ? wavelength_um
                          : 0.5 * (project.run.spectrum.wavelength_min + project.run.spectrum.wavelength_max);
    if (!(wl > 0))
        throw ProjectError(file_label, "run.spectrum", "the mode solver needs a wavelength > 0 to evaluate eps(omega)");
    cs.medium_wavelength_um = wl;
    const double omega = 2 * M_PI * units::wavelength_um_to_hz(wl);
    // The probe project: every material as the constant |eps(omega)|, so that
    // average_medium_3d's interface normals (the cube integral of grad eps) see the
    // contrast the mode sees, also between a pole material and a neighbour of the same
    // epsilon_inf; the projection n_d^2 is read back from its Farjadpour diagonal.
    Project probe = project;
    for (Material& m : probe.materials) {
        m.epsilon_inf = std::max(std::abs(analytic_epsilon(m, omega)), 1e-12);
        m.conductivity = 0;
        m.poles.clear();
    }
    cs.makeup.subpixel = project.run.subpixel_averaging;
    for (int d = 0; d < 3; ++d) {
        const auto shape = mode_component_shape_e(cs.grid, d);
        const auto p0 = mode_node_position(cs.grid, d, false, 0, 0);
        SampleGrid3 g3;
        g3.dx_um = dx;
        int n3[3] = {1, 1, 1};
        double o3[3] = {0, 0, 0};
        n3[cs.axis_u] = shape[0];
        n3[cs.axis_v] = shape[1];
        o3[cs.axis_u] = cs.u0_um + p0[0];
        o3[cs.axis_v] = cs.v0_um + p0[1];
        o3[cs.axis_w] = cs.w_um + (d == 2 ? 0.5 * dx : 0.0);
        g3.nx = n3[0];
        g3.ny = n3[1];
        g3.nz = n3[2];
        g3.x0_um = o3[0];
        g3.y0_um = o3[1];
        g3.z0_um = o3[2];
        const AveragedMedium am =
            average_medium_3d(probe, g3, comps[local_axis[d]], project.run.subpixel_averaging, reference_run);
        const Coverage cov = compute_coverage_3d(project, g3, reference_run);
        // the materials of this component's samples, in the makeup's list
        std::vector<int> qof(cov.material_ids.size());
        for (std::size_t q = 0; q < cov.material_ids.size(); ++q) {
            int found = -1;
            for (std::size_t k = 0; k < cs.makeup.materials.size(); ++k)
                if (cs.makeup.materials[k].id == cov.material_ids[q]) found = int(k);
            if (found < 0) {
                const Material* mat = project.find_material(cov.material_ids[q]);
                if (!mat) throw ProjectError(file_label, json_path, "unknown material " + cov.material_ids[q]);
                found = int(cs.makeup.materials.size());
                cs.makeup.materials.push_back(*mat);
            }
            qof[q] = found;
        }
        const std::size_t ns = static_cast<size_t>(shape[0]) * static_cast<size_t>(shape[1]);
        auto& frac = cs.makeup.fraction[d];
        auto& proj = cs.makeup.projection[d];
        proj.assign(ns, 0.0);
        for (int j = 0; j < shape[1]; ++j)
            for (int i = 0; i < shape[0]; ++i) {
                int idx[3] = {0, 0, 0};
                idx[cs.axis_u] = i;
                idx[cs.axis_v] = j;
                const size_t flat = (static_cast<size_t>(idx[2]) * g3.ny + idx[1]) * g3.nx + idx[0];
                const size_t k = static_cast<size_t>(j) * shape[0] + i;
                double mean = 0, inv = 0;
                for (std::size_t q = 0; q < cov.material_ids.size(); ++q) {
                    if (cov.fraction[q].empty()) continue;
                    const double f = float(cov.fraction[q][flat]);
                    if (f == 0.0) continue;
                    if (frac.size() <= std::size_t(qof[q])) frac.resize(std::size_t(qof[q]) + 1);
                    auto& fq = frac[std::size_t(qof[q])];
                    if (fq.empty()) fq.assign(ns, 0.0f);
                    fq[k] = cov.fraction[q][flat];
                    const double e = probe.find_material(cov.material_ids[q])->epsilon_inf;
                    mean += f * e;
                    inv += f / e;
                }
                // 1/eps_r = P inv + (1 - P) / mean  ->  P (Farjadpour diagonal, read back)
                const double b = mean > 0 ? 1.0 / mean : 0.0, gap = inv - b;
                if (cs.makeup.subpixel && gap > 1e-13 * inv)
                    proj[k] = std::clamp((1.0 / am.eps_r[flat] - b) / gap, 0.0, 1.0);
            }
        frac.resize(cs.makeup.materials.size());
    }
    // the makeup's material list grew over the components: pad every component's list
    for (int d = 0; d < 3; ++d) cs.makeup.fraction[d].resize(cs.makeup.materials.size());
    cs.medium = cross_section_medium(cs, omega);
    return cs;
}

namespace {
ModeMedium2D mixed_medium(const CrossSection& cs, double omega);
}

ModeMedium2D cross_section_medium(const CrossSection& cs, double omega) {
    if (!(omega > 0)) throw std::invalid_argument("cross_section_medium: omega must be > 0");
    ModeMedium2D out = mixed_medium(cs, omega);
    bool dispersive = false;
    for (const Material& m : cs.makeup.materials) dispersive = dispersive || !m.poles.empty();
    if (dispersive) {
        const double h = 1e-4;
        const ModeMedium2D lo = mixed_medium(cs, omega * (1 - h)), hi = mixed_medium(cs, omega * (1 + h));
        for (int d = 0; d < 3; ++d) {
            out.eps_group[d].resize(out.eps[d].size());
            for (std::size_t k = 0; k < out.eps[d].size(); ++k)
                out.eps_group[d][k] = ((1 + h) * hi.eps[d][k] - (1 - h) * lo.eps[d][k]) / (2 * h);
        }
    }
    return out;
}

namespace {
ModeMedium2D mixed_medium(const CrossSection& cs, double omega) {
    using cd = std::complex<double>;
    const CrossSectionMakeup& mk = cs.makeup;
    const std::size_t nm = mk.materials.size();
    std::vector<cd> em(nm);
    bool lossy = false;
    for (std::size_t q = 0; q < nm; ++q) {
        em[q] = analytic_epsilon(mk.materials[q], omega);
        if (em[q].imag() != 0.0) lossy = true;
    }
    ModeMedium2D out;
    for (int d = 0; d < 3; ++d) {
        const std::size_t ns = mk.projection[d].size();
        out.eps[d].assign(ns, 1.0);
        if (lossy) out.eps_imag[d].assign(ns, 0.0);
        for (std::size_t k = 0; k < ns; ++k) {
            cd e = 1.0;
            if (!mk.subpixel) {
                // staircase: the material with the largest fraction (first on ties), as average_medium_3d
                int best = -1;
                float fb = -1;
                for (std::size_t q = 0; q < nm; ++q)
                    if (!mk.fraction[d][q].empty() && mk.fraction[d][q][k] > fb) best = int(q), fb = mk.fraction[d][q][k];
                if (best >= 0) e = em[std::size_t(best)];
            } else {
                int uniform = -1;
                cd mean = 0, inv = 0;
                double mean_r = 0, inv_r = 0;  // real arithmetic where eps is real (bitwise as before)
                for (std::size_t q = 0; q < nm; ++q) {
                    if (mk.fraction[d][q].empty()) continue;
                    const double f = mk.fraction[d][q][k];
                    if (f == 0.0) continue;
                    if (f == 1.0) uniform = int(q);
                    mean += f * em[q];
                    inv += f / em[q];
                    mean_r += f * em[q].real();
                    inv_r += f / em[q].real();
                }
                const double p = mk.projection[d][k];
                if (uniform >= 0) e = em[std::size_t(uniform)];
                else if (!lossy) e = p > 0 ? 1.0 / (p * inv_r + (1.0 - p) / mean_r) : mean_r;
                else e = p > 0 ? 1.0 / (p * inv + (1.0 - p) / mean) : mean;
            }
            out.eps[d][k] = e.real();
            if (lossy) out.eps_imag[d][k] = e.imag();
        }
    }
    return out;
}
}  // namespace

}  // namespace golightly

// ------------------------------------------------------------------ mode monitors

namespace golightly {

std::vector<int> parse_mode_list(const Json& extra, const std::string& json_path, const std::string& file_label) {
    std::vector<int> out = {0};
    if (!extra.contains("modes")) return out;
    const Json& jm = extra["modes"];
    if (!jm.is_array() || jm.empty())
        throw ProjectError(file_label, json_path + ".modes", "must be a non-empty list of mode indices");
    out.clear();
    for (std::size_t k = 0; k < jm.size(); ++k) {
        if (!jm[k].is_number_integer() || jm[k].get<long long>() < 0 || jm[k].get<long long>() > 99)
            throw ProjectError(file_label, json_path + ".modes[" + std::to_string(k) + "]", "must be a mode index in 0..99");
        out.push_back(jm[k].get<int>());
    }
    return out;
}

ModeSelection parse_mode_selection(const Json& obj, const std::string& json_path, const std::string& file_label) {
    ModeSelection sel;
    if (!obj.is_object()) return sel;
    if (obj.contains("target_neff")) {
        const Json& t = obj["target_neff"];
        if (!t.is_number() || !(t.get<double>() > 0) || !std::isfinite(t.get<double>()))
            throw ProjectError(file_label, json_path + ".target_neff", "must be a number > 0 (an effective index)");
        sel.target_neff = t.get<double>();
    }
    if (obj.contains("filter")) {
        const Json& f = obj["filter"];
        const std::string v = f.is_string() ? f.get<std::string>() : std::string();
        if (v == "te") sel.filter = ModeFilter::te;
        else if (v == "tm") sel.filter = ModeFilter::tm;
        else if (v == "none") sel.filter = ModeFilter::none;
        else throw ProjectError(file_label, json_path + ".filter", "must be \"te\", \"tm\" or \"none\"");
    }
    if (obj.contains("bend_radius")) {
        const Json& r = obj["bend_radius"];
        if (!r.is_number() || !std::isfinite(r.get<double>()))
            throw ProjectError(file_label, json_path + ".bend_radius",
                               "must be a number (um, signed; 0 = straight): the bend's radius at the plane's centre");
        sel.bend_radius_um = r.get<double>();
    }
    if (obj.contains("bend_axis")) {
        const Json& a = obj["bend_axis"];
        const std::string v = a.is_string() ? a.get<std::string>() : std::string();
        if (v == "x") sel.bend_axis = 0;
        else if (v == "y") sel.bend_axis = 1;
        else if (v == "z") sel.bend_axis = 2;
        else
            throw ProjectError(file_label, json_path + ".bend_axis",
                               "must be \"x\", \"y\" or \"z\" (the axis along which the bend's centre lies)");
    }
    if (sel.bend_radius_um != 0 && sel.bend_axis < 0)
        throw ProjectError(file_label, json_path + ".bend_axis",
                           "must be given with bend_radius: \"x\", \"y\" or \"z\" (the axis along which the bend's "
                           "centre lies)");
    if (sel.bend_radius_um == 0) sel.bend_axis = -1;
    return sel;
}

namespace {

/// The flat grid index of cross-section node (iu, iv) on plane iw along the plane's normal:
/// the cross-section's (u, v, w) axes mapped to the grid's, the low PML cells added. Throws
/// ProjectError at json_path + ".center" with "the <what>'s plane (...) leaves the grid" when
/// the node lies outside (a plane in the last cell has no room for its second field plane).
std::int64_t plane_cell(const Grid& g, const CrossSection& cs, int iu, int iv, int iw, const std::string& what,
                        const std::string& json_path, const std::string& file_label) {
    const int ax[3] = {cs.axis_u, cs.axis_v, cs.axis_w};
    std::int64_t idx[3] = {0, 0, 0};
    idx[ax[0]] = iu + g.pml_lo[ax[0]];
    idx[ax[1]] = iv + g.pml_lo[ax[1]];
    idx[ax[2]] = iw + g.pml_lo[ax[2]];
    for (int a = 0; a < 3; ++a)
        if (idx[a] < 0 || idx[a] >= g.n[a])
            throw ProjectError(file_label, json_path + ".center", "the " + what + "'s plane leaves the grid");
    return g.flat(idx[0], idx[1], idx[2]);
}

}  // namespace

void apply_mode_selection(const CrossSection& cs, const ModeSelection& sel, const Vec3& center, ModeSolveOptions& o,
                          const std::string& json_path, const std::string& file_label) {
    o.target_neff = sel.target_neff;
    if (sel.bend_radius_um == 0) return;
    const double c[3] = {center.x, center.y, center.z};
    if (sel.bend_axis == cs.axis_w)
        throw ProjectError(file_label, json_path + ".bend_axis",
                           std::string("must lie in the plane (not its normal ") + "xyz"[cs.axis_w] +
                               "): the axis along which the bend's centre lies");
    const int a = sel.bend_axis == cs.axis_u ? 0 : 1;
    const int ncell = a == 0 ? cs.grid.nu : cs.grid.nv;
    if (ncell <= 2 * kBendPmlCells)
        throw ProjectError(file_label, json_path + ".size",
                           std::string("is too small along ") + "xyz"[sel.bend_axis] + " for a bent plane: " +
                               std::to_string(ncell) + " cells, more than " + std::to_string(2 * kBendPmlCells) +
                               " needed (the absorbing layers at both ends)");
    o.bend_radius_um = sel.bend_radius_um;
    o.bend_axis = a;
    o.bend_reference_um = c[sel.bend_axis] - (a == 0 ? cs.u0_um : cs.v0_um);
    o.pml_cells = {0, 0};
    o.pml_cells[static_cast<size_t>(a)] = kBendPmlCells;
}

bool apply_bloch_window(const Project& project, const Scene& scene, CrossSection& cs, const Json& extra,
                        const std::string& what, const std::string& json_path, const std::string& file_label) {
    const int ax[2] = {cs.axis_u, cs.axis_v};
    const int n_win[2] = {cs.grid.nu, cs.grid.nv};
    const ModeBoundary walls[2] = {cs.grid.boundary_u, cs.grid.boundary_v};
    double phase[2] = {0, 0};
    bool any = false;
    for (int k = 0; k < 2; ++k) {
        const int a = ax[k];
        if (!project.domain.is_bloch(a) || scene.bloch_phase[a] == 0) continue;
        const std::int64_t n_dom = a == 0 ? scene.nx : a == 1 ? scene.ny : scene.nz;
        const std::string name(1, "xyz"[a]);
        // the interior period: a Bloch axis has no PML, so the scene's extent is the period
        if (n_win[k] != n_dom || (k == 0 ? cs.i0_u : cs.i0_v) != 0)
            throw ProjectError(file_label, json_path + ".size",
                               what + ": a plane along the Bloch axis " + name +
                                   " with nonzero k must span the whole period (size " + name + " = the domain's " +
                                   std::to_string(project.domain.size[std::size_t(a)]) +
                                   " um; its mode is a Bloch mode of one period); this one covers " +
                                   std::to_string(n_win[k]) + " of the " + std::to_string(n_dom) + " cells");
        if (walls[k] != ModeBoundary::periodic)
            throw ProjectError(file_label, json_path + ".mode_boundary",
                               what + ": the window's wall along the Bloch axis " + name +
                                   " with nonzero k must be \"periodic\" (the Bloch phase is imposed there)");
        phase[k] = scene.bloch_phase[a];
        any = true;
    }
    if (!any) return false;
    if (scene.bloch_phase[cs.axis_w] != 0)
        throw ProjectError(file_label, json_path + ".center",
                           what + ": a mode plane along a Bloch axis needs zero Bloch k along its normal (" +
                               std::string(1, "xyz"[cs.axis_w]) + ")");
    if (extra.is_object() && extra.contains("bend_radius") && extra["bend_radius"].is_number() &&
        extra["bend_radius"].get<double>() != 0)
        throw ProjectError(file_label, json_path + ".bend_radius",
                           what + ": a mode plane along a Bloch axis cannot be bent (its mode is a Bloch mode of the "
                                  "period)");
    cs.grid.bloch_phase_u = phase[0];
    cs.grid.bloch_phase_v = phase[1];
    return true;
}

double wafer_te_fraction(const CrossSection& cs, const VectorMode& m) {
    return cs.axis_w != 1 ? m.te_fraction : 1.0 - m.te_fraction;
}

std::vector<VectorMode> filter_modes(const CrossSection& cs, std::vector<VectorMode> modes, ModeFilter filter,
                                     double target_neff) {
    std::vector<VectorMode> out;
    if (filter == ModeFilter::none) {
        out = std::move(modes);
    } else {
        for (VectorMode& m : modes)
            if ((wafer_te_fraction(cs, m) >= 0.5) == (filter == ModeFilter::te)) out.push_back(std::move(m));
    }
    if (target_neff > 0)
        std::stable_sort(out.begin(), out.end(), [target_neff](const VectorMode& a, const VectorMode& b) {
            const double da = std::abs(a.n_eff - target_neff), db = std::abs(b.n_eff - target_neff);
            return da != db ? da < db : a.n_eff > b.n_eff;
        });
    return out;
}

int modes_to_solve(int wanted, ModeFilter filter) { return filter == ModeFilter::none ? wanted : 2 * wanted + 2; }

ModeMonitorPlan compile_mode_monitor(const Project& project, Scene& scene, const Monitor& monitor,
                                     const std::vector<double>& spectrum_hz, bool reference_run,
                                     const std::string& json_path, const std::string& file_label) {
    if (!have_mode_solver_2d())
        throw ProjectError(file_label, json_path + ".kind",
                           "mode monitors need the 2D mode solver, which this build lacks (no Spectra)");
    ModeMonitorPlan plan;
    plan.cs = sample_cross_section(project, monitor.center, monitor.size, reference_run, json_path, file_label,
                                   monitor.extra);
    plan.bloch = apply_bloch_window(project, scene, plan.cs, monitor.extra, "mode monitor '" + monitor.name + "'",
                                    json_path, file_label);
    const CrossSection& cs = plan.cs;
    plan.sign = (!monitor.direction.empty() && monitor.direction[0] == '-') ? -1 : 1;
    plan.mode_indices = parse_mode_list(monitor.extra, json_path, file_label);
    plan.dx_um = project.domain.cell_size;
    plan.dt_s = scene.dt_s;
    int num_modes = 0;
    for (int m : plan.mode_indices) num_modes = std::max(num_modes, m + 1);
    plan.frequencies_hz = spectrum_hz;

    // The solve's options, and the solver's limits checked before anything is allocated.
    const ModeSelection sel = parse_mode_selection(monitor.extra, json_path, file_label);
    ModeSolveOptions o;
    o.num_modes = modes_to_solve(num_modes + 2, sel.filter);
    apply_mode_selection(cs, sel, monitor.center, o, json_path, file_label);
    check_mode_solve_limits(cs.grid, cs.medium, o, "mode monitor '" + monitor.name + "'", file_label, json_path + ".size");
    plan.solve_peak_bytes = mode_solve_peak_bytes(cs.grid, cs.medium, o);

    // DFT sets on the cross-section nodes.
    const Grid g = scene.grid();
    const int ax[3] = {cs.axis_u, cs.axis_v, cs.axis_w};
    auto cell = [&](int iu, int iv, int iw) {
        return plane_cell(g, cs, iu, iv, iw, "mode monitor (with a cell of room below it)", json_path, file_label);
    };
    const int first_u = cs.grid.boundary_u == ModeBoundary::pec ? 1 : 0;
    const int first_v = cs.grid.boundary_v == ModeBoundary::pec ? 1 : 0;
    const Component e_of[3] = {Component::Ex, Component::Ey, Component::Ez};
    const Component h_of[3] = {Component::Hx, Component::Hy, Component::Hz};
    for (int d = 0; d < 2; ++d) {
        DftSet es, hs;
        es.component = e_of[ax[d]];
        hs.component = h_of[ax[d]];
        es.frequencies_hz = hs.frequencies_hz = spectrum_hz;
        // E_u: (h, n): grid index along u = i0_u + i (its Yee offset is the half); along v
        // the integer node i0_v + first_v + j. E_v: (n, h) likewise.
        const auto se = mode_component_shape_e(cs.grid, d);
        for (int j = 0; j < se[1]; ++j)
            for (int i = 0; i < se[0]; ++i) {
                const int iu = cs.i0_u + i + (d == 0 ? 0 : first_u);
                const int iv = cs.i0_v + j + (d == 1 ? 0 : first_v);
                es.cell0.push_back(cell(iu, iv, cs.i_w));
                es.w0.push_back(1.0);
                es.cell1.push_back(-1);
                es.w1.push_back(0.0);
            }
        // H_u at (n, h) of the cross-section and w +- 1/2: grid k = i_w (above), i_w - 1.
        const auto sh = mode_component_shape_h(cs.grid, d);
        for (int j = 0; j < sh[1]; ++j)
            for (int i = 0; i < sh[0]; ++i) {
                const int iu = cs.i0_u + i + (d == 0 ? first_u : 0);
                const int iv = cs.i0_v + j + (d == 1 ? first_v : 0);
                hs.cell0.push_back(cell(iu, iv, cs.i_w - 1));
                hs.cell1.push_back(cell(iu, iv, cs.i_w));
                hs.w0.push_back(0.5);
                hs.w1.push_back(0.5);
            }
        plan.set_e[d] = static_cast<int>(scene.dft_sets.size());
        scene.dft_sets.push_back(std::move(es));
        plan.set_h[d] = static_cast<int>(scene.dft_sets.size());
        scene.dft_sets.push_back(std::move(hs));
    }

    // Modes at every frequency (or interpolated from a few, run.mode_interpolation), at the
    // Yee scheme's numerical k0; two spare candidates so that a tracked mode can be found
    // below another that crossed it. Solves go through the mode cache (mode_cache.hpp).
    ModeBandOptions band;
    band.interpolation = parse_mode_interpolation(project, file_label);
    ModeBandResult solved;
    try {
        solved = solve_modes_band(cs, o, sel.filter, plan.mode_indices, spectrum_hz, scene.dt_s, band,
                                  "mode monitor '" + monitor.name + "'");
    } catch (const std::exception& e) {
        throw ProjectError(file_label, json_path, std::string("mode solver: ") + e.what());
    }
    plan.modes = std::move(solved.modes);
    plan.interpolated = solved.interpolated;
    plan.solved_frequencies_hz = std::move(solved.node_hz);
    for (auto& w : solved.warnings) plan.warnings.push_back(std::move(w));
    return plan;
}

double mode_overlap(const VectorMode& a, const VectorMode& b, bool conjugated) {
    if (a.e[0].empty() || b.e[0].empty() || a.e[0].size() != b.e[0].size() || a.e[1].size() != b.e[1].size())
        return 0.0;
    auto cross = [conjugated](const VectorMode& x, const VectorMode& y) {  // sum (x.e x y.h)_w (y.h* when conjugated)
        auto h = [conjugated](const std::complex<double>& v) { return conjugated ? std::conj(v) : v; };
        std::complex<double> s = 0;
        for (std::size_t k = 0; k < x.e[0].size(); ++k) s += x.e[0][k] * h(y.h[1][k]);
        for (std::size_t k = 0; k < x.e[1].size(); ++k) s -= x.e[1][k] * h(y.h[0][k]);
        return s;
    };
    const double naa = std::abs(cross(a, a)), nbb = std::abs(cross(b, b));
    if (!(naa > 0) || !(nbb > 0)) return 0.0;
    return std::sqrt(std::abs(cross(a, b)) * std::abs(cross(b, a)) / (naa * nbb));
}

std::vector<std::vector<VectorMode>> track_modes(const std::vector<std::vector<VectorMode>>& cand,
                                                 const std::vector<int>& indices, std::size_t start,
                                                 const std::vector<double>& freqs, const std::string& label,
                                                 std::vector<std::string>& warnings, bool conjugated) {
    const std::size_t nf = cand.size(), nm = indices.size();
    std::vector<std::vector<VectorMode>> picked(nf, std::vector<VectorMode>(nm));
    if (nf == 0) return picked;
    start = std::min(start, nf - 1);
    auto by_index = [&](std::size_t f, std::size_t m) {
        const int i = indices[m];
        return i >= 0 && std::size_t(i) < cand[f].size() ? cand[f][std::size_t(i)] : VectorMode{};
    };
    for (std::size_t m = 0; m < nm; ++m) picked[start][m] = by_index(start, m);
    auto step = [&](std::size_t f, std::size_t from) {
        std::vector<bool> taken(cand[f].size(), false);
        for (std::size_t m = 0; m < nm; ++m) {
            const VectorMode& prev = picked[from][m];
            if (prev.e[0].empty()) {
                picked[f][m] = by_index(f, m);
                continue;
            }
            int best = -1;
            double ob = -1;
            for (std::size_t c = 0; c < cand[f].size(); ++c) {
                if (taken[c]) continue;
                const double ov = mode_overlap(prev, cand[f][c], conjugated);
                if (ov > ob) best = int(c), ob = ov;
            }
            if (best < 0) continue;  // no candidate left: an empty pick (n_eff 0)
            taken[std::size_t(best)] = true;
            picked[f][m] = cand[f][std::size_t(best)];
            if (ob < kModeTrackingOverlap) {
                char buf[200];
                std::snprintf(buf, sizeof buf,
                              ": mode %d: overlap %.3f with the neighbouring frequency at %.6g Hz (n_eff %.5f -> %.5f); "
                              "the mode changes fast or left the solved set",
                              indices[m], ob, f < freqs.size() ? freqs[f] : 0.0, prev.n_eff, picked[f][m].n_eff);
                warnings.push_back(label + buf);
            }
        }
    };
    for (std::size_t f = start + 1; f < nf; ++f) step(f, f - 1);
    for (std::size_t f = start; f-- > 0;) step(f, f + 1);
    return picked;
}

std::vector<ModeAmplitudes> mode_amplitudes(const ModeMonitorPlan& plan,
                                            const std::vector<std::complex<double>>* const sets[4]) {
    const std::size_t nf = plan.frequencies_hz.size();
    if (plan.dims == 2) {
        const std::size_t nn = sets[0]->size() / std::max<std::size_t>(nf, 1);
        if (sets[0]->size() != nn * nf || sets[2]->size() != nn * nf)
            throw std::invalid_argument("mode_amplitudes: DFT set sizes do not match the line");
        std::vector<ModeAmplitudes> out;
        for (std::size_t m = 0; m < plan.mode_indices.size(); ++m) {
            ModeAmplitudes a;
            a.mode_index = plan.mode_indices[m];
            a.fwd.assign(nf, 0.0);
            a.bwd.assign(nf, 0.0);
            a.n_eff.assign(nf, 0.0);
            a.n_eff_imag.assign(nf, 0.0);
            // a line spanning a Bloch axis with nonzero k: complex Bloch modes, imaginary
            // parts in line_e_im / line_h_im (empty for every other line, whose modes are real)
            const bool bloch = !plan.line_e_im.empty();
            if (bloch && (plan.line_e_im.size() != nf || plan.line_h_im.size() != nf))
                throw std::invalid_argument("mode_amplitudes: a Bloch line's imaginary parts do not match the spectrum");
            for (std::size_t f = 0; f < nf; ++f) {
                const auto& e = plan.line_e[f][m];
                const auto& h = plan.line_h[f][m];
                if (e.size() != nn || h.size() != nn) continue;
                const std::vector<double>* ei = bloch ? &plan.line_e_im[f][m] : nullptr;
                const std::vector<double>* hi = bloch ? &plan.line_h_im[f][m] : nullptr;
                if (bloch && (ei->size() != nn || hi->size() != nn)) continue;
                const double ne = plan.line_neff[f][m];
                a.n_eff[f] = ne;
                // bent lines: the bend's radiation loss (0 for straight lines)
                if (f < plan.line_neff_imag.size() && m < plan.line_neff_imag[f].size())
                    a.n_eff_imag[f] = plan.line_neff_imag[f][m];
                const double w = 2 * M_PI * plan.frequencies_hz[f];
                const double k0n = 2.0 / (units::c0 * plan.dt_s) * std::sin(0.5 * w * plan.dt_s) * units::um;
                const double half = 0.5 * ne * k0n * plan.dx_um;
                const double c = std::sqrt(std::max(1.0 - half * half, 1e-12));
                std::complex<double> j1 = 0, j2 = 0;
                double nrm = 0;
                for (std::size_t k = 0; k < nn; ++k) {
                    // conjugated mode (Hermitian orthogonality of Bloch modes; a no-op for real ones)
                    const std::complex<double> ek(e[k], ei ? (*ei)[k] : 0.0), hk(h[k], hi ? (*hi)[k] : 0.0);
                    j1 += (*sets[0])[k * nf + f] * std::conj(hk);
                    j2 += std::conj(ek) * (*sets[2])[k * nf + f];
                    nrm += (ek * std::conj(hk)).real();
                }
                const double sg = plan.line_flux_sign * plan.dx_um;
                j1 *= sg;
                j2 *= sg;
                nrm *= sg;
                if (!(nrm > 0)) continue;
                const double scale = std::sqrt(0.5 * c * nrm * 1e-6 / units::eta0) / (2 * nrm);
                const std::complex<double> ap = (j1 + j2 / c) * scale, am = (j1 - j2 / c) * scale;
                a.fwd[f] = plan.sign > 0 ? ap : am;
                a.bwd[f] = plan.sign > 0 ? am : ap;
            }
            out.push_back(std::move(a));
        }
        return out;
    }
    const auto& g = plan.cs.grid;
    const std::size_t n_eu = std::size_t(mode_component_shape_e(g, 0)[0]) * std::size_t(mode_component_shape_e(g, 0)[1]);
    const std::size_t n_ev = std::size_t(mode_component_shape_e(g, 1)[0]) * std::size_t(mode_component_shape_e(g, 1)[1]);
    // H_u has E_v's shape, H_v E_u's
    if (sets[0]->size() != n_eu * nf || sets[1]->size() != n_ev * nf || sets[2]->size() != n_ev * nf ||
        sets[3]->size() != n_eu * nf)
        throw std::invalid_argument("mode_amplitudes: DFT set sizes do not match the cross-section");
    const double dA = g.dx_um * g.dx_um;
    std::vector<ModeAmplitudes> out;
    for (std::size_t m = 0; m < plan.mode_indices.size(); ++m) {
        ModeAmplitudes a;
        a.mode_index = plan.mode_indices[m];
        a.fwd.assign(nf, 0.0);
        a.bwd.assign(nf, 0.0);
        a.n_eff.assign(nf, 0.0);
        a.n_eff_imag.assign(nf, 0.0);
        for (std::size_t f = 0; f < nf; ++f) {
            const VectorMode& vm = plan.modes[f][m];
            if (vm.e[0].size() != n_eu) continue;  // no such mode at this frequency
            a.n_eff[f] = vm.n_eff;
            a.n_eff_imag[f] = vm.n_eff_imag;
            const double half = 0.5 * vm.beta_per_um * g.dx_um;
            const double c = std::sqrt(std::max(1.0 - half * half, 1e-12));
            // Unconjugated (reciprocity) overlaps, the orthogonality that also holds for
            // lossy modes (Snyder & Love ch. 31; Chew, Waves and Fields, sec. 8.2):
            // J1 = sum (E x h)_w dA, J2 = sum (e x H)_w dA, N = sum (e x h)_w dA. A lossless
            // mode's transverse e, h are real, so these equal the conjugated forms and N = 2
            // (power 1).
            // A plane along a Bloch axis (plan.bloch): complex Bloch modes, orthogonal under
            // the conjugated product: the mode's fields enter conjugated (mode_plane.hpp).
            const bool cj = plan.bloch;
            auto md = [cj](const std::complex<double>& v) { return cj ? std::conj(v) : v; };
            std::complex<double> j1 = 0, j2 = 0, nn = 0;
            for (std::size_t k = 0; k < n_eu; ++k) {
                const std::complex<double> E = (*sets[0])[k * nf + f], H = (*sets[3])[k * nf + f];
                j1 += E * md(vm.h[1][k]);
                j2 += md(vm.e[0][k]) * H;
                nn += vm.e[0][k] * md(vm.h[1][k]);
            }
            for (std::size_t k = 0; k < n_ev; ++k) {
                const std::complex<double> E = (*sets[1])[k * nf + f], H = (*sets[2])[k * nf + f];
                j1 -= E * md(vm.h[0][k]);
                j2 -= md(vm.e[1][k]) * H;
                nn -= vm.e[1][k] * md(vm.h[0][k]);
            }
            j1 *= dA;
            j2 *= dA;
            nn *= dA;
            if (std::abs(nn) == 0.0) continue;
            std::complex<double> ap, am;
            if (cj) {
                // J1 = (a+ + a-) N and J2 = c (a+ - a-) N* with N = sum (e x h*)_w dA (Re N = 2,
                // the power; Im N, the reactive part, need not vanish on the staggered nodes)
                const double sc = 0.5 * std::sqrt(c * 1e-12 / units::eta0);
                const std::complex<double> t1 = j1 / nn, t2 = j2 / (c * std::conj(nn));
                ap = (t1 + t2) * sc;
                am = (t1 - t2) * sc;
            } else {
                const std::complex<double> scale = std::sqrt(c * 1e-12 / units::eta0) / (2 * c * nn);
                ap = (c * j1 + j2) * scale;
                am = (c * j1 - j2) * scale;
            }
            a.fwd[f] = plan.sign > 0 ? ap : am;
            a.bwd[f] = plan.sign > 0 ? am : ap;
        }
        out.push_back(std::move(a));
    }
    return out;
}

}  // namespace golightly

// ------------------------------------------------------------------ mode sources

namespace golightly {

double add_mode_plane_source(const Project& project, Scene& scene, const Source& src, const CompiledWaveform& wf,
                             bool reference_run, const std::string& json_path, const std::string& file_label,
                             std::uint64_t* solve_peak_bytes) {
    if (!have_mode_solver_2d())
        throw ProjectError(file_label, json_path + ".profile",
                           "mode sources in 3D need the 2D mode solver, which this build lacks (no Spectra)");
    CrossSection cs =
        sample_cross_section(project, src.center, src.size, reference_run, json_path, file_label, src.extra,
                             wf.omega > 0 ? units::hz_to_wavelength_um(wf.omega / (2 * M_PI)) : 0.0);
    const bool bloch =
        apply_bloch_window(project, scene, cs, src.extra, "mode source '" + src.name + "'", json_path, file_label);
    const auto [axis, s] = detail::parse_direction(src.direction, true);
    if (axis != cs.axis_w)
        throw ProjectError(file_label, json_path + ".direction",
                           std::string("must be normal to the plane: +") + "xyz"[cs.axis_w] + " or -" + "xyz"[cs.axis_w]);
    if (src.mode_index < 0) throw ProjectError(file_label, json_path + ".mode_index", "must be >= 0");
    const ModeSelection sel = parse_mode_selection(src.extra, json_path, file_label);
    ModeSolveOptions o;
    o.num_modes = src.mode_index + 1;
    apply_mode_selection(cs, sel, src.center, o, json_path, file_label);
    if (auto it = src.extra.find("mode_solver"); it != src.extra.end() && it->is_object()) {
        if (it->contains("num_modes")) {
            const Json& n = (*it)["num_modes"];
            if (!n.is_number_integer() || n.get<long long>() < 1 || n.get<long long>() > 100)
                throw ProjectError(file_label, json_path + ".mode_solver.num_modes", "must be an integer in 1..100");
            o.num_modes = std::max(o.num_modes, n.get<int>());
        }
        if (it->contains("target_neff")) {
            const Json& t = (*it)["target_neff"];
            if (!t.is_number() || !(t.get<double>() > 0))
                throw ProjectError(file_label, json_path + ".mode_solver.target_neff", "must be a number > 0");
            o.target_neff = t.get<double>();
        }
    }
    const double k0n = detail::numerical_k0_per_um(wf.omega, scene.dt_s);
    std::vector<VectorMode> modes;
    o.num_modes = modes_to_solve(o.num_modes, sel.filter);
    const ModeMedium2D medium = cross_section_medium(cs, wf.omega);
    check_mode_solve_limits(cs.grid, medium, o, "mode source '" + src.name + "'", file_label, json_path + ".size");
    if (solve_peak_bytes) *solve_peak_bytes = mode_solve_peak_bytes(cs.grid, medium, o);
    try {
        modes = filter_modes(cs, *cached_solve_modes_2d(cs.grid, medium, 2 * M_PI / k0n, o), sel.filter, o.target_neff);
    } catch (const std::exception& e) {
        throw ProjectError(file_label, json_path, std::string("mode solver: ") + e.what());
    }
    if (src.mode_index >= static_cast<int>(modes.size()))
        throw ProjectError(file_label, json_path + ".mode_index",
                           "the cross-section has " + std::to_string(modes.size()) + " mode(s) near the target index; " +
                               "mode " + std::to_string(src.mode_index) + " was asked for");
    const VectorMode& m = modes[std::size_t(src.mode_index)];
    const Grid g = scene.grid();
    const int ax[3] = {cs.axis_u, cs.axis_v, cs.axis_w};
    const int first_u = cs.grid.boundary_u == ModeBoundary::pec ? 1 : 0;
    const int first_v = cs.grid.boundary_v == ModeBoundary::pec ? 1 : 0;
    const Component e_of[3] = {Component::Ex, Component::Ey, Component::Ez};
    const int kh = s > 0 ? cs.i_w - 1 : cs.i_w;  // h position k_s - s/2
    auto flat_of = [&](int iu, int iv, int iw) {
        return plane_cell(g, cs, iu, iv, iw, "mode source (with a cell of room behind it)", json_path, file_label);
    };
    double emax = 0;
    for (int d = 0; d < 2; ++d)
        for (const auto& x : m.e[d]) emax = std::max(emax, std::abs(x));
    const double delay = detail::half_cell_delay_s(m.n_eff, wf.omega, cs.grid.dx_um, scene.dt_s);
    // A plane along a Bloch axis injects the complex Bloch mode (the engine carries complex
    // fields there): the real and the imaginary parts' sheets, merged below into terms of
    // complex weight; every other plane injects the real part (a lossy mode's too).
    const int parts = bloch ? 2 : 1;
    const std::size_t first = scene.sources.size();
    std::size_t mid = first;
    for (int part = 0; part < parts; ++part) {
        for (int d = 0; d < 2; ++d) {
            const detail::TangentialPair tp = detail::tangential_pair_3d(cs.axis_w, e_of[ax[d]]);
            const auto& hpart = m.h[1 - d];  // E_u pairs with H~_v, E_v with H~_u (same node shapes)
            const auto se = mode_component_shape_e(cs.grid, d);
            std::vector<detail::OneWayNode> nodes;
            for (int j = 0; j < se[1]; ++j)
                for (int i = 0; i < se[0]; ++i) {
                    const std::size_t k = std::size_t(j) * std::size_t(se[0]) + std::size_t(i);
                    if (std::abs(m.e[d][k]) < 1e-7 * emax && std::abs(hpart[k]) < 1e-7 * emax) continue;
                    const double e = part == 0 ? m.e[d][k].real() : m.e[d][k].imag();
                    const double h = part == 0 ? hpart[k].real() : hpart[k].imag();
                    const int iu = cs.i0_u + i + (d == 0 ? 0 : first_u);
                    const int iv = cs.i0_v + j + (d == 1 ? 0 : first_v);
                    detail::OneWayNode on;
                    on.e_cell = flat_of(iu, iv, cs.i_w);
                    on.h_cell = flat_of(iu, iv, kh);
                    on.frac = 1.0;
                    on.e_inc = src.amplitude * e;
                    on.h_inc = s * src.amplitude * h;
                    on.delay_h_s = delay;
                    nodes.push_back(on);
                }
            if (!nodes.empty()) detail::add_one_way_terms(scene, tp, s, nodes, wf);
        }
        if (part == 0) mid = scene.sources.size();
    }
    if (bloch) {
        // add_one_way_terms skips zero weights, so the two parts' terms may list different cells
        detail::merge_complex_source_terms(scene, first, mid, wf);
    }
    return m.n_eff;
}

}  // namespace golightly
