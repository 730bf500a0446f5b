// Issue 20: the IDE as a newcomer meets it (tst_newcomer.cpp has the run and its checks);
// here editing, the look and the language: wheel only with focus, the default layout and
// material copies, tool hints and keys, the STEP dialog, painting on the field view,
// translated buttons and a live language switch, the plot legend, resonances and far
// fields, and pristine examples.
#include <QAbstractScrollArea>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>
#include <QTranslator>
#include <QUndoStack>
#include <QWheelEvent>
#include <QtTest/qtestspontaneevent.h>

#include "qcustomplot_include.hpp"

#include <cmath>

#include "docks.hpp"
#include "field_view.hpp"
#include "golightly/colormap.hpp"
#include "golightly/compile.hpp"
#include "golightly/project.hpp"
#include "gui_test_util.hpp"
#include "language.hpp"
#include "main_window.hpp"
#include "far_field_view.hpp"
#include "monitors_dock.hpp"
#include "number_spin_box.hpp"
#include "run_checks.hpp"
#include "run_controller.hpp"
#include "run_progress.hpp"
#include "start_page.hpp"
#include "step_import_dialog.hpp"
#include "tools.hpp"
#include "newcomer_fixture.hpp"

using namespace golightly;
using namespace golightly::editor;
using golightly::test::kExamplesDir;
using golightly::test::StubPrompts;
using namespace golightly::test::newcomer;

