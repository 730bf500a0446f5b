// Parameters and expressions in the IDE (issue 53, item 1): numeric fields of the
// Properties and Run setup docks take an expression over the project's parameters, the
// document keeps it (save, reopen), the Parameters dock adds, renames and deletes
// parameters (one undo step each), and bindings follow their items through deletion,
// reordering, duplication and copy/paste.
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include <QSettings>

#include "docks.hpp"
#include "main_window.hpp"
#include "editor_document.hpp"
#include "expressions.hpp"
#include "golightly/parameters.hpp"
#include "golightly/project.hpp"
#include "gui_fixture.hpp"
#include "number_spin_box.hpp"
#include "parameters_dock.hpp"

using namespace golightly;
using namespace golightly::editor;
using golightly::test::StubPrompts;
using golightly::test::undoRedoRoundTrip;

namespace {

/// The default project with parameters w = 0.5 and gap = "2 * w" and one rectangle.
Project parameterProject() {
    Project p = default_project();
    p.parameters = {Parameter{"w", "", 0.5}, Parameter{"gap", "2 * w", 1.0}};
    Shape r;
    r.type = ShapeType::Rectangle;
    r.min = {1.0, 1.0};
    r.max = {3.0, 2.0};
    p.layers[0].shapes.push_back(r);
    return p;
}

/// Prompts that answer the Parameters dock's question "replace its uses?" as configured.
struct ParameterPrompts : StubPrompts {
    bool replaceUses = true;
    int asked = 0;
};

}  // namespace

