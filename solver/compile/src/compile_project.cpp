// GoLightly: compile a Project into a Scene plus monitor bookkeeping (compile.hpp).
//
// Conventions chosen here (documented for the driver, the GUI and the tests):
//
// Grid. Interior cells n = round(L / cell_size) per axis; PML cells (domain.pml.cells) on
// both sides of each "pml" axis. Physical x_um = (index position - pml_lo) * dx, so the
// integer (e) node i = pml_lo sits at x = 0. dt = courant * dx / c0.
//
// Medium. Each E component is sampled at its own Yee positions (average_medium). Sample
// windows must lie inside the interior: positions closer than dx/2 to the interior edge
// (and all PML positions) copy the nearest inside sample along that axis, so geometry that
// reaches the interior edge continues unchanged through the PML (spec: domain).
//
// Sub-pixel tensor (TEz, scene.hpp "Anisotropic cells"): the off-diagonal entries of
// average_medium become Scene::anisotropic; rules and damping at build_tensor_couplings
// (compile_internal.hpp, shared with 3D).
//
// Dispersive materials (scene.hpp "Dispersive cells"). The table entry of every cell is
// the averaged (eps_inf, sigma) of average_medium; the poles come on top. With sub-pixel
// averaging a cell covered by fractions f_q of materials q gets the susceptibility
// sum_q w_q chi_q(w), the weights w_q of a metal (Re eps < 0 somewhere in the band; other
// dispersive materials keep w = f) by run.subpixel_metal (DispersionBuilder::classify):
// "tangential" (default) w = f for E tangential to the metal's whole surface (the
// arithmetic mean of eps that E parallel to an interface sees exactly; Ez in 2D always)
// and the staircase value otherwise; "fraction" w = f for every
// component (puts the normal component of cut metal cells near Re eps = 0, where it
// absorbs spuriously); "staircase" the whole cell staircased, eps_inf and sigma included.
// One dispersive material in the cell: its own pole set, weight w; several: a pole set of
// the union with c3 scaled by each w, weight 1. Without averaging (staircase) the material
// with the largest fraction takes the whole cell (weight 1). Slivers with w < 1e-7 are
// dropped. Checks (warnings): per used dispersive material the amplification factor of the
// discrete update (dispersion.hpp) with its eps_inf and with eps_inf lowered to the
// smallest averaged eps_inf of its cells; omega_0 dt >= 2 (unstable) or > 1 (poorly
// resolved); eps_inf < 1 with the Courant limit sqrt(eps_inf / 2) it implies; dispersive
// cells inside the PML.
//
// Source amplitude ("weight convention"). A source is an electric current J (on an E
// component) or a magnetic current M (on an H~ = eta0 H component) whose strength is set
// so that `amplitude` is a field amplitude, independent of the resolution:
//   line (sheet current K = -(2/eta0) A f(t)):  E += 2 cb A f per node (each node weighted
//        by the fraction of its dx the line covers); an infinite uniform line radiates a
//        plane wave E = A f(t - |x|/c) / n on both sides (vacuum: A).
//   point (TMz: a line current I = -(2/eta0) A f * 1 um, i.e. the 1 um of a line source):
//        E += 2 cb A (1 um / dx) f on the nearest node of the component.
//   region (current density J = -(2/eta0) A f / 1 um times the coverage c of the shape):
//        E += 2 cb A c (dx / 1 um) f.
//   On a magnetic component (Hz in TEz) the same with cb -> S (H~ += 2 S A f ...): the
//   radiated H~ = eta0 H then has amplitude A in vacuum.
//   Derivation: eps0 eps_r dE/dt = curl H - J gives E += -(dt / (eps0 eps_r)) J =
//   -cb eta0 dx J (cb = S / eps_r); a sheet current K radiates E = -eta0 K / 2 each side.
//
// One-way sources (profile "mode", and uniform/gaussian lines that give a `direction`,
// which must be normal to the line; without one, a line radiates both ways): a total-field/scattered-field plane at the E nodes of the line
// (Taflove & Hagness 3rd ed. sec. 5.6, 1D TF/SF): with the incident field e_inc, h_inc
// (tangential E and H~ of the mode, e.g. Ez and Hy for TMz along x) and s = +-1 the
// direction along the normal axis,
//   E term on e(k_s):           weight -s sigma_e cb h_inc   (h_inc at k_s - s/2)
//   H term on h(k_s - (s>0)):   weight -s sigma_h S  e_inc   (e_inc at k_s)
// sigma_e / sigma_h are the signs with which the normal derivative enters the e / h update
// (scene.hpp), h_inc = -sigma_h s n_eff e_inc (n_eff = beta~ / k0~ of the discrete mode),
// TEz: e_inc = -sigma_e s n_eff h_inc / eps. The incident field is referenced to the
// point half a cell upstream of the plane at the E-source time, so the E term has delay 0
// and the H term the half-cell travel time dx / (2 v_phase) at the centre frequency.
// Power then goes along `direction`, nothing backwards (up to the pulse's dispersion).
// The sheet pair, the plane-wave incident fields and the delay are built by
// compile_common.cpp (add_one_way_terms, plane_wave_incident, half_cell_delay_s), shared
// with the 3D one-way plane source (compile_3d.cpp).
//
// Flux monitors. Tangential E on the E nodes of the line (the nearest e position along the
// normal), H~ averaged from the two H nodes either side (DftSet cell0/cell1, 0.5 each).
// Each E sample's weight w0 is the fraction of its dx the line covers (end nodes), so
// FluxTerm::ds_um = dx for every sample. Sign: Sx = -Ez Hy, Sy = Ez Hx (TMz),
// Sx = Ey Hz, Sy = -Ex Hz (TEz), times +-1 for the monitor's direction.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "golightly/compile.hpp"
#include "compile_internal.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/dispersion.hpp"
#include "golightly/errors.hpp"
#include "golightly/gds.hpp"
#include "golightly/geometry.hpp"
#include "golightly/limits.hpp"
#include "golightly/mode_solver.hpp"
#include "golightly/mode_solver_bend.hpp"
#include "golightly/units.hpp"

namespace golightly {
namespace {

using units::c0;
using units::pi;


bool in_polarization(Component c, Polarization p) {
    for (Component x : electric_components(p))
        if (x == c) return true;
    for (Component x : magnetic_components(p))
        if (x == c) return true;
    return false;
}
double axis_of(const Vec2& v, int a) { return a == 0 ? v.x : v.y; }
double axis_of(const Vec3& v, int a) { return v[a]; }

using detail::fmt;
using detail::idx_path;

/// Tangential field pair of a line normal to axis `normal` (one-way sources and flux
/// lines; compile_internal.hpp).
using detail::TangentialPair;
using detail::TensorSeed;
using detail::build_tensor_couplings;
TangentialPair tangential_pair(Polarization p, int normal) {
    if (p == Polarization::TMz)
        return normal == 0 ? TangentialPair{Component::Ez, Component::Hy, +1, +1}
                           : TangentialPair{Component::Ez, Component::Hx, -1, -1};
    return normal == 0 ? TangentialPair{Component::Ey, Component::Hz, -1, -1}
                       : TangentialPair{Component::Ex, Component::Hz, +1, +1};
}

std::pair<int, int> parse_direction(const std::string& d) { return detail::parse_direction(d, false); }

/// One node of a line: tangential grid index and covered fraction of its dx.
/// `bend_radius` of a 2D mode line (a `mode` line source's or a line mode monitor's extra
/// member; spec "Mode sources and monitors"): a finite number (um, signed: R > 0 puts the
/// centre of curvature on the line's low side along its axis); 0 when absent. A 2D line
/// bends about z, so `bend_axis` is refused there.
double line_bend_radius(const Json& extra, const std::string& path, const std::string& file) {
    if (!extra.is_object()) return 0;
    if (extra.contains("bend_axis"))
        throw ProjectError(file, path + ".bend_axis",
                           "applies to 3D planes (a 2D line bends about z, its centre of curvature on the line's axis)");
    if (!extra.contains("bend_radius")) return 0;
    const Json& r = extra.at("bend_radius");
    if (!r.is_number() || !std::isfinite(r.get<double>()))
        throw ProjectError(file, path + ".bend_radius", "must be a finite number (um; 0 = straight)");
    return r.get<double>();
}

/// PML cells at each end of a bent 2D mode line: kBendPmlCells, and at least 0.5 um (a
/// third of a wavelength in the cladding at 1.55 um: the radiated wave leaves the line's end
/// at grazing incidence, which a thinner graded layer reflects; the Meep comparison of
/// tests/solver/test_mode_bend.cpp uses 0.5 um too).
int line_bend_pml_cells(double dx_um) { return std::max(kBendPmlCells, int(std::lround(0.5 / dx_um))); }

struct LineNode {
    int t = 0;
    double frac = 0;
    double pos_um = 0;  ///< physical tangential position
};

class Compiler {
public:
    Compiler(const Project& p, const std::string& file, const CompileOptions& o)
        : project_(p), file_(file), options_(o) {}

