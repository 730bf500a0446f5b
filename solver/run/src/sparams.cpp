// GoLightly: ports and S-parameters (sparams.hpp).
#include "golightly/sparams.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "golightly/compile.hpp"
#include "golightly/errors.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/sweep.hpp"
#include "golightly/units.hpp"

namespace golightly {

namespace {

std::string ix(const std::string& base, std::size_t i) { return base + "[" + std::to_string(i) + "]"; }

// [x, y, z] (3D) or [x, y] (2D: z = 0; a third entry is ignored)
Vec3 vec3_of(const Json& j, const std::string& path, const std::string& file, int dims) {
    const bool ok = j.is_array() && (j.size() == 3 || (dims == 2 && j.size() == 2)) && j[0].is_number() &&
                    j[1].is_number() && (j.size() == 2 || j[2].is_number());
    if (!ok) throw ProjectError(file, path, dims == 3 ? "must be a list of 3 numbers [x, y, z] (um)" : "must be a list of 2 numbers [x, y] (um)");
    const Vec3 v{j[0].get<double>(), j[1].get<double>(), (dims == 3 && j.size() == 3) ? j[2].get<double>() : 0.0};
    for (int a = 0; a < 3; ++a)
        if (!std::isfinite(v[a])) throw ProjectError(file, path, "must be finite");
    return v;
}

std::string fmt_g(double v) {
    char b[40];
    std::snprintf(b, sizeof b, "%.10g", v);
    return b;
}

}  // namespace

std::vector<Port> parse_ports(const Project& project, const std::string& file) {
    const auto it = project.extra.find("ports");
    if (it == project.extra.end()) throw ProjectError(file, "ports", "the project has no ports (S-parameters need at least one)");
    if (!it->is_array() || it->empty()) throw ProjectError(file, "ports", "must be a non-empty list of ports");
    const int dims = project.domain.dimensions == 3 ? 3 : 2;
    std::vector<Port> ports;
    std::set<std::string> names;
    for (std::size_t i = 0; i < it->size(); ++i) {
        const Json& jp = (*it)[i];
        const std::string path = ix("ports", i);
        if (!jp.is_object()) throw ProjectError(file, path, "must be an object");
        Port p;
        if (!jp.contains("name") || !jp["name"].is_string() || jp["name"].get<std::string>().empty())
            throw ProjectError(file, path + ".name", "is required: a non-empty string");
        p.name = jp["name"].get<std::string>();
        if (!names.insert(p.name).second) throw ProjectError(file, path + ".name", "duplicate port name \"" + p.name + "\"");
        if (!jp.contains("center")) throw ProjectError(file, path + ".center", "is required but missing");
        if (!jp.contains("size")) throw ProjectError(file, path + ".size", "is required but missing");
        p.center = vec3_of(jp["center"], path + ".center", file, dims);
        p.size = vec3_of(jp["size"], path + ".size", file, dims);
        int zeros = 0, normal = -1;
        for (int a = 0; a < dims; ++a)
            if (p.size[a] == 0) ++zeros, normal = a;
        if (zeros != 1)
            throw ProjectError(file, path + ".size", dims == 3 ? "a port is a plane: exactly one zero entry"
                                                               : "a 2D port is a line: exactly one zero entry of [sx, sy]");
        if (!jp.contains("direction") || !jp["direction"].is_string())
            throw ProjectError(file, path + ".direction", "is required: \"+x\" .. \"-z\", pointing into the device");
        p.direction = jp["direction"].get<std::string>();
        if (p.direction.size() != 2 || (p.direction[0] != '+' && p.direction[0] != '-') ||
            p.direction[1] - 'x' != normal)
            throw ProjectError(file, path + ".direction",
                               std::string("must be +") + "xyz"[normal] + " or -" + "xyz"[normal] + " (normal to the port)");
        p.modes = {0};
        if (jp.contains("modes")) {
            const Json& jm = jp["modes"];
            if (!jm.is_array() || jm.empty()) throw ProjectError(file, path + ".modes", "must be a non-empty list of mode indices");
            p.modes.clear();
            for (std::size_t k = 0; k < jm.size(); ++k) {
                if (!jm[k].is_number_integer() || jm[k].get<long long>() < 0 || jm[k].get<long long>() > 99)
                    throw ProjectError(file, ix(path + ".modes", k), "must be a mode index in 0..99");
                p.modes.push_back(jm[k].get<int>());
            }
        }
        if (jp.contains("mode_boundary")) {
            if (dims != 3)
                throw ProjectError(file, path + ".mode_boundary",
                                   "applies to 3D ports (a 2D port's line uses the slab solver's closed ends)");
            p.mode_boundary = jp["mode_boundary"];
            mode_window_boundaries(project, normal, p.size, p.mode_boundary, path, file);  // validates
        }
        for (const char* key : {"target_neff", "filter"})
            if (jp.contains(key) && dims != 3)
                throw ProjectError(file, path + "." + key, "applies to 3D ports (a 2D port's line has one polarization)");
        if (dims != 3) {
            // a 2D port's line bends about z (its bent slab modes: mode_solver_bend.hpp); the
            // centre of curvature lies on the line's axis, so no bend_axis
            if (jp.contains("bend_axis"))
                throw ProjectError(file, path + ".bend_axis",
                                   "applies to 3D ports (a 2D port's line bends about z, its centre of curvature on "
                                   "the line's axis)");
            if (jp.contains("bend_radius")) {
                const Json& r = jp["bend_radius"];
                if (!r.is_number() || !std::isfinite(r.get<double>()))
                    throw ProjectError(file, path + ".bend_radius", "must be a finite number (um; 0 = straight)");
                p.bend_radius_um = r.get<double>();
            }
            ports.push_back(p);
            continue;
        }
        const ModeSelection sel = parse_mode_selection(jp, path, file);
        p.target_neff = sel.target_neff;
        p.filter = sel.filter == ModeFilter::te ? "te" : sel.filter == ModeFilter::tm ? "tm" : "";
        p.bend_radius_um = sel.bend_radius_um;
        if (sel.bend_axis >= 0) p.bend_axis = std::string(1, "xyz"[sel.bend_axis]);
        ports.push_back(p);
    }
    return ports;
}

std::vector<PortMode> port_modes(const std::vector<Port>& ports) {
    std::vector<PortMode> pm;
    for (std::size_t p = 0; p < ports.size(); ++p)
        for (int m : ports[p].modes) pm.push_back({int(p), m});
    return pm;
}

std::vector<std::string> port_mode_labels(const std::vector<Port>& ports) {
    std::vector<std::string> labels;
    for (const Port& p : ports)
        for (int m : p.modes) labels.push_back(p.name + ":" + std::to_string(m));
    return labels;
}

namespace {

constexpr double kOffsetCells = 2;  // mode monitors this many cells inside each port

}  // namespace

Project port_mode_project(const Project& project, const std::string& file, std::size_t j) {
    const std::vector<Port> ports = parse_ports(project, file);
    const std::vector<PortMode> pm = port_modes(ports);
    if (j >= pm.size()) throw std::out_of_range("port-mode " + std::to_string(j) + " of " + std::to_string(pm.size()));
    const double dx = project.domain.cell_size;

    // The excitation waveform: the project's first source's, else a pulse over the spectrum.
    Waveform wf;
    if (!project.sources.empty()) {
        wf = project.sources[0].waveform;
    } else {
        const double f_lo = 1.0 / project.run.spectrum.wavelength_max, f_hi = 1.0 / project.run.spectrum.wavelength_min;
        const double fc = 0.5 * (f_lo + f_hi);
        const double half = std::min(0.6 * (f_hi - f_lo), 0.45 * fc);
        wf.type = WaveformType::GaussianPulse;
        wf.wavelength_center = 1.0 / fc;
        wf.wavelength_span = 1.0 / (fc - half) - 1.0 / (fc + half);
    }

    Project q = project;
    q.sources.clear();
    q.monitors.clear();
    q.run.normalization.enabled = false;
    const Port& pj = ports[std::size_t(pm[j].port)];
    const bool two_d = project.domain.dimensions != 3;
    // 2D: the port's line from center - size/2 to center + size/2
    auto line_ends = [](const Port& port, Vec2& from, Vec2& to) {
        from = {port.center.x - 0.5 * port.size.x, port.center.y - 0.5 * port.size.y};
        to = {port.center.x + 0.5 * port.size.x, port.center.y + 0.5 * port.size.y};
    };
    Source s;
    s.name = "port " + pj.name;
    s.type = two_d ? SourceType::Line : SourceType::Plane;
    s.profile = SourceProfile::Mode;
    s.mode_index = pm[j].mode;
    s.direction = pj.direction;
    s.center = pj.center;
    s.size = pj.size;
    if (two_d) {
        line_ends(pj, s.from, s.to);
        s.component = project.domain.polarization == Polarization::TMz ? Component::Ez : Component::Hz;
    }
    s.amplitude = 1.0;
    s.waveform = wf;
    if (!pj.mode_boundary.is_null()) s.extra["mode_boundary"] = pj.mode_boundary;
    if (pj.target_neff > 0) s.extra["target_neff"] = pj.target_neff;
    if (!pj.filter.empty()) s.extra["filter"] = pj.filter;
    if (pj.bend_radius_um != 0) {
        s.extra["bend_radius"] = pj.bend_radius_um;
        if (!two_d) s.extra["bend_axis"] = pj.bend_axis;  // 2D: the line bends about z
    }
    q.sources.push_back(s);
    for (std::size_t p = 0; p < ports.size(); ++p) {
        Monitor m;
        m.name = "port_" + ports[p].name;
        m.type = MonitorType::Flux;
        m.kind = "mode";
        m.center = ports[p].center;
        const int axis = ports[p].direction[1] - 'x';
        m.center[axis] += (ports[p].direction[0] == '+' ? 1 : -1) * kOffsetCells * dx;
        m.size = ports[p].size;
        m.direction = ports[p].direction;
        if (two_d) {
            Port shifted = ports[p];
            shifted.center = m.center;
            line_ends(shifted, m.from, m.to);
            m.center = {};
            m.size = {};
        }
        m.extra["modes"] = Json(ports[p].modes);
        if (!ports[p].mode_boundary.is_null()) m.extra["mode_boundary"] = ports[p].mode_boundary;
        if (ports[p].target_neff > 0) m.extra["target_neff"] = ports[p].target_neff;
        if (!ports[p].filter.empty()) m.extra["filter"] = ports[p].filter;
        if (ports[p].bend_radius_um != 0) {
            m.extra["bend_radius"] = ports[p].bend_radius_um;
            if (!two_d) m.extra["bend_axis"] = ports[p].bend_axis;
        }
        q.monitors.push_back(m);
    }
    // the project's own flux planes and boxes (raw spectra), after the ports'
    for (const Monitor& m : project.monitors)
        if ((m.type == MonitorType::Flux || m.type == MonitorType::FluxBox) && m.kind != "mode") q.monitors.push_back(m);
    return q;
}

void validate_ports(const Project& project, const std::string& file) {
    const std::vector<Port> ports = parse_ports(project, file);
    const std::vector<PortMode> pm = port_modes(ports);
    for (std::size_t p = 0; p < ports.size(); ++p) {
        std::size_t j = pm.size();  // the port's highest listed mode
        for (std::size_t k = 0; k < pm.size(); ++k)
            if (pm[k].port == int(p)) j = k;
        if (j == pm.size()) continue;
        Project q = port_mode_project(project, file, j);
        // the port's own mode monitor only (q.monitors: one per port, in port order)
        const Monitor own = q.monitors[p];
        q.monitors = {own};
        const std::string port_path = "ports[" + std::to_string(p) + "]";
        try {
            compile_project(q, file);
        } catch (const ProjectError& e) {
            std::string path = e.json_path();
            for (const std::string prefix : {"sources[0]", "monitors[0]"})
                if (path.rfind(prefix, 0) == 0) {
                    std::string rest = path.substr(prefix.size());
                    if (rest == ".mode_index" || rest.rfind(".modes", 0) == 0) rest = ".modes";
                    path = port_path + rest;
                }
            if (path.rfind(port_path, 0) != 0) throw;  // not the port's (the project's own fields)
            throw ProjectError(file, path, "port '" + ports[p].name + "': " + e.message());
        }
    }
}

RunResult run_port_mode(const Project& project, const std::string& file, const RunOptions& options, std::size_t j) {
    Project q = port_mode_project(project, file, j);
    const std::vector<std::string> labels = port_mode_labels(parse_ports(project, file));
    // run.devices spreads the port-mode runs over the devices (the job queue); each run
    // itself steps on one device.
    q.run.extra.erase("devices");
    RunOptions one = options;
    one.devices = parse_device_selection("1");
    RunResult r = run_project(q, file, one);
    if (r.stop_reason != StopReason::Decay && r.stop_reason != StopReason::MaxTime &&
        r.stop_reason != StopReason::MaxSteps)
        throw RunError("S-parameter run of port-mode " + labels[j] + " ended: " + to_string(r.stop_reason));
    return r;
}

std::vector<std::vector<std::complex<double>>> sparameter_column(const Project& project, const std::string& file,
                                                                 const RunResult& r, std::size_t j) {
    const std::size_t n = port_modes(parse_ports(project, file)).size();
    // mode_coefficients are in port order, then mode order: index = port-mode k
    if (r.mode_coefficients.size() != n || j >= n)
        throw RunError("S-parameters: the run holds " + std::to_string(r.mode_coefficients.size()) +
                       " mode monitor entries, " + std::to_string(n) + " expected");
    const double dx = project.domain.cell_size;
    const double dt = project.run.courant * dx * units::um / units::c0;
    const std::size_t nf = r.frequency_hz.size();
    const auto& a_in = r.mode_coefficients[j].fwd;
    // lattice wavenumber of port-mode k at frequency f
    auto beta = [&](std::size_t k, std::size_t f) {
        const double w = 2 * M_PI * r.frequency_hz[f];
        const double k0n = 2.0 / (units::c0 * dt) * std::sin(0.5 * w * dt) * units::um;  // 1/um
        return 2.0 / dx * std::asin(std::min(1.0, 0.5 * r.mode_coefficients[k].n_eff[f] * k0n * dx));
    };
    std::vector<std::vector<std::complex<double>>> col(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto& mc = r.mode_coefficients[i];
        if (mc.bwd.size() != nf || mc.n_eff.size() != nf || a_in.size() != nf)
            throw RunError("S-parameters: mode coefficients and spectrum differ in length");
        col[i].resize(nf);
        for (std::size_t f = 0; f < nf; ++f) {
            const std::complex<double> v = std::abs(a_in[f]) > 0 ? mc.bwd[f] / a_in[f] : std::complex<double>(0.0);
            col[i][f] = v * std::polar(1.0, (beta(i, f) + beta(j, f)) * kOffsetCells * dx);
        }
    }
    return col;
}

std::vector<std::string> sparameter_warnings(const SParameters& s, double reciprocity_tol, double passivity_tol) {
    std::vector<std::string> out;
    const std::size_t n = s.s.size();
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            double worst = 0, at = 0;
            for (std::size_t f = 0; f < s.frequency_hz.size(); ++f)
                if (const double d = std::abs(s.s[i][j][f] - s.s[j][i][f]); d > worst) worst = d, at = s.frequency_hz[f];
            if (worst > reciprocity_tol)
                out.push_back("reciprocity: |S" + std::to_string(i + 1) + std::to_string(j + 1) + " - S" +
                              std::to_string(j + 1) + std::to_string(i + 1) + "| = " + fmt_g(worst) + " at " +
                              fmt_g(units::hz_to_wavelength_um(at)) + " um (tolerance " + fmt_g(reciprocity_tol) + ")");
        }
    for (std::size_t j = 0; j < n; ++j) {
        double worst = 0, at = 0;
        for (std::size_t f = 0; f < s.frequency_hz.size(); ++f) {
            double sum = 0;
            for (std::size_t i = 0; i < n; ++i) sum += std::norm(s.s[i][j][f]);
            if (sum > worst) worst = sum, at = s.frequency_hz[f];
        }
        if (worst > 1 + passivity_tol)
            out.push_back("passivity: sum_i |S_i" + std::to_string(j + 1) + "|^2 = " + fmt_g(worst) + " at " +
                          fmt_g(units::hz_to_wavelength_um(at)) + " um (above 1 + " + fmt_g(passivity_tol) + ")");
    }
    return out;
}

