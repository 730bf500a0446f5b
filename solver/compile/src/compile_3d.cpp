// GoLightly: compile a 3D Project (domain.dimensions = 3) into a 3D Scene (scene.hpp "3D
// scenes") plus the monitor bookkeeping (compile.hpp).
//
// Conventions (the 3D counterparts of the top of compile_project.cpp):
//
// Grid. Interior cells n = round(L / cell_size) along x, y, z; domain.pml.cells PML cells
// on both faces of each "pml" axis; physical x_um = (index position - pml_lo) * dx (grid.hpp).
// dt = courant * dx / c0 (the model checks courant < 1/sqrt(3)). Cell indices are 64-bit
// (CellIndex); the grid is bounded by the memory check, not by the index width.
//
// Medium. Each E component (Ex, Ey, Ez) is averaged at its own Yee positions by
// average_medium_3d (geometry.hpp: the diagonal entry of the Farjadpour tensor with
// sub-pixel averaging, else staircase; its off-diagonal entries become the tensor couplings
// of Scene::anisotropic, build_tensor_couplings in compile_common.cpp, as in 2D TEz); positions whose dx cube leaves the interior (and
// all PML cells) copy the nearest inside sample along each axis, so structures reaching
// the interior edge continue through the PML. A project without layers (or whose run uses
// none) is the uniform background and skips the geometry.
//
// Dispersive materials (scene.hpp "Dispersive cells"): as in 2D (top of
// compile_project.cpp, DispersionBuilder in compile_common.cpp). The table entry of every
// cell is the averaged (eps_inf, sigma) of average_medium_3d; each E component's samples
// get their pole set and weight from the covered fractions of compute_coverage_3d and
// run.subpixel_metal (DispersionBuilder::classify: "tangential", the default, weights the
// poles by the fraction for components tangential to the metal's surface and staircases
// the normal one; one dispersive material: its pole set, weight w; several: the union of
// their poles with c3 scaled by each w, weight 1; staircase: the material of the largest
// fraction, weight 1), PML cells copying the nearest interior sample. So the
// susceptibility of a cut cell is sum_q w_q chi_q(w) while eps_inf follows the Farjadpour
// mixing ("staircase" staircases eps_inf there too). Checks (warnings): the
// amplification factor of the discrete update on the 3D grid (dispersion.hpp, dimensions
// 3) per dispersive material, omega_0 dt, dispersive cells in the PML.
//
// Point source (electric or magnetic dipole current). A 3D `point` source is the current
// element of 1 um^3 of a region source, i.e. (2D: 1 um of a line source)
//   electric: current moment  I l(t) = dp/dt = -(2/eta0) A f(t) * (1 um)^2   (A m), J = I l delta(r)
//   magnetic: the same with M and H~ = eta0 H:  (K l)(t) = -2 A f(t) (1 um)^2     (V m)
// with A the source `amplitude` (V/m) and f the waveform. On the grid J = I l / dx^3 on the
// nearest node of the component, and eps0 eps_r dE/dt = curl H - J gives
//   E += 2 cb A (1 um / dx)^2 f     (cb = S / eps_r of the cell; magnetic: H~ += 2 S A ...).
// In vacuum the dipole radiates (time average, complex amplitudes at omega)
//   P = eta0 k^2 |I l|^2 / (12 pi) = mu0 omega^4 |p|^2 / (12 pi c0)     (Jackson 3rd ed. eq. 9.24)
// so with the DFT amplitude F(omega) of f (as the engine's DFT sets: E sources act at
// t = (n + 1/2) dt) the radiated spectrum is P(omega) = eta0 k^2 (2/eta0)^2 A^2 |F|^2 (1 um)^4
// / (12 pi), W per (V/m s)^2 of DFT units (tests/solver/test_dipole3d.cpp checks it).
//
// Plane sources (two-way). `center`, `size` with one zero entry: a sheet current on the
// plane of the nearest nodes of the component along its normal, each node weighted by the
// covered fraction of its dx square (Grid::box_nodes) and by exp(-(r / waist)^2) for the
// gaussian profile (r: in-plane distance from the centre): E += 2 cb A frac f, so an
// infinite uniform sheet radiates plane waves of amplitude A / n both ways (2D lines
// alike). The component must lie in the plane (tangential). Mode plane sources (GoLightly
// 0.3): the cross-section's full-vector eigenmode injected one way (mode_plane.hpp
// add_mode_plane_source: the same TF/SF sheet pair, with the mode's own E and H~);
// `line` and `region` sources are refused. Mode monitors (flux planes with kind "mode"):
// mode_plane.hpp compile_mode_monitor, four more DFT sets on the cross-section nodes.
//
// One-way plane sources (uniform/gaussian with a `direction` normal to the plane): the
// TF/SF sheet pair of the 2D one-way line (compile_project.cpp "One-way sources", shared
// code in compile_common.cpp) lifted to planes: an E sheet on the source component E_t at
// the e nodes nearest the plane (weight -s sigma cb h_inc frac) and an H~ sheet on the
// third axis's H~_u at the h position half a cell behind (weight -s sigma S e_inc frac,
// delayed by the half-cell travel time of the grid's dispersion at the centre frequency),
// sigma = +1 when normal = t + 1 (cyclic), -1 when normal = t + 2 (the signs of the normal
// differences in the 3D curl, scene.hpp "3D scenes"); e_inc = A prof, h_inc = -sigma s n
// e_inc with n = sqrt(eps_r) of the E node. A uniform one-way sheet across a periodic cell
// launches the grid's plane wave of amplitude A one way (tests/solver/test_oneway3d.cpp).
//
// TF/SF. compile_tfsf (compile_common.cpp): the box min/max to the nearest e positions.
//
// Flux planes. For a plane normal to n with in-plane axes t1 = n+1, t2 = n+2 (cyclic),
// S_n = E_t1 H_t2 - E_t2 H_t1: two FluxTerms (E_t1, H_t2, +s) and (E_t2, H_t1, -s), s the
// monitor direction. E_t and the H~ that pairs with it share their in-plane Yee position;
// E is taken on the e position k nearest the plane, H~ averaged from the h positions
// k - 1/2 and k + 1/2 (DftSet cell0/cell1, 0.5 each); each E sample carries its covered
// fraction of the dx square in w0 and ds = dx^2 (FluxTerm::ds_dims = 2: flux in W).
// flux_box: the six faces (Grid::box_faces) with outward directions. Cross-sections (run.hpp)
// are in um^2. The average of H~ across the plane makes a plane wave of amplitude E0
// crossing it along the normal measure |E0|^2 cos(k~ dx/2) / (2 eta0) per unit area (k~ the
// lattice wavenumber; 1.2 % below |E0|^2 / (2 eta0) at 20 cells per wavelength), and a
// uniform sheet of amplitude A radiates E0 = A / cos(k~ dx/2) (both tested in
// test_compile3d.cpp and test_mie3d.cpp); tfsf cross-sections divide by the exact
// I_inc = |E_inc|^2 / (2 eta0), so they carry this second-order factor.
//
// dft_field: the nodes nearest the region min..max (per axis at least one node), samples x
// fastest, then y, then z (CompiledMonitor region_nx/ny/nz); components default Ex, Ey, Ez.
// time: the nearest node of the component at `at [x, y, z]`. Frames: run.frames.plane and
// position (default: the domain centre) -> CompiledProject::frame_slice (nearest node).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "compile_internal.hpp"
#include "golightly/errors.hpp"
#include "golightly/geometry.hpp"
#include "golightly/limits.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/step_import.hpp"
#include "golightly/units.hpp"

