// GoLightly IDE, Inverse Design dock: Start, Resume, Pause and Stop of a density design, and the news of a running job.
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

bool InverseDesignDock::start() { return launch(true); }

bool InverseDesignDock::resume() {
    if (state_ != State::Paused) {
        setStatus(tr("Nothing to resume: Pause a running optimization first."), true);
        return false;
    }
    return launch(false);
}

bool InverseDesignDock::launch(bool fresh) {
    if (job_.isRunning()) {
        setStatus(tr("The optimization is running already."), true);
        return false;
    }
    const Project snapshot = doc_->project();
    const bool shapes = !design_region(snapshot) && editor::has_shape_parameters(snapshot);
    if (!design_region(snapshot) && !shapes) {
        setStatus(tr("The project has no design: draw a design region with Tools > Design Region, or add shape "
                     "parameters."),
                  true);
        return false;
    }
    if (!fresh && shapes != shapeRun_) {
        setStatus(tr("The design changed its kind (density region or shape parameters) since the run paused: Start "
                     "afresh."),
                  true);
        return false;
    }
    if (outDir_.isEmpty()) {
        setStatus(tr("No output folder for the checkpoint."), true);
        return false;
    }
    const QString file = doc_->filePath();
    const std::string label = (file.isEmpty() ? doc_->displayName() : file).toStdString();
    const fs::path projectDir = file.isEmpty() ? fs::current_path() : fs::absolute(fs::path(file.toStdString())).parent_path();
    const fs::path out = outDir_.toStdString();
    const fs::path checkpoint = out / "checkpoint.json";
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec) {
        setStatus(tr("Cannot create the folder %1: %2").arg(QDir::toNativeSeparators(outDir_), qs(ec.message())), true);
        return false;
    }
    const Json* d = designSection(snapshot);
    const int planned = d && d->contains("optimizer") && (*d)["optimizer"].is_object() &&
                                (*d)["optimizer"].contains("max_iterations") && (*d)["optimizer"]["max_iterations"].is_number_integer()
                            ? (*d)["optimizer"]["max_iterations"].get<int>()
                            : 50;
    if (fresh) {
        fs::remove(checkpoint, ec);
        fs::remove(out / "history.csv", ec);
        clearPlot();
        betaSteps_.clear();
        lastBeta_ = 0;
        nextIteration_ = 0;
        sessionIterations_ = 0;
        wallSum_ = 0;
        density_ = QImage();
        densityLabel_->clear();
        fields_.reset();
        showFields();
        if (canvas_) canvas_->setDesignDensity(QImage());
        iteration_->clear();
        shapeRun_ = shapes;
        shapeProblem_.reset();
        shapeNames_.clear();
        shapeValues_.clear();
        shapeOffset_ = 0;
        if (shapes) {
            static std::uint64_t sessions = 0;  // one undo step per session: its own key
            undoSession_ = ++sessions;
            lastPushed_ = snapshot;
            last_.reset();  // a density design of an earlier run is not this design's
        }
        showFields();  // the field picture's note follows the kind of design
    }
    totalIterations_ = planned;
    const int iterations = totalIterations_ - nextIteration_;
    if (iterations < 1) {
        setStatus(tr("All %n iteration(s) are done: raise Max iterations to go on.", nullptr, totalIterations_), true);
        setState(State::Paused);
        return false;
    }
    if (shapes) return launchShapes(fresh, snapshot, label, projectDir, out);
    pixels_ = editor::design_pixels(snapshot);
    pauseFlag_ = std::make_shared<std::atomic<bool>>(false);
    stopRequested_ = false;
    clock_.start();
    setStatus(fresh ? tr("Starting: compiling the project and the normalization run...")
                    : tr("Resuming from iteration %1...").arg(nextIteration_));
    const int threads = threads_;
    const auto pauseFlag = pauseFlag_;
    const bool started = job_.start([snapshot, label, projectDir, checkpoint, iterations, threads, pauseFlag,
                                     out](Job::Context& ctx) {
        adjoint::ProjectProblemOptions o;
        o.threads = threads;
        // Pause and Stop end the normalization run too (within a chunk of steps); its
        // progress goes to the status line
        o.cancel = ctx.cancelFlag();
        o.on_progress = [&ctx](const char* run, long long steps) {
            if (std::string_view(run) == "normalization") ctx.post([steps](News& n) { n.normalizationSteps = steps; });
        };
        std::shared_ptr<adjoint::ProjectProblem> pp;
        try {
            pp = std::make_shared<adjoint::ProjectProblem>(adjoint::problem_from_project(snapshot, label, projectDir, o));
        } catch (const adjoint::Cancelled&) {
            Result cancelled;
            cancelled.stop = "cancelled";
            cancelled.cancelledInNormalization = true;
            return cancelled;
        }
        pp->problem.settings.on_progress = {};  // the iterations' runs: no per-chunk news
        ctx.post([wl = pp->wavelengths_um](News& n) { n.wavelengths_um = wl; });
        pp->settings.checkpoint = checkpoint;
        pp->settings.max_iterations = iterations;
        // Pause and Stop end the run under way within a chunk of steps
        pp->problem.settings.cancel = ctx.cancelFlag();
        // the objective's first wavelength (the one the user named first, else the only one)
        const double wavelength_um = !pp->spec.objective.wavelengths_um.empty() ? pp->spec.objective.wavelengths_um[0]
                                     : !pp->wavelengths_um.empty()            ? pp->wavelengths_um[0]
                                                                               : 0.0;
        const Scene* scene = &pp->problem.scene;
        pp->problem.settings.on_fields = [&ctx, scene, wavelength_um](const adjoint::DesignFields& f) {
            auto slice = fieldSlice(f, *scene, wavelength_um);
            ctx.post([&](News& n) { n.fields = std::move(slice); });
        };
        ctx.post([](News& n) { n.stage = QStringLiteral("iterating"); });
        // history.csv as the CLI writes it (a resumed run appends), its per-wavelength columns included
        std::string header = kHistoryHeader;
        for (double w : pp->wavelengths_um) {
            char buf[48];
            std::snprintf(buf, sizeof buf, ",objective@%.6g", w);
            header += buf;
        }
        const auto on_iteration = [&](const adjoint::Iteration& it) {
            {
                std::ofstream h(out / "history.csv", std::ios::app);
                if (h.tellp() == 0) h << header << "\n";
                h << it.index << "," << it.beta << "," << it.objective << "," << it.gradient_norm << "," << it.wall_s;
                for (double v : it.objective_per_frequency) h << "," << v;
                h << "\n";
            }
            ctx.post([&](News& n) {
                n.points.push_back({it.index, it.beta, it.objective, it.gradient_norm, it.wall_s, it.objective_per_frequency, {}});
                n.rho_projected = it.rho_projected;
                n.hasRho = true;
            });
            return !ctx.cancelled() && !pauseFlag->load();
        };
        const adjoint::OptimizeResult r = adjoint::optimize_density(pp->problem, pp->rho0, pp->settings, on_iteration);
        // the problem outlives this job (export, apply): nothing of the job's context in it
        pp->problem.settings.cancel = nullptr;
        pp->problem.settings.on_fields = {};
        adjoint::write_density_csv(out / "density.csv", pp->problem.region, pp->spec.regions[0].pixel_um, r.rho,
                                   r.rho_projected);
        Result result;
        result.rho = r.rho;
        result.rho_projected = r.rho_projected;
        result.stop = r.stop;
        result.next_iteration = r.history.empty() ? r.first_iteration : r.history.back().index + 1;
        result.problem = pp;
        return result;
    }, QStringLiteral("golightly-adjoint"));
    if (!started) return false;
    setState(State::Running);
    return true;
}

