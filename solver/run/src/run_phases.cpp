// The run driver's phase entry points (run_phases.hpp).
#include "golightly/run_phases.hpp"

#include <algorithm>
#include <cmath>

#include "golightly/compile.hpp"
#include "golightly/errors.hpp"
#include "golightly/reference_structure.hpp"
#include "golightly/units.hpp"

namespace golightly {

CompiledPhases compile_phases(const Project& project, const std::string& file_label) {
    CompileOptions main_opts;
    main_opts.reference_run = false;
    CompiledPhases phases{compile_project(project, file_label, main_opts), std::nullopt};
    if (incident_monitor_index(project, file_label) >= 0) {
        CompileOptions ref_opts;
        ref_opts.reference_run = true;
        // mode sources need a guide in the reference structure: derived when no reference
        // layer is named, else a clear refusal (reference_structure.hpp)
        std::vector<std::string> notes;
        const Project ref_project = reference_run_project(project, file_label, &notes);
        try {
            phases.reference = compile_project(ref_project, file_label, ref_opts);
        } catch (const ProjectError& e) {
            throw ProjectError(e.file(), e.json_path(), "the reference (normalization) run: " + e.message());
        }
        phases.main.warnings.insert(phases.main.warnings.end(), notes.begin(), notes.end());
    }
    return phases;
}

StepLimit step_limit(const Project& project, const RunOptions& options, double dt_s) {
    return stop_step_limit(project.run.stop, dt_s, options.max_steps);
}

}  // namespace golightly
