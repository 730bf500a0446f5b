// Helpers shared by the STEP import dialog's files (not installed): the dialog and its
// preview (step_import_dialog.cpp), the file reader and default placement
// (step_import_dialog_reader.cpp) and re-import (step_import_dialog_reimport.cpp).
#pragma once

#include <QColor>
#include <QString>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "golightly/step_import.hpp"

namespace golightly::editor::step_import_detail {

inline QString qs(const std::string& s) { return QString::fromStdString(s); }

inline QColor solid_color(const StepSolid& s) {
    return QColor::fromRgbF(float(std::clamp(s.color_rgb[0], 0.0, 1.0)), float(std::clamp(s.color_rgb[1], 0.0, 1.0)),
                            float(std::clamp(s.color_rgb[2], 0.0, 1.0)));
}

/// Chordal tolerance for the dialog's and the canvas's sections: 2e-4 of the x-y extent.
inline double section_tolerance(const Shape& shape) {
    const std::array<double, 6> b = step_bounds_um(shape);
    return 2e-4 * std::max({b[3] - b[0], b[4] - b[1], 1e-6});
}

inline QString fmt_um(double v) { return QString::number(v, 'g', 5); }

/// Tolerance used to check sections on OK / re-import (as the canvas draws them).
inline std::vector<StepSolidSection> checked_sections(const Shape& shape, double slice_z) {
    return step_import_sections(shape, slice_z, section_tolerance(shape));
}

}  // namespace golightly::editor::step_import_detail
