// The Port Modes dock and the mode cache (issue 50, item 6), on the dock alone (no main
// window):
//  - the IDE's mode cache is the command line's (configure_mode_cache: the environment);
//  - a 3D port's modes come through the cache (a second solve is a memory hit, the modes
//    bitwise the cached solve's), with the port's own selection (target_neff, filter);
//  - complex n_eff and loss: a lossy core's Im n_eff and dB/cm in the table, as the solver's;
//  - picking the mode shown for the port (by index: `modes`, by target: `target_neff`),
//    one undo step each, also by a double-click on the picture;
//  - a cross-section beyond the memory is refused naming the port and the size;
//  - a 2D port's modes picked by index (no target_neff on 2D ports).
#include <QComboBox>
#include <QMouseEvent>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <cmath>

#include "editor_document.hpp"
#include "golightly/mode_cache.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/mode_solver2d.hpp"
#include "golightly/project.hpp"
#include "golightly/sparams.hpp"
#include "gui_test_util.hpp"
#include "mode_viewer.hpp"
#include "qcustomplot_include.hpp"

using namespace golightly;
using golightly::test::undoRedoRoundTrip;

namespace {

// The 500 x 220 nm Si strip along x in oxide at 50 nm cells, one port (its cross-section
// 1.6 x 1.2 um: 32 x 24 cells), the core's conductivity `sigma` (S/m).
Project strip3d(double sigma) {
    const std::string text = R"({"format": "golightly-project", "version": 1, "name": "strip",
      "domain": {"dimensions": 3, "size": [2.0, 2.0, 1.6], "cell_size": 0.05,
                 "boundaries": {"x": "pml", "y": "pml", "z": "pml"}, "pml": {"cells": 6}, "background": "sio2"},
      "materials": [{"id": "sio2", "epsilon_inf": 2.085136},
                    {"id": "si", "epsilon_inf": 12.082576, "conductivity": )" +
                             std::to_string(sigma) + R"(}],
      "layers": [{"name": "core", "material": "si", "z": [0.7, 0.92],
                  "shapes": [{"type": "rectangle", "min": [-1.0, 0.75], "max": [3.0, 1.25]}]}],
      "ports": [{"name": "in", "center": [0.5, 1.0, 0.81], "size": [0, 1.6, 1.2], "direction": "+x"}],
      "run": {"spectrum": {"wavelength_min": 1.5, "wavelength_max": 1.6, "points": 5}}})";
    return parse_project(text, "strip.glproj");
}

// A 2D slab (eps 12, 0.3 um, air), TMz, one port.
Project slab2d() {
    const std::string text = R"({"format": "golightly-project", "version": 1, "name": "slab",
      "domain": {"dimensions": 2, "size": [3.0, 2.0, 0.0], "cell_size": 0.04, "polarization": "TMz",
                 "boundaries": {"x": "pml", "y": "pml", "z": "pml"}, "pml": {"cells": 10}, "background": "air"},
      "materials": [{"id": "core", "epsilon_inf": 12.0}],
      "layers": [{"name": "waveguide", "material": "core",
                  "shapes": [{"type": "rectangle", "min": [-1.0, 0.85], "max": [4.0, 1.15]}]}],
      "ports": [{"name": "a", "center": [0.45, 1.0], "size": [0, 1.6], "direction": "+x"}],
      "run": {"spectrum": {"wavelength_min": 1.45, "wavelength_max": 1.65, "points": 5}}})";
    return parse_project(text, "slab.glproj");
}

Json portJson(const Project& p, int k) { return p.extra.at("ports").at(std::size_t(k)); }

bool solveAndWait(app::ModeViewerDock& dock, QString* message = nullptr) {
    QSignalSpy solved(&dock, &app::ModeViewerDock::solved);
    if (!dock.solve()) return false;
    if (!solved.wait(60000) && solved.isEmpty()) return false;
    if (message) *message = solved.front().at(1).toString();
    return solved.front().at(0).toBool();
}

struct EnvSet {
    QByteArray name, old;
    bool had;
    EnvSet(const char* n, const QByteArray& v) : name(n), old(qgetenv(n)), had(qEnvironmentVariableIsSet(n)) { qputenv(n, v); }
    ~EnvSet() {
        if (had) qputenv(name.constData(), old);
        else qunsetenv(name.constData());
    }
};

}  // namespace

