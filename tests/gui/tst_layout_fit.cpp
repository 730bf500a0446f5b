// Two layout defects, in English and German:
//  - the start page's example pictures: the names of nested monitors and sources (the 3D
//    examples' "plane wave", "scattering", "absorption", "mid plane" at one corner) must not
//    cover each other; the selected item's name is always drawn;
//  - the Monitors dock at the documented window width (1560 px): every tab of its tab bar
//    fits whole (no scroll arrows, no elided name), each with a tool tip saying what it shows;
//    the tabs are those of the pages the project fills (or that hold results).
// With GOLIGHTLY_SCREENSHOT_DIR set it saves start-page.png, monitors-tabs.png and the
// German de/start-page.png and de/monitors-tabs.png there.
#include <QDir>
#include <QPainter>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>
#include <QTranslator>

#include <algorithm>
#include <optional>

#include "canvas.hpp"
#include "editor_document.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "gui_fixture.hpp"
#include "main_window.hpp"
#include "far_field_view.hpp"
#include "monitors_dock.hpp"
#include "qcustomplot_include.hpp"
#include "start_page.hpp"

using namespace golightly;

namespace {
/// The pairs of labels whose rectangles intersect, as "a / b".
QStringList overlaps(const std::vector<std::pair<QString, QRectF>>& labels) {
    QStringList out;
    for (size_t i = 0; i < labels.size(); ++i)
        for (size_t j = i + 1; j < labels.size(); ++j)
            if (labels[i].second.intersects(labels[j].second)) out << labels[i].first + QStringLiteral(" / ") + labels[j].first;
    return out;
}

/// Saves `image` as `name` under GOLIGHTLY_SCREENSHOT_DIR (nothing without it).
void save(const QImage& image, const QString& name) {
    const QString shots = qEnvironmentVariable("GOLIGHTLY_SCREENSHOT_DIR");
    if (shots.isEmpty()) return;
    const QString path = QDir(shots).filePath(name);
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    QVERIFY(image.save(path));
}
}  // namespace

/// The interface in German while it lives: the translator and the locale (decimal commas),
/// as View > Language sets them.
class German {
public:
    German() {
        QVERIFY(ok_ = de_.load(QLocale(QStringLiteral("de")), QStringLiteral("golightly"), QStringLiteral("_"),
                               QStringLiteral(":/i18n")));
        QCoreApplication::installTranslator(&de_);
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    }
    ~German() {
        QCoreApplication::removeTranslator(&de_);
        QLocale::setDefault(previous_);
    }
    bool loaded() const { return ok_; }

private:
    QTranslator de_;
    QLocale previous_;
    bool ok_ = false;
};

class TestLayoutFit : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    test::StubPrompts prompts_;

    /// The Monitors dock's tabs at 1560 px (the window of the user guide's pictures).
    void checkTabsFit(const QString& example, const QString& shotName) {
        app::MainWindow w(test::windowOptions(dir_, &prompts_));
        w.resize(1560, 1000);
        w.show();
        QVERIFY(w.openFile(test::kExamplesDir + QLatin1Char('/') + example));
        w.monitorsDock()->show();
        w.monitorsDock()->raise();
        QTest::qWait(200);
        QTabWidget* tabs = w.monitorsDock()->tabs();
        QTabBar* bar = tabs->tabBar();
        QCOMPARE(bar->count(), 8);
        const int width = bar->width();
        if (!shotName.isEmpty()) save(w.monitorsDock()->grab().toImage(), shotName);
        for (int i = 0; i < bar->count(); ++i) {
            // inside the bar: no scroll arrows needed
            QVERIFY2(bar->tabRect(i).right() < width,
                     qPrintable(QStringLiteral("tab %1 \"%2\" ends at %3 of a %4 px bar (dock %5 px)")
                                    .arg(i)
                                    .arg(bar->tabText(i))
                                    .arg(bar->tabRect(i).right())
                                    .arg(width)
                                    .arg(w.monitorsDock()->width())));
        }
        for (int i = 0; i < bar->count(); ++i) {
            QVERIFY2(!bar->tabToolTip(i).isEmpty(), qPrintable(bar->tabText(i)));
            // and whole: not elided (the text and some margin fit the tab)
            if (bar->isTabVisible(i))
                QVERIFY2(bar->tabRect(i).width() >= bar->fontMetrics().horizontalAdvance(bar->tabText(i)) + 8,
                         qPrintable(QStringLiteral("tab \"%1\" is %2 px wide").arg(bar->tabText(i)).arg(bar->tabRect(i).width())));
        }
    }

