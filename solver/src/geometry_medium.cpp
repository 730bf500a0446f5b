// GoLightly geometry: layer selection, per-material coverage fractions and the averaged
// permittivity each E component sees.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "geometry_internal.hpp"
#include "golightly/errors.hpp"
#include "golightly/step_import.hpp"

namespace golightly {

namespace {

/// Material by id, "air" implicit (eps 1) when not listed. nullptr if unknown.
const Material* lookup_material(const Project& project, const std::string& id) {
    for (const Material& m : project.materials)
        if (m.id == id) return &m;
    static const Material air = [] {
        Material m;
        m.id = "air";
        m.name = "Air";
        return m;
    }();
    return id == "air" ? &air : nullptr;
}

std::string layer_path(const Project& project, const Layer* layer) {
    return "layers[" + std::to_string(layer - project.layers.data()) + "]";
}

}  // namespace

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
    if (!(grid.dx_um > 0) || grid.nx <= 0 || grid.ny <= 0)
        throw std::invalid_argument("compute_coverage: empty sample grid");
    const std::size_t n = std::size_t(grid.nx) * grid.ny;
    const std::vector<const Layer*> layers = select_layers(project, reference_run);

    if (!lookup_material(project, project.domain.background))
        throw ProjectError("", "domain.background", "unknown material id '" + project.domain.background + "'");

    // All candidate materials, background first; arrays allocated when first covered.
    std::vector<std::string> ids{project.domain.background};
    std::vector<std::vector<float>> frac(1);
    frac[0].assign(n, 1.0f);
    std::vector<int> allocated{0};  // indices into ids with an array

    const double tol = detail::coverage_tolerance_um(grid.dx_um);
    std::vector<double> row(grid.nx + 2, 0.0), scratch(grid.nx + 2, 0.0);

    for (const Layer* layer : layers) {
        if (!lookup_material(project, layer->material))
            throw ProjectError("", layer_path(project, layer) + ".material",
                               "unknown material id '" + layer->material + "'");
        int m = int(std::find(ids.begin(), ids.end(), layer->material) - ids.begin());
        if (m == int(ids.size())) {
            ids.push_back(layer->material);
            frac.emplace_back();
        }
        detail::AreaAccumulator acc(grid);
        std::vector<detail::RasterResampler> rasters;
        bool any_vector = false;
        for (std::size_t s = 0; s < layer->shapes.size(); ++s) {
            const Shape& shape = layer->shapes[s];
            const std::string path = layer_path(project, layer) + ".shapes[" + std::to_string(s) + "]";
            try {
                if (shape.type == ShapeType::Step) {
                    // the solids' section at slice_z; curved edges to 1e-3 of a cell
                    // (sections are cached, so the E components' grids share them)
                    for (const Outline& o : step_section(shape, project.domain.slice_z, 1e-3 * grid.dx_um))
                        acc.add_outline(o);
                    any_vector = true;
                    continue;
                }
                if (shape.type == ShapeType::Raster) {
                    rasters.emplace_back(shape, grid);
                } else {
                    acc.add_outline(shape_outline(shape, tol));
                    any_vector = true;
                }
            } catch (const ProjectError&) {
                throw;
            } catch (const std::exception& e) {
                throw ProjectError("", path, e.what());
            }
        }
        if (!any_vector && rasters.empty()) continue;

        for (int j = 0; j < grid.ny; ++j) {
            int lo = grid.nx, hi = 0;
            if (!acc.row_empty(j)) {
                const auto [a, b] = acc.row_coverage(j, row.data(), scratch.data());
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
                allocated.push_back(m);
            }
            float* fm = frac[m].data() + std::size_t(j) * grid.nx;
            for (int i = rlo; i < rhi; ++i) {
                const double c = std::min(1.0, row[i]);
                row[i] = 0.0;  // leave the row buffer zeroed for the next row
                if (!(c > 0)) continue;
                const std::size_t idx = std::size_t(j) * grid.nx + i;
                if (c >= 1.0) {
                    for (int q : allocated) frac[q][idx] = 0.0f;
                    fm[i] = 1.0f;
                } else {
                    const float keep = float(1.0 - c);
                    for (int q : allocated) frac[q][idx] *= keep;
                    fm[i] += float(c);
                }
            }
        }
    }

