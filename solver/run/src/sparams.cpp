// GoLightly: ports and S-parameters (sparams.hpp).
#include "golightly/sparams.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "golightly/errors.hpp"
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
        ports.push_back(p);
    }
    return ports;
}

SParameters run_sparameters(const Project& project, const std::string& file, const RunOptions& options,
                            double reciprocity_tol, double passivity_tol) {
    const std::vector<Port> ports = parse_ports(project, file);
    const double dx = project.domain.cell_size;
    const double offset_cells = 2;
    struct PortMode {
        int port, mode;
    };
    std::vector<PortMode> pm;
    SParameters out;
    for (std::size_t p = 0; p < ports.size(); ++p)
        for (int m : ports[p].modes) {
            pm.push_back({int(p), m});
            out.labels.push_back(ports[p].name + ":" + std::to_string(m));
        }
    const std::size_t n = pm.size();

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

    out.s.assign(n, std::vector<std::vector<std::complex<double>>>(n));
    std::vector<std::vector<double>> neff(n);  // per port-mode, per frequency (from any run)
    for (std::size_t j = 0; j < n; ++j) {
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
        q.sources.push_back(s);
        for (std::size_t p = 0; p < ports.size(); ++p) {
            Monitor m;
            m.name = "port_" + ports[p].name;
            m.type = MonitorType::Flux;
            m.kind = "mode";
            m.center = ports[p].center;
            const int axis = ports[p].direction[1] - 'x';
            m.center[axis] += (ports[p].direction[0] == '+' ? 1 : -1) * offset_cells * dx;
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
            q.monitors.push_back(m);
        }
        RunResult r = run_project(q, file, options);
        if (r.stop_reason != StopReason::Decay && r.stop_reason != StopReason::MaxTime &&
            r.stop_reason != StopReason::MaxSteps)
            throw RunError("S-parameter run of port " + pj.name + " mode " + std::to_string(pm[j].mode) + " ended: " +
                           to_string(r.stop_reason));
        if (r.stop_reason != StopReason::Decay)
            out.warnings.push_back("the run of port " + out.labels[j] + " stopped at " + to_string(r.stop_reason) +
                                   " before the fields decayed: S-parameters may be inaccurate");
        if (out.frequency_hz.empty()) out.frequency_hz = r.frequency_hz;
        // mode_coefficients are in port order, then mode order: index = port-mode k
        if (r.mode_coefficients.size() != n) throw RunError("S-parameters: unexpected mode monitor count");
        const auto& a_in = r.mode_coefficients[j].fwd;
        for (std::size_t i = 0; i < n; ++i) {
            const auto& mc = r.mode_coefficients[i];
            if (neff[i].empty()) neff[i] = mc.n_eff;
            std::vector<std::complex<double>> col(mc.bwd.size());
            for (std::size_t f = 0; f < col.size(); ++f)
                col[f] = std::abs(a_in[f]) > 0 ? mc.bwd[f] / a_in[f] : std::complex<double>(0.0);
            out.s[i][j] = std::move(col);
        }
        for (const std::string& w : r.warnings) out.warnings.push_back("port " + out.labels[j] + ": " + w);
        out.runs.push_back(std::move(r));
    }
    // Reference planes back onto the port planes.
    const double dt = project.run.courant * dx * units::um / units::c0;
    for (std::size_t f = 0; f < out.frequency_hz.size(); ++f) {
        const double w = 2 * M_PI * out.frequency_hz[f];
        const double k0n = 2.0 / (units::c0 * dt) * std::sin(0.5 * w * dt) * units::um;  // 1/um
        std::vector<double> beta(n);
        for (std::size_t k = 0; k < n; ++k)
            beta[k] = 2.0 / dx * std::asin(std::min(1.0, 0.5 * neff[k][f] * k0n * dx));
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                out.s[i][j][f] *= std::polar(1.0, (beta[i] + beta[j]) * offset_cells * dx);
    }
    // Reciprocity and passivity.
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            double worst = 0, at = 0;
            for (std::size_t f = 0; f < out.frequency_hz.size(); ++f)
                if (const double d = std::abs(out.s[i][j][f] - out.s[j][i][f]); d > worst) worst = d, at = out.frequency_hz[f];
            if (worst > reciprocity_tol)
                out.warnings.push_back("reciprocity: |S" + std::to_string(i + 1) + std::to_string(j + 1) + " - S" +
                                       std::to_string(j + 1) + std::to_string(i + 1) + "| = " + fmt_g(worst) + " at " +
                                       fmt_g(units::hz_to_wavelength_um(at)) + " um (tolerance " + fmt_g(reciprocity_tol) +
                                       ")");
        }
    for (std::size_t j = 0; j < n; ++j) {
        double worst = 0, at = 0;
        for (std::size_t f = 0; f < out.frequency_hz.size(); ++f) {
            double sum = 0;
            for (std::size_t i = 0; i < n; ++i) sum += std::norm(out.s[i][j][f]);
            if (sum > worst) worst = sum, at = out.frequency_hz[f];
        }
        if (worst > 1 + passivity_tol)
            out.warnings.push_back("passivity: sum_i |S_i" + std::to_string(j + 1) + "|^2 = " + fmt_g(worst) + " at " +
                                   fmt_g(units::hz_to_wavelength_um(at)) + " um (above 1 + " + fmt_g(passivity_tol) + ")");
    }
    return out;
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
