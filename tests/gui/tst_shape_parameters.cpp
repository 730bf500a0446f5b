// The IDE's editor of design.shape_parameters (issue 53 items 3 and 6: shape parameters as
// the second kind of design variable, edited where the IDE edits the design: the Inverse
// Design dock), on the 2D guide of the design tests with two project parameters:
//  - the reader's messages per row (editor::shape_parameter_problems): the exact messages
//    docs/spec/project-format.md gives for each refusal, each row numbered as in the file;
//  - the dock: Add (a design section is created around the first parameter), edits of min,
//    max, step and the parameter typed into the table's widgets, each one undo step; undo
//    and redo; save and reopen; an edit the reader refuses on opening the file is not
//    applied and its row is marked with the reader's message; a row the optimizer would
//    refuse (a deleted parameter, a start value outside [min, max]) is marked; Remove;
//  - renaming a parameter (Parameters dock) renames its row in the same undo step;
//  - with a drawn design region the table is disabled (one kind of variable per design),
//    and undo brings the shape parameters back;
//  - the picture of the editor (GOLIGHTLY_SCREENSHOT_DIR: shape-parameters.png).
#include <QComboBox>
#include <QDir>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "design_guide.hpp"
#include "design_region.hpp"
#include "editor_document.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/errors.hpp"
#include "golightly/project.hpp"
#include "gui_fixture.hpp"
#include "inverse_design_dock.hpp"
#include "parameters_dock.hpp"

using namespace golightly;
using namespace golightly::editor;
using golightly::app::InverseDesignDock;

namespace {
using golightly::test::kDesignGuide;

/// The guide with parameters w = 0.3 and h = 0.22 (um) and no design section.
Project guideWithParameters() {
    Project p = parse_project(kDesignGuide, "guide.glproj");
    p.parameters = {Parameter{"w", "", 0.3}, Parameter{"h", "", 0.22}};
    return p;
}

Json entry(const char* name, double min, double max) { return Json{{"name", name}, {"min", min}, {"max", max}}; }

/// The project with design.shape_parameters = `list` (and the default objective).
Project withShapes(const Json& list) {
    Project p = guideWithParameters();
    set_shape_parameters(p, list);
    return p;
}

QLineEdit* cellField(InverseDesignDock& dock, int row, int column) {
    return qobject_cast<QLineEdit*>(dock.shapeTable()->cellWidget(row, column));
}

/// Types `text` into the field at (row, column) as a user does: select all, type, Enter.
void typeInto(InverseDesignDock& dock, int row, int column, const QString& text) {
    QLineEdit* f = cellField(dock, row, column);
    QVERIFY(f);
    f->setFocus();
    f->selectAll();
    QTest::keyClicks(f, text);
    QTest::keyClick(f, Qt::Key_Return);
    QCoreApplication::processEvents();  // the dock's rebuild after the document changed
}
}  // namespace

