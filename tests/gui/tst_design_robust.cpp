// The robust (three-field) design and the combine formula in the IDE (issue 53), on the tiny
// 2D guide of tst_inverse_design (a 0.6 x 0.6 um region of 0.1 um pixels):
//  - Properties of the design region: "Robust design" turns design.regions[0].robust on
//    (the reader's defaults 0.25 / 0.75; L-BFGS replaced by MMA in the same step) and off;
//    "Dilated threshold" / "Eroded threshold" are checked with the reader's rules
//    (0 < eta_dilated < projection.eta < eta_eroded < 1), a broken one shown red and not
//    applied; each edit one undo step;
//  - "Projection threshold" (projection.eta): 0 < eta < 1 and, with the robust design,
//    between the dilated and eroded thresholds; refused entries red, each edit one undo step;
//  - the Inverse Design dock: Combine "Formula" writes combine "expression" with an
//    expression (the mean's, avg(F0, ..., F<N-1>), until one is typed); the formula field
//    is checked by the reader (design_spec's message shown, nothing applied); each edit one
//    undo step; Mean drops the expression; L-BFGS is refused while the region is robust;
//  - save and reopen keep both, identically, and the optimizer's reader takes them;
//  - the dock's run takes the project's formula: its figure of merit is the formula of the
//    per-wavelength values it plots;
//  - screenshots of both (GOLIGHTLY_SCREENSHOT_DIR: design_robust_properties.png,
//    design_combine_formula.png).
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "qcustomplot_include.hpp"

#include "design_guide.hpp"
#include "design_region.hpp"
#include "docks.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/project.hpp"
#include "gui_test_util.hpp"
#include "inverse_design_dock.hpp"

using namespace golightly;
using namespace golightly::editor;
using golightly::test::StubPrompts;


namespace {
using golightly::test::kDesignGuide;


Json robustOf(const Project& p) {
    const Json* r = design_region(p);
    return r && r->contains("robust") ? (*r)["robust"] : Json();
}
const Json& objectiveOf(const Project& p) { return p.extra.at("design").at("objective"); }
std::string algorithmOf(const Project& p) { return design_spec(p, "guide.glproj")->algorithm; }

/// Picks item `index` of `c` as a user would (activated is what the editors listen to).
void pick(QComboBox* c, int index) {
    c->setCurrentIndex(index);
    Q_EMIT c->activated(index);
}
/// Types `text` into `e` and presses Enter.
void type(QLineEdit* e, const QString& text) {
    e->setText(text);
    Q_EMIT e->editingFinished();
}
}  // namespace

class TestDesignRobust : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void robustPropertiesRulesAndUndo() {
        EditorDocument doc;
        Project p = golightly::test::design_guide_with_region(3, {1.55});
        design_optimizer_mut(p)["algorithm"] = "lbfgs";
        doc.adoptRecovered(p, QString());
        doc.setSelection({ItemRef::Kind::Design, -1, 0});
        PropertiesDock props(&doc);
        props.rebuild();
        auto* check = qobject_cast<QCheckBox*>(props.field(QStringLiteral("Robust design")));
        QVERIFY(check);
        QVERIFY(!check->isChecked());
        QVERIFY(!props.field(QStringLiteral("Dilated threshold")));  // only when robust
        const Project start = doc.project();
        const int steps = doc.undoStack()->count();

        // on: the reader's defaults, and MMA instead of L-BFGS, in one step
        check->setChecked(true);
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        COMPARE_JSON(robustOf(doc.project()), (Json{{"eta_dilated", 0.25}, {"eta_eroded", 0.75}}));
        QCOMPARE(algorithmOf(doc.project()), std::string("mma"));
        {
            const auto spec = design_spec(doc.project(), "guide.glproj");
            QCOMPARE(spec->regions[0].robust_eta_dilated, 0.25);
            QCOMPARE(spec->regions[0].robust_eta_eroded, 0.75);
        }
        const Project on = doc.project();
        props.rebuild();
        auto* dilated = qobject_cast<QDoubleSpinBox*>(props.field(QStringLiteral("Dilated threshold")));
        auto* eroded = qobject_cast<QDoubleSpinBox*>(props.field(QStringLiteral("Eroded threshold")));
        QVERIFY(dilated && eroded);
        QCOMPARE(dilated->value(), 0.25);
        QCOMPARE(eroded->value(), 0.75);

