// GoLightly editor: the canvas's sources, monitors and ports (canvas.hpp): dipoles,
// lines with direction arrows, footprints of 3D planes, boxes and regions, each named.

#include "canvas.hpp"
#include "canvas_internal.hpp"
#include "dimensions.hpp"
#include "ports.hpp"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace golightly::editor {

namespace {
const QColor kSourceColor(220, 40, 40);
const QColor kFluxColor(30, 110, 230);
const QColor kTimeColor(20, 160, 60);
const QColor kPortColor(0, 140, 150);

/// Arrow head at `tip` pointing along `dir` (screen coordinates).
void draw_arrow(QPainter& p, QPointF from, QPointF tip, const QColor& c) {
    p.setPen(QPen(c, 2));
    p.drawLine(from, tip);
    const QPointF d = tip - from;
    const double len = std::hypot(d.x(), d.y());
    if (len < 1e-9) return;
    const QPointF u = d / len, n(-u.y(), u.x());
    QPolygonF head;
    head << tip << tip - 9 * u + 5 * n << tip - 9 * u - 5 * n;
    p.setBrush(c);
    p.drawPolygon(head);
    p.setBrush(Qt::NoBrush);
}

QPointF direction_vector(const std::string& dir) {
    if (dir == "-x") return {-1, 0};
    if (dir == "+y") return {0, 1};
    if (dir == "-y") return {0, -1};
    return {1, 0};
}

}  // namespace

/// A point dipole of `component` at screen point `c` (the xy editor's view, y up): Ex / Hx an
/// arrow along +x, Ey / Hy along +y (up), Ez / Hz out of the screen (a circled dot, the
/// arrow's tip seen head-on). Electric dipoles have a filled head and a solid shaft, magnetic
/// ones an open head and a dashed shaft; a small disc marks the position.
void draw_dipole(QPainter& p, QPointF c, Component component, const QColor& colour) {
    p.save();
    const int axis = int(component) % 3;
    const bool magnetic = int(component) >= 3;
    const QColor fill(colour.red(), colour.green(), colour.blue(), 70);
    if (axis == 2) {
        p.setPen(QPen(colour, 2, magnetic ? Qt::DashLine : Qt::SolidLine));
        p.setBrush(fill);
        p.drawEllipse(c, 7, 7);
        p.setPen(Qt::NoPen);
        p.setBrush(magnetic ? QBrush(Qt::white) : QBrush(colour));
        p.drawEllipse(c, 2.6, 2.6);
        if (magnetic) {
            p.setPen(QPen(colour, 1.2));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(c, 2.6, 2.6);
        }
    } else {
        const QPointF u = axis == 0 ? QPointF(1, 0) : QPointF(0, -1), n(-u.y(), u.x());
        const QPointF tail = c - 11 * u, tip = c + 11 * u;
        p.setPen(QPen(colour, 2, magnetic ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap));
        p.drawLine(tail, tip - 6 * u);
        QPolygonF head;
        head << tip << tip - 8 * u + 4.5 * n << tip - 8 * u - 4.5 * n;
        p.setPen(QPen(colour, 1.5));
        p.setBrush(magnetic ? QBrush(Qt::white) : QBrush(colour));
        p.drawPolygon(head);
        p.setPen(Qt::NoPen);
        p.setBrush(colour);
        p.drawEllipse(c, 2.2, 2.2);
    }
    p.restore();
}

namespace {

/// An item's name to draw beside it: `at` the item's anchor (device pixels), `below`: under
/// it (a line's lower end), else above.
struct PendingLabel {
    QPointF at;
    QString text;
    QColor colour;
    bool below = false;
    bool selected = false;
};

QFont labelFont(const QFont& base) {
    QFont f = base;
    f.setPointSizeF(8.5);
    f.setBold(true);
    return f;
}

/// Draws the labels so that none covers another (nested monitors and sources name their
/// boxes at the same corner): each at its place (moved left to end inside the picture),
/// else moved down or up by whole label heights (two at most, inside the picture), else
/// left out, as map labels are (the item is still there; zoom
/// in or select it). The selected item's label is placed first, so it is never the one left
/// out. Returns the drawn labels' texts and rectangles (device pixels).
std::vector<std::pair<QString, QRectF>> draw_labels(QPainter& p, std::vector<PendingLabel> labels) {
    std::stable_partition(labels.begin(), labels.end(), [](const PendingLabel& l) { return l.selected; });
    p.setFont(labelFont(p.font()));
    // inside the picture (a thumbnail's edge would cut a name moved up or down)
    const QRectF bounds = p.device() ? QRectF(0, 0, p.device()->width(), p.device()->height()) : QRectF();
    std::vector<std::pair<QString, QRectF>> placed;
    for (const PendingLabel& l : labels) {
        if (l.text.isEmpty()) continue;
        const QRectF r = p.fontMetrics().boundingRect(l.text).adjusted(-3, -1, 3, 1);
        QRectF home(l.at + QPointF(6, l.below ? 4 : -r.height() - 4), r.size());
        if (!bounds.isEmpty() && home.right() > bounds.right()) home.moveRight(std::max(bounds.left(), bounds.right()));
        if (!bounds.isEmpty() && home.left() < bounds.left()) home.moveLeft(bounds.left());
        const double step = r.height() + 1;
        const double shifts[] = {0, l.below ? step : -step, l.below ? -step : step, l.below ? 2 * step : -2 * step,
                                 l.below ? -2 * step : 2 * step};
        for (double dy : shifts) {
            const QRectF box = home.translated(0, dy);
            // a shifted name stays in the picture; the name at its own place may be cut (as before)
            if (dy != 0 && !bounds.isEmpty() && (box.top() < bounds.top() || box.bottom() > bounds.bottom())) continue;
            const bool free = std::none_of(placed.begin(), placed.end(), [&](const auto& q) { return q.second.intersects(box); });
            if (!free) continue;
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(255, 255, 255, 210));
            p.drawRoundedRect(box, 3, 3);
            p.setPen(l.colour);
            p.drawText(box, Qt::AlignCenter, l.text);
            placed.emplace_back(l.text, box);
            break;
        }
    }
    p.setBrush(Qt::NoBrush);
    return placed;
}
}  // namespace

