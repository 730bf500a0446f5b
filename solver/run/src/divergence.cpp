// GoLightly run driver, divergence: growth watch, location and likely cause
// (divergence.hpp; run.hpp run_project "Divergence", DivergenceInfo).
#include "divergence.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>
#include <vector>

#include "golightly/dispersion.hpp"
#include "golightly/geometry.hpp"
#include "golightly/grid.hpp"
#include "golightly/units.hpp"

namespace golightly::detail {

// ------------------------------------------------------------------------ growth watch

bool GrowthWatch::diverged(double energy, bool sources_off) {
    last_ = energy;
    if (!armed_) {
        reference_ = std::max(reference_, energy);
        // armed at the first check after the sources ended that has a positive reference
        if (sources_off && reference_ > 0) armed_ = true;
        return false;
    }
    return energy > kDivergenceGrowth * reference_;
}

void GrowthWatch::rebase(double energy) { reference_ = std::max(reference_, energy); }

// ------------------------------------------------------------------------ location

DivergenceInfo locate_divergence(Engine& engine, const Scene& scene, const Project& project,
                                 const std::string& phase, bool reference_run) {
    DivergenceInfo info;
    info.phase = phase;
    info.step = engine.steps_done();
    info.time_fs = double(info.step) * scene.dt_s / units::fs;
    std::vector<Component> comps = electric_components(scene.polarization);
    for (Component c : magnetic_components(scene.polarization)) comps.push_back(c);
    if (scene.dimensions == 3) comps = {Component::Ex, Component::Ey, Component::Ez, Component::Hx, Component::Hy, Component::Hz};
    const std::size_t nx = std::size_t(std::max(1, scene.nx)), ny = std::size_t(std::max(1, scene.ny));
    // largest |value| over the components per cell; +inf marks a non-finite value
    std::vector<float> amp;
    std::int64_t best_count = 0;
    double best_abs = -1;
    std::vector<double> field;
    for (Component c : comps) {
        try {
            engine.get_field(c, field);
        } catch (const std::exception&) {
            continue;
        }
        if (amp.size() < field.size()) amp.resize(field.size(), 0.0f);
        std::int64_t count = 0;
        double si = 0, sj = 0, sk = 0;
        for (std::size_t k = 0; k < field.size(); ++k) {
            const double v = field[k];
            const int i = int(k % nx), j = int((k / nx) % ny);
            const int kz = int(k / (nx * ny));
            if (!std::isfinite(v)) {
                ++count;
                si += i;
                sj += j;
                sk += kz;
                amp[k] = INFINITY;
            } else {
                const double a = std::abs(v);
                if (float(a) > amp[k]) amp[k] = float(a);
                if (a > info.max_abs_finite) {
                    info.max_abs_finite = a;
                    if (best_count == 0 && a > best_abs) {
                        best_abs = a;
                        info.component = c;
                        info.i = i;
                        info.j = j;
                        info.k = kz;
                    }
                }
            }
        }
        info.nonfinite_values += count;
        if (count > best_count) {
            best_count = count;
            info.component = c;
            info.i = int(std::lround(si / double(count)));
            info.j = int(std::lround(sj / double(count)));
            info.k = int(std::lround(sk / double(count)));
        }
    }
    if (info.i >= 0) {
        const Vec3 off = yee_offset(info.component);
        info.x_um = scene.position_um(0, info.i + off.x);
        info.y_um = scene.position_um(1, info.j + off.y);
        if (scene.dimensions == 3) info.z_um = scene.position_um(2, info.k + off.z);
    }
    // the cell box: the non-finite cells, else those within kDivergenceBoxLevel of the peak
    const float level = info.nonfinite_values > 0 ? INFINITY : float(kDivergenceBoxLevel * info.max_abs_finite);
    int lo[3] = {1 << 30, 1 << 30, 1 << 30}, hi[3] = {-1, -1, -1};
    if (level > 0)
        for (std::size_t k = 0; k < amp.size(); ++k) {
            if (!(amp[k] >= level)) continue;
            const int p[3] = {int(k % nx), int((k / nx) % ny), int(k / (nx * ny))};
            for (int a = 0; a < 3; ++a) {
                lo[a] = std::min(lo[a], p[a]);
                hi[a] = std::max(hi[a], p[a]);
            }
        }
    if (hi[0] >= 0) {
        for (int a = 0; a < 3; ++a) {
            info.box_min[std::size_t(a)] = lo[a];
            info.box_max[std::size_t(a)] = hi[a];
        }
        const int dims = scene.dimensions == 3 ? 3 : 2;
        for (int a = 0; a < dims; ++a) {
            info.box_min_um[std::size_t(a)] = scene.position_um(a, lo[a]);
            info.box_max_um[std::size_t(a)] = scene.position_um(a, hi[a] + 1);
        }
    }
    classify_divergence(scene, project, reference_run, info);
    return info;
}

// ------------------------------------------------------------------------ classification

namespace {

std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3g", v);
    return b;
}

/// Nonzero winding of point q about the rings of `o`.
bool inside_outline(const Outline& o, Vec2 q) {
    int w = 0;
    for (const auto& ring : o) {
        const std::size_t n = ring.size();
        for (std::size_t k = 0; k < n; ++k) {
            const Vec2 a = ring[k], b = ring[(k + 1) % n];
            const double cross = (b.x - a.x) * (q.y - a.y) - (q.x - a.x) * (b.y - a.y);
            if (a.y <= q.y) {
                if (b.y > q.y && cross > 0) ++w;
            } else if (b.y <= q.y && cross < 0) {
                --w;
            }
        }
    }
    return w != 0;
}

/// The topmost layer of the run holding the point (um; z used in 3D), or nullptr.
const Layer* layer_at(const Project& project, bool reference_run, double x, double y, double z, double dx_um) {
    const bool three = project.domain.dimensions == 3;
    const double zz = three ? z : project.domain.slice_z;
    const std::vector<const Layer*> layers = select_layers(project, reference_run);
    for (auto it = layers.rbegin(); it != layers.rend(); ++it) {
        const Layer* layer = *it;
        for (const Shape& shape : layer->shapes) {
            const bool solid = shape.type == ShapeType::Sphere || shape.type == ShapeType::Box;
            if (three && !solid && layer->z) {
                const double z0 = std::min((*layer->z)[0], (*layer->z)[1]), z1 = std::max((*layer->z)[0], (*layer->z)[1]);
                if (zz < z0 || zz > z1) continue;
            }
            try {
                if (shape.type == ShapeType::Step) continue;
                if (shape.type == ShapeType::Raster) {
                    SampleGrid g;
                    g.nx = g.ny = 1;
                    g.x0_um = x;
                    g.y0_um = y;
                    g.dx_um = dx_um;
                    if (raster_coverage(shape, g).at(0) >= 0.5) return layer;
                    continue;
                }
                if (inside_outline(shape_outline_at(shape, zz, 1e-3 * dx_um), Vec2{x, y})) return layer;
            } catch (const std::exception&) {
                continue;
            }
        }
    }
    return nullptr;
}

/// The material with the largest coverage of the one-cell window at the point, or "".
std::string material_at(const Project& project, bool reference_run, double x, double y, double z, double dx_um) {
    try {
        Coverage cov;
        if (project.domain.dimensions == 3) {
            SampleGrid3 g;
            g.nx = g.ny = g.nz = 1;
            g.x0_um = x;
            g.y0_um = y;
            g.z0_um = z;
            g.dx_um = dx_um;
            cov = compute_coverage_3d(project, g, reference_run);
        } else {
            SampleGrid g;
            g.nx = g.ny = 1;
            g.x0_um = x;
            g.y0_um = y;
            g.dx_um = dx_um;
            cov = compute_coverage(project, g, reference_run);
        }
        std::string best;
        float f = -1;
        for (std::size_t m = 0; m < cov.material_ids.size(); ++m)
            if (!cov.fraction[m].empty() && cov.fraction[m][0] > f) {
                f = cov.fraction[m][0];
                best = cov.material_ids[m];
            }
        return best;
    } catch (const std::exception&) {
        return "";
    }
}

bool non_passive(const PoleSet& ps) {
    for (const PoleCoeffs& c : ps.poles)
        if (c.c3 < 0 || pole_damping(c) < 0) return true;
    return false;
}

bool in_pml(const Scene& s, const std::int64_t (&p)[3], int dims) {
    const std::int64_t n[3] = {s.nx, s.ny, s.nz};
    for (int a = 0; a < dims; ++a)
        if (s.boundary[a] == BoundaryKind::Pml && (p[a] < s.pml_lo[a] || p[a] >= n[a] - s.pml_hi[a])) return true;
    return false;
}

}  // namespace
}  // namespace golightly::detail

