// GoLightly compiler: the parts shared by the 2D and the 3D compiler (compile_internal.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "compile_internal.hpp"
#include "golightly/errors.hpp"
#include "golightly/limits.hpp"
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

void finish_compile(const Project& project_, const std::string& file_, CompiledProject& out_) {
    const Scene& s = out_.scene;
    const double dx_ = s.dx_um;
    const double dt = s.dt_s;
    // Steps.
    const double steps_time = project_.run.stop.max_time_fs * units::fs / dt;
    long long steps = steps_time > 9e18 ? std::numeric_limits<long long>::max()
                                        : static_cast<long long>(std::ceil(steps_time - 1e-9));
    if (project_.run.stop.max_steps) steps = std::min(steps, *project_.run.stop.max_steps);
    out_.max_steps = std::max(0LL, steps);

    // Memory estimate (bytes): the engines' model, with the time probes' history for the
    // whole run (at most 1e8 steps counted).
    out_.memory_bytes =
        engine_state_bytes(s, project_.run.precision, std::min<long long>(out_.max_steps, 100000000LL));
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
