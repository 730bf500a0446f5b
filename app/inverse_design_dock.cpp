// GoLightly IDE: the Inverse Design dock (inverse_design_dock.hpp): its panels, the design
// editor, settings and exports. The shape-parameter table and shape runs are in
// inverse_design_shapes.cpp, the runs in inverse_design_run.cpp, the plots and field
// pictures in inverse_design_view.cpp.
#include "inverse_design_dock.hpp"
#include "run_progress.hpp"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string_view>

#include "canvas.hpp"
#include "design_region.hpp"
#include "qcustomplot_include.hpp"

#include "golightly/colormap.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/gds.hpp"
#include "golightly/project.hpp"
#include "golightly/units.hpp"

#include "inverse_design_internal.hpp"

namespace golightly::app {

namespace fs = std::filesystem;
using editor::design_region;

using namespace inverse_design_detail;

InverseDesignDock::InverseDesignDock(editor::EditorDocument* doc, QWidget* parent)
    : QDockWidget(tr("Inverse Design"), parent), doc_(doc) {
    setObjectName(QStringLiteral("InverseDesignDock"));
    auto* split = new QSplitter(Qt::Horizontal);

    // ---- left: run controls, objective and optimizer
    auto* left = new QWidget;
    auto* lv = new QVBoxLayout(left);
    lv->setContentsMargins(4, 4, 4, 4);
    auto* row = new QHBoxLayout;
    startButton_ = new QPushButton(tr("Start"));
    startButton_->setObjectName(QStringLiteral("designStart"));
    startButton_->setToolTip(tr("Optimize the design: its design region's density, or its shape parameters from their "
                                "values now (Run > Optimize (adjoint))"));
    pauseButton_ = new QPushButton(tr("Pause"));
    pauseButton_->setObjectName(QStringLiteral("designPause"));
    pauseButton_->setToolTip(tr("Stop now (the iteration under way is dropped); edit the project, then Resume"));
    resumeButton_ = new QPushButton(tr("Resume"));
    resumeButton_->setObjectName(QStringLiteral("designResume"));
    resumeButton_->setToolTip(tr("Continue from the last design with the project as it is now"));
    stopButton_ = new QPushButton(tr("Stop"));
    stopButton_->setObjectName(QStringLiteral("designStop"));
    stopButton_->setToolTip(tr("End the optimization now (the iteration under way is dropped)"));
    for (QPushButton* b : {startButton_, pauseButton_, resumeButton_, stopButton_}) row->addWidget(b);
    lv->addLayout(row);
    left->setMinimumWidth(420);
    auto* row2 = new QHBoxLayout;
    gdsButton_ = new QPushButton(tr("Export design as GDS..."));
    gdsButton_->setObjectName(QStringLiteral("designExportGds"));
    gdsButton_->setToolTip(tr("The last design's binarized contours (density 1/2), as golightly-cli optimize --adjoint "
                              "writes final.gds"));
    applyButton_ = new QPushButton(tr("Apply design as shapes"));
    applyButton_->setObjectName(QStringLiteral("designApply"));
    applyButton_->setToolTip(tr("Replace the design region by the last design as polygons (one undo step), to run the "
                                "binarized device"));
    row2->addWidget(gdsButton_);
    row2->addWidget(applyButton_);
    lv->addLayout(row2);
    status_ = new QLabel(tr("Draw a design region (Tools > Design Region), choose the objective, then Start."));
    idleHint_ = status_->text();
    status_->setObjectName(QStringLiteral("designStatus"));
    status_->setWordWrap(true);
    lv->addWidget(status_);
    iteration_ = new QLabel;
    iteration_->setObjectName(QStringLiteral("designIteration"));
    iteration_->setWordWrap(true);
    lv->addWidget(iteration_);

    noRegion_ = new QLabel(tr("The project has no design: draw a design region with Tools > Design Region (its "
                              "density is optimized), or add shape parameters below (project parameters to optimize)."));
    noRegion_->setWordWrap(true);
    lv->addWidget(noRegion_);

    // the shape parameters: the other kind of design variable
    auto* shapeBox = new QGroupBox(tr("Shape parameters"));
    shapeBox->setObjectName(QStringLiteral("designShapeBox"));
    shapeBox_ = shapeBox;
    auto* sv = new QVBoxLayout(shapeBox);
    shapes_ = new QTableWidget(0, 4);
    shapes_->setObjectName(QStringLiteral("designShapeParameters"));
    shapes_->setHorizontalHeaderLabels({tr("Parameter"), tr("Min"), tr("Max"), tr("Step")});
    shapes_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    shapes_->horizontalHeaderItem(0)->setToolTip(tr("A project parameter (Parameters dock) that the optimizer moves; its "
                                                    "value now is the start"));
    shapes_->horizontalHeaderItem(1)->setToolTip(tr("The smallest value the optimizer may give the parameter (its units)"));
    shapes_->horizontalHeaderItem(2)->setToolTip(tr("The largest value the optimizer may give the parameter (its units)"));
    shapes_->horizontalHeaderItem(3)->setToolTip(tr("The half step of the central difference that gives d eps / d p "
                                                    "(below (max - min) / 2); empty: 1e-4 (max - min)"));
    shapes_->verticalHeader()->setVisible(false);
    shapes_->setSelectionBehavior(QAbstractItemView::SelectRows);
    shapes_->setSelectionMode(QAbstractItemView::SingleSelection);
    shapes_->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    sv->addWidget(shapes_);
    auto* srow = new QHBoxLayout;
    addShape_ = new QPushButton(tr("Add parameter"));
    addShape_->setObjectName(QStringLiteral("designAddShapeParameter"));
    addShape_->setToolTip(tr("Optimize one more project parameter (first the ones not listed yet)"));
    removeShape_ = new QPushButton(tr("Remove parameter"));
    removeShape_->setObjectName(QStringLiteral("designRemoveShapeParameter"));
    removeShape_->setToolTip(tr("Stop optimizing the selected parameter (its value stays)"));
    srow->addWidget(addShape_);
    srow->addWidget(removeShape_);
    srow->addStretch(1);
    sv->addLayout(srow);
    shapeNote_ = new QLabel;
    shapeNote_->setObjectName(QStringLiteral("designShapeNote"));
    shapeNote_->setWordWrap(true);
    shapeNote_->setTextFormat(Qt::PlainText);
    sv->addWidget(shapeNote_);
    lv->addWidget(shapeBox);
    editor_ = new QWidget;
    auto* ev = new QVBoxLayout(editor_);
    ev->setContentsMargins(0, 0, 0, 0);
    auto* objBox = new QGroupBox(tr("Objective"));
    auto* ov = new QVBoxLayout(objBox);
    terms_ = new QTableWidget(0, 4);
    terms_->setObjectName(QStringLiteral("designTerms"));
    terms_->setHorizontalHeaderLabels({tr("Monitor"), tr("Mode"), tr("Direction"), tr("Weight")});
    terms_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    terms_->verticalHeader()->setVisible(false);
    terms_->setSelectionBehavior(QAbstractItemView::SelectRows);
    terms_->setMinimumHeight(90);
    ov->addWidget(terms_);
    auto* trow = new QHBoxLayout;
    addTerm_ = new QPushButton(tr("Add term"));
    removeTerm_ = new QPushButton(tr("Remove term"));
    trow->addWidget(addTerm_);
    trow->addWidget(removeTerm_);
    trow->addStretch(1);
    ov->addLayout(trow);
    auto* of = new QFormLayout;
    normalize_ = new QComboBox;
    normalize_->setObjectName(QStringLiteral("designNormalize"));
    of->addRow(tr("Normalize by"), normalize_);
    wavelengths_ = new QLineEdit;
    wavelengths_->setObjectName(QStringLiteral("designWavelengths"));
    wavelengths_->setPlaceholderText(tr("the spectrum's centre"));
    wavelengths_->setToolTip(tr("Wavelengths (µm, comma separated) at which the figure of merit is evaluated"));
    of->addRow(tr("Wavelengths (µm)"), wavelengths_);
    combine_ = new QComboBox;
    combine_->setObjectName(QStringLiteral("designCombine"));
    combine_->addItem(tr("Mean"), QStringLiteral("mean"));
    combine_->addItem(tr("Worst wavelength"), QStringLiteral("min"));
    combine_->addItem(tr("Formula"), QStringLiteral("expression"));
    combine_->setToolTip(tr("How the wavelengths combine: their mean, the worst one (the epigraph form; "
                            "needs MMA or CCSA), or a formula of F0, F1, ... (F_k: the figure of merit at the k-th "
                            "wavelength)"));
    of->addRow(tr("Combine"), combine_);
    expression_ = new QLineEdit;
    expression_->setObjectName(QStringLiteral("designExpression"));
    expression_->setPlaceholderText(tr("e.g. avg(F0, F1, F2) - 0.5 * abs(F0 - F2)"));
    expression_->setProperty("defaultToolTip",
                             tr("The figure of merit as a formula of F0, F1, ... (F_k: the weighted sum of the terms at "
                                "the k-th wavelength of the list; without a list F0 at the spectrum's centre). "
                                "Functions: min, max, sum, avg, abs, sqrt, exp, log, ..."));
    expression_->setToolTip(expression_->property("defaultToolTip").toString());
    expressionLabel_ = new QLabel(tr("Formula"));
    of->addRow(expressionLabel_, expression_);
    goal_ = new QComboBox;
    goal_->addItems({tr("maximize"), tr("minimize")});
    of->addRow(tr("Goal"), goal_);
    ov->addLayout(of);
    ev->addWidget(objBox);
    auto* optBox = new QGroupBox(tr("Optimizer"));
    auto* pf = new QFormLayout(optBox);
    algorithm_ = new QComboBox;
    algorithm_->setObjectName(QStringLiteral("designAlgorithm"));
    algorithm_->addItems({QStringLiteral("mma"), QStringLiteral("ccsa"), QStringLiteral("lbfgs")});
    algorithm_->setToolTip(tr("MMA and CCSA take the minimum length constraints; L-BFGS does not"));
    pf->addRow(tr("Algorithm"), algorithm_);
    maxIterations_ = new QSpinBox;
    maxIterations_->setObjectName(QStringLiteral("designMaxIterations"));
    maxIterations_->setRange(1, 100000);
    pf->addRow(tr("Max iterations"), maxIterations_);
    ev->addWidget(optBox);
    ev->addStretch(1);
    lv->addWidget(editor_, 1);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the status lines wrap
    scroll->setMinimumWidth(440);
    scroll->setWidget(left);
    split->addWidget(scroll);

    // ---- right: figure of merit and density
    auto* right = new QWidget;
    auto* rv = new QHBoxLayout(right);
    rv->setContentsMargins(0, 0, 0, 0);
    plot_ = new QCustomPlot;
    plot_->setObjectName(QStringLiteral("designPlot"));
    plot_->setMinimumSize(240, 180);
    plot_->addGraph();
    plot_->graph(0)->setPen(QPen(QColor(40, 90, 180), 1.8));
    plot_->graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    plot_->xAxis->setLabel(tr("iteration"));
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);  // whole iterations
    ticker->setTickStep(1);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot_->xAxis->setTicker(ticker);
    plot_->yAxis->setLabel(tr("figure of merit"));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->graph(0)->setName(tr("figure of merit"));
    // the legend names the per-wavelength curves; shown only with them, below the axes (in
    // the axes it would hide the newest points)
    QFont legendFont = font();
    legendFont.setPointSizeF(std::max(6.0, legendFont.pointSizeF() - 1));
    plot_->legend->setFont(legendFont);
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot_->legend->setWrap(3);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setVisible(false);
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    rv->addWidget(plot_, 3);
    densityLabel_ = new QLabel;
    densityLabel_->setObjectName(QStringLiteral("designDensity"));
    densityLabel_->setMinimumSize(140, 140);
    densityLabel_->setMaximumWidth(220);  // the plot keeps the width
    densityLabel_->setAlignment(Qt::AlignCenter);
    densityLabel_->setToolTip(tr("The projected density of the last iteration (black: the high material, white: the low one)"));
    rv->addWidget(densityLabel_, 1);
    // the field over the design region, beside the density (the same box)
    auto* fieldBox = new QWidget;
    auto* fv = new QVBoxLayout(fieldBox);
    fv->setContentsMargins(0, 0, 0, 0);
    fieldSource_ = new QComboBox;
    fieldSource_->setObjectName(QStringLiteral("designFieldSource"));
    fieldSource_->addItems({tr("Forward field"), tr("Adjoint field")});
    fieldSource_->setToolTip(tr("The forward run's field, or the adjoint field whose product with it gives the gradient"));
    fieldQuantity_ = new QComboBox;
    fieldQuantity_->setObjectName(QStringLiteral("designFieldQuantity"));
    fieldQuantity_->addItem(tr("|E|²"), QString());
    fieldQuantity_->setToolTip(tr("|E|² or the real part of one E component"));
    fv->addWidget(fieldSource_);
    fv->addWidget(fieldQuantity_);
    fieldLabel_ = new QLabel;
    fieldLabel_->setWordWrap(true);
    fieldLabel_->setObjectName(QStringLiteral("designField"));
    fieldLabel_->setMinimumSize(140, 140);
    fieldLabel_->setMaximumWidth(220);
    fieldLabel_->setAlignment(Qt::AlignCenter);
    fv->addWidget(fieldLabel_, 1);
    fieldBox->setMaximumWidth(220);
    rv->addWidget(fieldBox, 1);
    split->addWidget(right);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({460, 640});
    setWidget(split);

