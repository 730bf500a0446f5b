// Runs golightly-cli (GOLIGHTLY_CLI_PATH, defined by tests/CMakeLists.txt) with arguments
// and collects its exit code, stdout and stderr (files in `dir`). Header-only,
// namespace golightly::test.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace golightly::test {

struct CliOut {
    int code = -1;  ///< exit code; -1 when the process did not exit normally
    std::string out, err;
};

/// `golightly-cli ARGS </dev/null` (ARGS as written: quote paths yourself).
inline CliOut run_cli(const std::string& args, const std::filesystem::path& dir) {
    const std::filesystem::path err = dir / "err.txt", out = dir / "out.txt";
    const std::string cmd = std::string("'") + GOLIGHTLY_CLI_PATH + "' " + args + " </dev/null >'" + out.string() +
                            "' 2>'" + err.string() + "'";
    const int status = std::system(cmd.c_str());
    CliOut o;
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::stringstream se, so;
    se << std::ifstream(err).rdbuf();
    so << std::ifstream(out).rdbuf();
    o.err = se.str();
    o.out = so.str();
    return o;
}

}  // namespace golightly::test