        // the reader's rules around projection.eta (0.5 here): refused, the rule shown,
        // nothing applied
        const struct {
            const char* label;
            double value;
        } refused[] = {{"Dilated threshold", 0.5}, {"Dilated threshold", 0.6}, {"Dilated threshold", 0},
                       {"Eroded threshold", 0.5},  {"Eroded threshold", 0.4},  {"Eroded threshold", 1}};
        for (const auto& r : refused) {
            const QString rule = props.enterValue(QLatin1String(r.label), r.value);
            QVERIFY2(rule.contains(QStringLiteral("projection's eta (0.5)")), qPrintable(rule));
            QCOMPARE(doc.undoStack()->count(), steps + 1);
            // listed once per field (Run refuses to start while any is)
            QVERIFY2(props.problems().filter(QLatin1String(r.label)).size() == 1, qPrintable(props.problems().join('\n')));
            QVERIFY(props.problems().filter(QLatin1String(r.label))[0].contains(rule));
            QVERIFY(qobject_cast<QDoubleSpinBox*>(props.field(QLatin1String(r.label)))->toolTip().contains(rule));
            QVERIFY(doc.project() == on);
        }
        // valid entries: one step each, read by the optimizer's reader
        QVERIFY(props.enterValue(QStringLiteral("Dilated threshold"), 0.3).isEmpty());
        QCOMPARE(doc.undoStack()->count(), steps + 2);
        props.rebuild();
        QVERIFY(props.enterValue(QStringLiteral("Eroded threshold"), 0.8).isEmpty());
        QCOMPARE(doc.undoStack()->count(), steps + 3);
        QVERIFY2(props.problems().isEmpty(), qPrintable(props.problems().join('\n')));
        {
            const auto spec = design_spec(doc.project(), "guide.glproj");
            QCOMPARE(spec->regions[0].robust_eta_dilated, 0.3);
            QCOMPARE(spec->regions[0].robust_eta_eroded, 0.8);
        }
        const Project edited = doc.project();
        props.rebuild();
        QCOMPARE(qobject_cast<QDoubleSpinBox*>(props.field(QStringLiteral("Dilated threshold")))->value(), 0.3);
        // undo / redo walk the steps back and forth
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QVERIFY(doc.project() == on);
        doc.undoStack()->undo();
        QVERIFY(doc.project() == start);
        QCOMPARE(algorithmOf(doc.project()), std::string("lbfgs"));
        for (int k = 0; k < 3; ++k) doc.undoStack()->redo();
        QVERIFY(doc.project() == edited);

        // off: the member goes, one step; undo brings the thresholds back
        props.rebuild();
        check = qobject_cast<QCheckBox*>(props.field(QStringLiteral("Robust design")));
        QVERIFY(check->isChecked());
        check->setChecked(false);
        QCOMPARE(doc.undoStack()->count(), steps + 4);
        QVERIFY(robustOf(doc.project()).is_null());
        QCOMPARE(design_spec(doc.project(), "guide.glproj")->regions[0].robust_eta_eroded, 0.0);
        props.rebuild();
        QVERIFY(!props.field(QStringLiteral("Eroded threshold")));
        doc.undoStack()->undo();
        QVERIFY(doc.project() == edited);

