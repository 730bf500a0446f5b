// GoLightly solver: error types.
//
// Every error the solver reports to a user is one of these. None of them aborts the
// process: golightly-cli maps them to exit codes (spec/cli.md), the IDE shows them.
#pragma once

#include <stdexcept>
#include <string>

#include "golightly/limits.hpp"

namespace golightly {

/// An invalid project: bad JSON, a missing or out-of-range field, an unknown material
/// id, an unstable Courant number, a truncated file. golightly-cli exits with code 2.
/// what() reads "FILE: JSON_PATH: MESSAGE", e.g.
/// "ring.glproj: domain.cell_size: must be > 0". what() is capped: the file name and the
/// path at limits::kMaxQuotedChars * 2 bytes each, the whole at limits::kMaxMessageChars.
class ProjectError : public std::runtime_error {
public:
    ProjectError(std::string file, std::string json_path, std::string message)
        : std::runtime_error(compose(file, json_path, message)),
          file_(std::move(file)), json_path_(std::move(json_path)), message_(std::move(message)) {}

    const std::string& file() const noexcept { return file_; }
    /// JSON path of the offending field in dotted/bracket form, e.g. "layers[2].shapes[0].radii".
    /// Empty when the whole document is at fault (e.g. not JSON at all).
    const std::string& json_path() const noexcept { return json_path_; }
    const std::string& message() const noexcept { return message_; }

private:
    static std::string compose(const std::string& f, const std::string& p, const std::string& m) {
        std::string s = f.empty() ? std::string("<project>") : limits::cap_text(f, 2 * limits::kMaxQuotedChars);
        if (!p.empty()) s += ": " + limits::cap_text(p, 2 * limits::kMaxQuotedChars);
        return limits::cap_text(s + ": " + m, limits::kMaxMessageChars);
    }
    std::string file_, json_path_, message_;
};

/// A run that cannot proceed (device error, out of memory, unsupported feature in the
/// chosen backend). golightly-cli exits with code 3 and writes what it has.
class RunError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Out of device or host memory while allocating the grid; carries the sizes so the
/// message can say what was needed and what was available.
class OutOfMemoryError : public RunError {
public:
    OutOfMemoryError(const std::string& what, std::size_t bytes_needed, std::size_t bytes_available)
        : RunError(what), bytes_needed(bytes_needed), bytes_available(bytes_available) {}
    std::size_t bytes_needed;
    std::size_t bytes_available;
};

}  // namespace golightly