namespace golightly::detail {
namespace {

const char* const kAxis[3] = {"x", "y", "z"};

class Compiler3D {
public:
    Compiler3D(const Project& p, const std::string& file, const CompileOptions& o)
        : project_(p), file_(file), options_(o) {}

    CompiledProject run() {
        compile_grid();
        compile_medium();
        out_.spectrum_hz = compile_spectrum(project_);
        resolve_bloch();
        for (std::size_t i = 0; i < project_.sources.size(); ++i) compile_source(i);
        for (std::size_t i = 0; i < project_.monitors.size(); ++i) compile_monitor(i);
        compile_frames();
        warn_tfsf_flux_boxes(project_, out_);
        finish_compile(project_, file_, out_);
        for (const std::string& w : pml_warned_) out_.warnings.push_back(w + " lies inside the PML");
        return std::move(out_);
    }

private:
    const Project& project_;
    const std::string& file_;
    const CompileOptions& options_;
    CompiledProject out_;
    Grid grid_;
    double dx_ = 0;
    std::int64_t n_int_[3] = {0, 0, 0};
    double L_[3] = {0, 0, 0};
    std::set<std::string> pml_warned_;
    /// Bloch wave vector, rad/um per axis (resolve_bloch; 0 without Bloch axes).
    std::array<double, 3> bloch_k_{0, 0, 0};
    /// Sets bloch_k_ (compile_bloch.cpp resolve_bloch_k), the Bloch phases and complex fields.
    /// Mode planes along a Bloch axis take the phases from the scene (mode_plane.hpp
    /// apply_bloch_window, which refuses what they do not support).
    void resolve_bloch() {
        auto n_at = [this](std::size_t i) {
            const Source& s = project_.sources[i];
            const Vec3 off = yee_offset(Component::Ex);
            std::array<std::int64_t, 3> ijk{};
            for (int a = 0; a < 3; ++a) ijk[a] = grid_.nearest_index(a, s.center[a], off[a]);
            const CellIndex c = flat(ijk);
            return std::sqrt(sc().table[sc().material_index[0][std::size_t(c)]].eps_r);
        };
        bloch_k_ = resolve_bloch_k(project_, file_, {L_[0], L_[1], L_[2]}, n_at);
        for (int a = 0; a < 3; ++a) sc().bloch_phase[a] = bloch_k_[a] * L_[a];
        sc().complex_fields = sc().has_bloch_phase();
    }

    Scene& sc() { return out_.scene; }
    CellIndex flat(std::int64_t i, std::int64_t j, std::int64_t k) const { return grid_.flat(i, j, k); }
    CellIndex flat(const std::array<std::int64_t, 3>& ijk) const { return flat(ijk[0], ijk[1], ijk[2]); }
    /// The E node `nd` of a one-way plane along `normal` (direction s) and the H node one cell
    /// behind it (wrapped on a periodic axis); its incident fields and delay are the caller's.
    /// Throws naming `path`.center when the plane lies on the outer edge (no room behind).
    OneWayNode one_way_node(const BoxNode& nd, int normal, int s, const std::string& path) const {
        const std::int64_t k_s = nd.ijk[normal];  // e position: the E component is tangential
        const std::int64_t kh = s > 0 ? k_s - 1 : k_s;
        if (!grid_.periodic(normal) && (kh < 0 || kh >= grid_.n[normal]))
            throw ProjectError(file_, path + ".center",
                               "a one-way plane source needs one cell of room behind it along " +
                                   std::string(kAxis[normal]) + " (it lies on the outer edge)");
        std::array<std::int64_t, 3> h = nd.ijk;
        h[normal] = grid_.wrap_or_clamp(normal, kh);
        OneWayNode on;
        on.e_cell = nd.cell;
        on.h_cell = flat(h);
        on.frac = nd.weight;
        return on;
    }

