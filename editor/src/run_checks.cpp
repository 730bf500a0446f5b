#include "run_checks.hpp"

#include <QLocale>
#include <QRegularExpression>

#include <cmath>

#include "editor_document.hpp"
#include "golightly/errors.hpp"
#include "golightly/reference_structure.hpp"

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
    out << reference_warnings(p);
    return out;
}

bool offers_normalization(const Project& p) {
    if (p.run.normalization.enabled) return false;
    for (const Monitor& m : p.monitors)
        if (m.type == MonitorType::Flux && (m.kind == "transmission" || m.kind == "reflection")) return true;
    return false;
}

QString set_up_normalization(EditorDocument* doc) {
    // The reference structure by the solver's rule (reference_structure.hpp), in the same
    // undo step as the switch: reference-only layers, then the input guide derived under
    // each mode source that has none in them.
    ReferenceSetup setup;
    QString failure;
    doc->editProject(RunChecks::tr("Set up normalization"), [&](Project& pr) {
        pr.run.normalization.enabled = true;
        try {
            setup = complete_reference_structure(pr);
        } catch (const std::exception& e) {  // a shape the coverage refuses: the run names it
            failure = QString::fromUtf8(e.what());
        }
    });
    QStringList names, added, unguided;
    for (const auto& r : doc->project().run.normalization.reference_layers) names << qs(r);
    for (const auto& a : setup.added_layers) added << qs(a);
    for (const auto& u : setup.unguided_sources) unguided << QStringLiteral("\"%1\"").arg(qs(u));
    QString text = names.isEmpty()
                       ? RunChecks::tr("Normalization on: the reference run has the source in the empty background; "
                                       "spectra are shown as T and R from the next run.")
                       : RunChecks::tr("Normalization on: the reference run uses the layers %1; spectra are shown as "
                                       "T and R from the next run.")
                             .arg(names.join(QStringLiteral(", ")));
    if (!added.isEmpty())
        text += QLatin1Char(' ') +
                RunChecks::tr("Added the reference-only layers %1: the input waveguide under each mode source, "
                              "extended through the domain (edit or delete them in the Layers dock).")
                    .arg(added.join(QStringLiteral(", ")));
    if (!unguided.isEmpty())
        text += QLatin1Char(' ') + RunChecks::tr("No waveguide under the mode sources %1 to derive a reference from.")
                                       .arg(unguided.join(QStringLiteral(", ")));
    if (!failure.isEmpty()) text += QLatin1Char(' ') + failure;
    return text;
}

QStringList reference_warnings(const Project& p) {
    QStringList out;
    if (!p.run.normalization.enabled) return out;
    for (std::size_t i = 0; i < p.sources.size(); ++i) {
        SourceSection sec;
        try {
            if (!mode_source_section(p, i, sec) || section_has_guide(p, sec, true)) continue;
        } catch (const std::exception&) {
            continue;  // run_problems reports the shape
        }
        const QString axis = QString(QLatin1Char("xyz"[sec.axis]));
        out << (p.run.normalization.reference_layers.empty()
                    ? RunChecks::tr("The reference (normalization) run has no guide under the mode source \"%1\" "
                                    "(%2 = %3 \u00b5m): the run derives the input waveguide for it; untick and tick "
                                    "Normalize to add it as a reference-only layer you can see and edit.")
                    : RunChecks::tr("The reference (normalization) run has no guide under the mode source \"%1\" "
                                    "(%2 = %3 \u00b5m), so it will fail: add a reference-only layer with the input "
                                    "waveguide and tick it under Reference layers, or untick every reference layer "
                                    "and switch Normalize off and on to derive it."))
                   .arg(qs(p.sources[i].name), axis, QLocale().toString(sec.position_um, 'g', 4));
    }
    return out;
}

}  // namespace golightly::editor
