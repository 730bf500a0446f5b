// golightly-cli: the results folder is checked before a run, not after it (issue 55): run,
// sweep, optimize and sparams create their --out folder and write a probe file in it
// before compiling anything, so that a folder that cannot be written costs no run time.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

#include "golightly/limits.hpp"

namespace golightly::cli {

/// Creates `out` (with its parents) and checks that a file can be written in it. On failure
/// prints "error: cannot write the results folder OUT: REASON" (the OS error) and returns
/// false; the caller exits 2, as for an invalid project (spec/cli.md).
inline bool results_folder_writable(const std::filesystem::path& out) {
    namespace fs = std::filesystem;
    auto fail = [&](const std::string& why) {
        std::fprintf(stderr, "error: cannot write the results folder %s: %s\n", limits::cap_text(out.string()).c_str(),
                     why.c_str());
        return false;
    };
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec) return fail(ec.message());
    if (!fs::is_directory(out, ec)) return fail(ec ? ec.message() : std::string("not a folder"));
    const fs::path probe = out / (".golightly-write-check-" + std::to_string(::getpid()));
    std::FILE* f = std::fopen(probe.c_str(), "wb");
    if (!f) return fail(std::strerror(errno));
    const bool wrote = std::fputc('\n', f) != EOF;
    const int err = errno;
    const bool closed = std::fclose(f) == 0;
    fs::remove(probe, ec);
    if (!wrote || !closed) return fail(std::strerror(wrote ? errno : err));
    return true;
}

}  // namespace golightly::cli