namespace {

using cplx = std::complex<double>;

/// Solves X M = R for X (rows x n; M n x n; row-major): Gaussian elimination with partial
/// pivoting on M^T X^T = R^T. Returns false when a pivot falls below 1e-12 of the largest
/// entry of M (singular to working precision).
bool right_divide(const std::vector<std::vector<cplx>>& r, const std::vector<std::vector<cplx>>& m,
                  std::vector<std::vector<cplx>>& x) {
    const std::size_t n = m.size(), rows = r.size();
    double big = 0;
    for (const auto& row : m)
        for (const cplx& v : row) big = std::max(big, std::abs(v));
    if (!(big > 0)) return false;
    // augmented system: row k = column k of M | column k of R
    std::vector<std::vector<cplx>> a(n, std::vector<cplx>(n + rows));
    for (std::size_t k = 0; k < n; ++k) {
        for (std::size_t q = 0; q < n; ++q) a[k][q] = m[q][k];
        for (std::size_t q = 0; q < rows; ++q) a[k][n + q] = r[q][k];
    }
    for (std::size_t c = 0; c < n; ++c) {
        std::size_t piv = c;
        for (std::size_t k = c + 1; k < n; ++k)
            if (std::abs(a[k][c]) > std::abs(a[piv][c])) piv = k;
        if (!(std::abs(a[piv][c]) > 1e-12 * big)) return false;
        std::swap(a[c], a[piv]);
        for (std::size_t k = 0; k < n; ++k) {
            if (k == c) continue;
            const cplx f = a[k][c] / a[c][c];
            if (f == 0.0) continue;
            for (std::size_t q = c; q < n + rows; ++q) a[k][q] -= f * a[c][q];
        }
    }
    x.assign(rows, std::vector<cplx>(n));
    for (std::size_t c = 0; c < n; ++c)
        for (std::size_t q = 0; q < rows; ++q) x[q][c] = a[c][n + q] / a[c][c];
    return true;
}

}  // namespace