class TestParameters : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // an expression typed into a Properties field: evaluated, applied, kept as text; an
    // invalid one: red with the parser's message, not applied
    void propertiesFieldTakesExpression() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_MUPARSER, expressions_available(), "muparser");
        EditorDocument doc;
        doc.replaceProject(parameterProject(), QStringLiteral("setup"));
        doc.undoStack()->clear();
        PropertiesDock dock(&doc);
        doc.setSelection({ItemRef::Kind::Shape, 0, 0});
        dock.rebuild();
        QVERIFY(undoRedoRoundTrip(doc, [&] { QCOMPARE(dock.enterText(QStringLiteral("Max x"), QStringLiteral("2 * w + 500nm + gap")), QString()); }));
        const Shape& s = doc.project().layers[0].shapes[0];
        QCOMPARE(s.max.x, 2 * 0.5 + 0.5 + 1.0);
        const FieldExpression* e = expression_at(doc.project(), "layers[0].shapes[0].max[0]");
        QVERIFY2(e, "the field is bound");
        QCOMPARE(QString::fromStdString(e->text), QStringLiteral("2 * w + 500nm + gap"));
        // the rebuilt field shows the expression and its value
        dock.rebuild();
        auto* f = dynamic_cast<NumberSpinBox*>(dock.field(QStringLiteral("Max x")));
        QVERIFY(f);
        QCOMPARE(f->expression(), QStringLiteral("2 * w + 500nm + gap"));
        QVERIFY2(f->toolTip().contains(QStringLiteral("= 2.5")), qPrintable(f->toolTip()));
        auto* valueLabel = dock.findChild<QLabel*>(QStringLiteral("Max x.value"));
        QVERIFY(valueLabel);
        QVERIFY2(valueLabel->text().contains(QStringLiteral("2.5")), qPrintable(valueLabel->text()));
        // an unknown name: the solver's message, red, not applied, no undo step
        const int steps = doc.undoStack()->count();
        const QString problem = dock.enterText(QStringLiteral("Max y"), QStringLiteral("3 * q"));
        QVERIFY2(problem.contains(QStringLiteral("unknown parameter \"q\"")), qPrintable(problem));
        QVERIFY(dock.field(QStringLiteral("Max y"))->property("invalid").toBool());
        QCOMPARE(doc.project().layers[0].shapes[0].max.y, 2.0);
        QCOMPARE(doc.undoStack()->count(), steps);
        QCOMPARE(dock.problems().size(), 1);
        // a number replaces the expression
        QCOMPARE(dock.enterText(QStringLiteral("Max x"), QStringLiteral("4")), QString());
        QCOMPARE(doc.project().layers[0].shapes[0].max.x, 4.0);
        QVERIFY(!expression_at(doc.project(), "layers[0].shapes[0].max[0]"));
    }

    // Run setup's fields take expressions too
    void runSetupFieldTakesExpression() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_MUPARSER, expressions_available(), "muparser");
        EditorDocument doc;
        doc.replaceProject(parameterProject(), QStringLiteral("setup"));
        RunSetupDock dock(&doc);
        auto* cell = static_cast<NumberSpinBox*>(dock.cellSize());
        cell->setEnteredText(QStringLiteral("w / 25"));
        Q_EMIT cell->editingFinished();
        QCOMPARE(doc.project().domain.cell_size, 0.5 / 25);
        const FieldExpression* e = expression_at(doc.project(), "domain.cell_size");
        QVERIFY(e);
        QCOMPARE(QString::fromStdString(e->text), QStringLiteral("w / 25"));
        QCOMPARE(cell->expression(), QStringLiteral("w / 25"));
        doc.undoStack()->undo();
        QCOMPARE(doc.project().domain.cell_size, 0.02);
        QVERIFY(doc.project().expressions.empty());
        QCOMPARE(cell->expression(), QString());
    }

    // save and reopen keeps the expressions; the CLI's reader gives the same values
    void saveReopenKeepsExpressions() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_MUPARSER, expressions_available(), "muparser");
        QTemporaryDir dir;
        StubPrompts prompts;
        EditorDocument doc;
        doc.replaceProject(parameterProject(), QStringLiteral("setup"));
        PropertiesDock dock(&doc);
        doc.setSelection({ItemRef::Kind::Shape, 0, 0});
        dock.rebuild();
        QCOMPARE(dock.enterText(QStringLiteral("Min y"), QStringLiteral("gap - 250 nm")), QString());
        const QString path = dir.filePath(QStringLiteral("p.glproj"));
        QVERIFY(doc.saveAs(path, prompts));
        const Project direct = load_project(path.toStdString());  // golightly-cli run's reader
        QCOMPARE(direct.layers[0].shapes[0].min.y, 0.75);
        // and the CLI itself: the rectangle (1, 0.75)..(3, 2) is 2.5 um^2 of silicon
        QProcess cli;
        cli.start(QStringLiteral(GOLIGHTLY_CLI), {QStringLiteral("check"), path});
        QVERIFY(cli.waitForFinished(60000));
        const QString out = QString::fromUtf8(cli.readAllStandardOutput());
        QCOMPARE(cli.exitCode(), 0);
        QVERIFY2(QRegularExpression(QStringLiteral("si\\s+2\\.5 um\\^2")).match(out).hasMatch(), qPrintable(out));
        EditorDocument reopened;
        QVERIFY(reopened.open(path, prompts));
        QCOMPARE(reopened.project().expressions, doc.project().expressions);
        QCOMPARE(reopened.project().parameters, doc.project().parameters);
        QVERIFY(reopened.project() == doc.project());
        // an expression without parameters ("2 * 100nm") needs the `parameters` member too
        Project plain = default_project();
        EditorDocument doc2;
        doc2.replaceProject(plain, QStringLiteral("setup"));
        RunSetupDock run(&doc2);
        auto* cell = static_cast<NumberSpinBox*>(run.cellSize());
        cell->setEnteredText(QStringLiteral("2 * 5nm"));
        Q_EMIT cell->editingFinished();
        const QString path2 = dir.filePath(QStringLiteral("q.glproj"));
        QVERIFY(doc2.saveAs(path2, prompts));
        QCOMPARE(load_project(path2.toStdString()).domain.cell_size, 0.01);
    }

    // the dock: add, edit, rename (the expressions follow), delete a used parameter (asks;
    // cancel keeps it; replace puts the value in its place), each one undo step
    void dockAddRenameDelete() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_MUPARSER, expressions_available(), "muparser");
        struct Answer : StubPrompts {
            bool proceed = false;
            int asked = 0;
            QString text;
            bool askProceed(const QString&, const QString& t, const QString&) override {
                ++asked;
                text = t;
                return proceed;
            }
        } prompts;
        EditorDocument doc;
        doc.replaceProject(parameterProject(), QStringLiteral("setup"));
        PropertiesDock props(&doc);
        ParametersDock dock(&doc, &prompts);
        doc.setSelection({ItemRef::Kind::Shape, 0, 0});
        props.rebuild();
        QCOMPARE(props.enterText(QStringLiteral("Max x"), QStringLiteral("1 + gap")), QString());
        QCOMPARE(dock.table()->rowCount(), 2);
        QCOMPARE(dock.table()->item(1, ParametersDock::ColValue)->text(), QStringLiteral("1"));
        QCOMPARE(dock.table()->item(0, ParametersDock::ColUses)->text(), QStringLiteral("1"));  // w: by gap
        QCOMPARE(dock.table()->item(1, ParametersDock::ColUses)->text(), QStringLiteral("1"));  // gap: by Max x
        QVERIFY2(dock.table()->item(1, ParametersDock::ColUses)->toolTip().contains(QStringLiteral("max[0]")),
                 qPrintable(dock.table()->item(1, ParametersDock::ColUses)->toolTip()));
        // add
        QVERIFY(undoRedoRoundTrip(doc, [&] { QCOMPARE(dock.addParameter(QStringLiteral("h"), QStringLiteral("220 nm")), QString()); }));
        QCOMPARE(doc.project().parameters.back().value, 0.22);
        QVERIFY(!dock.addParameter(QStringLiteral("2x"), QStringLiteral("1")).isEmpty());
        QVERIFY(!dock.addParameter(QStringLiteral("h"), QStringLiteral("1")).isEmpty());
        QVERIFY(!dock.message().isEmpty());
        // edit: every bound field follows
        QVERIFY(undoRedoRoundTrip(doc, [&] { QCOMPARE(dock.setParameterText(QStringLiteral("w"), QStringLiteral("0.75")), QString()); }));
        QCOMPARE(doc.project().layers[0].shapes[0].max.x, 1 + 2 * 0.75);
        // an edit that breaks the project is refused with the reader's message
        QVERIFY(dock.setParameterText(QStringLiteral("w"), QStringLiteral("-2")).contains(QStringLiteral("max")));
        QCOMPARE(doc.project().parameters[0].value, 0.75);
        // rename: the expressions that use it are rewritten
        QVERIFY(undoRedoRoundTrip(doc, [&] { QCOMPARE(dock.renameParameter(QStringLiteral("gap"), QStringLiteral("g2")), QString()); }));
        QCOMPARE(QString::fromStdString(expression_at(doc.project(), "layers[0].shapes[0].max[0]")->text), QStringLiteral("1 + g2"));
        // delete a used parameter: asked; cancel keeps it
        const Project before = doc.project();
        QCOMPARE(dock.deleteParameter(QStringLiteral("w")), QStringLiteral("cancelled"));
        QCOMPARE(prompts.asked, 1);
        QVERIFY2(prompts.text.contains(QStringLiteral("parameter g2")), qPrintable(prompts.text));
        QVERIFY(doc.project() == before);
        // replace: g2 = "2 * 0.75", the field stays bound to g2
        prompts.proceed = true;
        QVERIFY(undoRedoRoundTrip(doc, [&] { QCOMPARE(dock.deleteParameter(QStringLiteral("w")), QString()); }));
        QCOMPARE(doc.project().parameters.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(doc.project().parameters[0].text), QStringLiteral("2 * 0.75"));
        QCOMPARE(doc.project().layers[0].shapes[0].max.x, 2.5);
        QVERIFY(expression_at(doc.project(), "layers[0].shapes[0].max[0]"));
        // an unused one goes without asking
        QCOMPARE(dock.deleteParameter(QStringLiteral("h")), QString());
        QCOMPARE(prompts.asked, 2);  // the cancel and the replace above, not this one
        // through the table: typing over a name renames, over an expression sets it
        QCOMPARE(dock.table()->item(0, ParametersDock::ColName)->text(), QStringLiteral("g2"));
        dock.table()->item(0, ParametersDock::ColName)->setText(QStringLiteral("gap"));
        QCOMPARE(QString::fromStdString(doc.project().parameters[0].name), QStringLiteral("gap"));
        QCOMPARE(QString::fromStdString(expression_at(doc.project(), "layers[0].shapes[0].max[0]")->text), QStringLiteral("1 + gap"));
        dock.table()->item(0, ParametersDock::ColExpression)->setText(QStringLiteral("1.25"));
        QCOMPARE(doc.project().layers[0].shapes[0].max.x, 2.25);
        // a refused entry: the table shows the project again
        dock.table()->item(0, ParametersDock::ColExpression)->setText(QStringLiteral("1 +"));
        QCOMPARE(doc.project().parameters[0].value, 1.25);
        QTRY_COMPARE(dock.table()->item(0, ParametersDock::ColExpression)->text(), QStringLiteral("1.25"));
        QVERIFY(!dock.message().isEmpty());
    }

    // the Expression column shows a pushed value (an optimizer's or a sweep's, written with
    // 17 digits: parameter_text) in the shortest text that reads back as the same double; the
    // stored value stays exact, and typing the shown text back changes nothing
    void expressionColumnShowsShortestExactText() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_MUPARSER, expressions_available(), "muparser");
        StubPrompts prompts;
        EditorDocument doc;
        doc.replaceProject(parameterProject(), QStringLiteral("setup"));
        ParametersDock dock(&doc, &prompts);
        const auto expressionCell = [&](int row) { return dock.table()->item(row, ParametersDock::ColExpression)->text(); };
        // as the shape optimizer and the sweep write values into the project
        const auto push = [&](double v) {
            doc.replaceProject(with_parameters(doc.project(), {{"w", parameter_text(v)}}, "p.glproj"), QStringLiteral("push"));
        };
        const struct {
            double value;
            const char* shown;
        } cases[] = {{0.35, "0.35"},                                  // 17 digits: 0.34999999999999998
                     {0.1 + 0.2, "0.30000000000000004"},              // another double than 0.3: all digits needed
                     {1.0 / 3.0, "0.3333333333333333"},               // 16 digits suffice (17: ...31)
                     {0.63, "0.63"},
                     {1e-7, "1e-07"},
                     {-2.5, "-2.5"}};
        QCOMPARE(parameter_text(0.35), std::string("0.34999999999999998"));  // what the column showed
        for (const auto& c : cases) {
            push(c.value);
            QCOMPARE(doc.project().parameters[0].value, c.value);  // stored exactly
            QCOMPARE(expressionCell(0), QString::fromLatin1(c.shown));
            QCOMPARE(expressionCell(1), QStringLiteral("2 * w"));  // an expression as written
            // the shown text typed back: the same double, bit for bit
            dock.table()->item(0, ParametersDock::ColExpression)->setText(QStringLiteral("1"));
            QCOMPARE(doc.project().parameters[0].value, 1.0);
            dock.table()->item(0, ParametersDock::ColExpression)->setText(QString::fromLatin1(c.shown));
            QVERIFY2(doc.project().parameters[0].value == c.value,
                     qPrintable(QString::number(doc.project().parameters[0].value, 'g', 17)));
            QCOMPARE(doc.project().parameters[1].value, 2 * c.value);
        }
    }

    // bindings follow their items: deletion of an earlier shape, layer reordering,
    // duplication, copy/paste (the paste keeps the expressions of its size, not of the
    // position it moved from), undo and redo
    void bindingsFollowItems() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_MUPARSER, expressions_available(), "muparser");
        EditorDocument doc;
        Project p = parameterProject();
        Shape first = p.layers[0].shapes[0];
        first.min = {5, 5};
        first.max = {6, 6};
        p.layers[0].shapes.insert(p.layers[0].shapes.begin(), first);  // the bound one is shapes[1]
        Layer second;
        second.name = "Second";
        second.material = "sio2";
        p.layers.push_back(second);
        doc.replaceProject(p, QStringLiteral("setup"));
        PropertiesDock props(&doc);
        doc.setSelection({ItemRef::Kind::Shape, 0, 1});
        props.rebuild();
        QCOMPARE(props.enterText(QStringLiteral("Max y"), QStringLiteral("w + gap")), QString());
        QVERIFY(expression_at(doc.project(), "layers[0].shapes[1].max[1]"));
        // delete the shape before it: the binding moves to shapes[0]
        doc.removeItem({ItemRef::Kind::Shape, 0, 0});
        QVERIFY(expression_at(doc.project(), "layers[0].shapes[0].max[1]"));
        QCOMPARE(doc.project().expressions.size(), std::size_t(1));
        // reorder the layers: it moves to layers[1]
        doc.editProject(QStringLiteral("Reorder layers"), [](Project& q) { std::swap(q.layers[0], q.layers[1]); });
        QVERIFY(expression_at(doc.project(), "layers[1].shapes[0].max[1]"));
        doc.undoStack()->undo();
        QVERIFY(expression_at(doc.project(), "layers[0].shapes[0].max[1]"));
        doc.undoStack()->undo();
        QVERIFY(expression_at(doc.project(), "layers[0].shapes[1].max[1]"));
        doc.undoStack()->redo();
        doc.undoStack()->redo();
        QVERIFY(expression_at(doc.project(), "layers[1].shapes[0].max[1]"));
        // duplicate: the copy is bound too (moved along x only: its y keeps its value)
        doc.duplicateItem({ItemRef::Kind::Shape, 1, 0}, 0.5, 0.0);
        QVERIFY(expression_at(doc.project(), "layers[1].shapes[1].max[1]"));
        // moved along y: that field no longer holds its value and keeps the number
        doc.duplicateItem({ItemRef::Kind::Shape, 1, 0}, 0.0, 0.5);
        QVERIFY(!expression_at(doc.project(), "layers[1].shapes[2].max[1]"));
        QCOMPARE(doc.project().expressions.size(), std::size_t(2));
    }

    // copy/paste in the main window: the pasted item keeps the expressions of the fields
    // the paste does not move; the Parameters dock is in the View menu. With
    // GOLIGHTLY_PARAMETERS_SHOT=FILE set, saves the window's picture (the user guide's).
    void copyPasteKeepsExpressions() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_MUPARSER, expressions_available(), "muparser");
        QTemporaryDir dir;
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath(QStringLiteral("settings")));
        StubPrompts prompts;
        const app::MainWindowOptions o = test::windowOptions(dir, &prompts);
        app::MainWindow w(o);
        w.resize(1400, 860);
        w.show();
        EditorDocument* doc = w.document();
        doc->replaceProject(parameterProject(), QStringLiteral("setup"));
        doc->setSelection({ItemRef::Kind::Shape, 0, 0});
        PropertiesDock* props = w.propertiesDock();
        props->rebuild();
        QCOMPARE(props->enterText(QStringLiteral("Rotation"), QStringLiteral("gap * 30")), QString());
        props->rebuild();
        QCOMPARE(props->enterText(QStringLiteral("Max y"), QStringLiteral("w + 1.5")), QString());
        QCOMPARE(doc->project().expressions.size(), std::size_t(2));
        w.action(QStringLiteral("edit.copy"))->trigger();
        w.action(QStringLiteral("edit.paste"))->trigger();
        QCOMPARE(doc->project().layers[0].shapes.size(), std::size_t(2));
        const FieldExpression* rot = expression_at(doc->project(), "layers[0].shapes[1].rotation_deg");
        QVERIFY2(rot, "the pasted rectangle's rotation keeps its expression");
        QCOMPARE(QString::fromStdString(rot->text), QStringLiteral("gap * 30"));
        QCOMPARE(doc->project().layers[0].shapes[1].rotation_deg, 30.0);
        // the paste moved it: its max y holds another value and keeps the number
        QVERIFY(!expression_at(doc->project(), "layers[0].shapes[1].max[1]"));
        QVERIFY(expression_at(doc->project(), "layers[0].shapes[0].max[1]"));
        // one undo step takes the pasted item and its binding away
        doc->undoStack()->undo();
        QCOMPARE(doc->project().layers[0].shapes.size(), std::size_t(1));
        QCOMPARE(doc->project().expressions.size(), std::size_t(2));
        doc->undoStack()->redo();
        QVERIFY(expression_at(doc->project(), "layers[0].shapes[1].rotation_deg"));
        // the dock, from the View menu
        auto* dock = w.findChild<ParametersDock*>();
        QVERIFY(dock);
        QAction* toggle = w.action(QStringLiteral("view.parametersDock"));
        QVERIFY(toggle);
        if (!dock->isVisible()) toggle->trigger();
        dock->raise();
        QTRY_VERIFY(dock->isVisible());
        QCOMPARE(dock->table()->rowCount(), 2);
        QCOMPARE(dock->table()->item(1, ParametersDock::ColUses)->text(), QStringLiteral("2"));
        dock->table()->selectRow(1);
        QVERIFY2(dock->usesLabel()->text().contains(QStringLiteral("rotation_deg")), qPrintable(dock->usesLabel()->text()));
        const QString shot = qEnvironmentVariable("GOLIGHTLY_PARAMETERS_SHOT");
        if (!shot.isEmpty()) {
            doc->setSelection({ItemRef::Kind::Shape, 0, 0});
            props->rebuild();
            // the dock with the Monitors dock, so that the Properties fields show too
            w.removeDockWidget(dock);
            w.addDockWidget(Qt::BottomDockWidgetArea, dock);
            dock->show();
            QTest::qWait(50);
            w.splitDockWidget(w.findChild<QDockWidget*>(QStringLiteral("MonitorsDock")), dock, Qt::Horizontal);
            props->raise();
            QTest::qWait(50);
            dock->raise();
            dock->table()->selectRow(0);
            QTest::qWait(200);
            QVERIFY(w.grab().save(shot));
        }
    }
};

QTEST_MAIN(TestParameters)
#include "tst_parameters.moc"
