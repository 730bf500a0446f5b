// The fixture of the newcomer tests (issue 20: tst_newcomer.cpp, the run and its checks;
// tst_newcomer_editing.cpp, editing, the look and the language): a temporary folder with
// the examples copied into it, window options with their own settings (the shared
// WindowFixture of gui_fixture.hpp), and small readers of the main window. Header-only.
#pragma once

#include <QImage>
#include <QLabel>
#include <QProgressBar>
#include <QStringList>
#include <QTest>
#include <QWidget>

#include <optional>

#include "gui_fixture.hpp"
#include "main_window.hpp"

namespace golightly::test::newcomer {

/// Prompts that also answer askText.
struct NamingPrompts : StubPrompts {
    QStringList answers;  ///< given in order; none left: cancel
    QStringList asked;
    std::optional<QString> askText(const QString&, const QString& label, const QString& proposal) override {
        asked << label + QStringLiteral(" [") + proposal + QStringLiteral("]");
        if (answers.isEmpty()) return std::nullopt;
        return answers.takeFirst();
    }
};

inline QString statusText(app::MainWindow& w) { return w.findChild<QLabel*>(QStringLiteral("run.status"))->text(); }
inline QProgressBar* progressBar(app::MainWindow& w) { return w.findChild<QProgressBar*>(QStringLiteral("run.progress")); }

/// With GOLIGHTLY_TEST_SHOTS=DIR set, saves a picture for checking by eye.
inline void shot(const QString& name, const QImage& image) {
    const QString dir = qEnvironmentVariable("GOLIGHTLY_TEST_SHOTS");
    if (!dir.isEmpty()) image.save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}
inline void shot(const QString& name, QWidget* w) { shot(name, w->grab().toImage()); }

inline int luminance(QRgb c) { return (qRed(c) * 30 + qGreen(c) * 59 + qBlue(c) * 11) / 100; }

/// The members every newcomer test class shares (gui_fixture.hpp): dir_ (the examples are
/// copied there), prompts_ and the window options.
using Fixture = WindowFixture;

}  // namespace golightly::test::newcomer
