// golightly-cli optimize --adjoint PROJECT --out DIR (spec/cli.md "optimize --adjoint"):
// gradient-based topology optimization of the project's design region (adjoint_project.hpp).
// main.cpp hands the command line here, before its own parse, when `optimize` is given
// with `--adjoint`, so the derivative-free `optimize` (cmd_sweep.cpp) stays as it is.
#pragma once

namespace golightly::cli {

/// true when argv is `golightly-cli optimize ... --adjoint ...`.
bool is_adjoint_optimize(int argc, char** argv);

/// Parses and runs the command: its exit code (0 done, 1 usage, 2 invalid project or
/// options, 3 run failure or interrupted).
int run_optimize_adjoint(int argc, char** argv);

}  // namespace golightly::cli