class TestNewcomerEditing : public QObject, public Fixture {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initFixture(); }

    // ---- 8: the wheel scrolls the dock; it changes a spin box only when it has the focus
    void wheelOnlyWithFocus() {
        app::MainWindow w(options());
        w.resize(1100, 560);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.runSetupDock()->raise();  // a tab behind Properties by default
        QTest::qWait(20);
        QDoubleSpinBox* cell = w.runSetupDock()->cellSize();
        auto* scroll = qobject_cast<QScrollArea*>(w.runSetupDock()->widget());
        QVERIFY(scroll);
        QVERIFY(cell->focusPolicy() != Qt::WheelFocus);
        scroll->verticalScrollBar()->setValue(0);
        const double before = cell->value();
        const QPoint at = cell->rect().center();
        // as from the mouse (a spontaneous event: only those travel on to the parents)
        auto wheel = [&](int dy) {
            QWheelEvent e(QPointF(at), cell->mapToGlobal(QPointF(at)), QPoint(), QPoint(0, dy), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
            QSpontaneKeyEvent::setSpontaneous(&e);
            qApp->notify(cell, &e);
        };
        wheel(-120);
        QCOMPARE(cell->value(), before);
        QVERIFY(!cell->hasFocus());
        QVERIFY(scroll->verticalScrollBar()->maximum() > 0);
        QVERIFY(scroll->verticalScrollBar()->value() > 0);  // the dock scrolled instead
        cell->setFocus();
        QVERIFY(cell->hasFocus());
        wheel(120);
        QVERIFY(cell->value() > before);
    }

    // ---- 9: the default layout at 1600 x 1000 and a named copy of a material
    void defaultLayoutAndMaterialCopy() {
        NamingPrompts prompts;
        app::MainWindowOptions o = options(&prompts);
        o.settingsApplication = QStringLiteral("golightly-layout");  // nothing saved: the default layout
        app::MainWindow w(o);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(200);
        shot(QStringLiteral("layout-1600x1000"), &w);
        // the canvas keeps most of the window; every dock has room to work in
        QVERIFY2(w.canvas()->width() >= 700 && w.canvas()->height() >= 450,
                 qPrintable(QStringLiteral("%1 x %2").arg(w.canvas()->width()).arg(w.canvas()->height())));
        for (QDockWidget* d : {static_cast<QDockWidget*>(w.layersDock()), static_cast<QDockWidget*>(w.materialsDock()),
                               static_cast<QDockWidget*>(w.propertiesDock()), static_cast<QDockWidget*>(w.runSetupDock()),
                               static_cast<QDockWidget*>(w.monitorsDock())}) {
            if (d->visibleRegion().isEmpty()) continue;  // a tab behind another one
            QVERIFY2(d->width() >= 280 && d->height() >= 200,
                     qPrintable(QStringLiteral("%1: %2 x %3").arg(d->windowTitle()).arg(d->width()).arg(d->height())));
        }
        // a material that is already there: the copy gets the name the user gives
        Material sio2;
        sio2.id = w.document()->project().materials.front().id;
        sio2.epsilon_inf = 2.1;
        const int before = int(w.document()->project().materials.size());
        prompts.answers = {sio2.id.c_str(), QStringLiteral("oxide_thermal")};  // a taken id first: asked again
        const int row = w.materialsDock()->addLibraryMaterial(sio2);
        QCOMPARE(prompts.asked.size(), 2);
        QVERIFY2(prompts.asked.front().contains(QStringLiteral("already has a material")), qPrintable(prompts.asked.front()));
        QVERIFY(row >= 0);
        QCOMPARE(w.document()->project().materials[size_t(row)].id, std::string("oxide_thermal"));
        // cancel: nothing is added
        prompts.answers.clear();
        QCOMPARE(w.materialsDock()->addLibraryMaterial(sio2), -1);
        QCOMPARE(int(w.document()->project().materials.size()), before + 1);
    }

    // ---- 10: the path tool explains itself; tool keys work while a dock has the focus
    void pathHintsAndToolKeysFromDocks() {
        app::MainWindow w(options());
        w.resize(1200, 800);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        auto* hint = w.findChild<QLabel*>(QStringLiteral("toolHint"));
        QVERIFY(hint);
        w.action(QStringLiteral("tool.path"))->trigger();
        QVERIFY2(hint->text().contains(QStringLiteral("click to place the first point")), qPrintable(hint->text()));
        Canvas* c = w.canvas();
        QTest::mouseClick(c, Qt::LeftButton, Qt::NoModifier, c->toScreen(QPointF(2, 2)).toPoint());
        QVERIFY2(hint->text().contains(QStringLiteral("Click the next point")), qPrintable(hint->text()));
        QTest::mouseClick(c, Qt::LeftButton, Qt::NoModifier, c->toScreen(QPointF(6, 2)).toPoint());
        QVERIFY2(hint->text().contains(QStringLiteral("double-click, Enter or right-click finishes")), qPrintable(hint->text()));
        QTest::qWait(100);
        shot(QStringLiteral("path-hint"), &w);
        QTest::keyClick(c, Qt::Key_Escape);
        QVERIFY(hint->text().contains(QStringLiteral("first point")));
        // tool keys from the Layers list and the Materials table
        w.layersDock()->list()->setFocus();
        QVERIFY(w.layersDock()->list()->hasFocus());
        QTest::keyClick(w.layersDock()->list(), Qt::Key_R);
        QVERIFY(w.action(QStringLiteral("tool.rectangle"))->isChecked());
        w.materialsDock()->table()->setFocus();
        QTest::keyClick(w.materialsDock()->table(), Qt::Key_E);
        QVERIFY(w.action(QStringLiteral("tool.ellipse"))->isChecked());
        // a letter typed into a number field is not a tool key (issue 55: "d" in an
        // expression switched tools); the status bar says where the tool keys work
        w.action(QStringLiteral("tool.path"))->trigger();
        w.runSetupDock()->raise();
        QDoubleSpinBox* cell = w.runSetupDock()->cellSize();
        cell->setFocus();
        QVERIFY(cell->hasFocus());
        const QString cellText = cell->text();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_E);
        QVERIFY(w.action(QStringLiteral("tool.path"))->isChecked());
        QCOMPARE(cell->text(), cellText);
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("Esc")), qPrintable(w.statusBar()->currentMessage()));
        // digits still go into the number field, and a text field still takes letters
        auto* text = new QLineEdit;
        w.statusBar()->addWidget(text);
        text->show();
        text->setFocus();
        QTest::keyClick(text, Qt::Key_R);
        QCOMPARE(text->text(), QStringLiteral("r"));
        QVERIFY(w.action(QStringLiteral("tool.path"))->isChecked());
        // Esc in a dock gives the canvas the keys back
        cell->setFocus();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QVERIFY(c->hasFocus());
        QTest::keyClick(c, Qt::Key_E);
        QVERIFY(w.action(QStringLiteral("tool.ellipse"))->isChecked());
    }

    // ---- 11: the STEP dialog: keyboard order, the slice plane, numbers without float noise
    void stepDialogOrderSliceAndNumbers() {
        QCOMPARE(trimmed_number(0.1 + 0.2, 6, QLocale::c()), QStringLiteral("0.3"));
        QCOMPARE(trimmed_number(1000.0, 6, QLocale::c()), QStringLiteral("1000"));
        QCOMPARE(trimmed_number(-2.5, 4, QLocale::c()), QStringLiteral("-2.5"));
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_OCCT, step_import_available(), "occt");
        StubPrompts prompts;
        EditorDocument doc;
        StepImportDialog dlg(&doc, &prompts);
        dlg.loadFile(kExamplesDir + QStringLiteral("/step_ring.step"));
        QVERIFY(dlg.waitForLoaded(120000));
        // x, y, z translation, then the rotations, then the slice plane
        auto next = [](QWidget* w) {  // the next widget Tab goes to (not w's own line edit)
            QWidget* n = w->nextInFocusChain();
            while (n && n != w && (w->isAncestorOf(n) || n->focusPolicy() == Qt::NoFocus)) n = n->nextInFocusChain();
            return n;
        };
        QCOMPARE(next(dlg.translateSpin(0)), static_cast<QWidget*>(dlg.translateSpin(1)));
        QCOMPARE(next(dlg.scaleSpin()), static_cast<QWidget*>(dlg.translateSpin(0)));
        QCOMPARE(next(dlg.translateSpin(1)), static_cast<QWidget*>(dlg.translateSpin(2)));
        QCOMPARE(next(dlg.translateSpin(2)), static_cast<QWidget*>(dlg.rotateSpin(0)));
        QCOMPARE(next(dlg.rotateSpin(2)), static_cast<QWidget*>(dlg.sliceZSpin()));
        // float noise is not shown
        dlg.scaleSpin()->setValue(0.1 + 0.2);
        QCOMPARE(dlg.scaleSpin()->cleanText(), QLocale().toString(0.3));
        dlg.scaleSpin()->setValue(1.0);
        // the slice plane: shown, and stored in the project by the import (one undo step)
        QCOMPARE(dlg.sliceZSpin()->value(), doc.project().domain.slice_z);
        dlg.sliceZSpin()->setValue(0.05);
        const auto areas = dlg.sectionAreas();
        for (int k = 0; k < int(areas.size()); ++k) dlg.setSolidIncluded(k, true);
        const int count = doc.undoStack()->count();
        dlg.show();
        QTest::qWait(300);
        shot(QStringLiteral("step-dialog"), &dlg);
        QVERIFY(dlg.importIntoDocument());
        QCOMPARE(doc.project().domain.slice_z, 0.05);
        QCOMPARE(doc.undoStack()->count(), count + 1);
    }

    // ---- 12: with live edit, the brush paints on the field view instead of panning
    void paintingOnTheFieldView() {
        app::MainWindow w(options());
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(copyExample(QStringLiteral("quickstart.glproj"))));
        w.showFieldView(true);
        viewport::FieldView* fv = w.fieldView();
        fv->setView(w.canvas()->pixelsPerUm(), w.canvas()->viewCenter());
        w.action(QStringLiteral("tool.brush"))->trigger();
        auto shapesCount = [&] {
            int n = 0;
            for (const auto& l : w.document()->project().layers) n += int(l.shapes.size());
            return n;
        };
        auto stroke = [&] {
            const QPoint a = fv->toScreen(QPointF(1.0, 1.0)).toPoint(), b = fv->toScreen(QPointF(1.6, 1.2)).toPoint();
            QTest::mousePress(fv, Qt::LeftButton, Qt::NoModifier, a);
            QTest::mouseMove(fv, (a + b) / 2);
            QTest::mouseMove(fv, b);
            QTest::mouseRelease(fv, Qt::LeftButton, Qt::NoModifier, b);
        };
        // live edit off: a drag pans the view
        w.action(QStringLiteral("run.liveEdit"))->setChecked(false);
        const int before = shapesCount();
        const QPointF c0 = fv->viewCenter();
        stroke();
        QCOMPARE(shapesCount(), before);
        QVERIFY(fv->viewCenter() != c0);
        // live edit on: the same drag paints, the view stays
        w.action(QStringLiteral("run.liveEdit"))->setChecked(true);
        const QPointF c1 = fv->viewCenter();
        const int undo = w.document()->undoStack()->count();
        stroke();
        QCOMPARE(fv->viewCenter(), c1);
        QVERIFY(w.document()->undoStack()->count() > undo);
        QCOMPARE(shapesCount(), before + 1);  // a painted raster
        shot(QStringLiteral("painted-on-field-view"), fv->renderToImage(QSize(900, 600)));
        w.action(QStringLiteral("run.liveEdit"))->setChecked(false);
    }

    // ---- 13: translated buttons, local timestamps, the language changes at once
    void buttonsTimestampsAndLanguage() {
        QTranslator de;
        QVERIFY(de.load(QLocale(QStringLiteral("de")), QStringLiteral("golightly"), QStringLiteral("_"), QStringLiteral(":/i18n")));
        QCoreApplication::installTranslator(&de);
        QMessageBox box(QMessageBox::Question, QStringLiteral("t"), QStringLiteral("q"), QMessageBox::Yes | QMessageBox::No);
        const QString yes = box.button(QMessageBox::Yes)->text(), no = box.button(QMessageBox::No)->text();
        QDialogButtonBox bb(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
        const QString cancel = bb.button(QDialogButtonBox::Cancel)->text();
        QCoreApplication::removeTranslator(&de);
        QCOMPARE(yes, QStringLiteral("&Ja"));
        QCOMPARE(no, QStringLiteral("&Nein"));
        QCOMPARE(cancel, QStringLiteral("Abbrechen"));

        // the recovery question shows the time in the user's format, not ISO 8601
        StubPrompts prompts;
        {
            app::MainWindow w(options(&prompts));
            w.document()->editProject(QStringLiteral("edit"), [](Project& p) { p.name = "changed"; });
            QVERIFY(w.autosaveNow());
        }
        {
            prompts.recoverAnswer = false;
            app::MainWindow w(options(&prompts));
            QVERIFY(!w.offerRecovery());
            QVERIFY(!prompts.recoverText.isEmpty());
            QVERIFY2(!prompts.recoverText.contains(QRegularExpression(QStringLiteral("\\d{4}-\\d\\d-\\d\\dT\\d\\d"))),
                     qPrintable(prompts.recoverText));
            QVERIFY(prompts.recoverText.contains(QLocale().toString(QDate::currentDate(), QLocale::LongFormat).left(3)) ||
                    prompts.recoverText.contains(QString::number(QDate::currentDate().year())));
        }

        // View > Language: the window is rebuilt in the new language at once, project kept
        app::MainWindowOptions o = options(&prompts);
        o.settingsApplication = QStringLiteral("golightly-lang-live");
        auto* w = new app::MainWindow(o);
        w->document()->editProject(QStringLiteral("edit"), [](Project& p) { p.name = "keep me"; });
        QSignalSpy changed(w, &app::MainWindow::languageChanged);
        w->findChild<QAction*>(QStringLiteral("view.language.de"))->trigger();
        QCOMPARE(changed.count(), 1);
        std::unique_ptr<app::MainWindow> next(w->recreate());
        delete w;
        QStringList titles;
        for (QAction* a : next->menuBar()->actions()) titles << a->text();
        QVERIFY2(titles.contains(QStringLiteral("&Datei")), qPrintable(titles.join('|')));
        next->resize(1300, 800);
        next->show();
        QTest::qWait(50);
        shot(QStringLiteral("german-live"), next.get());
        QCOMPARE(next->document()->project().name, std::string("keep me"));
        QVERIFY(next->document()->isModified());
        // and back to English
        next->findChild<QAction*>(QStringLiteral("view.language.en"))->trigger();
        std::unique_ptr<app::MainWindow> back(next->recreate());
        titles.clear();
        for (QAction* a : back->menuBar()->actions()) titles << a->text();
        QVERIFY2(titles.contains(QStringLiteral("&File")), qPrintable(titles.join('|')));
        QSettings(o.settingsOrganization, o.settingsApplication).remove(QLatin1String(app::kLanguageSettingsKey));
        app::installTranslators(*QCoreApplication::instance(), o.settingsOrganization, o.settingsApplication);
        // lengths are in µm in the docks
        QVERIFY2(back->runSetupDock()->cellSize()->suffix().contains(QStringLiteral("µm")),
                 qPrintable(back->runSetupDock()->cellSize()->suffix()));
    }

    // ---- 14: the legend does not cover the curves; the time axes carry their unit
    void legendBesideTheCurves() {
        plots::MonitorsDock dock;
        dock.resize(700, 420);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        QTest::qWait(200);
        // empty (no run yet): the axes fill the plot, no shrunken picture
        shot(QStringLiteral("empty-plot"), &dock);
        QVERIFY2(dock.spectraPlot()->axisRect()->rect().width() > dock.spectraPlot()->width() / 2,
                 qPrintable(QStringLiteral("axes %1 px wide in a %2 px plot").arg(dock.spectraPlot()->axisRect()->rect().width()).arg(dock.spectraPlot()->width())));
        RunResult r;
        r.normalized = true;
        r.frequency_hz = {2.0e14, 2.2e14, 2.4e14};
        for (const char* name : {"T", "R", "A", "T2", "R2"}) {
            FluxSpectrumResult s;
            s.name = name;
            s.kind = "transmission";
            s.flux = {1, 2, 3};
            s.normalized = {0.1, 0.5, 0.9};
            r.spectra.push_back(s);
        }
        dock.setFinal(r);
        QCustomPlot* plot = dock.spectraPlot();
        plot->replot();
        int items = 0;
        for (int k = 0; k < plot->legend->itemCount(); ++k) items += plot->legend->item(k) != nullptr;
        QCOMPARE(items, 5);
        QVERIFY(plot->legend->visible());
        const QRect legend = plot->legend->outerRect();
        const QRect axes = plot->axisRect()->rect();
        QVERIFY2(!legend.intersects(axes), qPrintable(QStringLiteral("legend %1,%2 %3x%4 axes %5,%6 %7x%8")
                                                           .arg(legend.x()).arg(legend.y()).arg(legend.width()).arg(legend.height())
                                                           .arg(axes.x()).arg(axes.y()).arg(axes.width()).arg(axes.height())));
        QVERIFY(axes.height() > 150);
        shot(QStringLiteral("legend"), &dock);
        QVERIFY(dock.timePlot()->xAxis->label().contains(QStringLiteral("(fs)")));
        QVERIFY(dock.energyPlot()->xAxis->label().contains(QStringLiteral("(fs)")));
        QVERIFY(dock.timePlot()->yAxis->label().contains(QStringLiteral("V/m")));
    }

    // ---- 14b: resonances in a table that marks the spectra; far fields as directivity
    void resonancesAndFarField() {
        plots::MonitorsDock dock;
        dock.resize(700, 420);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        RunResult r;
        r.stop_reason = StopReason::Decay;
        r.steps = 119200;  // as examples/ring_resonator.glproj on 2 cores
        r.time_fs = 4970.1;
        r.mcells_per_s = 420.2;
        r.backend = "cpu";
        r.frequency_hz = {1.9e14, 1.95e14, 2.0e14};
        FluxSpectrumResult s;
        s.name = "through";
        s.flux = {1, 0.2, 1};
        r.spectra.push_back(s);
        ResonanceResult rr;
        rr.name = "ring probe";
        Resonance m;
        m.frequency_hz = 1.948e14;
        m.wavelength_um = 299792458.0 / m.frequency_hz * 1e6;
        m.q = 1447;
        m.amplitude = 0.09;
        m.error = 5e-10;
        rr.modes.push_back(m);
        m.q = INFINITY;  // a lossless mode shows as infinite Q
        m.frequency_hz = 1.99e14;
        m.wavelength_um = 299792458.0 / m.frequency_hz * 1e6;
        rr.modes.push_back(m);
        r.resonances.push_back(rr);
        FarFieldResult ff;
        ff.name = "box";
        ff.dimensions = 2;
        ff.n_theta = 1;
        ff.n_phi = 36;
        ff.wavelength_um = {1.55};
        ff.power = {2 * 3.14159265358979323846};
        ff.samples.emplace_back();
        for (int j = 0; j < 36; ++j) {
            FarFieldSample x;
            x.theta_rad = 3.14159265358979323846 / 2;
            x.phi_rad = 2 * 3.14159265358979323846 * j / 36;
            x.intensity = 1.0;  // isotropic: directivity 1
            ff.samples.back().push_back(x);
        }
        r.far_fields.push_back(ff);
        dock.setFinal(r);
        QTableWidget* t = dock.resonanceTable();
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(t->item(0, 0)->text(), QStringLiteral("ring probe"));
        QCOMPARE(t->item(0, 3)->text(), QStringLiteral("1447"));
        QCOMPARE(t->item(1, 3)->text(), QStringLiteral("∞"));
        const int itemsBefore = dock.spectraPlot()->itemCount();
        t->selectRow(0);
        QCOMPARE(dock.spectraPlot()->itemCount(), itemsBefore + 1);  // the marker on the spectra
        QCustomPlot* fp = dock.farFieldPlot();
        QCOMPARE(fp->graphCount(), 1);
        QCOMPARE(fp->graph(0)->dataCount(), 36);
        QVERIFY(std::abs(fp->graph(0)->data()->at(0)->value - 1.0) < 1e-12);
        dock.tabs()->setCurrentWidget(t);
        shot(QStringLiteral("resonances"), &dock);
        dock.tabs()->setCurrentWidget(dock.farFieldView());
        shot(QStringLiteral("far-field"), &dock);

        // diffraction monitors: one bar set per monitor at the chosen wavelength (test data:
        // a grating's three orders per side, as examples/grating_normal_2d.glproj gives)
        DiffractionResult dr;
        dr.name = "T";
        dr.kind = "transmission";
        dr.wavelength_um = {0.8, 0.85, 0.9};
        dr.reference_power = {1, 1, 1};
        dr.normalized = true;
        for (int f = 0; f < 3; ++f) {
            std::vector<FloquetOrder> orders;
            for (int m = -1; m <= 1; ++m) {
                FloquetOrder o;
                o.order = {m, 0, 0};
                o.power = m == 0 ? 0.146 : 0.039;
                orders.push_back(o);
            }
            dr.orders.push_back(orders);
        }
        DiffractionResult rr2 = dr;
        rr2.name = "R";
        rr2.kind = "reflection";
        for (auto& per : rr2.orders)
            for (auto& o : per) o.power = o.order[0] == 0 ? 0.368 : 0.203;
        r.diffraction = {rr2, dr};
        dock.setFinal(r);
        QCustomPlot* dp = dock.diffractionPlot();
        QCOMPARE(dock.diffractionWavelength()->count(), 3);
        QCOMPARE(dp->plottableCount(), 2);
        auto* bars = qobject_cast<QCPBars*>(dp->plottable(0));
        QVERIFY(bars);
        QCOMPARE(bars->dataCount(), 3);
        QVERIFY(std::abs(bars->data()->at(1)->value - 0.368) < 1e-12);  // order 0 in the middle
        dock.tabs()->setCurrentIndex(dock.tabs()->count() - 1);
        shot(QStringLiteral("diffraction"), &dock);
        // live: a snapshot's orders replace the bars during the run (one monitor so far)
        LiveMonitors live;
        live.phase = "main";
        live.step = 400;
        live.diffraction = {dr};
        dock.setLive(live);
        QCOMPARE(dp->plottableCount(), 1);
        QCOMPARE(dock.diffractionWavelength()->count(), 3);
    }

    // ---- 15: running the examples leaves the source tree clean
    void examplesStayPristine() {
        const QString src = QStringLiteral(GOLIGHTLY_SOURCE_DIR);
        // a source tarball has nothing to compare with (the one skip that is not a build feature)
        if (!QFileInfo::exists(src + QStringLiteral("/.git"))) QSKIP("the sources are not a git checkout");
        QProcess git;
        git.start(QStringLiteral("git"), {QStringLiteral("-C"), src, QStringLiteral("ls-files"), QStringLiteral("examples")});
        // a checkout whose git does not answer is a broken test machine, not a pass
        QVERIFY2(git.waitForFinished(20000) && git.exitCode() == 0, "git ls-files in the source checkout failed");
        const QString tracked = QString::fromUtf8(git.readAllStandardOutput());
        QVERIFY2(!tracked.contains(QStringLiteral("_results/")), qPrintable(tracked));
        // what the IDE (<stem>_results next to the project) and run-example.sh (results/) write is ignored
        for (const QString& path : {QStringLiteral("examples/quickstart_results/summary.json"),
                                    QStringLiteral("examples/ring_resonator_results/spectra.csv"),
                                    QStringLiteral("results/quickstart/summary.json")}) {
            git.start(QStringLiteral("git"), {QStringLiteral("-C"), src, QStringLiteral("check-ignore"), QStringLiteral("-q"), path});
            QVERIFY(git.waitForFinished(20000));
            QVERIFY2(git.exitCode() == 0, qPrintable(path + QStringLiteral(" is not ignored")));
        }
        QFile script(src + QStringLiteral("/scripts/run-example.sh"));
        QVERIFY(script.open(QIODevice::ReadOnly));
        QVERIFY(script.readAll().contains("--out \"$out\""));
    }
};

QTEST_MAIN(TestNewcomerEditing)
#include "tst_newcomer_editing.moc"