    connect(startButton_, &QPushButton::clicked, this, [this] { start(); });
    connect(pauseButton_, &QPushButton::clicked, this, &InverseDesignDock::pause);
    connect(resumeButton_, &QPushButton::clicked, this, [this] { resume(); });
    connect(stopButton_, &QPushButton::clicked, this, &InverseDesignDock::stop);
    connect(gdsButton_, &QPushButton::clicked, this, [this] {
        const QString start = outDir_.isEmpty() ? QDir::homePath() : QDir(outDir_).filePath(QStringLiteral("final.gds"));
        const QString path = QFileDialog::getSaveFileName(this, tr("Export design as GDS"), start, tr("GDSII (*.gds)"));
        if (!path.isEmpty()) exportGds(path);
    });
    connect(applyButton_, &QPushButton::clicked, this, [this] { applyAsShapes(); });
    connect(addTerm_, &QPushButton::clicked, this, [this] {
        const QStringList modes = editor::mode_monitor_names(doc_->project());
        if (modes.isEmpty()) {
            setStatus(tr("Add a mode monitor first: objective terms read the power in one of its modes."), true);
            return;
        }
        editObjective(tr("Add objective term"), [&](Json& o) {
            o["terms"].push_back(Json{{"monitor", modes.last().toStdString()}, {"mode", 0}, {"direction", "forward"}, {"weight", 1}});
        });
    });
    connect(removeTerm_, &QPushButton::clicked, this, [this] {
        const int r = terms_->currentRow();
        editObjective(tr("Remove objective term"), [r](Json& o) {
            Json& t = o["terms"];
            if (t.is_array() && t.size() > 1 && r >= 0 && r < int(t.size())) t.erase(size_t(r));
        });
    });
    connect(addShape_, &QPushButton::clicked, this, [this] { addShapeParameter(); });
    connect(removeShape_, &QPushButton::clicked, this, [this] {
        const int r = shapes_->currentRow();
        removeShapeParameter(r >= 0 ? r : shapes_->rowCount() - 1);
    });
    connect(normalize_, &QComboBox::activated, this, [this](int i) {
        const QString name = i <= 0 ? QString() : normalize_->itemText(i);
        editObjective(tr("Edit objective normalization"), [&](Json& o) {
            if (name.isEmpty()) o.erase("normalize_by");
            else o["normalize_by"] = name.toStdString();
        });
    });
    connect(wavelengths_, &QLineEdit::editingFinished, this, [this] {
        std::vector<double> values;
        for (const QString& part : wavelengths_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const double v = part.trimmed().toDouble(&ok);
            if (!ok || !(v > 0)) {
                setStatus(tr("Wavelengths: \"%1\" is not a positive number (µm)").arg(part.trimmed()), true);
                return;
            }
            values.push_back(v);
        }
        editObjective(tr("Edit objective wavelengths"), [&](Json& o) {
            if (values.empty()) o.erase("wavelengths_um");
            else o["wavelengths_um"] = values;
        });
    });
    connect(combine_, &QComboBox::activated, this, [this](int i) {
        const std::string c = combine_->itemData(i).toString().toStdString();
        if (!hasDesignSection()) return;
        // a formula needs its expression (the reader refuses the one without the other): the
        // one in the field when the reader takes it, else the mean's, avg(F0, ..., F<N-1>)
        std::string expression = expression_->text().trimmed().toStdString();
        if (c == "expression" && (expression.empty() || !expressionProblem(expression).isEmpty())) {
            const Json* d = designSection(doc_->project());
            const Json& o = d && d->contains("objective") ? (*d)["objective"] : Json::object();
            const std::size_t n =
                o.contains("wavelengths_um") && o["wavelengths_um"].is_array() ? std::max<std::size_t>(1, o["wavelengths_um"].size()) : 1;
            expression = n == 1 ? "F0" : "avg(";
            for (std::size_t k = 0; n > 1 && k < n; ++k) expression += (k ? ", F" : "F") + std::to_string(k);
            if (n > 1) expression += ")";
        }
        // the worst wavelength takes constraints, which L-BFGS cannot: MMA in the same step,
        // so that the project stays valid
        commitDesign(tr("Edit objective combination"), [&](Project& p) {
            Json& o = editor::design_objective_mut(p);
            o["combine"] = c;
            if (c == "expression") o["expression"] = expression;
            else o.erase("expression");
            Json& opt = editor::design_optimizer_mut(p);
            if (c == "min" && opt.value("algorithm", std::string("mma")) == "lbfgs") opt["algorithm"] = "mma";
        });
    });
    connect(expression_, &QLineEdit::editingFinished, this, [this] {
        const std::string text = expression_->text().trimmed().toStdString();
        const Json* d = designSection(doc_->project());
        const Json* o = d && d->contains("objective") && (*d)["objective"].is_object() ? &(*d)["objective"] : nullptr;
        if (o && o->contains("expression") && (*o)["expression"].is_string() && (*o)["expression"].get<std::string>() == text) {
            markExpression(expressionProblem(text));
            return;  // unchanged (focus left the field): no undo step
        }
        const QString problem = expressionProblem(text);
        markExpression(problem);
        if (!problem.isEmpty()) {
            setStatus(tr("Formula not applied: %1").arg(problem), true);
            return;
        }
        editObjective(tr("Edit objective formula"), [&](Json& ob) {
            ob["combine"] = "expression";
            ob["expression"] = text;
        });
    });
    connect(goal_, &QComboBox::activated, this, [this](int i) {
        editObjective(tr("Edit objective goal"), [i](Json& o) { o["goal"] = i == 1 ? "minimize" : "maximize"; });
    });
    connect(algorithm_, &QComboBox::activated, this, [this](int i) {
        const std::string a = algorithm_->itemText(i).toStdString();
        if (a == "lbfgs" && combine_->currentData().toString() == QStringLiteral("min")) {
            setStatus(tr("L-BFGS takes no constraints: the worst wavelength needs MMA or CCSA (choose Combine: Mean "
                         "first)"),
                      true);
            scheduleRebuild();  // the combo shows the project's algorithm again
            return;
        }
        if (const Json* r = design_region(doc_->project()); a == "lbfgs" && r && r->contains("robust")) {
            setStatus(tr("L-BFGS takes no constraints: the robust design (the worst of three designs) needs MMA or "
                         "CCSA (turn Robust design off in the design region's Properties first)"),
                      true);
            scheduleRebuild();
            return;
        }
        editOptimizer(tr("Edit optimizer"), [&](Json& o) { o["algorithm"] = a; });
    });
    connect(maxIterations_, &QSpinBox::editingFinished, this, [this] {
        const int v = maxIterations_->value();
        editOptimizer(tr("Edit optimizer"), [v](Json& o) { o["max_iterations"] = v; });
    });
    connect(doc_, &editor::EditorDocument::changed, this, &InverseDesignDock::scheduleRebuild);
    // an edit while a shape run goes on is not in its problem: Resume then starts again
    connect(doc_, &editor::EditorDocument::changed, this, [this] {
        if (!pushing_ && shapeRun_ && job_.isRunning()) editedDuringRun_ = true;
    });
    connect(fieldSource_, &QComboBox::currentIndexChanged, this, [this] { showFields(); });
    connect(fieldQuantity_, &QComboBox::currentIndexChanged, this, [this] {
        fieldQuantityKey_ = fieldQuantity_->currentData().toString();
        showFields();
    });

