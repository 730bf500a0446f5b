// GoLightly IDE: runs a project in a solver thread (a BackgroundJob, background_job.hpp).
//
// start() takes an immutable snapshot of the project; the job compiles the run driver's
// phases (compile_phases, run_phases.hpp; the structure image for the viewport), calls
// run_compiled() with callbacks that only copy into latest-wins mailboxes (field frames:
// viewport::MailboxFrameSource; progress, energy samples and live monitor values: the
// job's news), and writes the results folder (the same files as `golightly-cli run`). The
// GUI thread takes the news on the job's timer and never waits for the solver; the solver
// never waits for the GUI.
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "background_job.hpp"
#include "field_view.hpp"
#include "frame_source.hpp"
#include "golightly/project.hpp"
#include "golightly/gl_interop.hpp"
#include "golightly/run.hpp"
#include "run_progress.hpp"

#include <QElapsedTimer>

namespace golightly::app {

struct SolverSettings {
    std::optional<BackendChoice> backend;  ///< overrides run.backend
    int threads = 0;                       ///< CPU threads; <= 0 all cores
    double framesPerSecond = 30;           ///< <= 0: no frames
    int maxFrameSize = 512;                ///< frames are box-averaged to at most this many samples a side
    std::int64_t liveEverySteps = 200;     ///< live spectra / time series every this many steps
    /// When >= 0 the solver pauses itself once the main run reaches this simulated time
    /// (demos, screenshots of a run in progress).
    double pauseAtMainTimeFs = -1;
    /// The phase pauseAtMainTimeFs applies to ("main", or "reference" for a picture of the
    /// normalization run).
    std::string pausePhase = "main";
    /// The field view's CUDA-OpenGL interop exchange (null: host frames only). Used when the
    /// run's engine is a CUDA engine and the quantity is a single component.
    std::shared_ptr<CudaGlFrameExchange> interop;
};

/// Where a diverged run's fields grew first, in the user's words (DivergenceInfo region):
/// "the PML (x-high)", "material 'gold' (layer 'disk')", "the background (air)", or "an
/// unknown region".
QString divergence_region_text(const DivergenceInfo& d);
/// The likely cause of a divergence (DivergenceInfo::cause) and what to change, one or two
/// translated sentences.
QString divergence_cause_text(const DivergenceInfo& d);

/// Energy decay sample (dB below the peak) of one phase.
struct EnergyPoint {
    QString phase;
    double timeFs = 0;
    double db = 0;
};

class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    /// Stops a running run and waits for the thread.
    ~RunController() override;

    /// Starts a run of `snapshot` (copied). Results go to `resultsDir` (created). False
    /// when a run is going already.
    bool start(const Project& snapshot, const QString& projectLabel, const QString& resultsDir,
               const SolverSettings& settings = {});
    bool isRunning() const { return job_.isRunning(); }
    bool isPaused() const { return pause_.load(); }
    void pause();
    void resume();
    /// Asks the run to stop at its next chunk (the results so far are written).
    void stop();
    /// Stops and waits for the thread (at most `ms`); true when it ended (then finished()
    /// has been emitted and isRunning() is false).
    bool stopAndWait(int ms = 5000);

    /// The quantity the frames show (may change during a run).
    void setQuantity(viewport::FieldQuantity q) { quantity_.store(int(q)); }
    /// 3D runs: the slice the frames show, normal to `normalAxis` (0 = yz, 1 = xz, 2 = xy)
    /// at `positionUm` along it (interior coordinates). May change during a run: the solver
    /// thread applies it (FrameSource::set_frame_slice) before its next frame, and a structure
    /// image of the new plane follows. Before start() it overrides run.frames.plane/position.
    void setFrameSlice(int normalAxis, double positionUm);
    /// Clears a slice set with setFrameSlice: the next run starts at run.frames'.
    void clearFrameSlice() { sliceSet_.store(false); }
    /// The colour scale of device-rendered (interop) frames, 0 = auto (may change during a run).
    void setFrameScale(double halfRange) { frameScale_.store(halfRange > 0 ? halfRange : 0.0); }
    /// Frames published through the interop path since start().
    std::uint64_t interopFramesPublished() const { return interopFrames_.load(); }
    viewport::MailboxFrameSource* frameSource() { return &frames_; }
    /// Steps done in the current phase (updated at the solver's check points).
    std::int64_t stepsDone() const { return steps_.load(); }
    QString currentPhase() const;
    /// Progress of the current phase from the stop rule expected to end it (run_progress.hpp);
    /// updated before each progress() signal.
    ProgressEstimate estimate() const { return estimate_; }
    QString resultsDir() const { return resultsDir_; }
    /// The last run's folder moved (Save As of an untitled project); not while running.
    void setResultsDir(const QString& dir) {
        if (!isRunning()) resultsDir_ = dir;
    }
    std::shared_ptr<const RunResult> lastResult() const { return result_; }
    /// Solver-thread time spent making and publishing frames, s (cost of the frames).
    double frameSeconds() const { return frameNs_.load() * 1e-9; }
    /// Frames the current (or last) run published.
    std::uint64_t framesPublished() const { return frames_.published() - framesAtStart_; }

