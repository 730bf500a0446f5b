#include "run_controller.hpp"
#include "ui_number.hpp"

#include <QLocale>
#include <QDir>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <thread>
#include <filesystem>

#include "golightly/compile.hpp"
#include "golightly/errors.hpp"
#include "golightly/mode_picture.hpp"
#include "golightly/results.hpp"
#include "golightly/run_phases.hpp"
#include "golightly/units.hpp"
#include "monitors_dock.hpp"

namespace golightly::app {

using SteadyClock = std::chrono::steady_clock;

QString divergence_region_text(const DivergenceInfo& d) {
    const QString name = QString::fromStdString(d.region_name);
    if (d.region_kind == "pml") return QObject::tr("the PML (%1)").arg(name);
    if (d.region_kind == "material")
        return d.layer.empty() ? QObject::tr("material '%1'").arg(name)
                               : QObject::tr("material '%1' (layer '%2')").arg(name, QString::fromStdString(d.layer));
    if (d.region_kind == "background") return QObject::tr("the background (%1)").arg(name);
    return QObject::tr("an unknown region");
}

QString divergence_cause_text(const DivergenceInfo& d) {
    if (d.cause == "non_passive_pole")
        return QObject::tr("a dispersive pole there is not passive (damping gamma < 0 or omega_p² < 0): it amplifies "
                           "the fields instead of absorbing them. Use a material fit with passive poles.");
    if (d.cause == "courant")
        return QObject::tr("the time step is too large for a medium there (epsilon_inf below the dimension times the "
                           "Courant number squared, or a pole too fast for the time step). Lower the Courant number "
                           "(Run setup) or the cell size.");
    if (d.cause == "dispersive_in_pml")
        return QObject::tr("a dispersive material reaches into the PML, which is not designed for dispersive "
                           "media. End the material at the PML.");
    return QObject::tr("no unstable material, Courant number or dispersive material in the PML was found there. Try "
                       "a smaller Courant number or cell size.");
}

/// Live-edit compile worker of one run: one std::thread that compiles the latest submitted
/// project (compile_project, main run) and the structure image, then leaves the scene in a
/// latest-wins slot the solver polls. Never touches Qt objects.
struct RunController::LiveEditWorker {
    std::string label;
    /// 3D: the slice the frames show (set by the solver thread), for the structure image
    std::atomic<int> sliceNormal{2};
    std::atomic<std::int64_t> sliceIndex{0};
    std::mutex mutex;
    std::condition_variable wake;
    bool quit = false;
    // waiting to be compiled
    std::optional<Project> pending;
    SteadyClock::time_point pendingSubmitted;
    // compiled, waiting for the solver
    struct Ready {
        std::shared_ptr<const Scene> scene;
        SteadyClock::time_point submitted;
        double compileMs = 0;
        std::shared_ptr<viewport::StructureImage> structure;
    };
    std::optional<Ready> ready;
    // taken by the solver, waiting for its outcome (solver thread only)
    std::optional<Ready> inFlight;
    std::thread thread;