std::vector<std::vector<std::vector<std::complex<double>>>> sparameter_matrix(const Project& project,
                                                                             const std::string& file,
                                                                             const std::vector<RunResult>& runs,
                                                                             std::vector<std::string>* warnings) {
    const std::vector<std::string> labels = port_mode_labels(parse_ports(project, file));
    const std::size_t n = labels.size();
    if (runs.size() != n)
        throw RunError("S-parameters: " + std::to_string(runs.size()) + " runs for " + std::to_string(n) + " port-modes");
    const double dx = project.domain.cell_size;
    const double dt = project.run.courant * dx * units::um / units::c0;
    const std::size_t nf = runs.empty() ? 0 : runs[0].frequency_hz.size();
    for (std::size_t j = 0; j < n; ++j) {
        const RunResult& r = runs[j];
        if (r.frequency_hz != runs[0].frequency_hz) throw RunError("S-parameters: the port-mode runs' spectra differ");
        if (r.mode_coefficients.size() != n)
            throw RunError("S-parameters: the run of port-mode " + labels[j] + " holds " +
                           std::to_string(r.mode_coefficients.size()) + " mode monitor entries, " + std::to_string(n) +
                           " expected");
        for (const auto& mc : r.mode_coefficients)
            if (mc.fwd.size() != nf || mc.bwd.size() != nf || mc.n_eff.size() != nf)
                throw RunError("S-parameters: mode coefficients and spectrum differ in length");
    }
    std::vector<std::vector<std::vector<cplx>>> s(n, std::vector<std::vector<cplx>>(n, std::vector<cplx>(nf)));
    std::vector<std::size_t> fallback;  // frequencies where A was singular
    for (std::size_t f = 0; f < nf; ++f) {
        const double w = 2 * M_PI * runs[0].frequency_hz[f];
        const double k0n = 2.0 / (units::c0 * dt) * std::sin(0.5 * w * dt) * units::um;  // 1/um
        // the reference-plane shift of port-mode k (its monitor lies d = kOffsetCells inside
        // the port): exp(i beta_k d), beta the lattice wavenumber of run j's mode k; the
        // entering wave reaches the monitor d after the port plane (a = fwd exp(-i beta d)),
        // the leaving one the port plane d after the monitor (b = bwd exp(+i beta d))
        auto shift = [&](std::size_t j, std::size_t k) {
            const double ne = runs[j].mode_coefficients[k].n_eff[f];
            return std::polar(1.0, 2.0 / dx * std::asin(std::min(1.0, 0.5 * ne * k0n * dx)) * kOffsetCells * dx);
        };
        // the port-modes launched at this frequency (a mode beyond its cutoff launches nothing)
        std::vector<std::size_t> act;
        for (std::size_t j = 0; j < n; ++j)
            if (std::abs(runs[j].mode_coefficients[j].fwd[f]) > 0) act.push_back(j);
        const std::size_t na = act.size();
        std::vector<std::vector<cplx>> a(na, std::vector<cplx>(na)), b(n, std::vector<cplx>(na));
        for (std::size_t q = 0; q < na; ++q) {
            const std::size_t j = act[q];
            for (std::size_t p = 0; p < na; ++p) {
                const std::size_t k = act[p];
                a[p][q] = runs[j].mode_coefficients[k].fwd[f] * std::conj(shift(j, k));
            }
            for (std::size_t i = 0; i < n; ++i) b[i][q] = runs[j].mode_coefficients[i].bwd[f] * shift(j, i);
        }
        // S A = B on the launched port-modes
        std::vector<std::vector<cplx>> x;
        const bool ok = na == 0 || right_divide(b, a, x);
        if (ok)
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t q = 0; q < na; ++q) s[i][act[q]][f] = x[i][q];
        if (!ok) {  // the driven amplitude alone (each run's own incident mode)
            fallback.push_back(f);
            for (std::size_t q = 0; q < na; ++q)
                for (std::size_t i = 0; i < n; ++i) s[i][act[q]][f] = b[i][q] / a[q][q];
        }
    }
    if (warnings && !fallback.empty())
        warnings->push_back("S-parameters: the incident amplitudes of the port-mode runs form a singular matrix at " +
                            std::to_string(fallback.size()) + " frequencies (first " +
                            fmt_g(units::hz_to_wavelength_um(runs[0].frequency_hz[fallback[0]])) +
                            " um); there each column uses its driven mode's amplitude alone");
    return s;
}

