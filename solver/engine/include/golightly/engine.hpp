// GoLightly engines: step a compiled Scene on one backend.
//
// An engine owns the field state of one (sub)domain and advances it exactly as the
// header comment of scene.hpp specifies, so every backend computes the same numbers
// up to rounding. Monitors read fields only through this interface (device-side DFT and
// probe accumulation on the GPU), never cell by cell.
//
// Engine is the core every backend implements: stepping, energy, field copies, DFT and
// time samples, live edit. Two seams sit beside it, each in its own header:
//   FrameSource (frame_source.hpp)   frames, field samples, 3D slices, GL interop, for
//                                    the viewer: Engine::frames();
//   SubdomainAccess (subdomain.hpp)  field storage and split steps, for the distributed
//                                    engine and its halo exchanges: Engine::subdomain(),
//                                    nullptr where the engine cannot be a subdomain.
// Concrete engines implement all three classes and return themselves from the accessors;
// callers reach frames and storage only through the accessors. docs/architecture.md,
// "Engine seams".
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "golightly/frame_source.hpp"
#include "golightly/scene.hpp"
#include "golightly/subdomain.hpp"

namespace golightly {

/// The compiled scene an engine steps, held read-only. Engines keep this view, never a
/// copy, of the scene's per-cell maps: the compiled scene is the one full-grid host copy
/// (at 1024^3 one copy of six uint16 index maps is 12 GB). view_of() makes a non-owning
/// view of a scene that outlives the engine (the run driver's compiled project).
using SceneView = std::shared_ptr<const Scene>;
/// A non-owning SceneView of `scene`: the caller keeps the scene alive while any engine
/// made from the view exists.
inline SceneView view_of(const Scene& scene) { return SceneView(std::shared_ptr<const Scene>(), &scene); }

class Engine {
public:
    virtual ~Engine() = default;

    /// "cpu" or "cuda".
    virtual std::string backend() const = 0;
    /// Human-readable device: CPU model and thread count, or the GPU name.
    virtual std::string device() const = 0;
    /// The bulk update kernel in use, for reports (summary.json "kernel", bench), e.g.
    /// "two steps per pass (update_he3_two)"; "" where the engine does not name one.
    virtual std::string kernel() const { return ""; }
    virtual Precision precision() const = 0;

    /// Advances n_steps time steps (scene.hpp: "One time step"). Does not block on the
    /// GUI; on CUDA it may return before the device has finished (the next call that
    /// reads anything synchronizes).
    virtual void step(int n_steps) = 0;
    /// Steps completed so far.
    virtual std::int64_t steps_done() const = 0;
    /// Waits until the work queued by step() has finished (CUDA: the engine's stream; the
    /// CPU engine steps synchronously, so this returns at once).
    virtual void synchronize() {}

    /// The engine's memory-traffic model: bytes moved through memory per cell and step by
    /// all the kernels of step() for this scene (bulk update, CPML psi, dispersive and
    /// tensor passes, DFT accumulators), averaged over the grid's cells. Each kernel states
    /// its share in a comment beside it; bench divides achieved cell updates by this to
    /// give bandwidth. Engines without a model (test doubles) throw std::logic_error.
    virtual double bytes_per_cell_update() const;

    /// Electromagnetic energy per unit length in z, J/m:
    ///   0.5 * eps0 * dx^2 * sum_cells (eps_r E^2 + H~^2)    (H~ = eta0 H)
    /// over all cells, E at the current step, H at the last half step. In dispersive cells
    /// eps_r is the table's eps_inf; the energy held by the polarizations is not included.
    virtual double field_energy() = 0;
    /// False when any field value is NaN or Inf.
    virtual bool fields_finite() = 0;

    /// Copies one component (nx*ny values, index j*nx+i) to the host.
    /// Throws std::invalid_argument for a component the polarization lacks.
    virtual void get_field(Component c, std::vector<double>& out) = 0;
    /// Overwrites one component (tests: random initial fields).
    virtual void set_field(Component c, const std::vector<double>& values) = 0;

    /// The DFT accumulators of scene.dft_sets[set]: samples x frequencies, row-major
    /// [k * n_freq + f] (scene.hpp, DftSet).
    virtual std::vector<std::complex<double>> dft(int set) = 0;
    /// All values recorded by scene.time_probes[probe] since the start, one per step.
    virtual std::vector<double> time_samples(int probe) = 0;