    job_.onNews([this](News& n) { takeNews(n); });
    job_.onFinished([this](editor::JobOutcome<Result>& o) { jobFinished(o); });
    rebuildEditor();
    updateButtons();
    showFields();
}

InverseDesignDock::~InverseDesignDock() {
    if (pauseFlag_) pauseFlag_->store(true);
    job_.cancelAndDiscard();
}

QString InverseDesignDock::statusText() const { return status_->text(); }
QString InverseDesignDock::iterationText() const { return iteration_->text(); }

int InverseDesignDock::plottedIterations() const { return plot_->graph(0)->dataCount(); }

std::vector<int> InverseDesignDock::plottedIndices() const {
    std::vector<int> out;
    for (auto it = plot_->graph(0)->data()->constBegin(); it != plot_->graph(0)->data()->constEnd(); ++it)
        out.push_back(int(std::lround(it->key)));
    return out;
}

void InverseDesignDock::setStatus(const QString& text, bool error) {
    status_->setText(text);
    status_->setStyleSheet(error ? QStringLiteral("QLabel { color: #b00020; }") : QString());
}

void InverseDesignDock::setState(State s) {
    state_ = s;
    updateButtons();
    Q_EMIT stateChanged(s);
}

void InverseDesignDock::updateButtons() {
    const bool busy = job_.isRunning();
    const bool region = design_region(doc_->project()) != nullptr;
    const bool design = region || editor::has_shape_parameters(doc_->project());
    startButton_->setEnabled(!busy && design);
    pauseButton_->setEnabled(busy && state_ == State::Running);
    stopButton_->setEnabled(busy && (state_ == State::Running || state_ == State::Pausing));
    resumeButton_->setEnabled(!busy && state_ == State::Paused && design);
    gdsButton_->setEnabled(!busy && last_ && last_->problem && last_->problem->dimensions == 2);
    applyButton_->setEnabled(!busy && last_ && last_->problem && last_->problem->dimensions == 2 && region);
}