    /// Live edit (issue 5): while a run is going, compiles `edited` (the document after an
    /// edit) on a worker thread, never the GUI thread, and hands the scene to the solver,
    /// which applies it to the main run before its next chunk of steps
    /// (RunOptions::poll_material_update, Engine::update_materials). Latest wins: an edit
    /// submitted while an older one compiles replaces any that waits. The latency from
    /// this call to the solver applying the scene is reported by liveEditApplied. False
    /// when no run is going.
    bool submitLiveEdit(const Project& edited);
    /// Live edits applied to the current (or last) run that changed its materials.
    int liveEditsApplied() const { return liveEdits_; }

    /// A submitted live edit reached the solver. `latencyMs`: wall time from
    /// submitLiveEdit() to the engine running on the new materials; `changed`: the
    /// materials differ (false e.g. when only a monitor moved); `edits`: applied so far.
    struct LiveEditReport {
        double latencyMs = 0;
        double compileMs = 0;
        bool applied = false;
        bool changed = false;
        QString message;  ///< why it was refused or did not compile
    };
Q_SIGNALS:
    void liveEditApplied(double latencyMs, bool changed, int edits);
    /// A live edit could not be applied (the grid changed, dispersive cells changed, or the
    /// edited project does not compile); the run goes on with the previous materials.
    void liveEditRefused(const QString& message);

Q_SIGNALS:
    void started();
    void structureReady(const golightly::viewport::StructureImage& structure);
    void progress(const golightly::ProgressInfo& info);
    void energy(const golightly::app::EnergyPoint& point);
    void liveMonitors(std::shared_ptr<const golightly::LiveMonitors> live);
    /// The run ended: ok = results written (also after Stop or divergence; `message`
    /// says what happened); !ok = it failed (compile, out of memory, device error).
    void finished(bool ok, const QString& message);
    void pausedChanged(bool paused);

private:
    /// The live-edit compile worker of one run (run_controller.cpp).
    struct LiveEditWorker;
    /// What the solver thread posts (each poll takes what came since the last one).
    struct News {
        std::optional<ProgressInfo> progress;
        std::vector<EnergyPoint> energy;
        std::shared_ptr<const LiveMonitors> live;
        std::optional<viewport::StructureImage> structure;
        std::optional<StopPlan> plan;
        std::vector<LiveEditReport> liveEdits;
        std::string phase;  ///< the phase being stepped, when it changed or progressed
    };
    /// What the job returns: the result (null when the run failed) and the message.
    struct Outcome {
        std::shared_ptr<const RunResult> result;
        bool ok = false;
        QString message;
    };
    using Job = editor::BackgroundJob<Outcome, News>;
    Outcome runJob(Job::Context& ctx, const Project& project, const std::string& label,
                   const std::filesystem::path& out, const SolverSettings& settings,
                   const std::shared_ptr<LiveEditWorker>& live);
    void takeNews(News& news);
    void jobFinished(editor::JobOutcome<Outcome>& outcome);
    /// The frames of one run (solver thread only): the slice shown, the frame budget.
    struct FrameState {
        int maxSize = 512;
        std::vector<double> scratch;
        std::chrono::steady_clock::time_point lastEnd;
        double lastCost = 0;  ///< wall seconds the last frame took
        std::shared_ptr<CudaGlFrameExchange> interop;
        FrameSlice slice;
        std::uint64_t sliceSeen = 0;  ///< the sliceSerial_ applied
        /// The engine being stepped shows `slice`. False after the engine factory ran: the
        /// run driver sets run.frames' slice on each new engine after the factory returns,
        /// so a slice chosen during the reference run must be set again on the main run's
        /// engine before its first frame.
        bool engineSliceSet = false;
    };
    /// Publishes a frame of `engine` (solver thread; at most 5 % of its time), after
    /// applying a slice changed from the GUI.
    void publishFrameNow(FrameState& fs, Job::Context& ctx, LiveEditWorker& live, Engine& engine, const Scene& sc);

