// Test helper: an environment variable set for one scope.
#pragma once

#include <cstdlib>
#include <string>

namespace golightly::test {

/// Sets variable `n` to `v` (v null: unsets it) until the end of the scope, then restores it
/// (or unsets it where it was unset), also when a check throws.
struct EnvSet {
    std::string name, old;
    bool had;
    EnvSet(const char* n, const char* v) : name(n), had(std::getenv(n) != nullptr) {
        if (had) old = std::getenv(n);
        if (v) setenv(n, v, 1);
        else unsetenv(n);  // v null: the variable unset for the scope
    }
    ~EnvSet() {
        if (had) setenv(name.c_str(), old.c_str(), 1);
        else unsetenv(name.c_str());
    }
    EnvSet(const EnvSet&) = delete;
    EnvSet& operator=(const EnvSet&) = delete;
};

}  // namespace golightly::test