// ---------------------------------------------------------------- the objective editor

void InverseDesignDock::scheduleRebuild() {
    if (rebuildPending_) return;
    rebuildPending_ = true;
    QTimer::singleShot(0, this, [this] { rebuildEditor(); });
}

void InverseDesignDock::editObjective(const QString& text, const std::function<void(Json&)>& f) {
    if (!hasDesignSection()) return;
    commitDesign(text, [&](Project& p) { f(editor::design_objective_mut(p)); });
}

void InverseDesignDock::editOptimizer(const QString& text, const std::function<void(Json&)>& f) {
    if (!hasDesignSection()) return;
    commitDesign(text, [&](Project& p) { f(editor::design_optimizer_mut(p)); });
}

std::string InverseDesignDock::fileLabel() const {
    const QString file = doc_->filePath();
    return (file.isEmpty() ? doc_->displayName() : file).toStdString();
}

bool InverseDesignDock::hasDesignSection() const {
    return design_region(doc_->project()) || editor::has_shape_parameters(doc_->project());
}

bool InverseDesignDock::commitDesign(const QString& text, const std::function<void(Project&)>& edit, QString* problem) {
    const Project& now = doc_->project();
    Project copy = now;
    edit(copy);
    // what the reader would refuse on opening the saved file is not applied; a design it
    // refuses already (an older file) is not made the editor's business here
    const auto refusal = [&](const Project& p) -> QString {
        try {
            design_spec(p, fileLabel(), false);
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
        return {};
    };
    // (density designs keep their own marks: a formula naming a wavelength no longer listed
    // is marked in its field, not refused here)
    const bool checked = editor::has_shape_parameters(copy) && !design_region(copy);
    if (const QString after = checked ? refusal(copy) : QString(); !after.isEmpty() && refusal(now).isEmpty()) {
        setStatus(tr("Not applied: %1").arg(after), true);
        if (problem) *problem = after;  // the caller keeps what was typed, marked
        else scheduleRebuild();         // the fields show the project's values again
        return false;
    }
    doc_->replaceProject(copy, text);
    return true;
}

QString InverseDesignDock::expressionProblem(const std::string& expression) const {
    Project p = doc_->project();
    if (!design_region(p) && !editor::has_shape_parameters(p)) return {};
    Json& o = editor::design_objective_mut(p);
    o["combine"] = "expression";
    o["expression"] = expression;
    const QString file = doc_->filePath();
    try {
        design_spec(p, (file.isEmpty() ? doc_->displayName() : file).toStdString(), false);
    } catch (const std::exception& e) {
        // only the formula's own problem: another field's is shown where that field is edited
        const QString message = QString::fromStdString(e.what());
        if (message.contains(QLatin1String("design.objective.expression"))) return message;
    }
    return {};
}

void InverseDesignDock::markExpression(const QString& problem) {
    expression_->setProperty("invalid", !problem.isEmpty());
    expression_->setStyleSheet(problem.isEmpty() ? QString()
                                                 : QStringLiteral("QLineEdit { background: #ffd9d9; color: #8a0000; "
                                                                  "border: 1px solid #d00000; }"));
    expression_->setToolTip(problem.isEmpty() ? expression_->property("defaultToolTip").toString()
                                              : tr("Not applied: %1").arg(problem));
}

void InverseDesignDock::rebuildEditor() {
    rebuildPending_ = false;
    const Project& p = doc_->project();
    const bool region = design_region(p) != nullptr;
    const bool shapes = editor::has_shape_parameters(p);
    noRegion_->setVisible(!region && !shapes);
    editor_->setEnabled(region || shapes);
    rebuildShapeParameters(p, region);
    // the hint of an idle dock follows the kind of design (a message of a run or an edit stays)
    if (state_ == State::Idle && status_->text() == idleHint_) {
        idleHint_ = shapes && !region
                        ? tr("A design of shape parameters: choose the objective, then Start (the optimization "
                             "golightly-cli optimize --adjoint PROJECT runs).")
                        : tr("Draw a design region (Tools > Design Region), choose the objective, then Start.");
        setStatus(idleHint_);
    }
    updateButtons();
    // a density of another grid (the region redrawn, its pixel changed) is not shown over it
    if (canvas_ && !canvas_->designDensity().isNull()) {
        const auto n = editor::design_pixels(p);
        if (!region || canvas_->designDensity().width() != n[0] || canvas_->designDensity().height() != n[1])
            canvas_->setDesignDensity(QImage());
    }
    const QStringList modes = editor::mode_monitor_names(p);
    const Json* d = designSection(p);
    const Json objective = d && d->contains("objective") && (*d)["objective"].is_object() ? (*d)["objective"] : Json::object();
    const Json optimizer = d && d->contains("optimizer") && (*d)["optimizer"].is_object() ? (*d)["optimizer"] : Json::object();
    const Json terms = objective.contains("terms") && objective["terms"].is_array() ? objective["terms"] : Json::array();

    terms_->setRowCount(int(terms.size()));
    for (int r = 0; r < int(terms.size()); ++r) {
        const Json& t = terms[size_t(r)];
        if (t.contains("point")) {  // a point term: shown, not edited here
            QString where;
            if (t["point"].is_array())
                for (const auto& v : t["point"]) where += (where.isEmpty() ? QString() : QStringLiteral(", ")) + QString::number(v.is_number() ? v.get<double>() : 0.0);
            auto* item = new QTableWidgetItem(tr("|%1|² at (%2)").arg(qs(t.value("component", std::string("Ez"))), where));
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            terms_->removeCellWidget(r, 0);
            terms_->setItem(r, 0, item);
            for (int c = 1; c < 3; ++c) {
                terms_->removeCellWidget(r, c);
                auto* empty = new QTableWidgetItem;
                empty->setFlags(Qt::ItemIsEnabled);
                terms_->setItem(r, c, empty);
            }
        } else {
            auto* monitor = new QComboBox;
            const QString name = qs(t.value("monitor", std::string()));
            monitor->addItems(modes);
            if (!modes.contains(name)) monitor->addItem(name);  // a monitor deleted since: kept, the optimizer names it
            monitor->setCurrentText(name);
            connect(monitor, &QComboBox::activated, this, [this, r, monitor](int) {
                const std::string n = monitor->currentText().toStdString();
                editObjective(tr("Edit objective term"), [&](Json& o) { o["terms"][size_t(r)]["monitor"] = n; });
            });
            terms_->setCellWidget(r, 0, monitor);
            auto* mode = new QSpinBox;
            mode->setRange(0, 99);
            mode->setValue(t.value("mode", 0));
            mode->setToolTip(tr("The slot in the monitor's modes (0: its first mode)"));
            connect(mode, &QSpinBox::editingFinished, this, [this, r, mode] {
                const int v = mode->value();
                editObjective(tr("Edit objective term"), [&](Json& o) { o["terms"][size_t(r)]["mode"] = v; });
            });
            terms_->setCellWidget(r, 1, mode);
            auto* dir = new QComboBox;
            dir->addItems({tr("forward"), tr("backward")});
            dir->setCurrentIndex(t.value("direction", std::string("forward")) == "backward" ? 1 : 0);
            connect(dir, &QComboBox::activated, this, [this, r](int i) {
                editObjective(tr("Edit objective term"),
                              [&](Json& o) { o["terms"][size_t(r)]["direction"] = i == 1 ? "backward" : "forward"; });
            });
            terms_->setCellWidget(r, 2, dir);
        }
        auto* weight = new QDoubleSpinBox;
        weight->setRange(-1e6, 1e6);
        weight->setDecimals(4);
        weight->setValue(t.contains("weight") && t["weight"].is_number() ? t["weight"].get<double>() : 1.0);
        connect(weight, &QDoubleSpinBox::editingFinished, this, [this, r, weight] {
            const double v = weight->value();
            editObjective(tr("Edit objective term"), [&](Json& o) { o["terms"][size_t(r)]["weight"] = v; });
        });
        terms_->setCellWidget(r, 3, weight);
    }
    removeTerm_->setEnabled(terms.size() > 1);

    {
        const QSignalBlocker b1(normalize_), b2(goal_), b3(algorithm_), b4(maxIterations_), b5(wavelengths_), b6(combine_),
            b7(expression_);
        normalize_->clear();
        normalize_->addItem(tr("(none)"));
        normalize_->addItems(modes);
        const QString norm = qs(objective.value("normalize_by", std::string()));
        if (!norm.isEmpty() && !modes.contains(norm)) normalize_->addItem(norm);
        normalize_->setCurrentIndex(norm.isEmpty() ? 0 : normalize_->findText(norm));
        QStringList wl;
        if (objective.contains("wavelengths_um") && objective["wavelengths_um"].is_array())
            for (const auto& v : objective["wavelengths_um"])
                if (v.is_number()) wl << QString::number(v.get<double>(), 'g', 8);
        if (!wavelengths_->hasFocus()) wavelengths_->setText(wl.join(QStringLiteral(", ")));
        goal_->setCurrentIndex(objective.value("goal", std::string("maximize")) == "minimize" ? 1 : 0);
        const QString combine = objective.contains("combine") && objective["combine"].is_string()
                                    ? qs(objective["combine"].get<std::string>())
                                    : QStringLiteral("mean");
        combine_->setCurrentIndex(std::max(0, combine_->findData(combine)));
        const bool formula = combine == QLatin1String("expression");
        expression_->setVisible(formula);
        expressionLabel_->setVisible(formula);
        if (formula && !expression_->hasFocus()) {
            const std::string text = objective.contains("expression") && objective["expression"].is_string()
                                         ? objective["expression"].get<std::string>()
                                         : std::string();
            expression_->setText(qs(text));
            // the project's formula checked again: a shorter wavelength list may leave it
            // naming an F_k that no longer exists
            markExpression(expressionProblem(text));
        }
        algorithm_->setCurrentIndex(std::max(0, algorithm_->findText(qs(optimizer.value("algorithm", std::string("mma"))))));
        maxIterations_->setValue(optimizer.contains("max_iterations") && optimizer["max_iterations"].is_number_integer()
                                     ? optimizer["max_iterations"].get<int>()
                                     : 50);
    }
}

// ---------------------------------------------------------------- shape parameters

void InverseDesignDock::setSettingsStore(std::function<std::unique_ptr<QSettings>()> store) {
    settings_ = std::move(store);
    if (!settings_) return;
    {
        const auto s = settings_();
        const QSignalBlocker block(fieldSource_);
        fieldSource_->setCurrentIndex(std::clamp(s->value(QStringLiteral("inverseDesign/fieldSource"), 0).toInt(), 0, 1));
        fieldQuantityKey_ = s->value(QStringLiteral("inverseDesign/fieldQuantity"), QString()).toString();
    }
    showFields();
    auto save = [this] {
        const auto s = settings_();
        s->setValue(QStringLiteral("inverseDesign/fieldSource"), fieldSource_->currentIndex());
        s->setValue(QStringLiteral("inverseDesign/fieldQuantity"), fieldQuantityKey_);
    };
    connect(fieldSource_, &QComboBox::currentIndexChanged, this, save);
    connect(fieldQuantity_, &QComboBox::currentIndexChanged, this, save);
}

void InverseDesignDock::projectReplaced() {
    if (pauseFlag_) pauseFlag_->store(true);
    job_.cancelAndDiscard();
    clearPlot();
    betaSteps_.clear();
    lastBeta_ = 0;
    nextIteration_ = sessionIterations_ = 0;
    wallSum_ = 0;
    last_.reset();
    shapeRun_ = false;
    shapeProblem_.reset();
    shapeNames_.clear();
    shapeValues_.clear();
    shapeOffset_ = 0;
    density_ = QImage();
    densityLabel_->clear();
    fields_.reset();
    showFields();
    iteration_->clear();
    if (canvas_) canvas_->setDesignDensity(QImage());
    setStatus(tr("Draw a design region (Tools > Design Region), choose the objective, then Start."));
    setState(State::Idle);
    rebuildEditor();
}

// ---------------------------------------------------------------- export

bool InverseDesignDock::exportGds(const QString& path) {
    if (!last_ || !last_->problem || last_->problem->dimensions != 2) {
        setStatus(tr("No 2D design to export yet: run the optimization first."), true);
        return false;
    }
    try {
        const adjoint::ProjectProblem& pp = *last_->problem;
        const adjoint::DesignGds gds = adjoint::design_gds(doc_->project(), pp, last_->rho);
        const std::vector<std::uint8_t>& bytes = gds.bytes;
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size())) != qint64(bytes.size()) ||
            !f.commit()) {
            setStatus(tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), f.errorString()), true);
            return false;
        }
        setStatus(tr("Exported %n polygon(s) on layer %1/%2 to %3", nullptr, int(gds.polygons))
                      .arg(gds.layer[0])
                      .arg(gds.layer[1])
                      .arg(QDir::toNativeSeparators(path)));
        return true;
    } catch (const std::exception& e) {
        setStatus(tr("Cannot export the design: %1").arg(qs(e.what())), true);
        return false;
    }
}

bool InverseDesignDock::applyAsShapes() {
    if (!last_ || !last_->problem || last_->problem->dimensions != 2) {
        setStatus(tr("No 2D design to apply yet: run the optimization first."), true);
        return false;
    }
    if (!design_region(doc_->project())) {
        setStatus(tr("The project has no design region to replace."), true);
        return false;
    }
    try {
        const Project after = adjoint::project_with_design_shapes(doc_->project(), *last_->problem, last_->rho);
        doc_->replaceProject(after, tr("Apply design as shapes"));
        if (canvas_) canvas_->setDesignDensity(QImage());
        setStatus(tr("The design region is now plain shapes (new layers on top); Edit > Undo gives it back."));
        updateButtons();
        return true;
    } catch (const std::exception& e) {
        setStatus(tr("Cannot apply the design: %1").arg(qs(e.what())), true);
        return false;
    }
}

}  // namespace golightly::app
