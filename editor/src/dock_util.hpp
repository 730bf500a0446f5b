// GoLightly editor: small helpers of the docks (layers_dock.cpp, materials_dock.cpp,
// run_setup_dock.cpp and the Properties builders, properties_*.cpp).
#pragma once

#include <QColor>
#include <QIcon>
#include <QPainter>
#include <QPixmap>
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

/// A 14 x 14 px rounded colour square: a material's colour in the layer and material lists.
inline QIcon swatch(const QColor& c) {
    QPixmap pm(14, 14);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setPen(c.darker(160));
    p.setBrush(c);
    p.drawRoundedRect(QRectF(0.5, 0.5, 13, 13), 2, 2);
    return QIcon(pm);
}

inline QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace golightly::editor
