// Mirror symmetry planes: the whole-domain scene reduced to the half (quarter, eighth) an
// engine steps, and the map that gives every whole-domain field sample from it.
//
// Convention (project-format.md "Symmetry", as Tidy3D's `symmetry` and Meep's
// `mirror_sym` phase): Scene::symmetry[a] = s in {-1, 0, +1} is the parity of the E field,
// taken as a vector, under reflection through the centre plane of axis a. Reflection maps
// (E_t, E_n)(r) to (E_t, -E_n)(r') for the components tangential (t) and normal (n) to the
// plane, and H (a pseudovector) to (-H_t, H_n)(r'); the field equals s times its image:
//   E_t(r') =  s E_t(r),  E_n(r') = -s E_n(r),  H_t(r') = -s H_t(r),  H_n(r') = s H_n(r).
// s = -1 ("odd", Meep phase -1) makes E_t and H_n vanish on the plane: a PEC wall. s = +1
// ("even", Meep phase +1) makes H_t and E_n vanish there: a PMC wall. Meep's
// mp.Mirror(axis, phase=s) is the same symmetry.
//
// Where the plane lies on the Yee grid (index units, PML included; grid.hpp yee_offset):
// the interior's centre P = pml_lo + n_int / 2 along the axis (n_int interior cells). A PEC
// plane holds E_t and H_n, which sit at integer positions, so s = -1 needs P integer (n_int
// even); a PMC plane holds H_t and E_n, at half-integer positions, so s = +1 needs n_int odd
// (the compiler refuses the other parity, naming the cell count that fits). The reduced
// scene keeps the planes i >= first = ceil(P) and nothing else changes in the update: the
// zero field beyond its lower end is the PMC wall at P = first - 1/2 (scene.hpp "Outer
// boundary", pmc: "the zero beyond the array is the wall at -1/2"), and for a PEC plane
// the tangential E of plane `first` takes a table entry with ca = 1, cb = 0 (held at its initial zero, as
// scene.hpp's pec zeroing). The PML of the lower side is dropped (pml_lo = 0 there).
//
// Whole-domain samples (MirrorMap::map): a node of component c at index i < first along a
// symmetric axis is the mirror node i' = 2P - i - 2 o (o = c's Yee offset along the axis)
// times the parity above; a node on the plane with parity -1 is zero. Axes are
// independent, so the map is the product of the per-axis maps.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "golightly/scene.hpp"

namespace golightly {

/// Parity (+1 or -1) of component c under the mirror symmetry `sign` (+1 / -1) of axis
/// `axis` (0, 1, 2), as in the header comment: E_t s, E_n -s, H_t -s, H_n s.
int mirror_parity(Component c, int axis, int sign);

/// One symmetry plane of a scene, in the scene's index units (PML included).
struct MirrorPlane {
    int axis = 0;
    int sign = 0;                ///< +1 (PMC plane) or -1 (PEC plane)
    double plane = 0;            ///< P: index-unit position of the plane (integer for -1, half-integer for +1)
    std::int64_t first = 0;      ///< first kept index, ceil(P)
};

/// The map from a whole-domain scene's nodes to the reduced scene's.
struct MirrorMap {
    std::array<std::int64_t, 3> n_full{1, 1, 1};  ///< nx, ny, nz of the whole domain
    std::array<std::int64_t, 3> n_half{1, 1, 1};  ///< nx, ny, nz of the reduced domain
    std::vector<MirrorPlane> planes;               ///< by increasing axis
    /// A reduced-scene node and the factor the whole-domain value is of its value:
    /// cell = -1 (factor 0) for a node that vanishes by symmetry.
    struct Site {
        CellIndex cell = -1;
        double factor = 0;
    };
    bool active() const { return !planes.empty(); }
    /// The reduced node of component c at whole-domain indices ijk (each in [0, n_full)).
    Site map(Component c, std::array<std::int64_t, 3> ijk) const;
    /// The same for a whole-domain flat index (k * ny + j) * nx + i.
    Site map(Component c, CellIndex full) const;
    /// The reduced index along `axis` of whole-domain index i of a component with Yee offset
    /// `offset` (0 or 0.5) along it, and its sign; -1 (sign 0) where the node vanishes.
    /// Axes without a plane map i to i (sign +1).
    std::int64_t map_index(int axis, std::int64_t i, double offset, int parity_sign, int* sign) const;
    /// Whole-domain cells per reduced cell (2, 4 or 8; 1 without planes).
    double cell_ratio() const;
};

/// The planes of `full` (Scene::symmetry) on its grid. Throws RunError when a symmetric
/// axis is not a PML axis, is z in 2D, has unequal PML on its two sides, or has an interior
/// cell count of the wrong parity (header comment; the message names the count that fits).
MirrorMap mirror_map(const Scene& full);

/// What a reduced scene's monitors need to give whole-domain results (SymmetricEngine).
struct ReducedMonitors {
    /// time probes whose samples are to be square-rooted (an `rms` probe run as
    /// `sum_squares` with weights w / sum w)
    std::vector<int> rms_probes;
    /// per DFT set, per whole-domain sample k: +(u + 1) or -(u + 1) when it equals reduced
    /// sample u times +1 or -1, 0 when it vanishes by symmetry
    std::vector<std::vector<std::int64_t>> dft_samples;
};

/// The scene an engine steps for a whole-domain scene with symmetry planes: the kept part
/// of every per-cell array, CPML profile and sparse list (header comment), sources kept
/// where they lie in the reduced domain. DFT sets: every whole-domain sample is mapped
/// node by node (MirrorMap::map) and mirror images that become the same reduced sample up
/// to sign are accumulated once (so the DFT work shrinks with the grid); `monitors`
/// receives the expansion back to the whole-domain samples, in the scene's order. Time
/// probes are remapped likewise (a `mean` probe becomes a `value` probe with weights w /
/// sum w, an `rms` probe a `sum_squares` one listed in rms_probes). Scene::symmetry of the
/// result is {0, 0, 0}. Throws RunError for a TF/SF box that reaches across a symmetry
/// plane (not supported) and for the errors of mirror_map.
Scene reduce_by_symmetry(const Scene& full, const MirrorMap& map, ReducedMonitors* monitors = nullptr);

/// The first place where `full` breaks its own symmetry planes, for `check`: the material
/// table entry of an E node and its mirror image (eps_r or sigma differing by more than
/// 1e-4 relative: the averaged fractions are float32), a dispersive node without its image, a source term whose weights are
/// not mirror images of each other with the parity of its component (beyond 1e-3 of the
/// term's largest weight), or a TF/SF box. nullopt when the scene is symmetric.
struct SymmetryViolation {
    enum class Kind { Structure, Source, Tfsf } kind = Kind::Structure;
    int axis = 0;
    int term = -1;                   ///< the source term (Scene::sources) or TF/SF index
    std::array<double, 3> where_um{0, 0, 0};   ///< the node's position (interior origin, um)
    std::string detail;              ///< what differs, in words
};
std::optional<SymmetryViolation> find_symmetry_violation(const Scene& full, const MirrorMap& map);

}  // namespace golightly
