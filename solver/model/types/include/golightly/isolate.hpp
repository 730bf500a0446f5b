// GoLightly: running untrusted-input work (STEP translation through OpenCASCADE) in a
// child process with memory and time limits, as browsers run their decoders (issue 19).
//
// A library we do not control may crash (SIGSEGV on malformed entities), exhaust its
// stack, loop or allocate without bound on hostile input. run_isolated() forks, runs the
// work in the child and returns the bytes it produced; a child that dies, exceeds its
// memory or time limit, or throws, becomes a std::runtime_error in the caller, whose
// process state is untouched.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace golightly {

/// Limits of one isolated job.
struct IsolationLimits {
    /// Memory the child may use beyond what it inherits, bytes (address space where the
    /// build allows it, resident set size polled by the parent in any case).
    std::uint64_t memory_bytes = 4ull << 30;
    /// Wall-clock time after which the child is killed, s.
    double seconds = 120;
};

/// The STEP limits: 4 GiB (at most half the host memory) and 120 s, overridden by
/// $GOLIGHTLY_STEP_MEMORY_LIMIT_MB and $GOLIGHTLY_STEP_TIME_LIMIT_S (the fuzzer sets them).
IsolationLimits step_isolation_limits();

/// The child died, ran out of its limits, or threw; what() says which, for `what`.
class IsolatedJobError : public std::runtime_error {
public:
    /// died: the child crashed, was stopped at a limit or ended without a result (false:
    /// the job threw, and what() is its own message).
    explicit IsolatedJobError(const std::string& what, bool died = true) : std::runtime_error(what), died(died) {}
    bool died;
};

/// Runs `job` in a forked child process and returns what it returned. Only the calling
/// thread exists in the child: `job` must not take locks other threads may hold.
/// `keep_going`, when set, is called in the parent about every 50 ms while the child
/// works; returning false kills the child and throws IsolatedJobError("... cancelled").
/// Throws IsolatedJobError: with the job's own message when it threw; "... crashed
/// (SIGSEGV, ...)" when it died from a signal; "... exceeded the memory limit of N MiB" or
/// "... took longer than N s" when it was stopped. `what` names the job in messages.
/// $GOLIGHTLY_NO_ISOLATION=1 runs the job in this process (debugging only).
std::string run_isolated(const std::function<std::string()>& job, const IsolationLimits& limits,
                         const std::string& what, const std::function<bool()>& keep_going = {});

}  // namespace golightly