namespace golightly {

void classify_divergence(const Scene& s, const Project& project, bool reference_run, DivergenceInfo& info) {
    using namespace detail;
    const int dims = s.dimensions == 3 ? 3 : 2;
    if (info.i < 0) return;
    const bool have_materials = !s.table.empty();

    // ---- the media of the box's E cells: (table entry, pole set or -1, weight) -> the
    // cell of that medium nearest to the located cell
    struct Medium {
        std::int64_t dist2 = -1;
        int cell[3] = {0, 0, 0};
        int lo[3] = {1 << 30, 1 << 30, 1 << 30}, hi[3] = {-1, -1, -1};  ///< its cells' box
        bool bad = false;  ///< not passive, or unstable at this time step
    };
    std::map<std::tuple<int, int, double>, Medium> media;
    bool box_dispersive_in_pml = false;
    const std::size_t cells = s.cells();
    // a box of more than 2e7 cells (NaN over a large 3D grid) is sampled with a stride
    double box_cells = 1;
    for (int a = 0; a < 3; ++a) box_cells *= std::max(1, info.box_max[std::size_t(a)] - info.box_min[std::size_t(a)] + 1);
    const int stride = std::max(1, int(std::ceil(std::pow(box_cells / 2e7, 1.0 / dims))));
    for (int c = 0; c < 3 && have_materials; ++c) {
        const auto& map = s.material_index[c];
        if (map.size() != cells) continue;
        const DispersiveCells& dc = s.dispersive[c];
        for (int k = info.box_min[2]; k <= std::max(info.box_min[2], info.box_max[2]); k += stride)
            for (int j = info.box_min[1]; j <= info.box_max[1]; j += stride)
                for (int i = info.box_min[0]; i <= info.box_max[0]; i += stride) {
                    const std::int64_t p[3] = {i, j, k};
                    const CellIndex cell = (CellIndex(k) * s.ny + j) * s.nx + i;
                    if (cell < 0 || std::size_t(cell) >= cells) continue;
                    int set = -1;
                    double w = 1.0;
                    const auto it = std::lower_bound(dc.cells.begin(), dc.cells.end(), cell);
                    if (it != dc.cells.end() && *it == cell) {
                        const std::size_t q = std::size_t(it - dc.cells.begin());
                        set = dc.pole_set[q];
                        w = std::round(dc.weight[q] * 1e3) / 1e3;
                        if (in_pml(s, p, dims)) box_dispersive_in_pml = true;
                    }
                    Medium& m = media[{int(map[std::size_t(cell)]), set, w}];
                    const std::int64_t d2 = std::int64_t(i - info.i) * (i - info.i) +
                                            std::int64_t(j - info.j) * (j - info.j) +
                                            std::int64_t(k - info.k) * (k - info.k);
                    const int at[3] = {i, j, k};
                    for (int a = 0; a < 3; ++a) {
                        m.lo[a] = std::min(m.lo[a], at[a]);
                        m.hi[a] = std::max(m.hi[a], at[a]);
                    }
                    if (m.dist2 < 0 || d2 < m.dist2) {
                        m.dist2 = d2;
                        m.cell[0] = i;
                        m.cell[1] = j;
                        m.cell[2] = k;
                    }
                }
    }
    bool scene_dispersive_in_pml = false;
    for (int c = 0; c < 3 && !scene_dispersive_in_pml; ++c)
        for (CellIndex cell : s.dispersive[c].cells) {
            const std::int64_t p[3] = {cell % s.nx, (cell / s.nx) % s.ny, cell / (std::int64_t(s.nx) * s.ny)};
            if (in_pml(s, p, dims)) {
                scene_dispersive_in_pml = true;
                break;
            }
        }

    // ---- the culprit medium in the box: a pole that is not passive, else the medium with
    // the largest amplification above 1
    const Medium* culprit = nullptr;  // the bad medium nearest to the located cell
    bool non_passive_in_box = false;
    for (auto& [key, m] : media) {
        const int set = std::get<1>(key);
        if (set >= 0 && std::size_t(set) < s.pole_sets.size() && non_passive(s.pole_sets[std::size_t(set)])) {
            m.bad = true;
            non_passive_in_box = true;
            if (!culprit || m.dist2 < culprit->dist2) culprit = &m;
        }
    }
    double worst = 1.0, worst_eps = 1.0;
    bool worst_dispersive = false;
    if (!culprit) {
        int examined = 0;
        for (auto& [key, m] : media) {
            if (++examined > 256) break;  // a box over a graded structure: the first 256 media
            const auto [t, set, w] = key;
            if (t < 0 || std::size_t(t) >= s.table.size()) continue;
            const EUpdateCoeffs& e = s.table[std::size_t(t)];
            const PoleSet none;
            const PoleSet& ps = set >= 0 && std::size_t(set) < s.pole_sets.size() ? s.pole_sets[std::size_t(set)] : none;
            double g = 1.0;
            try {
                g = amplification_factor(e.eps_r, e.sigma, ps, w, s.courant, dims, s.dt_s);
            } catch (const std::exception&) {
                continue;
            }
            if (!(g > 1.0 + 1e-6)) continue;
            m.bad = true;
            if (!culprit || m.dist2 < culprit->dist2) culprit = &m;
            if (g > worst) {
                worst = g;
                worst_eps = e.eps_r;
                worst_dispersive = set >= 0;
            }
        }
    }
    // the located cell moves to the nearest cell of a bad medium (the peak |field| may lie
    // just outside the medium that feeds it)
    if (culprit && culprit->dist2 > 0) {
        info.i = culprit->cell[0];
        info.j = culprit->cell[1];
        info.k = culprit->cell[2];
        const Vec3 off = yee_offset(info.component);
        info.x_um = s.position_um(0, info.i + off.x);
        info.y_um = s.position_um(1, info.j + off.y);
        if (dims == 3) info.z_um = s.position_um(2, info.k + off.z);
    }
    // non-finite values spread a cell per step from where they began: their box becomes
    // the box of the bad media's cells in it
    if (culprit && info.nonfinite_values > 0) {
        int lo[3] = {1 << 30, 1 << 30, 1 << 30}, hi[3] = {-1, -1, -1};
        for (const auto& [key, m] : media)
            if (m.bad)
                for (int a = 0; a < 3; ++a) {
                    lo[a] = std::min(lo[a], m.lo[a]);
                    hi[a] = std::max(hi[a], m.hi[a]);
                }
        for (int a = 0; a < 3; ++a) {
            info.box_min[std::size_t(a)] = lo[a];
            info.box_max[std::size_t(a)] = hi[a];
        }
        for (int a = 0; a < dims; ++a) {
            info.box_min_um[std::size_t(a)] = s.position_um(a, lo[a]);
            info.box_max_um[std::size_t(a)] = s.position_um(a, hi[a] + 1);
        }
    }

    // ---- the region of the located cell
    const int n[3] = {s.nx, s.ny, s.nz};
    const int idx[3] = {info.i, info.j, info.k};
    const char* axes = "xyz";
    std::string faces;
    for (int a = 0; a < dims; ++a) {
        if (s.boundary[a] != BoundaryKind::Pml) continue;
        std::string face;
        if (idx[a] < s.pml_lo[a]) face = std::string(1, axes[a]) + "-low";
        if (idx[a] >= n[a] - s.pml_hi[a]) face = std::string(1, axes[a]) + "-high";
        if (!face.empty()) faces += (faces.empty() ? "" : ", ") + face;
    }
    if (have_materials) {
        info.material = material_at(project, reference_run, info.x_um, info.y_um, info.z_um, s.dx_um);
        const Layer* layer = layer_at(project, reference_run, info.x_um, info.y_um, info.z_um, s.dx_um);
        if (layer) {
            info.layer = layer->name;
            info.material = layer->material;  // the layer's own material, not a mixed cell's majority
        }
    }
    if (!faces.empty()) {
        info.region_kind = "pml";
        info.region_name = faces;
    } else if (!info.layer.empty()) {
        info.region_kind = "material";
        info.region_name = info.material;
    } else if (have_materials) {
        info.region_kind = "background";
        info.region_name = project.domain.background;
    }

    // ---- the cause
    const std::string where = info.material.empty() ? std::string("there") : "in material '" + info.material + "'";
    bool scene_non_passive = false;
    for (const PoleSet& ps : s.pole_sets) scene_non_passive = scene_non_passive || non_passive(ps);
    if (non_passive_in_box || scene_non_passive) {
        info.cause = "non_passive_pole";
        info.cause_text = std::string("a dispersive pole ") + (non_passive_in_box ? where : "in the scene") +
                          " is not passive (damping gamma < 0 or omega_p^2 < 0): it amplifies the fields "
                          "instead of absorbing them; use gamma >= 0 and omega_p^2 >= 0 (a fit with "
                          "passive poles)";
        return;
    }
    const double s_max = 1.0 / std::sqrt(double(dims));
    if (s.courant >= s_max) {
        info.cause = "courant";
        info.cause_text = "the Courant number " + num(s.courant) + " is at or above the " + std::to_string(dims) +
                          "D limit 1/sqrt(" + std::to_string(dims) + ") = " + num(s_max) + ": lower run.courant";
        return;
    }
    if (culprit) {
        info.cause = "courant";
        info.cause_text =
            "the time step is too large for the medium " + where + " (epsilon_inf " + num(worst_eps) +
            (worst_dispersive ? " with its poles" : "") + " at Courant number " + num(s.courant) +
            ": the update amplifies by " + num(worst) + " per step; " +
            (worst_dispersive ? "sum omega_p^2 dt^2 + " + std::to_string(4 * dims) +
                                    " S^2 must stay below about 4 epsilon_inf): lower run.courant or the cell size, "
                                    "or drop poles far above the spectrum"
                              : "the limit there is sqrt(epsilon_inf / " + std::to_string(dims) + ") = " +
                                    num(std::sqrt(std::max(0.0, worst_eps) / dims)) + "): lower run.courant");
        return;
    }
    if (info.region_kind == "pml" && (box_dispersive_in_pml || scene_dispersive_in_pml)) {
        info.cause = "dispersive_in_pml";
        info.cause_text = "a dispersive material reaches into the PML (" + info.region_name +
                          "), which is not designed for dispersive media: end the material at the PML or "
                          "make the PML thicker and its grading gentler";
        return;
    }
    info.cause = "unknown";
    info.cause_text = "no pole that is not passive, no medium unstable at this time step and no dispersive "
                      "material in the PML was found there; try a smaller run.courant or cell size";
}

std::string divergence_message(const DivergenceInfo& d, int dimensions) {
    const bool three = dimensions == 3;
    char b[512];
    std::string m = "the fields diverged in the " + d.phase + " run at step " + std::to_string(d.step);
    std::snprintf(b, sizeof b, " (%.2f fs", d.time_fs);
    m += b;
    if (d.detected_by == "growth" && d.energy_growth > 0) {
        std::snprintf(b, sizeof b, "; the field energy grew %.3g times after the sources ended", d.energy_growth);
        m += b;
    } else if (d.nonfinite_values > 0) {
        m += "; " + std::to_string(d.nonfinite_values) + " field values are NaN or Inf";
    }
    m += ")";
    if (d.i >= 0) {
        if (three)
            std::snprintf(b, sizeof b, " near x = %.4g um, y = %.4g um, z = %.4g um (%s, cell %d,%d,%d)", d.x_um, d.y_um,
                          d.z_um, to_string(d.component).c_str(), d.i, d.j, d.k);
        else
            std::snprintf(b, sizeof b, " near x = %.4g um, y = %.4g um (%s, cell %d,%d)", d.x_um, d.y_um,
                          to_string(d.component).c_str(), d.i, d.j);
        m += b;
    }
    if (d.region_kind == "pml") {
        m += " in the PML (" + d.region_name + ")";
        if (!d.material.empty()) m += " of material '" + d.material + "'";
    } else if (d.region_kind == "material") {
        m += " in material '" + d.region_name + "'";
        if (!d.layer.empty()) m += " (layer '" + d.layer + "')";
    } else if (d.region_kind == "background") {
        m += " in the background ('" + d.region_name + "')";
    }
    if (d.box_max[0] >= d.box_min[0]) {
        if (three)
            std::snprintf(b, sizeof b, ", cells %d..%d x %d..%d x %d..%d", d.box_min[0], d.box_max[0], d.box_min[1],
                          d.box_max[1], d.box_min[2], d.box_max[2]);
        else
            std::snprintf(b, sizeof b, ", cells %d..%d x %d..%d", d.box_min[0], d.box_max[0], d.box_min[1], d.box_max[1]);
        m += b;
    }
    if (!d.cause_text.empty()) m += "; likely cause: " + d.cause_text;
    return m;
}

}  // namespace golightly