class TestPortModes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        set_mode_cache_settings(ModeCacheSettings{});  // memory only: no files of other runs
        clear_mode_cache();
    }

    /// The IDE turns on the cache as golightly-cli does: from the environment.
    void ideCacheFromEnvironment() {
        const ModeCacheSettings saved = mode_cache_settings();
        {
            EnvSet on("GOLIGHTLY_MODE_CACHE", "on");
            EnvSet dir("GOLIGHTLY_MODE_CACHE_DIR", "/tmp/golightly-ide-modes-test");
            EnvSet cap("GOLIGHTLY_MODE_CACHE_DISK_MB", "7");
            app::configure_mode_cache();
            const ModeCacheSettings s = mode_cache_settings();
            QVERIFY(s.enabled);
            QCOMPARE(QString::fromStdString(s.disk_dir), QStringLiteral("/tmp/golightly-ide-modes-test"));
            QCOMPARE(s.disk_bytes, std::uint64_t(7) << 20);
        }
        {
            EnvSet off("GOLIGHTLY_MODE_CACHE", "off");
            app::configure_mode_cache();
            QVERIFY(!mode_cache_settings().enabled);
        }
        set_mode_cache_settings(saved);
    }

    /// A 3D port's modes through the cache, complex n_eff and loss in the table, the pick.
    void plane3dCachedAndPicked() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_SPECTRA, have_mode_solver_2d(), "spectra");
        editor::EditorDocument doc;
        doc.replaceProject(strip3d(0.0), QStringLiteral("strip"));
        app::ModeViewerDock dock(&doc);
        dock.setPort(0);
        dock.setWavelength(1.55);
        dock.setModeCount(2);
        QString msg;
        QVERIFY2(solveAndWait(dock, &msg), qPrintable(msg));
        QCOMPARE(mode_cache_stats().solves, 1L);
        // the same cross-section asked again (as a run's port or golightly-cli would): memory
        QVERIFY2(solveAndWait(dock, &msg), qPrintable(msg));
        QCOMPARE(mode_cache_stats().solves, 1L);
        QCOMPARE(mode_cache_stats().session_hits, 1L);
        const auto r = dock.result();
        QVERIFY(r && r->modes.size() == 2);
        const Project p = doc.project();
        const auto ports = parse_ports(p, "strip.glproj");
        const CrossSection cs = sample_cross_section(p, ports[0].center, ports[0].size, false, "ports[0]", "strip.glproj",
                                                     Json::object(), 1.55);
        ModeSolveOptions o;
        o.num_modes = 2;
        const auto modes = cached_solve_modes_2d(cs.grid, cs.medium, 1.55, o);
        for (std::size_t k = 0; k < 2; ++k) {
            QCOMPARE(r->modes[k].n_eff, (*modes)[k].n_eff);
            QCOMPARE(r->modes[k].n_eff_imag, 0.0);
        }
        QTableWidget* t = dock.table();
        QCOMPARE(t->columnCount(), 7);
        QCOMPARE(t->item(0, 2)->text(), QStringLiteral("0"));  // Im n_eff of a lossless mode
        QCOMPARE(t->item(0, 3)->text(), QStringLiteral("0"));  // its loss
        QVERIFY(t->isColumnHidden(6));                          // no bend

        // pick mode 1 by index: the port's `modes` becomes [1], one undo step
        dock.setMode(1);
        auto* use = dock.findChild<QPushButton*>(QStringLiteral("modeUse"));
        QVERIFY(use && use->isEnabled());
        QVERIFY(undoRedoRoundTrip(doc, [&] { use->click(); }));
        QCOMPARE(portJson(doc.project(), 0).at("modes"), Json::array({1}));
        QVERIFY(!dock.isStale());  // `modes` does not change the solve: the list still holds
        // by target n_eff, by a double-click on the picture: target_neff and modes [0]
        dock.setMode(0);
        dock.setPickByTarget(true);
        const double n0 = r->modes[0].n_eff;
        QVERIFY(undoRedoRoundTrip(doc, [&] {
            QMouseEvent ev(QEvent::MouseButtonDblClick, QPointF(50, 50), dock.plot()->mapToGlobal(QPointF(50, 50)),
                           Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(dock.plot(), &ev);
        }));
        QCOMPARE(portJson(doc.project(), 0).at("target_neff").get<double>(), n0);
        QCOMPARE(portJson(doc.project(), 0).at("modes"), Json::array({0}));
        QVERIFY(dock.isStale());  // another target is another solve
        QVERIFY(!use->isEnabled());
        QVERIFY(!dock.useShownMode(false));  // never from stale modes
        // solved again with the port's target: its mode 0 is the one picked
        QVERIFY2(solveAndWait(dock, &msg), qPrintable(msg));
        QVERIFY2(dock.result() && !dock.result()->modes.empty(), qPrintable(msg));
        QVERIFY(std::abs(dock.result()->modes[0].n_eff - n0) < 1e-9);
    }

    /// A lossy core: complex n_eff, the loss in dB/cm, as the solver gives them.
    void plane3dLossy() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_SPECTRA, have_mode_solver_2d(), "spectra");
        editor::EditorDocument doc;
        doc.replaceProject(strip3d(2000.0), QStringLiteral("strip"));
        app::ModeViewerDock dock(&doc);
        dock.setPort(0);
        dock.setWavelength(1.55);
        dock.setModeCount(1);
        QString msg;
        QVERIFY2(solveAndWait(dock, &msg), qPrintable(msg));
        const auto& m = dock.result()->modes[0];
        QVERIFY(m.n_eff_imag > 0);
        // dB/cm from Im n_eff: 20 log10(e) Im(beta) per cm, Im beta = k0 Im n_eff
        const double k0_per_cm = 2 * M_PI / 1.55e-4;
        QVERIFY(std::abs(m.loss_db_per_cm - 20 / std::log(10.0) * k0_per_cm * m.n_eff_imag) < 1e-9 * m.loss_db_per_cm);
        QCOMPARE(dock.table()->item(0, 2)->text(), QString::number(m.n_eff_imag, 'g', 4));
        QCOMPARE(dock.table()->item(0, 3)->text(), QString::number(m.loss_db_per_cm, 'g', 4));
    }

    /// A window beyond the machine's memory: refused before solving, port and size named.
    void plane3dBeyondLimits() {
        editor::EditorDocument doc;
        doc.replaceProject(strip3d(0.0), QStringLiteral("strip"));
        app::ModeViewerDock dock(&doc);
        dock.setPort(0);
        dock.setWavelength(1.55);
        EnvSet host("GOLIGHTLY_HOST_MEMORY_BYTES", "1000000");
        QString msg;
        QVERIFY(!solveAndWait(dock, &msg));
        QVERIFY2(msg.contains(QStringLiteral("port 'in'")) && msg.contains(QStringLiteral("32 x 24 cells")) &&
                     msg.contains(QStringLiteral("ports[0].size")),
                 qPrintable(msg));
        QCOMPARE(mode_cache_stats().solves, 0L);
    }

    /// 2D: picked by index only.
    void line2dPickedByIndex() {
        editor::EditorDocument doc;
        doc.replaceProject(slab2d(), QStringLiteral("slab"));
        app::ModeViewerDock dock(&doc);
        dock.setPort(0);
        dock.setWavelength(1.55);
        dock.setModeCount(2);
        QString msg;
        QVERIFY2(solveAndWait(dock, &msg), qPrintable(msg));
        QVERIFY(dock.result()->modes[0].n_eff > 1);
        QVERIFY(!dock.findChild<QComboBox*>(QStringLiteral("modePickBy"))->isEnabled());
        QVERIFY(!dock.useShownMode(true));  // no target_neff on a 2D port
        dock.setMode(0);
        // mode 0 is already the port's (default [0]): written as such, one undo step
        QVERIFY(undoRedoRoundTrip(doc, [&] { QVERIFY(dock.useShownMode(false)); }));
        QCOMPARE(portJson(doc.project(), 0).at("modes"), Json::array({0}));
        QVERIFY(parse_ports(doc.project(), "slab.glproj")[0].modes == std::vector<int>{0});
    }
};

QTEST_MAIN(TestPortModes)
#include "tst_port_modes.moc"
