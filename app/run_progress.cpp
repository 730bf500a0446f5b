#include "run_progress.hpp"
#include "ui_number.hpp"

#include <QLocale>
#include <algorithm>
#include <cmath>

namespace golightly::app {

QString formatEta(double s) {
    if (s < 0) return QStringLiteral("?");
    if (s < 1) return QStringLiteral("< 1 s");
    if (s < 60) return QStringLiteral("%1 s").arg(golightly::ui_number(s, 'f', s < 10 ? 1 : 0));
    if (s < 3600) return QStringLiteral("%1 min %2 s").arg(int(s) / 60).arg(int(s) % 60);
    return QStringLiteral("%1 h %2 min").arg(int(s) / 3600).arg((int(s) % 3600) / 60);
}

void ProgressModel::reset(const StopPlan& plan) {
    plan_ = plan;
    best_ = 0;
    history_.clear();
}

void ProgressModel::restartRate() { history_.clear(); }

ProgressEstimate ProgressModel::update(const ProgressInfo& p, double wallS) {
    ProgressEstimate e;
    const double limitFrac = p.max_steps > 0 ? std::clamp(double(p.step) / double(p.max_steps), 0.0, 1.0) : 0.0;
    const double limitEta = p.steps_per_s > 0 ? double(p.max_steps - p.step) / p.steps_per_s : -1.0;
    const QString limitText = plan_.limitIsMaxSteps
                                  ? tr("stops at the step limit (%1 steps)").arg(p.max_steps)
                                  : tr("stops at the time limit (%1 fs)").arg(golightly::ui_number(plan_.maxTimeFs, 'f', 0));
    const bool decayRule = plan_.decayDb > 0;
    double decayFrac = 0, decayEta = -1;
    const bool decaying = decayRule && p.time_fs > plan_.sourcesEndFs;
    if (decayRule) {
        if (!decaying) {
            decayFrac = plan_.sourcesEndFs > 0 ? 0.1 * std::clamp(p.time_fs / plan_.sourcesEndFs, 0.0, 1.0) : 0.0;
        } else {
            const double db = std::clamp(p.energy_db, 0.0, plan_.decayDb);
            decayFrac = 0.1 + 0.9 * db / plan_.decayDb;
            // dB per wall second over the last ~8 s (least squares): the ETA of the decay
            history_.emplace_back(wallS, p.energy_db);
            while (history_.size() > 2 && history_.back().first - history_.front().first > 8.0) history_.pop_front();
            if (history_.size() >= 3 && history_.back().first - history_.front().first > 0.2) {
                double st = 0, sd = 0;
                for (const auto& [t, d] : history_) st += t, sd += d;
                const double n = double(history_.size()), mt = st / n, md = sd / n;
                double num = 0, den = 0;
                for (const auto& [t, d] : history_) num += (t - mt) * (d - md), den += (t - mt) * (t - mt);
                const double rate = den > 0 ? num / den : 0;  // dB per second
                if (rate > 1e-6) decayEta = std::max(0.0, (plan_.decayDb - p.energy_db) / rate);
            }
        }
    }
    const QString what = plan_.probeDecay ? tr("the probe's decay") : tr("energy decay");
    // the decay ends the phase unless the limit is expected to come first
    if (decayRule && !(decayEta >= 0 && limitEta >= 0 && limitEta < decayEta)) {
        e.rule = ProgressEstimate::Rule::Decay;
        e.fraction = std::max(decayFrac, limitFrac);
        if (decayEta >= 0) {
            e.etaS = decayEta;
        } else {
            e.etaS = limitEta;  // not decaying yet: at most until the limit
            e.etaIsUpperBound = limitEta >= 0;
        }
        e.ruleText = decaying ? tr("stops at %1 dB %2 (now %3 dB)").arg(golightly::ui_number(plan_.decayDb, 'f', 0)).arg(what).arg(golightly::ui_number(p.energy_db, 'f', 1))
                              : tr("stops at %1 dB %2 after the sources end (%3 fs)")
                                    .arg(golightly::ui_number(plan_.decayDb, 'f', 0))
                                    .arg(what)
                                    .arg(golightly::ui_number(plan_.sourcesEndFs, 'f', 0));
    } else {
        e.rule = ProgressEstimate::Rule::Limit;
        e.fraction = limitFrac;
        e.etaS = limitEta;
        e.ruleText = limitText;
        // the decay rule is in the project: say why the limit is expected to end the phase
        // (the energy falls too slowly, e.g. after a live edit fed it or a resonance rings)
        if (decayRule)
            e.ruleText += tr(", before %1 dB %2: now %3 dB, falling too slowly to get there first")
                              .arg(golightly::ui_number(plan_.decayDb, 'f', 0))
                              .arg(what)
                              .arg(golightly::ui_number(p.energy_db, 'f', 1));
    }
    // run.stop.resonances: the run driver names the rule's state after "resonances: "
    if (const auto at = p.stop_rule.find("resonances: "); at != std::string::npos)
        e.ruleText += tr(", or when the resonance estimates converge (%1)")
                          .arg(QString::fromStdString(p.stop_rule.substr(at + 12)));
    best_ = std::max(best_, e.fraction);
    e.fraction = best_;
    return e;
}

}  // namespace golightly::app
