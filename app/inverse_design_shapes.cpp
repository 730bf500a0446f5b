// GoLightly IDE, Inverse Design dock: the shape-parameter table and the runs of a design of shape parameters.
#include "inverse_design_dock.hpp"
#include "run_progress.hpp"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string_view>

#include "canvas.hpp"
#include "design_region.hpp"
#include "qcustomplot_include.hpp"

#include "golightly/colormap.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/gds.hpp"
#include "golightly/project.hpp"
#include "golightly/units.hpp"

#include "inverse_design_internal.hpp"

namespace golightly::app {

namespace fs = std::filesystem;
using editor::design_region;

using namespace inverse_design_detail;

namespace {
/// A number as typed: in the user's locale (0,25 in German) or with a decimal point.
std::optional<double> typedNumber(const QString& text) {
    bool ok = false;
    double v = QLocale().toDouble(text.trimmed(), &ok);
    if (!ok) v = QLocale::c().toDouble(text.trimmed(), &ok);
    if (!ok || !std::isfinite(v)) return std::nullopt;
    return v;
}
QString shownNumber(double v) { return QLocale().toString(v, 'g', 10); }
}  // namespace

void InverseDesignDock::rebuildShapeParameters(const Project& p, bool region) {
    const Json list = editor::shape_parameters(p);
    shapeProblems_ = editor::shape_parameter_problems(p, fileLabel(), true);
    const QSignalBlocker block(shapes_);
    shapes_->setRowCount(int(list.size()));
    for (int r = 0; r < int(list.size()); ++r) {
        const Json e = list[size_t(r)].is_object() ? list[size_t(r)] : Json::object();
        const QString name = e.contains("name") && e["name"].is_string() ? qs(e["name"].get<std::string>()) : QString();
        auto* combo = new QComboBox;
        combo->setObjectName(QStringLiteral("shapeParameterName"));
        for (const Parameter& par : p.parameters)
            combo->addItem(QStringLiteral("%1 = %2").arg(qs(par.name), shownNumber(par.value)), qs(par.name));
        if (combo->findData(name) < 0) combo->addItem(name, name);  // a parameter deleted since: kept, marked
        combo->setCurrentIndex(combo->findData(name));
        connect(combo, &QComboBox::activated, this, [this, r](int) { applyShapeRow(r); });
        shapes_->setCellWidget(r, 0, combo);
        const char* keys[3] = {"min", "max", "step"};
        for (int c = 1; c <= 3; ++c) {
            auto* field = new QLineEdit;
            field->setObjectName(QStringLiteral("shapeParameter") + QLatin1String(c == 1 ? "Min" : c == 2 ? "Max" : "Step"));
            const char* key = keys[c - 1];
            if (e.contains(key) && e[key].is_number()) field->setText(shownNumber(e[key].get<double>()));
            else if (e.contains(key)) field->setText(QString::fromStdString(e[key].dump()));  // shown as the file has it
            if (c == 3) field->setPlaceholderText(tr("default"));
            connect(field, &QLineEdit::editingFinished, this, [this, r] { applyShapeRow(r); });
            shapes_->setCellWidget(r, c, field);
        }
        // (the table makes the row of a field taking the focus current: Remove parameter
        // removes it)
        markShapeRow(r, shapeProblems_[size_t(r)]);
    }
    // as tall as its rows (at least two), so that the note under it stays in view
    const int shown = std::max(2, shapes_->rowCount());
    int rowsHeight = 0;
    for (int r = 0; r < shapes_->rowCount(); ++r) rowsHeight += shapes_->rowHeight(r);
    rowsHeight += (shown - shapes_->rowCount()) * shapes_->verticalHeader()->defaultSectionSize();
    shapes_->setFixedHeight(shapes_->horizontalHeader()->sizeHint().height() + rowsHeight + 2 * shapes_->frameWidth() + 2);
    // a density design: the note says why there is no table (one kind of variable)
    shapeBox_->setEnabled(!region);
    shapes_->setVisible(!region);
    addShape_->setVisible(!region);
    removeShape_->setVisible(!region);
    const Json next = editor::new_shape_parameter(p);
    addShape_->setEnabled(!region && !next.is_null());
    removeShape_->setEnabled(!region && !list.empty());
    QStringList problems;
    for (const QString& m : shapeProblems_)
        if (!m.isEmpty()) problems << m;
    QString note;
    if (region)
        note = tr("This design optimizes the density of its design region. A design has one kind of variable: delete "
                  "the design region to optimize shape parameters instead.");
    else if (!problems.isEmpty())
        note = problems.join(QLatin1Char('\n'));
    else if (p.parameters.empty())
        note = tr("Shape parameters are project parameters (widths, positions, ...: Parameters dock) that the optimizer "
                  "moves within [min, max]. Add a parameter in the Parameters dock first.");
    else if (!list.empty())
        note = tr("Each parameter starts from its value now (shown beside its name).");
    else
        note = tr("Shape parameters are project parameters (widths, positions, ...) that the optimizer moves within "
                  "[min, max], from their values now.");
    shapeNote_->setText(note);
    shapeNote_->setStyleSheet(!region && !problems.isEmpty() ? QStringLiteral("QLabel { color: #b00020; }") : QString());
}

void InverseDesignDock::markShapeRow(int row, const QString& problem) {
    if (row < 0 || row >= shapes_->rowCount()) return;
    if (size_t(row) >= shapeProblems_.size()) shapeProblems_.resize(size_t(row) + 1);
    shapeProblems_[size_t(row)] = problem;
    for (int c = 0; c < 4; ++c) {
        QWidget* w = shapes_->cellWidget(row, c);
        if (!w) continue;
        w->setProperty("invalid", !problem.isEmpty());
        w->setStyleSheet(problem.isEmpty() ? QString()
                                           : QStringLiteral("%1 { background: #ffd9d9; color: #8a0000; border: 1px solid #d00000; }")
                                                 .arg(QLatin1String(w->metaObject()->className())));
        w->setToolTip(problem);
    }
}

QString InverseDesignDock::shapeRowProblem(int row) const {
    return row >= 0 && size_t(row) < shapeProblems_.size() && row < shapes_->rowCount() ? shapeProblems_[size_t(row)] : QString();
}

QString InverseDesignDock::shapeNote() const { return shapeNote_->text(); }

bool InverseDesignDock::applyShapeRow(int row) {
    const Project& p = doc_->project();
    Json list = editor::shape_parameters(p);
    if (row < 0 || row >= int(list.size()) || row >= shapes_->rowCount() || design_region(p)) return false;
    Json e = list[size_t(row)].is_object() ? list[size_t(row)] : Json::object();
    auto* combo = qobject_cast<QComboBox*>(shapes_->cellWidget(row, 0));
    if (combo && combo->currentIndex() >= 0) e["name"] = combo->currentData().toString().toStdString();
    const char* keys[3] = {"min", "max", "step"};
    const QString columns[3] = {tr("Min"), tr("Max"), tr("Step")};
    for (int c = 1; c <= 3; ++c) {
        auto* field = qobject_cast<QLineEdit*>(shapes_->cellWidget(row, c));
        if (!field) continue;
        const QString text = field->text().trimmed();
        if (c == 3 && text.isEmpty()) {
            e.erase("step");  // the reader's default
            continue;
        }
        const auto v = typedNumber(text);
        if (!v) {
            const QString problem = tr("Not applied: %1: \"%2\" is not a number").arg(columns[c - 1], text);
            markShapeRow(row, problem);
            setStatus(problem, true);
            return false;
        }
        // a number shown rounded (10 digits) and not retyped keeps the file's value
        if (e.contains(keys[c - 1]) && e[keys[c - 1]].is_number() && shownNumber(e[keys[c - 1]].get<double>()) == text) continue;
        e[keys[c - 1]] = *v;
    }
    if (e == list[size_t(row)]) {
        // nothing changed (focus left a field): the row shows the project's verdict again
        const auto problems = editor::shape_parameter_problems(p, fileLabel(), true);
        markShapeRow(row, size_t(row) < problems.size() ? problems[size_t(row)] : QString());
        return false;
    }
    list[size_t(row)] = e;
    QString problem;
    if (!commitDesign(tr("Edit shape parameter"), [&](Project& q) { editor::set_shape_parameters(q, list); }, &problem)) {
        // kept as typed, to be corrected (with the other fields of the row: max first, then min)
        markShapeRow(row, tr("Not applied: %1").arg(problem));
        return false;
    }
    return true;
}

bool InverseDesignDock::addShapeParameter() {
    const Project& p = doc_->project();
    if (design_region(p)) {
        setStatus(tr("This design optimizes the density of its design region: a design has one kind of variable."), true);
        return false;
    }
    const Json next = editor::new_shape_parameter(p);
    if (next.is_null()) {
        setStatus(p.parameters.empty() ? tr("The project has no parameters: add one in the Parameters dock first.")
                                       : tr("Every parameter of the project is listed already."),
                  true);
        return false;
    }
    Json list = editor::shape_parameters(p);
    list.push_back(next);
    return commitDesign(tr("Add shape parameter"), [&](Project& q) { editor::set_shape_parameters(q, list); });
}

bool InverseDesignDock::removeShapeParameter(int row) {
    Json list = editor::shape_parameters(doc_->project());
    if (row < 0 || row >= int(list.size()) || design_region(doc_->project())) return false;
    list.erase(size_t(row));
    const bool removed =
        commitDesign(tr("Remove shape parameter"), [&](Project& q) { editor::set_shape_parameters(q, list); });
    if (removed && list.empty())
        setStatus(tr("The last shape parameter is removed, and with it the design (Edit > Undo brings it back)."));
    return removed;
}

bool InverseDesignDock::editShapeParameter(int row, int column, const QString& text) {
    if (row < 0 || row >= shapes_->rowCount() || column < 0 || column > 3) return false;
    if (column == 0) {
        auto* combo = qobject_cast<QComboBox*>(shapes_->cellWidget(row, 0));
        const int i = combo ? combo->findData(text) : -1;
        if (i < 0) return false;
        combo->setCurrentIndex(i);
    } else if (auto* field = qobject_cast<QLineEdit*>(shapes_->cellWidget(row, column))) {
        field->setText(text);
    }
    return applyShapeRow(row);
}

// ---------------------------------------------------------------- running

namespace {
/// The project without design.optimizer.max_iterations: what Resume compares (raising Max
/// iterations while paused keeps the problem, and its checkpoint, as it was).
Project withoutIterationBudget(Project p) {
    auto it = p.extra.find("design");
    if (it != p.extra.end() && it->is_object() && it->contains("optimizer") && (*it)["optimizer"].is_object())
        (*it)["optimizer"].erase("max_iterations");
    return p;
}
}  // namespace

bool InverseDesignDock::launchShapes(bool fresh, const Project& snapshot, const std::string& label,
                                     const fs::path& projectDir, const fs::path& out) {
    const fs::path checkpoint = out / "checkpoint.json";
    // Resume: the same problem when the project is as the run left it (its checkpoint is
    // then replayed, exactly); after another edit the checkpoint is of another problem, so
    // the optimizer starts again from the values now
    std::shared_ptr<const adjoint::ShapeProblem> again;
    if (!fresh && shapeProblem_ && !editedDuringRun_ &&
        withoutIterationBudget(snapshot) == withoutIterationBudget(lastPushed_))
        again = shapeProblem_;
    editedDuringRun_ = false;
    if (!again) {
        std::error_code ec;
        fs::remove(checkpoint, ec);
        shapeOffset_ = nextIteration_;
        shapeProblem_.reset();
    }
    const int iterations = totalIterations_ - nextIteration_;
    pauseFlag_ = std::make_shared<std::atomic<bool>>(false);
    stopRequested_ = false;
    clock_.start();
    if (fresh) setStatus(tr("Starting: compiling the project and the normalization run..."));
    else if (again) setStatus(tr("Resuming from iteration %1...").arg(nextIteration_));
    else
        setStatus(tr("The project was edited since the run started: the optimizer starts again from the parameters' "
                     "values now (the iteration numbering goes on; the optimizer's memory of the earlier steps does "
                     "not)..."));
    if (!fresh && !again) lastPushed_ = snapshot;
    const int threads = threads_, offset = shapeOffset_;
    const auto pauseFlag = pauseFlag_;
    const bool started = job_.start([snapshot, label, projectDir, checkpoint, iterations, threads, pauseFlag, out, again,
                                     offset](Job::Context& ctx) {
        std::shared_ptr<adjoint::ShapeProblem> sp;
        if (again) {
            sp = std::make_shared<adjoint::ShapeProblem>(*again);
        } else {
            adjoint::ProjectProblemOptions o;
            o.threads = threads;
            o.cancel = ctx.cancelFlag();
            o.on_progress = [&ctx](const char* run, long long steps) {
                if (std::string_view(run) == "normalization") ctx.post([steps](News& n) { n.normalizationSteps = steps; });
            };
            try {
                sp = std::make_shared<adjoint::ShapeProblem>(
                    adjoint::shape_problem_from_project(snapshot, label, projectDir, o));
            } catch (const adjoint::Cancelled&) {
                Result cancelled;
                cancelled.stop = "cancelled";
                cancelled.cancelledInNormalization = true;
                return cancelled;
            }
        }
        sp->options.on_progress = {};  // the iterations' runs: no per-chunk news
        sp->options.cancel = ctx.cancelFlag();  // Pause and Stop end the run under way within a chunk of steps
        // the field picture: each new evaluation's fields over the box around the shapes
        // (ShapeFields' view), at the objective's first wavelength (the one the user named
        // first, else the only one)
        const double wavelength_um = !sp->spec.objective.wavelengths_um.empty() ? sp->spec.objective.wavelengths_um[0]
                                     : !sp->wavelengths_um.empty()            ? sp->wavelengths_um[0]
                                                                               : 0.0;
        sp->on_fields = [&ctx, wavelength_um](const adjoint::ShapeFields& f) {
            auto slice = shapeFieldSlice(f, wavelength_um);
            ctx.post([&](News& n) { n.fields = std::move(slice); });
        };
        ctx.post([&sp](News& n) {
            n.wavelengths_um = sp->wavelengths_um;
            n.shapeNames = sp->names;
            n.shapeLo = sp->lo;
            n.shapeHi = sp->hi;
            n.shapeP0 = sp->p0;
            n.stage = QStringLiteral("iterating");
        });
        // history.csv with the CLI's columns (docs/spec/cli.md "optimize --adjoint", shape
        // parameters); a resumed run appends to the rows it has
        std::string header = "iteration,objective,gradient_norm,steps,wall_s";
        for (const auto& n : sp->names) header += "," + n;
        for (const auto& n : sp->names) header += ",dF/d" + n;
        for (double w : sp->wavelengths_um) {
            char buf[48];
            std::snprintf(buf, sizeof buf, ",objective@%.6g", w);
            header += buf;
        }
        std::string text;
        {
            std::ifstream in(out / "history.csv");
            std::string line;
            if (offset > 0 || again)
                if (std::getline(in, line) && line == header) {  // the same columns: the rows go on
                    text = line + "\n";
                    while (std::getline(in, line))
                        if (!line.empty()) text += line + "\n";
                }
            if (text.empty()) text = header + "\n";
        }
        const auto on_iteration = [&](const adjoint::ShapeIteration& it) {
            if (it.replayed) return true;  // shown and written by the call that made it
            const int index = offset + it.index;
            char buf[160];
            std::snprintf(buf, sizeof buf, "%d,%.17g,%.17g,%lld,%.6g", index, it.objective, it.gradient_norm, it.steps,
                          it.wall_s);
            text += buf;
            for (const std::vector<double>* v : {&it.p, &it.gradient, &it.objective_per_frequency})
                for (double x : *v) {
                    std::snprintf(buf, sizeof buf, ",%.17g", x);
                    text += buf;
                }
            text += "\n";
            std::ofstream(out / "history.csv", std::ios::trunc) << text;
            ctx.post([&](News& n) {
                n.points.push_back({index, 0.0, it.objective, it.gradient_norm, it.wall_s, it.objective_per_frequency, it.p});
            });
            return !ctx.cancelled() && !pauseFlag->load();
        };
        const adjoint::ShapeOptimizeResult r = adjoint::optimize_shape(*sp, iterations, on_iteration, checkpoint);
        // the problem outlives this job (Resume): nothing of the job's context in it
        sp->options.cancel = nullptr;
        sp->options.on_progress = {};
        sp->on_fields = {};
        Result result;
        result.stop = r.stop;
        result.next_iteration = offset + int(r.history.size());
        result.shape = sp;
        if (!r.history.empty()) {
            result.best_p = r.p;
            result.best_objective = r.objective;
        }
        return result;
    }, QStringLiteral("golightly-adjoint-shape"));
    if (!started) return false;
    setState(State::Running);
    return true;
}

void InverseDesignDock::pushShapeValues(const std::vector<double>& p) {
    if (p.size() != shapeNames_.size() || p.empty()) return;
    try {
        const Project after = adjoint::project_at(doc_->project(), shapeNames_, p, fileLabel());
        pushing_ = true;
        doc_->replaceProjectInSession(after, tr("Optimize shape parameters"), undoSession_);
        pushing_ = false;
        lastPushed_ = doc_->project();
    } catch (const std::exception& e) {
        // e.g. a parameter deleted during the run: the optimization goes on, the project
        // is not changed
        setStatus(tr("The parameter values could not be set in the project: %1").arg(qs(e.what())), true);
    }
}

QString InverseDesignDock::shapeValuesText() const {
    QStringList lines;
    for (std::size_t k = 0; k < shapeNames_.size() && k < shapeValues_.size(); ++k) {
        QString line = QStringLiteral("%1 = %2").arg(qs(shapeNames_[k]), QString::number(shapeValues_[k], 'g', 6));
        if (k < shapeLo_.size() && k < shapeHi_.size())
            line += QStringLiteral("  [%1, %2]").arg(QString::number(shapeLo_[k], 'g', 6), QString::number(shapeHi_[k], 'g', 6));
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

void InverseDesignDock::showShapeValues() {
    densityLabel_->setPixmap(QPixmap());
    densityLabel_->setText(shapeValuesText());
    densityLabel_->setToolTip(tr("The shape parameters' values of the last iteration (after the run: the best ones "
                                 "found) and their bounds [min, max]; the project holds them (Edit > Undo gives back "
                                 "the values before the run)"));
}

}  // namespace golightly::app