    Coverage out;
    for (std::size_t q = 0; q < ids.size(); ++q) {
        if (q != 0 && frac[q].empty()) continue;  // never covered anything
        out.material_ids.push_back(ids[q]);
        out.fraction.push_back(std::move(frac[q]));
    }
    return out;
}

AveragedMedium average_medium(const Project& project, const SampleGrid& grid, Component e_component,
                              bool subpixel, bool reference_run) {
    Coverage cov = compute_coverage(project, grid, reference_run);
    const std::size_t nm = cov.material_ids.size();
    std::vector<double> eps(nm), sig(nm);
    for (std::size_t q = 0; q < nm; ++q) {
        const Material* mat = lookup_material(project, cov.material_ids[q]);
        eps[q] = mat->epsilon_inf;
        sig[q] = mat->conductivity;
    }
    const int nx = grid.nx, ny = grid.ny;
    const std::size_t n = std::size_t(nx) * ny;
    AveragedMedium out;
    out.eps_r.assign(n, 0.0);
    out.sigma.assign(n, 0.0);

    if (!subpixel) {
        // Staircase: the material with the largest fraction of the window (first on ties).
        for (std::size_t idx = 0; idx < n; ++idx) {
            std::size_t best = 0;
            for (std::size_t q = 1; q < nm; ++q)
                if (cov.fraction[q][idx] > cov.fraction[best][idx]) best = q;
            out.eps_r[idx] = eps[best];
            out.sigma[idx] = sig[best];
        }
        return out;
    }

    // Arithmetic mean <eps>, mean of 1/eps and conductivity, row by row.
    auto mean_row = [&](int j, std::vector<double>& mean) {
        for (int i = 0; i < nx; ++i) {
            const std::size_t idx = std::size_t(j) * nx + i;
            double s = 0;
            for (std::size_t q = 0; q < nm; ++q) s += cov.fraction[q][idx] * eps[q];
            mean[i] = s;
        }
    };
    const bool te = e_component == Component::Ex || e_component == Component::Ey;
    std::vector<double> prev(nx), cur(nx), next(nx);
    mean_row(0, cur);
    if (ny > 1) mean_row(1, next);
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            const std::size_t idx = std::size_t(j) * nx + i;
            double inv_sum = 0, sigma = 0;
            int uniform = -1;
            for (std::size_t q = 0; q < nm; ++q) {
                const double f = cov.fraction[q][idx];
                if (f == 1.0) uniform = int(q);
                inv_sum += f / eps[q];
                sigma += f * sig[q];
            }
            if (uniform >= 0) {  // one material: exactly its values
                out.eps_r[idx] = eps[uniform];
                out.sigma[idx] = sig[uniform];
                continue;
            }
            out.sigma[idx] = sigma;
            const double mean = cur[i];
            if (!te) {
                out.eps_r[idx] = mean;  // field parallel to every interface in 2D
                continue;
            }
            // Interface normal ~ gradient of <eps> (central differences, one-sided at the
            // grid edges), Farjadpour et al., Opt. Lett. 31, 2972 (2006), eq. 1:
            // 1/eps_eff = p <1/eps> + (1 - p) / <eps>, p = (n . d)^2.
            const double gx = i == 0 ? (nx > 1 ? cur[1] - cur[0] : 0.0)
                              : i == nx - 1 ? cur[i] - cur[i - 1]
                                            : 0.5 * (cur[i + 1] - cur[i - 1]);
            const double gy = j == 0 ? (ny > 1 ? next[i] - cur[i] : 0.0)
                              : j == ny - 1 ? cur[i] - prev[i]
                                            : 0.5 * (next[i] - prev[i]);
            const double g2 = gx * gx + gy * gy;
            if (!(g2 > 1e-18 * mean * mean)) {
                out.eps_r[idx] = mean;
                continue;
            }
            const double gd = e_component == Component::Ex ? gx : gy;
            const double p = gd * gd / g2;
            out.eps_r[idx] = 1.0 / (p * inv_sum + (1.0 - p) / mean);
        }
        std::swap(prev, cur);
        std::swap(cur, next);
        if (j + 2 < ny) mean_row(j + 2, next);
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
