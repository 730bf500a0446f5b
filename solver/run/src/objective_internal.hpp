// Helpers shared by the objective's files (not installed): objective.cpp (the catalogue,
// parsing and evaluation) and objective_results.cpp (reading a results folder).
#pragma once

#include <string>

#include "golightly/limits.hpp"
#include "sweep_internal.hpp"

namespace golightly::objective_detail {

/// Numbers in messages: the sweep's CSV formatter ("%.10g"; nan, inf, -inf).
using detail::csv_number;

inline std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r\n");
    if (a == std::string::npos) return {};
    const auto b = s.find_last_not_of(" \t\r\n");
    return s.substr(a, b - a + 1);
}

inline std::string quoted(const std::string& text) { return "\"" + limits::cap_text(text) + "\""; }

}  // namespace golightly::objective_detail
