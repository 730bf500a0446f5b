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
#include "golightly/step_limit.hpp"

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

/// The step limit of both phases at time step dt_s (s), as run_compiled applies it:
/// stop_step_limit (step_limit.hpp) of run.stop with RunOptions::max_steps, when set, in
/// place of the project's max_steps.
StepLimit step_limit(const Project& project, const RunOptions& options, double dt_s);

}  // namespace golightly
