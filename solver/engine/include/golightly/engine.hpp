// GoLightly engines: step a compiled Scene on one backend.
//
// An engine owns the field state of one (sub)domain and advances it exactly as the
// header comment of scene.hpp specifies, so every backend computes the same numbers
// up to rounding. Monitors read fields only through this interface (device-side DFT and
// probe accumulation on the GPU), never cell by cell.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "golightly/image_io.hpp"
#include "golightly/scene.hpp"

namespace golightly {

/// The compiled scene an engine steps, held read-only. Engines keep this view, never a
/// copy, of the scene's per-cell maps: the compiled scene is the one full-grid host copy
/// (at 1024^3 one copy of six uint16 index maps is 12 GB). view_of() makes a non-owning
/// view of a scene that outlives the engine (the run driver's compiled project).
using SceneView = std::shared_ptr<const Scene>;
/// A non-owning SceneView of `scene`: the caller keeps the scene alive while any engine
/// made from the view exists.
inline SceneView view_of(const Scene& scene) { return SceneView(std::shared_ptr<const Scene>(), &scene); }

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
};

/// One subdomain of a distributed run, as summary.json lists it (project-format.md, "Runs
/// on several GPUs and hosts"): min_cell / max_cell the inclusive global (i, j, k) corners
/// of the cells it owns.
struct SubdomainInfo {
    int rank = 0;
    std::string device;
    std::int64_t min_cell[3] = {0, 0, 0}, max_cell[3] = {0, 0, 0};
};

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

    /// A colour-mapped, downsampled frame of one component for the viewport: the grid is
    /// box-averaged by an integer factor so that the frame fits max_width x max_height,
    /// then mapped with diverging_rgb (colormap.hpp) of value / scale. RGBA8, rows top
    /// (max y) first, alpha 255. The factor is f = max(1, ceil(nx / max_width),
    /// ceil(ny / max_height)); the frame is ceil(nx / f) x ceil(ny / f) pixels, pixel
    /// (bx, by) averaging cells i in [bx f, min(nx, bx f + f)), j likewise (the last
    /// column/row of boxes may hold fewer cells). Values at the component's own Yee
    /// positions; auto scale 0 (all-zero frame) maps everything to white. On CUDA the frame is made on the device and only the
    /// small image crosses to the host.
    struct FrameRequest {
        Component component = Component::Ez;
        int max_width = 1024, max_height = 1024;
        double scale = 0;  ///< colour-scale half range; <= 0: auto (max |value| of the frame)
        /// false: alpha 255. true: the viewport's blend over the structure, alpha =
        /// 255 * clamp(0.3 + 1.4 |value / scale|, 0, 0.92) (straight, not premultiplied).
        bool viewport_alpha = false;
    };
    virtual Image8 frame(const FrameRequest& request) = 0;

    /// Box-averaged samples of one component for a viewport that colour-maps itself: the
    /// same factor and boxes as frame(), values[by * width + bx] with row by = 0 at the
    /// bottom (min y), each the mean of value (squared = false) or of value^2 (squared =
    /// true, for |E|^2 sums) over its box, as float. Only width * height floats leave the
    /// engine: the CPU engine averages in place with its threads, the CUDA engine on the
    /// device. Throws std::invalid_argument for a component the polarization lacks,
    /// std::logic_error from engines that do not implement it (test doubles).
    struct FieldSamples {
        int width = 0, height = 0, factor = 1;
        std::vector<float> values;
    };
    virtual FieldSamples sample_field(Component component, int max_width, int max_height, bool squared = false);

    /// 3D scenes: the plane frame() and sample_field() show from now on (scene.hpp
    /// FrameSlice; "3D scenes" for the image axes). The default (and 2D engines) ignore it.
    virtual void set_frame_slice(const FrameSlice& slice) { (void)slice; }

    /// The frame() image rendered into device memory, for CUDA-OpenGL interop
    /// (gl_interop.hpp): writes width * height * 4 RGBA8 bytes (layout as frame()) to
    /// `device_rgba` (a CUDA device pointer of capacity_bytes) and waits for the engine's
    /// stream. Sets width and height in every case. Returns false and writes nothing when
    /// the engine has no device memory (CPU) or capacity_bytes is too small.
    virtual bool frame_to_device(const FrameRequest& request, void* device_rgba, std::size_t capacity_bytes,
                                 int& width, int& height) {
        (void)request, (void)device_rgba, (void)capacity_bytes;
        width = height = 0;
        return false;
    }

    /// The engine's field arrays (FieldStorage) for halo exchange. Engines without direct
    /// access (test doubles) throw std::logic_error.
    virtual FieldStorage field_storage();
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
    ///                    bulk update); steps_done() counts the step.
    /// On a GPU each call only enqueues work on the engine's stream (FieldStorage::cuda_stream).
    /// Defaults: no split (step_boundary() is step(1)).
    virtual bool supports_split_step() const { return false; }
    virtual void set_split_margins(int lo, int hi) { (void)lo, (void)hi; }
    virtual void step_begin() {}
    virtual void step_interior() {}
    virtual void step_boundary() { step(1); }
    /// The subdomains of a distributed engine (distributed.hpp); empty for one domain.
    virtual std::vector<SubdomainInfo> subdomains() const { return {}; }
    /// How a distributed engine exchanges its halos (distributed.hpp: HaloExchange::transport,
    /// DistributedEngine::mode); both empty for one domain.
    struct HaloExchangeInfo {
        std::string transport, mode;
    };
    virtual HaloExchangeInfo halo_exchange() const { return {}; }

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
};

