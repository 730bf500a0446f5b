#pragma once
// Helpers shared by the Inverse Design dock's files (inverse_design_*.cpp); not a public header.
#include <QColor>
#include <QString>

#include <string>

#include "golightly/project.hpp"

namespace golightly::app::inverse_design_detail {

inline QString qs(const std::string& s) { return QString::fromStdString(s); }
inline const Json* designSection(const Project& p) {
    auto it = p.extra.find("design");
    return it != p.extra.end() && it->is_object() ? &*it : nullptr;
}
/// history.csv's fixed columns; one `objective@<wavelength um>` column per wavelength
/// follows, as in the CLI's history (docs/spec/cli.md "optimize --adjoint").
inline const char* const kHistoryHeader = "iteration,beta,objective,gradient_norm,wall_s";
/// The per-wavelength curves' colours (the figure of merit keeps the blue).
inline const QColor kCurveColours[] = {QColor(230, 120, 20), QColor(40, 150, 60),  QColor(200, 40, 40),
                                       QColor(140, 90, 190), QColor(140, 85, 75),  QColor(220, 110, 190),
                                       QColor(120, 120, 120), QColor(170, 170, 30), QColor(20, 170, 190)};

}  // namespace golightly::app::inverse_design_detail