    std::atomic<bool> pause_{false};
    std::atomic<int> quantity_{int(viewport::FieldQuantity::Ez)};
    std::atomic<double> frameScale_{0.0};
    std::atomic<int> sliceNormal_{2};
    std::atomic<double> slicePosition_{0.0};
    std::atomic<bool> sliceSet_{false};
    std::atomic<std::uint64_t> sliceSerial_{0};
    std::atomic<std::uint64_t> interopFrames_{0};
    std::atomic<std::int64_t> steps_{0};
    std::atomic<std::int64_t> frameNs_{0};
    viewport::MailboxFrameSource frames_;
    QString resultsDir_;
    std::uint64_t framesAtStart_ = 0;
    bool pauseReported_ = false;
    QString phase_;

    std::shared_ptr<const RunResult> result_;
    StopPlan plan_;
    ProgressModel model_;
    ProgressEstimate estimate_;
    QString estimatePhase_;
    QElapsedTimer wallClock_;

    std::shared_ptr<LiveEditWorker> live_;
    int liveEdits_ = 0;
    void stopLiveWorker();

    /// Last member: destroyed first, so the solver thread (which reads the members above)
    /// is cancelled and joined before they go.
    Job job_{40};  // GUI side: 25 polls a second, each a few copies
};

/// The real part of a dft_field map as a field frame for the FieldView: map `f` of
/// component `c` (a 3D result: its first z plane), multiplied first by the global phase
/// that makes the map as real as it can be (exp(-i arg(sum v^2) / 2)), so that a mode's
/// picture does not depend on the arbitrary phase of the source. Null when the result
/// lacks the component or the map.
std::shared_ptr<viewport::FieldFrame> dft_field_frame(const DftFieldResult& r, std::size_t f, Component c);

/// A resonance's field picture (issue 52): a second, short run of the project with its
/// sources narrowed to the resonance (mode_picture.hpp, mode_picture_project) and a DFT
/// field at its frequency, on its own RunController (the main run's results and the
/// Monitors dock stay as they are). Cancellable; errors come as failed(), never a throw.
class ResonancePictureRun : public QObject {
    Q_OBJECT
public:
    explicit ResonancePictureRun(QObject* parent = nullptr);
    /// Starts the picture of the resonance at `frequencyHz` with quality factor `q` (of time
    /// monitor `monitor`) of `project`; results go to `resultsDir`. False (and failed())
    /// when it cannot start: a picture is being made, or the project cannot be made into one.
    bool start(const Project& project, double frequencyHz, double q, const QString& monitor,
               const QString& projectLabel, const QString& resultsDir, const SolverSettings& settings = {});
    bool isRunning() const { return run_->isRunning(); }
    void cancel() { run_->stop(); }
    RunController* controller() const { return run_; }
    /// The last picture's frame (null before the first).
    std::shared_ptr<const viewport::FieldFrame> frame() const { return frame_; }
    /// "Resonance 1.5483 µm (Q 1447)": names the picture.
    QString title() const { return title_; }

Q_SIGNALS:
    /// Progress in words (phase, simulated time, steps).
    void progressText(const QString& text);
    /// The picture is ready: the real part of the mode's main component.
    void pictureReady(std::shared_ptr<const golightly::viewport::FieldFrame> frame, const QString& title);
    /// It did not start or failed (`message` says why).
    void failed(const QString& message);
    /// It was stopped (cancel()).
    void stopped(const QString& message);

private:
    RunController* run_;
    std::shared_ptr<const viewport::FieldFrame> frame_;
    QString title_;
};

}  // namespace golightly::app

Q_DECLARE_METATYPE(golightly::ProgressInfo)
Q_DECLARE_METATYPE(golightly::app::EnergyPoint)
