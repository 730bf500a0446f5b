// GoLightly compiler: the parts shared by the 2D and the 3D compiler (compile_internal.hpp).
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "compile_internal.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/conformal_metal.hpp"
#include "golightly/dispersion.hpp"
#include "golightly/errors.hpp"
#include "golightly/limits.hpp"
#include "golightly/step_limit.hpp"
#include "golightly/symmetry.hpp"
#include "golightly/units.hpp"

namespace golightly::detail {

using units::c0;
using units::pi;

std::string fmt(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

std::string idx_path(const char* what, std::size_t i) { return std::string(what) + "[" + std::to_string(i) + "]"; }

std::pair<int, int> parse_direction(const std::string& d, bool allow_z) {
    if (d.size() != 2 || (d[0] != '+' && d[0] != '-')) return {-1, 0};
    const int s = d[0] == '+' ? 1 : -1;
    if (d[1] == 'x' || d[1] == 'X') return {0, s};
    if (d[1] == 'y' || d[1] == 'Y') return {1, s};
    if (allow_z && (d[1] == 'z' || d[1] == 'Z')) return {2, s};
    return {-1, 0};
}

double numerical_k0_per_um(double omega, double dt_s) {
    return 2.0 / (c0 * dt_s) * std::sin(omega * dt_s / 2) * units::um;
}

double half_cell_delay_s(double n_disc, double omega, double dx_um, double dt_s) {
    // lattice wavenumber beta = (2/dx) asin(beta~ dx/2), beta~ = n_disc k0~
    const double arg = std::min(1.0, n_disc * numerical_k0_per_um(omega, dt_s) * dx_um / 2);
    const double beta = 2.0 / dx_um * std::asin(arg);  // 1/um
    const double v = omega / (beta / units::um);
    return 0.5 * dx_um * units::um / v;
}

TangentialPair tangential_pair_3d(int normal, Component e) {
    const int t = component_axis(e);
    const int u = 3 - normal - t;  // the third axis: H~_u pairs with E_t
    const double sigma = normal == (t + 1) % 3 ? +1.0 : -1.0;
    return TangentialPair{e, static_cast<Component>(3 + u), sigma, sigma};
}

void plane_wave_incident(bool electric_source, double prof, double n_local, const TangentialPair& tp, int s,
                         double& e_inc, double& h_inc) {
    if (electric_source) {
        e_inc = prof;
        h_inc = -tp.sigma_h * s * n_local * prof;
    } else {
        h_inc = prof;
        e_inc = -tp.sigma_e * s * prof / n_local;
    }
}

void add_one_way_terms(Scene& scene, const TangentialPair& tp, int s, const std::vector<OneWayNode>& nodes,
                       const CompiledWaveform& wf) {
    SourceTerm et;
    et.component = tp.e;
    et.waveform = wf;
    et.delay_s = 0;
    std::map<double, SourceTerm> h_terms;  // by delay
    const auto& idx = scene.material_index[static_cast<int>(tp.e)];
    for (const OneWayNode& nd : nodes) {
        const double cb = scene.table[idx[static_cast<std::size_t>(nd.e_cell)]].cb;
        const double we = -s * tp.sigma_e * cb * nd.h_inc * nd.frac;
        const double wh = -s * tp.sigma_h * scene.courant * nd.e_inc * nd.frac;
        if (we != 0) {
            et.cells.push_back(nd.e_cell);
            et.weights.push_back(we);
        }
        if (wh != 0) {
            SourceTerm& ht = h_terms[nd.delay_h_s];
            ht.component = tp.h;
            ht.waveform = wf;
            ht.delay_s = nd.delay_h_s;
            ht.cells.push_back(nd.h_cell);
            ht.weights.push_back(wh);
        }
    }
    if (!et.cells.empty()) scene.sources.push_back(std::move(et));
    for (auto& [d, ht] : h_terms) scene.sources.push_back(std::move(ht));
}

CompiledWaveform compile_waveform(const Source& s, const std::string& path, const std::string& file_) {
    CompiledWaveform w;
    const Waveform& in = s.waveform;
    w.type = in.type;
    w.amplitude = s.amplitude;
    w.phase_rad = s.phase_deg * pi / 180.0;
    if (in.type == WaveformType::GaussianPulse) {
        const double wl = in.wavelength_center, span = in.wavelength_span;
        if (!(wl > 0)) throw ProjectError(file_, path + ".waveform.wavelength_center", "must be > 0");
        if (!(span > 0) || !(span < 2 * wl))
            throw ProjectError(file_, path + ".waveform.wavelength_span",
                               "must be > 0 and below twice the centre wavelength");
        const double f0 = units::wavelength_um_to_hz(wl);
        const double df = units::wavelength_um_to_hz(wl - 0.5 * span) - units::wavelength_um_to_hz(wl + 0.5 * span);
        // exp(-u^2/2), u = t/tau, has spectral amplitude exp(-(w-w0)^2 tau^2 / 2): 1/e at
        // |w - w0| = sqrt(2)/tau = 2 pi df / 2.
        w.omega = 2 * pi * f0;
        w.tau_s = 2.0 * std::sqrt(2.0) / (2 * pi * df);
        w.t0_s = 6.0 * w.tau_s;
    } else {
        if (!(in.wavelength > 0)) throw ProjectError(file_, path + ".waveform.wavelength", "must be > 0");
        const double f = units::wavelength_um_to_hz(in.wavelength);
        w.omega = 2 * pi * f;
        w.ramp_s = std::max(0.0, in.ramp_periods) / f;
    }
    return w;
}

std::vector<double> compile_spectrum(const Project& project) {
    const Spectrum& sp = project.run.spectrum;
    const double f_lo = units::wavelength_um_to_hz(std::max(sp.wavelength_min, sp.wavelength_max));
    const double f_hi = units::wavelength_um_to_hz(std::min(sp.wavelength_min, sp.wavelength_max));
    const int n = std::max(sp.points, 1);
    std::vector<double> out(n);
    for (int k = 0; k < n; ++k) out[k] = n == 1 ? 0.5 * (f_lo + f_hi) : f_lo + (f_hi - f_lo) * k / (n - 1);
    return out;
}

std::vector<double> dft_field_frequencies(const Monitor& m, const std::string& path, const std::string& file) {
    std::vector<double> freqs;
    for (std::size_t k = 0; k < m.wavelengths.size(); ++k) {
        if (!(m.wavelengths[k] > 0))
            throw ProjectError(file, path + ".wavelengths[" + std::to_string(k) + "]", "must be > 0");
        freqs.push_back(units::wavelength_um_to_hz(m.wavelengths[k]));
    }
    if (freqs.empty()) throw ProjectError(file, path + ".wavelengths", "needs at least one wavelength");
    return freqs;
}

DftSet box_dft_set(const Grid& grid, const CellBox& box, Component c, const std::vector<double>& frequencies_hz) {
    DftSet set;
    set.component = c;
    set.frequencies_hz = frequencies_hz;
    const std::size_t ns = std::size_t(box.cells());
    set.cell0.reserve(ns);
    for (std::int64_t z = box.lo[2]; z < box.hi[2]; ++z)
        for (std::int64_t y = box.lo[1]; y < box.hi[1]; ++y)
            for (std::int64_t x = box.lo[0]; x < box.hi[0]; ++x) set.cell0.push_back(grid.flat(x, y, z));
    set.w0.assign(ns, 1.0);
    set.cell1.assign(ns, -1);
    set.w1.assign(ns, 0.0);
    return set;
}

void add_flux_sample(DftSet& es, DftSet& hs, CellIndex e_cell, double w, CellIndex h_lo, CellIndex h_hi) {
    es.cell0.push_back(e_cell);
    es.w0.push_back(w);
    es.cell1.push_back(-1);
    es.w1.push_back(0.0);
    hs.cell0.push_back(h_lo);
    hs.cell1.push_back(h_hi);
    hs.w0.push_back(0.5);
    hs.w1.push_back(0.5);
}

TfsfSource compile_tfsf(const Project& project, const Source& src, const std::string& path, const std::string& file,
                        const Scene& scene, const Grid& grid, const CompiledWaveform& wf) {
    const int dims = scene.dimensions == 3 ? 3 : 2;
    const char* axis_name = "xyz";
    TfsfSource t;
    t.waveform = wf;
    t.delay_s = 0;
    const auto [axis, sign] = parse_direction(src.direction, dims == 3);
    if (axis < 0)
        throw ProjectError(file, path + ".direction",
                           dims == 3 ? "must be one of +x, -x, +y, -y, +z, -z" : "must be one of +x, -x, +y, -y");
    t.axis = axis;
    t.sign = sign;
    const Component c = src.component;
    if (!is_electric(c))
        throw ProjectError(file, path + ".component", "a tfsf source's component is its E polarization: Ex, Ey or Ez");
    if (static_cast<int>(c) == axis)
        throw ProjectError(file, path + ".component",
                           "the E polarization " + to_string(c) + " must be normal to the direction " + src.direction);
    if (dims == 2) {
        bool ok = false;
        for (Component e : electric_components(scene.polarization)) ok = ok || e == c;
        if (!ok)
            throw ProjectError(file, path + ".component",
                               "component " + to_string(c) + " is not a field of " + to_string(scene.polarization));
    }
    t.e_component = c;
    const double dx = scene.dx_um;
    for (int a = 0; a < dims; ++a) {
        const double lo_um = std::min(src.box_min[a], src.box_max[a]);
        const double hi_um = std::max(src.box_min[a], src.box_max[a]);
        const double interior = grid.interior_um(a);
        const std::int64_t n = grid.n[a];
        const bool spans = grid.periodic(a) && lo_um <= 1e-9 * dx && hi_um >= interior - 1e-9 * dx;
        if (spans) {
            if (a == axis)
                throw ProjectError(file, path + ".max",
                                   "the total-field box may not span the periodic axis of propagation (" +
                                       std::string(1, axis_name[a]) + ")");
            t.lo[a] = 0;
            t.hi[a] = n - 1;
            continue;
        }
        t.lo[a] = std::llround(lo_um / dx) + grid.pml_lo[a];
        t.hi[a] = std::llround(hi_um / dx) + grid.pml_lo[a];
        if (t.hi[a] <= t.lo[a])
            throw ProjectError(file, path + ".max",
                               std::string("the total-field box must span at least one cell along ") + axis_name[a]);
        const std::int64_t first = grid.pml_lo[a] + 1, last = n - 1 - grid.pml_hi[a] - 1;
        if (t.lo[a] < first || t.hi[a] > last)
            throw ProjectError(file, path + (t.lo[a] < first ? ".min" : ".max"),
                               std::string("the total-field box needs one cell of room inside the domain interior "
                                           "along ") +
                                   axis_name[a] + " (it may span [" + fmt(double(first - grid.pml_lo[a]) * dx) + ", " +
                                   fmt(double(last - grid.pml_lo[a]) * dx) + "] um" +
                                   (grid.periodic(a) ? ", or the whole periodic axis" : "") + ")");
    }
    (void)project;
    return t;
}


void warn_tfsf_flux_boxes(const Project& project, CompiledProject& out) {
    const Scene& sc = out.scene;
    if (sc.tfsf.empty()) return;
    const int dims = sc.dimensions == 3 ? 3 : 2;
    const TfsfSource& t = sc.tfsf.front();
    for (std::size_t i = 0; i < project.monitors.size(); ++i) {
        const Monitor& m = project.monitors[i];
        if (m.type != MonitorType::FluxBox || !m.min || !m.max) continue;
        if (m.kind != "scattering" && m.kind != "absorption") continue;
        const double lo3[3] = {std::min(m.min->x, m.max->x), std::min(m.min->y, m.max->y),
                               std::min(m.min_z.value_or(0), m.max_z.value_or(0))};
        const double hi3[3] = {std::max(m.min->x, m.max->x), std::max(m.min->y, m.max->y),
                               std::max(m.min_z.value_or(0), m.max_z.value_or(0))};
        bool outside = true, inside = true;
        for (int a = 0; a < dims; ++a) {
            if (t.lo[a] <= 0 && t.hi[a] >= (a == 0 ? sc.nx : a == 1 ? sc.ny : sc.nz) - 1) continue;  // spanned
            const double tlo = double(t.lo[a] - sc.pml_lo[a]) * sc.dx_um, thi = double(t.hi[a] - sc.pml_lo[a]) * sc.dx_um;
            const double tol = 0.25 * sc.dx_um;
            outside = outside && lo3[a] < tlo - tol && hi3[a] > thi + tol;
            inside = inside && lo3[a] > tlo + tol && hi3[a] < thi - tol;
        }
        if (m.kind == "scattering" && !outside)
            out.warnings.push_back("flux_box '" + m.name + "' (scattering) does not enclose the tfsf total-field box: "
                                   "its faces must lie in the scattered-field region outside it");
        if (m.kind == "absorption" && !inside)
            out.warnings.push_back("flux_box '" + m.name + "' (absorption) is not inside the tfsf total-field box: "
                                   "it must lie in the total-field region");
    }
}

}  // namespace golightly::detail

namespace golightly {

long long steps_for_time(double max_time_fs, double dt_s) {
    const double steps_time = max_time_fs * units::fs / dt_s;
    return steps_time > 9e18 ? std::numeric_limits<long long>::max()
                             : static_cast<long long>(std::ceil(steps_time - 1e-9));
}

StepLimit stop_step_limit(const StopCriteria& stop, double dt_s, std::optional<long long> max_steps_override) {
    const std::int64_t time_steps = steps_for_time(stop.max_time_fs, dt_s);
    const std::optional<long long> max_steps = max_steps_override ? max_steps_override : stop.max_steps;
    StepLimit limit{std::max<std::int64_t>(0, time_steps), false};
    if (max_steps && *max_steps < time_steps) {
        limit.steps = std::max<long long>(0, *max_steps);
        limit.is_max_steps = true;
    }
    return limit;
}

}  // namespace golightly

namespace golightly::detail {

namespace {

// Mirror symmetry planes (symmetry.hpp): the grid's parity is checked and the whole-domain
// scene searched for a structure or source that breaks them, each refusal naming the
// project field. Returns the whole-to-reduced cell ratio (1 without planes).
double apply_symmetry(const Project& project, const std::string& file, Scene& s) {
    for (int a = 0; a < 3; ++a) s.symmetry[a] = project.domain.symmetry[std::size_t(a)];
    if (s.symmetry[0] == 0 && s.symmetry[1] == 0 && s.symmetry[2] == 0) return 1.0;
    MirrorMap map;
    try {
        map = mirror_map(s);
    } catch (const RunError& e) {
        int a = 0;
        for (int k = 0; k < 3; ++k)
            if (s.symmetry[k] != 0 && std::string(e.what()).find(std::string("symmetry in ") + "xyz"[k]) == 0) a = k;
        const double L = project.domain.size[std::size_t(a)], dx = project.domain.cell_size;
        std::ostringstream hint;
        hint.precision(6);
        if (std::string(e.what()).find("interior cells") != std::string::npos)
            hint << " (domain.size[" << a << "] = " << L << " um at cell_size " << dx << " um): make the size "
                 << L + dx << " or " << L - dx << " um, or take the other sign if the fields allow it";
        throw ProjectError(file, "domain.symmetry[" + std::to_string(a) + "]", e.what() + hint.str());
    }
    if (const auto v = find_symmetry_violation(s, map)) {
        std::ostringstream where;
        where.precision(6);
        where << "(" << v->where_um[0] << ", " << v->where_um[1];
        if (s.dimensions == 3) where << ", " << v->where_um[2];
        where << ") um";
        const std::string sym = std::string("the mirror symmetry in ") + "xyz"[v->axis] + " (domain.symmetry[" +
                                std::to_string(v->axis) + "] = " + std::to_string(s.symmetry[v->axis]) + ")";
        if (v->kind == SymmetryViolation::Kind::Source && v->term >= 0) {
            const int origin = s.sources[std::size_t(v->term)].origin;
            const std::string path = origin >= 0 ? "sources[" + std::to_string(origin) + "]" : "sources";
            const std::string name = origin >= 0 ? " '" + project.sources[std::size_t(origin)].name + "'" : "";
            throw ProjectError(file, path, "the source" + name + " breaks " + sym + ": " + v->detail + " at " +
                                               where.str() + "; centre it on the plane or change the sign");
        }
        if (v->kind == SymmetryViolation::Kind::Tfsf) {
            int k = -1, seen = -1;
            for (std::size_t i = 0; i < project.sources.size() && k < 0; ++i)
                if (project.sources[i].type == SourceType::Tfsf && ++seen == v->term) k = int(i);
            throw ProjectError(file, k >= 0 ? "sources[" + std::to_string(k) + "]" : "sources",
                               "a tfsf source cannot be used with " + sym + ": " + v->detail);
        }
        throw ProjectError(file, "domain.symmetry[" + std::to_string(v->axis) + "]",
                           "the structure breaks " + sym + ": " + v->detail + ", at " + where.str() +
                               " (the plane is the domain's centre)");
    }
    return map.cell_ratio();
}

/// engine_state_bytes of the per-cell part of a scene of n cells (no sparse lists).
std::size_t grid_state_bytes(const Scene& s, const std::array<std::int64_t, 3>& n, Precision p) {
    Scene g;
    g.dimensions = s.dimensions;
    g.polarization = s.polarization;
    g.nx = int(n[0]), g.ny = int(n[1]), g.nz = int(n[2]);
    for (int a = 0; a < 3; ++a) g.boundary[a] = s.boundary[a], g.pml_lo[a] = s.pml_lo[a], g.pml_hi[a] = s.pml_hi[a];
    g.table = s.table;
    return engine_state_bytes(g, p, 0);
}

}  // namespace

std::vector<std::pair<std::int64_t, double>> point_source_nodes(const Project& project, const Grid& grid, int axis,
                                                                double x_um, double offset) {
    const std::int64_t k = grid.nearest_index(axis, x_um, offset);
    const double dx = grid.dx_um, plane = 0.5 * project.domain.size[std::size_t(axis)];
    if (project.domain.symmetry[std::size_t(axis)] == 0 || std::abs(x_um - plane) > 1e-3 * dx ||
        std::abs(grid.position_um(axis, k, offset) - plane) <= 1e-3 * dx)
        return {{k, 1.0}};
    const std::int64_t lo = std::int64_t(std::floor(plane / dx + grid.pml_lo[axis] - offset + 1e-9));
    return {{lo, 0.5}, {lo + 1, 0.5}};
}

namespace {

/// CompiledProject::design_dft_bytes (compile.hpp): the E Yee sites inside each design
/// region's box (lo <= x < hi per axis, as adjoint.hpp map_design takes them; 2D: x and y)
/// times the bytes each site costs an adjoint gradient, with the terms of
/// engine_state_bytes (scene.hpp) for what adjoint.cpp apply_design adds to the scene: a
/// table entry per site (up to the table's free entries) and, for dispersive design
/// materials, a pole set per site of both materials' P poles and a dispersive row with
/// its polarization state; the engine sizes every dispersive cell's state by the largest
/// pole set, so the scene's own dispersive cells grow too when P exceeds its largest set.
std::size_t design_dft_bytes(const Project& project, const Scene& s) {
    std::optional<DesignSpec> spec;
    try {  // the reader checked the section at load; an edit since that broke it costs nothing here
        spec = design_spec(project, "", false);
    } catch (const ProjectError&) {
        return 0;
    }
    if (!spec) return 0;
    const std::set<double> wavelengths(spec->objective.wavelengths_um.begin(), spec->objective.wavelengths_um.end());
    const std::size_t nf = std::max<std::size_t>(1, wavelengths.size());
    const bool three = s.dimensions == 3;
    const std::vector<Component> comps =
        three ? std::vector<Component>{Component::Ex, Component::Ey, Component::Ez} : electric_components(s.polarization);
    const std::int64_t n[3] = {s.nx, s.ny, three ? s.nz : 1};
    const std::size_t R = project.run.precision == Precision::Float32 ? 4 : 8;
    const std::size_t index = sizeof(CellIndex), weight = sizeof(double);
    std::size_t scene_poles = 0, scene_dispersive = 0;
    for (const PoleSet& ps : s.pole_sets) scene_poles = std::max(scene_poles, ps.poles.size());
    for (const DispersiveCells& d : s.dispersive) scene_dispersive += d.cells.size();
    constexpr std::size_t kTableLimit = 65535;  // build_material_table's bound (adjoint.cpp apply_design)
    std::size_t table = s.table.size(), bytes = 0;
    for (const DesignRegionSpec& r : spec->regions) {
        std::size_t sites = 0;
        for (Component c : comps) {
            const Vec3 off = yee_offset(c);
            std::size_t count = 1;
            for (int a = 0; a < (three ? 3 : 2); ++a) {
                const double p_lo = r.min[a] / s.dx_um + s.pml_lo[a] - off[a];
                const double p_hi = r.max[a] / s.dx_um + s.pml_lo[a] - off[a];
                const std::int64_t first = std::max<std::int64_t>(0, std::int64_t(std::ceil(p_lo - 1e-9)));
                const std::int64_t last = std::min<std::int64_t>(n[a] - 1, std::int64_t(std::ceil(p_hi - 1e-9)) - 1);
                count *= std::size_t(std::max<std::int64_t>(0, last - first + 1));
            }
            sites += count;
        }
        // the DFT fields: the forward run's kept on the host (16 N_w), the adjoint run's set
        // in its engine (16 N_w, two cell indices, two weights, the 16-double CUDA ring) and
        // copied out at its end (16 N_w)
        bytes += sites * (3 * nf * 2 * sizeof(double) + 2 * (index + weight) + 16 * sizeof(double));
        // a table entry per site (evenly spaced levels when the table has fewer free entries)
        const std::size_t entries = std::min(sites, table < kTableLimit ? kTableLimit - table : 0);
        bytes += entries * (sizeof(EUpdateCoeffs) + 2 * R + sizeof(double));
        table += entries;
        // dispersive design materials: per site a pole set of both materials' poles (their
        // coefficients, double and R, and two offsets) and a dispersive row (cell, set,
        // weight, (2 + 2 P_max) R of polarization state and scratch)
        std::size_t poles = 0;
        for (const std::string& id : r.materials)
            if (const Material* m = project.find_material(id)) poles += m->poles.size();
        if (poles > 0) {
            const std::size_t widest = std::max(poles, scene_poles);
            bytes += sites * (index + sizeof(std::uint32_t) + weight + (2 + 2 * widest) * R +
                              poles * 5 * (sizeof(double) + R) + 2 * sizeof(std::int32_t));
            bytes += scene_dispersive * 2 * (widest - scene_poles) * R;
            scene_poles = widest;
            scene_dispersive += sites;
        }
    }
    return bytes;
}

}  // namespace

void finish_compile(const Project& project_, const std::string& file_, CompiledProject& out_) {
    const double mirror_ratio = apply_symmetry(project_, file_, out_.scene);
    const Scene& s = out_.scene;
    const double dx_ = s.dx_um;
    const double dt = s.dt_s;
    // Steps.
    out_.max_steps = stop_step_limit(project_.run.stop, dt).steps;

    // Memory estimate (bytes): the engines' model, with the time probes' history for the
    // whole run (at most 1e8 steps counted).
    out_.memory_bytes =
        engine_state_bytes(s, project_.run.precision, std::min<long long>(out_.max_steps, 100000000LL));
    if (mirror_ratio > 1) {  // the engine holds the reduced grid (the sparse lists counted whole: an upper bound)
        const std::array<std::int64_t, 3> n{s.nx, s.ny, s.dimensions == 3 ? s.nz : 1};
        std::array<std::int64_t, 3> h = n;
        for (int a = 0; a < 3; ++a)
            if (s.symmetry[a] != 0) h[std::size_t(a)] = n[std::size_t(a)] - (n[std::size_t(a)] + 1) / 2;
        const std::size_t whole = grid_state_bytes(s, n, project_.run.precision);
        const std::size_t part = grid_state_bytes(s, h, project_.run.precision);
        out_.memory_bytes = out_.memory_bytes - std::min(out_.memory_bytes, whole) + part;
    }
    // The mode solves run during the compile, beside the scene (which is about the engine
    // state): the largest solve's peak adds to the estimate.
    for (const CompiledMonitor& cm : out_.monitors)
        if (cm.mode_plan) out_.mode_solver_peak_bytes = std::max(out_.mode_solver_peak_bytes, cm.mode_plan->solve_peak_bytes);
    out_.memory_bytes += std::size_t(out_.mode_solver_peak_bytes);
    // optimize --adjoint: the design region's forward and adjoint DFT fields
    out_.design_dft_bytes = design_dft_bytes(project_, s);
    out_.memory_bytes += out_.design_dft_bytes;
    const std::size_t mem = out_.memory_bytes;
    const std::size_t bp = project_.run.precision == Precision::Float32 ? 4 : 8;
    if (const double host = double(limits::host_memory_bytes()); host > 0 && double(mem) > host) {
        // Name the field behind the largest part of the estimate.
        std::string field = "domain.cell_size", part = "the grid";
        double largest = 3.0 * double(s.cells()) * double(bp);
        auto set_bytes = [&](int k) {
            const DftSet& d = s.dft_sets[std::size_t(k)];
            return double(d.cell0.size()) * (double(d.frequencies_hz.size()) * 16 + 2 * (double(sizeof(CellIndex)) + double(bp)));
        };
        for (std::size_t i = 0; i < out_.monitors.size(); ++i) {
            const CompiledMonitor& cm = out_.monitors[i];
            double b = 0;
            for (const FluxTerm& t : cm.flux_terms) b += set_bytes(t.e_set) + set_bytes(t.h_set);
            for (int k : cm.dft_field_sets) b += set_bytes(k);
            if (b > largest) {
                largest = b;
                field = cm.type == MonitorType::DftField ? "monitors[" + std::to_string(i) + "].wavelengths"
                                                          : std::string("run.spectrum.points");
                part = "the DFT accumulators of monitor '" + limits::cap_text(cm.name) + "'";
            }
        }
        const double probes = double(s.time_probes.size()) * double(std::min<long long>(out_.max_steps, 100000000LL)) * 8;
        if (probes > largest) {
            largest = probes;
            field = "run.stop.max_time_fs";
            part = "the time series of the time monitors";
        }
        if (double(out_.mode_solver_peak_bytes) > largest) {
            largest = double(out_.mode_solver_peak_bytes);
            field = "domain.cell_size";
            part = "the largest mode solve of a port, mode source or mode monitor";
        }
        if (double(out_.design_dft_bytes) > largest) {
            largest = double(out_.design_dft_bytes);
            field = "design.regions[0]";
            part = "the design region's DFT fields of optimize --adjoint";
        }
        throw ProjectError(file_, field,
                           "the run needs about " + limits::format_bytes(double(mem)) + " (" + part + ": " +
                               limits::format_bytes(largest) + "), more than this machine's memory (" +
                               limits::format_bytes(host) + ")");
    }

    // Resolution: cells per wavelength at the shortest wavelength in the highest index.
    double wl_min = std::min(project_.run.spectrum.wavelength_min, project_.run.spectrum.wavelength_max);
    for (const Source& src : project_.sources) {
        if (src.waveform.type == WaveformType::GaussianPulse)
            wl_min = std::min(wl_min, src.waveform.wavelength_center - 0.5 * src.waveform.wavelength_span);
        else
            wl_min = std::min(wl_min, src.waveform.wavelength);
    }
    double eps_max = 1.0;
    for (const EUpdateCoeffs& co : s.table) eps_max = std::max(eps_max, co.eps_r);
    const double cpw = wl_min / std::sqrt(eps_max) / dx_;
    if (wl_min > 0 && cpw < 10)
        out_.warnings.push_back("only " + fmt(std::round(cpw * 10) / 10) + " cells per wavelength at " + fmt(wl_min) +
                                " um in the highest index (" + fmt(std::sqrt(eps_max)) +
                                "): at least 10 are recommended, 20 for accurate results");
}

}  // namespace golightly::detail

// ----------------------------------------------------------------------------- tensor couplings

namespace golightly::detail {

void merge_complex_source_terms(Scene& scene, std::size_t first, std::size_t mid, const CompiledWaveform& wf) {
    std::map<std::pair<int, double>, std::map<CellIndex, std::complex<double>>> acc;
    for (std::size_t t = first; t < scene.sources.size(); ++t) {
        const SourceTerm& st = scene.sources[t];
        auto& cells = acc[{int(st.component), st.delay_s}];
        const std::complex<double> unit = t < mid ? 1.0 : std::complex<double>(0.0, 1.0);
        for (std::size_t q = 0; q < st.cells.size(); ++q) cells[st.cells[q]] += unit * st.weights[q];
    }
    scene.sources.resize(first);
    for (const auto& [key, cells] : acc) {
        SourceTerm t;
        t.component = static_cast<Component>(key.first);
        t.waveform = wf;
        t.delay_s = key.second;
        for (const auto& [cell, w] : cells) {
            t.cells.push_back(cell);
            t.weights.push_back(w.real());
            t.weights_im.push_back(w.imag());
        }
        scene.sources.push_back(std::move(t));
    }
}

std::size_t build_tensor_couplings(Scene& s, std::vector<TensorSeed> (&seeds)[3]) {
    const int dims = s.dimensions == 3 ? 3 : 2;
    const int ncomp = dims == 3 ? 3 : 2, groups = dims == 3 ? 2 : 1, slots = anisotropic_slots(dims);
    const std::int64_t n[3] = {s.nx, s.ny, dims == 3 ? s.nz : 1};
    const Grid grid = s.grid();
    auto periodic = [&](int a) { return s.boundary[a] == BoundaryKind::Periodic; };
    auto inv_diag = [&](int c, CellIndex cell) { return 1.0 / s.table[s.material_index[c][std::size_t(cell)]].eps_r; };
    auto ijk_of = [&](CellIndex cell, std::int64_t (&x)[3]) {
        x[0] = cell % n[0];
        x[1] = (cell / n[0]) % n[1];
        x[2] = cell / (n[0] * n[1]);
    };
    std::vector<CellIndex> dispersive[3];
    for (int c = 0; c < ncomp; ++c) {
        dispersive[c] = s.dispersive[c].cells;
        std::sort(dispersive[c].begin(), dispersive[c].end());
    }
    auto eligible = [&](int c, CellIndex cell) {
        std::int64_t x[3];
        ijk_of(cell, x);
        for (int a = 0; a < dims; ++a) {
            if (x[a] < s.pml_lo[a] || x[a] >= n[a] - s.pml_hi[a]) return false;
            if (!periodic(a) && (x[a] == 0 || x[a] == n[a] - 1)) return false;
        }
        const EUpdateCoeffs& t = s.table[s.material_index[c][std::size_t(cell)]];
        if (t.ca != 1.0 || t.sigma != 0.0) return false;
        return !std::binary_search(dispersive[c].begin(), dispersive[c].end(), cell);
    };
    // the site of component b = anisotropic_partner(a, g) in slot m of a site of component
    // a at x (flat index, or -1 beyond a non-periodic edge)
    auto neighbour = [&](int a, int g, const std::int64_t (&x)[3], int m) -> CellIndex {
        const int b = anisotropic_partner(a, g, dims);
        const int hi = std::max(a, b), lo = std::min(a, b);
        const int bit_hi = m >> 1, bit_lo = m & 1;
        std::int64_t y[3] = {x[0], x[1], x[2]};
        auto offset = [&](int axis, int bit) { return axis == a ? bit : bit - 1; };  // a: {0,+1}; b: {-1,0}
        y[hi] += offset(hi, bit_hi);
        y[lo] += offset(lo, bit_lo);
        for (int ax : {lo, hi}) {
            if (y[ax] >= 0 && y[ax] < n[ax]) continue;
            if (!periodic(ax)) return -1;
            y[ax] = (y[ax] + n[ax]) % n[ax];
        }
        return grid.flat(y[0], y[1], y[2]);
    };
    // eligible seeds with a resolvable entry, sorted
    for (int c = 0; c < ncomp; ++c) {
        auto& v = seeds[c];
        v.erase(std::remove_if(v.begin(), v.end(),
                               [&](const TensorSeed& t) {
                                   const double d = 1e-6 * inv_diag(c, t.cell);
                                   bool any = false;
                                   for (int g = 0; g < groups; ++g) any = any || std::abs(t.off[g]) > d;
                                   return !any || !eligible(c, t.cell);
                               }),
                v.end());
        for (auto& t : v)
            for (int g = 0; g < groups; ++g)
                if (!(std::abs(t.off[g]) > 1e-6 * inv_diag(c, t.cell))) t.off[g] = 0.0;
        std::sort(v.begin(), v.end(), [](const TensorSeed& x, const TensorSeed& y) { return x.cell < y.cell; });
    }
    for (int c = ncomp; c < 3; ++c) seeds[c].clear();
    // candidate sites: the seeds and the eligible neighbours of other components' seeds
    std::vector<CellIndex> cand[3];
    for (int c = 0; c < ncomp; ++c)
        for (const TensorSeed& t : seeds[c]) cand[c].push_back(t.cell);
    for (int a = 0; a < ncomp; ++a)
        for (const TensorSeed& t : seeds[a]) {
            std::int64_t x[3];
            ijk_of(t.cell, x);
            for (int g = 0; g < groups; ++g) {
                const int b = anisotropic_partner(a, g, dims);
                for (int m = 0; m < 4; ++m) {
                    const CellIndex q = neighbour(a, g, x, m);
                    if (q >= 0 && eligible(b, q)) cand[b].push_back(q);
                }
            }
        }
    for (int c = 0; c < ncomp; ++c) {
        std::sort(cand[c].begin(), cand[c].end());
        cand[c].erase(std::unique(cand[c].begin(), cand[c].end()), cand[c].end());
    }
    auto find = [](const std::vector<CellIndex>& v, CellIndex cell) -> std::int64_t {
        const auto it = std::lower_bound(v.begin(), v.end(), cell);
        return it != v.end() && *it == cell ? std::int64_t(it - v.begin()) : -1;
    };
    auto off = [&](int c, CellIndex cell, int g) {
        const auto it = std::lower_bound(seeds[c].begin(), seeds[c].end(), cell,
                                         [](const TensorSeed& t, CellIndex v) { return t.cell < v; });
        return it != seeds[c].end() && it->cell == cell ? it->off[g] : 0.0;
    };
    // couplings of each pair a < b, seen from a's sites: (site of a, slot 4g+m, site of b, K)
    struct Coupling {
        std::int64_t p;
        int slot;
        std::int64_t q;
        double k;
    };
    std::vector<Coupling> pairs[3];  // by a
    std::vector<double> row_sum[3];
    for (int c = 0; c < ncomp; ++c) row_sum[c].assign(cand[c].size(), 0.0);
    for (int a = 0; a < ncomp; ++a)
        for (int g = 0; g < groups; ++g) {
            const int b = anisotropic_partner(a, g, dims);
            if (b < a) continue;
            const int gb = anisotropic_group(b, a, dims);
            for (std::size_t lp = 0; lp < cand[a].size(); ++lp) {
                std::int64_t x[3];
                ijk_of(cand[a][lp], x);
                const double op = off(a, cand[a][lp], g);
                for (int m = 0; m < 4; ++m) {
                    const CellIndex q = neighbour(a, g, x, m);
                    if (q < 0) continue;
                    const std::int64_t lq = find(cand[b], q);
                    if (lq < 0) continue;
                    const double k = (op + off(b, q, gb)) / 8.0;
                    if (k == 0.0) continue;
                    pairs[a].push_back({std::int64_t(lp), 4 * g + m, lq, k});
                    row_sum[a][lp] += std::abs(k);
                    row_sum[b][std::size_t(lq)] += std::abs(k);
                }
            }
        }
    AnisotropicCells& an = s.anisotropic;
    an = AnisotropicCells{};
    // list the candidates with a coupling; renumber
    std::vector<std::int32_t> list_index[3];
    for (int c = 0; c < ncomp; ++c) {
        list_index[c].assign(cand[c].size(), -1);
        for (std::size_t k = 0; k < cand[c].size(); ++k)
            if (row_sum[c][k] > 0) {
                if (an.cells[c].size() >= std::size_t(std::numeric_limits<std::int32_t>::max()))
                    throw RunError("sub-pixel tensor: more than 2^31 - 1 coupled sites of one component");
                list_index[c][k] = static_cast<std::int32_t>(an.cells[c].size());
                an.cells[c].push_back(cand[c][k]);
            }
        an.neighbour[c].assign(std::size_t(slots) * an.cells[c].size(), -1);
        an.weight[c].assign(std::size_t(slots) * an.cells[c].size(), 0.0);
    }
    auto damping = [&](int c, std::size_t k) {
        const double r = row_sum[c][k];
        return r > 0 ? std::min(1.0, 0.95 * inv_diag(c, cand[c][k]) / r) : 1.0;
    };
    std::size_t damped = 0;
    for (int a = 0; a < ncomp; ++a)
        for (const Coupling& cp : pairs[a]) {
            const int g = cp.slot / 4, m = cp.slot % 4;
            const int b = anisotropic_partner(a, g, dims), gb = anisotropic_group(b, a, dims);
            const double sd = std::min(damping(a, std::size_t(cp.p)), damping(b, std::size_t(cp.q)));
            if (sd < 1.0) ++damped;
            const double k = cp.k * sd;
            const std::size_t lp = std::size_t(list_index[a][std::size_t(cp.p)]);
            const std::size_t lq = std::size_t(list_index[b][std::size_t(cp.q)]);
            const CellIndex p_cell = cand[a][std::size_t(cp.p)], q_cell = cand[b][std::size_t(cp.q)];
            an.neighbour[a][slots * lp + std::size_t(cp.slot)] = std::int32_t(lq);
            an.weight[a][slots * lp + std::size_t(cp.slot)] = k * s.table[s.material_index[b][std::size_t(q_cell)]].eps_r;
            const std::size_t mirror = std::size_t(4 * gb + 3 - m);
            an.neighbour[b][slots * lq + mirror] = std::int32_t(lp);
            an.weight[b][slots * lq + mirror] = k * s.table[s.material_index[a][std::size_t(p_cell)]].eps_r;
        }
    return damped;
}

}  // namespace golightly::detail