    CompiledProject run();

private:
    const Project& project_;
    const std::string& file_;
    const CompileOptions& options_;
    CompiledProject out_;
    Scene& sc() { return out_.scene; }
    int n_int_[2] = {0, 0};
    int N_[2] = {0, 0};
    double L_[2] = {0, 0};
    double dx_ = 0;
    /// Averaged eps_r per E component (index by Component, whole grid).
    std::vector<double> eps_[3];
    /// Bloch wave vector, rad/um per axis (resolve_bloch; 0 without Bloch axes).
    std::array<double, 3> bloch_k_{0, 0, 0};
    /// Sets bloch_k_ (detail::resolve_bloch_k), the scene's Bloch phases and complex fields.
    void resolve_bloch();

    // ---- grid helpers
    bool periodic(int a) const { return project_.domain.boundaries[a] == BoundaryKind::Periodic; }
    int pml_lo(int a) const { return out_.scene.pml_lo[a]; }
    int pml_hi(int a) const { return out_.scene.pml_hi[a]; }
    /// The scene's grid (grid.hpp), set by compile_grid(): the node queries below are its.
    Grid grid_;
    /// Physical position (um) of grid index k of a component with offset off along a.
    double pos_um(int a, int k, double off) const { return grid_.position_um(a, k, off); }
    /// Nearest grid index of a component at physical position x (wrapped or clamped).
    int nearest_index(int a, double x_um, double off) const { return int(grid_.nearest_index(a, x_um, off)); }
    int wrap_or_clamp(int a, long k) const { return int(grid_.wrap_or_clamp(a, k)); }
    CellIndex flat(int i, int j) const { return grid_.flat(i, j); }
    bool inside_domain(int a, double x_um) const {
        const double tol = 1e-9 + 1e-9 * L_[a];
        return x_um >= -pml_lo(a) * dx_ - tol && x_um <= L_[a] + pml_hi(a) * dx_ + tol;
    }
    bool inside_pml(int a, double x_um) const {
        const double tol = 1e-9;
        return (pml_lo(a) > 0 && x_um < -tol) || (pml_hi(a) > 0 && x_um > L_[a] + tol);
    }
    void check_point(const Vec2& v, const std::string& path, const std::string& what) {
        if (!inside_domain(0, v.x) || !inside_domain(1, v.y))
            throw ProjectError(file_, path,
                               what + " at (" + fmt(v.x) + ", " + fmt(v.y) +
                                   ") um lies outside the simulation domain (interior plus PML: x in [" +
                                   fmt(-pml_lo(0) * dx_) + ", " + fmt(L_[0] + pml_hi(0) * dx_) + "], y in [" +
                                   fmt(-pml_lo(1) * dx_) + ", " + fmt(L_[1] + pml_hi(1) * dx_) + "])");
        if (inside_pml(0, v.x) || inside_pml(1, v.y)) pml_warned_.insert(what);
    }
    std::set<std::string> pml_warned_;
    std::size_t anisotropic_damped_ = 0;

    double cb_at(Component e, CellIndex cell) {
        const auto& idx = sc().material_index[static_cast<int>(e)];
        return sc().table[idx[static_cast<std::size_t>(cell)]].cb;
    }
    double eps_at(Component e, int i, int j) const {
        return eps_[static_cast<int>(e)][static_cast<std::size_t>(flat(i, j))];
    }

    /// Nodes of a component along an axis-aligned line: tangential axis t, interval [a, b]
    /// (um), each node with the fraction of its dx window inside the interval (periodic
    /// axes wrap).
    std::vector<LineNode> line_nodes(int t, double a, double b, double off) const {
        std::vector<LineNode> nodes;
        for (const AxisNode& n : grid_.axis_nodes(t, a, b, off)) nodes.push_back({int(n.index), n.frac, n.pos_um});
        return nodes;
    }

    /// Coverage of a shape at the positions of a component (whole grid, index j*nx+i).
    std::vector<double> shape_coverage(const Shape& shape, Component c, const std::string& path);

    /// The material ids the run uses: the background and the material of every layer in
    /// `layers` (select_layers).
    std::set<std::string> used_material_ids(const std::vector<const Layer*>& layers) const {
        std::set<std::string> used{project_.domain.background};
        for (const Layer* l : layers) used.insert(l->material);
        return used;
    }

    /// The interior samples of an E component (top of file, "Medium"): per axis the
    /// interior indices k_lo..k_hi whose positions (k + Yee offset) dx have their dx window
    /// inside the interior [0, L] (the single index 0 when none has), as a SampleGrid (um).
    struct InteriorSamples {
        int k_lo[2] = {0, 0}, k_hi[2] = {0, 0};
        SampleGrid grid;
    };
    InteriorSamples interior_samples(Component c) const {
        const Vec3 off = yee_offset(c);
        InteriorSamples is;
        for (int a = 0; a < 2; ++a) {
            const double o = axis_of(off, a);
            // interior index k (position (k + o) dx) with window inside [0, L]
            is.k_lo[a] = static_cast<int>(std::ceil(0.5 - o - 1e-9));
            is.k_hi[a] = static_cast<int>(std::floor(n_int_[a] - 0.5 - o + 1e-9));
            if (is.k_lo[a] > is.k_hi[a]) is.k_lo[a] = is.k_hi[a] = std::clamp(0, 0, n_int_[a] - 1);
        }
        is.grid.nx = is.k_hi[0] - is.k_lo[0] + 1;
        is.grid.ny = is.k_hi[1] - is.k_lo[1] + 1;
        is.grid.x0_um = (is.k_lo[0] + off.x) * dx_;
        is.grid.y0_um = (is.k_lo[1] + off.y) * dx_;
        is.grid.dx_um = dx_;
        return is;
    }
    /// Calls f(i, j, sample) for every grid cell, j outer and i inner (increasing flat
    /// index), with `sample` the index (row-major in is.grid) of the interior sample the
    /// cell takes: its own inside, the nearest inside one along each axis elsewhere (PML
    /// and edge cells continue the interior's medium).
    template <class F>
    void for_each_cell_sample(const InteriorSamples& is, F&& f) const {
        for (int j = 0; j < N_[1]; ++j) {
            const int kj = std::clamp(j - pml_lo(1), is.k_lo[1], is.k_hi[1]) - is.k_lo[1];
            for (int i = 0; i < N_[0]; ++i) {
                const int ki = std::clamp(i - pml_lo(0), is.k_lo[0], is.k_hi[0]) - is.k_lo[0];
                f(i, j, std::size_t(kj) * is.grid.nx + ki);
            }
        }
    }

    void compile_grid();
    void compile_medium();
    void compile_dispersion(const std::vector<const Layer*>& layers, bool subpixel);
    void compile_anisotropic(const std::vector<double> (&offdiag)[2]);
    void compile_spectrum();
    void compile_source(std::size_t i);
    void compile_monitor(std::size_t i);
    void finish();

