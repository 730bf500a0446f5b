// Fuzz target: a project file through what `golightly-cli check` and `run` do before
// stepping: parse, validate, compile the main run and (with normalization) the reference
// run. Every failure must be a ProjectError or another std::exception; a crash, a hang
// over the time limit or an allocation over the memory limit is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "golightly/compile.hpp"
#include "golightly/errors.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    golightly::fuzz::set_limits();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace golightly;
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const Project p = parse_project(text, "fuzz.glproj");
        compile_project(p, "fuzz.glproj");
        if (incident_monitor_index(p, "fuzz.glproj") >= 0) {
            CompileOptions ref;
            ref.reference_run = true;
            compile_project(p, "fuzz.glproj", ref);
        }
        (void)project_to_json(p).dump();  // what a save writes
    } catch (const std::exception&) {
        // a clear error is the expected outcome of a bad input
    }
    return 0;
}