        // the rules follow the project's eta: at 0.7 the default eroded 0.75 still fits,
        // 0.65 is a valid dilated threshold and 0.72 .. 1 the eroded range
        {
            Project q = doc.project();
            design_region_mut(q)["projection"]["eta"] = 0.7;
            design_region_mut(q).erase("robust");
            doc.adoptRecovered(q, QString());
            doc.setSelection({ItemRef::Kind::Design, -1, 0});
        }
        props.rebuild();
        qobject_cast<QCheckBox*>(props.field(QStringLiteral("Robust design")))->setChecked(true);
        COMPARE_JSON(robustOf(doc.project()), (Json{{"eta_dilated", 0.25}, {"eta_eroded", 0.75}}));
        props.rebuild();
        QVERIFY(props.enterValue(QStringLiteral("Dilated threshold"), 0.65).isEmpty());
        props.rebuild();
        QVERIFY(props.enterValue(QStringLiteral("Eroded threshold"), 0.68).contains(QStringLiteral("(0.7)")));
        QVERIFY(design_spec(doc.project(), "guide.glproj"));
        // at eta 0.85 the default eroded threshold would not fit: midway to 1 instead
        {
            Project q = doc.project();
            design_region_mut(q)["projection"]["eta"] = 0.85;
            design_region_mut(q).erase("robust");
            doc.adoptRecovered(q, QString());
            doc.setSelection({ItemRef::Kind::Design, -1, 0});
        }
        props.rebuild();
        qobject_cast<QCheckBox*>(props.field(QStringLiteral("Robust design")))->setChecked(true);
        QCOMPARE(robustOf(doc.project())["eta_eroded"].get<double>(), (1 + 0.85) / 2);
        QVERIFY(design_spec(doc.project(), "guide.glproj"));
    }

    /// The projection's threshold eta (design.regions[0].projection.eta, default 0.5): 0 <
    /// eta < 1, and with the robust design between its dilated and eroded thresholds; a
    /// broken rule shown red and not applied; each entry one undo step, the unchanged
    /// default not written.
    void projectionThresholdRulesAndUndo() {
        EditorDocument doc;
        {
            // as a hand-written project may have it: no eta (the Design Region tool writes 0.5)
            Project p = golightly::test::design_guide_with_region(3, {1.55});
            design_region_mut(p)["projection"].erase("eta");
            doc.adoptRecovered(p, QString());
        }
        doc.setSelection({ItemRef::Kind::Design, -1, 0});
        PropertiesDock props(&doc);
        props.rebuild();
        const QString label = QStringLiteral("Projection threshold");
        auto* eta = qobject_cast<QDoubleSpinBox*>(props.field(label));
        QVERIFY(eta);
        QCOMPARE(eta->objectName(), QStringLiteral("designProjectionEta"));
        QCOMPARE(eta->value(), 0.5);  // the reader's default
        QVERIFY(eta->toolTip().contains(QStringLiteral("0 < eta < 1")));
        const Project start = doc.project();
        const int steps = doc.undoStack()->count();
        const auto etaOf = [](const Project& p) {
            const Json& proj = (*design_region(p))["projection"];
            return proj.contains("eta") ? proj["eta"] : Json();
        };
        QVERIFY(etaOf(start).is_null());

        // the default entered again: nothing written, no step
        QVERIFY(props.enterValue(label, 0.5).isEmpty());
        QCOMPARE(doc.undoStack()->count(), steps);
        QVERIFY(doc.project() == start);

        // outside (0, 1): refused, the rule in the tooltip and the problems, nothing applied
        for (const double v : {0.0, 1.0, -0.2, 1.5}) {
            const QString rule = props.enterValue(label, v);
            QVERIFY2(rule.contains(QStringLiteral("between 0 and 1")), qPrintable(rule));
            QCOMPARE(doc.undoStack()->count(), steps);
            QVERIFY(doc.project() == start);
            QVERIFY2(props.problems().filter(label).size() == 1, qPrintable(props.problems().join('\n')));
            QVERIFY(qobject_cast<QDoubleSpinBox*>(props.field(label))->toolTip().contains(rule));
        }
        // a valid one: one step, read by the optimizer's reader
        QVERIFY(props.enterValue(label, 0.6).isEmpty());
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QVERIFY2(props.problems().isEmpty(), qPrintable(props.problems().join('\n')));
        QCOMPARE(etaOf(doc.project()).get<double>(), 0.6);
        QCOMPARE(design_spec(doc.project(), "guide.glproj")->regions[0].eta, 0.6);
        const Project at06 = doc.project();
        props.rebuild();
        QCOMPARE(qobject_cast<QDoubleSpinBox*>(props.field(label))->value(), 0.6);

        // robust on (0.25 / 0.75 fit around 0.6): eta must stay between them
        qobject_cast<QCheckBox*>(props.field(QStringLiteral("Robust design")))->setChecked(true);
        QCOMPARE(doc.undoStack()->count(), steps + 2);
        COMPARE_JSON(robustOf(doc.project()), (Json{{"eta_dilated", 0.25}, {"eta_eroded", 0.75}}));
        const Project robust = doc.project();
        props.rebuild();
        for (const double v : {0.8, 0.75, 0.25, 0.2}) {
            const QString rule = props.enterValue(label, v);
            QVERIFY2(rule.contains(QStringLiteral("dilated threshold (0.25)")) && rule.contains(QStringLiteral("eroded threshold (0.75)")),
                     qPrintable(rule));
            QCOMPARE(doc.undoStack()->count(), steps + 2);
            QVERIFY(doc.project() == robust);
            // what the rule protects: the reader refuses such a project
            Project q = robust;
            design_region_mut(q)["projection"]["eta"] = v;
            bool refused = false;
            try {
                design_spec(q, "guide.glproj");
            } catch (const std::exception&) {
                refused = true;
            }
            QVERIFY2(refused, qPrintable(QString::number(v)));
        }
        QVERIFY(props.enterValue(label, 0.7).isEmpty());
        QCOMPARE(doc.undoStack()->count(), steps + 3);
        {
            const auto spec = design_spec(doc.project(), "guide.glproj");
            QCOMPARE(spec->regions[0].eta, 0.7);
            QCOMPARE(spec->regions[0].robust_eta_eroded, 0.75);
        }
        const Project at07 = doc.project();
        // the robust thresholds' rules follow the new eta
        props.rebuild();
        QVERIFY(props.enterValue(QStringLiteral("Eroded threshold"), 0.68).contains(QStringLiteral("(0.7)")));
        QCOMPARE(doc.undoStack()->count(), steps + 3);

        // undo / redo walk the steps back and forth
        doc.undoStack()->undo();
        QVERIFY(doc.project() == robust);
        doc.undoStack()->undo();
        QVERIFY(doc.project() == at06);
        doc.undoStack()->undo();
        QVERIFY(doc.project() == start);
        for (int k = 0; k < 3; ++k) doc.undoStack()->redo();
        QVERIFY(doc.project() == at07);
        props.rebuild();
        QCOMPARE(qobject_cast<QDoubleSpinBox*>(props.field(label))->value(), 0.7);
    }

    void formulaInTheDock() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_MUPARSER, true, "muparser");
        EditorDocument doc;
        doc.adoptRecovered(golightly::test::design_guide_with_region(3, {1.5, 1.55, 1.6}), QString());
        app::InverseDesignDock dock(&doc);
        auto* combine = dock.findChild<QComboBox*>(QStringLiteral("designCombine"));
        auto* formula = dock.findChild<QLineEdit*>(QStringLiteral("designExpression"));
        QVERIFY(combine && formula);
        QCOMPARE(combine->currentData().toString(), QStringLiteral("mean"));
        QVERIFY(formula->isHidden());  // only with Combine: Formula
        const Project start = doc.project();
        const int steps = doc.undoStack()->count();

        // Formula: the mean's formula over the three wavelengths, one step
        pick(combine, combine->findData(QStringLiteral("expression")));
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QCOMPARE(objectiveOf(doc.project())["combine"].get<std::string>(), std::string("expression"));
        QCOMPARE(objectiveOf(doc.project())["expression"].get<std::string>(), std::string("avg(F0, F1, F2)"));
        QCOMPARE(design_spec(doc.project(), "guide.glproj")->objective.expression, std::string("avg(F0, F1, F2)"));
        QTRY_VERIFY(!formula->isHidden());
        QCOMPARE(formula->text(), QStringLiteral("avg(F0, F1, F2)"));
        const Project avg = doc.project();

        // what the reader refuses: its message (naming the field) shown, nothing applied
        const char* bad[] = {"min(F0, F3)", "F0 +", "", "log(F0 - 1)"};
        for (const char* text : bad) {
            type(formula, QLatin1String(text));
            QCOMPARE(doc.undoStack()->count(), steps + 1);
            QVERIFY(doc.project() == avg);
            QVERIFY2(formula->property("invalid").toBool(), text);
            QVERIFY2(formula->toolTip().contains(QStringLiteral("design.objective.expression")), qPrintable(formula->toolTip()));
            QVERIFY2(dock.statusText().contains(QStringLiteral("design.objective.expression")), qPrintable(dock.statusText()));
        }
        // the reader's own message, word for word
        {
            Project q = doc.project();
            design_objective_mut(q)["expression"] = "min(F0, F3)";
            QString expected;
            try {
                design_spec(q, doc.displayName().toStdString(), false);
            } catch (const std::exception& e) {
                expected = QString::fromStdString(e.what());
            }
            QVERIFY(!expected.isEmpty());
            type(formula, QStringLiteral("min(F0, F3)"));
            QCOMPARE(formula->toolTip(), QStringLiteral("Not applied: %1").arg(expected));
        }
        // a formula it takes: one step, unmarked
        type(formula, QStringLiteral("avg(F0, F1, F2) - 0.5 * abs(F0 - F2)"));
        QCOMPARE(doc.undoStack()->count(), steps + 2);
        QVERIFY(!formula->property("invalid").toBool());
        QCOMPARE(design_spec(doc.project(), "guide.glproj")->objective.expression,
                 std::string("avg(F0, F1, F2) - 0.5 * abs(F0 - F2)"));
        const Project typed = doc.project();
        type(formula, QStringLiteral("avg(F0, F1, F2) - 0.5 * abs(F0 - F2)"));  // unchanged: no step
        QCOMPARE(doc.undoStack()->count(), steps + 2);
        // undo / redo, the field following the document
        doc.undoStack()->undo();
        QVERIFY(doc.project() == avg);
        QTRY_COMPARE(formula->text(), QStringLiteral("avg(F0, F1, F2)"));
        doc.undoStack()->redo();
        QVERIFY(doc.project() == typed);
        QTRY_COMPARE(formula->text(), QStringLiteral("avg(F0, F1, F2) - 0.5 * abs(F0 - F2)"));
        // a shorter wavelength list leaves F2 undefined: the field shows the reader's message
        {
            auto* wl = dock.findChild<QLineEdit*>(QStringLiteral("designWavelengths"));
            type(wl, QStringLiteral("1.5, 1.55"));
            QTRY_VERIFY(formula->property("invalid").toBool());
            QVERIFY(formula->toolTip().contains(QStringLiteral("F0 .. F1")));
            doc.undoStack()->undo();
            QTRY_VERIFY(!formula->property("invalid").toBool());
        }
        // Mean: the expression goes in the same step (the reader refuses it otherwise)
        pick(combine, combine->findData(QStringLiteral("mean")));
        QCOMPARE(doc.undoStack()->count(), steps + 3);
        QVERIFY(!objectiveOf(doc.project()).contains("expression"));
        QCOMPARE(design_spec(doc.project(), "guide.glproj")->objective.combine, std::string("mean"));
        QTRY_VERIFY(formula->isHidden());
        // Formula again: the typed formula (still in the field, and valid) comes back
        pick(combine, combine->findData(QStringLiteral("expression")));
        QVERIFY(doc.project() == typed);
        for (int k = 0; k < 4; ++k) doc.undoStack()->undo();
        QVERIFY(doc.project() == start);
        QTRY_COMPARE(combine->currentData().toString(), QStringLiteral("mean"));
    }

    void minimumLengthOffTakesItsMembers() {
        // min_length_from_beta and min_length_relax_iterations need min_length_um > 0 (the
        // reader refuses them alone): turning the minimum length off removes them with it in
        // one step, so that the project the IDE saves still reads
        EditorDocument doc;
        {
            Project p = golightly::test::design_guide_with_region(3, {1.55});
            Json& r = design_region_mut(p);
            r["min_length_um"] = 0.1;
            r["min_length_from_beta"] = 16;
            r["min_length_relax_iterations"] = 40;
            doc.adoptRecovered(p, QString());
        }
        QCOMPARE(design_spec(doc.project(), "guide.glproj")->regions[0].min_length_relax_iterations, 40);
        doc.setSelection({ItemRef::Kind::Design, -1, 0});
        PropertiesDock props(&doc);
        props.rebuild();
        const int steps = doc.undoStack()->count();
        QVERIFY(props.enterValue(QStringLiteral("Minimum length"), 0.0).isEmpty());
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        const Json& r = *design_region(doc.project());
        QVERIFY(!r.contains("min_length_um"));
        QVERIFY(!r.contains("min_length_from_beta"));
        QVERIFY(!r.contains("min_length_relax_iterations"));
        const auto spec = design_spec(doc.project(), "guide.glproj");  // throws if the reader refuses it
        QCOMPARE(spec->regions[0].min_length_um, 0.0);
        doc.undoStack()->undo();
        QCOMPARE(design_spec(doc.project(), "guide.glproj")->regions[0].min_length_from_beta, 16.0);
    }

    void lbfgsRefusedWhileRobust() {
        EditorDocument doc;
        Project p = golightly::test::design_guide_with_region(3, {1.55});
        design_region_mut(p)["robust"] = Json{{"eta_dilated", 0.3}, {"eta_eroded", 0.7}};
        doc.adoptRecovered(p, QString());
        app::InverseDesignDock dock(&doc);
        auto* algorithm = dock.findChild<QComboBox*>(QStringLiteral("designAlgorithm"));
        const int steps = doc.undoStack()->count();
        pick(algorithm, algorithm->findText(QStringLiteral("lbfgs")));
        QCOMPARE(doc.undoStack()->count(), steps);
        QVERIFY2(dock.statusText().contains(QStringLiteral("robust")), qPrintable(dock.statusText()));
        QTRY_COMPARE(algorithm->currentText(), QStringLiteral("mma"));
        pick(algorithm, algorithm->findText(QStringLiteral("ccsa")));  // the other constrained one is taken
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QCOMPARE(algorithmOf(doc.project()), std::string("ccsa"));
    }

    void saveAndReopenIdentical() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_MUPARSER, true, "muparser");
        QTemporaryDir dir;
        StubPrompts prompts;
        EditorDocument doc;
        doc.adoptRecovered(golightly::test::design_guide_with_region(3, {1.5, 1.6}), QString());
        doc.setSelection({ItemRef::Kind::Design, -1, 0});
        PropertiesDock props(&doc);
        props.rebuild();
        qobject_cast<QCheckBox*>(props.field(QStringLiteral("Robust design")))->setChecked(true);
        props.rebuild();
        QVERIFY(props.enterValue(QStringLiteral("Eroded threshold"), 0.7).isEmpty());
        app::InverseDesignDock dock(&doc);
        auto* combine = dock.findChild<QComboBox*>(QStringLiteral("designCombine"));
        pick(combine, combine->findData(QStringLiteral("expression")));
        type(dock.findChild<QLineEdit*>(QStringLiteral("designExpression")), QStringLiteral("min(F0, F1) + 0.1 * F1"));
        QCOMPARE(objectiveOf(doc.project())["expression"].get<std::string>(), std::string("min(F0, F1) + 0.1 * F1"));

        const QString file = dir.filePath(QStringLiteral("robust.glproj"));
        QVERIFY(doc.saveAs(file, prompts));
        // the file holds both members as the format says
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const Json j = Json::parse(f.readAll().toStdString());
            COMPARE_JSON(j["design"]["regions"][0]["robust"], (Json{{"eta_dilated", 0.25}, {"eta_eroded", 0.7}}));
            COMPARE_JSON(j["design"]["objective"]["combine"], Json("expression"));
            COMPARE_JSON(j["design"]["objective"]["expression"], Json("min(F0, F1) + 0.1 * F1"));
        }
        EditorDocument back;
        QVERIFY(back.open(file, prompts));
        QVERIFY(back.project() == doc.project());
        const auto spec = design_spec(back.project(), file.toStdString());
        QVERIFY(spec);
        QCOMPARE(spec->regions[0].robust_eta_dilated, 0.25);
        QCOMPARE(spec->regions[0].robust_eta_eroded, 0.7);
        QCOMPARE(spec->objective.combine, std::string("expression"));
        // reopened, the editors show what was saved
        back.setSelection({ItemRef::Kind::Design, -1, 0});
        PropertiesDock props2(&back);
        props2.rebuild();
        QVERIFY(qobject_cast<QCheckBox*>(props2.field(QStringLiteral("Robust design")))->isChecked());
        QCOMPARE(qobject_cast<QDoubleSpinBox*>(props2.field(QStringLiteral("Eroded threshold")))->value(), 0.7);
        app::InverseDesignDock dock2(&back);
        QTRY_COMPARE(dock2.findChild<QComboBox*>(QStringLiteral("designCombine"))->currentData().toString(),
                     QStringLiteral("expression"));
        QCOMPARE(dock2.findChild<QLineEdit*>(QStringLiteral("designExpression"))->text(),
                 QStringLiteral("min(F0, F1) + 0.1 * F1"));
        // saved again unchanged: the same bytes
        const QString again = dir.filePath(QStringLiteral("again.glproj"));
        QVERIFY(back.saveAs(again, prompts));
        QFile a(file), b(again);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(b.readAll(), a.readAll());
    }

    void runTakesTheProjectsFormula() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_NLOPT, true, "nlopt");
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_MUPARSER, true, "muparser");
        QTemporaryDir dir;
        EditorDocument doc;
        doc.adoptRecovered(golightly::test::design_guide_with_region(2, {1.5, 1.6}), QString());
        app::InverseDesignDock dock(&doc);
        dock.setOutputDir(dir.path());
        dock.setThreads(1);
        auto* combine = dock.findChild<QComboBox*>(QStringLiteral("designCombine"));
        pick(combine, combine->findData(QStringLiteral("expression")));
        // F0 at 1.5 um, F1 at 1.6 um (the list's order): a formula that is neither their
        // mean nor their minimum
        type(dock.findChild<QLineEdit*>(QStringLiteral("designExpression")), QStringLiteral("0.25 * F0 + 2 * F1"));
        QVERIFY(dock.start());
        QVERIFY(dock.waitForFinished(120000));
        QVERIFY2(dock.state() == app::InverseDesignDock::State::Finished, qPrintable(dock.statusText()));
        const int n = dock.plottedIterations();
        QVERIFY(n >= 1);
        // the plot's curves are in ascending frequency: 1.6 um (F1) first, then 1.5 um (F0)
        const std::vector<double> wl = dock.curveWavelengths();
        QCOMPARE(wl.size(), size_t(2));
        QVERIFY(std::abs(wl[0] - 1.6) < 1e-9 && std::abs(wl[1] - 1.5) < 1e-9);
        QCustomPlot* plot = dock.plot();
        for (int i = 0; i < n; ++i) {
            const double f1 = plot->graph(1)->data()->at(i)->value, f0 = plot->graph(2)->data()->at(i)->value;
            const double f = plot->graph(0)->data()->at(i)->value;
            // the same numbers through the formula: equal to rounding
            QVERIFY2(std::abs(0.25 * f0 + 2 * f1 - f) <= 1e-12 * std::abs(f),
                     qPrintable(QStringLiteral("%1 vs %2").arg(0.25 * f0 + 2 * f1).arg(f)));
            QVERIFY(std::abs((f0 + f1) / 2 - f) > 1e-6 * std::abs(f));  // not the mean
        }
    }

    void screenshots() {
        GOLIGHTLY_REQUIRE_FEATURE(GOLIGHTLY_GUI_HAVE_MUPARSER, true, "muparser");
        // Properties of a robust region (with a threshold refused) and the dock with a
        // formula: drawn (not blank); saved with GOLIGHTLY_SCREENSHOT_DIR
        const QString shots = qEnvironmentVariable("GOLIGHTLY_SCREENSHOT_DIR");
        EditorDocument doc;
        Project p = golightly::test::design_guide_with_region(3, {1.5, 1.55, 1.6});
        design_region_mut(p)["robust"] = Json{{"eta_dilated", 0.3}, {"eta_eroded", 0.7}};
        Json& o = design_objective_mut(p);
        o["combine"] = "expression";
        o["expression"] = "avg(F0, F1, F2) - 0.5 * abs(F0 - F2)";
        doc.adoptRecovered(p, QString());
        doc.setSelection({ItemRef::Kind::Design, -1, 0});
        PropertiesDock props(&doc);
        props.rebuild();
        QVERIFY(!props.enterValue(QStringLiteral("Dilated threshold"), 0.6).isEmpty());
        props.rebuild();
        props.resize(460, 1250);
        props.show();
        QVERIFY(QTest::qWaitForWindowExposed(&props));
        const QImage a = props.grab().toImage();
        QVERIFY(test::distinctColours(a) >= 8);
        app::InverseDesignDock dock(&doc);
        dock.resize(1100, 560);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        QTest::qWait(100);
        QVERIFY(!dock.findChild<QLineEdit*>(QStringLiteral("designExpression"))->isHidden());
        const QImage b = dock.grab().toImage();
        QVERIFY(test::distinctColours(b) >= 8);
        if (!shots.isEmpty()) {
            QVERIFY(a.save(QDir(shots).filePath(QStringLiteral("design_robust_properties.png"))));
            QVERIFY(b.save(QDir(shots).filePath(QStringLiteral("design_combine_formula.png"))));
        }
    }
};

QTEST_MAIN(TestDesignRobust)
#include "tst_design_robust.moc"
