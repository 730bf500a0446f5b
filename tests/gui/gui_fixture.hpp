// The set-up that the GUI tests with a main window share: a temporary folder, QSettings
// kept in it, window options of the test's own (settings organization, recovery folder,
// StubPrompts instead of message boxes) and writable copies of the source tree's files.
// Header-only. Tests without a main window need only gui_test_util.hpp.
#pragma once

#include <QCoreApplication>
#include <QFile>
#include <QSettings>
#include <QSize>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "gui_test_util.hpp"
#include "main_window.hpp"

namespace golightly::test {

/// The source tree (GOLIGHTLY_SOURCE_DIR, tests/gui/CMakeLists.txt) and its examples.
inline const QString kSourceDir = QStringLiteral(GOLIGHTLY_SOURCE_DIR);
inline const QString kExamplesDir = QStringLiteral(GOLIGHTLY_SOURCE_DIR "/examples");

/// The settings organization of this test process, "GoLightlyTest-<executable>-<pid>": no
/// two tests (nor a test and the user's IDE) share window settings.
inline QString testOrganization() {
    return QStringLiteral("GoLightlyTest-%1-%2")
        .arg(QCoreApplication::applicationName())
        .arg(QCoreApplication::applicationPid());
}

/// Window options of a test: settings under testOrganization(), recovery files in
/// `dir`/recovery, `prompts` answering instead of message boxes.
inline app::MainWindowOptions windowOptions(const QTemporaryDir& dir, editor::Prompts* prompts) {
    app::MainWindowOptions o;
    o.settingsOrganization = testOrganization();
    o.recoveryDir = dir.filePath(QStringLiteral("recovery"));
    o.prompts = prompts;
    return o;
}

/// Copies `from` to `to` (replacing it) and makes the copy writable by its owner (files of
/// a read-only checkout stay read-only when copied). Returns `to`; empty when the copy failed.
inline QString copyWritable(const QString& from, const QString& to) {
    QFile::remove(to);
    if (!QFile::copy(from, to)) return {};
    QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner);
    return to;
}

/// The members a GUI test class with main windows shares (derive from QObject first, then
/// this): dir_ (a temporary folder), prompts_, the window options, copies of the examples
/// and, for the classes that keep one window for all their tests, w_ (showWindow).
class WindowFixture {
protected:
    QTemporaryDir dir_;
    StubPrompts prompts_;
    std::unique_ptr<app::MainWindow> w_;  ///< after prompts_: destroyed before it

    /// windowOptions in dir_, answered by `prompts` (nullptr: prompts_).
    app::MainWindowOptions options(editor::Prompts* prompts = nullptr) {
        return windowOptions(dir_, prompts ? prompts : &prompts_);
    }
    /// A writable copy of examples/`name` in dir_ (named `as` when given); empty on failure.
    QString copyExample(const QString& name, const QString& as = {}) {
        return copyWritable(kExamplesDir + QLatin1Char('/') + name, dir_.filePath(as.isEmpty() ? name : as));
    }
    /// For initTestCase: checks dir_ and keeps QSettings' user scope in dir_/settings.
    void initFixture() {
        QVERIFY(dir_.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath(QStringLiteral("settings")));
    }
    /// For initTestCase: w_ = a main window with options(), resized to `size` and shown.
    void showWindow(QSize size) {
        w_ = std::make_unique<app::MainWindow>(options());
        w_->resize(size);
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    }
};

}  // namespace golightly::test
