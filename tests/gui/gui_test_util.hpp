// Shared helpers of the GUI tests.
#pragma once

#include <QImage>
#include <QSet>
#include <QTest>
#include <QUndoStack>

#include <functional>

#include "editor_document.hpp"

// A test function that needs an optional feature of the build (GOLIGHTLY_GUI_HAVE_<FEATURE>
// is 0 or 1, tests/gui/CMakeLists.txt). Built: the feature must work, and the test fails
// when `available` is false. Not built: the function skips, and CTest lists the disabled
// test gui_optional_<feature>_not_built ("Not Run (Disabled)") for it.
// Use: GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_OCCT, step_import_available(), "occt");
#define GOLIGHTLY_REQUIRE_FEATURE(built, available, feature)                                          \
    do {                                                                                               \
        if (!(built)) QSKIP("optional feature " feature " not built (CTest: gui_optional_" feature "_not_built)"); \
        QVERIFY2((available), "optional feature " feature " is built but not usable here");             \
    } while (0)

namespace golightly::test {

/// Distinct colours in an image, counted up to `cap`: a blank or uniform picture has one,
/// a picture that draws shapes, outlines and text has several.
inline int distinctColours(const QImage& image, int cap = 64) {
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    QSet<QRgb> seen;
    for (int y = 0; y < img.height() && seen.size() < cap; ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        for (int x = 0; x < img.width() && seen.size() < cap; ++x) seen.insert(row[x]);
    }
    return int(seen.size());
}

/// Prompts answered by the test: records errors, answers questions as configured.
struct StubPrompts : golightly::editor::Prompts {
    QStringList errors;
    SaveChoice saveAnswer = SaveChoice::Discard;
    bool recoverAnswer = true;
    int saveAsked = 0, recoverAsked = 0;
    QString recoverText;
    void error(const QString& title, const QString& text) override { errors << title + QStringLiteral(": ") + text; }
    SaveChoice askSaveChanges(const QString&) override {
        ++saveAsked;
        return saveAnswer;
    }
    bool askRecover(const QString& text) override {
        ++recoverAsked;
        recoverText = text;
        return recoverAnswer;
    }
};

/// Runs `edit`, checks it made exactly one undo step that changed the project, then that
/// undo gives back the identical project and redo the identical edited one.
inline bool undoRedoRoundTrip(golightly::editor::EditorDocument& doc, const std::function<void()>& edit) {
    const golightly::Project before = doc.project();
    const int count = doc.undoStack()->count();
    edit();
    const golightly::Project after = doc.project();
    if (doc.undoStack()->count() != count + 1) {
        qWarning("expected one undo step, got %d", doc.undoStack()->count() - count);
        return false;
    }
    if (after == before) {
        qWarning("the edit did not change the project");
        return false;
    }
    doc.undoStack()->undo();
    if (!(doc.project() == before)) {
        qWarning("undo did not restore the identical project");
        return false;
    }
    doc.undoStack()->redo();
    if (!(doc.project() == after)) {
        qWarning("redo did not restore the identical edited project");
        return false;
    }
    return true;
}

}  // namespace golightly::test
