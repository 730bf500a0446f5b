// GoLightly IDE: S-parameters computed column by column (issue 21), so that the plots can
// show each port's column as soon as its run finishes.
//
// golightly::run_sparameters (solver/run sparams.hpp) runs every port-mode and returns the
// whole matrix at the end; it has no per-run callback. run_sparameters_live does the same
// computation on top of the solver's public API, step for step as sparams.cpp does it
// (the same excitation project per port-mode, the same mode monitors 2 cells inside every
// port, S_ij = b_i / a_j exp(i (beta_i + beta_j) d), the same reciprocity and passivity
// warnings), and calls `column_done` after each run with the columns known so far.
// tests/gui/tst_sparams_sweep.cpp checks that its matrix equals run_sparameters' on a 2D
// project. If sparams.hpp gains a per-run callback, this file should call it instead.
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