/// The frame factor of Engine::frame / sample_field: f = max(1, ceil(nx / max_width),
/// ceil(ny / max_height)) (max_* clamped to >= 1).
int frame_factor(int nx, int ny, int max_width, int max_height);

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
/// The planes of an in-place split step (Engine::step_interior) along the slowest axis of
/// n planes, for halo margins lo and hi: the interior updates H over [h_begin, end) and E
/// over [e_begin, end). h_begin = 2 lo and end = n - 2 hi keep the interior off the planes
/// the halo transfers read, [lo + 1, 2 lo) and [n - 2 hi, n - hi - 1) (partition.cpp), and
/// e_begin = h_begin + 1 because E of plane h_begin reads H of plane h_begin - 1, which the
/// boundary part updates. A periodic axis (its E of plane 0 reads H of plane n - 1) keeps
/// planes 0 and n - 1 out of the interior unless the interior is the whole axis. Margins of
/// 0 and 0 make the interior the whole axis (h_begin = e_begin = 0, end = n). The boundary
/// part then updates H over [0, h_begin) and [end, n) before E over [0, e_begin) and
/// [end, n). Throws std::invalid_argument for negative margins.
struct SplitPlanes {
    int h_begin = 0, e_begin = 0, end = 0;
};
SplitPlanes split_step_planes(int lo, int hi, int n, bool periodic);

std::unique_ptr<Engine> make_cpu_engine(SceneView scene, Precision precision, int threads = 0);
/// make_cpu_engine() of a copy of `scene` (tests, temporaries).
inline std::unique_ptr<Engine> make_cpu_engine(const Scene& scene, Precision precision, int threads = 0) {
    return make_cpu_engine(std::make_shared<const Scene>(scene), precision, threads);
}

/// True when the CUDA backend was compiled in and a CUDA device is present.
bool cuda_available();
/// The number of CUDA devices this process sees (cudaGetDeviceCount, i.e. after
/// CUDA_VISIBLE_DEVICES); 0 without CUDA support or a usable device.
int cuda_device_count();
/// A one-line description of the CUDA device (or why none is usable).
std::string cuda_device_description();
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
/// Makes CUDA device `ordinal` current for the calling thread (cudaSetDevice). Throws
/// RunError when it fails or CUDA is not compiled in.
void cuda_select_device(int ordinal);
/// The name of CUDA device `ordinal` (e.g. "NVIDIA H200"); "" when unavailable.
std::string cuda_device_name(int ordinal);
/// Bytes of device memory in use on CUDA device `ordinal` (cudaMemGetInfo: total - free, all
/// processes), 0 without CUDA or for a bad ordinal. bench takes the difference around an
/// engine's construction as that engine's device memory.
std::size_t cuda_memory_used(int ordinal);
/// Free bytes of device memory on CUDA device `ordinal` (cudaMemGetInfo), 0 without CUDA or
/// for a bad ordinal.
std::size_t cuda_memory_free(int ordinal);
/// Copies `bytes` bytes from device memory `src` on CUDA device `device` to host memory
/// `dst`, ordered on `stream` (a cudaStream_t of that device), and waits. Throws RunError.
void cuda_copy_to_host(void* dst, const void* src, std::size_t bytes, int device, void* stream);
/// make_cuda_engine() of a copy of `scene` (tests, temporaries).
inline std::unique_ptr<Engine> make_cuda_engine(const Scene& scene, Precision precision) {
    return make_cuda_engine(std::make_shared<const Scene>(scene), precision);
}
/// Device-to-device copy bandwidth of the CUDA device, GB/s (1e9 B/s), counting bytes read
/// plus bytes written, for a copy of `bytes` bytes: the better of a 16-byte-access copy
/// kernel and cudaMemcpy device-to-device, each the median of 20 runs (bench's yardstick).
/// Throws RunError when CUDA is not compiled in or no device is present.
double cuda_copy_bandwidth_gbs(std::size_t bytes);

}  // namespace golightly
