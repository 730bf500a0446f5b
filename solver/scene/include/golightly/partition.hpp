// GoLightly domain decomposition: one compiled Scene cut into subdomain scenes that
// ordinary engines step, with halo planes exchanged between them after every step
// (the distributed engine, engine/include/golightly/distributed.hpp).
//
// Method. The grid is cut into slabs along its slowest axis (z in 3D, y in 2D), so that a
// plane of any component is one contiguous block of memory (flat index (k * ny + j) * nx
// + i). Each subdomain owns planes [owned_lo, owned_hi) of the global grid and carries
// `halo` extra planes on each side that has a neighbour (both sides on a periodic axis;
// none on the faces of the global grid). A subdomain scene is an ordinary Scene of
// n_local = halo_lo + owned + halo_hi planes: its engine steps every plane, halo planes
// included, exactly as scene.hpp specifies, with "zero beyond the array" at its cut faces.
// After each full step the owned planes next to a cut are copied into the neighbour's halo
// (HaloTransfer), so every halo plane again equals the global field there.
//
// Why this is exact (equal to one domain up to the rounding of reductions): within one
// step the wrong values that the missing neighbours cause at a cut face travel inward by
// at most one plane per dependent update: H at the upper face (it reads E beyond the
// array), E at the lower face (it reads H beyond), and one more plane through the sub-pixel
// tensor couplings (they read the E increment of the neighbouring plane). Every other
// update (CPML psi, the dispersive ADE, sources, TF/SF corrections, PEC/PMC/Mur on the
// global faces) is local to a cell. With halo = 2 (3 when the scene has tensor couplings)
// the owned planes and the innermost halo plane hold exact values at the end of each step,
// and the exchange then restores the others: only the outer halo - 1 planes of each halo
// travel (HaloTransfer), the innermost one being computed exactly where it is. This is the
// redundant-halo form of the
// decomposition of B-CALM (Wahl et al., PIER 138, 2013, sec. 3) and of Meep's chunks
// (Oskooi et al., CPC 181, 687 (2010), sec. 4.2).
//
// What partition_scene() clips and re-indexes per subdomain: the material maps (one slab
// of each), the CPML profile of the cut axis (sliced: the PML slabs stay at the local ends,
// with psi only where the global grid has PML), the dispersive cells, the tensor couplings
// (sites on the outermost halo planes are dropped; slots naming a dropped or absent site
// become -1), the sources (every cell on a local plane, halo included), the TF/SF sources
// (the global box and its background coefficients; the engines build the global plan and
// keep the corrections on their planes, Scene::window), the DFT samples (each on the
// subdomain that owns its first cell, with the map back to its global sample index) and
// the time probes (each cell on its owner; mean and rms become weighted sums divided by the
// global weight, summed over subdomains by the distributed engine).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "golightly/scene.hpp"

