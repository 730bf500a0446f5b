// GoLightly IDE: S-parameters computed column by column (issue 21), so that the plots can
// show each port's column as soon as its run finishes.
//
// golightly::run_sparameters (solver/run sparams.hpp) returns the whole matrix at the end;
// run_sparameters_live runs the same port-mode simulations one after the other through the
// solver's per-port-mode steps (run_port_mode, sparameter_column) and calls `column_done`
// after each run with the columns known so far; its final matrix is assemble_sparameters'
// of the runs, i.e. run_sparameters' (tests/gui/tst_sparams_sweep.cpp compares the two).
#pragma once

#include <functional>
#include <string>

#include "golightly/run.hpp"
#include "golightly/sparams.hpp"

namespace golightly::app {

/// After run `column` (0-based port-mode index, in SParameters::labels order) of `columns`:
/// `partial` holds frequency_hz, labels, runs so far, and s[i][j] for the finished columns
/// j (the other columns are empty), reference planes already moved to the port planes.
using SParamsColumnCallback = std::function<void(const SParameters& partial, std::size_t column)>;
/// Before run `column` starts (on the calling thread).
using SParamsRunStart = std::function<void(std::size_t column, std::size_t columns)>;

/// run_sparameters (sparams.hpp) with callbacks; same arguments, results, warnings and
/// exceptions. `options.progress` and `options.live` see each run in turn.
SParameters run_sparameters_live(const Project& project, const std::string& file_label, const RunOptions& options,
                                 const SParamsRunStart& run_start, const SParamsColumnCallback& column_done,
                                 double reciprocity_tol = 0.02, double passivity_tol = 0.02);

}  // namespace golightly::app
