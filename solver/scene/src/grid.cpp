// GoLightly Yee grid queries (grid.hpp).
#include "golightly/grid.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace golightly {

Vec3 yee_offset(Component c) {
    switch (c) {
        case Component::Ex: return {0.5, 0.0, 0.0};
        case Component::Ey: return {0.0, 0.5, 0.0};
        case Component::Ez: return {0.0, 0.0, 0.5};
        case Component::Hx: return {0.0, 0.5, 0.5};
        case Component::Hy: return {0.5, 0.0, 0.5};
        case Component::Hz: return {0.5, 0.5, 0.0};
    }
    return {};
}

std::int64_t Grid::wrap_or_clamp(int axis, std::int64_t k) const {
    if (periodic(axis)) {
        k %= n[axis];
        if (k < 0) k += n[axis];
        return k;
    }
    return std::clamp<std::int64_t>(k, 0, n[axis] - 1);
}

std::int64_t Grid::nearest_index(int axis, double x_um, double offset) const {
    return wrap_or_clamp(axis, std::int64_t(std::llround(x_um / dx_um + pml_lo[axis] - offset)));
}

std::vector<AxisNode> Grid::axis_nodes(int axis, double a, double b, double offset) const {
    std::vector<AxisNode> nodes;
    if (a > b) std::swap(a, b);
    const double L = interior_um(axis);
    const int shifts = periodic(axis) ? 1 : 0;
    for (std::int64_t k = 0; k < n[axis]; ++k) {
        const double p = position_um(axis, k, offset);
        double cover = 0;
        for (int sh = -shifts; sh <= shifts; ++sh) {
            const double q = p + sh * L;
            cover += std::max(0.0, std::min(q + 0.5 * dx_um, b) - std::max(q - 0.5 * dx_um, a));
        }
        const double frac = std::min(1.0, cover / dx_um);
        if (frac > 1e-9) nodes.push_back({k, frac, p});
    }
    if (nodes.empty() && std::abs(b - a) <= 1e-12) {  // zero length: the nearest node
        const std::int64_t k = nearest_index(axis, a, offset);
        nodes.push_back({k, 1.0, position_um(axis, k, offset)});
    }
    return nodes;
}

std::vector<BoxNode> Grid::box_nodes(const Box3& box, Component c) const {
    const Vec3 off = yee_offset(c);
    std::vector<AxisNode> axes[3];
    for (int a = 0; a < 3; ++a) {
        if (a >= dimensions()) {
            axes[a] = {AxisNode{0, 1.0, 0.0}};
        } else if (box.hi[a] == box.lo[a]) {
            const std::int64_t k = nearest_index(a, box.lo[a], off[a]);
            axes[a] = {AxisNode{k, 1.0, position_um(a, k, off[a])}};
        } else {
            axes[a] = axis_nodes(a, box.lo[a], box.hi[a], off[a]);
        }
    }
    std::vector<BoxNode> out;
    out.reserve(axes[0].size() * axes[1].size() * axes[2].size());
    for (const AxisNode& z : axes[2])
        for (const AxisNode& y : axes[1])
            for (const AxisNode& x : axes[0])
                out.push_back({flat(x.index, y.index, z.index), {x.index, y.index, z.index}, x.frac * y.frac * z.frac});
    return out;
}

std::vector<Box3> Grid::box_faces(const Box3& box) const {
    std::vector<Box3> faces;
    for (int a = 0; a < dimensions(); ++a)
        for (int side = 0; side < 2; ++side) {
            Box3 f = box;
            const double v = side ? box.hi[a] : box.lo[a];
            f.lo[a] = f.hi[a] = v;
            faces.push_back(f);
        }
    return faces;
}

}  // namespace golightly
