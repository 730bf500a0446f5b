#include "golightly/mode_picture.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "golightly/units.hpp"

namespace golightly {

double mode_picture_bandwidth(double q) {
    if (!(q > 0) || !std::isfinite(q)) return 0.02;
    return std::clamp(4.0 / q, 0.002, 0.02);
}

Project mode_picture_project(const Project& project, double frequency_hz, double q) {
    if (!(frequency_hz > 0) || !std::isfinite(frequency_hz))
        throw std::invalid_argument("mode picture: the resonance's frequency must be positive");
    if (project.sources.empty()) throw std::invalid_argument("mode picture: the project has no source to excite the mode");
    Project p = project;
    const double wl = units::hz_to_wavelength_um(frequency_hz);
    const double rel = mode_picture_bandwidth(q);
    for (Source& s : p.sources) {
        s.waveform.type = WaveformType::GaussianPulse;
        s.waveform.wavelength_center = wl;
        s.waveform.wavelength_span = wl * rel;
    }
    std::vector<Monitor> kept;
    for (const Monitor& m : p.monitors)
        if (m.type == MonitorType::Time) {
            kept.push_back(m);
            kept.back().resonances.reset();
        }
    Monitor f;
    f.name = kModePictureMonitor;
    for (const Monitor& m : kept)  // a name of its own
        if (m.name == f.name) f.name += "_picture";
    f.type = MonitorType::DftField;
    f.wavelengths = {wl};
    if (p.domain.dimensions == 3) {
        // the xy plane the field view shows (run.frames), else the middle
        const double z = p.run.frames.plane == "xy" && p.run.frames.position ? *p.run.frames.position
                                                                              : 0.5 * p.domain.size[2];
        f.min = Vec2{0, 0};
        f.max = Vec2{p.domain.size[0], p.domain.size[1]};
        f.min_z = z;
        f.max_z = z;
        f.components = {Component::Ex, Component::Ey, Component::Ez};
    } else if (p.domain.polarization == Polarization::TMz)
        f.components = {Component::Ez};
    else
        f.components = {Component::Hz};
    kept.push_back(f);
    p.monitors = std::move(kept);
    p.run.normalization.enabled = false;
    p.run.spectrum.wavelength_min = wl * (1 - 0.5 * rel);
    p.run.spectrum.wavelength_max = wl * (1 + 0.5 * rel);
    p.run.spectrum.points = 3;
    p.run.stop.resonances = false;
    if (p.run.stop.monitor &&
        std::none_of(p.monitors.begin(), p.monitors.end(), [&](const Monitor& m) { return m.name == *p.run.stop.monitor; }))
        p.run.stop.monitor.reset();
    return p;
}

}  // namespace golightly
