#include "sparams_dock.hpp"
#include "run_progress.hpp"

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "golightly/errors.hpp"
#include "sparams_runner.hpp"

namespace golightly::app {

namespace {
plots::SParamsTable tableOf(const SParameters& s, std::size_t columnsKnown) {
    plots::SParamsTable t;
    t.frequency_hz = s.frequency_hz;
    for (const auto& l : s.labels) t.labels << QString::fromStdString(l);
    t.s = s.s;
    t.known.assign(s.labels.size(), false);
    for (std::size_t j = 0; j < s.labels.size(); ++j) t.known[j] = j < columnsKnown;
    return t;
}
}  // namespace

SParamsDock::SParamsDock(QWidget* parent) : QDockWidget(tr("S-parameters"), parent) {
    setObjectName(QStringLiteral("SParamsDock"));
    auto* w = new QWidget;
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(4, 4, 4, 4);
    auto* row = new QHBoxLayout;
    computeButton_ = new QPushButton(tr("Compute"));
    computeButton_->setObjectName(QStringLiteral("sparamsCompute"));
    computeButton_->setToolTip(tr("One run per port and mode of the project's ports (Run > Compute S-parameters)"));
    cancelButton_ = new QPushButton(tr("Cancel"));
    cancelButton_->setObjectName(QStringLiteral("sparamsCancel"));
    cancelButton_->setEnabled(false);
    openButton_ = new QPushButton(tr("Open..."));
    openButton_->setToolTip(tr("Show a sparams.csv written by golightly-cli sparams or an earlier computation"));
    progress_ = new QProgressBar;
    progress_->setObjectName(QStringLiteral("sparamsProgress"));
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    progress_->setTextVisible(true);
    progress_->setFormat(QString());
    row->addWidget(computeButton_);
    row->addWidget(cancelButton_);
    row->addWidget(progress_, 1);
    row->addWidget(openButton_);
    v->addLayout(row);
    status_ = new QLabel(tr("No S-parameters yet: give the project ports, then Run > Compute S-parameters."));
    status_->setObjectName(QStringLiteral("sparamsStatus"));
    status_->setWordWrap(true);
    v->addWidget(status_);
    warnings_ = new QLabel;
    warnings_->setObjectName(QStringLiteral("sparamsWarnings"));
    warnings_->setWordWrap(true);
    warnings_->setStyleSheet(QStringLiteral("QLabel { color: #8a5300; }"));
    warnings_->setVisible(false);
    v->addWidget(warnings_);
    stale_ = new QLabel;
    stale_->setObjectName(QStringLiteral("sparamsStale"));
    stale_->setWordWrap(true);
    stale_->setStyleSheet(QStringLiteral("QLabel { color: #8a5300; font-weight: bold; }"));
    stale_->setVisible(false);
    v->addWidget(stale_);
    view_ = new plots::SParamsView;
    v->addWidget(view_, 1);
    setWidget(w);
    connect(computeButton_, &QPushButton::clicked, this, &SParamsDock::computeRequested);
    connect(cancelButton_, &QPushButton::clicked, this, &SParamsDock::cancel);
    connect(openButton_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open S-parameters"), outDir_,
                                                          tr("S-parameter table (sparams.csv *.csv)"));
        if (!path.isEmpty()) loadCsv(path);
    });
    job_.onNews([this](News& news) { takeNews(news); });
    job_.onFinished([this](editor::JobOutcome<std::shared_ptr<const SParameters>>& o) { jobFinished(o); });
}

SParamsDock::~SParamsDock() { job_.cancelAndDiscard(); }

QString SParamsDock::statusText() const { return status_->text(); }

void SParamsDock::setStatus(const QString& text) { status_->setText(text); }

