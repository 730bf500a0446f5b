// GoLightly IDE: one pattern for work off the GUI thread (the run, S-parameters, sweeps
// and optimizations, port modes, STEP file reading). In editor/, the lowest Qt layer, so
// that editor/ and app/ share it.
//
// BackgroundJob<Result, News> runs a work function on its own thread. The worker never
// touches Qt objects and never waits for the GUI: it reports through a mailbox of type
// News (Context::post, under a mutex, latest-wins fields or queues as the caller designs
// them) and watches a cancel flag (Context::cancelFlag, e.g. for RunOptions::cancel). The
// GUI thread polls the mailbox on a timer: each poll takes the News posted since the last
// one (the mailbox starts over from News{}) and hands it to the news handler; when the
// work has returned, the last News, then the Outcome (the result, or what the work threw)
// go to their handlers, the thread joined. An exception from the work (a solver error,
// out of memory) becomes Outcome::error: it never reaches the GUI's event loop.
#pragma once

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QString>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <variant>

namespace golightly::editor {

/// How a background job ended (delivered on the GUI thread).
template <class Result>
struct JobOutcome {
    std::optional<Result> result;  ///< set when the work returned
    QString error;                 ///< what the work threw, when it did not return
    bool cancelled = false;        ///< cancel() was called during the job
    bool ok() const { return result.has_value(); }
};

template <class Result, class News = std::monostate>
class BackgroundJob {
    struct State {
        std::mutex mutex;
        News news;
        bool done = false;
        JobOutcome<Result> outcome;
        std::atomic<bool> cancel{false};
    };

public:
    /// The worker's side of the job: cancel flag and mailbox. Lives as long as the thread.
    class Context {
    public:
        bool cancelled() const { return state_->cancel.load(); }
        /// For the solver's RunOptions::cancel / SweepOptions::cancel.
        std::atomic<bool>* cancelFlag() const { return &state_->cancel; }
        /// Calls f(News&) under the mailbox's lock: keep it to a few copies.
        template <class F>
        void post(F&& f) const {
            std::lock_guard<std::mutex> lock(state_->mutex);
            f(state_->news);
        }

    private:
        friend class BackgroundJob;
        explicit Context(std::shared_ptr<State> s) : state_(std::move(s)) {}
        std::shared_ptr<State> state_;
    };

    using Work = std::function<Result(Context&)>;
    using NewsHandler = std::function<void(News&)>;
    using FinishHandler = std::function<void(JobOutcome<Result>&)>;

    /// `pollMs`: how often the GUI thread takes the news (the timer lives in the thread
    /// that makes the job, the GUI thread).
    explicit BackgroundJob(int pollMs = 80) {
        timer_.setInterval(pollMs);
        QObject::connect(&timer_, &QTimer::timeout, [this] { poll(); });
    }
    /// Cancels a running job and waits for its thread; no handler is called.
    ~BackgroundJob() { cancelAndDiscard(); }
    BackgroundJob(const BackgroundJob&) = delete;
    BackgroundJob& operator=(const BackgroundJob&) = delete;

    /// Called on the GUI thread at every poll while the job runs (also when nothing was
    /// posted: News{}), and once more with the last news before the outcome.
    void onNews(NewsHandler h) { onNews_ = std::move(h); }
    /// Called on the GUI thread once per job, after the thread ended.
    void onFinished(FinishHandler h) { onFinished_ = std::move(h); }

    /// Starts `work` on a new thread named `threadName`. False when a job runs already.
    bool start(Work work, const QString& threadName = QStringLiteral("golightly-job")) {
        if (thread_) return false;
        state_ = std::make_shared<State>();
        thread_ = QThread::create([state = state_, work = std::move(work)] {
            Context ctx(state);
            JobOutcome<Result> outcome;
            try {
                outcome.result.emplace(work(ctx));
            } catch (const std::exception& e) {
                outcome.error = QString::fromStdString(e.what());
            } catch (...) {
                outcome.error = QCoreApplication::translate("golightly::editor::BackgroundJob", "unknown error");
            }
            std::lock_guard<std::mutex> lock(state->mutex);
            state->outcome = std::move(outcome);
            state->done = true;
        });
        thread_->setObjectName(threadName);
        thread_->start();
        timer_.start();
        return true;
    }

    /// True from start() until the outcome was delivered.
    bool isRunning() const { return thread_ != nullptr; }
    /// Asks the work to stop (it sees cancelFlag()); the outcome comes as usual.
    void cancel() {
        if (state_) state_->cancel.store(true);
    }
    bool cancelRequested() const { return state_ && state_->cancel.load(); }

    /// Cancels a running job, waits for its thread and drops its outcome: no handler is
    /// called (for owners going away).
    void cancelAndDiscard() {
        if (!thread_) return;
        state_->cancel.store(true);
        timer_.stop();
        thread_->wait();
        delete thread_;
        thread_ = nullptr;
    }

    /// The running job's context, for another worker thread to post news through (valid
    /// after start(); it keeps the mailbox alive).
    Context context() const { return Context(state_); }

    /// Processes events until the outcome was delivered; true when that happened within `ms`.
    bool waitForFinished(int ms) {
        QElapsedTimer t;
        t.start();
        while (thread_ && t.elapsed() < ms) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            poll();
            if (thread_) QThread::msleep(5);
        }
        return !thread_;
    }
    /// Waits (without processing events) at most `ms` for the thread, then delivers the
    /// outcome at once; true when the thread ended.
    bool waitForThread(int ms) {
        if (!thread_) return true;
        if (!thread_->wait(QDeadlineTimer(ms))) return false;
        poll();
        return true;
    }

    /// Takes the news and, when the work has returned, delivers the outcome (GUI thread;
    /// the timer calls it).
    void poll() {
        if (!thread_) return;
        News news;
        bool done = false;
        JobOutcome<Result> outcome;
        {
            std::lock_guard<std::mutex> lock(state_->mutex);
            news = std::exchange(state_->news, News{});
            done = state_->done;
            if (done) outcome = std::move(state_->outcome);
        }
        if (done) {
            timer_.stop();
            thread_->wait();
            delete thread_;
            thread_ = nullptr;
            outcome.cancelled = state_->cancel.load();
        }
        // a handler may start the next job: nothing of this one is touched after them
        if (onNews_) onNews_(news);
        if (done && onFinished_) onFinished_(outcome);
    }

private:
    std::shared_ptr<State> state_;
    QThread* thread_ = nullptr;
    QTimer timer_;
    NewsHandler onNews_;
    FinishHandler onFinished_;
};

}  // namespace golightly::editor
