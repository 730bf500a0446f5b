#include "run_controller.hpp"

#include <QDir>

#include <chrono>
#include <filesystem>

#include "golightly/compile.hpp"
#include "golightly/errors.hpp"
#include "golightly/results.hpp"

namespace golightly::app {

RunController::RunController(QObject* parent) : QObject(parent) {
    qRegisterMetaType<golightly::ProgressInfo>();
    qRegisterMetaType<golightly::app::EnergyPoint>();
    drainTimer_.setInterval(40);  // GUI side: 25 polls a second, each a few copies
    connect(&drainTimer_, &QTimer::timeout, this, &RunController::drain);
}

RunController::~RunController() {
    if (thread_) {
        cancel_ = true;
        pause_ = false;
        thread_->wait();
        delete thread_;
        thread_ = nullptr;
    }
}

QString RunController::currentPhase() const {
    if (!box_) return {};
    std::lock_guard<std::mutex> lock(box_->mutex);
    return QString::fromStdString(box_->phase);
}

bool RunController::start(const Project& snapshot, const QString& projectLabel, const QString& resultsDir,
                          const SolverSettings& settings) {
    if (thread_) return false;
    cancel_ = false;
    pause_ = false;
    pauseReported_ = false;
    steps_ = 0;
    frameNs_ = 0;
    interopFrames_ = 0;
    frames_.clear();
    framesAtStart_ = frames_.published();
    resultsDir_ = resultsDir;
    result_.reset();
    box_ = std::make_shared<Mailbox>();
    quantity_.store(int(viewport::default_quantity(snapshot.domain.polarization)));

    auto box = box_;
    const std::string label = projectLabel.toStdString();
    const std::filesystem::path out = resultsDir.toStdString();
    thread_ = QThread::create([this, box, project = snapshot, label, out, settings] {
        std::shared_ptr<Scene> scene;
        try {
            // The structure under the field (the run compiles again inside run_project).
            CompiledProject cp = compile_project(project, label);
            scene = std::make_shared<Scene>(std::move(cp.scene));
            auto img = viewport::make_structure_image(*scene);
            {
                std::lock_guard<std::mutex> lock(box->mutex);
                box->structure = std::move(img);
            }
            RunOptions opts;
            opts.backend = settings.backend;
            opts.threads = settings.threads;
            opts.cancel = &cancel_;
            opts.pause = &pause_;
            opts.progress = [this, box, pauseAt = settings.pauseAtMainTimeFs,
                             pausedOnce = false](const ProgressInfo& p) mutable {
                steps_.store(p.step);
                if (pauseAt >= 0 && !pausedOnce && p.phase == "main" && p.time_fs >= pauseAt) {
                    pausedOnce = true;
                    pause_ = true;  // the driver holds before its next chunk
                }
                std::lock_guard<std::mutex> lock(box->mutex);
                box->progress = p;
                box->phase = p.phase;
                box->energy.push_back({QString::fromStdString(p.phase), p.time_fs, p.energy_db});
            };
            opts.live_every_steps = settings.liveEverySteps;
            opts.live = [box](const LiveMonitors& live) {
                auto copy = std::make_shared<const LiveMonitors>(live);
                std::lock_guard<std::mutex> lock(box->mutex);
                box->live = std::move(copy);
            };
            if (settings.framesPerSecond > 0) {
                opts.frame_min_interval_s = 1.0 / settings.framesPerSecond;
                const int maxSize = settings.maxFrameSize;
                auto scratch = std::make_shared<std::vector<double>>();
                // Budget: frames may take at most 5 % of the solver thread's time; on big grids
                // (get_field copies the whole component) the rate drops below the chosen one.
                auto lastEnd = std::make_shared<std::chrono::steady_clock::time_point>();
                auto lastCost = std::make_shared<double>(0.0);
                auto interop = settings.interop;
                opts.frame_hook = [this, scene, maxSize, scratch, lastEnd, lastCost, interop](Engine& engine, std::int64_t,
                                                                                            double) {
                    const auto t0 = std::chrono::steady_clock::now();
                    if (*lastCost > 0 && std::chrono::duration<double>(t0 - *lastEnd).count() < 19.0 * *lastCost)
                        return;
                    try {
                        auto q = viewport::FieldQuantity(quantity_.load());
                        bool done = false;
                        // CUDA-OpenGL interop: the device renders the colour-mapped frame into
                        // the view's exchange; only the frame's geometry goes through the mailbox.
                        if (interop && interop->enabled() && q != viewport::FieldQuantity::E2 &&
                            engine.backend() == "cuda") {
                            try {
                                Engine::FrameRequest req;
                                req.component = Component(int(q));
                                req.max_width = req.max_height = maxSize;
                                req.scale = frameScale_.load();
                                req.viewport_alpha = true;
                                if (interop->publish(engine, req)) {
                                    auto fr = std::make_shared<viewport::FieldFrame>(
                                        viewport::field_frame_geometry(engine, *scene, q, maxSize, maxSize));
                                    fr->on_device = true;
                                    fr->scale = req.scale;
                                    frames_.publish(std::move(fr));
                                    ++interopFrames_;
                                    done = true;
                                }
                            } catch (const RunError&) {
                                interop->set_enabled(false);  // host frames from now on
                            }
                        }
                        if (!done) {
                            auto fr = std::make_shared<viewport::FieldFrame>(
                                viewport::make_field_frame(engine, *scene, q, maxSize, maxSize, *scratch));
                            frames_.publish(std::move(fr));
                        }
                    } catch (const std::invalid_argument&) {
                        // the polarization lacks the component: no frame
                    }
                    *lastEnd = std::chrono::steady_clock::now();
                    *lastCost = std::chrono::duration<double>(*lastEnd - t0).count();
                    frameNs_ += std::chrono::duration_cast<std::chrono::nanoseconds>(*lastEnd - t0).count();
                };
            }
            auto result = std::make_shared<RunResult>(run_project(project, label, opts));
            std::vector<std::string> writerWarnings = write_results(out, project, *result);
            result->warnings.insert(result->warnings.end(), writerWarnings.begin(), writerWarnings.end());
            QString msg;
            if (result->stop_reason == StopReason::Diverged) {
                if (result->divergence) {
                    const auto& d = *result->divergence;
                    msg = QObject::tr("The fields diverged in the %1 run at step %2 (%3 fs) near x = %4 um, "
                                      "y = %5 um (%6). Check the Courant number and the materials.")
                              .arg(QString::fromStdString(d.phase))
                              .arg(d.step)
                              .arg(d.time_fs, 0, 'f', 2)
                              .arg(d.x_um, 0, 'g', 4)
                              .arg(d.y_um, 0, 'g', 4)
                              .arg(QString::fromStdString(to_string(d.component)));
                } else {
                    msg = QObject::tr("The fields diverged.");
                }
            } else if (result->stop_reason == StopReason::Cancelled) {
                msg = QObject::tr("Run stopped after %1 steps; partial results written.").arg(result->steps);
            } else {
                msg = QObject::tr("Run finished (%1) after %2 steps, %3 Mcells/s.")
                          .arg(QString::fromStdString(to_string(result->stop_reason)))
                          .arg(result->steps)
                          .arg(result->mcells_per_s, 0, 'f', 1);
            }
            std::lock_guard<std::mutex> lock(box->mutex);
            box->result = result;
            box->ok = true;
            box->message = msg;
        } catch (const OutOfMemoryError& e) {
            std::lock_guard<std::mutex> lock(box->mutex);
            box->message = QObject::tr("Out of memory: %1").arg(QString::fromStdString(e.what()));
        } catch (const ProjectError& e) {
            std::lock_guard<std::mutex> lock(box->mutex);
            box->message = QObject::tr("The project cannot run: %1").arg(QString::fromStdString(e.what()));
        } catch (const std::bad_alloc&) {
            std::lock_guard<std::mutex> lock(box->mutex);
            box->message = QObject::tr("Out of host memory.");
        } catch (const std::exception& e) {
            try {
                write_failure_summary(out, project, e.what(), {});
            } catch (...) {
            }
            std::lock_guard<std::mutex> lock(box->mutex);
            box->message = QObject::tr("The run failed: %1").arg(QString::fromStdString(e.what()));
        }
    });
    thread_->setObjectName(QStringLiteral("golightly-solver"));
    connect(thread_, &QThread::finished, this, &RunController::onThreadFinished, Qt::QueuedConnection);
    thread_->start();
    drainTimer_.start();
    Q_EMIT started();
    return true;
}

void RunController::pause() {
    if (!thread_ || pause_.load()) return;
    pause_ = true;
    pauseReported_ = true;
    Q_EMIT pausedChanged(true);
}

void RunController::resume() {
    if (!pause_.load()) return;
    pause_ = false;
    pauseReported_ = false;
    Q_EMIT pausedChanged(false);
}

void RunController::stop() {
    if (!thread_) return;
    cancel_ = true;
    if (pause_.exchange(false)) {
        pauseReported_ = false;
        Q_EMIT pausedChanged(false);
    }
}

bool RunController::stopAndWait(int ms) {
    if (!thread_) return true;
    stop();
    return thread_->wait(QDeadlineTimer(ms));
}

void RunController::drain() {
    if (!box_) return;
    std::optional<ProgressInfo> p;
    std::vector<EnergyPoint> energy;
    std::shared_ptr<const LiveMonitors> live;
    std::optional<viewport::StructureImage> structure;
    {
        std::lock_guard<std::mutex> lock(box_->mutex);
        p.swap(box_->progress);
        energy.swap(box_->energy);
        live.swap(box_->live);
        structure.swap(box_->structure);
    }
    if (pause_.load() != pauseReported_) {  // the solver paused itself (pauseAtMainTimeFs)
        pauseReported_ = pause_.load();
        Q_EMIT pausedChanged(pauseReported_);
    }
    if (structure) Q_EMIT structureReady(*structure);
    for (const EnergyPoint& e : energy) Q_EMIT this->energy(e);
    if (p) Q_EMIT progress(*p);
    if (live) Q_EMIT liveMonitors(live);
}

void RunController::onThreadFinished() {
    if (!thread_) return;
    thread_->wait();
    delete thread_;
    thread_ = nullptr;
    drain();
    drainTimer_.stop();
    bool ok;
    QString msg;
    {
        std::lock_guard<std::mutex> lock(box_->mutex);
        result_ = box_->result;
        ok = box_->ok;
        msg = box_->message;
    }
    if (pause_.exchange(false) || pauseReported_) {
        pauseReported_ = false;
        Q_EMIT pausedChanged(false);
    }
    Q_EMIT finished(ok, msg);
}

}  // namespace golightly::app
