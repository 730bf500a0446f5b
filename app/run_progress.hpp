// GoLightly IDE: progress and ETA of a run phase from the stop rule that will end it
// (issue 20). The solver reports steps and how far the energy is below its peak; this
// turns that into a fraction and an ETA the user can trust:
//  - decay stop (run.stop.decay_db): the run ends when, after the sources are off, the
//    energy has fallen decay_db below its peak. Progress is that decay on its log scale,
//    dB reached / dB needed (the part before the sources end counts for the first 10 %);
//    the ETA extrapolates the dB-per-second rate of the last seconds linearly (an
//    exponential decay is a straight line in dB).
//  - max time / max steps: steps done / step limit, ETA from the step rate.
// Whichever rule is expected to end the run first is the one reported.
#pragma once

#include <QCoreApplication>
#include <QString>

#include <cstdint>
#include <deque>

#include "golightly/run.hpp"

namespace golightly::app {

/// A wall-clock duration for progress bars and ETAs: "?" (unknown, < 0), "< 1 s", "12 s",
/// "3 min 4 s", "1 h 5 min" (the run, S-parameter and sweep progress).
QString formatEta(double seconds);

/// The stop rules of a run (from the project and the compiled scene).
struct StopPlan {
    double sourcesEndFs = 0;   ///< the decay rule applies after this simulated time
    double decayDb = 0;        ///< run.stop.decay_db (<= 0: no decay rule)
    bool probeDecay = false;   ///< decay of run.stop.monitor's envelope instead of the energy
    bool limitIsMaxSteps = false;
    double maxTimeFs = 0;
};

struct ProgressEstimate {
    enum class Rule { Decay, Limit };
    Rule rule = Rule::Limit;   ///< the rule expected to end the phase
    double fraction = 0;       ///< 0..1, never decreases within a phase
    double etaS = -1;          ///< wall seconds left, < 0 unknown
    bool etaIsUpperBound = false;  ///< the decay has not started: at most this long (the limit)
    QString ruleText;          ///< e.g. "stops at 30 dB energy decay (now 12.3 dB)"
};

class ProgressModel {
    Q_DECLARE_TR_FUNCTIONS(golightly::app::ProgressModel)
public:
    void reset(const StopPlan& plan);
    /// One progress report of the phase, at wall time `wallS` (any origin).
    ProgressEstimate update(const ProgressInfo& p, double wallS);
    const StopPlan& plan() const { return plan_; }
    /// The materials changed (a live edit): the decay rate measured so far says nothing of
    /// the new structure's, the ETA is measured again.
    void restartRate();

private:
    StopPlan plan_;
    double best_ = 0;
    std::deque<std::pair<double, double>> history_;  ///< (wall s, dB) after the sources end
};

}  // namespace golightly::app