SParameters assemble_sparameters(const Project& project, const std::string& file, std::vector<RunResult> runs,
                                 double reciprocity_tol, double passivity_tol) {
    SParameters out;
    out.labels = port_mode_labels(parse_ports(project, file));
    const std::size_t n = out.labels.size();
    if (runs.size() != n)
        throw RunError("S-parameters: " + std::to_string(runs.size()) + " runs for " + std::to_string(n) + " port-modes");
    out.s.assign(n, std::vector<std::vector<std::complex<double>>>(n));
    for (std::size_t j = 0; j < n; ++j) {
        const RunResult& r = runs[j];
        if (j == 0) out.frequency_hz = r.frequency_hz;
        if (r.frequency_hz != out.frequency_hz) throw RunError("S-parameters: the port-mode runs' spectra differ");
        if (r.stop_reason != StopReason::Decay)
            out.warnings.push_back("the run of port " + out.labels[j] + " stopped at " + to_string(r.stop_reason) +
                                   " before the fields decayed: S-parameters may be inaccurate");
        for (const std::string& w : r.warnings) out.warnings.push_back("port " + out.labels[j] + ": " + w);
    }
    out.s = sparameter_matrix(project, file, runs, &out.warnings);
    for (std::string& w : sparameter_warnings(out, reciprocity_tol, passivity_tol)) out.warnings.push_back(std::move(w));
    out.runs = std::move(runs);
    return out;
}