    /// Live edit (IDE, issue 5): replaces the per-cell material data of the running grid
    /// with that of `edited`, a scene compiled from the edited project on the same grid;
    /// the fields, CPML psi, pole state, DFT accumulators, probes and the step count are
    /// kept, and the next step() uses the new materials. Call it between step() calls
    /// only (never concurrently with other calls on the engine).
    ///
    /// What may change: Scene::table and Scene::material_index (the non-dispersive eps_r
    /// and sigma of any cell, PML cells included: a structure moved across the PML is
    /// absorbed there as it would be from the start), and Scene::anisotropic (the TEz
    /// tensor couplings move with the interfaces; their state lives within one step). What must not change (checked by
    /// check_material_update(), std::invalid_argument otherwise, the engine untouched):
    /// the grid (polarization, nx, ny, dx_um, dt_s, courant, boundaries, PML cells:
    /// "restart the run"), and the dispersive cells and pole sets (Scene::dispersive,
    /// Scene::pole_sets: refused, since the polarization state of new cells would start
    /// mid-run; the coefficient weight * cb / S of unchanged dispersive cells follows the
    /// new table). Sources, DFT sets and time probes of `edited` are ignored: the running
    /// ones stay (monitor spectra of an edited run mix two structures).
    ///
    /// CPU: refills the per-cell ca / cb arrays (and the uniform-row map). CUDA: copies
    /// the uint16 material index map(s) and the coefficient table to the device between
    /// step batches (the captured step graph is rebuilt when the table outgrows its buffer).
    /// The engine keeps `edited` as its view of the materials from then on (no copy).
    /// The default implementation throws RunError (backend without live edit).
    virtual void update_materials(SceneView edited);
    /// update_materials() of a copy of `edited` (tests and callers that own no SceneView).
    void update_materials(const Scene& edited) { update_materials(std::make_shared<const Scene>(edited)); }

    /// The engine's frames for the viewer (frame_source.hpp), valid as long as the engine.
    virtual FrameSource& frames() = 0;
    /// The engine as one subdomain of a distributed run (subdomain.hpp: field storage, split
    /// steps), valid as long as the engine; nullptr (the default) when it cannot be one.
    virtual SubdomainAccess* subdomain() { return nullptr; }
    /// How the engine's grid is distributed (distributed.hpp); the default, one domain,
    /// leaves every field empty.
    virtual DistributionInfo distribution() const { return {}; }
};

/// Checks that `edited` may replace the material data of an engine running `running`
/// (Engine::update_materials). Throws std::invalid_argument with a message that starts
/// with "live edit: " and ends in what to do: a changed grid ("restart the run"; in 3D the
/// z extent, boundary and PML too), changed dispersive cells or pole sets, material maps of
/// the wrong size (the polarization's components in 2D, Ex, Ey, Ez in 3D) or indices
/// beyond the table.
void check_material_update(const Scene& running, const Scene& edited);

/// True when `a` and `b` give every E cell the same table entry values (ca, cb, eps_r,
/// sigma) and the same TEz tensor couplings (Scene::anisotropic): an edit that leaves the
/// materials as they are (moving a monitor).
bool same_materials(const Scene& a, const Scene& b);

/// True when two coupling lists (scene.hpp "Anisotropic cells") are identical. Live edits
/// replace the running list with the edited scene's when they differ.
bool same_anisotropic(const AnisotropicCells& a, const AnisotropicCells& b);

/// CPU backend: threads over rows, vectorized inner loops. threads <= 0: all cores. The
/// engine keeps the view (grid, sources, monitors, the initial materials).
/// Throws RunError on allocation failure (OutOfMemoryError with the sizes).
std::unique_ptr<Engine> make_cpu_engine(SceneView scene, Precision precision, int threads = 0);
/// make_cpu_engine() of a copy of `scene` (tests, temporaries).
inline std::unique_ptr<Engine> make_cpu_engine(const Scene& scene, Precision precision, int threads = 0) {
    return make_cpu_engine(std::make_shared<const Scene>(scene), precision, threads);
}

/// True when the CUDA backend implements the dispersive pass (scene.hpp "Dispersive
/// cells"); the run driver falls back to the CPU for dispersive scenes otherwise.
bool cuda_supports_dispersion();
/// CUDA backend. Throws RunError when CUDA was not compiled in or no device is present,
/// OutOfMemoryError (bytes needed and available) when the grid does not fit.
std::unique_ptr<Engine> make_cuda_engine(SceneView scene, Precision precision);
/// make_cuda_engine() on CUDA device `device` (an ordinal below cuda_device_count()); the
/// engine's arrays and stream live there. Callers of such an engine's methods make `device`
/// current first (cuda_select_device), as the distributed engine does. Leaves `device`
/// current. Throws RunError for an ordinal out of range.
std::unique_ptr<Engine> make_cuda_engine(SceneView scene, Precision precision, int device);
/// make_cuda_engine() of a copy of `scene` (tests, temporaries).
inline std::unique_ptr<Engine> make_cuda_engine(const Scene& scene, Precision precision) {
    return make_cuda_engine(std::make_shared<const Scene>(scene), precision);
}

}  // namespace golightly
