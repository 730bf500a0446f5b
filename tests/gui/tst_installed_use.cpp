// The installed package in use (issue 55, item 3): the user guide opens in a window of the
// IDE (Help > User Guide, F1, the start page's button), rendered by Qt from the Markdown
// with its pictures, links followed there or handed to the desktop; nothing depends on a
// program for .md files (a handler registered for file: URLs fails the test when the guide
// is handed to the desktop). An example opened from an installed data folder
// (share/golightly next to the executable's bin/, as the package lays it out) runs and
// writes its results to the user's documents, never into the package's folder.
//
// With GOLIGHTLY_TEST_SHOTS set to a folder, pictures of the guide window are saved there.
#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextImageFormat>

#include "gui_fixture.hpp"
#include "main_window.hpp"
#include "results_folder.hpp"
#include "run_controller.hpp"
#include "start_page.hpp"
#include "user_guide_viewer.hpp"

using namespace golightly;

namespace {

void shot(const QString& name, QWidget* w) {
    const QString dir = qEnvironmentVariable("GOLIGHTLY_TEST_SHOTS");
    if (!dir.isEmpty()) w->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

/// Images of the shown page: how many, and how many have a loaded size (width > 0).
struct PageImages {
    int count = 0, sized = 0;
    double widest = 0;
};
PageImages pageImages(QTextDocument* doc) {
    PageImages out;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().isImageFormat()) {
                const QTextImageFormat f = it.fragment().charFormat().toImageFormat();
                ++out.count;
                if (f.width() > 0) ++out.sized;
                out.widest = std::max(out.widest, f.width());
            }
    return out;
}

}  // namespace

/// Catches what the IDE hands to the desktop (QDesktopServices::setUrlHandler).
class DesktopCatcher : public QObject {
    Q_OBJECT
public:
    QList<QUrl> urls;
public Q_SLOTS:
    void open(const QUrl& url) { urls << url; }
};

class TestInstalledUse : public QObject, golightly::test::WindowFixture {
    Q_OBJECT
    DesktopCatcher desktop_;

    app::UserGuideViewer* viewerOf(app::MainWindow& w) {
        return w.findChild<app::UserGuideViewer*>(QStringLiteral("userGuide"));
    }

private Q_SLOTS:
    void initTestCase() {
        initFixture();
        // the user's documents: a home of the test's own
        qputenv("HOME", dir_.filePath(QStringLiteral("home")).toLocal8Bit());
        qunsetenv("XDG_CONFIG_HOME");
        qunsetenv("XDG_DOCUMENTS_DIR");
        QDir().mkpath(dir_.filePath(QStringLiteral("home")));
        for (const char* scheme : {"file", "http", "https"})
            QDesktopServices::setUrlHandler(QString::fromLatin1(scheme), &desktop_, "open");
    }
    void cleanupTestCase() {
        for (const char* scheme : {"file", "http", "https"}) QDesktopServices::unsetUrlHandler(QString::fromLatin1(scheme));
    }

    /// F1 / Help > User Guide and the start page's button show the guide in the IDE, with
    /// its pictures, and hand nothing to the desktop.
    void guideOpensInTheApp() {
        desktop_.urls.clear();
        app::MainWindow w(options());
        w.resize(1200, 800);
        w.show();
        w.showStartPage();
        const QString guide = app::userGuidePath();
        QVERIFY2(!guide.isEmpty(), "docs/user-guide.md not found");
        QCOMPARE(w.action(QStringLiteral("help.guide"))->shortcut(), QKeySequence(QKeySequence::HelpContents));
        w.action(QStringLiteral("help.guide"))->trigger();
        QVERIFY2(desktop_.urls.isEmpty(), qPrintable(QStringLiteral("handed to the desktop: ") + desktop_.urls.value(0).toString()));
        app::UserGuideViewer* v = viewerOf(w);
        QVERIFY(v);
        QVERIFY(v->isVisible());
        QCOMPARE(v->source(), QUrl::fromLocalFile(guide));
        QTextDocument* doc = v->browser()->document();
        QVERIFY(doc->toPlainText().startsWith(QStringLiteral("GoLightly user guide")));
        QVERIFY(doc->toPlainText().contains(QStringLiteral("The start page")));
        // the pictures: every one found (relative to the guide) and scaled into the page
        QTest::qWait(50);
        const PageImages img = pageImages(doc);
        QVERIFY2(img.count >= 10, qPrintable(QString::number(img.count)));
        QCOMPARE(img.sized, img.count);
        QVERIFY(img.widest <= v->browser()->viewport()->width());
        QVERIFY(!v->browser()->loadResource(QTextDocument::ImageResource, QUrl(QStringLiteral("screenshots/start-page.png"))).isNull());
        shot(QStringLiteral("user-guide-viewer"), v);
        // find: the next occurrence, selected
        QVERIFY(v->findNext(QStringLiteral("Bloch-periodic")));
        QCOMPARE(v->browser()->textCursor().selectedText(), QStringLiteral("Bloch-periodic"));
        QVERIFY(!v->findNext(QStringLiteral("no such words in the guide")));
        // the start page's button shows the same window again (one window)
        v->hide();
        w.startPage()->findChild<QPushButton*>(QStringLiteral("startGuide"))->click();
        QVERIFY(v->isVisible());
        QCOMPARE(w.findChildren<app::UserGuideViewer*>().size(), 1);
        QVERIFY(desktop_.urls.isEmpty());
    }

