// GoLightly editor: the Properties rows of a selected shape (PropertiesDock::shapeRows).
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>

#include <algorithm>
#include <cmath>

#include "dimensions.hpp"
#include "dock_util.hpp"
#include "properties_dock.hpp"
#include "ports.hpp"

namespace golightly::editor {

void PropertiesDock::shapeRows(const Project& p, const ItemRef& sel) {
    const QString um = tr(" µm");
    const Shape s = p.layers[size_t(sel.layer)].shapes[size_t(sel.index)];
    const QString shapeNames[] = {tr("rectangle"), tr("polygon"), tr("ellipse"), tr("ring"),
                                  tr("waveguide path"), tr("bitmap"), tr("STEP solid"), tr("sphere"), tr("box")};
    const auto typeIndex = size_t(s.type);
    addInfo(tr("Shape"), typeIndex < std::size(shapeNames) ? shapeNames[typeIndex] : qs(to_string(s.type)));
    itemTitle_ = tr("%1 in layer \"%2\"").arg(typeIndex < std::size(shapeNames) ? shapeNames[typeIndex] : qs(to_string(s.type)),
                                               qs(p.layers[size_t(sel.layer)].name));
    addInfo(tr("Layer"), qs(p.layers[size_t(sel.layer)].name));
    switch (s.type) {
    case ShapeType::Rectangle:
        vecFields(tr("Min"), s.min, [this](Vec2 v) { editShape([v](Shape& x) { x.min = v; }); }, minRule(v3(s.max), 2));
        vecFields(tr("Max"), s.max, [this](Vec2 v) { editShape([v](Shape& x) { x.max = v; }); }, maxRule(v3(s.min), 2));
        addDouble(tr("Rotation"), s.rotation_deg, tr(" deg"), [this](double d) { editShape([d](Shape& x) { x.rotation_deg = d; }); });
        break;
    case ShapeType::Ellipse:
        vecFields(tr("Centre"), s.center, [this](Vec2 v) { editShape([v](Shape& x) { x.center = v; }); });
        addDouble(tr("Radius x"), s.radii.x, um, [this](double r) { editShape([r](Shape& x) { x.radii.x = r; }); }, positive);
        addDouble(tr("Radius y"), s.radii.y, um, [this](double r) { editShape([r](Shape& x) { x.radii.y = r; }); }, positive);
        addDouble(tr("Rotation"), s.rotation_deg, tr(" deg"), [this](double d) { editShape([d](Shape& x) { x.rotation_deg = d; }); });
        break;
    case ShapeType::Ring:
        vecFields(tr("Centre"), s.center, [this](Vec2 v) { editShape([v](Shape& x) { x.center = v; }); });
        addDouble(tr("Inner radius"), s.inner_radius, um, [this](double r) { editShape([r](Shape& x) { x.inner_radius = r; }); },
                  [outer = s.outer_radius](double r) {
                      if (!(r >= 0)) return tr("must be 0 or more");
                      return r < outer ? QString() : tr("must be less than the outer radius (%1)").arg(outer, 0, 'g', 6);
                  });
        addDouble(tr("Outer radius"), s.outer_radius, um, [this](double r) { editShape([r](Shape& x) { x.outer_radius = r; }); },
                  [inner = s.inner_radius](double r) {
                      if (!(r > 0)) return tr("must be greater than 0");
                      return r > inner ? QString() : tr("must be greater than the inner radius (%1)").arg(inner, 0, 'g', 6);
                  });
        break;
    case ShapeType::Path:
        addDouble(tr("Width"), s.width, um, [this](double w) { editShape([w](Shape& x) { x.width = w; }); }, positive);
        addDouble(tr("Bend radius"), s.bend_radius.value_or(0), um, [this](double r) {
            editShape([r](Shape& x) {
                if (r > 0) x.bend_radius = r;
                else x.bend_radius.reset();
            });
        }, [](double r) { return r >= 0 ? QString() : tr("must be 0 (sharp corners) or more"); });
        [[fallthrough]];
    case ShapeType::Polygon:
        for (int i = 0; i < int(s.points.size()); ++i)
            vecFields(tr("Point %1").arg(i + 1), s.points[size_t(i)],
                      [this, i](Vec2 v) { editShape([v, i](Shape& x) { if (i < int(x.points.size())) x.points[size_t(i)] = v; }); });
        break;
    case ShapeType::Raster:
        vecFields(tr("Origin"), s.origin, [this](Vec2 v) { editShape([v](Shape& x) { x.origin = v; }); });
        addInfo(tr("Pixel size"), QStringLiteral("%1 µm").arg(s.pixel_size, 0, 'g', 6));
        addInfo(tr("Pixels"), QStringLiteral("%1 x %2").arg(s.width_px).arg(s.height_px));
        break;
    case ShapeType::Sphere:
        vec3Fields(tr("Centre"), s.center_3d, [this](Vec3 v) { editShape([v](Shape& x) { x.center_3d = v; }); });
        addDouble(tr("Radius"), s.radius, um, [this](double r) { editShape([r](Shape& x) { x.radius = r; }); }, positive);
        break;
    case ShapeType::Box:
        vec3Fields(tr("Min"), s.box_min, [this](Vec3 v) { editShape([v](Shape& x) { x.box_min = v; }); }, minRule(s.box_max));
        vec3Fields(tr("Max"), s.box_max, [this](Vec3 v) { editShape([v](Shape& x) { x.box_max = v; }); }, maxRule(s.box_min));
        break;
    case ShapeType::Gds: {  // gds_import_dialog.hpp
        addInfo(tr("File"), qs(s.file_name));
        addInfo(tr("Cell"), s.gds_cell.empty() ? tr("(top cell)") : qs(s.gds_cell));
        addInfo(tr("GDS layer"), QStringLiteral("%1/%2").arg(s.gds_layer[0]).arg(s.gds_layer[1]));
        for (int a = 0; a < 2; ++a)
            addDouble(tr("Translate %1").arg(QLatin1String(a ? "y" : "x")), s.translate[size_t(a)], um,
                      [this, a](double v) { editShape([v, a](Shape& x) { x.translate[size_t(a)] = v; }); });
        addDouble(tr("Rotation"), s.rotation_deg, tr(" deg"),
                  [this](double v) { editShape([v](Shape& x) { x.rotation_deg = v; }); });
        break;
    }
    case ShapeType::Step: {
        addInfo(tr("File"), qs(s.file_name));
        addInfo(tr("Solids"), s.solids.empty() ? tr("all") : QString::number(s.solids.size()));
        auto* scale = addDouble(tr("Unit scale"), s.scale, tr(" µm/unit"), [this](double v) {
            editShape([v](Shape& x) { x.scale = v; });
        }, positive);
        scale->setRange(1e-6, 1e9);
        scale->setDecimals(6);
        const char* axes[3] = {"x", "y", "z"};
        for (int a = 0; a < 3; ++a)
            addDouble(tr("Translate %1").arg(QLatin1String(axes[a])), s.translate[size_t(a)], um,
                      [this, a](double v) { editShape([v, a](Shape& x) { x.translate[size_t(a)] = v; }); });
        for (int a = 0; a < 3; ++a)
            addDouble(tr("Rotate %1").arg(QLatin1String(axes[a])), s.rotate_deg[size_t(a)], tr(" deg"),
                      [this, a](double v) { editShape([v, a](Shape& x) { x.rotate_deg[size_t(a)] = v; }); });
        auto* reimport = new QPushButton(tr("Re-import..."));
        reimport->setObjectName(QStringLiteral("stepReimport"));
        reimport->setToolTip(tr("Replace the embedded STEP file, keeping placement, layers and materials"));
        connect(reimport, &QPushButton::clicked, this, [this, sel] { Q_EMIT reimportStepRequested(sel); });
        form_->addRow(QString(), reimport);
        break;
    }
    }
}

}  // namespace golightly::editor
