// GoLightly geometry: layer selection, per-material coverage fractions and the averaged
// permittivity each E component sees.
#include <algorithm>
#include <memory>
#include <cmath>
#include <stdexcept>
#include <cmath>

#include "geometry_internal.hpp"
#include "golightly/errors.hpp"
#include "golightly/step_import.hpp"

namespace golightly {

std::vector<const Layer*> select_layers(const Project& project, bool reference_run) {
    std::vector<const Layer*> out;
    const auto& refs = project.run.normalization.reference_layers;
    for (const Layer& layer : project.layers) {
        bool take;
        if (reference_run) {
            // Reference layers are named explicitly; they are often hidden in the editor
            // (reference_only), so visibility does not matter here.
            take = std::find(refs.begin(), refs.end(), layer.name) != refs.end();
        } else {
            take = layer.visible && !layer.reference_only;
        }
        if (take && project.domain.dimensions == 2 && layer.z) {
            const double z0 = std::min((*layer.z)[0], (*layer.z)[1]), z1 = std::max((*layer.z)[0], (*layer.z)[1]);
            if (project.domain.slice_z < z0 || project.domain.slice_z > z1) take = false;
        }
        if (take) out.push_back(&layer);
    }
    return out;
}

Coverage compute_coverage(const Project& project, const SampleGrid& grid, bool reference_run) {
    return detail::coverage_with_normals(project, grid, reference_run, nullptr, nullptr);
}

namespace detail {

std::vector<char> staircase_flags(const std::vector<std::string>& ids, const std::vector<std::string>& staircase) {
    std::vector<char> out(ids.size(), 0);
    for (std::size_t q = 0; q < ids.size(); ++q)
        out[q] = std::find(staircase.begin(), staircase.end(), ids[q]) != staircase.end();
    return out;
}

std::string layer_path(const Project& project, const Layer* layer) {
    return "layers[" + std::to_string(layer - project.layers.data()) + "]";
}

MaterialIndex index_materials(const Project& project, const std::vector<const Layer*>& layers) {
    const Material* bg = project.find_material(project.domain.background);
    if (!bg) throw ProjectError("", "domain.background", "unknown material id '" + project.domain.background + "'");
    MaterialIndex mi;
    mi.ids.push_back(project.domain.background);
    mi.eps.push_back(bg->epsilon_inf);
    for (const Layer* layer : layers) {
        const Material* mat = project.find_material(layer->material);
        if (!mat)
            throw ProjectError("", layer_path(project, layer) + ".material", "unknown material id '" + layer->material + "'");
        int m = int(std::find(mi.ids.begin(), mi.ids.end(), layer->material) - mi.ids.begin());
        if (m == int(mi.ids.size())) {
            mi.ids.push_back(layer->material);
            mi.eps.push_back(mat->epsilon_inf);
        }
        mi.layer_material.push_back(m);
    }
    return mi;
}

Compositor::Compositor(const SampleGrid& grid, std::vector<double> eps_of, bool normals)
    : grid_(grid), eps_of_(std::move(eps_of)), normals_(normals) {
    const std::size_t n = std::size_t(grid.nx) * grid.ny;
    frac.resize(eps_of_.size());
    frac[0].assign(n, 1.0f);
    allocated_.push_back(0);
    row_.assign(grid.nx + 2, 0.0);
    scratch_.assign(grid.nx + 2, 0.0);
    if (normals_) {
        normal_x.assign(n, 0.0f);
        normal_y.assign(n, 0.0f);
        gx_row_.assign(grid.nx + 2, 0.0);
        gy_row_.assign(grid.nx + 2, 0.0);
    }
}

// Interface normals (optional): g = window integral of grad eps_inf, composited as the
// fractions are (eps = eps_below (1 - chi) + eps_L chi, so grad eps = (1 - chi)
// grad eps_below + (eps_L - eps_below) grad chi, products taken as window means):
//   g <- (1 - c) g + (eps_L - <eps>_below) G_L,
// G_L the window integral of grad chi_L in cell units: exact from the outline pieces
// for vector and step shapes (AreaAccumulator::add_row_normals), central differences of
// the layer's coverage for a layer holding a raster.
void Compositor::add_layer(int m, const AreaAccumulator& acc, const std::vector<RasterResampler>& rasters) {
    const SampleGrid& grid = grid_;
    const std::size_t n = std::size_t(grid.nx) * grid.ny;
    const double eps_layer = eps_of_[m];
    std::vector<double>& row = row_;
    // A layer holding a raster: its whole coverage first, for the gradient.
    const bool raster_gradient = normals_ && !rasters.empty();
    if (raster_gradient) {
        layer_cov_.assign(n, 0.0);
        for (int j = 0; j < grid.ny; ++j) {
            double* lc = layer_cov_.data() + std::size_t(j) * grid.nx;
            if (!acc.row_empty(j)) acc.row_coverage(j, lc, scratch_.data());
            for (const auto& r : rasters)
                if (j >= r.j_begin() && j < r.j_end()) r.add_row(j, lc);
            for (int i = 0; i < grid.nx; ++i) lc[i] = std::clamp(lc[i], 0.0, 1.0);
        }
    }
    auto layer_cov_at = [&](int i, int j) {
        return layer_cov_[std::size_t(std::clamp(j, 0, grid.ny - 1)) * grid.nx + std::clamp(i, 0, grid.nx - 1)];
    };

    for (int j = 0; j < grid.ny; ++j) {
        int lo = grid.nx, hi = 0;
        if (!acc.row_empty(j)) {
            const auto [a, b] = acc.row_coverage(j, row.data(), scratch_.data());
            if (a < b) lo = std::min(lo, a), hi = std::max(hi, b);
        }
        int rlo = lo, rhi = hi;
        for (const auto& r : rasters) {
            if (j < r.j_begin() || j >= r.j_end()) continue;
            const auto [a, b] = r.add_row(j, row.data());  // adds into the row
            if (a < b) rlo = std::min(rlo, a), rhi = std::max(rhi, b);
        }
        if (rlo >= rhi) continue;
        if (frac[m].empty()) {
            frac[m].assign(n, 0.0f);
            allocated_.push_back(m);
        }
        if (normals_ && !raster_gradient) acc.add_row_normals(j, gx_row_.data(), gy_row_.data());
        float* fm = frac[m].data() + std::size_t(j) * grid.nx;
        for (int i = rlo; i < rhi; ++i) {
            const double c = std::min(1.0, row[i]);
            row[i] = 0.0;  // leave the row buffer zeroed for the next row
            const std::size_t idx = std::size_t(j) * grid.nx + i;
            if (normals_) {
                double gxl = gx_row_[i], gyl = gy_row_[i];
                if (raster_gradient) {
                    const double sx = (i == 0 || i == grid.nx - 1) ? 1.0 : 0.5;
                    const double sy = (j == 0 || j == grid.ny - 1) ? 1.0 : 0.5;
                    gxl = grid.nx > 1 ? sx * (layer_cov_at(i + 1, j) - layer_cov_at(i - 1, j)) : 0.0;
                    gyl = grid.ny > 1 ? sy * (layer_cov_at(i, j + 1) - layer_cov_at(i, j - 1)) : 0.0;
                }
                if (gxl != 0.0 || gyl != 0.0 || c > 0) {
                    double below = 0;
                    for (int q : allocated_) below += frac[q][idx] * eps_of_[q];
                    const double w = eps_layer - below, keep = 1.0 - std::max(c, 0.0);
                    normal_x[idx] = float(keep * normal_x[idx] + w * gxl);
                    normal_y[idx] = float(keep * normal_y[idx] + w * gyl);
                }
            }
            if (!(c > 0)) continue;
            if (c >= 1.0) {
                for (int q : allocated_) frac[q][idx] = 0.0f;
                fm[i] = 1.0f;
            } else {
                const float keep = float(1.0 - c);
                for (int q : allocated_) frac[q][idx] *= keep;
                fm[i] += float(c);
            }
        }
        if (normals_) {
            std::fill(gx_row_.begin(), gx_row_.end(), 0.0);
            std::fill(gy_row_.begin(), gy_row_.end(), 0.0);
        }
    }
}

void Compositor::composite_exact(const std::vector<std::pair<int, const UnionBuilder*>>& layers) {
    const SampleGrid& grid = grid_;
    const int nx = grid.nx;
    const std::size_t n = std::size_t(nx) * grid.ny;
    for (std::size_t q = 1; q < frac.size(); ++q) frac[q].clear();
    allocated_.assign(1, 0);
    // the background's share is added at the end (a layer may be of the background's
    // material: its visible part adds to frac[0] too)
    frac[0].assign(n, layers.empty() ? 1.0f : 0.0f);
    if (normals_) {
        normal_x.assign(n, 0.0f);
        normal_y.assign(n, 0.0f);
    }
    if (layers.empty()) return;
    // Per row: the coverage and normals of U_(k+1) (prev) and U_k (cur), row by row of two
    // accumulators; the normals summed in double and stored once at the end.
    std::vector<double> gx, gy;
    if (normals_) gx.assign(n, 0.0), gy.assign(n, 0.0);
    std::vector<double> cur(nx + 2), prev(nx + 2), gcx(nx + 2), gcy(nx + 2), gpx(nx + 2), gpy(nx + 2);
    UnionBuilder above(grid);
    std::unique_ptr<AreaAccumulator> acc_prev;
    for (std::size_t k = layers.size(); k-- > 0;) {
        const int m = layers[k].first;
        above.append(*layers[k].second, above.groups());
        auto acc = std::make_unique<AreaAccumulator>(grid);
        above.deposit(*acc);
        const double eps_m = eps_of_[m];
        for (int j = 0; j < grid.ny; ++j) {
            const bool row_cur = !acc->row_empty(j), row_prev = acc_prev && !acc_prev->row_empty(j);
            if (!row_cur && !row_prev) continue;
            std::fill(cur.begin(), cur.end(), 0.0);
            std::fill(prev.begin(), prev.end(), 0.0);
            if (row_cur) acc->row_coverage(j, cur.data(), scratch_.data());
            if (row_prev) acc_prev->row_coverage(j, prev.data(), scratch_.data());
            for (int i = 0; i < nx; ++i) {
                const double d = cur[i] - prev[i];  // the visible part of layer k
                if (!(d > 0)) continue;
                if (frac[m].empty()) {
                    frac[m].assign(n, 0.0f);
                    allocated_.push_back(m);
                }
                frac[m][std::size_t(j) * nx + i] += float(d);
            }
            if (!normals_) continue;
            std::fill(gcx.begin(), gcx.end(), 0.0), std::fill(gcy.begin(), gcy.end(), 0.0);
            std::fill(gpx.begin(), gpx.end(), 0.0), std::fill(gpy.begin(), gpy.end(), 0.0);
            if (row_cur) acc->add_row_normals(j, gcx.data(), gcy.data());
            if (row_prev) acc_prev->add_row_normals(j, gpx.data(), gpy.data());
            for (int i = 0; i < nx; ++i) {
                const std::size_t idx = std::size_t(j) * nx + i;
                gx[idx] += eps_m * (gcx[i] - gpx[i]);
                gy[idx] += eps_m * (gcy[i] - gpy[i]);
            }
        }
        acc_prev = std::move(acc);
    }
    // the background: what no layer covers
    const double eps_bg = eps_of_[0];
    for (int j = 0; j < grid.ny; ++j) {
        float* f0 = frac[0].data() + std::size_t(j) * nx;
        if (acc_prev->row_empty(j)) {
            for (int i = 0; i < nx; ++i) f0[i] += 1.0f;
            continue;
        }
        std::fill(cur.begin(), cur.end(), 0.0);
        acc_prev->row_coverage(j, cur.data(), scratch_.data());
        for (int i = 0; i < nx; ++i) f0[i] += float(std::max(0.0, 1.0 - cur[i]));
        if (!normals_) continue;
        std::fill(gcx.begin(), gcx.end(), 0.0), std::fill(gcy.begin(), gcy.end(), 0.0);
        acc_prev->add_row_normals(j, gcx.data(), gcy.data());
        for (int i = 0; i < nx; ++i) {
            const std::size_t idx = std::size_t(j) * nx + i;
            gx[idx] -= eps_bg * gcx[i];
            gy[idx] -= eps_bg * gcy[i];
        }
    }
    if (normals_)
        for (std::size_t idx = 0; idx < n; ++idx) normal_x[idx] = float(gx[idx]), normal_y[idx] = float(gy[idx]);
}

Coverage coverage_with_normals(const Project& project, const SampleGrid& grid, bool reference_run,
                               std::vector<float>* normal_x, std::vector<float>* normal_y) {
    if (!(grid.dx_um > 0) || grid.nx <= 0 || grid.ny <= 0)
        throw std::invalid_argument("compute_coverage: empty sample grid");
    const std::vector<const Layer*> layers = select_layers(project, reference_run);
    const MaterialIndex mi = index_materials(project, layers);
    const bool normals = normal_x && normal_y;
    Compositor comp(grid, mi.eps, normals);
    const double tol = detail::coverage_tolerance_um(grid.dx_um);
    const double z = project.domain.slice_z;
    struct Region {
        int material;
        std::unique_ptr<detail::UnionBuilder> uni;
        std::vector<detail::RasterResampler> rasters;
    };
    std::vector<Region> regions;
    bool any_raster = false;

    for (std::size_t l = 0; l < layers.size(); ++l) {
        const Layer* layer = layers[l];
        detail::UnionBuilder uni(grid);
        std::vector<detail::RasterResampler> rasters;
        int group = 0;
        for (std::size_t s = 0; s < layer->shapes.size(); ++s) {
            const Shape& shape = layer->shapes[s];
            const std::string path = layer_path(project, layer) + ".shapes[" + std::to_string(s) + "]";
            try {
                if (shape.type == ShapeType::Step) {
                    // the solids' section at slice_z; curved edges to 1e-3 of a cell
                    // (sections are cached, so the E components' grids share them)
                    for (const Outline& o : step_section(shape, z, 1e-3 * grid.dx_um)) uni.add_outline(o, group++);
                } else if (shape.type == ShapeType::Raster) {
                    rasters.emplace_back(shape, grid);
                } else if (shape.type == ShapeType::Sphere || shape.type == ShapeType::Box) {
                    uni.add_outline(solid_section_outline(shape, z, tol), group++);
                } else {
                    Outline o = shape_outline(shape, tol);
                    // a sidewall cut at slice_z (reference plane: the layer's lower z)
                    if (layer->sidewall_angle_deg != 0 && layer->z) {
                        const double z0 = std::min((*layer->z)[0], (*layer->z)[1]);
                        o = offset_outline(o, (z - z0) * std::tan(layer->sidewall_angle_deg * M_PI / 180.0));
                    }
                    if (shape.type == ShapeType::Gds) {  // one group per GDSII element: they may overlap
                        for (auto& ring : o) uni.add_outline(Outline{std::move(ring)}, group++);
                    } else {
                        uni.add_outline(o, group++);
                    }
                }
            } catch (const ProjectError&) {
                throw;
            } catch (const std::exception& e) {
                throw ProjectError("", path, e.what());
            }
        }
        if (uni.empty() && rasters.empty()) continue;
        // composited below, once every layer is known (exactly where no layer holds a raster)
        any_raster = any_raster || !rasters.empty();
        regions.push_back({mi.layer_material[l], std::make_unique<detail::UnionBuilder>(std::move(uni)), std::move(rasters)});
    }
    if (!any_raster) {
        std::vector<std::pair<int, const detail::UnionBuilder*>> exact;
        for (const auto& r : regions) exact.push_back({r.material, r.uni.get()});
        comp.composite_exact(exact);
    } else {
        // a painted raster has no outline to take a union with: its coverage is composited
        // over what lies below as an independent share of the window (add_layer), and so
        // are the layers of such a section
        for (const auto& r : regions) {
            detail::AreaAccumulator acc(grid);
            r.uni->deposit(acc);
            comp.add_layer(r.material, acc, r.rasters);
        }
    }

    Coverage out;
    for (std::size_t q = 0; q < mi.ids.size(); ++q) {
        if (q != 0 && comp.frac[q].empty()) continue;  // never covered anything
        out.material_ids.push_back(mi.ids[q]);
        out.fraction.push_back(std::move(comp.frac[q]));
    }
    if (normals) {
        *normal_x = std::move(comp.normal_x);
        *normal_y = std::move(comp.normal_y);
    }
    return out;
}

}  // namespace detail

AveragedMedium average_medium(const Project& project, const SampleGrid& grid, Component e_component,
                              bool subpixel, bool reference_run, const std::vector<std::string>& staircase_materials) {
    const bool te = e_component == Component::Ex || e_component == Component::Ey;
    std::vector<float> gnx, gny;
    Coverage cov = (subpixel && te) ? detail::coverage_with_normals(project, grid, reference_run, &gnx, &gny)
                                    : compute_coverage(project, grid, reference_run);
    const std::size_t nm = cov.material_ids.size();
    std::vector<double> eps(nm), sig(nm);
    for (std::size_t q = 0; q < nm; ++q) {
        const Material* mat = project.find_material(cov.material_ids[q]);
        eps[q] = mat->epsilon_inf;
        sig[q] = mat->conductivity;
    }
    const int nx = grid.nx, ny = grid.ny;
    const std::size_t n = std::size_t(nx) * ny;
    AveragedMedium out;
    out.eps_r.assign(n, 0.0);
    out.sigma.assign(n, 0.0);
    const std::vector<char> stair = detail::staircase_flags(cov.material_ids, staircase_materials);
    // Staircase: the material with the largest fraction of the window (first on ties).
    auto staircase = [&](std::size_t idx) {
        std::size_t best = 0;
        for (std::size_t q = 1; q < nm; ++q)
            if (cov.fraction[q][idx] > cov.fraction[best][idx]) best = q;
        out.eps_r[idx] = eps[best];
        out.sigma[idx] = sig[best];
    };

    if (!subpixel) {
        for (std::size_t idx = 0; idx < n; ++idx) staircase(idx);
        return out;
    }
    if (te) out.inv_eps_offdiag.assign(n, 0.0);

    for (std::size_t idx = 0; idx < n; ++idx) {
        bool cut_stair = false;
        for (std::size_t q = 0; q < nm && !cut_stair; ++q)
            cut_stair = stair[q] && cov.fraction[q][idx] > 0.0f && cov.fraction[q][idx] < 1.0f;
        if (cut_stair) {
            staircase(idx);
            continue;
        }
        double mean = 0, inv_sum = 0, sigma = 0;
        int uniform = -1;
        for (std::size_t q = 0; q < nm; ++q) {
            const double f = cov.fraction[q][idx];
            if (f == 1.0) uniform = int(q);
            mean += f * eps[q];
            inv_sum += f / eps[q];
            sigma += f * sig[q];
        }
        if (uniform >= 0) {  // one material: exactly its values
            out.eps_r[idx] = eps[uniform];
            out.sigma[idx] = sig[uniform];
            continue;
        }
        out.sigma[idx] = sigma;
        if (!te) {
            out.eps_r[idx] = mean;  // field parallel to every interface in 2D
            out.cut_normal_sq.emplace_back(idx, 0.0f);
            continue;
        }
        // Farjadpour et al., Opt. Lett. 31, 2972 (2006), eq. 1: with n the interface normal
        // and P = n n^T, eps^-1 = P <1/eps> + (1 - P) <eps>^-1, i.e.
        //   ixx = nx^2 a + (1 - nx^2) b,  iyy = ny^2 a + (1 - ny^2) b,  ixy = nx ny (a - b),
        // a = <1/eps>, b = 1/<eps>. n: the window integral of grad eps (exact geometry for
        // vector/step shapes, coverage gradient for rasters; coverage_with_normals).
        const double gx = gnx[idx], gy = gny[idx];
        const double g2 = gx * gx + gy * gy;
        if (!(g2 > 1e-18 * mean * mean)) {  // no resolvable normal (e.g. cancelling edges)
            out.eps_r[idx] = mean;
            out.cut_normal_sq.emplace_back(idx, 0.0f);
            continue;
        }
        const double a = inv_sum, b = 1.0 / mean;
        const double gd = e_component == Component::Ex ? gx : gy;
        const double p = gd * gd / g2;
        out.cut_normal_sq.emplace_back(idx, float(p));
        out.eps_r[idx] = 1.0 / (p * a + (1.0 - p) * b);
        out.inv_eps_offdiag[idx] = gx * gy / g2 * (a - b);
    }
    return out;
}

std::map<std::string, double> material_areas_um2(const Project& project, double cell_um, bool reference_run) {
    if (!(cell_um > 0)) throw std::invalid_argument("material_areas_um2: cell size must be > 0");
    SampleGrid grid;
    grid.dx_um = cell_um;
    grid.nx = std::max(1, int(std::lround(project.domain.size[0] / cell_um)));
    grid.ny = std::max(1, int(std::lround(project.domain.size[1] / cell_um)));
    grid.x0_um = 0.5 * cell_um;
    grid.y0_um = 0.5 * cell_um;
    const Coverage cov = compute_coverage(project, grid, reference_run);
    std::map<std::string, double> areas;
    const double cell_area = cell_um * cell_um;
    for (std::size_t q = 0; q < cov.material_ids.size(); ++q) {
        double s = 0;
        for (float f : cov.fraction[q]) s += f;
        areas[cov.material_ids[q]] += s * cell_area;
    }
    return areas;
}

}  // namespace golightly
