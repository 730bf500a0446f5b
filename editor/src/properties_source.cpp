// GoLightly editor: the Properties rows of a selected source (PropertiesDock::sourceRows):
// position per type, profile, direction, component and waveform.
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

void PropertiesDock::sourceRows(const Project& p, const ItemRef& sel) {
    const QString um = tr(" µm");
    const QStringList directions = directionNames(2);
    const QStringList directions3 = directionNames(3);
    const QStringList components = componentNames();
    const bool three = p.domain.dimensions == 3;
    const Source s = p.sources[size_t(sel.index)];
    itemTitle_ = tr("source \"%1\"").arg(qs(s.name));
    addText(tr("Name"), qs(s.name), [this](const QString& t) {
        if (!t.trimmed().isEmpty()) editSource([t](Source& x) { x.name = t.trimmed().toStdString(); });
    });
    const QString sourceTypes[] = {tr("point"), tr("line"), tr("region"), tr("plane"), tr("TF/SF box")};
    addInfo(tr("Type"), sourceTypes[std::clamp(int(s.type), 0, 4)]);
    if (s.type == SourceType::Point) vecFields(tr("At"), s.at, [this](Vec2 v) { editSource([v](Source& x) { x.at = v; }); });
    if (s.type == SourceType::Point && three)
        zField(tr("At"), s.at_z.value_or(0), [this](double z) { editSource([z](Source& x) { x.at_z = z; }); });
    if (s.type == SourceType::Plane) {
        // the plane's normal (one undo step: the size and direction turn with it,
        // dimensions.hpp set_plane_normal): how planes normal to z are made
        addCombo(tr("Normal"), {QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z")},
                 std::max(0, plane_normal(s.size)), [this](int i) { editSource([i](Source& x) { set_plane_normal(x, i); }); });
        vec3Fields(tr("Centre"), s.center, [this](Vec3 v) { editSource([v](Source& x) { x.center = v; }); });
        vec3Fields(tr("Size"), s.size, [this](Vec3 v) { editSource([v](Source& x) { x.size = v; }); },
                   [](int, double v) { return v >= 0 ? QString() : tr("must be 0 (the normal) or more"); });
    }
    if (s.type == SourceType::Tfsf) {
        vec3Fields(tr("Min"), s.box_min, [this](Vec3 v) { editSource([v](Source& x) { x.box_min = v; }); },
                   minRule(s.box_max, three ? 3 : 2));
        vec3Fields(tr("Max"), s.box_max, [this](Vec3 v) { editSource([v](Source& x) { x.box_max = v; }); },
                   maxRule(s.box_min, three ? 3 : 2));
        addCombo(tr("Direction"), directions3, std::max<int>(0, directions3.indexOf(qs(s.direction))),
                 [this, directions3](int i) { editSource([&](Source& x) { x.direction = directions3[i].toStdString(); }); });
    }
    if (s.type == SourceType::Line || s.type == SourceType::Plane) {
        if (s.type == SourceType::Line) {
            vecFields(tr("From"), s.from, [this](Vec2 v) { editSource([v](Source& x) { x.from = v; }); });
            vecFields(tr("To"), s.to, [this](Vec2 v) { editSource([v](Source& x) { x.to = v; }); });
        }
        addCombo(tr("Profile"), {tr("uniform"), tr("gaussian"), tr("mode")}, int(s.profile),
                 [this](int i) { editSource([i](Source& x) { x.profile = SourceProfile(i); }); });
        const QStringList dirs = s.type == SourceType::Plane ? directions3 : directions;
        if (s.profile == SourceProfile::Mode) {
            addCombo(tr("Direction"), dirs, std::max<int>(0, dirs.indexOf(qs(s.direction))),
                     [this, dirs](int i) { editSource([&](Source& x) { x.direction = dirs[i].toStdString(); }); });
        } else {
            // uniform / gaussian: two-way, or one-way along `direction` (kept in extra,
            // project.hpp one_way_direction)
            QStringList items{tr("two-way")};
            items << dirs;
            const int cur = std::max<int>(0, int(items.indexOf(qs(one_way_direction(s)))));
            addCombo(tr("Direction"), items, cur, [this, dirs](int i) {
                editSource([&](Source& x) {
                    if (i <= 0) x.extra.erase("direction");
                    else x.extra["direction"] = dirs[i - 1].toStdString();
                });
            });
        }
        if (s.profile == SourceProfile::Gaussian)
            addDouble(tr("Waist"), s.waist, um, [this](double w) { editSource([w](Source& x) { x.waist = w; }); }, positive);
        if (s.profile == SourceProfile::Mode) {
            auto* spin = addDouble(tr("Mode index"), s.mode_index, QString(), [this](double m) {
                editSource([m](Source& x) { x.mode_index = std::max(0, int(std::lround(m))); });
            });
            spin->setDecimals(0);
            spin->setRange(0, 100);
        }
    }
    addCombo(tr("Component"), components, int(s.component),
             [this](int i) { editSource([i](Source& x) { x.component = Component(i); }); });
    addDouble(tr("Amplitude"), s.amplitude, QString(), [this](double a) { editSource([a](Source& x) { x.amplitude = a; }); });
    addDouble(tr("Phase"), s.phase_deg, tr(" deg"), [this](double ph) { editSource([ph](Source& x) { x.phase_deg = ph; }); });
    addCombo(tr("Waveform"), {tr("Gaussian pulse"), tr("CW")}, int(s.waveform.type),
             [this](int i) { editSource([i](Source& x) { x.waveform.type = WaveformType(i); }); });
    if (s.waveform.type == WaveformType::GaussianPulse) {
        addDouble(tr("Centre wavelength"), s.waveform.wavelength_center, um,
                  [this](double w) { editSource([w](Source& x) { x.waveform.wavelength_center = w; }); }, positive);
        addDouble(tr("Wavelength span"), s.waveform.wavelength_span, um,
                  [this](double w) { editSource([w](Source& x) { x.waveform.wavelength_span = w; }); },
                  [center = s.waveform.wavelength_center](double w) {
                      if (!(w > 0)) return tr("must be greater than 0");
                      return w < 2 * center ? QString()
                                            : tr("must be less than twice the centre wavelength (%1)").arg(2 * center, 0, 'g', 6);
                  });
    } else {
        addDouble(tr("Wavelength"), s.waveform.wavelength, um,
                  [this](double w) { editSource([w](Source& x) { x.waveform.wavelength = w; }); }, positive);
    }
}

}  // namespace golightly::editor
