// Test helpers for files and processes shared by the solver tests: read a whole file,
// quote a shell argument, and a scratch directory removed at the end of its scope.
#pragma once

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <system_error>

namespace golightly::test {

/// The whole content of a file ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// `s` as one POSIX shell word (single quotes, embedded ones escaped).
inline std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

/// A fresh directory under the system temp folder, golightly_<prefix>_<tag>_<random>,
/// removed with everything in it when the object goes out of scope.
struct Scratch {
    std::filesystem::path path;
    Scratch(const std::string& prefix, const std::string& tag) {
        std::random_device rd;
        path = std::filesystem::temp_directory_path() /
               ("golightly_" + prefix + "_" + tag + "_" + std::to_string(rd()));
        std::filesystem::create_directories(path);
    }
    ~Scratch() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

}  // namespace golightly::test