SParameters run_sparameters(const Project& project, const std::string& file, const RunOptions& options,
                            double reciprocity_tol, double passivity_tol, const PortModeRunner& runner, int workers) {
    const std::size_t n = port_modes(parse_ports(project, file)).size();
    validate_ports(project, file);  // the refusals check gives, before any run
    std::vector<RunResult> runs(n);
    run_job_queue(
        n, std::max(1, workers),
        [&](std::size_t j, int worker) { runs[j] = runner ? runner(j, worker) : run_port_mode(project, file, options, j); },
        options.cancel);
    if (options.cancel && options.cancel->load()) throw RunError("S-parameter runs cancelled");
    return assemble_sparameters(project, file, std::move(runs), reciprocity_tol, passivity_tol);
}

PortModeRunner in_process_port_mode_runner(const Project& project, const std::string& file, const RunOptions& options,
                                           const DevicePlan& plan) {
    const std::vector<RunOptions> per_device = per_device_options(options, plan);
    return [project, file, per_device](std::size_t j, int worker) {
        return run_port_mode(project, file, per_device[std::size_t(worker) % per_device.size()], j);
    };
}

std::size_t port_mode_state_bytes(const Project& project, const std::string& file, Precision precision) {
    const CompiledProject cp = compile_project(port_mode_project(project, file, 0), file);
    return engine_state_bytes(cp.scene, precision);
}

