// GoLightly geometry in 3D (geometry.hpp, "3D"): placeholders until the 3D coverage lands.
#include <stdexcept>

#include "golightly/geometry.hpp"

namespace golightly {

Coverage compute_coverage_3d(const Project&, const SampleGrid3&, bool) {
    throw std::logic_error("compute_coverage_3d: not implemented yet");
}

AveragedMedium average_medium_3d(const Project&, const SampleGrid3&, Component, bool, bool) {
    throw std::logic_error("average_medium_3d: not implemented yet");
}

std::map<std::string, double> material_volumes_um3(const Project&, double, bool) {
    throw std::logic_error("material_volumes_um3: not implemented yet");
}

}  // namespace golightly