private Q_SLOTS:
    void exampleLabelsDoNotOverlap() {
        // every example's picture as the start page draws it (200 x 130 px)
        const QStringList files = QDir(test::kExamplesDir).entryList({QStringLiteral("*.glproj")}, QDir::Files);
        QVERIFY(files.size() >= 10);
        int threeD = 0;
        for (const QString& f : files) {
            std::vector<std::pair<QString, QRectF>> labels;
            const QImage img = app::StartPage::renderExample(QDir(test::kExamplesDir).filePath(f), QSize(200, 130), &labels);
            QVERIFY(!img.isNull());
            QVERIFY2(!labels.empty(), qPrintable(f));  // names are drawn
            const QStringList bad = overlaps(labels);
            QVERIFY2(bad.isEmpty(), qPrintable(f + QStringLiteral(": ") + bad.join(QStringLiteral(", "))));
            threeD += f.endsWith(QStringLiteral("_3d.glproj")) ? 1 : 0;
        }
        QVERIFY(threeD >= 4);
    }

    void selectedLabelIsKept() {
        // the sphere's nested boxes on a small canvas: whichever item is selected, its name
        // is among those drawn, and none covers another
        editor::EditorDocument doc;
        test::StubPrompts prompts;
        QVERIFY(doc.open(test::kExamplesDir + QStringLiteral("/sphere_scattering_3d.glproj"), prompts));
        const int monitors = int(doc.project().monitors.size());
        QVERIFY(monitors >= 2);
        for (int i = 0; i < monitors; ++i) {
            doc.setSelection({editor::ItemRef::Kind::Monitor, -1, i});
            editor::Canvas canvas(&doc);
            canvas.resize(200, 130);
            QImage img(200, 130, QImage::Format_ARGB32_Premultiplied);
            QPainter p(&img);
            canvas.renderScene(p, QRectF(0, 0, 200, 130), false);
            p.end();
            const QString name = QString::fromStdString(doc.project().monitors[size_t(i)].name);
            const auto& labels = canvas.drawnLabels();
            QVERIFY2(std::any_of(labels.begin(), labels.end(), [&](const auto& l) { return l.first == name; }), qPrintable(name));
            QVERIFY2(overlaps(labels).isEmpty(), qPrintable(overlaps(labels).join(QStringLiteral(", "))));
        }
    }

    void monitorsTabsFit_data() {
        QTest::addColumn<QString>("example");
        QTest::addColumn<bool>("german");
        for (const bool german : {false, true})
            for (const char* f : {"quickstart.glproj", "sphere_scattering_3d.glproj", "grating_normal_2d.glproj",
                                  "ring_resonator.glproj"})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(f), german ? "de" : "en")))
                    << QString::fromLatin1(f) << german;
    }
    void monitorsTabsFit() {
        QFETCH(QString, example);
        QFETCH(bool, german);
        std::optional<German> de;
        if (german) {
            de.emplace();
            QVERIFY(de->loaded());
        }
        // the picture: the 3D scattering example (its cross-section and far-field pages)
        const bool pictured = example == QLatin1String("sphere_scattering_3d.glproj");
        checkTabsFit(example, pictured ? (german ? QStringLiteral("de/monitors-tabs.png") : QStringLiteral("monitors-tabs.png"))
                                          : QString());
    }

    void pagesFollowTheProject() {
        // the pages a project's monitors fill have tabs; results show their page anyway
        plots::MonitorsDock dock;
        QVERIFY(dock.pageShown(dock.modeAmplitudePlot()));  // before a project: every page
        Project p = parse_project(R"({"format": "golightly-project", "version": 1, "name": "t",
            "domain": {"size": [4, 3], "cell_size": 0.05},
            "monitors": [{"name": "T", "type": "flux", "kind": "transmission", "from": [3, 0.5], "to": [3, 2.5], "direction": "+x"}],
            "run": {"spectrum": {"wavelength_min": 1.4, "wavelength_max": 1.7, "points": 3}}})",
                                  "t.glproj");
        dock.showPagesFor(p);
        QVERIFY(dock.pageShown(dock.spectraPlot()));
        QVERIFY(dock.pageShown(dock.energyPlot()));
        for (QWidget* page : {static_cast<QWidget*>(dock.timePlot()), static_cast<QWidget*>(dock.crossSectionPlot()),
                              static_cast<QWidget*>(dock.resonanceTable()), static_cast<QWidget*>(dock.farFieldView()),
                              static_cast<QWidget*>(dock.modeAmplitudePlot())})
            QVERIFY2(!dock.pageShown(page), qPrintable(page->objectName()));
        // a mode monitor: its page
        Monitor mode = p.monitors[0];
        mode.name = "m";
        mode.kind = "mode";
        p.monitors.push_back(mode);
        dock.showPagesFor(p);
        QVERIFY(dock.pageShown(dock.modeAmplitudePlot()));
        // a time series in the results while the project has no time monitor: its page shows
        RunResult r;
        TimeSeriesResult ts;
        ts.name = "probe";
        ts.time_fs = {0, 1, 2};
        ts.values = {0, 1, 0};
        r.time_series = {ts};
        dock.setFinal(r);
        QVERIFY(dock.pageShown(dock.timePlot()));
        dock.reset();
        QVERIFY(!dock.pageShown(dock.timePlot()));
        QCOMPARE(dock.tabs()->currentIndex(), 0);
    }

    void startPagePictures() {
        // the start page at the user guide's size, English and German (saved with
        // GOLIGHTLY_SCREENSHOT_DIR), every example picture drawn
        for (const bool german : {false, true}) {
            std::optional<German> de;
            if (german) {
                de.emplace();
                QVERIFY(de->loaded());
            }
            {
                app::MainWindow w(test::windowOptions(dir_, &prompts_));
                w.resize(1560, 960);
                w.show();
                w.showStartPage();
                QVERIFY(w.startPageShown());
                const QStringList examples = w.startPage()->examples();
                QVERIFY(!examples.isEmpty());
                const QString last = QFileInfo(examples.back()).completeBaseName();
                QTRY_VERIFY_WITH_TIMEOUT(!w.startPage()->findChild<QToolButton*>(QStringLiteral("example.") + last)->icon().isNull(),
                                         20000);
                QTest::qWait(300);
                save(w.grab().toImage(), german ? QStringLiteral("de/start-page.png") : QStringLiteral("start-page.png"));
            }
        }
    }
};

QTEST_MAIN(TestLayoutFit)
#include "tst_layout_fit.moc"
