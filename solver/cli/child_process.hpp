// golightly-cli: a child golightly-cli process (sweep workers, S-parameter port-mode runs).
#pragma once

#include <string>
#include <vector>

namespace golightly::cli {

/// Starts `args[0]` with arguments `args` (args[0] included, as argv) and environment `env`
/// ("NAME=VALUE" strings), stdin from /dev/null, stdout and stderr into the file `log`
/// (created or truncated), and waits for it. Returns its exit code, or -1 when it ended by a
/// signal. Throws RunError "cannot start <what>" when posix_spawn fails and "lost <what>"
/// when waiting for it fails (not on EINTR, which is retried).
int run_child_process(const std::vector<std::string>& args, const std::vector<std::string>& env,
                      const std::string& log, const std::string& what);

/// The environment of this process as "NAME=VALUE" strings, without the variables whose
/// names are in `drop`.
std::vector<std::string> current_environment(const std::vector<std::string>& drop = {});

}  // namespace golightly::cli