    /// Links: local Markdown files and their pictures open in the viewer (Back returns), web
    /// links and other files go to the desktop.
    void guideLinks() {
        QTemporaryDir pages;
        QImage png(40, 30, QImage::Format_RGB32);
        png.fill(Qt::red);
        QVERIFY(QDir().mkpath(pages.filePath(QStringLiteral("pics"))));
        QVERIFY(png.save(pages.filePath(QStringLiteral("pics/red.png"))));
        auto write = [&](const QString& name, const QByteArray& text) {
            QFile f(pages.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        write(QStringLiteral("a.md"), "# Page A\n\nSee [page B](b.md) and [the web](https://example.org/x).\n");
        write(QStringLiteral("b.md"), "# Page B\n\n![red](pics/red.png)\n\n[a project](x.glproj)\n");
        desktop_.urls.clear();
        app::UserGuideViewer v;
        v.show();
        QVERIFY(v.openGuide(pages.filePath(QStringLiteral("a.md"))));
        QVERIFY(v.browser()->document()->toPlainText().contains(QStringLiteral("Page A")));
        v.followLink(QUrl(QStringLiteral("b.md")));
        QCOMPARE(v.source(), QUrl::fromLocalFile(pages.filePath(QStringLiteral("b.md"))));
        QVERIFY(v.browser()->document()->toPlainText().contains(QStringLiteral("Page B")));
        const PageImages img = pageImages(v.browser()->document());
        QCOMPARE(img.count, 1);
        QCOMPARE(img.widest, 40.0);  // found and at its own size (narrower than the page)
        QVERIFY(desktop_.urls.isEmpty());
        v.browser()->backward();
        QVERIFY(v.browser()->document()->toPlainText().contains(QStringLiteral("Page A")));
        v.followLink(QUrl(QStringLiteral("https://example.org/x")));
        QCOMPARE(desktop_.urls.size(), 1);
        QCOMPARE(desktop_.urls.front(), QUrl(QStringLiteral("https://example.org/x")));
        QVERIFY(v.browser()->document()->toPlainText().contains(QStringLiteral("Page A")));  // still here
        v.followLink(QUrl::fromLocalFile(pages.filePath(QStringLiteral("x.glproj"))));
        QCOMPARE(desktop_.urls.size(), 2);  // not a page: the desktop's program
        // a guide that cannot be found: a page that says where it was looked for
        QVERIFY(!v.openGuide(QString()));
        QVERIFY(v.browser()->document()->toPlainText().contains(QStringLiteral("/usr/share/doc/golightly/")));
        QVERIFY(v.browser()->toHtml().contains(QStringLiteral("https://github.com/golightly/golightly/blob/main/docs/user-guide.md")));
    }

    /// An example opened from an installed data folder runs; its results go to
    /// <Documents>/GoLightly/<stem>_results, and the status bar says so.
    void installedExampleWritesToDocuments() {
        // the package's layout next to this executable: bin/../share/golightly/examples
        const QString share = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/golightly");
        const QString examples = share + QStringLiteral("/examples");
        QDir(share).removeRecursively();
        QVERIFY(QDir().mkpath(examples));
        const QString project = examples + QStringLiteral("/fresnel_slab.glproj");
        QVERIFY(QFile::copy(test::kExamplesDir + QStringLiteral("/fresnel_slab.glproj"), project));
        QVERIFY(app::installedDataFolders().contains(QFileInfo(share).canonicalFilePath()));
        QVERIFY(app::isReadOnlyProjectFolder(examples));
        QVERIFY(!app::isReadOnlyProjectFolder(dir_.path()));  // an ordinary folder of the user's

        app::MainWindow w(options());
        w.resize(1200, 800);
        w.show();
        QVERIFY(w.openFile(project));
        const QString docs = QDir(dir_.filePath(QStringLiteral("home"))).filePath(QStringLiteral("Documents/GoLightly"));
        QCOMPARE(w.resultsDirectory(), docs + QStringLiteral("/fresnel_slab_results"));
        QCOMPARE(w.sparamsDirectory(), docs + QStringLiteral("/fresnel_slab_sparams"));
        app::SolverSettings s;
        s.threads = 2;
        s.framesPerSecond = 0;
        QSignalSpy finished(w.runController(), &app::RunController::finished);
        QVERIFY(w.startRun(&s));
        QVERIFY2(w.statusBar()->currentMessage().contains(QDir::toNativeSeparators(docs)), qPrintable(w.statusBar()->currentMessage()));
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
        QVERIFY(prompts_.errors.isEmpty());
        QVERIFY(QFileInfo::exists(docs + QStringLiteral("/fresnel_slab_results/summary.json")));
        QVERIFY(QFileInfo::exists(docs + QStringLiteral("/fresnel_slab_results/spectra.csv")));
        QCOMPARE(QDir(examples).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList{QStringLiteral("fresnel_slab.glproj")});
        // the same project in a folder of the user's keeps its results next to it
        const QString own = dir_.filePath(QStringLiteral("fresnel_slab.glproj"));
        QVERIFY(QFile::copy(project, own));
        QVERIFY(w.openFile(own));
        QCOMPARE(w.resultsDirectory(), dir_.filePath(QStringLiteral("fresnel_slab_results")));
        QDir(share).removeRecursively();
    }
};

QTEST_MAIN(TestInstalledUse)
#include "tst_installed_use.moc"
