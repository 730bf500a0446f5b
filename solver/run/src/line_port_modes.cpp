#include "golightly/line_port_modes.hpp"

#include <stdexcept>
#include <vector>

namespace golightly {

CompiledProject compile_line_port_modes(const Project& project, const std::string& file, const Port& port,
                                        double wl_um, int count) {
    Project q = project;
    q.sources.clear();
    q.monitors.clear();
    q.run.normalization.enabled = false;
    const double rel = 1e-3;
    q.run.spectrum.wavelength_min = wl_um / (1 + rel);
    q.run.spectrum.wavelength_max = wl_um / (1 - rel);
    q.run.spectrum.points = 3;
    Monitor m;
    m.name = "port_" + port.name;
    m.type = MonitorType::Flux;
    m.kind = "mode";
    m.direction = port.direction;
    m.from = {port.center.x - 0.5 * port.size.x, port.center.y - 0.5 * port.size.y};
    m.to = {port.center.x + 0.5 * port.size.x, port.center.y + 0.5 * port.size.y};
    std::vector<int> modes;
    for (int k = 0; k < count; ++k) modes.push_back(k);
    m.extra["modes"] = Json(modes);
    if (port.bend_radius_um != 0) m.extra["bend_radius"] = port.bend_radius_um;  // a bent line: its bent slab modes
    q.monitors.push_back(m);
    CompiledProject cp = compile_project(q, file);
    if (cp.monitors.empty() || !cp.monitors[0].mode_plan) throw std::runtime_error("the port's line gave no mode plan");
    return cp;
}

}  // namespace golightly
