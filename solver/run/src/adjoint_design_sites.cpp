// GoLightly adjoint (adjoint.hpp): a design region's E sites, their density and permittivity,
// the design applied to a scene, and the chain back to the density pixels.
#include "golightly/adjoint.hpp"
#include "golightly/adjoint_tensor.hpp"
#include "adjoint_internal.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_set>

#include "golightly/dispersion.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/grid.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"

namespace golightly::adjoint {

using namespace internal;

namespace {

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

/// TF/SF faces: their corrections scale with the site's cb, which the design changes.
/// `what` starts the message ("design region: it").
void internal::check_tfsf_faces(const Scene& scene, const DesignSites& sites, const std::string& what) {
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

}  // namespace golightly::adjoint
