// GoLightly run driver, phase by phase: the entry points run_project is made of, for
// callers that drive the phases themselves (the IDE's RunController makes its own engines
// and shows each phase live) and must agree with the driver on what it compiles and how
// long it steps. run_project and run_compiled use these; nothing else re-derives them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "golightly/compile.hpp"
#include "golightly/run.hpp"

namespace golightly {

/// The compiled phases of a run: the main run, and the reference run when normalization
/// applies (incident_monitor_index >= 0).
struct CompiledPhases {
    CompiledProject main;
    std::optional<CompiledProject> reference;
    /// For run_compiled: the reference run or null.
    const CompiledProject* reference_or_null() const { return reference ? &*reference : nullptr; }
};

/// Compiles the phases run_project runs (compile_project with reference_run false, and
/// true when normalization applies). Throws ProjectError as compile_project does.
CompiledPhases compile_phases(const Project& project, const std::string& file_label);

/// A phase's step limit: max_time_fs always, max_steps (the project's, or RunOptions::
/// max_steps when set) when given and smaller.
struct StepLimit {
    std::int64_t steps = 0;
    bool is_max_steps = false;  ///< reaching it stops with max_steps (else max_time)
};

/// The step limit of both phases at time step dt_s (s), as run_compiled applies it.
StepLimit step_limit(const Project& project, const RunOptions& options, double dt_s);

}  // namespace golightly
