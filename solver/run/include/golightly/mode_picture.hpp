// A resonance's field picture (issue 52, the IDE's resonance table): the second, short run
// Meep users make after Harminv. The same project with every source narrowed to a gaussian
// pulse centred on the resonance (so that the other modes are barely excited) and one
// dft_field monitor at the resonance's frequency over the domain (2D) or the z plane of
// run.frames (3D); what is left after the source rings down at that frequency is the mode.
#pragma once

#include <string>

#include "golightly/project.hpp"
#include "golightly/run.hpp"

namespace golightly {

/// The dft_field monitor a mode-picture project adds.
inline constexpr const char* kModePictureMonitor = "resonance_field";

/// The relative bandwidth (span / centre wavelength) of a mode picture's sources for a
/// resonance of quality factor `q`: 4 / q (a few linewidths, so that the source's own
/// spectrum does not decide the picture), kept between 0.2 % (the run's length) and 2 %
/// (nearby modes); 2 % for q that is not finite or not positive.
double mode_picture_bandwidth(double q);

/// `project` made into a mode-picture run of the resonance at `frequency_hz` with quality
/// factor `q`: sources narrowed (waveform gaussian_pulse at the resonance's wavelength,
/// span mode_picture_bandwidth), monitors replaced by one dft_field monitor
/// kModePictureMonitor at that wavelength (2D: the whole domain, the polarization's
/// components; 3D: the plane z = run.frames.position when frames cut xy, else the domain's
/// middle, Ex Ey Ez), time monitors kept without `resonances`, normalization off, the
/// spectrum the source's band, the resonance stop off, the stop monitor dropped.
/// Throws std::invalid_argument (frequency not positive, no sources).
Project mode_picture_project(const Project& project, double frequency_hz, double q);

}  // namespace golightly