class TestShapeParameters : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void readerMessagesPerRow() {
        // one problem per row, each the reader's message for that row as the spec words it
        Json list = Json::array({entry("w", 0.2, 0.5), entry("h", 0.3, 0.1), entry("w", 0.25, 0.45),
                                 entry("q", 0.1, 0.2), entry("h", 0.25, 0.4), Json{{"name", "h"}, {"min", 0.1}, {"max", 0.3}, {"step", 0.2}}});
        const Project p = withShapes(list);
        const auto problems = shape_parameter_problems(p, "shapes.glproj", true);
        QCOMPARE(problems.size(), size_t(6));
        QCOMPARE(problems[0], QString());
        QCOMPARE(problems[1], QStringLiteral("shapes.glproj: design.shape_parameters[1].max: must exceed min (0.3; found 0.1)"));
        QCOMPARE(problems[2], QStringLiteral("shapes.glproj: design.shape_parameters[2].name: repeats parameter \"w\""));
        QCOMPARE(problems[3], QStringLiteral("shapes.glproj: design.shape_parameters[3].name: \"q\" is not a parameter of "
                                             "the project (top-level `parameters`)"));
        QCOMPARE(problems[4], QStringLiteral("shapes.glproj: design.shape_parameters[4]: the start value of \"h\" (its "
                                             "parameter value, 0.22) lies outside [min, max] = [0.25, 0.4]"));
        QCOMPARE(problems[5], QStringLiteral("shapes.glproj: design.shape_parameters[5].step: must be below half of max - "
                                             "min (0.1; found 0.2)"));
        // without the references only what makes the file unreadable
        const auto structural = shape_parameter_problems(p, "shapes.glproj", false);
        QVERIFY(!structural[1].isEmpty() && !structural[2].isEmpty() && !structural[5].isEmpty());
        QVERIFY(structural[0].isEmpty() && structural[3].isEmpty() && structural[4].isEmpty());
        // the first problem is the one the reader itself stops at
        try {
            design_spec(p, "shapes.glproj", true);
            QFAIL("the reader took an invalid list");
        } catch (const ProjectError& e) {
            QCOMPARE(QString::fromUtf8(e.what()), problems[1]);
        }
        // a valid list: no problem, and the reader takes it
        const Project ok = withShapes(Json::array({entry("w", 0.2, 0.5), entry("h", 0.2, 0.3)}));
        for (const QString& m : shape_parameter_problems(ok, "shapes.glproj", true)) QCOMPARE(m, QString());
        const auto spec = design_spec(ok, "shapes.glproj", true);
        QVERIFY(spec);
        QCOMPARE(spec->shape_parameters.size(), size_t(2));
    }

    void newEntryAndSection() {
        Project p = guideWithParameters();
        const Json first = new_shape_parameter(p);
        COMPARE_JSON(first, entry("w", 0.27, 0.33));
        set_shape_parameters(p, Json::array({first}));
        QVERIFY(p.extra["design"].contains("objective"));   // the default objective
        QVERIFY(p.extra["design"].contains("optimizer"));
        QVERIFY(!p.extra["design"].contains("regions"));
        COMPARE_JSON(new_shape_parameter(p)["name"], Json("h"));
        set_shape_parameters(p, Json::array({first, new_shape_parameter(p)}));
        QVERIFY(new_shape_parameter(p).is_null());  // every parameter listed
        QVERIFY(design_spec(p, "guide.glproj", true));
        set_shape_parameters(p, Json::array());  // no variables left: no design
        QVERIFY(!p.extra.contains("design"));
    }

    void editAddUndoRedoSaveReopen() {
        EditorDocument doc;
        doc.adoptRecovered(guideWithParameters(), QString());
        InverseDesignDock dock(&doc);
        dock.resize(900, 700);
        dock.show();
        QCOMPARE(dock.shapeTable()->rowCount(), 0);
        auto* add = dock.findChild<QPushButton*>(QStringLiteral("designAddShapeParameter"));
        auto* remove = dock.findChild<QPushButton*>(QStringLiteral("designRemoveShapeParameter"));
        QVERIFY(add && remove);
        QVERIFY(add->isEnabled());
        QVERIFY(!remove->isEnabled());
        QUndoStack* undo = doc.undoStack();
        const int start = undo->index();

        // Add: one row for w, one undo step, a design section the reader takes
        QTest::mouseClick(add, Qt::LeftButton);
        QCoreApplication::processEvents();
        QCOMPARE(undo->index(), start + 1);
        QCOMPARE(dock.shapeTable()->rowCount(), 1);
        COMPARE_JSON(shape_parameters(doc.project()), Json::array({entry("w", 0.27, 0.33)}));
        QVERIFY(design_spec(doc.project(), "guide.glproj", true));
        auto* name = qobject_cast<QComboBox*>(dock.shapeTable()->cellWidget(0, 0));
        QVERIFY(name);
        QCOMPARE(name->currentData().toString(), QStringLiteral("w"));
        QCOMPARE(dock.shapeRowProblem(0), QString());

        // max, then step, typed: one undo step each
        typeInto(dock, 0, 2, QStringLiteral("0.5"));
        QCOMPARE(undo->index(), start + 2);
        COMPARE_JSON(shape_parameters(doc.project())[0]["max"], Json(0.5));
        typeInto(dock, 0, 3, QStringLiteral("0.001"));
        QCOMPARE(undo->index(), start + 3);
        COMPARE_JSON(shape_parameters(doc.project())[0]["step"], Json(0.001));
        // focus leaving an unchanged field: no step
        typeInto(dock, 0, 3, QStringLiteral("0.001"));
        QCOMPARE(undo->index(), start + 3);

        // undo and redo, the table following
        undo->undo();
        QCoreApplication::processEvents();
        QVERIFY(!shape_parameters(doc.project())[0].contains("step"));
        QCOMPARE(cellField(dock, 0, 3)->text(), QString());
        undo->redo();
        QCoreApplication::processEvents();
        QCOMPARE(cellField(dock, 0, 3)->text(), QStringLiteral("0.001"));

        // min above max: the file would not reopen, so not applied; the row marked with the
        // reader's message, the typed value kept
        typeInto(dock, 0, 1, QStringLiteral("0.6"));
        QCOMPARE(undo->index(), start + 3);
        COMPARE_JSON(shape_parameters(doc.project())[0]["min"], Json(0.27));
        QCOMPARE(dock.shapeRowProblem(0),
                 QStringLiteral("Not applied: Untitled: design.shape_parameters[0].max: must exceed min (0.6; found 0.5)"));
        QVERIFY(cellField(dock, 0, 1)->property("invalid").toBool());
        QCOMPARE(cellField(dock, 0, 1)->text(), QStringLiteral("0.6"));
        QCOMPARE(cellField(dock, 0, 1)->toolTip(), dock.shapeRowProblem(0));
        // max raised: the row (min 0.6 as typed) applies in one step; the start value 0.3
        // now lies outside [0.6, 0.7]: readable, but the optimizer refuses it: marked
        typeInto(dock, 0, 2, QStringLiteral("0.7"));
        QCOMPARE(undo->index(), start + 4);
        COMPARE_JSON(shape_parameters(doc.project())[0]["min"], Json(0.6));
        COMPARE_JSON(shape_parameters(doc.project())[0]["max"], Json(0.7));
        QCOMPARE(dock.shapeRowProblem(0), QStringLiteral("Untitled: design.shape_parameters[0]: the start value of \"w\" "
                                                         "(its parameter value, 0.3) lies outside [min, max] = [0.6, 0.7]"));
        QVERIFY(dock.shapeNote().contains(dock.shapeRowProblem(0)));
        typeInto(dock, 0, 1, QStringLiteral("0.2"));
        QCOMPARE(undo->index(), start + 5);
        QCOMPARE(dock.shapeRowProblem(0), QString());
        QVERIFY(!cellField(dock, 0, 1)->property("invalid").toBool());
        // not a number: not applied
        typeInto(dock, 0, 2, QStringLiteral("wide"));
        QCOMPARE(undo->index(), start + 5);
        QVERIFY(dock.shapeRowProblem(0).contains(QStringLiteral("\"wide\" is not a number")));
        typeInto(dock, 0, 2, QStringLiteral("0.7"));
        QCOMPARE(dock.shapeRowProblem(0), QString());

        // a second row (h); choosing w for it repeats w: not applied, marked
        QTest::mouseClick(add, Qt::LeftButton);
        QCoreApplication::processEvents();
        QCOMPARE(dock.shapeTable()->rowCount(), 2);
        QVERIFY(!add->isEnabled());  // both parameters listed
        const int beforeRepeat = undo->index();
        QVERIFY(!dock.editShapeParameter(1, 0, QStringLiteral("w")));
        QCOMPARE(undo->index(), beforeRepeat);
        QCOMPARE(dock.shapeRowProblem(1),
                 QStringLiteral("Not applied: Untitled: design.shape_parameters[1].name: repeats parameter \"w\""));
        COMPARE_JSON(shape_parameters(doc.project())[1]["name"], Json("h"));

        // save and reopen: the same list, the reader takes it, the table shows it
        const QString file = dir_.filePath(QStringLiteral("shapes.glproj"));
        test::StubPrompts prompts;
        QVERIFY(doc.saveAs(file, prompts));
        const Json saved = shape_parameters(doc.project());
        COMPARE_JSON(saved, Json::array({Json{{"name", "w"}, {"min", 0.2}, {"max", 0.7}, {"step", 0.001}}, entry("h", 0.198, 0.242)}));
        EditorDocument reopened;
        QVERIFY(reopened.open(file, prompts));
        COMPARE_JSON(shape_parameters(reopened.project()), saved);
        QVERIFY(design_spec(reopened.project(), file.toStdString(), true));
        InverseDesignDock dock2(&reopened);
        QCOMPARE(dock2.shapeTable()->rowCount(), 2);
        QCOMPARE(qobject_cast<QLineEdit*>(dock2.shapeTable()->cellWidget(0, 2))->text(), QStringLiteral("0.7"));
        QCOMPARE(qobject_cast<QComboBox*>(dock2.shapeTable()->cellWidget(1, 0))->currentData().toString(), QStringLiteral("h"));

        // the parameter h deleted (Parameters dock): its row marked, naming the field
        doc.editProject(QStringLiteral("Delete parameter"), [](Project& p) { p.parameters.pop_back(); });
        QCoreApplication::processEvents();
        QCOMPARE(dock.shapeRowProblem(1),
                 QString(file + QStringLiteral(": design.shape_parameters[1].name: \"h\" is not a parameter of the project "
                                               "(top-level `parameters`)")));
        undo->undo();
        QCoreApplication::processEvents();
        QCOMPARE(dock.shapeRowProblem(1), QString());

        // Remove: the selected row, one step; the last row takes the design with it
        const int beforeRemove = undo->index();
        QVERIFY(dock.removeShapeParameter(0));
        QCoreApplication::processEvents();
        QCOMPARE(undo->index(), beforeRemove + 1);
        QCOMPARE(dock.shapeTable()->rowCount(), 1);
        COMPARE_JSON(shape_parameters(doc.project())[0]["name"], Json("h"));
        QVERIFY(dock.removeShapeParameter(0));
        QCoreApplication::processEvents();
        QVERIFY(!doc.project().extra.contains("design"));
        QCOMPARE(dock.shapeTable()->rowCount(), 0);
        undo->undo();
        undo->undo();
        QCoreApplication::processEvents();
        COMPARE_JSON(shape_parameters(doc.project()), saved);
        QCOMPARE(dock.shapeTable()->rowCount(), 2);
    }

    void regionReplacesShapeParametersInDock() {
        // a design has one kind of variable: the drawn region replaces the shape parameters
        // (set_design_box, as the Design Region tool draws it), the table is disabled and
        // says why; undo brings the parameters back, editable
        EditorDocument doc;
        doc.adoptRecovered(withShapes(Json::array({entry("w", 0.2, 0.5)})), QString());
        InverseDesignDock dock(&doc);
        QCOMPARE(dock.shapeTable()->rowCount(), 1);
        auto* box = dock.findChild<QGroupBox*>(QStringLiteral("designShapeBox"));
        QVERIFY(box && box->isEnabled());
        doc.editProject(QStringLiteral("Draw design region"), [](Project& p) { QVERIFY(set_design_box(p, QPointF(1.5, 0.9), QPointF(2.1, 1.5))); });
        QCoreApplication::processEvents();
        QVERIFY(design_region(doc.project()));
        QVERIFY(!has_shape_parameters(doc.project()));
        QCOMPARE(dock.shapeTable()->rowCount(), 0);
        QVERIFY(!box->isEnabled());
        QVERIFY2(dock.shapeNote().contains(QStringLiteral("one kind of variable")), qPrintable(dock.shapeNote()));
        const int steps = doc.undoStack()->index();
        QVERIFY(!dock.addShapeParameter());  // would make a design of both kinds
        QCOMPARE(doc.undoStack()->index(), steps);
        QVERIFY(design_spec(doc.project(), "guide.glproj", false));
        doc.undoStack()->undo();
        QCoreApplication::processEvents();
        QVERIFY(!design_region(doc.project()));
        QCOMPARE(dock.shapeTable()->rowCount(), 1);
        QVERIFY(box->isEnabled());
        // the objective is edited in a shape design too (one undo step), and an edit that
        // would make the file unreadable is not applied: a wavelength list that leaves the
        // formula's F2 undefined
        auto* combine = dock.findChild<QComboBox*>(QStringLiteral("designCombine"));
        auto* wavelengths = dock.findChild<QLineEdit*>(QStringLiteral("designWavelengths"));
        QVERIFY(combine && wavelengths && combine->isEnabledTo(&dock) && wavelengths->isEnabledTo(&dock));
        int before = doc.undoStack()->index();
        wavelengths->setText(QStringLiteral("1.5, 1.55, 1.6"));
        Q_EMIT wavelengths->editingFinished();
        QCOMPARE(doc.undoStack()->index(), before + 1);
        QCoreApplication::processEvents();
        combine->activated(combine->findData(QStringLiteral("expression")));
        QCOMPARE(doc.undoStack()->index(), before + 2);
        COMPARE_JSON(doc.project().extra["design"]["objective"]["expression"], Json("avg(F0, F1, F2)"));
        QCoreApplication::processEvents();
        before = doc.undoStack()->index();
        wavelengths->setText(QStringLiteral("1.5, 1.55"));
        Q_EMIT wavelengths->editingFinished();
        QCOMPARE(doc.undoStack()->index(), before);
        QVERIFY2(dock.statusText().contains(QStringLiteral("design.objective.expression")), qPrintable(dock.statusText()));
        QVERIFY(design_spec(doc.project(), "guide.glproj", true));
    }

    void renameFollows() {
        // renaming a parameter in the Parameters dock renames its shape parameter in the
        // same undo step (else the row would name a parameter that no longer exists)
        EditorDocument doc;
        doc.adoptRecovered(withShapes(Json::array({entry("w", 0.2, 0.5), entry("h", 0.2, 0.3)})), QString());
        test::StubPrompts prompts;
        ParametersDock params(&doc, &prompts);
        InverseDesignDock dock(&doc);
        const int steps = doc.undoStack()->index();
        QCOMPARE(params.renameParameter(QStringLiteral("w"), QStringLiteral("width")), QString());
        QCoreApplication::processEvents();
        QCOMPARE(doc.undoStack()->index(), steps + 1);
        COMPARE_JSON(shape_parameters(doc.project()), Json::array({entry("width", 0.2, 0.5), entry("h", 0.2, 0.3)}));
        QCOMPARE(dock.shapeRowProblem(0), QString());
        QCOMPARE(qobject_cast<QComboBox*>(dock.shapeTable()->cellWidget(0, 0))->currentData().toString(), QStringLiteral("width"));
        QVERIFY(design_spec(doc.project(), "guide.glproj", true));
        doc.undoStack()->undo();
        COMPARE_JSON(shape_parameters(doc.project())[0]["name"], Json("w"));
    }

    void screenshot() {
        // the editor in the main window (saved with GOLIGHTLY_SCREENSHOT_DIR): not blank
        QTemporaryDir dir;
        test::StubPrompts prompts;
        app::MainWindow w(test::windowOptions(dir, &prompts));
        w.resize(1560, 1000);
        w.show();
        Project p = withShapes(Json::array({Json{{"name", "w"}, {"min", 0.2}, {"max", 0.5}, {"step", 0.001}},
                                             entry("h", 0.25, 0.4)}));
        const QString file = dir.filePath(QStringLiteral("shape_design.glproj"));
        save_project(p, file.toStdString());
        QVERIFY(w.openFile(file));
        if (w.structure3dDock()) w.structure3dDock()->hide();
        w.inverseDesignDock()->show();
        w.inverseDesignDock()->raise();
        for (QTabBar* bar : w.findChildren<QTabBar*>())  // the dock's tab in front of the Monitors'
            for (int i = 0; i < bar->count(); ++i)
                if (bar->tabText(i) == w.inverseDesignDock()->windowTitle()) bar->setCurrentIndex(i);
        w.resizeDocks({w.inverseDesignDock()}, {430}, Qt::Vertical);
        QTest::qWait(400);
        QVERIFY2(w.inverseDesignDock()->statusText().contains(QStringLiteral("shape parameters")),
                 qPrintable(w.inverseDesignDock()->statusText()));
        QCOMPARE(w.inverseDesignDock()->shapeTable()->rowCount(), 2);
        QVERIFY(!w.inverseDesignDock()->shapeRowProblem(1).isEmpty());  // h = 0.22 outside [0.25, 0.4]
        const QImage img = w.grab().toImage();
        QVERIFY(!img.isNull());
        const QString shots = qEnvironmentVariable("GOLIGHTLY_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QVERIFY(QDir().mkpath(shots));
            QVERIFY(img.save(QDir(shots).filePath(QStringLiteral("shape-parameters.png"))));
        }
    }
};

QTEST_MAIN(TestShapeParameters)
#include "tst_shape_parameters.moc"
