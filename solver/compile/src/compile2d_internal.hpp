// GoLightly: the 2D compiler's class (compile_project.cpp has its conventions; not public).
// Its members are defined by concept: compile_project.cpp (grid, medium, dispersion,
// shapes, the order of the phases), compile_sources_2d.cpp (sources),
// compile_monitors_2d.cpp (monitors).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

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
#include "golightly/mode_solver_bloch.hpp"
#include "golightly/units.hpp"

namespace golightly::compile2d {

using units::c0;
using units::pi;


inline bool in_polarization(Component c, Polarization p) {
    for (Component x : electric_components(p))
        if (x == c) return true;
    for (Component x : magnetic_components(p))
        if (x == c) return true;
    return false;
}
inline double axis_of(const Vec2& v, int a) { return a == 0 ? v.x : v.y; }
inline double axis_of(const Vec3& v, int a) { return v[a]; }

using detail::fmt;
using detail::idx_path;

/// Tangential field pair of a line normal to axis `normal` (one-way sources and flux
/// lines; compile_internal.hpp).
using detail::TangentialPair;
using detail::TensorSeed;
using detail::build_tensor_couplings;
inline TangentialPair tangential_pair(Polarization p, int normal) {
    if (p == Polarization::TMz)
        return normal == 0 ? TangentialPair{Component::Ez, Component::Hy, +1, +1}
                           : TangentialPair{Component::Ez, Component::Hx, -1, -1};
    return normal == 0 ? TangentialPair{Component::Ey, Component::Hz, -1, -1}
                       : TangentialPair{Component::Ex, Component::Hz, +1, +1};
}

inline std::pair<int, int> parse_direction(const std::string& d) { return detail::parse_direction(d, false); }

/// One node of a line: tangential grid index and covered fraction of its dx.
/// `bend_radius` of a 2D mode line (a `mode` line source's or a line mode monitor's extra
/// member; spec "Mode sources and monitors"): a finite number (um, signed: R > 0 puts the
/// centre of curvature on the line's low side along its axis); 0 when absent. A 2D line
/// bends about z, so `bend_axis` is refused there.
inline double line_bend_radius(const Json& extra, const std::string& path, const std::string& file) {
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
inline int line_bend_pml_cells(double dx_um) { return std::max(kBendPmlCells, int(std::lround(0.5 / dx_um))); }

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
    /// The dispersive cells (before the material table: "conformal" adds eps_inf shifts
    /// to eps3, whole grid per component); normal_sq: AveragedMedium::cut_normal_sq per
    /// component.
    void compile_dispersion(const std::vector<const Layer*>& layers, bool subpixel,
                            std::vector<std::vector<double>>& eps3,
                            const std::vector<std::pair<std::size_t, float>> (&normal_sq)[3]);
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
        /// Imaginary parts of e_inc, h_inc: a Bloch mode (a mode line spanning a Bloch axis
        /// with nonzero k, mode_solver_bloch.hpp); empty for real profiles.
        std::vector<double> e_inc_im, h_inc_im;
        double n_eff = 0;  ///< mode profiles: the mode's effective index
        double n_eff_imag = 0;  ///< bent mode lines: Im n_eff (the bend's radiation loss)
    };
    /// One-way line (mode or plane wave, direction s = +-1 along the normal): the TF/SF
    /// plane at the e nodes nearest the line. Throws ProjectError for too few nodes.
    void add_one_way_line_source(const Source& src, const std::string& path, const SourceLine& line, int s,
                                 const CompiledWaveform& wf);
    /// Whether a mode line takes the Bloch modes of one period (mode_solver_bloch.hpp): it
    /// lies along a "bloch" axis and spans the whole period (`nodes`: the line's nodes whose
    /// centre lies on it); `phase` receives the Bloch phase k L (rad) along the line (0 at
    /// k = 0: the periodic modes, real). Throws ProjectError (path + ".to") for a line along
    /// a Bloch axis with nonzero k that does not span the period, or with a nonzero k along
    /// its normal too (`what`: "mode source" or "mode monitor").
    bool bloch_mode_line(const SourceLine& line, const std::vector<LineNode>& nodes, const std::string& path,
                         const std::string& what, double& phase) const;
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
    /// One-way injection of a complex profile (Bloch mode lines): the terms of
    /// add_one_way for the real and the imaginary parts, merged into terms with complex
    /// weights (SourceTerm::weights_im) per component and delay.
    void add_one_way_complex(const Source& src, const std::string& path, int normal, int s, int k_s,
                             const std::vector<LineNode>& nodes, const OneWayProfile& p, const CompiledWaveform& wf);
    int add_flux_line(const Vec2& from, const Vec2& to, int normal, int s, const std::string& path,
                      CompiledMonitor& mon);
    /// Mode monitor on a flux line (kind "mode", mode_plane.hpp ModeMonitorPlan with dims
    /// 2): DFT sets of the tangential pair on the nodes whose centre lies on the line
    /// (weight 1; H~ averaged across the line), and the slab modes (mode_profile, i.e.
    /// solve_slab_modes at the numerical k0) of every listed mode at every frequency.
    void add_mode_line_monitor(const Monitor& m, const std::string& path, int normal, int s, CompiledMonitor& cm);
};

}  // namespace golightly::compile2d
