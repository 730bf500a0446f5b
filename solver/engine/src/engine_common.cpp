// GoLightly engines (engine.hpp): the parts every backend shares.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "golightly/engine.hpp"

namespace golightly {

int frame_factor(int nx, int ny, int max_width, int max_height) {
    const int mw = std::max(1, max_width), mh = std::max(1, max_height);
    return std::max({1, (nx + mw - 1) / mw, (ny + mh - 1) / mh});
}

// Engines without a traffic model (test doubles) say so.
double Engine::bytes_per_cell_update() const {
    throw std::logic_error("Engine::bytes_per_cell_update: no traffic model in the " + backend() + " engine");
}

// Engines that do not sample their fields (test doubles) say so.
Engine::FieldSamples Engine::sample_field(Component, int, int, bool) {
    throw std::logic_error("Engine::sample_field: not implemented by the " + backend() + " engine");
}

}  // namespace golightly