bool SParamsDock::start(const Project& snapshot, const QString& label, const QString& outDir, int threads) {
    if (job_.isRunning()) {
        setStatus(tr("S-parameters are being computed already."));
        return false;
    }
    std::vector<Port> ports;
    try {
        ports = parse_ports(snapshot, label.toStdString());
    } catch (const std::exception& e) {
        setStatus(tr("Cannot compute S-parameters: %1").arg(QString::fromStdString(e.what())));
        Q_EMIT finished(false, status_->text());
        return false;
    }
    columns_ = 0;
    for (const Port& p : ports) columns_ += int(p.modes.size());
    columnsDone_ = 0;
    currentColumn_ = -1;
    runFraction_ = 0;
    decayDb_ = snapshot.run.stop.decay_db;
    outDir_ = outDir;
    result_.reset();
    shownFor_ = std::make_shared<const Project>(snapshot);
    shownFile_ = currentFile_;
    view_->clear();
    updateStale();
    warnings_->clear();
    warnings_->setVisible(false);
    progress_->setValue(0);
    progress_->setFormat(tr("port run 1 of %1").arg(columns_));
    setStatus(tr("Computing S-parameters: %n port run(s)...", nullptr, columns_));
    computeButton_->setEnabled(false);
    cancelButton_->setEnabled(true);
    clock_.start();
    const std::string file = label.toStdString();
    const std::filesystem::path out = outDir.toStdString();
    job_.start([snapshot, file, out, threads](Job::Context& ctx) {
        RunOptions o;
        o.threads = threads;
        o.cancel = ctx.cancelFlag();
        o.progress = [&ctx](const ProgressInfo& p) { ctx.post([&](News& n) { n.progress = p; }); };
        SParameters s = run_sparameters_live(
            snapshot, file, o,
            [&ctx](std::size_t column, std::size_t columns) {
                ctx.post([&](News& n) {
                    n.column = int(column);
                    n.columns = int(columns);
                    n.progress.reset();
                });
            },
            [&ctx](const SParameters& partial, std::size_t) {
                SParameters copy;
                copy.frequency_hz = partial.frequency_hz;
                copy.labels = partial.labels;
                copy.s = partial.s;
                ctx.post([&](News& n) { n.partials.push_back(std::move(copy)); });
            });
        std::filesystem::create_directories(out);
        write_touchstone(out / ("sparams.s" + std::to_string(s.labels.size()) + "p"), s);
        write_sparams_csv(out / "sparams.csv", s);
        s.runs.clear();  // the runs' field maps are not needed by the GUI
        return std::make_shared<const SParameters>(std::move(s));
    }, QStringLiteral("golightly-sparams"));
    return true;
}

void SParamsDock::cancel() {
    if (!job_.isRunning()) return;
    job_.cancel();
    setStatus(tr("Cancelling..."));
}

bool SParamsDock::waitForFinished(int ms) { return job_.waitForFinished(ms); }

void SParamsDock::takeNews(News& news) {
    if (news.columns > 0) columns_ = news.columns;
    if (news.column != currentColumn_ && news.column >= 0) {
        currentColumn_ = news.column;
        runFraction_ = 0;
    }
    for (const SParameters& partial : news.partials) {
        std::size_t known = 0;
        for (std::size_t j = 0; j < partial.s.size(); ++j)
            if (!partial.s[0][j].empty()) known = j + 1;
        columnsDone_ = int(known);
        view_->setTable(tableOf(partial, known));
        Q_EMIT columnFinished(columnsDone_ - 1, columns_);
    }
    if (const auto& progress = news.progress; progress && progress->max_steps > 0) {
        // the run's own progress: steps toward the limit, or the energy's decay toward decay_db
        double f = double(progress->step) / double(progress->max_steps);
        if (decayDb_ > 0) f = std::max(f, std::min(1.0, progress->energy_db / decayDb_));
        runFraction_ = std::max(runFraction_, std::clamp(f, 0.0, 1.0));
    }
    if (job_.isRunning() && columns_ > 0) {
        const double overall = std::clamp((std::max(columnsDone_, currentColumn_) + runFraction_) / columns_, 0.0, 1.0);
        const double elapsed = clock_.elapsed() / 1000.0;
        const double eta = overall > 0.02 ? elapsed * (1 - overall) / overall : -1;
        progress_->setValue(int(overall * 1000));
        progress_->setFormat(tr("port run %1 of %2 — %3 % — ETA %4")
                                 .arg(std::min(columns_, std::max(currentColumn_, 0) + 1))
                                 .arg(columns_)
                                 .arg(int(overall * 100))
                                 .arg(formatEta(eta)));
    }
}

