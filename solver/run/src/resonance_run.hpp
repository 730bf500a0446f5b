#pragma once
// Resonances of time monitors within a run (project-format.md "Resonances"): the band and
// samples a monitor's `resonances` select, the analysis at the end of the run, and the
// "resonances" stop rule that ends a run once the estimates have converged.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/run.hpp"

namespace golightly::detail {

/// A monitor's resonance analysis of `ts` (one sample per step, dt_s apart): the samples
/// after every source has ended (sources_end_s) when after_source, else all of them, in the
/// monitor's band (else run.spectrum's). `warnings` gets a line when the band reaches past
/// the samples' Nyquist frequency (it is cut there) or too few samples remain.
/// Throws RunError (a build without Harminv).
ResonanceResult resonances_of(const TimeSeriesResult& ts, const ResonanceSettings& settings, const Project& project,
                              double sources_end_s, double dt_s, std::vector<std::string>& warnings);

/// The "resonances" stop rule (run.stop.resonances): the estimates of every time monitor
/// with `resonances` are taken again each time the samples after the sources have grown by
/// a quarter (and by at least ten periods of the band's longest wavelength); the rule holds
/// when two estimates in a row agree: the same modes (those of at least 1 % of the largest
/// amplitude), each frequency within kFrequencyTolerance relative and 1/Q within
/// kInverseQTolerance relative plus kInverseQFloor absolute (a Q of 1e7 and one of 1e9 are
/// both lossless at FDTD's accuracy).
class ResonanceStop {
public:
    static constexpr double kFrequencyTolerance = 1e-6;
    static constexpr double kInverseQTolerance = 1e-2;
    static constexpr double kInverseQFloor = 1e-7;

    ResonanceStop(const CompiledProject& compiled, const Project& project);
    /// True when the project asks for the rule (run.stop.resonances).
    bool active() const { return !probes_.empty(); }
    /// Reads a time monitor's samples so far.
    using SeriesReader = std::function<TimeSeriesResult(const CompiledMonitor&)>;
    /// Takes a new estimate when due (step `now_steps`, after the sources have ended);
    /// true when it agrees with the last. Throws RunError (a build without Harminv).
    bool converged(const SeriesReader& read, std::int64_t now_steps);
    /// The rule's state in words, for the progress bar.
    const std::string& status() const { return status_; }

private:
    struct Probe {
        const CompiledMonitor* monitor;
        ResonanceSettings settings;
        std::vector<Resonance> last;
        bool has_last = false;
    };
    const CompiledProject& compiled_;
    const Project& project_;
    std::vector<Probe> probes_;
    std::int64_t next_samples_ = 0;  // after-source samples at which the next estimate is due
    std::int64_t min_gap_ = 1;       // ten periods of the longest wavelength, in steps
    std::string status_;
};

}  // namespace golightly::detail