    /// Throws ProjectError (path) when point p (um) lies outside interior plus PML; notes
    /// `what` for the "inside the PML" warning.
    void check_point(const Vec3& p, const std::string& path, const std::string& what) {
        bool in_pml = false;
        for (int a = 0; a < 3; ++a) {
            const double tol = 1e-9 + 1e-9 * L_[a];
            const double lo = -grid_.pml_lo[a] * dx_, hi = L_[a] + grid_.pml_hi[a] * dx_;
            if (!(p[a] >= lo - tol && p[a] <= hi + tol))
                throw ProjectError(file_, path,
                                   what + " at (" + fmt(p.x) + ", " + fmt(p.y) + ", " + fmt(p.z) +
                                       ") um lies outside the simulation domain along " + kAxis[a] + " ([" + fmt(lo) +
                                       ", " + fmt(hi) + "] um, interior plus PML)");
            in_pml = in_pml || (grid_.pml_lo[a] > 0 && p[a] < -1e-9) || (grid_.pml_hi[a] > 0 && p[a] > L_[a] + 1e-9);
        }
        if (in_pml) pml_warned_.insert(what);
    }
    /// Both corners of a box.
    void check_box(const Box3& b, const std::string& path_lo, const std::string& path_hi, const std::string& what) {
        check_point(b.lo, path_lo, what);
        check_point(b.hi, path_hi, what);
    }
    double cb_at(Component e, CellIndex cell) {
        return sc().table[sc().material_index[static_cast<int>(e)][static_cast<std::size_t>(cell)]].cb;
    }
    /// 2 cb (electric, the cell's table entry) or 2 S (magnetic): the weight per unit field
    /// amplitude of a sheet current (top of file).
    double strength(Component c, CellIndex cell) { return 2.0 * (is_electric(c) ? cb_at(c, cell) : sc().courant); }
    /// Box of a plane given by centre and size (exactly one zero entry); returns the normal
    /// axis. Throws ProjectError (path.size) otherwise.
    int plane_box(const Vec3& center, const Vec3& size, const std::string& path, Box3& box) const {
        int zeros = 0, normal = -1;
        for (int a = 0; a < 3; ++a) {
            if (!(size[a] >= 0) || !std::isfinite(size[a]))
                throw ProjectError(file_, path + ".size", "entries must be finite and >= 0");
            if (size[a] == 0) ++zeros, normal = a;
            box.lo[a] = center[a] - 0.5 * size[a];
            box.hi[a] = center[a] + 0.5 * size[a];
        }
        if (zeros != 1) throw ProjectError(file_, path + ".size", "a plane needs exactly one zero entry (its normal)");
        return normal;
    }

    /// The interior samples of an E component (top of file, "Medium"): per axis the
    /// interior indices k_lo..k_hi whose positions (k + Yee offset) dx have their dx cube
    /// inside the interior [0, L] (the single index 0 when none has, or for every axis when
    /// `single`), as a SampleGrid3 (um).
    struct InteriorSamples {
        std::int64_t k_lo[3] = {0, 0, 0}, k_hi[3] = {0, 0, 0};
        SampleGrid3 grid;
    };
    InteriorSamples interior_samples(Component c, bool single) const;
    /// Calls f(i, j, k, cell, sample) for every grid cell in increasing flat index, with
    /// `sample` the index ((k * ny + j) * nx + i in is.grid) of the interior sample the cell
    /// takes: its own inside, the nearest inside one along each axis elsewhere (PML and
    /// edge cells continue the interior's medium).
    template <class F>
    void for_each_cell_sample(const InteriorSamples& is, F&& f) const {
        const Scene& s = out_.scene;
        auto sample = [&](int a, std::int64_t idx) {
            return std::clamp<std::int64_t>(idx - grid_.pml_lo[a], is.k_lo[a], is.k_hi[a]) - is.k_lo[a];
        };
        for (std::int64_t k = 0; k < s.nz; ++k) {
            const std::int64_t kk = sample(2, k);
            for (std::int64_t j = 0; j < s.ny; ++j) {
                const std::int64_t kj = sample(1, j);
                const std::size_t row = std::size_t(flat(0, j, k));
                const std::size_t srow = (std::size_t(kk) * std::size_t(is.grid.ny) + std::size_t(kj)) *
                                         std::size_t(is.grid.nx);
                for (std::int64_t i = 0; i < s.nx; ++i)
                    f(i, j, k, row + std::size_t(i), srow + std::size_t(sample(0, i)));
            }
        }
    }