void Canvas::drawSourcesMonitors(QPainter& p, const QTransform& w2d, double s) {
    const Project& pr = doc_->project();
    const ItemRef sel = doc_->selection();
    p.save();
    p.setTransform(QTransform());
    std::vector<PendingLabel> labels;
    auto offsetFor = [&](ItemRef::Kind k, int i) {
        return (sel.kind == k && sel.index == i) ? previewOffset_ : QPointF();
    };
    for (int i = 0; i < int(pr.sources.size()); ++i) {
        const Source& src = pr.sources[size_t(i)];
        const QPointF off = offsetFor(ItemRef::Kind::Source, i);
        auto m = [&](const Vec2& v) { return w2d.map(qp(v) + off); };
        QString name = QString::fromStdString(src.name);
        QPointF labelAt;
        bool labelBelow = false;
        if (src.type == SourceType::Point) {
            const QPointF c = m(src.at);
            draw_dipole(p, c, src.component, kSourceColor);
            labelAt = c + QPointF(8, -6);
            name += QStringLiteral(" (%1)").arg(QLatin1String(component_name(src.component)));
        } else if (src.type == SourceType::Line) {
            const QPointF a = m(src.from), b = m(src.to);
            p.setPen(QPen(kSourceColor, 3, Qt::SolidLine, Qt::RoundCap));
            p.drawLine(a, b);
            if (src.profile == SourceProfile::Mode) {  // one-way source: arrow along its direction
                const QPointF mid = (a + b) / 2, dv = direction_vector(src.direction);
                draw_arrow(p, mid, mid + QPointF(dv.x(), -dv.y()) * 26, kSourceColor);
            }
            labelAt = a.y() > b.y() ? a : b;
            labelBelow = true;
        } else if (src.type == SourceType::Plane) {  // 3D: the footprint, z extent in the inspector
            Vec2 fa, fb;
            if (plane_footprint(src.center, src.size, fa, fb)) {
                const QPointF a = m(fa), b = m(fb);
                p.setPen(QPen(kSourceColor, 3, Qt::SolidLine, Qt::RoundCap));
                p.drawLine(a, b);
                labelAt = a.y() > b.y() ? a : b;
                labelBelow = true;
            } else {
                const QRectF r = QRectF(m(fa), m(fb)).normalized();
                p.setPen(QPen(kSourceColor, 2));
                p.setBrush(QBrush(kSourceColor, Qt::Dense6Pattern));
                p.drawRect(r);
                labelAt = r.topLeft();
            }
            const std::string dir = one_way_direction(src);
            if (!dir.empty() && dir[1] != 'z') {
                const QPointF mid = (m(fa) + m(fb)) / 2, dv = direction_vector(dir);
                draw_arrow(p, mid, mid + QPointF(dv.x(), -dv.y()) * 26, kSourceColor);
            }
        } else if (src.type == SourceType::Tfsf) {
            const QRectF r = QRectF(m({src.box_min.x, src.box_min.y}), m({src.box_max.x, src.box_max.y})).normalized();
            p.setPen(QPen(kSourceColor, 2, Qt::DashDotLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r);
            if (src.direction.size() == 2 && src.direction[1] != 'z') {
                const QPointF dv = direction_vector(src.direction);
                draw_arrow(p, r.center(), r.center() + QPointF(dv.x(), -dv.y()) * 26, kSourceColor);
            }
            labelAt = r.topLeft();
        } else if (src.type == SourceType::Region && src.shape) {
            const QPainterPath path = (QTransform::fromTranslate(off.x(), off.y()) * w2d).map(shape_painter_path(*src.shape, 0.4 / s));
            p.setPen(QPen(kSourceColor, 1.5));
            p.setBrush(QBrush(kSourceColor, Qt::Dense5Pattern));
            p.drawPath(path);
            labelAt = path.boundingRect().topLeft();
        }
        labels.push_back({labelAt, name, kSourceColor, labelBelow, sel.kind == ItemRef::Kind::Source && sel.index == i});
    }
    for (int i = 0; i < int(pr.monitors.size()); ++i) {
        const Monitor& mon = pr.monitors[size_t(i)];
        const QPointF off = offsetFor(ItemRef::Kind::Monitor, i);
        auto m = [&](const Vec2& v) { return w2d.map(qp(v) + off); };
        const QString name = QString::fromStdString(mon.name);
        QPointF labelAt;
        QColor c = mon.type == MonitorType::Time       ? kTimeColor
                   : mon.type == MonitorType::DftField ? QColor(150, 60, 200)
                                                       : kFluxColor;
        Vec2 flA = mon.from, flB = mon.to;
        const bool xyPlane = mon.type == MonitorType::Flux && mon.size != Vec3{} && !plane_footprint(mon.center, mon.size, flA, flB);
        if (xyPlane) {  // a flux plane normal to z: its rectangle
            const QRectF r = QRectF(m(flA), m(flB)).normalized();
            p.setPen(QPen(c, 2.5, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r);
            labelAt = r.topLeft();
        } else if (mon.type == MonitorType::Flux) {
            const QPointF a = m(flA), b = m(flB);
            p.setPen(QPen(c, 2.5, Qt::DashLine, Qt::FlatCap));
            p.drawLine(a, b);
            const QPointF mid = (a + b) / 2, dv = direction_vector(mon.direction);
            draw_arrow(p, mid, mid + QPointF(dv.x(), -dv.y()) * 22, c);
            labelAt = a.y() < b.y() ? a : b;
        } else if (mon.type == MonitorType::Time && mon.at) {
            const QPointF a = m(*mon.at);
            QPolygonF diamond;
            diamond << a + QPointF(0, -7) << a + QPointF(7, 0) << a + QPointF(0, 7) << a + QPointF(-7, 0);
            p.setPen(QPen(c.darker(130), 1.5));
            p.setBrush(c);
            p.drawPolygon(diamond);
            labelAt = a;
        } else if (mon.type == MonitorType::Time && mon.shape) {
            const QPainterPath path =
                (QTransform::fromTranslate(off.x(), off.y()) * w2d).map(shape_painter_path(*mon.shape, 0.4 / s));
            p.setPen(QPen(c, 1.5));
            p.setBrush(QBrush(c, Qt::Dense6Pattern));
            p.drawPath(path);
            labelAt = path.boundingRect().topLeft();
        } else if (mon.min && mon.max) {
            const QRectF r = QRectF(m(*mon.min), m(*mon.max)).normalized();
            p.setPen(QPen(c, 2, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r);
            labelAt = r.topLeft() + QPointF(0, 14);
        }
        p.setBrush(Qt::NoBrush);
        labels.push_back({labelAt, name, c, false, sel.kind == ItemRef::Kind::Monitor && sel.index == i});
    }
    // ports: a line (2D, or a 3D plane normal to x or y) or the footprint rectangle (a 3D
    // plane normal to z), an arrow along the direction (into the device), the name
    for (int i = 0; i < port_count(pr); ++i) {
        const auto d = port_at(pr, i);
        if (!d) continue;
        const QPointF off = offsetFor(ItemRef::Kind::Port, i);
        auto m = [&](const Vec2& v) { return w2d.map(qp(v) + off); };
        Vec2 fa, fb;
        QPointF labelAt;
        if (port_footprint(*d, fa, fb)) {
            const QPointF a = m(fa), b = m(fb);
            p.setPen(QPen(kPortColor, 3.5, Qt::SolidLine, Qt::FlatCap));
            p.drawLine(a, b);
            p.setPen(QPen(kPortColor, 1.5));  // end ticks: a port, not a flux line
            const QPointF t = b - a;
            const double len = std::hypot(t.x(), t.y());
            if (len > 1e-9) {
                const QPointF n = QPointF(-t.y(), t.x()) / len * 6;
                p.drawLine(a - n, a + n);
                p.drawLine(b - n, b + n);
            }
            labelAt = a.y() < b.y() ? a : b;
        } else {
            const QRectF r = QRectF(m(fa), m(fb)).normalized();
            p.setPen(QPen(kPortColor, 2.5));
            p.setBrush(QBrush(kPortColor, Qt::BDiagPattern));
            p.drawRect(r);
            p.setBrush(Qt::NoBrush);
            labelAt = r.topLeft();
        }
        if (d->direction.size() == 2 && d->direction[1] != 'z') {
            const QPointF mid = (m(fa) + m(fb)) / 2, dv = direction_vector(d->direction);
            draw_arrow(p, mid, mid + QPointF(dv.x(), -dv.y()) * 24, kPortColor);
        }
        labels.push_back({labelAt, tr("port %1").arg(QString::fromStdString(d->name)), kPortColor, false,
                          sel.kind == ItemRef::Kind::Port && sel.index == i});
    }
    // the names last, over every marker, placed so that none covers another
    drawnLabels_ = draw_labels(p, std::move(labels));
    p.restore();
}

}  // namespace golightly::editor
