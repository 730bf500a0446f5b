// GoLightly Yee grid of any dimension: cells per axis, cell edge, boundary kind and PML
// cells per face, 64-bit cell indices, and the geometric queries that place sources and
// monitors on it (nearest node, nodes of a line / plane / box with covered fractions).
//
// One description for 2D and 3D: a 2D grid has n[2] = 1 and its field components are
// those of its polarization (TMz = {Ez, Hx, Hy}, TEz = {Hz, Ex, Ey}); a 3D grid uses all
// six. Planes are boxes with one zero extent (a line in 2D is a box with zero extent
// along one of x, y and the z extent of the 2D slice), so one routine, box_nodes, yields
// the nodes of a line source or monitor in 2D and of a plane in 3D; a flux box is its
// faces.
//
// Index order and positions (scene.hpp "Grid and index order", extended to z):
//   flat index = (k * n[1] + j) * n[0] + i, x fastest; 64-bit (CellIndex).
//   A component c at node (i, j, k) sits at index-unit position (i, j, k) + yee_offset(c);
//   physical position x_um = (p - pml_lo[axis]) * dx_um (origin at the interior's lower
//   corner, as in the project file).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "golightly/types.hpp"

namespace golightly {

/// Yee offset (index units) of a component in its cell (Taflove & Hagness 3rd ed. fig.
/// 3.1): Ex (1/2, 0, 0), Ey (0, 1/2, 0), Ez (0, 0, 1/2), Hx (0, 1/2, 1/2), Hy (1/2, 0, 1/2),
/// Hz (1/2, 1/2, 0). A 2D grid uses the x, y parts (scene.hpp "Grid and index order":
/// TMz Ez (i, j), Hx (i, j+1/2), Hy (i+1/2, j); TEz Hz (i+1/2, j+1/2), Ex (i+1/2, j),
/// Ey (i, j+1/2)).
Vec3 yee_offset(Component c);

/// One node of an axis: its grid index, the fraction of its dx window inside the queried
/// interval (0, 1], and its physical position (um).
struct AxisNode {
    std::int64_t index = 0;
    double frac = 0;
    double pos_um = 0;
};

/// One node of a box: its flat cell index and the product of the covered fractions of its
/// axes (the share of its cell's face or volume inside the box).
struct BoxNode {
    CellIndex cell = 0;
    std::array<std::int64_t, 3> ijk{0, 0, 0};
    double weight = 0;
};

struct Grid {
    std::array<std::int64_t, 3> n{1, 1, 1};  ///< cells per axis, PML included (n[2] = 1 in 2D)
    double dx_um = 0;                        ///< Yee cell edge, um (cubic cells)
    /// Outer boundary per axis (both faces of an axis share a kind, as in the file format).
    std::array<BoundaryKind, 3> boundary{BoundaryKind::Pml, BoundaryKind::Pml, BoundaryKind::Periodic};
    std::array<int, 3> pml_lo{0, 0, 0}, pml_hi{0, 0, 0};  ///< PML cells on the low / high face

    int dimensions() const { return n[2] > 1 ? 3 : 2; }
    CellIndex cells() const { return n[0] * n[1] * n[2]; }
    CellIndex flat(std::int64_t i, std::int64_t j, std::int64_t k = 0) const { return (k * n[1] + j) * n[0] + i; }
    bool periodic(int axis) const { return boundary[axis] == BoundaryKind::Periodic; }
    /// Interior (non-PML) length along an axis, um.
    double interior_um(int axis) const { return double(n[axis] - pml_lo[axis] - pml_hi[axis]) * dx_um; }
    /// Physical position (um) of grid index k of a component with offset `offset` along axis.
    double position_um(int axis, std::int64_t k, double offset) const {
        return (double(k) + offset - pml_lo[axis]) * dx_um;
    }
    /// k wrapped into [0, n) on a periodic axis, clamped to it otherwise.
    std::int64_t wrap_or_clamp(int axis, std::int64_t k) const;
    /// Nearest grid index of a component (offset along the axis) at position x_um, wrapped
    /// or clamped.
    std::int64_t nearest_index(int axis, double x_um, double offset) const;
    /// Nodes of a component (offset along the axis) whose dx window overlaps [a_um, b_um]
    /// (either order), each with the overlapped fraction of its window (periodic axes
    /// wrap by the interior length); a zero-length interval gives its nearest node with
    /// fraction 1.
    std::vector<AxisNode> axis_nodes(int axis, double a_um, double b_um, double offset) const;
    /// Nodes of component c inside an axis-aligned box (um): the product of axis_nodes
    /// over the axes, a zero extent taking the nearest node. Axes beyond dimensions() take
    /// node 0. A line in 2D, a plane in 3D, a volume in either. Order: x fastest.
    std::vector<BoxNode> box_nodes(const Box3& box_um, Component c) const;
    /// The six faces of a box (um) as planes, in the order -x, +x, -y, +y, -z, +z; in 2D
    /// the four edges -x, +x, -y, +y.
    std::vector<Box3> box_faces(const Box3& box_um) const;
};

}  // namespace golightly