    // ---- source phases (compile_source: waveform -> cells and weights by source type)
    /// The waveform of a source (CompiledWaveform: omega in rad/s, times in s). Throws
    /// ProjectError for a centre wavelength or span out of range.
    CompiledWaveform compile_waveform(const Source& s, const std::string& path);
    /// Numerical vacuum wavenumber of the Yee scheme at angular frequency omega (rad/s):
    /// k0~ = 2/(c dt) sin(omega dt/2), in 1/um.
    double numerical_k0_per_um(double omega) const;
    /// Travel time (s) of a wave of discrete index n_disc over half a cell at omega (rad/s):
    /// 0.5 dx / v_phase with the lattice wavenumber beta = (2/dx) asin(n_disc k0~ dx/2).
    double half_cell_delay_s(double n_disc, double omega) const;
    /// Weight per unit of field amplitude of a current on `c` at `cell` (top of file,
    /// "Source amplitude"): 2 cb (electric) or 2 S (magnetic), before the geometric factor.
    double source_strength(Component c, CellIndex cell);
    /// Point source: the nearest node of the component, weight strength / dx (dx in um:
    /// the 1 um line current). Throws ProjectError when `at` lies outside the domain.
    void add_point_source(const Source& src, const std::string& path, const CompiledWaveform& wf);
    /// Region source: every node the shape covers, weight strength * coverage * dx (um).
    /// Throws ProjectError for a missing shape or one covering no node.
    void add_region_source(const Source& src, const std::string& path, const CompiledWaveform& wf);
    /// The `direction` of a line source: a mode source's own; for uniform/gaussian lines the
    /// optional one kept in `extra` ("" when absent). Throws ProjectError when invalid.
    std::string source_direction(const Source& src, const std::string& path) const;
    /// An axis-aligned source line: normal axis, tangential axis, tangential interval
    /// [a, b] and its centre (um), position along the normal (um).
    struct SourceLine {
        int normal = 0, tan = 1;
        double a = 0, b = 0, centre = 0, x_n = 0;
    };
    /// Line and plane sources: checks the end points, waist and direction, then hands the
    /// line to the oblique, two-way or one-way (TF/SF) step. Throws ProjectError.
    void add_line_source(const Source& src, const std::string& path, const CompiledWaveform& wf);
    /// Oblique uniform/gaussian line (two-way): the nearest node of points dx/4 apart,
    /// each with its share len / n / dx of the line (gaussian: times exp(-(r/waist)^2)).
    void add_oblique_line_source(const Source& src, const CompiledWaveform& wf);
    /// Axis-aligned two-way line: the nodes of the component nearest the line, weighted by
    /// the fraction of their dx the line covers (and the gaussian profile).
    void add_two_way_line_source(const Source& src, const std::string& path, const SourceLine& line,
                                 const CompiledWaveform& wf);
    /// Incident fields of a one-way source on the TF/SF nodes: tangential e_inc and h_inc
    /// (field units, unit peak of the source component) and the H terms' delays (s).
    struct OneWayProfile {
        explicit OneWayProfile(std::size_t nodes) : e_inc(nodes), h_inc(nodes), delay_h_s(nodes) {}
        std::vector<double> e_inc, h_inc, delay_h_s;
        double n_eff = 0;  ///< mode profiles: the mode's effective index
        double n_eff_imag = 0;  ///< bent mode lines: Im n_eff (the bend's radiation loss)
    };
    /// One-way line (mode or plane wave, direction s = +-1 along the normal): the TF/SF
    /// plane at the e nodes nearest the line. Throws ProjectError for too few nodes.
    void add_one_way_line_source(const Source& src, const std::string& path, const SourceLine& line, int s,
                                 const CompiledWaveform& wf);
    /// Mode profile on the TF/SF nodes: the guided mode src.mode_index of the slab
    /// eps_e (the e nodes' eps_r along the line) at the numerical wavelength of omega
    /// (rad/s); h_inc from e_inc with n_eff (top of file). Throws ProjectError when the line
    /// guides no such mode.
    OneWayProfile mode_profile(const Source& src, const std::string& path, double omega, const SourceLine& line,
                               int s, int k_s, const std::vector<LineNode>& nodes,
                               const std::vector<double>& eps_e) const;
    /// Plane-wave profile on the TF/SF nodes: uniform or gaussian, with the local index
    /// sqrt(eps_e) of each node relating e_inc and h_inc.
    OneWayProfile plane_wave_profile(const Source& src, const std::string& path, double omega, const SourceLine& line,
                                     int s, const std::vector<LineNode>& nodes,
                                     const std::vector<double>& eps_e) const;
    /// Moves CompiledProject::sources_end_s (s) past the end of every term from first_term on.
    void note_sources_end(std::size_t first_term);
    /// One-way (TF/SF) injection of profile e_inc/h_inc along a line.
    void add_one_way(const Source& src, const std::string& path, int normal, int s, int k_s,
                     const std::vector<LineNode>& nodes, const std::vector<double>& e_inc,
                     const std::vector<double>& h_inc, const std::vector<double>& delay_h_s,
                     const CompiledWaveform& wf);
    int add_flux_line(const Vec2& from, const Vec2& to, int normal, int s, const std::string& path,
                      CompiledMonitor& mon);
    /// Mode monitor on a flux line (kind "mode", mode_plane.hpp ModeMonitorPlan with dims
    /// 2): DFT sets of the tangential pair on the nodes whose centre lies on the line
    /// (weight 1; H~ averaged across the line), and the slab modes (mode_profile, i.e.
    /// solve_slab_modes at the numerical k0) of every listed mode at every frequency.
    void add_mode_line_monitor(const Monitor& m, const std::string& path, int normal, int s, CompiledMonitor& cm);
};

// ----------------------------------------------------------------------------- grid

void Compiler::compile_grid() {
    const Domain& d = project_.domain;
    Scene& s = sc();
    dx_ = d.cell_size;
    if (!(dx_ > 0)) throw ProjectError(file_, "domain.cell_size", "must be > 0");
    s.polarization = d.polarization;
    s.dx_um = dx_;
    s.courant = project_.run.courant;
    s.dt_s = s.courant * dx_ * units::um / c0;
    for (int a = 0; a < 2; ++a) {
        L_[a] = d.size[a];
        const double cells = L_[a] / dx_;
        if (!(cells <= limits::kMaxCellsPerAxis))  // before lround: no overflow into a wrong grid
            throw ProjectError(file_, "domain.cell_size", "gives " + fmt(cells) + " cells along " +
                                                              std::string(a == 0 ? "x" : "y") + ", more than the limit of " +
                                                              fmt(limits::kMaxCellsPerAxis));
        const long n = std::lround(cells);
        if (n < 1)
            throw ProjectError(file_, "domain.size", "the interior must span at least one cell along " +
                                                         std::string(a == 0 ? "x" : "y"));
        if (std::abs(cells - double(n)) > 1e-6 * std::max(1.0, cells))
            out_.warnings.push_back(std::string("domain size along ") + (a == 0 ? "x" : "y") + " (" +
                                    fmt(L_[a]) + " um) is not a multiple of the cell size " + fmt(dx_) +
                                    " um: using " + std::to_string(n) + " cells (" + fmt(n * dx_) + " um)");
        n_int_[a] = static_cast<int>(n);
        L_[a] = n * dx_;  // the interior actually simulated
        s.boundary[a] = d.boundaries[a];
        const int p = d.boundaries[a] == BoundaryKind::Pml ? d.pml.cells : 0;
        s.pml_lo[a] = s.pml_hi[a] = p;
        N_[a] = n_int_[a] + 2 * p;
    }
    s.nx = N_[0];
    s.ny = N_[1];
    grid_ = s.grid();
    if (static_cast<double>(s.nx) * s.ny > 2.0e9)
        throw ProjectError(file_, "domain.cell_size", "the grid (" + std::to_string(s.nx) + " x " +
                                                          std::to_string(s.ny) + " cells) is too large");
    // Refuse before compiling the medium (which allocates per cell) what the machine cannot
    // hold: fields, material maps and the compiler's per-cell scratch.
    const double bp = project_.run.precision == Precision::Float32 ? 4 : 8;
    const double need = double(s.cells()) * (3 * bp + 4 + 16);
    if (const double host = double(limits::host_memory_bytes()); host > 0 && need > host)
        throw ProjectError(file_, "domain.cell_size",
                           "the grid of " + std::to_string(s.nx) + " x " + std::to_string(s.ny) + " cells needs about " +
                               limits::format_bytes(need) + ", more than this machine's memory (" +
                               limits::format_bytes(host) + "); use larger cells or a smaller domain");
}

// ----------------------------------------------------------------------------- medium

void Compiler::compile_medium() {
    Scene& s = sc();
    const bool reference = options_.reference_run;
    const auto layers = select_layers(project_, reference);
    const std::set<std::string> used = used_material_ids(layers);
    for (std::size_t m = 0; m < project_.materials.size(); ++m) {
        const Material& mat = project_.materials[m];
        if (used.count(mat.id) && mat.epsilon_inf < 1.0) {
            const double smax = std::sqrt(std::max(0.0, mat.epsilon_inf) / 2.0);
            out_.warnings.push_back("material '" + mat.id + "': epsilon_inf = " + fmt(mat.epsilon_inf) +
                                    " < 1 lowers the 2D Courant limit to sqrt(epsilon_inf / 2) = " + fmt(smax) +
                                    (project_.run.courant > smax ? ": the Courant number " + fmt(project_.run.courant) +
                                                                       " is UNSTABLE there"
                                                                 : " (the Courant number " +
                                                                       fmt(project_.run.courant) + " is below it)"));
        }
    }

    const bool subpixel = options_.subpixel_averaging.value_or(project_.run.subpixel_averaging);
    std::vector<std::vector<double>> eps3(3), sig3(3);
    std::vector<double> offdiag[2];  // TEz: (eps^-1)_xy at the Ex / Ey sites (whole grid)
    const std::vector<std::string> stair = detail::staircased_metals(project_, used);
    for (Component c : electric_components(s.polarization)) {
        const InteriorSamples is = interior_samples(c);
        const AveragedMedium med = average_medium(project_, is.grid, c, subpixel, reference, stair);
        std::vector<double>& e = eps3[static_cast<int>(c)];
        std::vector<double>& sg = sig3[static_cast<int>(c)];
        e.resize(s.cells());
        sg.resize(s.cells());
        const bool has_off = !med.inv_eps_offdiag.empty() && static_cast<int>(c) < 2;
        if (has_off) offdiag[static_cast<int>(c)].assign(s.cells(), 0.0);
        for_each_cell_sample(is, [&](int i, int j, std::size_t src) {
            e[std::size_t(flat(i, j))] = med.eps_r[src];
            sg[std::size_t(flat(i, j))] = med.sigma.empty() ? 0.0 : med.sigma[src];
            if (has_off) offdiag[static_cast<int>(c)][std::size_t(flat(i, j))] = med.inv_eps_offdiag[src];
        });
    }
    build_material_table(s, eps3, sig3);
    for (int c = 0; c < 3; ++c) eps_[c] = std::move(eps3[c]);
    compile_dispersion(layers, subpixel);
    if (s.polarization == Polarization::TEz && !offdiag[0].empty() && !offdiag[1].empty())
        compile_anisotropic(offdiag);
    build_cpml(s, project_.domain.pml.grading_order, project_.domain.pml.target_reflection);

    // Interior area per material: coverage on the interior cell grid.
    out_.material_area_um2 = material_areas_um2(project_, dx_, reference);
}

// ----------------------------------------------------------------------------- anisotropic

// TEz off-diagonal coupling (scene.hpp "Anisotropic cells"): the seeds are the Ex and Ey
// sites with a nonzero (eps^-1)_xy; build_tensor_couplings (compile_common.cpp) applies the
// eligibility rules, the symmetrized couplings and the damping. For a smooth interface in
// eps = 12 the damping never acts (|ixy| <= ixx there); it guards very high contrast and
// crowded corners.
void Compiler::compile_anisotropic(const std::vector<double> (&offdiag)[2]) {
    std::vector<TensorSeed> seeds[3];
    for (int c = 0; c < 2; ++c)
        for (std::size_t k = 0; k < offdiag[c].size(); ++k)
            if (offdiag[c][k] != 0.0) {
                TensorSeed t;
                t.cell = CellIndex(k);
                t.off[0] = offdiag[c][k];
                seeds[c].push_back(t);
            }
    const std::size_t damped = build_tensor_couplings(sc(), seeds);
    anisotropic_damped_ = damped;
    if (damped > 0)
        out_.warnings.push_back("sub-pixel averaging: " + std::to_string(damped) +
                                " off-diagonal (TEz tensor) couplings damped to keep the update stable "
                                "(high permittivity contrast at oblique interfaces)");
}

// ----------------------------------------------------------------------------- dispersion

void Compiler::compile_dispersion(const std::vector<const Layer*>& layers, bool subpixel) {
    Scene& s = sc();
    if (!detail::any_dispersive(project_, used_material_ids(layers))) return;
    detail::DispersionBuilder builder(project_, s, subpixel);
    for (Component c : electric_components(s.polarization)) {
        const int ic = static_cast<int>(c);
        const InteriorSamples is = interior_samples(c);  // the samples compile_medium averaged
        const auto sets = builder.classify(compute_coverage(project_, is.grid, options_.reference_run),
                                           {is.grid.nx, is.grid.ny, 1, component_axis(c)});
        // Whole grid, PML copies the nearest interior sample (as compile_medium).
        for_each_cell_sample(is, [&](int i, int j, std::size_t src) {
            const CellIndex cell = flat(i, j);
            const bool pml = (s.pml_lo[0] + s.pml_hi[0] > 0 && (i < pml_lo(0) || i >= N_[0] - pml_hi(0))) ||
                             (s.pml_lo[1] + s.pml_hi[1] > 0 && (j < pml_lo(1) || j >= N_[1] - pml_hi(1)));
            builder.add_cell(ic, cell, sets, src, eps_[ic][std::size_t(cell)], pml);
        });
    }
    builder.add_warnings(out_.warnings, 2);
}

// ----------------------------------------------------------------------------- spectrum

void Compiler::compile_spectrum() { out_.spectrum_hz = detail::compile_spectrum(project_); }

// ----------------------------------------------------------------------------- shapes

std::vector<double> Compiler::shape_coverage(const Shape& shape, Component c, const std::string& path) {
    if (shape.type == ShapeType::Step)
        throw ProjectError(file_, path, "a STEP shape cannot be used as a source or monitor region");
    // Bounding box of the shape, um.
    double x0, y0, x1, y1;
    if (shape.type == ShapeType::Raster) {
        x0 = shape.origin.x;
        y0 = shape.origin.y;
        x1 = x0 + shape.width_px * shape.pixel_size;
        y1 = y0 + shape.height_px * shape.pixel_size;
    } else {
        Outline o;
        try {
            o = shape_outline(shape, 0.05 * dx_);
        } catch (const std::exception& e) {
            throw ProjectError(file_, path, e.what());
        }
        x0 = y0 = std::numeric_limits<double>::infinity();
        x1 = y1 = -x0;
        for (const auto& ring : o)
            for (const Vec2& v : ring) {
                x0 = std::min(x0, v.x), x1 = std::max(x1, v.x);
                y0 = std::min(y0, v.y), y1 = std::max(y1, v.y);
            }
        if (!std::isfinite(x0)) throw ProjectError(file_, path, "the shape is empty");
    }
    const Vec3 off = yee_offset(c);
    int lo[2], hi[2];
    const double box_lo[2] = {x0, y0}, box_hi[2] = {x1, y1};
    for (int a = 0; a < 2; ++a) {
        const double o = axis_of(off, a);
        lo[a] = std::max(0, static_cast<int>(std::floor(box_lo[a] / dx_ + pml_lo(a) - o)) - 1);
        hi[a] = std::min(N_[a] - 1, static_cast<int>(std::ceil(box_hi[a] / dx_ + pml_lo(a) - o)) + 1);
    }
    std::vector<double> full(sc().cells(), 0.0);
    if (lo[0] > hi[0] || lo[1] > hi[1])
        throw ProjectError(file_, path, "the shape lies outside the simulation domain");
    SampleGrid g;
    g.nx = hi[0] - lo[0] + 1;
    g.ny = hi[1] - lo[1] + 1;
    g.x0_um = pos_um(0, lo[0], off.x);
    g.y0_um = pos_um(1, lo[1], off.y);
    g.dx_um = dx_;
    Project tmp;
    tmp.domain = project_.domain;
    tmp.domain.background = "air";
    Material m;
    m.id = "__region__";
    m.epsilon_inf = 2.0;
    tmp.materials = {m};
    Layer layer;
    layer.name = "region";
    layer.material = m.id;
    layer.shapes = {shape};
    tmp.layers = {layer};
    Coverage cov;
    try {
        cov = compute_coverage(tmp, g, false);
    } catch (const ProjectError&) {
        throw;
    } catch (const std::exception& e) {
        throw ProjectError(file_, path, e.what());
    }
    std::size_t mi = cov.material_ids.size();
    for (std::size_t k = 0; k < cov.material_ids.size(); ++k)
        if (cov.material_ids[k] == m.id) mi = k;
    if (mi == cov.material_ids.size()) return full;
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i)
            full[std::size_t(flat(lo[0] + i, lo[1] + j))] = cov.fraction[mi][std::size_t(j) * g.nx + i];
    return full;
}

// ----------------------------------------------------------------------------- sources

CompiledWaveform Compiler::compile_waveform(const Source& s, const std::string& path) {
    return detail::compile_waveform(s, path, file_);
}

void Compiler::add_one_way(const Source& src, const std::string& path, int normal, int s, int k_s,
                           const std::vector<LineNode>& nodes, const std::vector<double>& e_inc,
                           const std::vector<double>& h_inc, const std::vector<double>& delay_h_s,
                           const CompiledWaveform& wf) {
    (void)src;
    const TangentialPair tp = tangential_pair(sc().polarization, normal);
    long kh = s > 0 ? long(k_s) - 1 : long(k_s);
    if (!periodic(normal) && (kh < 0 || kh >= N_[normal]))
        throw ProjectError(file_, path, "a one-way source needs one cell of room behind it");
    const int k_h = wrap_or_clamp(normal, kh);
    std::vector<detail::OneWayNode> on(nodes.size());
    for (std::size_t n = 0; n < nodes.size(); ++n) {
        const int t = nodes[n].t;
        on[n].e_cell = normal == 0 ? flat(k_s, t) : flat(t, k_s);
        on[n].h_cell = normal == 0 ? flat(k_h, t) : flat(t, k_h);
        on[n].frac = nodes[n].frac;
        on[n].e_inc = e_inc[n];
        on[n].h_inc = h_inc[n];
        on[n].delay_h_s = delay_h_s[n];
    }
    detail::add_one_way_terms(sc(), tp, s, on, wf);
}

double Compiler::numerical_k0_per_um(double omega) const {
    return detail::numerical_k0_per_um(omega, out_.scene.dt_s);
}

double Compiler::half_cell_delay_s(double n_disc, double omega) const {
    return detail::half_cell_delay_s(n_disc, omega, dx_, out_.scene.dt_s);
}

double Compiler::source_strength(Component c, CellIndex cell) {
    return 2.0 * (is_electric(c) ? cb_at(c, cell) : sc().courant);
}

void Compiler::add_point_source(const Source& src, const std::string& path, const CompiledWaveform& wf) {
    const Component c = src.component;
    const Vec3 off = yee_offset(c);
    check_point(src.at, path + ".at", "source '" + src.name + "'");
    SourceTerm t;
    t.component = c;
    t.waveform = wf;
    for (const auto& [i, wi] : detail::point_source_nodes(project_, grid_, 0, src.at.x, off.x))
        for (const auto& [j, wj] : detail::point_source_nodes(project_, grid_, 1, src.at.y, off.y)) {
            t.cells.push_back(flat(int(i), int(j)));
            t.weights.push_back(wi * wj * source_strength(c, flat(int(i), int(j))) * (1.0 / dx_));
        }
    sc().sources.push_back(std::move(t));
}

void Compiler::add_region_source(const Source& src, const std::string& path, const CompiledWaveform& wf) {
    const Component c = src.component;
    if (!src.shape) throw ProjectError(file_, path + ".shape", "a region source needs a shape");
    const auto cov = shape_coverage(*src.shape, c, path + ".shape");
    SourceTerm t;
    t.component = c;
    t.waveform = wf;
    for (std::size_t k = 0; k < cov.size(); ++k)
        if (cov[k] > 1e-9) {
            t.cells.push_back(static_cast<CellIndex>(k));
            t.weights.push_back(source_strength(c, static_cast<CellIndex>(k)) * cov[k] * dx_);
        }
    if (t.cells.empty())
        throw ProjectError(file_, path + ".shape", "the region covers no grid node of " + to_string(c));
    sc().sources.push_back(std::move(t));
}

std::string Compiler::source_direction(const Source& src, const std::string& path) const {
    if (src.profile == SourceProfile::Mode) return src.direction;
    const auto it = src.extra.find("direction");
    const std::string direction = (it != src.extra.end() && it->is_string()) ? it->get<std::string>() : "";
    if (!direction.empty() && parse_direction(direction).first < 0)
        throw ProjectError(file_, path + ".direction", "must be one of +x, -x, +y, -y");
    return direction;
}

void Compiler::add_oblique_line_source(const Source& src, const CompiledWaveform& wf) {
    const Component c = src.component;
    const Vec3 off = yee_offset(c);
    const double len = std::hypot(src.to.x - src.from.x, src.to.y - src.from.y);
    const int n = std::max(1, static_cast<int>(std::ceil(len / (0.25 * dx_))));
    std::map<CellIndex, double> acc;
    const Vec2 mid{0.5 * (src.from.x + src.to.x), 0.5 * (src.from.y + src.to.y)};
    for (int k = 0; k < n; ++k) {
        const double u = (k + 0.5) / n;
        const Vec2 p{src.from.x + u * (src.to.x - src.from.x), src.from.y + u * (src.to.y - src.from.y)};
        double prof = 1.0;
        if (src.profile == SourceProfile::Gaussian) {
            const double r = std::hypot(p.x - mid.x, p.y - mid.y) / src.waist;
            prof = std::exp(-r * r);
        }
        acc[flat(nearest_index(0, p.x, off.x), nearest_index(1, p.y, off.y))] += prof * len / n / dx_;
    }
    SourceTerm t;
    t.component = c;
    t.waveform = wf;
    for (auto [cell, w] : acc) {
        t.cells.push_back(cell);
        t.weights.push_back(source_strength(c, cell) * w);
    }
    sc().sources.push_back(std::move(t));
}

void Compiler::add_two_way_line_source(const Source& src, const std::string& path, const SourceLine& line,
                                       const CompiledWaveform& wf) {
    const Component c = src.component;
    const Vec3 off = yee_offset(c);
    const auto nodes = line_nodes(line.tan, line.a, line.b, axis_of(off, line.tan));
    const int k_n = nearest_index(line.normal, line.x_n, axis_of(off, line.normal));
    SourceTerm t;
    t.component = c;
    t.waveform = wf;
    for (const LineNode& nd : nodes) {
        double prof = 1.0;
        if (src.profile == SourceProfile::Gaussian) {
            const double r = (nd.pos_um - line.centre) / src.waist;
            prof = std::exp(-r * r);
        }
        const CellIndex cell = line.normal == 0 ? flat(k_n, nd.t) : flat(nd.t, k_n);
        t.cells.push_back(cell);
        t.weights.push_back(source_strength(c, cell) * prof * nd.frac);
    }
    if (t.cells.empty()) throw ProjectError(file_, path, "the line covers no grid node");
    sc().sources.push_back(std::move(t));
}

Compiler::OneWayProfile Compiler::mode_profile(const Source& src, const std::string& path, double omega,
                                               const SourceLine& line, int s, int k_s,
                                               const std::vector<LineNode>& nodes,
                                               const std::vector<double>& eps_e) const {
    const Polarization pol = out_.scene.polarization;
    const TangentialPair tp = tangential_pair(pol, line.normal);
    const std::size_t n = nodes.size();
    std::vector<double> eps_mid;
    if (pol == Polarization::TEz) {
        // eps of the other (longitudinal) E component between the nodes, mean of
        // the two columns beside the plane.
        const Component other = tp.e == Component::Ey ? Component::Ex : Component::Ey;
        const int kn0 = wrap_or_clamp(line.normal, long(k_s) - 1), kn1 = k_s;
        eps_mid.resize(n + 1);
        for (std::size_t k = 0; k <= n; ++k) {
            const long tt = k < n ? nodes[k].t : long(nodes[n - 1].t) + 1;
            const int t = wrap_or_clamp(line.tan, tt);
            const CellIndex c0 = line.normal == 0 ? flat(kn0, t) : flat(t, kn0);
            const CellIndex c1 = line.normal == 0 ? flat(kn1, t) : flat(t, kn1);
            eps_mid[k] = 0.5 * (eps_[int(other)][std::size_t(c0)] + eps_[int(other)][std::size_t(c1)] +
                                (cell_pole_susceptibility(out_.scene, other, c0, omega) +
                                 cell_pole_susceptibility(out_.scene, other, c1, omega)).real());
        }
    }
    // eps(omega) of the nodes: the poles' susceptibility on top of eps_inf (real: the slab solver is real)
    std::vector<double> eps_w(eps_e);
    for (std::size_t k = 0; k < n; ++k) {
        const CellIndex c = line.normal == 0 ? flat(k_s, nodes[k].t) : flat(nodes[k].t, k_s);
        eps_w[k] += cell_pole_susceptibility(out_.scene, tp.e, c, omega).real();
    }
    const double wl_num_um = 2 * pi / numerical_k0_per_um(omega);
    if (const double R = line_bend_radius(src.extra, path, file_); R != 0) {
        // A bent line (mode_solver_bend.hpp): the bent slab's mode, its real part injected
        // (as 3D mode sources inject lossy modes), the tangential H~ from the solver's own
        // field (its ratio to E varies across a bend), signed as the straight profile's.
        const int pml = line_bend_pml_cells(dx_);
        if (int(n) <= 2 * pml + 2)
            throw ProjectError(file_, path + ".bend_radius",
                               "a bent mode line needs more than " + std::to_string(2 * pml + 2) +
                                   " grid nodes (the bend's PML takes " + std::to_string(pml) + " at each end)");
        std::vector<BentSlabMode> bent;
        try {
            bent = solve_bent_slab_modes(eps_w, dx_, wl_num_um, pol, src.mode_index + 1, R,
                                         line.centre - nodes[0].pos_um, pml, 0, eps_mid);
        } catch (const std::exception& e) {
            throw ProjectError(file_, path + ".bend_radius", std::string("bent mode solver: ") + e.what());
        }
        if (static_cast<int>(bent.size()) <= src.mode_index)
            throw ProjectError(file_, path + ".mode_index",
                               "no guided mode " + std::to_string(src.mode_index) + " of the line bent at R = " + fmt(R) +
                                   " um at " + fmt(units::hz_to_wavelength_um(omega / (2 * pi))) + " um");
        const BentSlabMode& m = bent[std::size_t(src.mode_index)];
        double cross = 0;  // Re sum h e*: the sign that makes h ~ +n_eff e (TMz) or + (eps/n_eff) e (TEz)
        for (std::size_t k = 0; k < n; ++k) cross += (m.h[k] * std::conj(m.e[k])).real();
        const double c = cross >= 0 ? 1.0 : -1.0;
        const double sig = pol == Polarization::TMz ? tp.sigma_h : tp.sigma_e;
        OneWayProfile p(n);
        p.n_eff = m.n_eff;
        p.n_eff_imag = m.n_eff_imag;
        for (std::size_t k = 0; k < n; ++k) {
            p.e_inc[k] = m.e[k].real();
            p.h_inc[k] = -sig * s * c * m.h[k].real();
            p.delay_h_s[k] = half_cell_delay_s(m.n_eff, omega);
        }
        // unit peak as the straight profile: Ez (TMz), Hz (TEz), or the tangential E (TEz
        // with an electric source component)
        const bool by_e = pol == Polarization::TMz || is_electric(src.component);
        double mx = 0;
        for (std::size_t k = 0; k < n; ++k) mx = std::max(mx, std::abs(by_e ? p.e_inc[k] : p.h_inc[k]));
        if (mx > 0)
            for (std::size_t k = 0; k < n; ++k) p.e_inc[k] /= mx, p.h_inc[k] /= mx;
        return p;
    }
    const auto modes = solve_slab_modes(eps_w, dx_, wl_num_um, pol, src.mode_index + 1, eps_mid);
    const double n_clad = std::sqrt(std::max(eps_w.front(), eps_w.back()));
    if (static_cast<int>(modes.size()) <= src.mode_index || !(modes[src.mode_index].n_eff > n_clad * (1 + 1e-9))) {
        std::string msg = "no guided mode " + std::to_string(src.mode_index) + " at " +
                          fmt(units::hz_to_wavelength_um(omega / (2 * pi))) + " um on this line (cladding index " +
                          fmt(n_clad);
        if (static_cast<int>(modes.size()) > src.mode_index) msg += ", n_eff " + fmt(modes[src.mode_index].n_eff);
        throw ProjectError(file_, path + ".mode_index", msg + ")");
    }
    const SlabMode& m = modes[src.mode_index];
    const double ne = m.n_eff;
    OneWayProfile p(n);
    p.n_eff = ne;
    for (std::size_t k = 0; k < n; ++k) {
        if (pol == Polarization::TMz) {
            p.e_inc[k] = m.profile[k];
            p.h_inc[k] = -tp.sigma_h * s * ne * p.e_inc[k];
        } else {
            p.h_inc[k] = m.profile[k];
            p.e_inc[k] = -tp.sigma_e * s * ne * p.h_inc[k] / eps_w[k];
        }
        p.delay_h_s[k] = half_cell_delay_s(ne, omega);
    }
    // TEz with an electric source component: unit peak of the tangential E.
    if (pol == Polarization::TEz && is_electric(src.component)) {
        double mx = 0;
        for (double v : p.e_inc) mx = std::max(mx, std::abs(v));
        for (std::size_t k = 0; k < n; ++k) p.e_inc[k] /= mx, p.h_inc[k] /= mx;
    }
    return p;
}

Compiler::OneWayProfile Compiler::plane_wave_profile(const Source& src, const std::string& path, double omega,
                                                     const SourceLine& line, int s,
                                                     const std::vector<LineNode>& nodes,
                                                     const std::vector<double>& eps_e) const {
    const Polarization pol = out_.scene.polarization;
    const TangentialPair tp = tangential_pair(pol, line.normal);
    const Component c = src.component;
    // Plane-wave one-way line: local index n = sqrt(eps) of the e nodes.
    if (!in_polarization(c, pol)) throw ProjectError(file_, path + ".component", "invalid component");
    const std::size_t n = nodes.size();
    OneWayProfile p(n);
    for (std::size_t k = 0; k < n; ++k) {
        double prof = 1.0;
        if (src.profile == SourceProfile::Gaussian) {
            const double r = (nodes[k].pos_um - line.centre) / src.waist;
            prof = std::exp(-r * r);
        }
        double nl = std::sqrt(eps_e[k]), n_perp = nl;
        if (bloch_k_[line.tan] != 0) {
            // Oblique plane wave (compile_bloch.cpp): the tangential H / E ratio takes the
            // normal index n cos(theta) of the grid's dispersion; TEz's E is tangential
            // with cos(theta): n_local = eps / n_perp in plane_wave_incident's H / n.
            n_perp = detail::oblique_normal_index(eps_e[k], numerical_k0_per_um(omega), bloch_k_, line.normal, dx_);
            if (!std::isfinite(n_perp))
                throw ProjectError(file_, path + ".angle_deg",
                                   "the plane wave is evanescent at the centre wavelength (Bloch k beyond n k0 of "
                                   "the medium at the source)");
            nl = pol == Polarization::TMz ? n_perp : eps_e[k] / n_perp;
        }
        detail::plane_wave_incident(is_electric(c), prof, nl, tp, s, p.e_inc[k], p.h_inc[k]);
        p.delay_h_s[k] = half_cell_delay_s(n_perp, omega);
    }
    return p;
}

void Compiler::add_one_way_line_source(const Source& src, const std::string& path, const SourceLine& line, int s,
                                       const CompiledWaveform& wf) {
    // One-way injection through a TF/SF plane at the e nodes nearest the line.
    const TangentialPair tp = tangential_pair(sc().polarization, line.normal);
    const double tan_off = axis_of(yee_offset(tp.e), line.tan);  // same for e and h
    const int k_s = nearest_index(line.normal, line.x_n, 0.0);
    auto nodes = line_nodes(line.tan, line.a, line.b, tan_off);
    const bool mode = src.profile == SourceProfile::Mode;
    if (mode) {
        // Only the nodes whose centre lies on the line take part in the mode.
        std::vector<LineNode> kept;
        for (const auto& nd : nodes)
            if (nd.frac >= 0.5 - 1e-9) kept.push_back(nd);
        nodes = kept;
    }
    if (nodes.size() < (mode ? 3u : 1u)) throw ProjectError(file_, path, "the line covers too few grid nodes");
    std::vector<double> eps_e(nodes.size());
    for (std::size_t k = 0; k < nodes.size(); ++k)
        eps_e[k] = line.normal == 0 ? eps_at(tp.e, k_s, nodes[k].t) : eps_at(tp.e, nodes[k].t, k_s);
    const OneWayProfile p = mode ? mode_profile(src, path, wf.omega, line, s, k_s, nodes, eps_e)
                                 : plane_wave_profile(src, path, wf.omega, line, s, nodes, eps_e);
    add_one_way(src, path, line.normal, s, k_s, nodes, p.e_inc, p.h_inc, p.delay_h_s, wf);
}

void Compiler::add_line_source(const Source& src, const std::string& path, const CompiledWaveform& wf) {
    check_point(src.from, path + ".from", "source '" + src.name + "'");
    check_point(src.to, path + ".to", "source '" + src.name + "'");
    if (src.profile == SourceProfile::Gaussian && !(src.waist > 0))
        throw ProjectError(file_, path + ".waist", "must be > 0");
    const bool along_y = std::abs(src.from.x - src.to.x) <= 1e-9 * std::max(1.0, L_[0]);
    const bool along_x = std::abs(src.from.y - src.to.y) <= 1e-9 * std::max(1.0, L_[1]);
    const auto [dir_axis, s] = parse_direction(source_direction(src, path));
    if (src.profile == SourceProfile::Mode) {
        if (!along_x && !along_y) throw ProjectError(file_, path + ".to", "a mode source needs an axis-aligned line");
        if (along_x && along_y) throw ProjectError(file_, path + ".to", "a mode source needs a line of nonzero length");
    }
    if (!along_x && !along_y) {  // oblique uniform/gaussian line: two-way
        add_oblique_line_source(src, wf);
        return;
    }
    SourceLine line;
    line.normal = along_y ? 0 : 1;  // a zero-length line counts as along y
    line.tan = 1 - line.normal;
    line.a = axis_of(src.from, line.tan);
    line.b = axis_of(src.to, line.tan);
    line.centre = 0.5 * (line.a + line.b);
    line.x_n = axis_of(src.from, line.normal);
    const std::string normal_dirs = line.normal == 0 ? "+x or -x" : "+y or -y";
    if (src.profile != SourceProfile::Mode && dir_axis >= 0 && dir_axis != line.normal)
        throw ProjectError(file_, path + ".direction",
                           "a one-way line source's direction must be normal to its line (" + normal_dirs + ")");
    const bool one_way = src.profile == SourceProfile::Mode || (dir_axis == line.normal && s != 0);
    if (src.profile == SourceProfile::Mode && dir_axis != line.normal)
        throw ProjectError(file_, path + ".direction",
                           "the direction of a mode source must be normal to its line (" + normal_dirs + ")");
    if (src.profile == SourceProfile::Mode && bloch_k_[line.tan] != 0)
        throw ProjectError(file_, path + ".profile",
                           "a mode source along a Bloch axis with nonzero k is not supported (the mode is not "
                           "Bloch-periodic); use a uniform line with angle_deg");
    if (one_way) add_one_way_line_source(src, path, line, s, wf);
    else add_two_way_line_source(src, path, line, wf);
}

void Compiler::note_sources_end(std::size_t first_term) {
    for (std::size_t k = first_term; k < sc().sources.size(); ++k)
        out_.sources_end_s = std::max(out_.sources_end_s, sc().sources[k].waveform.end_time_s() +
                                                              std::max(0.0, sc().sources[k].delay_s));
}

void Compiler::resolve_bloch() {
    // The index at a source: sqrt(eps_r) of the first E component at the node nearest the
    // line's centre (an oblique plane wave starts in a uniform medium).
    auto n_at = [this](std::size_t i) {
        const Source& s = project_.sources[i];
        const Component e = electric_components(sc().polarization)[0];
        const Vec3 off = yee_offset(e);
        const int ii = nearest_index(0, 0.5 * (s.from.x + s.to.x), off[0]);
        const int jj = nearest_index(1, 0.5 * (s.from.y + s.to.y), off[1]);
        return std::sqrt(eps_at(e, ii, jj));
    };
    bloch_k_ = detail::resolve_bloch_k(project_, file_, {L_[0], L_[1], 0.0}, n_at);
    for (int a = 0; a < 2; ++a) sc().bloch_phase[a] = bloch_k_[a] * L_[a];
    sc().complex_fields = sc().has_bloch_phase();
}

void Compiler::compile_source(std::size_t si) {
    const Source& src = project_.sources[si];
    const std::string path = idx_path("sources", si);
    const Polarization pol = sc().polarization;
    const CompiledWaveform wf = compile_waveform(src, path);
    const std::size_t first_term = sc().sources.size();
    if (!in_polarization(src.component, pol) && src.profile != SourceProfile::Mode)
        throw ProjectError(file_, path + ".component",
                           "component " + to_string(src.component) + " is not a field of " + to_string(pol));
    switch (src.type) {
        case SourceType::Point: add_point_source(src, path, wf); break;
        case SourceType::Region: add_region_source(src, path, wf); break;
        case SourceType::Line:
        case SourceType::Plane: add_line_source(src, path, wf); break;
        case SourceType::Tfsf:
            if (sc().has_bloch_phase())
                throw ProjectError(file_, path + ".type",
                                   "a tfsf source injects at normal incidence and cannot run with a nonzero Bloch k; "
                                   "use a one-way line source with angle_deg");
            sc().tfsf.push_back(detail::compile_tfsf(project_, src, path, file_, sc(), grid_, wf));
            out_.sources_end_s = std::max(out_.sources_end_s, wf.end_time_s());
            break;
    }
    // A line across a Bloch axis is a plane wave of the Bloch k: the phase exp(i k.r).
    if ((src.type == SourceType::Line || src.type == SourceType::Plane) && sc().has_bloch_phase())
        detail::apply_bloch_phase(sc(), first_term, bloch_k_);
    note_sources_end(first_term);
    for (std::size_t k = first_term; k < sc().sources.size(); ++k) sc().sources[k].origin = int(si);
}

// ----------------------------------------------------------------------------- monitors

int Compiler::add_flux_line(const Vec2& from, const Vec2& to, int normal, int s, const std::string& path,
                            CompiledMonitor& mon) {
    const TangentialPair tp = tangential_pair(sc().polarization, normal);
    const int tan = 1 - normal;
    const double tan_off = axis_of(yee_offset(tp.e), tan);
    const int k = nearest_index(normal, axis_of(from, normal), 0.0);
    const auto nodes = line_nodes(tan, axis_of(from, tan), axis_of(to, tan), tan_off);
    if (nodes.empty()) throw ProjectError(file_, path, "the flux line covers no grid node");
    long km = long(k) - 1;
    if (!periodic(normal) && km < 0)
        throw ProjectError(file_, path, "a flux line needs one cell of room on each side (it lies on the outer edge)");
    const int k0 = wrap_or_clamp(normal, km);
    DftSet es, hs;
    es.component = tp.e;
    hs.component = tp.h;
    es.frequencies_hz = hs.frequencies_hz = out_.spectrum_hz;
    for (const LineNode& nd : nodes) {
        const CellIndex cell = normal == 0 ? flat(k, nd.t) : flat(nd.t, k);
        detail::add_flux_sample(es, hs, cell, nd.frac, normal == 0 ? flat(k0, nd.t) : flat(nd.t, k0), cell);
    }
    FluxTerm term;
    term.e_set = static_cast<int>(sc().dft_sets.size());
    sc().dft_sets.push_back(std::move(es));
    term.h_set = static_cast<int>(sc().dft_sets.size());
    sc().dft_sets.push_back(std::move(hs));
    // S_normal = -sigma_h e h (TMz: Sx = -Ez Hy, Sy = Ez Hx; TEz: Sx = Ey Hz, Sy = -Ex Hz).
    term.sign = -tp.sigma_h * s;
    term.ds_um = dx_;
    term.normal_axis = normal;
    term.direction = s;
    mon.flux_terms.push_back(term);
    return term.e_set;
}

void Compiler::add_mode_line_monitor(const Monitor& m, const std::string& path, int normal, int s,
                                     CompiledMonitor& cm) {
    auto plan = std::make_shared<ModeMonitorPlan>();
    plan->dims = 2;
    plan->sign = s;
    plan->frequencies_hz = out_.spectrum_hz;
    plan->dx_um = dx_;
    plan->dt_s = sc().dt_s;
    plan->mode_indices = parse_mode_list(m.extra, path, file_);
    const TangentialPair tp = tangential_pair(sc().polarization, normal);
    const int tan = 1 - normal;
    const double tan_off = axis_of(yee_offset(tp.e), tan);
    const int k = nearest_index(normal, axis_of(m.from, normal), 0.0);
    std::vector<LineNode> nodes;
    for (const LineNode& nd : line_nodes(tan, axis_of(m.from, tan), axis_of(m.to, tan), tan_off))
        if (nd.frac >= 0.5 - 1e-9) nodes.push_back(nd);
    if (nodes.size() < 3) throw ProjectError(file_, path, "the mode monitor's line covers too few grid nodes");
    const long km = long(k) - 1;
    if (!periodic(normal) && km < 0)
        throw ProjectError(file_, path, "a mode monitor needs one cell of room on each side (it lies on the outer edge)");
    const int k0 = wrap_or_clamp(normal, km);
    DftSet es, hs;
    es.component = tp.e;
    hs.component = tp.h;
    es.frequencies_hz = hs.frequencies_hz = out_.spectrum_hz;
    std::vector<double> eps_e(nodes.size());
    for (std::size_t q = 0; q < nodes.size(); ++q) {
        const LineNode& nd = nodes[q];
        const CellIndex cell = normal == 0 ? flat(k, nd.t) : flat(nd.t, k);
        detail::add_flux_sample(es, hs, cell, 1.0, normal == 0 ? flat(k0, nd.t) : flat(nd.t, k0), cell);
        eps_e[q] = normal == 0 ? eps_at(tp.e, k, nd.t) : eps_at(tp.e, nd.t, k);
    }
    plan->set_e[0] = static_cast<int>(sc().dft_sets.size());
    sc().dft_sets.push_back(std::move(es));
    plan->set_h[0] = static_cast<int>(sc().dft_sets.size());
    sc().dft_sets.push_back(std::move(hs));
    // S_normal = -sigma_h e h (add_flux_line), along +normal: the modes are taken for
    // propagation along +normal (mode_profile with s = +1, so that a line's forward and
    // backward modes share E_t and differ in the sign of H~_t, as in 3D); "fwd" / "bwd"
    // are swapped for a monitor pointing along -normal (mode_amplitudes)
    plan->line_flux_sign = -tp.sigma_h;
    SourceLine line;
    line.normal = normal;
    line.tan = tan;
    line.a = axis_of(m.from, tan);
    line.b = axis_of(m.to, tan);
    line.centre = 0.5 * (line.a + line.b);
    line.x_n = axis_of(m.from, normal);
    Source fake;
    fake.component = sc().polarization == Polarization::TMz ? Component::Ez : Component::Hz;
    // a bent line (line_bend_radius): the monitor's modes are the bent slab's
    if (const double R = line_bend_radius(m.extra, path, file_); R != 0) {
        const int pml = line_bend_pml_cells(dx_);
        if (int(nodes.size()) <= 2 * pml + 2)
            throw ProjectError(file_, path + ".bend_radius",
                               "a bent mode line needs more than " + std::to_string(2 * pml + 2) +
                                   " grid nodes (the bend's PML takes " + std::to_string(pml) + " at each end)");
        fake.extra["bend_radius"] = R;
    }
    for (double f : out_.spectrum_hz) {
        std::vector<std::vector<double>> es_f, hs_f;
        std::vector<double> ne_f, ni_f;
        for (int mi : plan->mode_indices) {
            fake.mode_index = mi;
            try {
                const OneWayProfile p = mode_profile(fake, path, 2 * pi * f, line, +1, k, nodes, eps_e);
                es_f.push_back(p.e_inc);
                hs_f.push_back(p.h_inc);
                ne_f.push_back(p.n_eff);
                ni_f.push_back(p.n_eff_imag);
            } catch (const ProjectError&) {  // no such guided mode at this frequency
                es_f.emplace_back();
                hs_f.emplace_back();
                ne_f.push_back(0.0);
                ni_f.push_back(0.0);
            }
        }
        plan->line_e.push_back(std::move(es_f));
        plan->line_h.push_back(std::move(hs_f));
        plan->line_neff.push_back(std::move(ne_f));
        plan->line_neff_imag.push_back(std::move(ni_f));
    }
    cm.mode_plan = std::move(plan);
}

void Compiler::compile_monitor(std::size_t mi) {
    const Monitor& m = project_.monitors[mi];
    const std::string path = idx_path("monitors", mi);
    const Polarization pol = sc().polarization;
    CompiledMonitor cm;
    cm.name = m.name;
    cm.type = m.type;
    cm.kind = m.kind;
    const std::string what = "monitor '" + m.name + "'";
    switch (m.type) {
        case MonitorType::Flux: {
            check_point(m.from, path + ".from", what);
            check_point(m.to, path + ".to", what);
            const bool along_y = std::abs(m.from.x - m.to.x) <= 1e-9 * std::max(1.0, L_[0]);
            const bool along_x = std::abs(m.from.y - m.to.y) <= 1e-9 * std::max(1.0, L_[1]);
            if (along_x == along_y)
                throw ProjectError(file_, path + ".to",
                                   along_x ? "a flux line needs nonzero length"
                                           : "flux lines must be axis-aligned (oblique lines are not supported)");
            const int normal = along_y ? 0 : 1;
            const auto [axis, s] = parse_direction(m.direction);
            if (axis != normal)
                throw ProjectError(file_, path + ".direction",
                                   "must be normal to the line: " + std::string(normal == 0 ? "+x or -x" : "+y or -y"));
            add_flux_line(m.from, m.to, normal, s, path, cm);
            cm.extent_um = std::hypot(m.to.x - m.from.x, m.to.y - m.from.y);
            if (m.kind == "mode") add_mode_line_monitor(m, path, normal, s, cm);
            break;
        }
        case MonitorType::FluxBox: {
            if (!m.min || !m.max) throw ProjectError(file_, path, "a flux_box needs min and max");
            Vec2 lo{std::min(m.min->x, m.max->x), std::min(m.min->y, m.max->y)};
            Vec2 hi{std::max(m.min->x, m.max->x), std::max(m.min->y, m.max->y)};
            check_point(lo, path + ".min", what);
            check_point(hi, path + ".max", what);
            if (!(hi.x - lo.x > 0) || !(hi.y - lo.y > 0))
                throw ProjectError(file_, path + ".max", "the box must have nonzero width and height");
            add_flux_line({lo.x, lo.y}, {lo.x, hi.y}, 0, -1, path + ".min", cm);
            add_flux_line({hi.x, lo.y}, {hi.x, hi.y}, 0, +1, path + ".max", cm);
            add_flux_line({lo.x, lo.y}, {hi.x, lo.y}, 1, -1, path + ".min", cm);
            add_flux_line({lo.x, hi.y}, {hi.x, hi.y}, 1, +1, path + ".max", cm);
            break;
        }
        case MonitorType::Time: {
            if (!in_polarization(m.component, pol))
                throw ProjectError(file_, path + ".component",
                                   "component " + to_string(m.component) + " is not a field of " + to_string(pol));
            TimeProbe tp;
            tp.component = m.component;
            tp.reduce = m.reduce;
            const Vec3 off = yee_offset(m.component);
            if (m.at) {
                check_point(*m.at, path + ".at", what);
                tp.cells = {flat(nearest_index(0, m.at->x, off.x), nearest_index(1, m.at->y, off.y))};
                tp.weights = {1.0};
            } else if (m.shape) {
                const auto cov = shape_coverage(*m.shape, m.component, path + ".shape");
                for (std::size_t k = 0; k < cov.size(); ++k)
                    if (cov[k] > 1e-9) {
                        tp.cells.push_back(static_cast<CellIndex>(k));
                        tp.weights.push_back(cov[k]);
                    }
                if (tp.cells.empty())
                    throw ProjectError(file_, path + ".shape", "the shape covers no grid node of " + to_string(m.component));
            } else {
                throw ProjectError(file_, path, "a time monitor needs `at` or `shape`");
            }
            cm.time_probe = static_cast<int>(sc().time_probes.size());
            sc().time_probes.push_back(std::move(tp));
            break;
        }
        case MonitorType::DftField: {
            Vec2 lo{0, 0}, hi{L_[0], L_[1]};
            if (m.min) lo = *m.min;
            if (m.max) hi = *m.max;
            if (lo.x > hi.x) std::swap(lo.x, hi.x);
            if (lo.y > hi.y) std::swap(lo.y, hi.y);
            check_point(lo, path + ".min", what);
            check_point(hi, path + ".max", what);
            int i0 = static_cast<int>(std::lround(lo.x / dx_)) + pml_lo(0);
            int i1 = static_cast<int>(std::lround(hi.x / dx_)) + pml_lo(0);
            int j0 = static_cast<int>(std::lround(lo.y / dx_)) + pml_lo(1);
            int j1 = static_cast<int>(std::lround(hi.y / dx_)) + pml_lo(1);
            i0 = std::clamp(i0, 0, N_[0] - 1);
            j0 = std::clamp(j0, 0, N_[1] - 1);
            i1 = std::clamp(std::max(i1, i0 + 1), 1, N_[0]);
            j1 = std::clamp(std::max(j1, j0 + 1), 1, N_[1]);
            cm.region_nx = i1 - i0;
            cm.region_ny = j1 - j0;
            const std::vector<double> freqs = detail::dft_field_frequencies(m, path, file_);
            std::vector<Component> comps = m.components.empty() ? electric_components(pol) : m.components;
            {  // the region's samples and accumulators, before allocating them
                const double need = double(cm.region_nx) * cm.region_ny * double(comps.size()) *
                                    (32.0 + 16.0 * double(freqs.size()));
                const double host = double(limits::host_memory_bytes());
                if (host > 0 && need > host)
                    throw ProjectError(file_, path + ".wavelengths",
                                       "the DFT field maps (" + std::to_string(cm.region_nx) + " x " +
                                           std::to_string(cm.region_ny) + " cells, " + std::to_string(comps.size()) +
                                           " components, " + std::to_string(freqs.size()) + " wavelengths) need about " +
                                           limits::format_bytes(need) + ", more than this machine's memory (" +
                                           limits::format_bytes(host) + ")");
            }
            for (std::size_t k = 0; k < comps.size(); ++k) {
                if (!in_polarization(comps[k], pol))
                    throw ProjectError(file_, path + ".components[" + std::to_string(k) + "]",
                                       "component " + to_string(comps[k]) + " is not a field of " + to_string(pol));
                cm.dft_field_sets.push_back(static_cast<int>(sc().dft_sets.size()));
                cm.dft_field_components.push_back(comps[k]);
                sc().dft_sets.push_back(detail::box_dft_set(grid_, CellBox{{i0, j0, 0}, {i1, j1, 1}}, comps[k], freqs));
            }
            break;
        }
    }
    out_.monitors.push_back(std::move(cm));
}

// ----------------------------------------------------------------------------- finish

void Compiler::finish() {
    detail::warn_tfsf_flux_boxes(project_, out_);
    detail::finish_compile(project_, file_, out_);
    for (const std::string& w : pml_warned_) out_.warnings.push_back(w + " lies inside the PML");
}

CompiledProject Compiler::run() {
    compile_grid();
    compile_medium();
    compile_spectrum();
    resolve_bloch();
    for (std::size_t i = 0; i < project_.sources.size(); ++i) compile_source(i);
    for (std::size_t i = 0; i < project_.monitors.size(); ++i) compile_monitor(i);
    finish();
    return std::move(out_);
}

}  // namespace

CompiledProject compile_project(const Project& project, const std::string& file_label, const CompileOptions& options) {
    Compiler c(project, file_label, options);
    check_gds_shapes(project, file_label);  // embedded GDSII files: errors name layers[i].shapes[k].data
    try {
        if (project.domain.dimensions == 3) return detail::compile_project_3d(project, file_label, options);
        return c.run();
    } catch (const ProjectError& e) {  // geometry (compute_coverage) does not know the file
        if (!e.file().empty()) throw;
        throw ProjectError(file_label, e.json_path(), e.message());
    }
}

}  // namespace golightly