void InverseDesignDock::pause() {
    if (!job_.isRunning() || state_ != State::Running) return;
    if (pauseFlag_) pauseFlag_->store(true);
    job_.cancel();  // the runs under way end within a chunk of steps
    setStatus(tr("Pausing..."));
    setState(State::Pausing);
}

void InverseDesignDock::stop() {
    if (!job_.isRunning()) {
        if (state_ == State::Paused) {  // a paused run ends: no resume
            setStatus(tr("Stopped at iteration %1.").arg(nextIteration_));
            setState(State::Finished);
        }
        return;
    }
    stopRequested_ = true;
    job_.cancel();  // the runs under way end within a chunk of steps
    setStatus(tr("Stopping..."));
    setState(State::Stopping);
}

void InverseDesignDock::takeNews(News& news) {
    if (!news.wavelengths_um.empty()) setCurveWavelengths(news.wavelengths_um);
    if (!news.shapeNames.empty()) {
        shapeNames_ = news.shapeNames;
        shapeLo_ = news.shapeLo;
        shapeHi_ = news.shapeHi;
        if (shapeValues_.size() != shapeNames_.size()) shapeValues_ = news.shapeP0;
        showShapeValues();
    }
    if (news.normalizationSteps >= 0 && news.stage.isEmpty() && (state_ == State::Running))
        setStatus(tr("Normalization run (the input power for the start design): %1 steps...").arg(news.normalizationSteps));
    if (news.stage == QLatin1String("iterating") && state_ == State::Running && sessionIterations_ == 0)
        setStatus(tr("Iterating: forward and adjoint runs..."));
    for (const Point& pt : news.points) {
        if (lastBeta_ > 0 && pt.beta != lastBeta_) {
            betaSteps_.push_back(pt.index);
            auto* line = new QCPItemStraightLine(plot_);
            line->point1->setCoords(pt.index - 0.5, 0);
            line->point2->setCoords(pt.index - 0.5, 1);
            line->setPen(QPen(QColor(160, 90, 20), 1, Qt::DashLine));
            auto* text = new QCPItemText(plot_);
            text->position->setTypeX(QCPItemPosition::ptPlotCoords);
            text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);  // near the top of the plot
            // left of the line: the newest points, at the right edge, leave no room there
            text->position->setCoords(pt.index - 0.6, 0.03);
            text->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
            text->setText(QStringLiteral("β %1").arg(pt.beta, 0, 'g', 4));
            text->setColor(QColor(160, 90, 20));
        }
        lastBeta_ = pt.beta;
        plot_->graph(0)->addData(pt.index, pt.objective);
        if (pt.per_wavelength.size() == curveWavelengths_.size())
            for (std::size_t k = 0; k < pt.per_wavelength.size(); ++k)
                plot_->graph(int(k) + 1)->addData(pt.index, pt.per_wavelength[k]);
        nextIteration_ = pt.index + 1;
        ++sessionIterations_;
        wallSum_ += pt.wall_s;
        const int left = std::max(0, totalIterations_ - nextIteration_);
        const double perIteration = wallSum_ / sessionIterations_;
        if (shapeRun_) {
            shapeValues_ = pt.p;
            QStringList values;
            for (std::size_t k = 0; k < shapeNames_.size() && k < pt.p.size(); ++k)
                values << QStringLiteral("%1 = %2").arg(qs(shapeNames_[k]), QString::number(pt.p[k], 'g', 6));
            iteration_->setText(tr("Iteration %1 of %2: figure of merit %3 at %4, |grad| %5; %6 s per iteration, ETA %7")
                                    .arg(pt.index + 1)
                                    .arg(totalIterations_)
                                    .arg(pt.objective, 0, 'g', 6)
                                    .arg(values.join(QStringLiteral(", ")))
                                    .arg(pt.gradient_norm, 0, 'g', 4)
                                    .arg(perIteration, 0, 'g', 3)
                                    .arg(formatEta(perIteration * left)));
            continue;
        }
        iteration_->setText(tr("Iteration %1 of %2: figure of merit %3, beta %4, |grad| %5; %6 s per iteration, ETA %7")
                                .arg(pt.index + 1)
                                .arg(totalIterations_)
                                .arg(pt.objective, 0, 'g', 6)
                                .arg(pt.beta, 0, 'g', 4)
                                .arg(pt.gradient_norm, 0, 'g', 4)
                                .arg(perIteration, 0, 'g', 3)
                                .arg(formatEta(perIteration * left)));
    }
    if (!news.points.empty()) {
        plot_->rescaleAxes();
        plot_->xAxis->setRange(std::min(-0.5, plot_->xAxis->range().lower - 0.5), plot_->xAxis->range().upper + 0.5);
        const QCPRange y = plot_->yAxis->range();
        // the padding follows the values' scale: an objective that is not normalized (a
        // point's |E|^2 in DFT units) may be 1e-29, so no absolute floor; one point (no
        // span): 8 % of its value, or 1 at 0
        const double span = y.upper - y.lower, scale = std::max(std::abs(y.lower), std::abs(y.upper));
        const double pad = span > 1e-9 * scale ? 0.08 * span : scale > 0 ? 0.08 * scale : 1.0;
        plot_->yAxis->setRange(y.lower - pad, y.upper + pad);
        plot_->replot();
    }
    if (shapeRun_ && !news.points.empty()) {
        // the project follows the evaluated values (the canvas redraws the structure)
        pushShapeValues(shapeValues_);
        showShapeValues();
    }
    if (news.hasRho) showDensity(news.rho_projected);
    if (news.fields) {
        fields_ = std::move(news.fields);
        showFields();
    }
}