    void compile_grid();
    void compile_medium();
    /// Scene::pole_sets and dispersive[Ex..Ez] (DispersionBuilder, top of file "Medium");
    /// eps3: the averaged eps_inf per component (whole grid).
    /// Before the material table: "conformal" adds eps_inf shifts to eps3; normal_sq:
    /// AveragedMedium::cut_normal_sq per component.
    void compile_dispersion(bool uniform, bool subpixel, std::vector<std::vector<double>>& eps3,
                            const std::vector<std::pair<std::size_t, float>> (&normal_sq)[3]);
    void compile_source(std::size_t i);
    void compile_monitor(std::size_t i);
    void compile_frames();
    void add_point_source(const Source& src, const std::string& path, const CompiledWaveform& wf);
    void add_plane_source(const Source& src, const std::string& path, const CompiledWaveform& wf);
    /// One-way plane (uniform/gaussian with a `direction` along the normal, s = +-1): the
    /// TF/SF sheet pair of compile_project.cpp "One-way sources" on the e nodes of the
    /// source component nearest the plane and the H~ partner half a cell behind
    /// (tangential_pair_3d), incident fields with the local index sqrt(eps_r) of each E
    /// node. Throws ProjectError (path.center) without a cell of room behind the plane.
    template <class Profile>
    void add_one_way_plane(const Source& src, const std::string& path, const Box3& box, int normal, int s,
                           const Profile& profile, const CompiledWaveform& wf);
    /// Oblique one-way plane wave (compile_bloch.cpp, project-format.md "Oblique plane
    /// waves"): the sheet pairs of both in-plane E components, E_t along (cos, sin) of the
    /// azimuth for p and normal to it for s, with the grid's normal index n_perp at the
    /// centre frequency (s: H~_t / E_t = n_perp; p: eps / n_perp). Sets count_new_.
    template <class Profile>
    void add_oblique_plane(const Source& src, const std::string& path, const Box3& box, int normal, int s,
                           const Profile& profile, const CompiledWaveform& wf);
    std::size_t count_new_ = 0;  ///< source terms the last one-way plane added
    void add_flux_plane(const Box3& plane, int normal, int s, const std::string& path, CompiledMonitor& cm);
};

// ----------------------------------------------------------------------------- grid

void Compiler3D::compile_grid() {
    const Domain& d = project_.domain;
    Scene& s = sc();
    dx_ = d.cell_size;
    if (!(dx_ > 0)) throw ProjectError(file_, "domain.cell_size", "must be > 0");
    s.dimensions = 3;
    s.dx_um = dx_;
    s.courant = project_.run.courant;
    s.dt_s = s.courant * dx_ * units::um / units::c0;
    int N[3];
    for (int a = 0; a < 3; ++a) {
        const double cells = d.size[a] / dx_;
        if (!(cells <= limits::kMaxCellsPerAxis))
            throw ProjectError(file_, "domain.cell_size", "gives " + fmt(cells) + " cells along " + kAxis[a] +
                                                              ", more than the limit of " + fmt(limits::kMaxCellsPerAxis));
        const long long n = std::llround(cells);
        if (n < 1)
            throw ProjectError(file_, "domain.size", std::string("the interior must span at least one cell along ") + kAxis[a]);
        if (std::abs(cells - double(n)) > 1e-6 * std::max(1.0, cells))
            out_.warnings.push_back(std::string("domain size along ") + kAxis[a] + " (" + fmt(d.size[a]) +
                                    " um) is not a multiple of the cell size " + fmt(dx_) + " um: using " +
                                    std::to_string(n) + " cells (" + fmt(double(n) * dx_) + " um)");
        n_int_[a] = n;
        L_[a] = double(n) * dx_;
        s.boundary[a] = d.boundaries[a];
        const int p = d.boundaries[a] == BoundaryKind::Pml ? d.pml.cells : 0;
        s.pml_lo[a] = s.pml_hi[a] = p;
        N[a] = static_cast<int>(std::min<long long>(n + 2LL * p, std::numeric_limits<int>::max()));
    }
    const double total = double(N[0]) * double(N[1]) * double(N[2]);
    s.nx = N[0];
    s.ny = N[1];
    s.nz = N[2];
    grid_ = s.grid();
    // Refuse before the per-cell allocations: fields (6 R), three uint16 maps, and the
    // compiler's per-cell scratch (eps and sigma doubles of three components; sigma only
    // where some material conducts).
    const double bp = project_.run.precision == Precision::Float32 ? 4 : 8;
    const double need = total * (6 * bp + 6 + 48);
    if (const double host = double(limits::host_memory_bytes()); host > 0 && need > host)
        throw ProjectError(file_, "domain.cell_size",
                           "the grid of " + std::to_string(N[0]) + " x " + std::to_string(N[1]) + " x " +
                               std::to_string(N[2]) + " cells needs about " + limits::format_bytes(need) +
                               ", more than this machine's memory (" + limits::format_bytes(host) +
                               "); use larger cells or a smaller domain");
}

// ----------------------------------------------------------------------------- medium

Compiler3D::InteriorSamples Compiler3D::interior_samples(Component c, bool uniform) const {
    InteriorSamples is;
    const Vec3 off = yee_offset(c);
    for (int a = 0; a < 3; ++a) {
        is.k_lo[a] = static_cast<std::int64_t>(std::ceil(0.5 - off[a] - 1e-9));
        is.k_hi[a] = static_cast<std::int64_t>(std::floor(double(n_int_[a]) - 0.5 - off[a] + 1e-9));
        if (uniform || is.k_lo[a] > is.k_hi[a]) is.k_lo[a] = is.k_hi[a] = 0;
    }
    is.grid.nx = int(is.k_hi[0] - is.k_lo[0] + 1);
    is.grid.ny = int(is.k_hi[1] - is.k_lo[1] + 1);
    is.grid.nz = int(is.k_hi[2] - is.k_lo[2] + 1);
    is.grid.x0_um = (double(is.k_lo[0]) + off.x) * dx_;
    is.grid.y0_um = (double(is.k_lo[1]) + off.y) * dx_;
    is.grid.z0_um = (double(is.k_lo[2]) + off.z) * dx_;
    is.grid.dx_um = dx_;
    return is;
}

void Compiler3D::compile_medium() {
    Scene& s = sc();
    const bool reference = options_.reference_run;
    const auto layers = select_layers(project_, reference);
    std::set<std::string> used{project_.domain.background};
    for (const Layer* l : layers) used.insert(l->material);
    for (std::size_t m = 0; m < project_.materials.size(); ++m) {
        const Material& mat = project_.materials[m];
        if (!used.count(mat.id)) continue;
        if (mat.epsilon_inf < 1.0) {
            const double smax = std::sqrt(std::max(0.0, mat.epsilon_inf) / 3.0);
            out_.warnings.push_back("material '" + mat.id + "': epsilon_inf = " + fmt(mat.epsilon_inf) +
                                    " < 1 lowers the 3D Courant limit to sqrt(epsilon_inf / 3) = " + fmt(smax) +
                                    (project_.run.courant > smax ? ": the Courant number " + fmt(project_.run.courant) +
                                                                       " is UNSTABLE there"
                                                                 : ""));
        }
    }
    const Material* bg = project_.find_material(project_.domain.background);
    if (!bg) throw ProjectError(file_, "domain.background", "unknown material '" + project_.domain.background + "'");
    const bool uniform = layers.empty();
    const bool subpixel = options_.subpixel_averaging.value_or(project_.run.subpixel_averaging);
    const std::size_t ncell = s.cells();
    std::vector<std::vector<double>> eps3(3), sig3(3);
    std::vector<TensorSeed> seeds[3];  // off-diagonal inverse-tensor entries (sub-pixel averaging)
    const std::vector<std::string> stair = staircased_metals(project_, used);
    std::vector<std::pair<std::size_t, float>> normal_sq[3];  // run.subpixel_metal "conformal"
    for (int ic = 0; ic < 3; ++ic) {
        const Component c = static_cast<Component>(ic);
        if (uniform) {  // (sigma maps stay empty when zero: build_material_table reads them as 0)
            eps3[ic].assign(ncell, bg->epsilon_inf);
            if (bg->conductivity != 0) sig3[ic].assign(ncell, bg->conductivity);
            continue;
        }
        const InteriorSamples is = interior_samples(c, false);
        const SampleGrid3& g = is.grid;
        const AveragedMedium med = average_medium_3d(project_, g, c, subpixel, reference, stair);
        if (subpixel && project_.run.subpixel_metal == SubpixelMetal::Conformal && any_dispersive(project_, used))
            normal_sq[ic] = average_medium_3d(conformal_probe(project_), g, c, true, reference).cut_normal_sq;
        const std::size_t ns = std::size_t(g.nx) * std::size_t(g.ny) * std::size_t(g.nz);
        if (med.eps_r.size() != ns || (!med.sigma.empty() && med.sigma.size() != ns))
            throw RunError("average_medium_3d returned " + std::to_string(med.eps_r.size()) + " samples for a grid of " +
                           std::to_string(ns));
        std::vector<double>& e = eps3[ic];
        std::vector<double>& sg = sig3[ic];
        e.resize(ncell);
        if (!med.sigma.empty()) sg.resize(ncell);
        for_each_cell_sample(is, [&](std::int64_t, std::int64_t, std::int64_t, std::size_t cell, std::size_t src) {
            e[cell] = med.eps_r[src];
            if (!sg.empty()) sg[cell] = med.sigma[src];
        });
        // each sample's own cell (samples lie inside the interior: index = sample + k_lo + pml_lo)
        const std::size_t gx = std::size_t(g.nx), gxy = gx * std::size_t(g.ny);
        seeds[ic].reserve(med.inv_eps_offdiag_3d.size());
        for (const AveragedMedium::OffDiagonal3& od : med.inv_eps_offdiag_3d) {
            const std::int64_t si = std::int64_t(od.sample % gx), sj = std::int64_t((od.sample / gx) % std::size_t(g.ny)),
                               sk = std::int64_t(od.sample / gxy);
            TensorSeed t;
            t.cell = flat(si + is.k_lo[0] + grid_.pml_lo[0], sj + is.k_lo[1] + grid_.pml_lo[1],
                          sk + is.k_lo[2] + grid_.pml_lo[2]);
            t.off[0] = od.off[0];
            t.off[1] = od.off[1];
            seeds[ic].push_back(t);
        }
    }
    if (any_dispersive(project_, used)) compile_dispersion(uniform, subpixel, eps3, normal_sq);
    build_material_table(s, eps3, sig3);
    sig3.clear();
    if (const std::size_t damped = build_tensor_couplings(s, seeds); damped > 0)
        out_.warnings.push_back("sub-pixel averaging: " + std::to_string(damped) +
                                " off-diagonal (tensor) couplings damped to keep the update stable (high "
                                "permittivity contrast at oblique interfaces)");
    build_cpml(s, project_.domain.pml.grading_order, project_.domain.pml.target_reflection);
}

// ----------------------------------------------------------------------------- dispersion

void Compiler3D::compile_dispersion(bool uniform, bool subpixel, std::vector<std::vector<double>>& eps3,
                                    const std::vector<std::pair<std::size_t, float>> (&normal_sq)[3]) {
    Scene& s = sc();
    DispersionBuilder builder(project_, s, subpixel);
    for (int ic = 0; ic < 3; ++ic) {
        const Component c = static_cast<Component>(ic);
        // The samples compile_medium averaged; a uniform medium: one sample, the background.
        const InteriorSamples is = interior_samples(c, uniform);
        Coverage cov;
        DispersionBuilder::SampleShape shape;
        shape.axis = ic;
        if (uniform) {
            cov.material_ids = {project_.domain.background};
            cov.fraction = {{1.0f}};
        } else {
            cov = compute_coverage_3d(project_, is.grid, options_.reference_run);
            shape.nx = is.grid.nx, shape.ny = is.grid.ny, shape.nz = is.grid.nz;
        }
        const auto sets = builder.classify(cov, shape, uniform ? nullptr : &normal_sq[ic]);
        cov = Coverage{};
        for_each_cell_sample(is, [&](std::int64_t i, std::int64_t j, std::int64_t k, std::size_t cell, std::size_t src) {
            if (sets.set[src] < 0) return;
            if (!sets.eps_inf.empty()) apply_sample_eps_inf(sets, src, eps3[ic][cell]);
            const std::int64_t ijk[3] = {i, j, k};
            bool pml = false;
            for (int a = 0; a < 3; ++a)
                pml = pml || ijk[a] < s.pml_lo[a] || ijk[a] >= std::int64_t(grid_.n[a]) - s.pml_hi[a];
            builder.add_cell(ic, CellIndex(cell), sets, src, eps3[ic][cell], pml);
        });
    }
    builder.add_warnings(out_.warnings, 3);
}

// ----------------------------------------------------------------------------- sources

void Compiler3D::add_point_source(const Source& src, const std::string& path, const CompiledWaveform& wf) {
    if (!src.at_z) throw ProjectError(file_, path + ".at", "a 3D point source needs `at` [x, y, z]");
    const Vec3 at{src.at.x, src.at.y, *src.at_z};
    check_point(at, path + ".at", "source '" + src.name + "'");
    const Component c = src.component;
    const Vec3 off = yee_offset(c);
    SourceTerm t;
    t.component = c;
    t.waveform = wf;
    for (const auto& [i, wi] : point_source_nodes(project_, grid_, 0, at.x, off.x))
        for (const auto& [j, wj] : point_source_nodes(project_, grid_, 1, at.y, off.y))
            for (const auto& [k, wk] : point_source_nodes(project_, grid_, 2, at.z, off.z)) {
                const CellIndex cell = flat(i, j, k);
                t.cells.push_back(cell);
                t.weights.push_back(wi * wj * wk * strength(c, cell) / (dx_ * dx_));  // (1 um / dx)^2, dx in um
            }
    sc().sources.push_back(std::move(t));
}

void Compiler3D::add_plane_source(const Source& src, const std::string& path, const CompiledWaveform& wf) {
    if (src.profile == SourceProfile::Mode) {  // mode_plane.hpp
        std::uint64_t peak = 0;
        add_mode_plane_source(project_, sc(), src, wf, options_.reference_run, path, file_, &peak);
        out_.mode_solver_peak_bytes = std::max(out_.mode_solver_peak_bytes, peak);
        return;
    }
    if (src.profile == SourceProfile::Gaussian && !(src.waist > 0))
        throw ProjectError(file_, path + ".waist", "must be > 0");
    Box3 box;
    const int normal = plane_box(src.center, src.size, path, box);
    check_box(box, path + ".center", path + ".size", "source '" + src.name + "'");
    const Component c = src.component;
    if (component_axis(c) == normal)
        throw ProjectError(file_, path + ".component",
                           "the component " + to_string(c) + " is normal to the plane (size " + kAxis[normal] +
                               " = 0): a plane source's component must lie in the plane");
    const Vec3 off = yee_offset(c);
    auto profile = [&](const BoxNode& nd) {
        if (src.profile != SourceProfile::Gaussian) return 1.0;
        double r2 = 0;
        for (int a = 0; a < 3; ++a) {
            if (a == normal) continue;
            const double d = grid_.position_um(a, nd.ijk[a], off[a]) - src.center[a];
            r2 += d * d;
        }
        return std::exp(-r2 / (src.waist * src.waist));
    };
    if (const std::string dir = one_way_direction(src); !dir.empty()) {
        const auto [axis, s] = parse_direction(dir, true);
        if (axis != normal)
            throw ProjectError(file_, path + ".direction",
                               "a one-way plane source's direction must be normal to its plane (+" +
                                   std::string(kAxis[normal]) + " or -" + kAxis[normal] + "), got \"" + dir + "\"");
        if (bloch_k_[(normal + 1) % 3] != 0 || bloch_k_[(normal + 2) % 3] != 0 || !src.polarization.empty())
            add_oblique_plane(src, path, box, normal, s, profile, wf);
        else
            add_one_way_plane(src, path, box, normal, s, profile, wf);
        if (sc().has_bloch_phase()) apply_bloch_phase(sc(), sc().sources.size() - count_new_, bloch_k_);
        return;
    }
    SourceTerm t;
    t.component = c;
    t.waveform = wf;
    for (const BoxNode& nd : grid_.box_nodes(box, c)) {
        const double prof = profile(nd);
        const CellIndex cell = nd.cell;
        const double w = strength(c, cell) * nd.weight * prof;
        if (w == 0.0) continue;
        t.cells.push_back(cell);
        t.weights.push_back(w);
    }
    if (t.cells.empty()) throw ProjectError(file_, path + ".size", "the plane covers no grid node");
    sc().sources.push_back(std::move(t));
    if (sc().has_bloch_phase()) apply_bloch_phase(sc(), sc().sources.size() - 1, bloch_k_);
}

template <class Profile>
void Compiler3D::add_one_way_plane(const Source& src, const std::string& path, const Box3& box, int normal, int s,
                                   const Profile& profile, const CompiledWaveform& wf) {
    const TangentialPair tp = tangential_pair_3d(normal, src.component);
    const auto& idx = sc().material_index[static_cast<int>(tp.e)];
    std::vector<OneWayNode> nodes;
    for (const BoxNode& nd : grid_.box_nodes(box, tp.e)) {
        OneWayNode on = one_way_node(nd, normal, s, path);
        const double n_local = std::sqrt(sc().table[idx[std::size_t(nd.cell)]].eps_r);
        plane_wave_incident(true, profile(nd), n_local, tp, s, on.e_inc, on.h_inc);
        on.delay_h_s = half_cell_delay_s(n_local, wf.omega, dx_, sc().dt_s);
        nodes.push_back(on);
    }
    if (nodes.empty()) throw ProjectError(file_, path + ".size", "the plane covers no grid node");
    const std::size_t before = sc().sources.size();
    add_one_way_terms(sc(), tp, s, nodes, wf);
    count_new_ = sc().sources.size() - before;
}

template <class Profile>
void Compiler3D::add_oblique_plane(const Source& src, const std::string& path, const Box3& box, int normal, int s,
                                   const Profile& profile, const CompiledWaveform& wf) {
    const int u = (normal + 1) % 3, v = (normal + 2) % 3;
    const double phi = src.azimuth_deg * units::pi / 180;
    const bool p_pol = src.polarization == "p";
    if (src.polarization.empty())
        throw ProjectError(file_, path + ".polarization", "an oblique plane wave needs \"s\" or \"p\"");
    // in-plane E direction: p along k_par, s normal to it (right-handed u, v, normal)
    const double eu = p_pol ? std::cos(phi) : -std::sin(phi), ev = p_pol ? std::sin(phi) : std::cos(phi);
    const double k0t = numerical_k0_per_um(wf.omega, sc().dt_s);
    const std::size_t before = sc().sources.size();
    for (const auto& [axis, amp] : {std::pair<int, double>{u, eu}, std::pair<int, double>{v, ev}}) {
        if (std::abs(amp) < 1e-12) continue;
        const Component ec = static_cast<Component>(axis);
        const TangentialPair tp = tangential_pair_3d(normal, ec);
        const auto& idx = sc().material_index[axis];
        std::vector<OneWayNode> nodes;
        for (const BoxNode& nd : grid_.box_nodes(box, ec)) {
            OneWayNode on = one_way_node(nd, normal, s, path);
            const double eps = sc().table[idx[std::size_t(nd.cell)]].eps_r;
            const double n_perp = oblique_normal_index(eps, k0t, bloch_k_, normal, dx_);
            if (!std::isfinite(n_perp))
                throw ProjectError(file_, path + ".angle_deg",
                                   "the plane wave is evanescent at the centre wavelength (Bloch k beyond n k0 of "
                                   "the medium at the source)");
            plane_wave_incident(true, amp * profile(nd), p_pol ? eps / n_perp : n_perp, tp, s, on.e_inc, on.h_inc);
            on.delay_h_s = half_cell_delay_s(n_perp, wf.omega, dx_, sc().dt_s);
            nodes.push_back(on);
        }
        if (nodes.empty()) throw ProjectError(file_, path + ".size", "the plane covers no grid node");
        add_one_way_terms(sc(), tp, s, nodes, wf);
    }
    count_new_ = sc().sources.size() - before;
}

void Compiler3D::compile_source(std::size_t si) {
    const Source& src = project_.sources[si];
    const std::string path = idx_path("sources", si);
    const CompiledWaveform wf = compile_waveform(src, path, file_);
    const std::size_t first = sc().sources.size();
    switch (src.type) {
        case SourceType::Point: add_point_source(src, path, wf); break;
        case SourceType::Plane: add_plane_source(src, path, wf); break;
        case SourceType::Tfsf:
            if (sc().has_bloch_phase())
                throw ProjectError(file_, path + ".type",
                                   "a tfsf source injects at normal incidence and cannot run with a nonzero Bloch k; "
                                   "use a one-way plane source with angle_deg");
            sc().tfsf.push_back(compile_tfsf(project_, src, path, file_, sc(), grid_, wf));
            out_.sources_end_s = std::max(out_.sources_end_s, wf.end_time_s());
            break;
        case SourceType::Line:
            throw ProjectError(file_, path + ".type", "line sources are 2D: use a plane source (center, size) in 3D");
        case SourceType::Region:
            throw ProjectError(file_, path + ".type",
                               "region sources are not supported in 3D yet (use a point, plane or tfsf source)");
    }
    for (std::size_t k = first; k < sc().sources.size(); ++k) {
        out_.sources_end_s = std::max(out_.sources_end_s, sc().sources[k].waveform.end_time_s() +
                                                              std::max(0.0, sc().sources[k].delay_s));
        sc().sources[k].origin = int(si);
    }
}

// ----------------------------------------------------------------------------- monitors

void Compiler3D::add_flux_plane(const Box3& plane, int normal, int s, const std::string& path, CompiledMonitor& cm) {
    const int t1 = (normal + 1) % 3, t2 = (normal + 2) % 3;
    // S_n = E_t1 H_t2 - E_t2 H_t1
    const struct {
        int e, h;
        double sign;
    } pairs[2] = {{t1, 3 + t2, +1.0}, {t2, 3 + t1, -1.0}};
    for (const auto& p : pairs) {
        const Component ec = static_cast<Component>(p.e), hc = static_cast<Component>(p.h);
        const auto nodes = grid_.box_nodes(plane, ec);
        if (nodes.empty()) throw ProjectError(file_, path, "the flux plane covers no grid node");
        DftSet es, hs;
        es.component = ec;
        hs.component = hc;
        es.frequencies_hz = hs.frequencies_hz = out_.spectrum_hz;
        for (const BoxNode& nd : nodes) {
            const std::int64_t k = nd.ijk[normal];
            if (!grid_.periodic(normal) && k < 1)
                throw ProjectError(file_, path,
                                   "a flux plane needs one cell of room on each side (it lies on the outer edge)");
            std::array<std::int64_t, 3> below = nd.ijk;
            below[normal] = grid_.wrap_or_clamp(normal, k - 1);
            detail::add_flux_sample(es, hs, nd.cell, nd.weight, flat(below), nd.cell);
        }
        FluxTerm term;
        term.e_set = static_cast<int>(sc().dft_sets.size());
        sc().dft_sets.push_back(std::move(es));
        term.h_set = static_cast<int>(sc().dft_sets.size());
        sc().dft_sets.push_back(std::move(hs));
        term.sign = p.sign * s;
        term.ds_um = dx_ * dx_;
        term.ds_dims = 2;
        term.normal_axis = normal;
        term.direction = s;
        cm.flux_terms.push_back(term);
    }
}

void Compiler3D::compile_monitor(std::size_t mi) {
    const Monitor& m = project_.monitors[mi];
    const std::string path = idx_path("monitors", mi);
    const std::string what = "monitor '" + m.name + "'";
    CompiledMonitor cm;
    cm.name = m.name;
    cm.type = m.type;
    cm.kind = m.kind;
    switch (m.type) {
        case MonitorType::Flux: {
            Box3 box;
            const int normal = plane_box(m.center, m.size, path, box);
            check_box(box, path + ".center", path + ".size", what);
            const auto [axis, s] = parse_direction(m.direction, true);
            if (axis != normal)
                throw ProjectError(file_, path + ".direction",
                                   std::string("must be normal to the plane: +") + kAxis[normal] + " or -" + kAxis[normal]);
            add_flux_plane(box, normal, s, path, cm);
            cm.extent_um = m.size[(normal + 1) % 3] * m.size[(normal + 2) % 3];
            if (m.kind == "mode")
                cm.mode_plan = std::make_shared<const ModeMonitorPlan>(compile_mode_monitor(
                    project_, sc(), m, out_.spectrum_hz, options_.reference_run, path, file_));
            break;
        }
        case MonitorType::FluxBox: {
            if (!m.min || !m.max || !m.min_z || !m.max_z)
                throw ProjectError(file_, path, "a 3D flux_box needs min and max [x, y, z]");
            Box3 box;
            box.lo = {std::min(m.min->x, m.max->x), std::min(m.min->y, m.max->y), std::min(*m.min_z, *m.max_z)};
            box.hi = {std::max(m.min->x, m.max->x), std::max(m.min->y, m.max->y), std::max(*m.min_z, *m.max_z)};
            check_box(box, path + ".min", path + ".max", what);
            for (int a = 0; a < 3; ++a)
                if (!(box.hi[a] - box.lo[a] > 0))
                    throw ProjectError(file_, path + ".max", std::string("the box must have nonzero extent along ") + kAxis[a]);
            const auto faces = grid_.box_faces(box);  // -x, +x, -y, +y, -z, +z
            for (int f = 0; f < 6; ++f)
                add_flux_plane(faces[std::size_t(f)], f / 2, f % 2 == 0 ? -1 : +1, path + (f % 2 == 0 ? ".min" : ".max"),
                               cm);
            break;
        }
        case MonitorType::Time: {
            if (!m.at || !m.at_z) throw ProjectError(file_, path + ".at", "a 3D time monitor needs `at` [x, y, z]");
            const Vec3 at{m.at->x, m.at->y, *m.at_z};
            check_point(at, path + ".at", what);
            const Vec3 off = yee_offset(m.component);
            TimeProbe tp;
            tp.component = m.component;
            tp.reduce = m.reduce;
            tp.cells = {flat(grid_.nearest_index(0, at.x, off.x), grid_.nearest_index(1, at.y, off.y),
                             grid_.nearest_index(2, at.z, off.z))};
            tp.weights = {1.0};
            cm.time_probe = static_cast<int>(sc().time_probes.size());
            sc().time_probes.push_back(std::move(tp));
            break;
        }
        case MonitorType::DftField: {
            Vec3 lo{0, 0, 0}, hi{L_[0], L_[1], L_[2]};
            if (m.min) lo.x = m.min->x, lo.y = m.min->y;
            if (m.max) hi.x = m.max->x, hi.y = m.max->y;
            if (m.min_z) lo.z = *m.min_z;
            if (m.max_z) hi.z = *m.max_z;
            for (int a = 0; a < 3; ++a)
                if (lo[a] > hi[a]) std::swap(lo[a], hi[a]);
            check_point(lo, path + ".min", what);
            check_point(hi, path + ".max", what);
            std::int64_t i0[3], i1[3];
            for (int a = 0; a < 3; ++a) {
                const std::int64_t n = grid_.n[a];
                i0[a] = std::clamp<std::int64_t>(std::llround(lo[a] / dx_) + grid_.pml_lo[a], 0, n - 1);
                i1[a] = std::clamp<std::int64_t>(std::llround(hi[a] / dx_) + grid_.pml_lo[a], 0, n);
                i1[a] = std::clamp<std::int64_t>(std::max(i1[a], i0[a] + 1), 1, n);
            }
            cm.region_nx = int(i1[0] - i0[0]);
            cm.region_ny = int(i1[1] - i0[1]);
            cm.region_nz = int(i1[2] - i0[2]);
            const std::vector<double> freqs = detail::dft_field_frequencies(m, path, file_);
            const std::vector<Component> comps =
                m.components.empty() ? std::vector<Component>{Component::Ex, Component::Ey, Component::Ez} : m.components;
            const std::size_t ns = std::size_t(cm.region_nx) * std::size_t(cm.region_ny) * std::size_t(cm.region_nz);
            {
                const double need = double(ns) * double(comps.size()) * (32.0 + 16.0 * double(freqs.size()));
                const double host = double(limits::host_memory_bytes());
                if (host > 0 && need > host)
                    throw ProjectError(file_, path + ".wavelengths",
                                       "the DFT field maps (" + std::to_string(cm.region_nx) + " x " +
                                           std::to_string(cm.region_ny) + " x " + std::to_string(cm.region_nz) +
                                           " cells, " + std::to_string(comps.size()) + " components, " +
                                           std::to_string(freqs.size()) + " wavelengths) need about " +
                                           limits::format_bytes(need) + ", more than this machine's memory (" +
                                           limits::format_bytes(host) + ")");
            }
            for (std::size_t k = 0; k < comps.size(); ++k) {
                const CellBox box{{i0[0], i0[1], i0[2]}, {i1[0], i1[1], i1[2]}};
                cm.dft_field_sets.push_back(static_cast<int>(sc().dft_sets.size()));
                cm.dft_field_components.push_back(comps[k]);
                sc().dft_sets.push_back(detail::box_dft_set(grid_, box, comps[k], freqs));
            }
            break;
        }
    }
    out_.monitors.push_back(std::move(cm));
}

// ----------------------------------------------------------------------------- frames

void Compiler3D::compile_frames() {
    const Frames& fr = project_.run.frames;
    int normal = 2;
    if (fr.plane == "xy") normal = 2;
    else if (fr.plane == "xz") normal = 1;
    else if (fr.plane == "yz") normal = 0;
    else throw ProjectError(file_, "run.frames.plane", "must be \"xy\", \"xz\" or \"yz\"");
    const double pos = fr.position.value_or(0.5 * L_[normal]);
    out_.frame_slice.normal_axis = normal;
    out_.frame_slice.index = grid_.nearest_index(normal, pos, 0.0);
}

}  // namespace

CompiledProject compile_project_3d(const Project& project, const std::string& file, const CompileOptions& options) {
    if (project.domain.dimensions != 3)
        throw ProjectError(file, "domain.dimensions", "compile_project_3d needs a 3D project");
    // A STEP part placed wholly outside the domain interior would vanish from the run
    // without a word (project_validate.cpp checks the other shapes; this one needs the file).
    const auto& L = project.domain.size;
    for (std::size_t i = 0; i < project.layers.size(); ++i)
        for (std::size_t k = 0; k < project.layers[i].shapes.size(); ++k) {
            const Shape& s = project.layers[i].shapes[k];
            if (s.type != ShapeType::Step) continue;
            const std::array<double, 6> b = step_bounds_um(s);
            bool outside = false;
            for (int a = 0; a < 3; ++a) outside |= b[3 + a] < 0 || b[a] > L[a];
            if (outside) {
                char msg[320];
                std::snprintf(msg, sizeof msg,
                              "the STEP part lies wholly outside the domain interior [0, %g] x [0, %g] x [0, %g] um "
                              "(its placed extent is [%g, %g] x [%g, %g] x [%g, %g] um): check scale and translate",
                              L[0], L[1], L[2], b[0], b[3], b[1], b[4], b[2], b[5]);
                throw ProjectError(file, "layers[" + std::to_string(i) + "].shapes[" + std::to_string(k) + "]", msg);
            }
        }
    Compiler3D c(project, file, options);
    return c.run();
}

}  // namespace golightly::detail
