// GoLightly: helpers shared by sweep.cpp and optimize.cpp (not public).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "golightly/atomic_file.hpp"  // write_file_atomic, used by sweep, optimize and adjoint_optimize
#include "golightly/parameters.hpp"
#include "golightly/project.hpp"

namespace golightly::detail {

/// A CSV field, quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& s);
/// Splits one CSV line (RFC 4180 quoting: "a,b" and "" inside quotes).
std::vector<std::string> csv_split(const std::string& line);
/// "%.10g"; nan, inf, -inf.
std::string csv_number(double v);
/// The design.glproj text of a design (project_to_json, two-space indent).
std::string design_text(const Project& design);
/// "design_0007": prefix, '_', the index with at least four digits (more for >= 10000 items).
std::string folder_name(const std::string& prefix, std::size_t index, std::size_t count);
/// True when `dir` holds a finished run of `design` (design_complete). Otherwise makes the
/// folder, removes a stale summary.json and writes design.glproj; returns false.
bool prepare_design_folder(const std::filesystem::path& dir, const Project& design);
/// {name[i], parameter_text(values[i])}.
ParameterOverrides overrides_of(const std::vector<std::string>& names, const std::vector<double>& values);

}  // namespace golightly::detail
