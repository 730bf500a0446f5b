// The run's step limit (run.stop), one formula for every place that needs it: the compiled
// project's CompiledProject::max_steps, the run driver's phases (run_phases.hpp
// step_limit, which adds RunOptions::max_steps) and the IDE's size estimates. It lives in
// compile/ because the compiler is the lowest layer that needs it.
#pragma once

#include <cstdint>
#include <optional>

#include "golightly/project.hpp"

namespace golightly {

/// A phase's step limit: max_time_fs always, max_steps when given and smaller.
struct StepLimit {
    std::int64_t steps = 0;
    bool is_max_steps = false;  ///< reaching it stops with max_steps (else max_time)
};

/// The step limit of `stop` at time step dt_s (s): steps_for_time(stop.max_time_fs, dt_s)
/// (compile.hpp), or the max_steps (`max_steps_override` when set, else stop.max_steps)
/// when given and smaller (never below 0).
StepLimit stop_step_limit(const StopCriteria& stop, double dt_s,
                          std::optional<long long> max_steps_override = std::nullopt);

}  // namespace golightly