// ------------------------------------------------------------------ a run as JSON (child processes)

namespace {

Json complex_list(const std::vector<std::complex<double>>& v) {
    Json a = Json::array();
    for (const auto& c : v) a.push_back(Json::array({c.real(), c.imag()}));
    return a;
}

std::vector<std::complex<double>> complex_list_of(const Json& a) {
    if (!a.is_array()) throw std::runtime_error("expected a list of [re, im] pairs");
    std::vector<std::complex<double>> v;
    for (const Json& p : a) {
        if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
            throw std::runtime_error("expected [re, im] pairs");
        v.emplace_back(p[0].get<double>(), p[1].get<double>());
    }
    return v;
}

std::vector<double> number_list_of(const Json& a) {
    if (!a.is_array()) throw std::runtime_error("expected a list of numbers");
    std::vector<double> v;
    for (const Json& x : a) {
        if (!x.is_number()) throw std::runtime_error("expected a list of numbers");
        v.push_back(x.get<double>());
    }
    return v;
}

}  // namespace

Json port_mode_run_to_json(const RunResult& r) {
    Json d;
    d["stop_reason"] = to_string(r.stop_reason);
    d["steps"] = r.steps;
    d["time_fs"] = r.time_fs;
    d["wall_s"] = r.wall_s;
    d["cells"] = r.cells;
    d["dimensions"] = r.dimensions;
    d["backend"] = r.backend;
    d["device"] = r.device;
    d["warnings"] = r.warnings;
    d["frequency_hz"] = r.frequency_hz;
    Json spectra = Json::array();
    for (const auto& sp : r.spectra) {
        Json m;
        m["name"] = sp.name;
        m["type"] = to_string(sp.type);
        m["kind"] = sp.kind;
        m["flux"] = sp.flux;
        spectra.push_back(m);
    }
    d["spectra"] = spectra;
    Json modes = Json::array();
    for (const auto& mc : r.mode_coefficients) {
        Json m;
        m["name"] = mc.name;
        m["mode"] = mc.mode_index;
        m["fwd"] = complex_list(mc.fwd);
        m["bwd"] = complex_list(mc.bwd);
        m["n_eff"] = mc.n_eff;
        if (!mc.n_eff_imag.empty()) m["n_eff_imag"] = mc.n_eff_imag;
        modes.push_back(m);
    }
    d["mode_coefficients"] = modes;
    return d;
}