void SParamsDock::jobFinished(editor::JobOutcome<std::shared_ptr<const SParameters>>& outcome) {
    computeButton_->setEnabled(true);
    cancelButton_->setEnabled(false);
    const double wall = clock_.elapsed() / 1000.0;
    const std::shared_ptr<const SParameters> result = outcome.result.value_or(nullptr);
    if (result) {
        result_ = result;
        columnsDone_ = int(result->labels.size());
        view_->setTable(tableOf(*result, result->labels.size()));
        progress_->setValue(1000);
        progress_->setFormat(tr("done in %1").arg(formatEta(wall)));
        setStatus(tr("S-parameters of %n port-mode(s), %1 wavelengths; written to %2", nullptr, int(result->labels.size()))
                      .arg(result->frequency_hz.size())
                      .arg(QDir::toNativeSeparators(outDir_)));
        QStringList w;
        for (const auto& s : result->warnings) w << QString::fromStdString(s);
        warnings_->setText(w.join(QLatin1Char('\n')));
        warnings_->setVisible(!w.isEmpty());
        updateStale();  // edited while it ran
        Q_EMIT finished(true, status_->text());
    } else {
        const bool cancelled = outcome.cancelled;
        progress_->setFormat(cancelled ? tr("cancelled") : tr("failed"));
        setStatus(cancelled ? tr("Cancelled after %n of %1 port run(s); the plots show the finished columns.", nullptr,
                                 columnsDone_)
                                  .arg(columns_)
                            : tr("S-parameters failed: %1").arg(outcome.error));
        updateStale();
        Q_EMIT finished(false, status_->text());
    }
}

bool SParamsDock::loadCsv(const QString& path) {
    plots::SParamsTable t;
    QString error;
    if (!plots::readSparamsCsv(path, t, &error)) {
        setStatus(tr("Cannot read S-parameters: %1").arg(error));
        return false;
    }
    view_->setTable(t);
    warnings_->setVisible(false);
    shownFor_.reset();  // a table chosen by hand: its path labels it (showProjectResults sets the project's)
    updateStale();
    setStatus(tr("%1: %n port-mode(s), %2 wavelengths", nullptr, t.size())
                  .arg(QDir::toNativeSeparators(path))
                  .arg(t.frequency_hz.size()));
    return true;
}

void SParamsDock::showProjectResults(const QString& csv) {
    if (job_.isRunning()) return;  // the running computation's plots stay
    view_->clear();
    result_.reset();
    shownFor_.reset();
    progress_->setValue(0);
    progress_->setFormat(QString());
    warnings_->setVisible(false);
    if (!csv.isEmpty() && QFileInfo::exists(csv) && loadCsv(csv)) {
        // the project's saved table: of the project as opened
        shownFor_ = current_;
        shownFile_ = currentFile_;
        outDir_ = QFileInfo(csv).absolutePath();
    } else {
        setStatus(tr("No S-parameters yet: give the project ports, then Run > Compute S-parameters."));
    }
    updateStale();
}

void SParamsDock::setCurrentProject(const Project& project, const QString& file) {
    if (current_ && currentFile_ == file && *current_ == project) return;
    // the same project under another name (Save As): what was of it still is
    if (current_ && *current_ == project && file != currentFile_ && shownFile_ == currentFile_) shownFile_ = file;
    current_ = std::make_shared<const Project>(project);
    currentFile_ = file;
    updateStale();
}

QString SParamsDock::staleText() const { return stale_->isHidden() ? QString() : stale_->text(); }

void SParamsDock::updateStale() {
    QString text;
    if (shownFor_ && current_ && !job_.isRunning()) {
        if (shownFile_ != currentFile_)
            text = tr("These S-parameters are of %1, not of the open project.")
                       .arg(shownFile_.isEmpty() ? tr("an untitled project") : QFileInfo(shownFile_).fileName());
        else if (!(*shownFor_ == *current_))
            text = tr("Computed before the last edit: Compute again for the current geometry.");
    }
    stale_->setText(text);
    stale_->setVisible(!text.isEmpty());
}

}  // namespace golightly::app
