// GoLightly editor: the Properties rows of a selected port (PropertiesDock::portRows; the
// top-level `ports`, ports.hpp): name, centre, size, direction, modes.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>

#include <algorithm>
#include <cmath>

#include "dimensions.hpp"
#include "dock_util.hpp"
#include "properties_dock.hpp"
#include "ports.hpp"

namespace golightly::editor {

void PropertiesDock::portRows(const Project& p, const ItemRef& sel) {
    const QString um = tr(" µm");
    const QStringList directions = directionNames(2);
    const QStringList directions3 = directionNames(3);
    const bool three = p.domain.dimensions == 3;
    // a port (top-level `ports`, ports.hpp): name, centre, size, direction, modes
    const PortData d = *port_at(p, sel.index);
    itemTitle_ = tr("port \"%1\"").arg(qs(d.name));
    addText(tr("Name"), qs(d.name), [this](const QString& t) {
        if (!t.trimmed().isEmpty()) editPort([t](PortData& x) { x.name = t.trimmed().toStdString(); });
    });
    addInfo(tr("Type"), three ? tr("port (plane)") : tr("port (line)"));
    const auto nonNegative = [](double v) { return v >= 0 ? QString() : tr("must be 0 (the normal) or more"); };
    if (three) {
        addCombo(tr("Normal"), {QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z")}, std::max(0, plane_normal(d.size)),
                 [this](int i) {
                     editPort([i](PortData& x) {
                         const int old = plane_normal(x.size);
                         if (old < 0 || old == i) return;
                         x.size[old] = x.size[i];
                         x.size[i] = 0;
                         if (x.direction.size() == 2) x.direction[1] = "xyz"[i];
                     });
                 });
        vec3Fields(tr("Centre"), d.center, [this](Vec3 v) { editPort([v](PortData& x) { x.center = v; }); });
        vec3Fields(tr("Size"), d.size, [this](Vec3 v) { editPort([v](PortData& x) { x.size = v; }); },
                   [nonNegative](int, double v) { return nonNegative(v); });
    } else {
        vecFields(tr("Centre"), {d.center.x, d.center.y},
                  [this](Vec2 v) { editPort([v](PortData& x) { x.center = {v.x, v.y, x.center.z}; }); });
        addDouble(tr("Size x"), d.size.x, um, [this](double v) { editPort([v](PortData& x) { x.size.x = v; }); }, nonNegative);
        addDouble(tr("Size y"), d.size.y, um, [this](double v) { editPort([v](PortData& x) { x.size.y = v; }); }, nonNegative);
    }
    const QStringList dirs = three ? directions3 : directions;
    addCombo(tr("Direction"), dirs, std::max<int>(0, dirs.indexOf(qs(d.direction))),
             [this, dirs](int i) { editPort([&](PortData& x) { x.direction = dirs[i].toStdString(); }); });
    QStringList modes;
    for (int m : d.modes) modes << QString::number(m);
    addText(tr("Modes"), modes.join(QStringLiteral(", ")), [this](const QString& t) {
        std::vector<int> values;
        for (const QString& part : t.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const int v = part.trimmed().toInt(&ok);
            if (!ok || v < 0) return;  // not a list of mode indices (0, 1, ...): ignored
            values.push_back(v);
        }
        if (!values.empty()) editPort([&](PortData& x) { x.modes = values; });
    });
}

}  // namespace golightly::editor
