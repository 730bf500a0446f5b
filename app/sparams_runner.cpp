// GoLightly IDE: S-parameters column by column (sparams_runner.hpp), on the solver's
// per-port-mode steps (sparams.hpp: run_port_mode, sparameter_column, and
// assemble_sparameters for the final matrix, so the result is run_sparameters').
#include "sparams_runner.hpp"

#include <utility>

namespace golightly::app {

SParameters run_sparameters_live(const Project& project, const std::string& file, const RunOptions& options,
                                 const SParamsRunStart& run_start, const SParamsColumnCallback& column_done,
                                 double reciprocity_tol, double passivity_tol) {
    SParameters partial;
    partial.labels = port_mode_labels(parse_ports(project, file));
    const std::size_t n = partial.labels.size();
    partial.s.assign(n, std::vector<std::vector<std::complex<double>>>(n));
    std::vector<RunResult> runs;
    for (std::size_t j = 0; j < n; ++j) {
        if (run_start) run_start(j, n);
        RunResult r = run_port_mode(project, file, options, j);
        if (partial.frequency_hz.empty()) partial.frequency_hz = r.frequency_hz;
        std::vector<std::vector<std::complex<double>>> column = sparameter_column(project, file, r, j);
        for (std::size_t i = 0; i < n && i < column.size(); ++i) partial.s[i][j] = std::move(column[i]);
        partial.runs.push_back(r);
        runs.push_back(std::move(r));
        if (column_done) column_done(partial, j);
    }
    return assemble_sparameters(project, file, std::move(runs), reciprocity_tol, passivity_tol);
}

}  // namespace golightly::app
