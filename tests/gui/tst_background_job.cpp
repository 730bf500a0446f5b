// BackgroundJob (editor/src/background_job.hpp), the worker pattern of the IDE's run,
// S-parameter, sweep, port-mode and STEP-reading jobs: news and outcome arrive on the GUI
// thread, in order; whatever the work throws becomes the outcome's error (the GUI never
// crashes); cancel reaches the work; the owner can go away while a job runs.
#include <QTest>
#include <QThread>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "background_job.hpp"

using golightly::editor::BackgroundJob;
using golightly::editor::JobOutcome;

namespace {
struct News {
    std::vector<int> steps;  ///< a queue: every step shows
    std::optional<int> last;  ///< latest wins
};
}  // namespace

class TestBackgroundJob : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void newsThenResultOnTheGuiThread() {
        BackgroundJob<int, News> job(5);
        std::vector<int> seen;
        int latest = -1;
        bool newsOnGui = true, finishedOnGui = false;
        std::optional<JobOutcome<int>> got;
        job.onNews([&](News& n) {
            newsOnGui = newsOnGui && QThread::currentThread() == thread();
            seen.insert(seen.end(), n.steps.begin(), n.steps.end());
            if (n.last) latest = *n.last;
        });
        job.onFinished([&](JobOutcome<int>& o) {
            finishedOnGui = QThread::currentThread() == thread();
            got = o;
        });
        QVERIFY(job.start([](BackgroundJob<int, News>::Context& ctx) {
            for (int k = 0; k < 50; ++k) {
                ctx.post([k](News& n) {
                    n.steps.push_back(k);
                    n.last = k;
                });
                if (k % 10 == 0) QThread::msleep(2);
            }
            return 42;
        }));
        QVERIFY(job.isRunning());
        QVERIFY(!job.start([](auto&) { return 0; }));  // one job at a time
        QVERIFY(job.waitForFinished(10000));
        QVERIFY(!job.isRunning());
        QVERIFY(got && got->ok());
        QCOMPARE(*got->result, 42);
        QVERIFY(got->error.isEmpty());
        QVERIFY(!got->cancelled);
        QVERIFY(newsOnGui && finishedOnGui);
        QCOMPARE(int(seen.size()), 50);  // the last news came before the outcome
        for (int k = 0; k < 50; ++k) QCOMPARE(seen[size_t(k)], k);
        QCOMPARE(latest, 49);
        // the job can run again
        QVERIFY(job.start([](auto&) { return 7; }));
        QVERIFY(job.waitForFinished(10000));
        QCOMPARE(*got->result, 7);
    }

    void whatTheWorkThrowsIsTheError() {
        BackgroundJob<int> job(5);
        std::optional<JobOutcome<int>> got;
        job.onFinished([&](JobOutcome<int>& o) { got = o; });
        QVERIFY(job.start([](auto&) -> int { throw std::runtime_error("the solver failed"); }));
        QVERIFY(job.waitForFinished(10000));
        QVERIFY(got && !got->ok());
        QCOMPARE(got->error, QStringLiteral("the solver failed"));
        got.reset();
        QVERIFY(job.start([](auto&) -> int { throw 17; }));  // not a std::exception
        QVERIFY(job.waitForFinished(10000));
        QVERIFY(got && !got->ok());
        QCOMPARE(got->error, QStringLiteral("unknown error"));
    }

    void cancelReachesTheWork() {
        BackgroundJob<int> job(5);
        std::optional<JobOutcome<int>> got;
        job.onFinished([&](JobOutcome<int>& o) { got = o; });
        std::atomic<bool> started{false};
        QVERIFY(job.start([&started](BackgroundJob<int>::Context& ctx) {
            started = true;
            int n = 0;
            while (!ctx.cancelFlag()->load()) {  // as RunOptions::cancel is polled
                QThread::msleep(1);
                ++n;
            }
            return n;
        }));
        QTRY_VERIFY(started.load());
        QVERIFY(!job.waitForFinished(50));  // runs until cancelled
        job.cancel();
        QVERIFY(job.cancelRequested());
        QVERIFY(job.waitForFinished(10000));
        QVERIFY(got && got->ok() && got->cancelled);
    }

    void waitForThreadDeliversAtOnce() {
        BackgroundJob<int> job(100000);  // no timer poll in this test's time
        bool finished = false;
        job.onFinished([&](JobOutcome<int>&) { finished = true; });
        QVERIFY(job.start([](auto&) { return 1; }));
        QVERIFY(job.waitForThread(10000));
        QVERIFY(finished);
        QVERIFY(!job.isRunning());
    }

    void ownerGoesAwayWhileRunning() {
        std::atomic<bool> started{false}, stopped{false};
        bool finished = false;
        {
            BackgroundJob<int> job(5);
            job.onFinished([&](JobOutcome<int>&) { finished = true; });
            QVERIFY(job.start([&](BackgroundJob<int>::Context& ctx) {
                started = true;
                while (!ctx.cancelled()) QThread::msleep(1);
                stopped = true;
                return 0;
            }));
            QTRY_VERIFY(started.load());
        }  // cancels and joins; no handler runs
        QVERIFY(stopped.load());
        QVERIFY(!finished);
    }
};

QTEST_MAIN(TestBackgroundJob)
#include "tst_background_job.moc"
