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
#include "properties_dock.hpp"
#include "golightly/mode_plane.hpp"
#include "ports.hpp"

namespace golightly::editor {

/// Parses "0, 1, 2" (a mode monitor's `modes`): empty when it is not a list of mode
/// indices 0..99 (the project format's rule, mode_plane.hpp parse_mode_list).
static std::vector<int> parse_mode_list(const QString& t) {
    std::vector<int> values;
    for (const QString& part : t.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int v = part.trimmed().toInt(&ok);
        if (!ok || v < 0 || v > 99) return {};
        values.push_back(v);
    }
    return values;
}

namespace {
/// The mode-selection keys of a mode monitor (spec "Mode selection", "Bent planes", "Bent
/// lines"): they mean nothing to the other kinds and go with the kind.
const char* const kModeKeys[] = {"modes", "target_neff", "filter", "bend_radius", "bend_axis"};

/// The axis a new bend takes (3D): the wafer-plane axis across the plane (y for an
/// x-normal plane, x otherwise), where a bend in the layout's plane has its centre.
int default_bend_axis(int normal) { return normal == 0 ? 1 : 0; }

double extra_number(const Monitor& m, const char* key) {
    return m.extra.contains(key) && m.extra.at(key).is_number() ? m.extra.at(key).get<double>() : 0.0;
}
}  // namespace

void PropertiesDock::fluxKindFields(const Monitor& m) {
    // A mode monitor is a flux monitor of kind "mode" (spec "Mode sources and monitors"):
    // its kind is listed, so that it is shown as what it is and a touch of the combo keeps
    // it; its mode indices live in `extra["modes"]` (default [0]) and its selection in
    // `extra` too (target_neff, filter, bend_radius, bend_axis: written only when set). An
    // unknown kind (a newer file's) is shown as itself and kept until another one is chosen.
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
            if (x.kind != "mode")
                for (const char* key : kModeKeys) x.extra.erase(key);
        });
    });
    if (m.kind != "mode") return;
    const Project& p = doc_->project();
    const bool three = p.domain.dimensions == 3 && m.size != Vec3{};
    const double dx = p.domain.cell_size;
    std::vector<int> modes{0};
    if (m.extra.contains("modes") && m.extra.at("modes").is_array()) {
        modes.clear();
        for (const auto& j : m.extra.at("modes"))
            if (j.is_number_integer()) modes.push_back(j.get<int>());
    }
    QStringList text;
    for (int k : modes) text << QString::number(k);
    addCheckedText(
        tr("Modes"), text.join(QStringLiteral(", ")),
        [this](const QString& t) {
            const std::vector<int> values = parse_mode_list(t);
            editMonitor([&](Monitor& x) { x.extra["modes"] = values; });
        },
        [](const QString& t) {
            return parse_mode_list(t).empty()
                       ? tr("must be a list of mode indices from 0 to 99, e.g. \"0\" or \"0, 1\" (0: the highest n_eff)")
                       : QString();
        });
    if (three) {
        // target_neff (> 0; 0 here: none, the cross-section's highest-index modes) and the
        // TE / TM filter: the 3D cross-section's selection (2D lines have one polarization
        // and are solved from the highest index)
        addDouble(
            tr("Target n_eff"), extra_number(m, "target_neff"), QString(),
            [this](double v) {
                editMonitor([v](Monitor& x) {
                    if (v > 0) x.extra["target_neff"] = v;
                    else x.extra.erase("target_neff");
                });
            },
            [](double v) {
                return v >= 0 ? QString()
                              : tr("must be greater than 0 (an effective index), or 0 for none (the highest-index modes)");
            });
        const QStringList filters{QStringLiteral("none"), QStringLiteral("te"), QStringLiteral("tm")};
        const std::string f = m.extra.contains("filter") && m.extra.at("filter").is_string()
                                  ? m.extra.at("filter").get<std::string>()
                                  : std::string("none");
        addCombo(tr("Filter"), {tr("none (all modes)"), tr("TE (E along the wafer plane)"), tr("TM")},
                 std::max<int>(0, filters.indexOf(qs(f))), [this, filters](int i) {
                     editMonitor([&](Monitor& x) {
                         if (i == 0) x.extra.erase("filter");
                         else x.extra["filter"] = filters[i].toStdString();
                     });
                 });
    }
    // bend_radius (0: straight). The rules the solver applies before solving: the centre of
    // curvature outside the window, and room for the bend's absorbing layers at both ends.
    const double radius = extra_number(m, "bend_radius");
    int normal = -1, axis = -1;
    double extent = 0;
    int pmlCells = 0, minCells = 0;  // the bend needs more than minCells cells (nodes) along the axis
    if (three) {
        normal = std::max(0, plane_normal(m.size));
        const std::string a = m.extra.contains("bend_axis") && m.extra.at("bend_axis").is_string()
                                  ? m.extra.at("bend_axis").get<std::string>()
                                  : std::string();
        axis = a.size() == 1 && a[0] >= 'x' && a[0] <= 'z' && a[0] - 'x' != normal ? a[0] - 'x' : default_bend_axis(normal);
        extent = m.size[axis];
        pmlCells = kBendPmlCells;
        minCells = 2 * pmlCells;  // mode_plane.cpp apply_mode_selection
    } else {
        const bool alongY = std::abs(m.from.x - m.to.x) < std::abs(m.from.y - m.to.y);
        axis = alongY ? 1 : 0;
        extent = std::abs(alongY ? m.to.y - m.from.y : m.to.x - m.from.x);
        // compile_project.cpp line_bend_pml_cells: max(12 cells, 0.5 um)
        pmlCells = dx > 0 ? std::max(kBendPmlCells, int(std::lround(0.5 / dx))) : kBendPmlCells;
        minCells = 2 * pmlCells + 2;
    }
    const QString axisName(QLatin1Char("xyz"[axis]));
    addDouble(
        tr("Bend radius"), radius, tr(" µm"),
        [this, three, normal](double r) {
            editMonitor([&](Monitor& x) {
                if (r == 0) {
                    x.extra.erase("bend_radius");
                    x.extra.erase("bend_axis");
                    return;
                }
                x.extra["bend_radius"] = r;
                if (!three) return;  // a 2D line bends about z: no axis
                const std::string a = x.extra.contains("bend_axis") && x.extra.at("bend_axis").is_string()
                                          ? x.extra.at("bend_axis").get<std::string>()
                                          : std::string();
                if (a.size() != 1 || a[0] < 'x' || a[0] > 'z' || a[0] - 'x' == normal)
                    x.extra["bend_axis"] = std::string(1, char('x' + default_bend_axis(normal)));
            });
        },
        [extent, dx, pmlCells, minCells, axisName](double r) {
            if (r == 0) return QString();
            if (!(std::abs(r) > 0.5 * extent))
                return tr("must be 0 (straight) or larger than half the monitor's extent along %1 (%2 µm): the bend's "
                          "centre must lie outside the monitor")
                    .arg(axisName)
                    .arg(0.5 * extent, 0, 'g', 6);
            const int cells = dx > 0 ? int(std::floor(extent / dx + 1e-9)) : 0;
            if (cells <= minCells)
                return tr("needs a monitor longer than %1 cells along %2 (it has %3): the bend's absorbing layers take "
                          "%4 cells at each end")
                    .arg(minCells)
                    .arg(axisName)
                    .arg(cells)
                    .arg(pmlCells);
            return QString();
        });
    if (three && radius != 0) {
        // the in-plane axes (not the normal) along which the bend's centre may lie
        QStringList axes;
        for (int a = 0; a < 3; ++a)
            if (a != normal) axes << QString(QLatin1Char("xyz"[a]));
        addCombo(tr("Bend axis"), axes, std::max<int>(0, axes.indexOf(axisName)), [this, axes](int i) {
            editMonitor([&](Monitor& x) { x.extra["bend_axis"] = axes[i].toStdString(); });
        });
    }
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
