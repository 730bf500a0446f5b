// GoLightly IDE: the S-parameters dock (issue 21). Run > Compute S-parameters runs one
// simulation per port-mode of the project's top-level `ports` (run_sparameters_live,
// sparams_runner.hpp) on a worker thread, never the GUI thread; the |S_ij| (dB) and phase
// plots (plots/ SParamsView) gain each port's column as its run finishes; a progress bar
// (port k of N, the run's own progress from its stop rule) with an ETA; Cancel stops the
// running port's run at its next chunk. The results folder is the CLI's: <project
// stem>_sparams/ next to the project with sparams.s<N>p (Touchstone) and sparams.csv;
// Open... reads any sparams.csv.
#pragma once

#include <QDockWidget>
#include <QElapsedTimer>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

#include "background_job.hpp"

#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/sparams.hpp"
#include "sparams_view.hpp"

class QLabel;
class QProgressBar;
class QPushButton;

namespace golightly::app {

class SParamsDock : public QDockWidget {
    Q_OBJECT
public:
    explicit SParamsDock(QWidget* parent = nullptr);
    /// Cancels a computation and waits for its thread.
    ~SParamsDock() override;

    /// Starts the computation of `snapshot` (copied; `label` names the project file in
    /// messages and resolves its relative file references). The files go to `outDir`
    /// (created). `threads`: CPU threads (0: all cores). False (with a message in the dock)
    /// when one is running or the project has no valid `ports`.
    bool start(const Project& snapshot, const QString& label, const QString& outDir, int threads = 0);
    bool isRunning() const { return job_.isRunning(); }
    /// Stops the running port's run at its next chunk; no further port runs.
    void cancel();
    /// Waits (processing events) until the computation ends; true when it did within `ms`.
    bool waitForFinished(int ms);
    /// Reads a sparams.csv into the plots. False (message in the dock) when unreadable.
    bool loadCsv(const QString& path);
    /// The project changed (opened, new): clears the plots, shows `csv` when it exists.
    void showProjectResults(const QString& csv);
    /// The open project as it is now (after each edit, Open or Save As) and its file: the
    /// S-parameters shown are labelled stale when they were computed (or saved) for
    /// another project or before an edit.
    void setCurrentProject(const Project& project, const QString& file);
    /// The stale label above the plots (empty when what is shown is current).
    QString staleText() const;
    /// After Save As: the results folder moved to `outDir` with the project.
    void setOutputDir(const QString& outDir) { outDir_ = outDir; }

    plots::SParamsView* view() const { return view_; }
    QString statusText() const;
    /// The matrix of the last finished computation (null before one).
    std::shared_ptr<const SParameters> lastResult() const { return result_; }
    /// Port-mode runs finished in the current (or last) computation.
    int columnsDone() const { return columnsDone_; }
    QProgressBar* progressBar() const { return progress_; }

Q_SIGNALS:
    /// Compute was clicked in the dock (the main window starts the computation).
    void computeRequested();
    /// A port-mode run finished: its column is in the plots.
    void columnFinished(int column, int columns);
    /// The computation ended: ok = the matrix is complete and written; else `message`
    /// says why (cancelled, error).
    void finished(bool ok, const QString& message);

private:
    void setStatus(const QString& text);
    /// What the worker posts (each poll takes what came since the last one).
    struct News {
        std::vector<SParameters> partials;  ///< one per finished column, in order (not latest-wins: each column is shown)
        int column = -1, columns = 0;       ///< a port-mode run started
        std::optional<ProgressInfo> progress;
    };
    using Job = editor::BackgroundJob<std::shared_ptr<const SParameters>, News>;
    void takeNews(News& news);
    void jobFinished(editor::JobOutcome<std::shared_ptr<const SParameters>>& outcome);
    QElapsedTimer clock_;
    double decayDb_ = 0;
    double runFraction_ = 0;
    int currentColumn_ = -1, columns_ = 0, columnsDone_ = 0;
    QString outDir_;
    std::shared_ptr<const SParameters> result_;
    void updateStale();
    /// The project (and its file) the S-parameters shown belong to: null when nothing is
    /// shown or a table was opened by hand (then its path labels it).
    std::shared_ptr<const Project> shownFor_;
    QString shownFile_;
    std::shared_ptr<const Project> current_;
    QString currentFile_;
    QLabel* stale_;
    plots::SParamsView* view_;
    QLabel* status_;
    QLabel* warnings_;
    QProgressBar* progress_;
    QPushButton *computeButton_, *cancelButton_, *openButton_;
    Job job_{80};  ///< last: cancelled and joined first
};

}  // namespace golightly::app