    void run(Job::Context ctx) {
        std::unique_lock<std::mutex> lock(mutex);
        while (true) {
            wake.wait(lock, [&] { return quit || pending.has_value(); });
            if (quit) return;
            Project project = std::move(*pending);
            pending.reset();
            const auto submitted = pendingSubmitted;
            lock.unlock();
            const auto t0 = SteadyClock::now();
            Ready r;
            r.submitted = submitted;
            QString error;
            try {
                auto scene = std::make_shared<Scene>(compile_project(project, label).scene);
                const FrameSlice slice{sliceNormal.load(), sliceIndex.load()};
                r.structure = std::make_shared<viewport::StructureImage>(viewport::make_structure_image(*scene, slice));
                r.scene = std::move(scene);
            } catch (const std::exception& e) {
                error = QString::fromStdString(e.what());
            }
            r.compileMs = std::chrono::duration<double, std::milli>(SteadyClock::now() - t0).count();
            if (!error.isEmpty()) {
                RunController::LiveEditReport rep;
                rep.message = error;
                rep.compileMs = r.compileMs;
                ctx.post([&](News& n) { n.liveEdits.push_back(rep); });
            }
            lock.lock();
            if (r.scene) ready = std::move(r);
        }
    }
    /// Solver thread: the latest compiled scene, or null.
    std::shared_ptr<const Scene> take() {
        std::lock_guard<std::mutex> lock(mutex);
        if (!ready) return nullptr;
        inFlight = std::move(ready);
        ready.reset();
        return inFlight->scene;
    }
};

RunController::RunController(QObject* parent) : QObject(parent) {
    qRegisterMetaType<golightly::ProgressInfo>();
    qRegisterMetaType<golightly::app::EnergyPoint>();
    job_.onNews([this](News& news) { takeNews(news); });
    job_.onFinished([this](editor::JobOutcome<Outcome>& outcome) { jobFinished(outcome); });
}

RunController::~RunController() {
    pause_ = false;
    job_.cancelAndDiscard();
    stopLiveWorker();
}

void RunController::stopLiveWorker() {
    if (!live_) return;
    {
        std::lock_guard<std::mutex> lock(live_->mutex);
        live_->quit = true;
    }
    live_->wake.notify_all();
    if (live_->thread.joinable()) live_->thread.join();
    live_.reset();
}

void RunController::setFrameSlice(int normalAxis, double positionUm) {
    sliceNormal_.store(std::clamp(normalAxis, 0, 2));
    slicePosition_.store(positionUm);
    sliceSet_.store(true);
    ++sliceSerial_;
}

bool RunController::submitLiveEdit(const Project& edited) {
    if (!job_.isRunning() || !live_) return false;
    {
        std::lock_guard<std::mutex> lock(live_->mutex);
        live_->pending = edited;
        live_->pendingSubmitted = SteadyClock::now();
    }
    live_->wake.notify_one();
    return true;
}

QString RunController::currentPhase() const { return phase_; }

bool RunController::start(const Project& snapshot, const QString& projectLabel, const QString& resultsDir,
                          const SolverSettings& settings) {
    if (job_.isRunning()) return false;
    pause_ = false;
    pauseReported_ = false;
    steps_ = 0;
    frameNs_ = 0;
    interopFrames_ = 0;
    frames_.clear();
    framesAtStart_ = frames_.published();
    resultsDir_ = resultsDir;
    result_.reset();
    phase_.clear();
    estimate_ = {};
    estimatePhase_.clear();
    plan_ = {};
    wallClock_.start();
    quantity_.store(int(viewport::default_quantity(snapshot.domain.polarization)));
    if (snapshot.domain.dimensions == 3) quantity_.store(int(snapshot.run.frames.component));  // Ex..Hz

    const std::string label = projectLabel.toStdString();
    stopLiveWorker();
    liveEdits_ = 0;
    live_ = std::make_shared<LiveEditWorker>();
    live_->label = label;
    auto live = live_;
    const std::filesystem::path out = resultsDir.toStdString();
    job_.start([this, live, project = snapshot, label, out, settings](Job::Context& ctx) {
        return runJob(ctx, project, label, out, settings, live);
    }, QStringLiteral("golightly-solver"));
    live_->thread = std::thread([w = live_.get(), ctx = job_.context()] { w->run(ctx); });
    Q_EMIT started();
    return true;
}

RunController::Outcome RunController::runJob(Job::Context& ctx, const Project& project, const std::string& label,
                                             const std::filesystem::path& out, const SolverSettings& settings,
                                             const std::shared_ptr<LiveEditWorker>& live) {
    Outcome outcome;
    try {
        // The driver's phases (run_phases.hpp), compiled here so that the engine of
        // each phase is known: the reference run's field is shown live too (issue 20).
        const auto tCall = SteadyClock::now();
        const CompiledPhases phases = compile_phases(project, label);
        const CompiledProject& main = phases.main;
        {
            StopPlan plan;
            plan.sourcesEndFs = main.sources_end_s / units::fs;
            plan.decayDb = project.run.stop.decay_db;
            plan.probeDecay = project.run.stop.monitor.has_value();
            plan.maxTimeFs = project.run.stop.max_time_fs;
            // the limit run_compiled applies (the IDE sets no RunOptions::max_steps)
            plan.limitIsMaxSteps = step_limit(project, RunOptions{}, main.scene.dt_s).is_max_steps;
            ctx.post([&](News& n) { n.plan = plan; });
        }
        // 3D: the slice the frames show (solver thread only): the one set from the GUI
        // (setFrameSlice), else run.frames' (CompiledProject::frame_slice)
        FrameState fs;
        fs.maxSize = settings.maxFrameSize;
        fs.interop = settings.interop;
        fs.slice = main.frame_slice;
        fs.sliceSeen = sliceSerial_.load();
        if (main.scene.dimensions == 3 && sliceSet_.load())
            fs.slice = viewport::slice_at(main.scene, sliceNormal_.load(), slicePosition_.load());
        live->sliceNormal = fs.slice.normal_axis;
        live->sliceIndex = fs.slice.index;
        // the engine and scene of the phase being stepped (solver thread only)
        Engine* currentEngine = nullptr;
        const Scene* currentScene = nullptr;
        BackendChoice backend = settings.backend.value_or(project.run.backend);
        const Precision precision = project.run.precision;
        std::vector<std::string> fallbackWarnings;
        EngineFactory factory = [&](const Scene& sc, const std::string& phase) {
            auto engine = make_engine(sc, backend, precision, settings.threads, fallbackWarnings);
            backend = engine->backend() == "cuda" ? BackendChoice::Cuda : BackendChoice::Cpu;
            currentEngine = engine.get();
            currentScene = &sc;
            fs.engineSliceSet = false;  // the driver sets run.frames' after this returns
            auto img = viewport::make_structure_image(sc, fs.slice);  // the structure this phase runs on
            ctx.post([&](News& n) {
                n.structure = std::move(img);
                n.phase = phase;
            });
            return engine;
        };
        RunOptions opts;
        opts.backend = settings.backend;
        opts.threads = settings.threads;
        opts.cancel = ctx.cancelFlag();
        opts.pause = &pause_;
        // frames (both phases): at most the chosen rate and 5 % of the solver thread's time
        std::function<void(Engine&, const Scene&)> publishFrame;
        if (settings.framesPerSecond > 0) {
            publishFrame = [this, &ctx, &live, &fs](Engine& engine, const Scene& sc) {
                publishFrameNow(fs, ctx, *live, engine, sc);
            };
            opts.frame_min_interval_s = 1.0 / settings.framesPerSecond;
            opts.frame_hook = [&publishFrame, &currentScene](Engine& engine, std::int64_t, double) {
                if (currentScene) publishFrame(engine, *currentScene);
            };
        }
        // The driver sends frames of the main run only; the reference run's frames are
        // taken here, at its progress check points (every 50 steps), at the same rate.
        auto lastRefFrame = SteadyClock::now() - std::chrono::hours(1);
        const double frameInterval = settings.framesPerSecond > 0 ? 1.0 / settings.framesPerSecond : 0.0;
        opts.progress = [this, &ctx, pauseAt = settings.pauseAtMainTimeFs, pausePhase = settings.pausePhase,
                         pausedOnce = false, &publishFrame,
                         &currentEngine, &currentScene, &lastRefFrame, frameInterval](const ProgressInfo& p) mutable {
            steps_.store(p.step);
            if (p.phase == "reference" && publishFrame && currentEngine && currentScene) {
                const auto now = SteadyClock::now();
                if (std::chrono::duration<double>(now - lastRefFrame).count() >= frameInterval) {
                    lastRefFrame = now;
                    publishFrame(*currentEngine, *currentScene);
                }
            }
            if (pauseAt >= 0 && !pausedOnce && p.phase == pausePhase && p.time_fs >= pauseAt) {
                pausedOnce = true;
                pause_ = true;  // the driver holds before its next chunk
            }
            ctx.post([&](News& n) {
                n.progress = p;
                n.phase = p.phase;
                n.energy.push_back({QString::fromStdString(p.phase), p.time_fs, p.energy_db});
            });
        };
        // Live edit: the solver polls the worker's slot before each chunk of steps.
        opts.poll_material_update = [live] { return live->take(); };
        opts.material_update_done = [live, &ctx](const MaterialUpdateOutcome& o) {
            LiveEditReport rep;
            rep.applied = o.applied;
            rep.changed = o.changed;
            rep.message = QString::fromStdString(o.message);
            std::shared_ptr<viewport::StructureImage> structure;
            if (live->inFlight) {
                rep.latencyMs =
                    std::chrono::duration<double, std::milli>(SteadyClock::now() - live->inFlight->submitted).count();
                rep.compileMs = live->inFlight->compileMs;
                structure = live->inFlight->structure;
                live->inFlight.reset();
            }
            ctx.post([&](News& n) {
                n.liveEdits.push_back(rep);
                if (o.applied && o.changed && structure) n.structure = *structure;
            });
        };
        opts.live_every_steps = settings.liveEverySteps;
        opts.live = [&ctx](const LiveMonitors& live) {
            auto copy = std::make_shared<const LiveMonitors>(live);
            ctx.post([&](News& n) { n.live = std::move(copy); });
        };
        auto result = std::make_shared<RunResult>(run_compiled(project, main, phases.reference_or_null(), opts, factory));
        result->warnings.insert(result->warnings.end(), fallbackWarnings.begin(), fallbackWarnings.end());
        result->wall_s = std::chrono::duration<double>(SteadyClock::now() - tCall).count();
        std::vector<std::string> writerWarnings = write_results(out, project, *result);
        result->warnings.insert(result->warnings.end(), writerWarnings.begin(), writerWarnings.end());
        QString msg;
        if (result->stop_reason == StopReason::Diverged) {
            if (result->divergence) {
                const auto& d = *result->divergence;
                msg = QObject::tr("The fields diverged in the %1 run at step %2 (%3 fs), starting in cell "
                                  "(%4, %5) near x = %6 µm, y = %7 µm (%8), in %9. Likely cause: %10")
                          .arg(QString::fromStdString(d.phase))
                          .arg(d.step)
                          .arg(golightly::ui_number(d.time_fs, 'f', 2))
                          .arg(d.i)
                          .arg(d.j)
                          .arg(golightly::ui_number(d.x_um, 'g', 4))
                          .arg(golightly::ui_number(d.y_um, 'g', 4))
                          .arg(QString::fromStdString(to_string(d.component)))
                          .arg(divergence_region_text(d), divergence_cause_text(d));
            } else {
                msg = QObject::tr("The fields diverged.");
            }
        } else if (result->stop_reason == StopReason::Cancelled) {
            msg = QObject::tr("Run stopped after %1 steps; partial results written.").arg(result->steps);
        } else {
            msg = QObject::tr("Run finished (%1) after %2 steps, %3 Mcells/s.")
                      .arg(plots::MonitorsDock::stopReasonText(QString::fromStdString(to_string(result->stop_reason))))
                      .arg(result->steps)
                      .arg(golightly::ui_number(result->mcells_per_s, 'f', 1));
        }
        outcome.result = result;
        outcome.ok = true;
        outcome.message = msg;
    } catch (const OutOfMemoryError& e) {
        outcome.message = QObject::tr("Out of memory: %1").arg(QString::fromStdString(e.what()));
    } catch (const ProjectError& e) {
        outcome.message = QObject::tr("The project cannot run: %1").arg(QString::fromStdString(e.what()));
    } catch (const std::bad_alloc&) {
        outcome.message = QObject::tr("Out of host memory.");
    } catch (const std::exception& e) {
        try {
            write_failure_summary(out, project, e.what(), {});
        } catch (...) {
        }
        outcome.message = QObject::tr("The run failed: %1").arg(QString::fromStdString(e.what()));
    }
    return outcome;
}

void RunController::publishFrameNow(FrameState& fs, Job::Context& ctx, LiveEditWorker& live, Engine& engine,
                                    const Scene& sc) {
    // 3D: a slice changed from the GUI since the last frame is applied now (between steps,
    // on this thread), with a structure image of its plane
    if (sc.dimensions == 3 && sliceSerial_.load() != fs.sliceSeen) {
        fs.sliceSeen = sliceSerial_.load();
        fs.slice = viewport::slice_at(sc, sliceNormal_.load(), slicePosition_.load());
        engine.frames().set_frame_slice(fs.slice);
        fs.engineSliceSet = true;
        live.sliceNormal = fs.slice.normal_axis;
        live.sliceIndex = fs.slice.index;
        auto img = viewport::make_structure_image(sc, fs.slice);
        ctx.post([&](News& n) { n.structure = std::move(img); });
        fs.lastCost = 0;  // show the new plane now
    }
    // a new phase's engine: the slice shown so far (the driver gave it run.frames')
    if (sc.dimensions == 3 && !fs.engineSliceSet) {
        engine.frames().set_frame_slice(fs.slice);
        fs.engineSliceSet = true;
    }
    // Budget: frames may take at most 5 % of the solver thread's time; on big grids
    // (get_field copies the whole component) the rate drops below the chosen one.
    const auto t0 = SteadyClock::now();
    if (fs.lastCost > 0 && std::chrono::duration<double>(t0 - fs.lastEnd).count() < 19.0 * fs.lastCost) return;
    const int maxSize = fs.maxSize;
    try {
        auto q = viewport::FieldQuantity(quantity_.load());
        bool done = false;
        // CUDA-OpenGL interop: the device renders the colour-mapped frame into the view's
        // exchange; only the frame's geometry goes through the mailbox.
        if (fs.interop && fs.interop->enabled() && q != viewport::FieldQuantity::E2 && engine.backend() == "cuda") {
            try {
                FrameRequest req;
                req.component = Component(int(q));
                req.max_width = req.max_height = maxSize;
                req.scale = frameScale_.load();
                req.viewport_alpha = true;
                if (fs.interop->publish(engine.frames(), req)) {
                    auto fr = std::make_shared<viewport::FieldFrame>(
                        viewport::field_frame_geometry(engine, sc, q, maxSize, maxSize, fs.slice));
                    fr->on_device = true;
                    fr->scale = req.scale;
                    frames_.publish(std::move(fr));
                    ++interopFrames_;
                    done = true;
                }
            } catch (const RunError&) {
                fs.interop->set_enabled(false);  // host frames from now on
            }
        }
        if (!done) {
            auto fr = std::make_shared<viewport::FieldFrame>(
                viewport::make_field_frame(engine, sc, q, maxSize, maxSize, fs.scratch, fs.slice));
            frames_.publish(std::move(fr));
        }
    } catch (const std::invalid_argument&) {
        // the polarization lacks the component: no frame
    } catch (const std::logic_error&) {
        // the engine's plane and the frame's disagree: this frame is lost, never the run
        // (the slice is set on the engine again before the next one)
        fs.engineSliceSet = false;
    }
    fs.lastEnd = SteadyClock::now();
    fs.lastCost = std::chrono::duration<double>(fs.lastEnd - t0).count();
    frameNs_ += std::chrono::duration_cast<std::chrono::nanoseconds>(fs.lastEnd - t0).count();
}

void RunController::pause() {
    if (!job_.isRunning() || pause_.load()) return;
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
    if (!job_.isRunning()) return;
    job_.cancel();
    if (pause_.exchange(false)) {
        pauseReported_ = false;
        Q_EMIT pausedChanged(false);
    }
}

bool RunController::stopAndWait(int ms) {
    if (!job_.isRunning()) return true;
    stop();
    // at once: isRunning() is false and finished() was emitted when this returns true
    return job_.waitForThread(ms);
}

void RunController::takeNews(News& news) {
    if (!news.phase.empty()) phase_ = QString::fromStdString(news.phase);
    if (news.plan) plan_ = *news.plan;
    if (pause_.load() != pauseReported_) {  // the solver paused itself (pauseAtMainTimeFs)
        pauseReported_ = pause_.load();
        Q_EMIT pausedChanged(pauseReported_);
    }
    if (news.structure) Q_EMIT structureReady(*news.structure);
    for (const EnergyPoint& e : news.energy) Q_EMIT energy(e);
    if (const auto& p = news.progress) {
        if (QString::fromStdString(p->phase) != estimatePhase_) {  // a new phase: its own progress
            estimatePhase_ = QString::fromStdString(p->phase);
            model_.reset(plan_);
        }
        estimate_ = model_.update(*p, wallClock_.elapsed() * 1e-3);
        Q_EMIT progress(*p);
    }
    if (news.live) Q_EMIT liveMonitors(news.live);
    for (const LiveEditReport& r : news.liveEdits) {
        if (r.applied) {
            if (r.changed) {
                ++liveEdits_;
                model_.restartRate();
            }
            Q_EMIT liveEditApplied(r.latencyMs, r.changed, liveEdits_);
        } else {
            Q_EMIT liveEditRefused(r.message);
        }
    }
}

void RunController::jobFinished(editor::JobOutcome<Outcome>& outcome) {
    stopLiveWorker();
    bool ok = false;
    QString msg;
    if (outcome.result) {
        result_ = outcome.result->result;
        ok = outcome.result->ok;
        msg = outcome.result->message;
    } else {  // the run threw what no handler of runJob knows: it must not take the IDE down
        msg = QObject::tr("The run failed: %1").arg(outcome.error);
    }
    if (pause_.exchange(false) || pauseReported_) {
        pauseReported_ = false;
        Q_EMIT pausedChanged(false);
    }
    Q_EMIT finished(ok, msg);
}

std::shared_ptr<viewport::FieldFrame> dft_field_frame(const DftFieldResult& r, std::size_t f, Component c) {
    const auto it = std::find(r.components.begin(), r.components.end(), c);
    if (it == r.components.end() || f >= r.frequency_hz.size() || r.nx <= 0 || r.ny <= 0) return nullptr;
    const std::vector<std::complex<double>>& all = r.values[std::size_t(it - r.components.begin())];
    const std::size_t plane = std::size_t(r.nx) * std::size_t(r.ny);
    const std::size_t first = f * std::size_t(std::max(1, r.nz)) * plane;
    if (all.size() < first + plane) return nullptr;
    std::complex<double> sq = 0;
    for (std::size_t k = 0; k < plane; ++k) sq += all[first + k] * all[first + k];
    const std::complex<double> turn = std::polar(1.0, -0.5 * std::arg(sq));
    auto frame = std::make_shared<viewport::FieldFrame>();
    frame->quantity = viewport::FieldQuantity(int(c));  // the same order, Ex .. Hz
    frame->width = r.nx;
    frame->height = r.ny;
    frame->x0_um = r.origin_um.x - 0.5 * r.dx_um;
    frame->y0_um = r.origin_um.y - 0.5 * r.dx_um;
    frame->width_um = r.nx * r.dx_um;
    frame->height_um = r.ny * r.dx_um;
    frame->values.resize(plane);
    for (std::size_t k = 0; k < plane; ++k) {
        frame->values[k] = float((all[first + k] * turn).real());
        frame->max_abs = std::max(frame->max_abs, std::abs(frame->values[k]));
    }
    if (r.dimensions == 3) {
        frame->three_d = true;
        frame->slice_normal = 2;
        frame->slice_position_um = r.origin_z_um;
    }
    return frame;
}

ResonancePictureRun::ResonancePictureRun(QObject* parent) : QObject(parent), run_(new RunController(this)) {
    run_->setObjectName(QStringLiteral("resonancePictureRun"));
    connect(run_, &RunController::progress, this, [this](const ProgressInfo& p) {
        Q_EMIT progressText(tr("%1: %2 fs, step %3").arg(title_, golightly::ui_number(p.time_fs, 'f', 1)).arg(p.step));
    });
    connect(run_, &RunController::finished, this, [this](bool ok, const QString& message) {
        const auto r = run_->lastResult();
        if (!ok || !r) {
            Q_EMIT failed(tr("The field picture of %1 failed: %2").arg(title_, message));
            return;
        }
        if (r->stop_reason == StopReason::Cancelled) {
            Q_EMIT stopped(tr("The field picture of %1 was stopped.").arg(title_));
            return;
        }
        if (r->stop_reason == StopReason::Diverged) {
            Q_EMIT failed(tr("The field picture of %1 failed: %2").arg(title_, message));
            return;
        }
        for (const DftFieldResult& d : r->dft_fields) {
            if (d.name.rfind(kModePictureMonitor, 0) != 0 || d.components.empty()) continue;
            // the component with the most energy (3D: of Ex, Ey, Ez)
            std::size_t best = 0;
            double most = -1;
            for (std::size_t c = 0; c < d.components.size(); ++c) {
                double e = 0;
                for (const auto& v : d.values[c]) e += std::norm(v);
                if (e > most) most = e, best = c;
            }
            if (auto frame = dft_field_frame(d, 0, d.components[best])) {
                frame->step = r->steps;  // the DFT's length: the whole picture run
                frame->time_fs = r->time_fs;
                frame_ = frame;
                Q_EMIT pictureReady(frame_, title_);
                return;
            }
        }
        Q_EMIT failed(tr("The field picture of %1 holds no field.").arg(title_));
    });
}

bool ResonancePictureRun::start(const Project& project, double frequencyHz, double q, const QString& monitor,
                                const QString& projectLabel, const QString& resultsDir, const SolverSettings& settings) {
    title_ = tr("Resonance %1 µm (Q %2, %3)")
                 .arg(golightly::ui_number(units::hz_to_wavelength_um(frequencyHz), 'f', 5),
                      std::isfinite(q) ? golightly::ui_number(q, 'g', 4) : QStringLiteral("∞"), monitor);
    if (run_->isRunning()) {
        Q_EMIT failed(tr("A field picture is being made; stop it first."));
        return false;
    }
    Project picture;
    try {
        picture = mode_picture_project(project, frequencyHz, q);
    } catch (const std::exception& e) {
        Q_EMIT failed(tr("The field picture of %1 cannot start: %2").arg(title_, QString::fromUtf8(e.what())));
        return false;
    }
    SolverSettings s = settings;
    s.framesPerSecond = 0;  // the main view keeps what it shows until the picture is ready
    s.interop.reset();
    if (!run_->start(picture, projectLabel, resultsDir, s)) {
        Q_EMIT failed(tr("The field picture of %1 cannot start.").arg(title_));
        return false;
    }
    return true;
}

}  // namespace golightly::app