RunResult port_mode_run_from_json(const Json& d) {
    try {
        RunResult r;
        const std::string stop = d.at("stop_reason").get<std::string>();
        bool known = false;
        for (StopReason s : {StopReason::Decay, StopReason::MaxTime, StopReason::MaxSteps, StopReason::Diverged,
                             StopReason::Cancelled})
            if (to_string(s) == stop) r.stop_reason = s, known = true;
        if (!known) throw std::runtime_error("unknown stop_reason \"" + stop + "\"");
        r.steps = d.at("steps").get<std::int64_t>();
        r.time_fs = d.at("time_fs").get<double>();
        r.wall_s = d.at("wall_s").get<double>();
        r.cells = d.at("cells").get<std::int64_t>();
        r.dimensions = d.at("dimensions").get<int>();
        r.backend = d.at("backend").get<std::string>();
        r.device = d.at("device").get<std::string>();
        r.warnings = d.at("warnings").get<std::vector<std::string>>();
        r.frequency_hz = number_list_of(d.at("frequency_hz"));
        for (const Json& m : d.at("spectra")) {
            FluxSpectrumResult sp;
            sp.name = m.at("name").get<std::string>();
            const std::string type = m.at("type").get<std::string>();
            sp.type = type == to_string(MonitorType::FluxBox) ? MonitorType::FluxBox : MonitorType::Flux;
            sp.kind = m.at("kind").get<std::string>();
            sp.flux = number_list_of(m.at("flux"));
            r.spectra.push_back(std::move(sp));
        }
        for (const Json& m : d.at("mode_coefficients")) {
            ModeCoefficientsResult mc;
            mc.name = m.at("name").get<std::string>();
            mc.mode_index = m.at("mode").get<int>();
            mc.fwd = complex_list_of(m.at("fwd"));
            mc.bwd = complex_list_of(m.at("bwd"));
            mc.n_eff = number_list_of(m.at("n_eff"));
            if (m.contains("n_eff_imag")) mc.n_eff_imag = number_list_of(m.at("n_eff_imag"));
            r.mode_coefficients.push_back(std::move(mc));
        }
        return r;
    } catch (const Json::exception& e) {
        throw std::runtime_error(std::string("malformed port-mode run: ") + e.what());
    }
}

