#include "run_checks.hpp"

#include <QRegularExpression>

#include <cmath>

#include "editor_document.hpp"
#include "golightly/errors.hpp"

namespace golightly::editor {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

/// "layers[1].shapes[0].width" -> "layer "waveguide", shape 1: width".
QString describe_path(const Project& p, const std::string& path) {
    QString text = qs(path);
    auto index = [&](const QString& key) -> int {
        const int at = text.indexOf(key + QLatin1Char('['));
        if (at < 0) return -1;
        const int end = text.indexOf(QLatin1Char(']'), at);
        return text.mid(at + key.size() + 1, end - at - key.size() - 1).toInt();
    };
    QStringList where;
    QString field = text.section(QLatin1Char('.'), -1);
    const int layer = index(QStringLiteral("layers"));
    if (layer >= 0 && layer < int(p.layers.size())) {
        where << RunChecks::tr("layer \"%1\"").arg(qs(p.layers[size_t(layer)].name));
        const int shape = index(QStringLiteral("shapes"));
        if (shape >= 0) where << RunChecks::tr("shape %1").arg(shape + 1);
    }
    const int src = index(QStringLiteral("sources"));
    if (src >= 0 && src < int(p.sources.size())) where << RunChecks::tr("source \"%1\"").arg(qs(p.sources[size_t(src)].name));
    const int mon = index(QStringLiteral("monitors"));
    if (mon >= 0 && mon < int(p.monitors.size()))
        where << RunChecks::tr("monitor \"%1\"").arg(qs(p.monitors[size_t(mon)].name));
    const int mat = index(QStringLiteral("materials"));
    if (mat >= 0 && mat < int(p.materials.size())) where << RunChecks::tr("material \"%1\"").arg(qs(p.materials[size_t(mat)].id));
    if (where.isEmpty()) return text;  // domain.*, run.*: the path is the clearest name
    field.remove(QRegularExpression(QStringLiteral("\\[\\d+\\]$")));
    return where.join(QStringLiteral(", ")) + QStringLiteral(": ") + field;
}

/// The axis (0 x, 1 y) and sign of a direction "+x".."-y".
bool axis_of(const std::string& d, int& axis, double& sign) {
    if (d.size() != 2 || (d[0] != '+' && d[0] != '-') || (d[1] != 'x' && d[1] != 'y')) return false;
    axis = d[1] == 'x' ? 0 : 1;
    sign = d[0] == '+' ? 1.0 : -1.0;
    return true;
}
double coord(const Vec2& v, int axis) { return axis == 0 ? v.x : v.y; }
}  // namespace

QStringList run_problems(const Project& project) {
    QStringList out;
    try {
        validate_project(project, "");
        check_runnable(project, "");
    } catch (const ProjectError& e) {
        out << RunChecks::tr("%1: %2").arg(describe_path(project, e.json_path()), qs(e.message()));
    } catch (const std::exception& e) {
        out << qs(e.what());
    }
    return out;
}

QStringList setup_warnings(const Project& p) {
    QStringList out;
    for (const Monitor& m : p.monitors) {
        if (m.type != MonitorType::Flux || m.kind != "reflection") continue;
        const double mx = 0.5 * (m.from.x + m.to.x), my = 0.5 * (m.from.y + m.to.y);
        for (const Source& s : p.sources) {
            if (s.type != SourceType::Line) continue;
            int axis = 0;
            double sign = 1;
            if (!axis_of(s.direction, axis, sign)) continue;
            // a line source across the direction: compare positions along it
            const double sPos = 0.5 * (coord(s.from, axis) + coord(s.to, axis));
            const double mPos = axis == 0 ? mx : my;
            if ((mPos - sPos) * sign < 0) {
                out << RunChecks::tr("The reflection monitor \"%1\" is behind the source \"%2\" (which sends its wave "
                                     "towards %3): it sees the source's backward wave instead of the light reflected "
                                     "by the device. Move it between the source and the device.")
                           .arg(qs(m.name), qs(s.name), qs(s.direction));
                break;
            }
        }
    }
    return out;
}

bool offers_normalization(const Project& p) {
    if (p.run.normalization.enabled) return false;
    for (const Monitor& m : p.monitors)
        if (m.type == MonitorType::Flux && (m.kind == "transmission" || m.kind == "reflection")) return true;
    return false;
}

QString set_up_normalization(EditorDocument* doc) {
    const Project& p = doc->project();
    std::vector<std::string> refs;
    for (const Layer& l : p.layers)
        if (l.reference_only) refs.push_back(l.name);
    doc->editProject(RunChecks::tr("Set up normalization"), [&](Project& pr) {
        pr.run.normalization.enabled = true;
        if (pr.run.normalization.reference_layers.empty()) pr.run.normalization.reference_layers = refs;
    });
    const auto& n = doc->project().run.normalization;
    QStringList names;
    for (const auto& r : n.reference_layers) names << qs(r);
    return names.isEmpty()
               ? RunChecks::tr("Normalization on: the reference run has the source in the empty background; "
                               "spectra are shown as T and R from the next run.")
               : RunChecks::tr("Normalization on: the reference run uses the layers %1; spectra are shown as T and R "
                               "from the next run.")
                     .arg(names.join(QStringLiteral(", ")));
}

}  // namespace golightly::editor
