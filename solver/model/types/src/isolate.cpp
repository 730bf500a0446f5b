// GoLightly: isolate.hpp, running a job in a forked child with memory and time limits.
//
// Protocol: the child writes one status byte ('O' result follows, 'E' error message
// follows, 'M' out of memory) and then the payload to a pipe, and leaves with _exit (no
// atexit handlers, no static destructors of the parent's libraries). The parent reads the
// pipe while polling the child's resident set size and the clock; it kills the child
// (SIGKILL) past a limit. Core dumps are off in the child.
#include "golightly/isolate.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "golightly/limits.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define GOLIGHTLY_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define GOLIGHTLY_SANITIZED 1
#endif
#endif

namespace golightly {

namespace {

/// Pages of /proc/<pid>/statm: field 0 the virtual size, field 1 the resident set.
std::uint64_t statm_bytes(pid_t pid, int field) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/statm", int(pid));
    std::ifstream in(path);
    std::uint64_t v[2] = {0, 0};
    in >> v[0] >> v[1];
    return v[field] * std::uint64_t(::sysconf(_SC_PAGESIZE));
}

void write_all(int fd, const char* p, std::size_t n) {
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return;
        }
        p += w;
        n -= std::size_t(w);
    }
}

std::string signal_text(int sig) {
    const char* name = sigabbrev_np(sig);
    return "signal " + std::to_string(sig) + (name ? std::string(", SIG") + name : std::string());
}

std::uint64_t env_u64(const char* name, std::uint64_t def) {
    const char* v = std::getenv(name);
    if (!v || !*v) return def;
    char* end = nullptr;
    const double d = std::strtod(v, &end);
    return (end && *end == '\0' && d > 0 && d < 1e18) ? std::uint64_t(d) : def;
}

}  // namespace

IsolationLimits step_isolation_limits() {
    IsolationLimits l;
    std::uint64_t mem = 4ull << 30;
    if (const std::uint64_t host = limits::host_memory_bytes(); host > 0) mem = std::min(mem, host / 2);
    l.memory_bytes = env_u64("GOLIGHTLY_STEP_MEMORY_LIMIT_MB", mem >> 20) << 20;
    l.seconds = double(env_u64("GOLIGHTLY_STEP_TIME_LIMIT_S", 120));
    return l;
}

std::string run_isolated(const std::function<std::string()>& job, const IsolationLimits& lim, const std::string& what,
                         const std::function<bool()>& keep_going) {
    if (const char* off = std::getenv("GOLIGHTLY_NO_ISOLATION"); off && std::string(off) == "1") return job();

    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw IsolatedJobError(what + ": cannot create a pipe for the worker process: " + std::strerror(errno));
    [[maybe_unused]] const std::uint64_t vm_at_fork = statm_bytes(::getpid(), 0);
    const std::uint64_t rss_at_fork = statm_bytes(::getpid(), 1);
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int err = errno;
        ::close(fds[0]);
        ::close(fds[1]);
        throw IsolatedJobError(what + ": cannot start the worker process: " + std::strerror(err));
    }
    if (pid == 0) {  // ---------------------------------------------------------- child
        ::close(fds[0]);
        // Die of a fault rather than run the parent's crash handlers (a fuzzer's, a
        // sanitizer's, a crash reporter's) in this copy of it; the parent reports it.
        for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) std::signal(sig, SIG_DFL);
        struct rlimit core {0, 0};
        ::setrlimit(RLIMIT_CORE, &core);
#ifndef GOLIGHTLY_SANITIZED  // sanitizers reserve terabytes of address space for their shadow
        if (vm_at_fork > 0) {
            struct rlimit as {vm_at_fork + lim.memory_bytes, vm_at_fork + lim.memory_bytes};
            ::setrlimit(RLIMIT_AS, &as);
        }
#endif
        const rlim_t cpu = rlim_t(std::ceil(lim.seconds)) + 1;
        struct rlimit cpu_lim {cpu, cpu + 1};
        ::setrlimit(RLIMIT_CPU, &cpu_lim);
        char status = 'E';
        std::string out;
        try {
            out = job();
            status = 'O';
        } catch (const std::bad_alloc&) {
            status = 'M';
            out.clear();
        } catch (const std::exception& e) {
            try {
                out = e.what();
            } catch (...) {
            }
        } catch (...) {
            out = "unknown failure";
        }
        write_all(fds[1], &status, 1);
        write_all(fds[1], out.data(), out.size());
        ::close(fds[1]);
        ::_exit(0);
    }
    // ------------------------------------------------------------------------- parent
    ::close(fds[1]);
    // The child's own resident set at its start (what fork copied; with sanitizers far
    // less than this process's): the memory limit applies to its growth from there.
    std::uint64_t rss_base = statm_bytes(pid, 1);
    if (rss_base == 0) rss_base = rss_at_fork;
    const auto t0 = std::chrono::steady_clock::now();
    std::string buf;
    enum class Stop { None, Time, Memory, Cancelled, Output } stopped = Stop::None;
    char chunk[65536];
    for (;;) {
        struct pollfd p {fds[0], POLLIN, 0};
        const int r = ::poll(&p, 1, 50);
        if (r < 0 && errno != EINTR) break;
        if (r > 0) {
            const ssize_t n = ::read(fds[0], chunk, sizeof chunk);
            if (n < 0 && errno != EINTR && errno != EAGAIN) break;
            if (n == 0) break;  // EOF: the child is done (or dead)
            if (n > 0) buf.append(chunk, std::size_t(n));
            if (buf.size() > (std::size_t(1) << 31)) stopped = Stop::Output;
        }
        if (stopped == Stop::None) {
            const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (t > lim.seconds) stopped = Stop::Time;
            else if (statm_bytes(pid, 1) > rss_base + lim.memory_bytes) stopped = Stop::Memory;
            else if (keep_going && !keep_going()) stopped = Stop::Cancelled;
        }
        if (stopped != Stop::None) {
            ::kill(pid, SIGKILL);
            break;
        }
    }
    ::close(fds[0]);
    int st = 0;
    while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    const std::string mib = std::to_string(lim.memory_bytes >> 20) + " MiB";
    switch (stopped) {
        case Stop::Time:
            throw IsolatedJobError(what + " took longer than the limit of " + std::to_string(int(lim.seconds)) +
                                   " s and was stopped");
        case Stop::Memory: throw IsolatedJobError(what + " exceeded the memory limit of " + mib + " and was stopped");
        case Stop::Cancelled: throw IsolatedJobError(what + " cancelled", false);
        case Stop::Output: throw IsolatedJobError(what + " produced more than 2 GiB of output and was stopped");
        case Stop::None: break;
    }
    if (!buf.empty() && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        const char status = buf[0];
        std::string payload = buf.substr(1);
        if (status == 'O') return payload;
        if (status == 'M') throw IsolatedJobError(what + " ran out of memory (limit " + mib + ")");
        throw IsolatedJobError(payload, false);
    }
    if (WIFSIGNALED(st)) {
        const int sig = WTERMSIG(st);
        if (sig == SIGXCPU)
            throw IsolatedJobError(what + " used more than " + std::to_string(int(lim.seconds)) +
                                   " s of CPU time and was stopped");
        if (sig == SIGKILL)
            throw IsolatedJobError(what + " was killed (SIGKILL: out of memory?)");
        throw IsolatedJobError(what + " crashed (" + signal_text(sig) + ")");
    }
    throw IsolatedJobError(what + " ended unexpectedly (exit status " +
                           std::to_string(WIFEXITED(st) ? WEXITSTATUS(st) : -1) + ")");
}

}  // namespace golightly
