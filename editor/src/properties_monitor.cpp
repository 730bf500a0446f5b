// GoLightly editor: the Properties rows of a selected monitor (PropertiesDock::monitorRows):
// flux planes and lines, time probes, flux boxes and DFT field regions.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>

#include <algorithm>
#include <cmath>

#include "dimensions.hpp"
#include "dock_util.hpp"
#include "docks.hpp"
#include "ports.hpp"

namespace golightly::editor {

/// Parses "0, 1, 2" (mode indices, ports and mode monitors): empty when it is not such a list.
static std::vector<int> parse_mode_list(const QString& t) {
    std::vector<int> values;
    for (const QString& part : t.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int v = part.trimmed().toInt(&ok);
        if (!ok || v < 0) return {};
        values.push_back(v);
    }
    return values;
}

void PropertiesDock::fluxKindFields(const Monitor& m) {
    // A mode monitor is a flux monitor of kind "mode" (spec "Mode sources and monitors"):
    // its kind is listed, so that it is shown as what it is and a touch of the combo keeps
    // it; its mode indices live in `extra["modes"]` (default [0]). An unknown kind (a newer
    // file's) is shown as itself and kept until another one is chosen.
    QStringList kinds{QStringLiteral("transmission"), QStringLiteral("reflection"), QStringLiteral("flux"),
                      QStringLiteral("mode")};
    QStringList kindLabels{tr("transmission"), tr("reflection"), tr("flux"), tr("mode (amplitudes)")};
    if (!kinds.contains(qs(m.kind))) {
        kinds << qs(m.kind);
        kindLabels << qs(m.kind);
    }
    addCombo(tr("Kind"), kindLabels, int(kinds.indexOf(qs(m.kind))), [this, kinds](int i) {
        editMonitor([&](Monitor& x) {
            x.kind = kinds[i].toStdString();
            if (x.kind != "mode") x.extra.erase("modes");  // the mode indices mean nothing to the others
        });
    });
    if (m.kind != "mode") return;
    std::vector<int> modes{0};
    if (m.extra.contains("modes") && m.extra.at("modes").is_array()) {
        modes.clear();
        for (const auto& j : m.extra.at("modes"))
            if (j.is_number_integer()) modes.push_back(j.get<int>());
    }
    QStringList text;
    for (int k : modes) text << QString::number(k);
    addText(tr("Modes"), text.join(QStringLiteral(", ")), [this](const QString& t) {
        const std::vector<int> values = parse_mode_list(t);
        if (!values.empty()) editMonitor([&](Monitor& x) { x.extra["modes"] = values; });  // else ignored, as a port's
    });
}

void PropertiesDock::monitorRows(const Project& p, const ItemRef& sel) {
    const QString um = tr(" µm");
    const QStringList directions = directionNames(2);
    const QStringList directions3 = directionNames(3);
    const QStringList components = componentNames();
    const bool three = p.domain.dimensions == 3;
    const Monitor m = p.monitors[size_t(sel.index)];
    itemTitle_ = tr("monitor \"%1\"").arg(qs(m.name));
    addText(tr("Name"), qs(m.name), [this](const QString& t) {
        if (!t.trimmed().isEmpty()) editMonitor([t](Monitor& x) { x.name = t.trimmed().toStdString(); });
    });
    if (m.type == MonitorType::Flux && m.size != Vec3{}) {
        addInfo(tr("Type"), tr("flux plane"));
        addCombo(tr("Normal"), {QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z")},
                 std::max(0, plane_normal(m.size)), [this](int i) { editMonitor([i](Monitor& x) { set_plane_normal(x, i); }); });
        vec3Fields(tr("Centre"), m.center, [this](Vec3 v) { editMonitor([v](Monitor& x) { x.center = v; }); });
        vec3Fields(tr("Size"), m.size, [this](Vec3 v) { editMonitor([v](Monitor& x) { x.size = v; }); },
                   [](int, double v) { return v >= 0 ? QString() : tr("must be 0 (the normal) or more"); });
        addCombo(tr("Direction"), directions3, std::max<int>(0, directions3.indexOf(qs(m.direction))),
                 [this, directions3](int i) { editMonitor([&](Monitor& x) { x.direction = directions3[i].toStdString(); }); });
        fluxKindFields(m);
    } else if (m.type == MonitorType::Flux) {
        addInfo(tr("Type"), tr("flux line"));
        vecFields(tr("From"), m.from, [this](Vec2 v) { editMonitor([v](Monitor& x) { x.from = v; }); });
        vecFields(tr("To"), m.to, [this](Vec2 v) { editMonitor([v](Monitor& x) { x.to = v; }); });
        addCombo(tr("Direction"), directions, std::max<int>(0, directions.indexOf(qs(m.direction))),
                 [this, directions](int i) { editMonitor([&](Monitor& x) { x.direction = directions[i].toStdString(); }); });
        fluxKindFields(m);
    } else if (m.type == MonitorType::Time) {
        addInfo(tr("Type"), tr("time probe"));
        if (m.at) vecFields(tr("At"), *m.at, [this](Vec2 v) { editMonitor([v](Monitor& x) { x.at = v; }); });
        if (m.at && three)
            zField(tr("At"), m.at_z.value_or(0), [this](double z) { editMonitor([z](Monitor& x) { x.at_z = z; }); });
        addCombo(tr("Component"), components, int(m.component),
                 [this](int i) { editMonitor([i](Monitor& x) { x.component = Component(i); }); });
    } else {
        addInfo(tr("Type"), m.type == MonitorType::FluxBox ? tr("flux box") : tr("DFT field"));
        if (m.min && m.max) {
            vecFields(tr("Min"), *m.min, [this](Vec2 v) { editMonitor([v](Monitor& x) { x.min = v; }); },
                      minRule(v3(*m.max), 2));
            vecFields(tr("Max"), *m.max, [this](Vec2 v) { editMonitor([v](Monitor& x) { x.max = v; }); },
                      maxRule(v3(*m.min), 2));
            if (three) {
                const double z0 = m.min_z.value_or(0), z1 = m.max_z.value_or(0);
                addDouble(tr("Min") + tr(" z"), z0, um, [this](double z) { editMonitor([z](Monitor& x) { x.min_z = z; }); },
                          [r = minRule(Vec3{0, 0, z1})](double z) { return r(2, z); });
                addDouble(tr("Max") + tr(" z"), z1, um, [this](double z) { editMonitor([z](Monitor& x) { x.max_z = z; }); },
                          [r = maxRule(Vec3{0, 0, z0})](double z) { return r(2, z); });
            }
        }
        if (m.type == MonitorType::FluxBox) {
            const QStringList kinds{QStringLiteral("flux"), QStringLiteral("absorption"), QStringLiteral("scattering")};
            const QStringList kindLabels{tr("flux (net outward)"), tr("absorption cross-section"),
                                         tr("scattering cross-section")};
            addCombo(tr("Kind"), kindLabels, std::max<int>(0, kinds.indexOf(qs(m.kind))),
                     [this, kinds](int i) { editMonitor([&](Monitor& x) { x.kind = kinds[i].toStdString(); }); });
        }
        if (m.type == MonitorType::DftField) {
            QStringList wl;
            for (double w : m.wavelengths) wl << QString::number(w, 'g', 8);
            addText(tr("Wavelengths (µm)"), wl.join(QStringLiteral(", ")), [this](const QString& t) {
                std::vector<double> values;
                for (const QString& part : t.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                    bool ok = false;
                    const double v = part.trimmed().toDouble(&ok);
                    if (!ok || !(v > 0)) return;  // not a list of positive numbers: ignored
                    values.push_back(v);
                }
                if (!values.empty()) editMonitor([&](Monitor& x) { x.wavelengths = values; });
            });
        }
    }
}

}  // namespace golightly::editor