void InverseDesignDock::jobFinished(editor::JobOutcome<Result>& outcome) {
    const double wall = clock_.elapsed() / 1000.0;
    if (!outcome.ok()) {
        setStatus(tr("The optimization failed: %1").arg(outcome.error), true);
        // a paused run whose resume failed may be resumed again after a fix
        setState(nextIteration_ > 0 ? State::Paused : State::Idle);
        Q_EMIT finished(status_->text());
        return;
    }
    if (outcome.result->cancelledInNormalization) {
        // Stop or Pause during the normalization run: no iteration made, the design (if a
        // paused run left one) as it was
        if (stopRequested_) {
            setStatus(tr("Stopped during the normalization run, before iteration %1.").arg(nextIteration_));
            setState(State::Finished);
        } else if (pauseFlag_ && pauseFlag_->load()) {
            setStatus(tr("Paused during the normalization run, before iteration %1: edit the project if needed, "
                         "then Resume.")
                          .arg(nextIteration_));
            setState(State::Paused);
        } else {
            setStatus(tr("Cancelled during the normalization run."));
            setState(last_ ? State::Finished : State::Idle);
        }
        Q_EMIT finished(status_->text());
        return;
    }
    if (outcome.result->shape) {
        const Result& r = *outcome.result;
        shapeProblem_ = r.shape;
        nextIteration_ = r.next_iteration;
        if (!r.best_p.empty()) {
            // the best values found (NLopt's optimum, as the CLI's final.glproj), in the
            // session's undo step
            shapeValues_ = r.best_p;
            pushShapeValues(r.best_p);
            showShapeValues();
        }
        QStringList values;
        for (std::size_t k = 0; k < shapeNames_.size() && k < r.best_p.size(); ++k)
            values << QStringLiteral("%1 = %2").arg(qs(shapeNames_[k]), QString::number(r.best_p[k], 'g', 6));
        const QString best = values.join(QStringLiteral(", "));
        if (stopRequested_) {
            setStatus(tr("Stopped after iteration %1 (%2); the parameters hold the best values found (%3, figure of merit "
                         "%4); Edit > Undo gives back the values before the run.")
                          .arg(nextIteration_)
                          .arg(formatEta(wall), best)
                          .arg(r.best_objective, 0, 'g', 6));
            setState(State::Finished);
        } else if (pauseFlag_ && pauseFlag_->load()) {
            setStatus(tr("Paused after iteration %1: the parameters hold the best values so far (%2); edit the project if "
                         "needed, then Resume.")
                          .arg(nextIteration_)
                          .arg(best));
            setState(State::Paused);
        } else {
            setStatus(tr("Done: %n iteration(s) (%1); the best figure of merit %2 at %3, now the parameters' values "
                         "(Edit > Undo gives back the values before the run).",
                         nullptr, nextIteration_)
                          .arg(qs(r.stop))
                          .arg(r.best_objective, 0, 'g', 6)
                          .arg(best));
            setState(State::Finished);
        }
        Q_EMIT finished(status_->text());
        return;
    }
    last_ = std::make_shared<const Result>(std::move(*outcome.result));
    nextIteration_ = last_->next_iteration;
    showDensity(last_->rho_projected);
    const QString folder = QDir::toNativeSeparators(outDir_);
    if (stopRequested_) {
        setStatus(tr("Stopped after iteration %1 (%2); the design is in %3.").arg(nextIteration_).arg(formatEta(wall)).arg(folder));
        setState(State::Finished);
    } else if (pauseFlag_ && pauseFlag_->load()) {
        setStatus(tr("Paused after iteration %1: edit the project if needed, then Resume.").arg(nextIteration_));
        setState(State::Paused);
    } else {
        setStatus(tr("Done: %n iteration(s) (%1); the design is in %2.", nullptr, nextIteration_)
                      .arg(qs(last_->stop), folder));
        setState(State::Finished);
    }
    Q_EMIT finished(status_->text());
}

}  // namespace golightly::app