namespace golightly {

/// One subdomain of a partitioned scene.
struct Subdomain {
    int index = 0;                     ///< 0 .. pieces-1, in increasing order along the cut axis
    std::int64_t owned_lo = 0, owned_hi = 0;  ///< owned global planes [owned_lo, owned_hi) along the cut axis
    int halo_lo = 0, halo_hi = 0;     ///< halo planes below / above the owned ones (0 at a global face)
    /// The subdomain's scene: n_local = halo_lo + (owned_hi - owned_lo) + halo_hi planes
    /// along the cut axis, window.origin = owned_lo - halo_lo (global plane of local plane 0).
    Scene scene;
    /// Per DFT set of the global scene: the global sample index of each local sample.
    std::vector<std::vector<std::int64_t>> dft_samples;
    std::int64_t n_local() const { return halo_lo + (owned_hi - owned_lo) + halo_hi; }
};

/// Copy of `planes` consecutive planes of every field component from subdomain `from`
/// (local planes from_plane ..) into subdomain `to` (local planes to_plane ..), after each
/// step.
struct HaloTransfer {
    int from = 0, to = 0;
    std::int64_t from_plane = 0, to_plane = 0;
    int planes = 0;
    /// Bloch phase (rad) the copied planes take, complex fields only: the destination gets
    /// exp(i phase) (F_re + i F_im) of the source planes (distributed.hpp apply_halo_phase). Nonzero only
    /// on the two transfers across the wrap of a cut axis with a Bloch phase phi
    /// (Scene::bloch_phase): +phi into the last subdomain's upper halo (global planes N..,
    /// F(p + N) = exp(+i phi) F(p), scene.hpp), -phi into the first one's lower halo.
    double phase = 0;
};

struct Partition {
    int dimensions = 3;            ///< of the global scene
    int axis = 2;                  ///< the cut axis: 2 in 3D, 1 in 2D
    int halo = 2;                  ///< halo planes per cut side
    std::int64_t global_n = 0;     ///< global cells along the axis
    bool periodic = false;         ///< the cut axis wraps (every subdomain has two neighbours)
    std::vector<Subdomain> subs;
    std::vector<HaloTransfer> transfers;
    /// TimeProbe::reduce of each global probe. The subdomain probes are weighted sums
    /// (Reduce::Value or Reduce::SumSquares; for mean and rms the weights are divided by the
    /// global weight sum), added over subdomains; rms then takes the square root.
    std::vector<Reduce> probe_reduce;
    /// Samples per global DFT set (to size the gathered accumulators).
    std::vector<std::int64_t> dft_set_samples;
};

/// The halo planes partition_scene() uses for `scene`: 3 with tensor couplings, else 2.
int partition_halo(const Scene& scene);

/// The cut axis of a scene: 2 (z) in 3D, 1 (y) in 2D.
inline int partition_axis(const Scene& scene) { return scene.dimensions == 3 ? 2 : 1; }

/// The cost of updating each plane normal to partition_axis() (index = plane), in bulk cell
/// updates: the plane's cells, plus for every listed dispersive sample on it the bytes of
/// its pole update over a bulk cell's (the CUDA traffic models: (4N - 2N_D + 5) s + 10 B
/// for N poles, N_D of them Drude, against 18 s + 6 B, s = 4; 1.46 per sample for 6-pole
/// gold). CPML, sources and monitors are not counted. The environment variable
/// GOLIGHTLY_PARTITION_PLANES=1 (diagnosis) makes every plane cost its cells only.
std::vector<double> partition_plane_cost(const Scene& scene);

/// Cuts `global` into `pieces` slabs along partition_axis(). `weights` (optional, one per
/// piece, > 0) sets each piece's share of the total plane cost (partition_plane_cost:
/// faster devices take more, pieces with dispersive cells fewer planes); by default equal
/// shares. Without dispersive cells the shares are shares of planes. pieces == 1 gives one
/// subdomain whose scene equals `global` (no window).
/// Throws RunError when a piece would own fewer than 2 * halo planes (name the planes
/// available and the pieces asked for), for pieces < 1, weights of the wrong count or not
/// positive, a global scene that already is a subdomain (window active), or, with pieces >
/// 1, a Bloch phase along a partition_axis() that is not periodic. Complex fields are cut
/// like real ones: each subdomain carries both copies (Scene::complex_fields, bloch_phase,
/// the sources' weights_im) and the halo exchange moves both (engine.hpp FieldStorage). A
/// Bloch phase along partition_axis() goes to the two wrap transfers (HaloTransfer::phase)
/// and is 0 in the subdomain scenes (their cut faces do not wrap).
Partition partition_scene(const Scene& global, int pieces, const std::vector<double>& weights = {});

/// Row padding along x (device layouts whose rows must start on aligned addresses): the
/// number of x cells `scene` gets from pad_scene_x for a row multiple `multiple`, i.e.
/// nx rounded up to that multiple, or nx itself when the scene cannot be padded: a
/// subdomain (window active) without window.row_padding, an x boundary other than pml or
/// pec (periodic wraps at nx, pmc zeroes H at nx - 1), or a table without room for the dead
/// entry. (The cut axis is never x, so padding leaves a subdomain's window as it is.)
int padded_nx(const Scene& scene, int multiple);

/// `scene` with nx padded to padded_nx(scene, multiple) cells: the added columns i in
/// [nx, nx_padded) of every plane are dead cells, E table entry (ca, cb) = (0, 0) (one
/// entry appended to the table: eps_r 1, sigma 0) so that every field there stays 0, which
/// is the zero beyond the array the cells at nx - 1 see in `scene`; the x CPML profiles
/// are extended with the identity (b = c = 0, 1/kappa = 1) and a high-x PML slab takes the
/// added columns in (pml_hi[0], when > 0, grows by the padding); every flat cell index
/// (sources, DFT sets, time probes, dispersive and anisotropic cells) is remapped from
/// (k ny + j) nx + i to (k ny + j) nx_padded + i (2D: j nx + i to j nx_padded + i). An engine gives the same fields on the
/// original cells, to rounding (tests/solver/test_partition.cpp: 1e-10 relative after 60
/// steps in float64; vector loops of other lengths may contract other products into FMAs). Returns `scene` unchanged when
/// padded_nx(scene, multiple) == nx.
Scene pad_scene_x(const Scene& scene, int multiple);
/// The flat index of cell `cell` of a scene with nx cells in one with nx_padded (above).
inline CellIndex pad_cell_x(CellIndex cell, int nx, int nx_padded) {
    return (cell / nx) * nx_padded + cell % nx;
}

/// The subdomain scenes of `edited` cut exactly as `layout` was (the same owned ranges and
/// halos): live edits of a distributed run. Throws RunError when `edited` has another grid.
Partition repartition_like(const Partition& layout, const Scene& edited);

}  // namespace golightly
