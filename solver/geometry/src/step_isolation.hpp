// GoLightly: checks of STEP data made before OpenCASCADE sees it (step_import.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace golightly {

/// Throws std::runtime_error naming `label` when the data is larger than
/// limits::kMaxStepBytes, does not start with "ISO-10303-21", or nests parentheses deeper
/// than limits::kMaxStepNesting outside strings and comments (OCCT's parser recurses per
/// level and exhausts its stack near 100,000). Linear in the size, no allocation.
void precheck_step_data(const std::vector<std::uint8_t>& bytes, const std::string& label);

}  // namespace golightly
