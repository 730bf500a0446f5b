#include "resonance_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "golightly/units.hpp"

namespace golightly::detail {
namespace {

/// The band of a monitor's search, vacuum wavelengths (um): its own, else run.spectrum's.
std::pair<double, double> band_um(const ResonanceSettings& s, const Project& project) {
    return {s.wavelength_min.value_or(project.run.spectrum.wavelength_min),
            s.wavelength_max.value_or(project.run.spectrum.wavelength_max)};
}

/// Index of the first sample to analyse: the first after every source has ended (sample n
/// is at time_fs[n]), or 0.
std::size_t first_sample(const TimeSeriesResult& ts, bool after_source, double sources_end_s) {
    if (!after_source) return 0;
    const double end_fs = sources_end_s / units::fs;
    return std::size_t(std::upper_bound(ts.time_fs.begin(), ts.time_fs.end(), end_fs) - ts.time_fs.begin());
}

std::string sci(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2g", v);
    return buf;
}

/// The modes of `modes` with at least 1 % of the largest amplitude.
std::vector<const Resonance*> significant(const std::vector<Resonance>& modes) {
    double top = 0;
    for (const Resonance& r : modes) top = std::max(top, r.amplitude);
    std::vector<const Resonance*> out;
    for (const Resonance& r : modes)
        if (r.amplitude >= 0.01 * top) out.push_back(&r);
    return out;
}

/// The largest relative frequency change from the significant modes of `a` to their
/// nearest modes in `b`, and whether every 1/Q agrees (ResonanceStop's tolerances);
/// +inf when `a` has none.
double worst_change(const std::vector<Resonance>& a, const std::vector<Resonance>& b, bool& q_agrees) {
    const auto sig = significant(a);
    if (sig.empty() || b.empty()) return std::numeric_limits<double>::infinity();
    double worst = 0;
    for (const Resonance* r : sig) {
        const Resonance* best = nullptr;
        for (const Resonance& o : b)
            if (!best || std::fabs(o.frequency_hz - r->frequency_hz) < std::fabs(best->frequency_hz - r->frequency_hz))
                best = &o;
        worst = std::max(worst, std::fabs(best->frequency_hz - r->frequency_hz) / r->frequency_hz);
        const double inv_a = 1.0 / r->q, inv_b = 1.0 / best->q;
        if (!(std::fabs(inv_a - inv_b) <=
              ResonanceStop::kInverseQTolerance * std::fabs(inv_a) + ResonanceStop::kInverseQFloor))
            q_agrees = false;
    }
    return worst;
}

}  // namespace

ResonanceResult resonances_of(const TimeSeriesResult& ts, const ResonanceSettings& settings, const Project& project,
                              double sources_end_s, double dt_s, std::vector<std::string>& warnings) {
    ResonanceResult out;
    out.name = ts.name;
    const auto [wl_min, wl_max] = band_um(settings, project);
    out.wavelength_min_um = wl_min;
    out.wavelength_max_um = wl_max;
    const std::size_t first = first_sample(ts, settings.after_source, sources_end_s);
    out.samples = std::int64_t(ts.values.size() - std::min(first, ts.values.size()));
    out.t0_fs = first < ts.time_fs.size() ? ts.time_fs[first] : 0.0;
    ResonanceOptions o;
    o.f_min_hz = units::wavelength_um_to_hz(wl_max);
    o.f_max_hz = units::wavelength_um_to_hz(wl_min);
    o.q_min = settings.q_min;
    // The samples resolve frequencies below 1/(2 dt); a band beyond that is cut (the
    // Courant limit keeps dt below a tenth of the shortest period of any resolved band).
    const double nyquist_hz = 0.5 / dt_s;
    if (o.f_max_hz >= 0.95 * nyquist_hz) {
        o.f_max_hz = 0.95 * nyquist_hz;
        warnings.push_back("monitors." + ts.name + ".resonances: the band reaches past the sampling limit; searched up to " +
                           sci(units::hz_to_wavelength_um(o.f_max_hz)) + " um only");
        if (!(o.f_max_hz > o.f_min_hz)) return out;
    }
    if (out.samples < 8) {
        warnings.push_back("monitors." + ts.name + ".resonances: only " + std::to_string(out.samples) +
                           " samples " + (settings.after_source ? "after the sources ended" : "in the run") +
                           ": no resonances (run longer, or set after_source false)");
        return out;
    }
    const std::vector<double> signal(ts.values.begin() + std::ptrdiff_t(first), ts.values.end());
    out.modes = find_resonances(signal, dt_s, o);
    return out;
}

ResonanceStop::ResonanceStop(const CompiledProject& compiled, const Project& project)
    : compiled_(compiled), project_(project) {
    if (!project.run.stop.resonances) return;
    double longest_um = 0;
    for (const CompiledMonitor& m : compiled.monitors) {
        if (m.type != MonitorType::Time || m.time_probe < 0) continue;
        for (const Monitor& pm : project.monitors)
            if (pm.name == m.name && pm.type == MonitorType::Time && pm.resonances) {
                probes_.push_back({&m, *pm.resonances, {}, false});
                longest_um = std::max(longest_um, band_um(*pm.resonances, project).second);
            }
    }
    const double period_s = longest_um * units::um / units::c0;
    min_gap_ = std::max<std::int64_t>(1, std::int64_t(std::ceil(10 * period_s / compiled.scene.dt_s)));
    next_samples_ = 2 * min_gap_;
    status_ = "resonances: waiting for the sources to end";
}

bool ResonanceStop::converged(const SeriesReader& read, std::int64_t now_steps) {
    if (probes_.empty()) return false;
    const double dt_s = compiled_.scene.dt_s;
    const std::int64_t after = now_steps - std::int64_t(std::floor(compiled_.sources_end_s / dt_s));
    if (after < next_samples_) return false;
    next_samples_ = std::max(after + min_gap_, after + after / 4);
    bool all = true;
    double worst = 0;
    std::size_t modes = 0;
    for (Probe& p : probes_) {
        const TimeSeriesResult ts = read(*p.monitor);
        std::vector<std::string> ignored;
        ResonanceResult r = resonances_of(ts, p.settings, project_, compiled_.sources_end_s, dt_s, ignored);
        bool q_agrees = true;
        double change = std::numeric_limits<double>::infinity();
        if (p.has_last) {
            change = std::max(worst_change(r.modes, p.last, q_agrees), worst_change(p.last, r.modes, q_agrees));
        }
        worst = std::max(worst, change);
        all = all && p.has_last && change <= kFrequencyTolerance && q_agrees;
        modes += significant(r.modes).size();
        p.last = std::move(r.modes);
        p.has_last = true;
    }
    status_ = "resonances: " + std::to_string(modes) + (modes == 1 ? " mode" : " modes") +
              (std::isfinite(worst) ? ", df/f " + sci(worst) : std::string(", first estimate")) + " (stops below " +
              sci(kFrequencyTolerance) + ")";
    return all;
}

}  // namespace golightly::detail
