// GoLightly engines, the subdomain seam: what a distributed run (distributed.hpp) asks of
// the engine of one subdomain: direct access to its field arrays (the halo exchange copies
// planes between engines through them) and the time step split into three parts so that
// the exchange hides behind the interior update. An engine that can serve as a subdomain
// gives its SubdomainAccess through Engine::subdomain() (engine.hpp); the others (the
// distributed engine itself, test doubles) return nullptr.
//
// The class is SubdomainAccess, not Subdomain: partition.hpp's Subdomain is the slab of the
// grid (owned and halo planes, its scene) that such an engine steps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace golightly {

/// Where an engine keeps its field arrays (distributed runs: the halo exchange of
/// distributed.hpp copies planes between engines through these pointers). Each array holds
/// Scene::cells() values of element_bytes (4: float, 8: double), flat index (k * ny + j) *
/// nx + i as in scene.hpp; field[c] is nullptr for a component the engine lacks (2D).
/// Complex fields (scene.hpp "Bloch-periodic axes and complex fields"): field[6 + c] is the
/// imaginary copy of component c, nullptr in a real run; a halo exchange moves every
/// non-null array of the kArrays.
struct FieldStorage {
    static constexpr int kArrays = 12;  ///< 6 components, then their imaginary copies
    void* field[kArrays] = {};          ///< [c]: component c (by Component); [6 + c]: its imaginary copy
    int element_bytes = 0;
    std::int64_t n[3] = {0, 0, 0};  ///< nx, ny, nz of the arrays
    int cuda_device = -1;         ///< CUDA device ordinal of the arrays; -1: host memory
    void* cuda_stream = nullptr;  ///< the engine's cudaStream_t (work on the arrays is ordered on it)
    /// 3D engines: the CPML psi of component c for the derivative along x (a = 0) and y
    /// (a = 1), the slabs of those axes (nullptr where the engine has none), plane-contiguous
    /// along z: psi_plane_bytes[c][a] bytes per z plane, plane k at k * psi_plane_bytes[c][a]
    /// (scene.hpp's layout: x slabs [k][j][wx], y slabs [k][wy][i]). The distributed engine's
    /// pairs move them with the fields where the transport can (HaloExchange::moves_psi);
    /// nullptr in 2D engines.
    void* psi[6][2] = {};
    std::int64_t psi_plane_bytes[6][2] = {};
};

/// One subdomain of a distributed run, as summary.json lists it (project-format.md, "Runs
/// on several GPUs and hosts"): min_cell / max_cell the inclusive global (i, j, k) corners
/// of the cells it owns.
struct SubdomainInfo {
    int rank = 0;
    std::string device;
    std::int64_t min_cell[3] = {0, 0, 0}, max_cell[3] = {0, 0, 0};
};

/// How an engine's grid is distributed (Engine::distribution), as summary.json reports it:
/// everything empty for one domain.
struct DistributionInfo {
    std::vector<SubdomainInfo> subdomains;  ///< by subdomain, in cut-axis order
    std::string transport;                  ///< HaloExchange::transport ("memcpy", "cuda-peer", "mpi")
    std::string mode;                       ///< DistributedEngine::mode ("overlap", "threads", ...)
};

/// The engine of one subdomain, as the distributed engine and the halo exchanges see it.
class SubdomainAccess {
public:
    virtual ~SubdomainAccess() = default;

    /// The engine's field arrays (FieldStorage) for halo exchange.
    virtual FieldStorage field_storage() = 0;
    /// Copies `planes` planes normal to the slowest axis (z in 3D, y in 2D), starting at plane
    /// `first`, of field array `array` (FieldStorage::field index: a Component's, or 6 + it
    /// for its imaginary copy) to `out` (planes * cells-per-plane values, the flat order of
    /// the field). Uses field_storage(); throws std::invalid_argument for planes outside the
    /// grid or an array the engine lacks.
    void read_planes(int array, std::int64_t first, std::int64_t planes, std::vector<double>& out);

    /// Split time step, for a halo exchange hidden behind the interior update (B-CALM; the
    /// distributed engine, distributed.hpp). An engine that supports it takes one time step
    /// as step_begin(), step_interior(), step_boundary(), in that order and with nothing
    /// else between them but halo transfers:
    ///   step_begin()     the work before the bulk update (sources and corrections that
    ///                    precede it, pole and tensor state); afterwards the planes that
    ///                    halo transfers read or write are final for this step's bulk update;
    ///   step_interior()  the bulk update away from the ends of the slowest axis (z in 3D,
    ///                    y in 2D): with halo margins `lo` and `hi` (set_split_margins; the
    ///                    halos of partition.hpp), transfers write planes [0, lo - 1) and
    ///                    [n - hi + 1, n) and read planes [lo + 1, 2 lo) and [n - 2 hi,
    ///                    n - hi - 1); the interior neither reads the first nor writes the
    ///                    second (split_step_planes below), so the transfers may run at the
    ///                    same time;
    ///   step_boundary()  the rest of the step (the end planes, then everything after the
    ///                    bulk update); Engine::steps_done() counts the step.
    /// On a GPU each call only enqueues work on the engine's stream (FieldStorage::cuda_stream).
    /// Defaults (engines that do not split): supports_split_step() false, set_split_margins()
    /// ignored, the three parts throw std::logic_error (the distributed engine calls them
    /// only when every engine supports them).
    virtual bool supports_split_step() const { return false; }

    /// Two steps per pass (the distributed engine's pairs, distributed.hpp): "" where
    /// Engine::step(2) advances two time steps in one pass over the fields (the 3D CUDA
    /// engine's update_he3_two, cuda_step3d_two.cuh), else why not. Default: "the engine
    /// steps one step per pass".
    virtual std::string pair_step_refusal() const { return "the engine steps one step per pass"; }
    /// One step per pass from now on: the engine frees what two steps per pass hold (the 3D
    /// CUDA engine's capture set) and its Engine::kernel() says so; `why` is the reason it
    /// keeps (the 3D CUDA engine's step_reason). Called by the distributed engine where it
    /// does not step pairs. Default: nothing.
    virtual void drop_pair_steps(const std::string& why) { (void)why; }
    virtual void set_split_margins(int lo, int hi) { (void)lo, (void)hi; }
    virtual void step_begin();
    virtual void step_interior();
    virtual void step_boundary();
};

/// The planes of an in-place split step (SubdomainAccess::step_interior) along the slowest
/// axis of n planes, for halo margins lo and hi: the interior updates H over [h_begin, end)
/// and E over [e_begin, end). h_begin = 2 lo and end = n - 2 hi keep the interior off the
/// planes the halo transfers read, [lo + 1, 2 lo) and [n - 2 hi, n - hi - 1) (partition.cpp),
/// and e_begin = h_begin + 1 because E of plane h_begin reads H of plane h_begin - 1, which
/// the boundary part updates. A periodic axis (its E of plane 0 reads H of plane n - 1) keeps
/// planes 0 and n - 1 out of the interior unless the interior is the whole axis. Margins of
/// 0 and 0 make the interior the whole axis (h_begin = e_begin = 0, end = n). The boundary
/// part then updates H over [0, h_begin) and [end, n) before E over [0, e_begin) and
/// [end, n). Throws std::invalid_argument for negative margins.
struct SplitPlanes {
    int h_begin = 0, e_begin = 0, end = 0;
};
SplitPlanes split_step_planes(int lo, int hi, int n, bool periodic);

}  // namespace golightly
