// GoLightly IDE: S-parameters column by column (sparams_runner.hpp). The steps follow
// solver/run/src/sparams.cpp (run_sparameters); keep the two in step.
#include "sparams_runner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "golightly/errors.hpp"
#include "golightly/units.hpp"

namespace golightly::app {

namespace {
std::string fmt_g(double v) {
    char b[40];
    std::snprintf(b, sizeof b, "%.10g", v);
    return b;
}
}  // namespace

SParameters run_sparameters_live(const Project& project, const std::string& file, const RunOptions& options,
                                 const SParamsRunStart& run_start, const SParamsColumnCallback& column_done,
                                 double reciprocity_tol, double passivity_tol) {
    const std::vector<Port> ports = parse_ports(project, file);
    const double dx = project.domain.cell_size;
    const double offset_cells = 2;  // mode monitors 2 cells inside every port (sparams.hpp)
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
    std::vector<std::vector<double>> neff(n);
    const double dt = project.run.courant * dx * units::um / units::c0;
    // lattice wavenumber of port-mode k at frequency f (1/um)
    auto beta = [&](std::size_t k, std::size_t f) {
        const double w = 2 * M_PI * out.frequency_hz[f];
        const double k0n = 2.0 / (units::c0 * dt) * std::sin(0.5 * w * dt) * units::um;
        return 2.0 / dx * std::asin(std::min(1.0, 0.5 * neff[k][f] * k0n * dx));
    };
    const bool two_d = project.domain.dimensions != 3;
    auto line_ends = [](const Port& port, Vec2& from, Vec2& to) {
        from = {port.center.x - 0.5 * port.size.x, port.center.y - 0.5 * port.size.y};
        to = {port.center.x + 0.5 * port.size.x, port.center.y + 0.5 * port.size.y};
    };
    for (std::size_t j = 0; j < n; ++j) {
        if (run_start) run_start(j, n);
        Project q = project;
        q.sources.clear();
        q.monitors.clear();
        q.run.normalization.enabled = false;
        const Port& pj = ports[std::size_t(pm[j].port)];
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
        if (r.mode_coefficients.size() != n) throw RunError("S-parameters: unexpected mode monitor count");
        const auto& a_in = r.mode_coefficients[j].fwd;
        for (std::size_t i = 0; i < n; ++i)
            if (neff[i].empty()) neff[i] = r.mode_coefficients[i].n_eff;
        for (std::size_t i = 0; i < n; ++i) {
            const auto& mc = r.mode_coefficients[i];
            std::vector<std::complex<double>> col(mc.bwd.size());
            for (std::size_t f = 0; f < col.size(); ++f) {
                col[f] = std::abs(a_in[f]) > 0 ? mc.bwd[f] / a_in[f] : std::complex<double>(0.0);
                // reference planes back onto the port planes
                if (f < out.frequency_hz.size()) col[f] *= std::polar(1.0, (beta(i, f) + beta(j, f)) * offset_cells * dx);
            }
            out.s[i][j] = std::move(col);
        }
        for (const std::string& w : r.warnings) out.warnings.push_back("port " + out.labels[j] + ": " + w);
        out.runs.push_back(std::move(r));
        if (column_done) column_done(out, j);
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

}  // namespace golightly::app
