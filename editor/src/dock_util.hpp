// GoLightly editor: small helpers of the docks (docks.cpp and the Properties builders,
// properties_*.cpp).
#pragma once

#include <QString>

#include <string>

#include "number_spin_box.hpp"

namespace golightly::editor {

/// A numeric field of the docks: locale-aware (NumberSpinBox), one change per edit (no
/// keyboard tracking), accelerated steps.
inline QDoubleSpinBox* make_spin(double lo, double hi, int decimals, double step, const QString& suffix) {
    auto* s = new NumberSpinBox;
    s->setRange(lo, hi);
    s->setDecimals(decimals);
    s->setSingleStep(step);
    s->setSuffix(suffix);
    s->setKeyboardTracking(false);
    s->setAccelerated(true);
    return s;
}

inline QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace golightly::editor
