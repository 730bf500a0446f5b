// GoLightly: a 3D project's cross-section on a plane for the mode solver (mode_plane.hpp).
#include "golightly/mode_plane.hpp"

#include <cmath>

#include "golightly/errors.hpp"
#include "golightly/geometry.hpp"

namespace golightly {

CrossSection sample_cross_section(const Project& project, const Vec3& center, const Vec3& size, bool reference_run,
                                  const std::string& json_path, const std::string& file_label, ModeBoundary boundary) {
    if (project.domain.dimensions != 3)
        throw ProjectError(file_label, json_path, "a 2D cross-section needs a 3D project (a 2D project's line uses the slab solver)");
    int normal = -1, zeros = 0;
    for (int a = 0; a < 3; ++a)
        if (size[a] == 0) {
            normal = a;
            ++zeros;
        }
    if (zeros != 1) throw ProjectError(file_label, json_path + ".size", "a plane needs exactly one zero entry");
    const double dx = project.domain.cell_size;
    CrossSection cs;
    cs.axis_w = normal;
    cs.axis_u = (normal + 1) % 3;
    cs.axis_v = (normal + 2) % 3;
    cs.grid.dx_um = dx;
    cs.grid.boundary_u = cs.grid.boundary_v = boundary;
    cs.i0_u = static_cast<int>(std::lround((center[cs.axis_u] - 0.5 * size[cs.axis_u]) / dx));
    cs.i0_v = static_cast<int>(std::lround((center[cs.axis_v] - 0.5 * size[cs.axis_v]) / dx));
    cs.i_w = static_cast<int>(std::lround(center[normal] / dx));
    cs.grid.nu = static_cast<int>(std::lround(std::abs(size[cs.axis_u]) / dx));
    cs.grid.nv = static_cast<int>(std::lround(std::abs(size[cs.axis_v]) / dx));
    if (cs.grid.nu < 2 || cs.grid.nv < 2)
        throw ProjectError(file_label, json_path + ".size", "the plane spans fewer than 2 cells along an axis");
    cs.u0_um = cs.i0_u * dx;
    cs.v0_um = cs.i0_v * dx;
    cs.w_um = cs.i_w * dx;
    const Component comps[3] = {Component::Ex, Component::Ey, Component::Ez};
    const int local_axis[3] = {cs.axis_u, cs.axis_v, cs.axis_w};
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
            average_medium_3d(project, g3, comps[local_axis[d]], project.run.subpixel_averaging, reference_run);
        std::vector<double>& eps = cs.medium.eps[d];
        eps.assign(static_cast<size_t>(shape[0]) * static_cast<size_t>(shape[1]), 1.0);
        for (int j = 0; j < shape[1]; ++j)
            for (int i = 0; i < shape[0]; ++i) {
                int idx[3] = {0, 0, 0};
                idx[cs.axis_u] = i;
                idx[cs.axis_v] = j;
                const size_t flat = (static_cast<size_t>(idx[2]) * g3.ny + idx[1]) * g3.nx + idx[0];
                eps[static_cast<size_t>(j) * shape[0] + i] = am.eps_r[flat];
            }
    }
    return cs;
}

}  // namespace golightly
