// golightly: the GoLightly IDE.
//   golightly [FILE.glproj]          open FILE (without one: the start page)
//   golightly --version              print the version banner
//   golightly --run FILE             open FILE and start a run
//   golightly --screenshot PNG FILE  open FILE, select its first shape, save a picture of
//                                    the window, quit
#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <cstring>

#include "golightly/version.hpp"
#include "golightly/version_info.hpp"
#include "language.hpp"
#include "main_window.hpp"
#include "mode_viewer.hpp"

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--version") == 0) {  // no display needed
            std::printf("%s\n", golightly::version_banner("golightly").c_str());
            return 0;
        }
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("GoLightly"));
    QApplication::setApplicationName(QStringLiteral("golightly"));
    QApplication::setApplicationVersion(QString::fromLatin1(golightly::kVersion));
    golightly::app::installTranslators(app, QStringLiteral("GoLightly"), QStringLiteral("golightly"));
    // mode solves cached in memory and on disk as golightly-cli caches them (docs/modes-cache.md)
    golightly::app::configure_mode_cache();
    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "GoLightly FDTD IDE"));
    parser.addHelpOption();
    QCommandLineOption versionOption(QStringLiteral("version"), QApplication::translate("main", "Print the version."));
    QCommandLineOption shot(QStringLiteral("screenshot"),
                            QApplication::translate("main", "Save a picture of the window to FILE and quit."),
                            QStringLiteral("FILE"));
    QCommandLineOption previewOption(QStringLiteral("structure-preview"),
                                     QApplication::translate("main", "Start with the structure preview on."));
    QCommandLineOption runOption(QStringLiteral("run"), QApplication::translate("main", "Start a run of the project after opening it."));
    QCommandLineOption phaseOption(QStringLiteral("screenshot-phase"),
                                   QApplication::translate("main", "With --run --screenshot: picture of PHASE (main or reference)."),
                                   QStringLiteral("PHASE"), QStringLiteral("main"));
    parser.addOption(phaseOption);
    parser.addOption(runOption);
    parser.addOption(previewOption);
    parser.addOption(versionOption);
    parser.addOption(shot);
    parser.addPositionalArgument(QStringLiteral("project"), QApplication::translate("main", "Project file to open."));
    parser.process(app);

    // View > Language rebuilds the window in the new language (MainWindow::recreate)
    auto* first = new golightly::app::MainWindow;
    first->setAttribute(Qt::WA_DeleteOnClose);
    std::function<void(golightly::app::MainWindow*)> watch = [&watch](golightly::app::MainWindow* w) {
        QObject::connect(w, &golightly::app::MainWindow::languageChanged, w, [w, &watch] {
            golightly::app::MainWindow* next = w->recreate();
            next->setAttribute(Qt::WA_DeleteOnClose);
            watch(next);
            next->show();
            w->deleteLater();
        });
    };
    watch(first);
    golightly::app::MainWindow& window = *first;
    window.show();
    const QStringList files = parser.positionalArguments();
    const bool recovered = !parser.isSet(shot) && window.offerRecovery();
    if (!files.isEmpty() && (!recovered || window.maybeSave())) window.openFile(files.front());
    if (files.isEmpty() && !recovered) window.showStartPage();  // welcome: new, examples, recent, guide
    if (parser.isSet(previewOption)) window.action(QStringLiteral("view.structurePreview"))->setChecked(true);
    if (parser.isSet(runOption) && parser.isSet(shot)) {  // README picture of a run in progress
        const QString out = parser.value(shot);
        const QString phase = parser.value(phaseOption);
        QTimer::singleShot(800, &window, [&window, out, phase] {
            window.runScreenshot(out, phase == QLatin1String("reference") ? 60.0 : 140.0, [out](bool ok) {
                std::fprintf(stderr, "%s %s\n", ok ? "wrote" : "could not write", qPrintable(out));
                QApplication::exit(ok ? 0 : 1);
            }, phase);
        });
    } else if (parser.isSet(runOption)) {
        QTimer::singleShot(300, &window, [&window] { window.startRun(); });
    }
    if (parser.isSet(shot) && !parser.isSet(runOption)) {
        const QString out = parser.value(shot);
        QTimer::singleShot(1500, &window, [&window] {
            // show the Properties dock at work: select the first shape of the topmost
            // ordinary layer
            const auto& layers = window.document()->project().layers;
            for (int l = int(layers.size()) - 1; l >= 0; --l) {
                if (!layers[size_t(l)].reference_only && !layers[size_t(l)].shapes.empty()) {
                    window.document()->setSelection({golightly::editor::ItemRef::Kind::Shape, l, 0});
                    break;
                }
            }
            window.canvas()->zoomToFit();
        });
        QTimer::singleShot(2200, &window, [&window, out] {
            const bool ok = window.grab().save(out, "PNG");
            std::fprintf(stderr, "%s %s\n", ok ? "wrote" : "could not write", qPrintable(out));
            QApplication::exit(ok ? 0 : 1);
        });
    }
    return app.exec();
}
