// GoLightly basic types shared by every layer of the solver: positions, boxes, field
// components and the small enums of the method. Header-only, no JSON, no Qt: the compiled
// scene, the engines and the CUDA code include this and never the project model.
//
// Units: positions in micrometres (um) unless a name says otherwise; cell indices are
// integers in Yee-cell units (see scene.hpp "Grid and index order").
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

namespace golightly {

/// A point or vector in the plane, um (or index units where a name says so).
struct Vec2 {
    double x = 0, y = 0;
    bool operator==(const Vec2&) const = default;
};

/// A point or vector in space, um (or index units where a name says so).
struct Vec3 {
    double x = 0, y = 0, z = 0;
    bool operator==(const Vec3&) const = default;
    double operator[](int axis) const { return axis == 0 ? x : axis == 1 ? y : z; }
    double& operator[](int axis) { return axis == 0 ? x : axis == 1 ? y : z; }
};

/// An axis-aligned box in um, [lo, hi] per axis. A plane (a line in 2D) is a box with one
/// zero extent; a point has three.
struct Box3 {
    Vec3 lo, hi;
    bool operator==(const Box3&) const = default;
    /// Axes with hi == lo (0 for a volume, 1 for a plane, ...).
    int flat_axes() const {
        int n = 0;
        for (int a = 0; a < 3; ++a) n += hi[a] == lo[a];
        return n;
    }
};

/// A global cell index (flat, x fastest: (k * ny + j) * nx + i). 64-bit, so a grid of
/// more than 2^31 cells is addressable; a subdomain may re-index its own cells to 32 bits.
using CellIndex = std::int64_t;

/// A box of cells, half-open per axis: i in [lo[0], hi[0]), j likewise, k likewise.
struct CellBox {
    std::array<std::int64_t, 3> lo{0, 0, 0}, hi{0, 0, 0};
    bool operator==(const CellBox&) const = default;
    std::int64_t extent(int axis) const { return std::max<std::int64_t>(0, hi[axis] - lo[axis]); }
    std::int64_t cells() const { return extent(0) * extent(1) * extent(2); }
    bool empty() const { return cells() == 0; }
};

/// Field component names (also used by monitors and frames).
enum class Component { Ex, Ey, Ez, Hx, Hy, Hz };
/// "Ex" ... "Hz", as in the file format.
inline const char* component_name(Component c) {
    static constexpr const char* names[] = {"Ex", "Ey", "Ez", "Hx", "Hy", "Hz"};
    return names[int(c)];
}
inline bool is_electric(Component c) { return c == Component::Ex || c == Component::Ey || c == Component::Ez; }
/// 0 (x), 1 (y) or 2 (z): the direction the component points in.
inline int component_axis(Component c) { return int(c) % 3; }

/// The component set of a 2D run (TMz = {Ez, Hx, Hy}, TEz = {Hz, Ex, Ey}); a 3D run uses
/// all six components.
enum class Polarization { TMz, TEz };

/// Kind of an outer boundary face (scene.hpp "Outer boundary").
enum class BoundaryKind { Pml, Periodic, Pec, Pmc, Mur };

/// Time dependence of a source (scene.hpp CompiledWaveform).
enum class WaveformType { GaussianPulse, Cw };

/// How a time monitor reduces its cells to one value per step (scene.hpp TimeProbe).
enum class Reduce { Value, Mean, Rms, SumSquares };

/// Floating-point type of the engine's fields.
enum class Precision { Float32, Float64 };

}  // namespace golightly
