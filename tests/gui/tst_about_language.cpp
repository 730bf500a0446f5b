// About dialog (version banner, library licences) and the language: the embedded .qm
// translations load for German and Simplified Chinese and translate the main window's
// menus; View > Language stores the choice in QSettings and installTranslators honours it.
#include <QApplication>
#include <QDir>
#include <QCoreApplication>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QTranslator>

#include "about_dialog.hpp"
#include "gui_fixture.hpp"
#include "qcustomplot_include.hpp"
#include "start_page.hpp"
#include "monitors_dock.hpp"
#include "run_progress.hpp"
#include "golightly/version.hpp"
#include "golightly/version_info.hpp"
#include "language.hpp"
#include "main_window.hpp"

using namespace golightly;

namespace {
QStringList menuTitles(QMainWindow& w) {
    QStringList titles;
    for (QAction* a : w.menuBar()->actions()) titles << a->text();
    return titles;
}
}  // namespace

class TestAboutLanguage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aboutShowsVersionAndLicences() {
        app::AboutDialog about;
        const QString banner = about.findChild<QLabel*>(QStringLiteral("aboutBanner"))->text();
        QVERIFY2(banner.contains(QString::fromStdString(version_banner("golightly")).toHtmlEscaped()), qPrintable(banner));
        QVERIFY(banner.contains(QLatin1String(kVersion)));
        QVERIFY(banner.contains(QStringLiteral("CUDA")));
        const QString licences = about.findChild<QTextBrowser*>(QStringLiteral("aboutLicences"))->toPlainText();
        for (const char* expected : {"Qt 6", "LGPL v3", "QCustomPlot", "GPL v3", "Open CASCADE", "LGPL v2.1",
                                     "nlohmann-json", "MIT", "Eigen", "MPL 2.0", "libpng", "HDF5", "BSD",
                                     "CLI11", "BSD-3-Clause", "Catch2", "Boost Software License 1.0"})
            QVERIFY2(licences.contains(QLatin1String(expected)), expected);
    }

    void translationsAreEmbeddedAndTranslateTheMenus() {
        const QStringList codes = app::availableTranslations();
        QVERIFY2(codes.contains(QStringLiteral("de")) && codes.contains(QStringLiteral("zh_CN")), qPrintable(codes.join(',')));
        const struct {
            const char* code;
            const char* file;
            const char* help;
        } cases[] = {{"de", "&Datei", "&Hilfe"}, {"zh_CN", "文件(&F)", "帮助(&H)"}};
        for (const auto& c : cases) {
            QTranslator t;
            QVERIFY2(t.load(QLocale(QString::fromLatin1(c.code)), QStringLiteral("golightly"), QStringLiteral("_"),
                            QStringLiteral(":/i18n")),
                     c.code);
            QCoreApplication::installTranslator(&t);
            QTemporaryDir dir;
            app::MainWindowOptions o;
            o.settingsApplication = QStringLiteral("golightly-test-lang");
            o.recoveryDir = dir.filePath(QStringLiteral("recovery"));
            app::MainWindow w(o);
            const QStringList titles = menuTitles(w);
            QCoreApplication::removeTranslator(&t);
            QVERIFY2(titles.contains(QString::fromUtf8(c.file)), qPrintable(titles.join('|')));
            QVERIFY2(titles.contains(QString::fromUtf8(c.help)), qPrintable(titles.join('|')));
        }
    }

    void languageMenuStoresTheChoice() {
        QTemporaryDir dir;
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
        const QString org = QStringLiteral("GoLightlyTest"), appName = QStringLiteral("golightly-lang");
        QSettings(org, appName).remove(QLatin1String(app::kLanguageSettingsKey));
        QWidget window;
        QMenu view;
        QMenu* menu = app::addLanguageMenu(&view, &window, org, appName);
        QStringList names;
        for (QAction* a : menu->actions())
            if (!a->isSeparator()) names << a->objectName();
        QCOMPARE(names, QStringList({QStringLiteral("view.language.system"), QStringLiteral("view.language.en"),
                                     QStringLiteral("view.language.de"), QStringLiteral("view.language.zh_CN")}));
        QVERIFY(menu->findChild<QAction*>(QStringLiteral("view.language.system"))->isChecked());
        // choosing a language shows an information box: close it as soon as it appears
        QTimer::singleShot(0, [] {
            if (QWidget* box = QApplication::activeModalWidget()) box->close();
        });
        menu->findChild<QAction*>(QStringLiteral("view.language.de"))->trigger();
        QCOMPARE(QSettings(org, appName).value(QLatin1String(app::kLanguageSettingsKey)).toString(), QStringLiteral("de"));
        // the stored choice wins over the system locale at the next start
        QCOMPARE(app::installTranslators(*QCoreApplication::instance(), org, appName), QStringLiteral("de"));
        QCOMPARE(QCoreApplication::translate("golightly::app::MainWindow", "&File"), QStringLiteral("&Datei"));
        QSettings(org, appName).setValue(QLatin1String(app::kLanguageSettingsKey), QStringLiteral("en"));
        QCOMPARE(app::installTranslators(*QCoreApplication::instance(), org, appName), QStringLiteral("en"));
    }

    void germanShortcutsNumbersAndStopReasons() {
        // issue 55 item 16: in German, shortcuts read Strg+ (without Qt's own translations
        // installed too), numbers take the decimal comma everywhere (messages as the spin
        // boxes and plots, no group separator), and a run's stop reason is in words
        QTemporaryDir dir;
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
        const QString org = QStringLiteral("GoLightlyTest"), appName = QStringLiteral("golightly-lang-de");
        QSettings(org, appName).setValue(QLatin1String(app::kLanguageSettingsKey), QStringLiteral("de"));
        QCOMPARE(app::installTranslators(*QCoreApplication::instance(), org, appName), QStringLiteral("de"));
        QCOMPARE(QKeySequence(Qt::CTRL | Qt::Key_N).toString(QKeySequence::NativeText), QStringLiteral("Strg+N"));
        QCOMPARE(QKeySequence(Qt::SHIFT | Qt::Key_Delete).toString(QKeySequence::NativeText), QStringLiteral("Umschalt+Entf"));
        {
            app::MainWindowOptions o;
            o.settingsApplication = QStringLiteral("golightly-test-lang-de");
            o.recoveryDir = dir.filePath(QStringLiteral("recovery"));
            app::MainWindow w(o);
            auto* sparams = w.findChild<QAction*>(QStringLiteral("run.sparams"));
            QVERIFY(sparams);
            QVERIFY2(sparams->toolTip().contains(QStringLiteral("(Strg+F5)")), qPrintable(sparams->toolTip()));
            QVERIFY2(!sparams->toolTip().contains(QStringLiteral("Ctrl")), qPrintable(sparams->toolTip()));
        }
        // the start page and the Examples menu: every bundled example by a German title (the
        // English fallback, its file name, is compared below), numbers with the comma
        QStringList germanTitles;
        const QStringList exampleFiles = QDir(test::kExamplesDir).entryList({QStringLiteral("*.glproj")}, QDir::Files, QDir::Name);
        QVERIFY(exampleFiles.size() > 10);
        for (const QString& f : exampleFiles) germanTitles << app::exampleTitle(f);
        QCOMPARE(app::exampleTitle(QStringLiteral("gold_nanosphere_bcalm_3d_fine.glproj")),
                 QStringLiteral("Gold-Nanokugel, B-CALM-Fall, Zellen von 0,25 nm (3D)"));
        // the Monitors dock's legend: a monitor's kind in words of the language
        {
            plots::MonitorsDock dock;
            FluxSpectrumResult t;
            t.name = "T";
            t.kind = "transmission";
            t.flux = {1.0, 2.0};
            t.normalized = {0.5, 0.6};
            RunResult r;
            r.frequency_hz = {2e14, 2.1e14};
            r.spectra = {t};
            r.normalized = true;
            dock.setFinal(r);
            QCOMPARE(dock.spectraPlot()->graphCount(), 1);
            QCOMPARE(dock.spectraPlot()->graph(0)->name(), QStringLiteral("T (Transmission)"));
        }
        QCOMPARE(plots::MonitorsDock::stopReasonText(QStringLiteral("decay")), QStringLiteral("Felder abgeklungen"));
        QCOMPARE(plots::MonitorsDock::stopReasonText(QStringLiteral("max_time")), QStringLiteral("Zeitgrenze erreicht"));
        QCOMPARE(app::formatEta(5.5), QStringLiteral("5,5 s"));
        QCOMPARE(QLocale().toString(6000.5, 'f', 1), QStringLiteral("6000,5"));
        bool ok = false;
        QLocale().toDouble(QStringLiteral("1.000"), &ok);  // never read as a thousand
        QVERIFY(!ok);
        QSettings(org, appName).setValue(QLatin1String(app::kLanguageSettingsKey), QStringLiteral("en"));
        QCOMPARE(app::installTranslators(*QCoreApplication::instance(), org, appName), QStringLiteral("en"));
        QCOMPARE(QKeySequence(Qt::CTRL | Qt::Key_N).toString(QKeySequence::NativeText), QStringLiteral("Ctrl+N"));
        QCOMPARE(plots::MonitorsDock::stopReasonText(QStringLiteral("decay")), QStringLiteral("fields decayed"));
        for (int k = 0; k < exampleFiles.size(); ++k) {
            const QString english = app::exampleTitle(exampleFiles[k]);
            QVERIFY2(germanTitles[k] != english, qPrintable(exampleFiles[k] + QStringLiteral(": ") + english));
        }
        QLocale::setDefault(QLocale::c());
    }
};

QTEST_MAIN(TestAboutLanguage)
#include "tst_about_language.moc"