void write_touchstone(const std::filesystem::path& file, const SParameters& s) {
    const std::size_t n = s.labels.size();
    std::ostringstream o;
    o << "! GoLightly S-parameters, " << n << " port-modes (Touchstone 1.1)\n";
    for (std::size_t k = 0; k < n; ++k) o << "! port " << k + 1 << ": " << s.labels[k] << "\n";
    o << "# Hz S RI R 50\n";
    auto pair = [&](std::size_t i, std::size_t j, std::size_t f) {
        const auto v = s.s[i][j][f];
        return " " + fmt_g(v.real()) + " " + fmt_g(v.imag());
    };
    for (std::size_t f = 0; f < s.frequency_hz.size(); ++f) {
        o << fmt_g(s.frequency_hz[f]);
        if (n == 1) {
            o << pair(0, 0, f) << "\n";
        } else if (n == 2) {
            o << pair(0, 0, f) << pair(1, 0, f) << pair(0, 1, f) << pair(1, 1, f) << "\n";
        } else {
            for (std::size_t i = 0; i < n; ++i) {
                for (std::size_t j = 0; j < n; ++j) {
                    if (j > 0 && j % 4 == 0) o << "\n";
                    o << pair(i, j, f);
                }
                o << "\n";
            }
        }
    }
    std::ofstream fh(file);
    fh << o.str();
    if (!fh) throw std::runtime_error("cannot write " + file.string());
}

void write_sparams_csv(const std::filesystem::path& file, const SParameters& s) {
    const std::size_t n = s.labels.size();
    auto name = [&](std::size_t i, std::size_t j) {
        return n > 9 ? "S" + std::to_string(i + 1) + "_" + std::to_string(j + 1)
                     : "S" + std::to_string(i + 1) + std::to_string(j + 1);
    };
    std::ostringstream o;
    o << "wavelength_um,frequency_thz";
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) o << ',' << name(i, j) << "_re," << name(i, j) << "_im";
    o << '\n';
    for (std::size_t f = 0; f < s.frequency_hz.size(); ++f) {
        o << fmt_g(units::hz_to_wavelength_um(s.frequency_hz[f])) << ',' << fmt_g(s.frequency_hz[f] / 1e12);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) o << ',' << fmt_g(s.s[i][j][f].real()) << ',' << fmt_g(s.s[i][j][f].imag());
        o << '\n';
    }
    std::ofstream fh(file);
    fh << o.str();
    if (!fh) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace golightly
