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

namespace golightly::app {

namespace fs = std::filesystem;
using editor::design_region;

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
const Json* designSection(const Project& p) {
    auto it = p.extra.find("design");
    return it != p.extra.end() && it->is_object() ? &*it : nullptr;
}
/// history.csv's fixed columns; one `objective@<wavelength um>` column per wavelength
/// follows, as in the CLI's history (docs/spec/cli.md "optimize --adjoint").
const char* kHistoryHeader = "iteration,beta,objective,gradient_norm,wall_s";
/// The per-wavelength curves' colours (the figure of merit keeps the blue).
const QColor kCurveColours[] = {QColor(230, 120, 20), QColor(40, 150, 60),  QColor(200, 40, 40),
                                QColor(140, 90, 190), QColor(140, 85, 75),  QColor(220, 110, 190),
                                QColor(120, 120, 120), QColor(170, 170, 30), QColor(20, 170, 190)};
}  // namespace

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

namespace {
/// A number as typed: in the user's locale (0,25 in German) or with a decimal point.
std::optional<double> typedNumber(const QString& text) {
    bool ok = false;
    double v = QLocale().toDouble(text.trimmed(), &ok);
    if (!ok) v = QLocale::c().toDouble(text.trimmed(), &ok);
    if (!ok || !std::isfinite(v)) return std::nullopt;
    return v;
}
QString shownNumber(double v) { return QLocale().toString(v, 'g', 10); }
}  // namespace

void InverseDesignDock::rebuildShapeParameters(const Project& p, bool region) {
    const Json list = editor::shape_parameters(p);
    shapeProblems_ = editor::shape_parameter_problems(p, fileLabel(), true);
    const QSignalBlocker block(shapes_);
    shapes_->setRowCount(int(list.size()));
    for (int r = 0; r < int(list.size()); ++r) {
        const Json e = list[size_t(r)].is_object() ? list[size_t(r)] : Json::object();
        const QString name = e.contains("name") && e["name"].is_string() ? qs(e["name"].get<std::string>()) : QString();
        auto* combo = new QComboBox;
        combo->setObjectName(QStringLiteral("shapeParameterName"));
        for (const Parameter& par : p.parameters)
            combo->addItem(QStringLiteral("%1 = %2").arg(qs(par.name), shownNumber(par.value)), qs(par.name));
        if (combo->findData(name) < 0) combo->addItem(name, name);  // a parameter deleted since: kept, marked
        combo->setCurrentIndex(combo->findData(name));
        connect(combo, &QComboBox::activated, this, [this, r](int) { applyShapeRow(r); });
        shapes_->setCellWidget(r, 0, combo);
        const char* keys[3] = {"min", "max", "step"};
        for (int c = 1; c <= 3; ++c) {
            auto* field = new QLineEdit;
            field->setObjectName(QStringLiteral("shapeParameter") + QLatin1String(c == 1 ? "Min" : c == 2 ? "Max" : "Step"));
            const char* key = keys[c - 1];
            if (e.contains(key) && e[key].is_number()) field->setText(shownNumber(e[key].get<double>()));
            else if (e.contains(key)) field->setText(QString::fromStdString(e[key].dump()));  // shown as the file has it
            if (c == 3) field->setPlaceholderText(tr("default"));
            connect(field, &QLineEdit::editingFinished, this, [this, r] { applyShapeRow(r); });
            shapes_->setCellWidget(r, c, field);
        }
        // (the table makes the row of a field taking the focus current: Remove parameter
        // removes it)
        markShapeRow(r, shapeProblems_[size_t(r)]);
    }
    // as tall as its rows (at least two), so that the note under it stays in view
    const int shown = std::max(2, shapes_->rowCount());
    int rowsHeight = 0;
    for (int r = 0; r < shapes_->rowCount(); ++r) rowsHeight += shapes_->rowHeight(r);
    rowsHeight += (shown - shapes_->rowCount()) * shapes_->verticalHeader()->defaultSectionSize();
    shapes_->setFixedHeight(shapes_->horizontalHeader()->sizeHint().height() + rowsHeight + 2 * shapes_->frameWidth() + 2);
    // a density design: the note says why there is no table (one kind of variable)
    shapeBox_->setEnabled(!region);
    shapes_->setVisible(!region);
    addShape_->setVisible(!region);
    removeShape_->setVisible(!region);
    const Json next = editor::new_shape_parameter(p);
    addShape_->setEnabled(!region && !next.is_null());
    removeShape_->setEnabled(!region && !list.empty());
    QStringList problems;
    for (const QString& m : shapeProblems_)
        if (!m.isEmpty()) problems << m;
    QString note;
    if (region)
        note = tr("This design optimizes the density of its design region. A design has one kind of variable: delete "
                  "the design region to optimize shape parameters instead.");
    else if (!problems.isEmpty())
        note = problems.join(QLatin1Char('\n'));
    else if (p.parameters.empty())
        note = tr("Shape parameters are project parameters (widths, positions, ...: Parameters dock) that the optimizer "
                  "moves within [min, max]. Add a parameter in the Parameters dock first.");
    else if (!list.empty())
        note = tr("Each parameter starts from its value now (shown beside its name).");
    else
        note = tr("Shape parameters are project parameters (widths, positions, ...) that the optimizer moves within "
                  "[min, max], from their values now.");
    shapeNote_->setText(note);
    shapeNote_->setStyleSheet(!region && !problems.isEmpty() ? QStringLiteral("QLabel { color: #b00020; }") : QString());
}

void InverseDesignDock::markShapeRow(int row, const QString& problem) {
    if (row < 0 || row >= shapes_->rowCount()) return;
    if (size_t(row) >= shapeProblems_.size()) shapeProblems_.resize(size_t(row) + 1);
    shapeProblems_[size_t(row)] = problem;
    for (int c = 0; c < 4; ++c) {
        QWidget* w = shapes_->cellWidget(row, c);
        if (!w) continue;
        w->setProperty("invalid", !problem.isEmpty());
        w->setStyleSheet(problem.isEmpty() ? QString()
                                           : QStringLiteral("%1 { background: #ffd9d9; color: #8a0000; border: 1px solid #d00000; }")
                                                 .arg(QLatin1String(w->metaObject()->className())));
        w->setToolTip(problem);
    }
}

QString InverseDesignDock::shapeRowProblem(int row) const {
    return row >= 0 && size_t(row) < shapeProblems_.size() && row < shapes_->rowCount() ? shapeProblems_[size_t(row)] : QString();
}

QString InverseDesignDock::shapeNote() const { return shapeNote_->text(); }

bool InverseDesignDock::applyShapeRow(int row) {
    const Project& p = doc_->project();
    Json list = editor::shape_parameters(p);
    if (row < 0 || row >= int(list.size()) || row >= shapes_->rowCount() || design_region(p)) return false;
    Json e = list[size_t(row)].is_object() ? list[size_t(row)] : Json::object();
    auto* combo = qobject_cast<QComboBox*>(shapes_->cellWidget(row, 0));
    if (combo && combo->currentIndex() >= 0) e["name"] = combo->currentData().toString().toStdString();
    const char* keys[3] = {"min", "max", "step"};
    const QString columns[3] = {tr("Min"), tr("Max"), tr("Step")};
    for (int c = 1; c <= 3; ++c) {
        auto* field = qobject_cast<QLineEdit*>(shapes_->cellWidget(row, c));
        if (!field) continue;
        const QString text = field->text().trimmed();
        if (c == 3 && text.isEmpty()) {
            e.erase("step");  // the reader's default
            continue;
        }
        const auto v = typedNumber(text);
        if (!v) {
            const QString problem = tr("Not applied: %1: \"%2\" is not a number").arg(columns[c - 1], text);
            markShapeRow(row, problem);
            setStatus(problem, true);
            return false;
        }
        // a number shown rounded (10 digits) and not retyped keeps the file's value
        if (e.contains(keys[c - 1]) && e[keys[c - 1]].is_number() && shownNumber(e[keys[c - 1]].get<double>()) == text) continue;
        e[keys[c - 1]] = *v;
    }
    if (e == list[size_t(row)]) {
        // nothing changed (focus left a field): the row shows the project's verdict again
        const auto problems = editor::shape_parameter_problems(p, fileLabel(), true);
        markShapeRow(row, size_t(row) < problems.size() ? problems[size_t(row)] : QString());
        return false;
    }
    list[size_t(row)] = e;
    QString problem;
    if (!commitDesign(tr("Edit shape parameter"), [&](Project& q) { editor::set_shape_parameters(q, list); }, &problem)) {
        // kept as typed, to be corrected (with the other fields of the row: max first, then min)
        markShapeRow(row, tr("Not applied: %1").arg(problem));
        return false;
    }
    return true;
}

bool InverseDesignDock::addShapeParameter() {
    const Project& p = doc_->project();
    if (design_region(p)) {
        setStatus(tr("This design optimizes the density of its design region: a design has one kind of variable."), true);
        return false;
    }
    const Json next = editor::new_shape_parameter(p);
    if (next.is_null()) {
        setStatus(p.parameters.empty() ? tr("The project has no parameters: add one in the Parameters dock first.")
                                       : tr("Every parameter of the project is listed already."),
                  true);
        return false;
    }
    Json list = editor::shape_parameters(p);
    list.push_back(next);
    return commitDesign(tr("Add shape parameter"), [&](Project& q) { editor::set_shape_parameters(q, list); });
}

bool InverseDesignDock::removeShapeParameter(int row) {
    Json list = editor::shape_parameters(doc_->project());
    if (row < 0 || row >= int(list.size()) || design_region(doc_->project())) return false;
    list.erase(size_t(row));
    const bool removed =
        commitDesign(tr("Remove shape parameter"), [&](Project& q) { editor::set_shape_parameters(q, list); });
    if (removed && list.empty())
        setStatus(tr("The last shape parameter is removed, and with it the design (Edit > Undo brings it back)."));
    return removed;
}

bool InverseDesignDock::editShapeParameter(int row, int column, const QString& text) {
    if (row < 0 || row >= shapes_->rowCount() || column < 0 || column > 3) return false;
    if (column == 0) {
        auto* combo = qobject_cast<QComboBox*>(shapes_->cellWidget(row, 0));
        const int i = combo ? combo->findData(text) : -1;
        if (i < 0) return false;
        combo->setCurrentIndex(i);
    } else if (auto* field = qobject_cast<QLineEdit*>(shapes_->cellWidget(row, column))) {
        field->setText(text);
    }
    return applyShapeRow(row);
}

// ---------------------------------------------------------------- running

bool InverseDesignDock::start() { return launch(true); }

bool InverseDesignDock::resume() {
    if (state_ != State::Paused) {
        setStatus(tr("Nothing to resume: Pause a running optimization first."), true);
        return false;
    }
    return launch(false);
}

bool InverseDesignDock::launch(bool fresh) {
    if (job_.isRunning()) {
        setStatus(tr("The optimization is running already."), true);
        return false;
    }
    const Project snapshot = doc_->project();
    const bool shapes = !design_region(snapshot) && editor::has_shape_parameters(snapshot);
    if (!design_region(snapshot) && !shapes) {
        setStatus(tr("The project has no design: draw a design region with Tools > Design Region, or add shape "
                     "parameters."),
                  true);
        return false;
    }
    if (!fresh && shapes != shapeRun_) {
        setStatus(tr("The design changed its kind (density region or shape parameters) since the run paused: Start "
                     "afresh."),
                  true);
        return false;
    }
    if (outDir_.isEmpty()) {
        setStatus(tr("No output folder for the checkpoint."), true);
        return false;
    }
    const QString file = doc_->filePath();
    const std::string label = (file.isEmpty() ? doc_->displayName() : file).toStdString();
    const fs::path projectDir = file.isEmpty() ? fs::current_path() : fs::absolute(fs::path(file.toStdString())).parent_path();
    const fs::path out = outDir_.toStdString();
    const fs::path checkpoint = out / "checkpoint.json";
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec) {
        setStatus(tr("Cannot create the folder %1: %2").arg(QDir::toNativeSeparators(outDir_), qs(ec.message())), true);
        return false;
    }
    const Json* d = designSection(snapshot);
    const int planned = d && d->contains("optimizer") && (*d)["optimizer"].is_object() &&
                                (*d)["optimizer"].contains("max_iterations") && (*d)["optimizer"]["max_iterations"].is_number_integer()
                            ? (*d)["optimizer"]["max_iterations"].get<int>()
                            : 50;
    if (fresh) {
        fs::remove(checkpoint, ec);
        fs::remove(out / "history.csv", ec);
        clearPlot();
        betaSteps_.clear();
        lastBeta_ = 0;
        nextIteration_ = 0;
        sessionIterations_ = 0;
        wallSum_ = 0;
        density_ = QImage();
        densityLabel_->clear();
        fields_.reset();
        showFields();
        if (canvas_) canvas_->setDesignDensity(QImage());
        iteration_->clear();
        shapeRun_ = shapes;
        shapeProblem_.reset();
        shapeNames_.clear();
        shapeValues_.clear();
        shapeOffset_ = 0;
        if (shapes) {
            static std::uint64_t sessions = 0;  // one undo step per session: its own key
            undoSession_ = ++sessions;
            lastPushed_ = snapshot;
            last_.reset();  // a density design of an earlier run is not this design's
        }
        showFields();  // the field picture's note follows the kind of design
    }
    totalIterations_ = planned;
    const int iterations = totalIterations_ - nextIteration_;
    if (iterations < 1) {
        setStatus(tr("All %n iteration(s) are done: raise Max iterations to go on.", nullptr, totalIterations_), true);
        setState(State::Paused);
        return false;
    }
    if (shapes) return launchShapes(fresh, snapshot, label, projectDir, out);
    pixels_ = editor::design_pixels(snapshot);
    pauseFlag_ = std::make_shared<std::atomic<bool>>(false);
    stopRequested_ = false;
    clock_.start();
    setStatus(fresh ? tr("Starting: compiling the project and the normalization run...")
                    : tr("Resuming from iteration %1...").arg(nextIteration_));
    const int threads = threads_;
    const auto pauseFlag = pauseFlag_;
    const bool started = job_.start([snapshot, label, projectDir, checkpoint, iterations, threads, pauseFlag,
                                     out](Job::Context& ctx) {
        adjoint::ProjectProblemOptions o;
        o.threads = threads;
        // Pause and Stop end the normalization run too (within a chunk of steps); its
        // progress goes to the status line
        o.cancel = ctx.cancelFlag();
        o.on_progress = [&ctx](const char* run, long long steps) {
            if (std::string_view(run) == "normalization") ctx.post([steps](News& n) { n.normalizationSteps = steps; });
        };
        std::shared_ptr<adjoint::ProjectProblem> pp;
        try {
            pp = std::make_shared<adjoint::ProjectProblem>(adjoint::problem_from_project(snapshot, label, projectDir, o));
        } catch (const adjoint::Cancelled&) {
            Result cancelled;
            cancelled.stop = "cancelled";
            cancelled.cancelledInNormalization = true;
            return cancelled;
        }
        pp->problem.settings.on_progress = {};  // the iterations' runs: no per-chunk news
        ctx.post([wl = pp->wavelengths_um](News& n) { n.wavelengths_um = wl; });
        pp->settings.checkpoint = checkpoint;
        pp->settings.max_iterations = iterations;
        // Pause and Stop end the run under way within a chunk of steps
        pp->problem.settings.cancel = ctx.cancelFlag();
        // the objective's first wavelength (the one the user named first, else the only one)
        const double wavelength_um = !pp->spec.objective.wavelengths_um.empty() ? pp->spec.objective.wavelengths_um[0]
                                     : !pp->wavelengths_um.empty()            ? pp->wavelengths_um[0]
                                                                               : 0.0;
        const Scene* scene = &pp->problem.scene;
        pp->problem.settings.on_fields = [&ctx, scene, wavelength_um](const adjoint::DesignFields& f) {
            auto slice = fieldSlice(f, *scene, wavelength_um);
            ctx.post([&](News& n) { n.fields = std::move(slice); });
        };
        ctx.post([](News& n) { n.stage = QStringLiteral("iterating"); });
        // history.csv as the CLI writes it (a resumed run appends), its per-wavelength columns included
        std::string header = kHistoryHeader;
        for (double w : pp->wavelengths_um) {
            char buf[48];
            std::snprintf(buf, sizeof buf, ",objective@%.6g", w);
            header += buf;
        }
        const auto on_iteration = [&](const adjoint::Iteration& it) {
            {
                std::ofstream h(out / "history.csv", std::ios::app);
                if (h.tellp() == 0) h << header << "\n";
                h << it.index << "," << it.beta << "," << it.objective << "," << it.gradient_norm << "," << it.wall_s;
                for (double v : it.objective_per_frequency) h << "," << v;
                h << "\n";
            }
            ctx.post([&](News& n) {
                n.points.push_back({it.index, it.beta, it.objective, it.gradient_norm, it.wall_s, it.objective_per_frequency, {}});
                n.rho_projected = it.rho_projected;
                n.hasRho = true;
            });
            return !ctx.cancelled() && !pauseFlag->load();
        };
        const adjoint::OptimizeResult r = adjoint::optimize_density(pp->problem, pp->rho0, pp->settings, on_iteration);
        // the problem outlives this job (export, apply): nothing of the job's context in it
        pp->problem.settings.cancel = nullptr;
        pp->problem.settings.on_fields = {};
        adjoint::write_density_csv(out / "density.csv", pp->problem.region, pp->spec.regions[0].pixel_um, r.rho,
                                   r.rho_projected);
        Result result;
        result.rho = r.rho;
        result.rho_projected = r.rho_projected;
        result.stop = r.stop;
        result.next_iteration = r.history.empty() ? r.first_iteration : r.history.back().index + 1;
        result.problem = pp;
        return result;
    }, QStringLiteral("golightly-adjoint"));
    if (!started) return false;
    setState(State::Running);
    return true;
}

namespace {
/// The project without design.optimizer.max_iterations: what Resume compares (raising Max
/// iterations while paused keeps the problem, and its checkpoint, as it was).
Project withoutIterationBudget(Project p) {
    auto it = p.extra.find("design");
    if (it != p.extra.end() && it->is_object() && it->contains("optimizer") && (*it)["optimizer"].is_object())
        (*it)["optimizer"].erase("max_iterations");
    return p;
}
}  // namespace

bool InverseDesignDock::launchShapes(bool fresh, const Project& snapshot, const std::string& label,
                                     const fs::path& projectDir, const fs::path& out) {
    const fs::path checkpoint = out / "checkpoint.json";
    // Resume: the same problem when the project is as the run left it (its checkpoint is
    // then replayed, exactly); after another edit the checkpoint is of another problem, so
    // the optimizer starts again from the values now
    std::shared_ptr<const adjoint::ShapeProblem> again;
    if (!fresh && shapeProblem_ && !editedDuringRun_ &&
        withoutIterationBudget(snapshot) == withoutIterationBudget(lastPushed_))
        again = shapeProblem_;
    editedDuringRun_ = false;
    if (!again) {
        std::error_code ec;
        fs::remove(checkpoint, ec);
        shapeOffset_ = nextIteration_;
        shapeProblem_.reset();
    }
    const int iterations = totalIterations_ - nextIteration_;
    pauseFlag_ = std::make_shared<std::atomic<bool>>(false);
    stopRequested_ = false;
    clock_.start();
    if (fresh) setStatus(tr("Starting: compiling the project and the normalization run..."));
    else if (again) setStatus(tr("Resuming from iteration %1...").arg(nextIteration_));
    else
        setStatus(tr("The project was edited since the run started: the optimizer starts again from the parameters' "
                     "values now (the iteration numbering goes on; the optimizer's memory of the earlier steps does "
                     "not)..."));
    if (!fresh && !again) lastPushed_ = snapshot;
    const int threads = threads_, offset = shapeOffset_;
    const auto pauseFlag = pauseFlag_;
    const bool started = job_.start([snapshot, label, projectDir, checkpoint, iterations, threads, pauseFlag, out, again,
                                     offset](Job::Context& ctx) {
        std::shared_ptr<adjoint::ShapeProblem> sp;
        if (again) {
            sp = std::make_shared<adjoint::ShapeProblem>(*again);
        } else {
            adjoint::ProjectProblemOptions o;
            o.threads = threads;
            o.cancel = ctx.cancelFlag();
            o.on_progress = [&ctx](const char* run, long long steps) {
                if (std::string_view(run) == "normalization") ctx.post([steps](News& n) { n.normalizationSteps = steps; });
            };
            try {
                sp = std::make_shared<adjoint::ShapeProblem>(
                    adjoint::shape_problem_from_project(snapshot, label, projectDir, o));
            } catch (const adjoint::Cancelled&) {
                Result cancelled;
                cancelled.stop = "cancelled";
                cancelled.cancelledInNormalization = true;
                return cancelled;
            }
        }
        sp->options.on_progress = {};  // the iterations' runs: no per-chunk news
        sp->options.cancel = ctx.cancelFlag();  // Pause and Stop end the run under way within a chunk of steps
        ctx.post([&sp](News& n) {
            n.wavelengths_um = sp->wavelengths_um;
            n.shapeNames = sp->names;
            n.shapeLo = sp->lo;
            n.shapeHi = sp->hi;
            n.shapeP0 = sp->p0;
            n.stage = QStringLiteral("iterating");
        });
        // history.csv with the CLI's columns (docs/spec/cli.md "optimize --adjoint", shape
        // parameters); a resumed run appends to the rows it has
        std::string header = "iteration,objective,gradient_norm,steps,wall_s";
        for (const auto& n : sp->names) header += "," + n;
        for (const auto& n : sp->names) header += ",dF/d" + n;
        for (double w : sp->wavelengths_um) {
            char buf[48];
            std::snprintf(buf, sizeof buf, ",objective@%.6g", w);
            header += buf;
        }
        std::string text;
        {
            std::ifstream in(out / "history.csv");
            std::string line;
            if (offset > 0 || again)
                if (std::getline(in, line) && line == header) {  // the same columns: the rows go on
                    text = line + "\n";
                    while (std::getline(in, line))
                        if (!line.empty()) text += line + "\n";
                }
            if (text.empty()) text = header + "\n";
        }
        const auto on_iteration = [&](const adjoint::ShapeIteration& it) {
            if (it.replayed) return true;  // shown and written by the call that made it
            const int index = offset + it.index;
            char buf[160];
            std::snprintf(buf, sizeof buf, "%d,%.17g,%.17g,%lld,%.6g", index, it.objective, it.gradient_norm, it.steps,
                          it.wall_s);
            text += buf;
            for (const std::vector<double>* v : {&it.p, &it.gradient, &it.objective_per_frequency})
                for (double x : *v) {
                    std::snprintf(buf, sizeof buf, ",%.17g", x);
                    text += buf;
                }
            text += "\n";
            std::ofstream(out / "history.csv", std::ios::trunc) << text;
            ctx.post([&](News& n) {
                n.points.push_back({index, 0.0, it.objective, it.gradient_norm, it.wall_s, it.objective_per_frequency, it.p});
            });
            return !ctx.cancelled() && !pauseFlag->load();
        };
        const adjoint::ShapeOptimizeResult r = adjoint::optimize_shape(*sp, iterations, on_iteration, checkpoint);
        // the problem outlives this job (Resume): nothing of the job's context in it
        sp->options.cancel = nullptr;
        sp->options.on_progress = {};
        Result result;
        result.stop = r.stop;
        result.next_iteration = offset + int(r.history.size());
        result.shape = sp;
        if (!r.history.empty()) {
            result.best_p = r.p;
            result.best_objective = r.objective;
        }
        return result;
    }, QStringLiteral("golightly-adjoint-shape"));
    if (!started) return false;
    setState(State::Running);
    return true;
}

void InverseDesignDock::pushShapeValues(const std::vector<double>& p) {
    if (p.size() != shapeNames_.size() || p.empty()) return;
    try {
        const Project after = adjoint::project_at(doc_->project(), shapeNames_, p, fileLabel());
        pushing_ = true;
        doc_->replaceProjectInSession(after, tr("Optimize shape parameters"), undoSession_);
        pushing_ = false;
        lastPushed_ = doc_->project();
    } catch (const std::exception& e) {
        // e.g. a parameter deleted during the run: the optimization goes on, the project
        // is not changed
        setStatus(tr("The parameter values could not be set in the project: %1").arg(qs(e.what())), true);
    }
}

QString InverseDesignDock::shapeValuesText() const {
    QStringList lines;
    for (std::size_t k = 0; k < shapeNames_.size() && k < shapeValues_.size(); ++k) {
        QString line = QStringLiteral("%1 = %2").arg(qs(shapeNames_[k]), QString::number(shapeValues_[k], 'g', 6));
        if (k < shapeLo_.size() && k < shapeHi_.size())
            line += QStringLiteral("  [%1, %2]").arg(QString::number(shapeLo_[k], 'g', 6), QString::number(shapeHi_[k], 'g', 6));
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

void InverseDesignDock::showShapeValues() {
    densityLabel_->setPixmap(QPixmap());
    densityLabel_->setText(shapeValuesText());
    densityLabel_->setToolTip(tr("The shape parameters' values of the last iteration (after the run: the best ones "
                                 "found) and their bounds [min, max]; the project holds them (Edit > Undo gives back "
                                 "the values before the run)"));
}

void InverseDesignDock::pause() {
    if (!job_.isRunning() || state_ != State::Running) return;
    if (pauseFlag_) pauseFlag_->store(true);
    job_.cancel();  // the runs under way end within a chunk of steps
    setStatus(tr("Pausing..."));
    setState(State::Pausing);
}

void InverseDesignDock::stop() {
    if (!job_.isRunning()) {
        if (state_ == State::Paused) {  // a paused run ends: no resume
            setStatus(tr("Stopped at iteration %1.").arg(nextIteration_));
            setState(State::Finished);
        }
        return;
    }
    stopRequested_ = true;
    job_.cancel();  // the runs under way end within a chunk of steps
    setStatus(tr("Stopping..."));
    setState(State::Stopping);
}

void InverseDesignDock::showDensity(const std::vector<double>& rho_projected) {
    if (pixels_[0] <= 0 || pixels_[1] <= 0) return;
    density_ = editor::density_image(rho_projected, pixels_[0], pixels_[1]);
    if (density_.isNull()) return;
    if (canvas_) canvas_->setDesignDensity(density_);
    const QSize box = densityLabel_->size().boundedTo(QSize(400, 400)).expandedTo(QSize(120, 120));
    densityLabel_->setPixmap(QPixmap::fromImage(density_.scaled(box, Qt::KeepAspectRatio, Qt::FastTransformation)));
}

std::shared_ptr<const InverseDesignDock::FieldSlice> InverseDesignDock::fieldSlice(const adjoint::DesignFields& f,
                                                                                   const Scene& scene, double wavelength_um) {
    auto out = std::make_shared<FieldSlice>();
    const std::size_t nf = f.frequencies_hz.size();
    if (!f.sites || nf == 0 || f.forward.size() != f.sites->size() * nf) return out;
    // the frequency nearest the wavelength
    std::size_t fi = 0;
    if (wavelength_um > 0) {
        const double target = units::c0 / (wavelength_um * units::um);
        for (std::size_t k = 1; k < nf; ++k)
            if (std::abs(f.frequencies_hz[k] - target) < std::abs(f.frequencies_hz[fi] - target)) fi = k;
    }
    out->wavelength_um = units::c0 / f.frequencies_hz[fi] / units::um;
    const adjoint::DesignSites& sites = *f.sites;
    const std::int64_t nx = scene.nx, ny = scene.ny;
    // each component's index box (the sites of one component form a box, x fastest)
    struct Box {
        Component c;
        std::int64_t lo[3] = {INT64_MAX, INT64_MAX, INT64_MAX}, hi[3] = {-1, -1, -1};
    };
    std::vector<Box> boxes;
    auto ijk = [&](CellIndex cell, std::int64_t (&v)[3]) {
        v[0] = cell % nx, v[1] = (cell / nx) % ny, v[2] = cell / (nx * ny);
    };
    for (std::size_t s = 0; s < sites.size(); ++s) {
        if (boxes.empty() || boxes.back().c != sites.component[s]) boxes.push_back({sites.component[s]});
        std::int64_t v[3];
        ijk(sites.cell[s], v);
        for (int a = 0; a < 3; ++a) boxes.back().lo[a] = std::min(boxes.back().lo[a], v[a]), boxes.back().hi[a] = std::max(boxes.back().hi[a], v[a]);
    }
    std::int64_t lo[2] = {INT64_MAX, INT64_MAX}, hi[2] = {-1, -1};
    for (const Box& b : boxes)
        for (int a = 0; a < 2; ++a) lo[a] = std::min(lo[a], b.lo[a]), hi[a] = std::max(hi[a], b.hi[a]);
    out->w = int(hi[0] - lo[0] + 1);
    out->h = int(hi[1] - lo[1] + 1);
    const bool adjointField = f.adjoint.size() == f.forward.size();
    for (const Box& b : boxes) {
        const std::int64_t bw = b.hi[0] - b.lo[0] + 1, bh = b.hi[1] - b.lo[1] + 1;
        const std::int64_t kmid = (b.lo[2] + b.hi[2]) / 2;
        std::vector<std::complex<float>> fwd(std::size_t(bw * bh)), adj(adjointField ? std::size_t(bw * bh) : 0);
        for (std::size_t s = 0; s < sites.size(); ++s) {
            if (sites.component[s] != b.c) continue;
            std::int64_t v[3];
            ijk(sites.cell[s], v);
            if (v[2] != kmid) continue;
            const std::size_t q = std::size_t((v[1] - b.lo[1]) * bw + (v[0] - b.lo[0]));
            fwd[q] = std::complex<float>(f.forward[s * nf + fi]);
            if (adjointField) adj[q] = std::complex<float>(f.adjoint[s * nf + fi]);
        }
        // onto the union box: a cell outside this component's box takes its nearest site
        std::vector<std::complex<float>> F(std::size_t(out->w) * std::size_t(out->h)), A(adjointField ? F.size() : 0);
        for (int j = 0; j < out->h; ++j)
            for (int i = 0; i < out->w; ++i) {
                const std::int64_t bi = std::clamp<std::int64_t>(lo[0] + i, b.lo[0], b.hi[0]) - b.lo[0];
                const std::int64_t bj = std::clamp<std::int64_t>(lo[1] + j, b.lo[1], b.hi[1]) - b.lo[1];
                const std::size_t q = std::size_t(bj * bw + bi), o = std::size_t(j) * std::size_t(out->w) + std::size_t(i);
                F[o] = fwd[q];
                if (adjointField) A[o] = adj[q];
            }
        out->components.push_back(b.c);
        out->forward.push_back(std::move(F));
        out->adjoint.push_back(std::move(A));
    }
    return out;
}

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

void InverseDesignDock::setFieldSource(FieldSource source) { fieldSource_->setCurrentIndex(source == FieldSource::Adjoint ? 1 : 0); }

InverseDesignDock::FieldSource InverseDesignDock::fieldSource() const {
    return fieldSource_->currentIndex() == 1 ? FieldSource::Adjoint : FieldSource::Forward;
}

void InverseDesignDock::showFields() {
    // the quantity list follows the components of the fields (|E|² first)
    if (fields_) {
        QStringList keys{QString()};
        for (Component c : fields_->components) keys << QString::fromLatin1(component_name(c));
        QStringList have;
        for (int k = 0; k < fieldQuantity_->count(); ++k) have << fieldQuantity_->itemData(k).toString();
        if (have != keys) {
            const QSignalBlocker block(fieldQuantity_);
            fieldQuantity_->clear();
            for (const QString& key : keys) fieldQuantity_->addItem(key.isEmpty() ? tr("|E|²") : tr("Re %1").arg(key), key);
        }
        if (fieldQuantity_->currentData().toString() != fieldQuantityKey_) {
            const QSignalBlocker block(fieldQuantity_);
            fieldQuantity_->setCurrentIndex(std::max(0, int(keys.indexOf(fieldQuantityKey_))));
        }
    }
    fieldImage_ = QImage();
    fieldLabel_->clear();
    const bool adjointField = fieldSource() == FieldSource::Adjoint;
    fieldSource_->setEnabled(!shapeRun_);
    fieldQuantity_->setEnabled(!shapeRun_);
    if (shapeRun_) {
        // optimize_shape samples only the sites its parameters move and hands no fields out
        fieldLabel_->setText(tr("No field view for shape parameters"));
        fieldLabel_->setToolTip(tr("The shape optimizer reports no fields: it samples only the sites its parameters "
                                   "move. The canvas shows the structure of the last iteration."));
        return;
    }
    fieldLabel_->setText(QString());
    if (!fields_ || fields_->w <= 0 || fields_->h <= 0 || fields_->components.empty()) {
        fieldLabel_->setToolTip(tr("The field in the design region appears after the first iteration"));
        return;
    }
    const FieldSlice& f = *fields_;
    const auto& data = adjointField ? f.adjoint : f.forward;
    if (data.empty() || data[0].empty()) return;
    const int quantity = fieldQuantity_->currentIndex();  // 0: |E|², k: Re of component k - 1
    const std::size_t n = std::size_t(f.w) * std::size_t(f.h);
    std::vector<float> v(n, 0.f);
    for (std::size_t o = 0; o < n; ++o) {
        if (quantity <= 0) {
            for (const auto& comp : data) v[o] += std::norm(comp[o]);
        } else if (std::size_t(quantity - 1) < data.size()) {
            v[o] = data[std::size_t(quantity - 1)][o].real();
        }
    }
    float peak = 0;
    for (float x : v) peak = std::max(peak, std::abs(x));
    fieldImage_ = QImage(f.w, f.h, QImage::Format_RGB32);
    for (int j = 0; j < f.h; ++j) {
        auto* row = reinterpret_cast<QRgb*>(fieldImage_.scanLine(f.h - 1 - j));  // y up
        for (int i = 0; i < f.w; ++i) {
            // the field view's map: |E|² on its white..red half, a component on the whole
            const float t = peak > 0 ? v[std::size_t(j) * std::size_t(f.w) + std::size_t(i)] / peak : 0.f;
            std::uint8_t r, g, b;
            diverging_rgb(t, r, g, b);
            row[i] = qRgb(r, g, b);
        }
    }
    const QSize box = fieldLabel_->size().boundedTo(QSize(400, 400)).expandedTo(QSize(120, 120));
    fieldLabel_->setPixmap(QPixmap::fromImage(fieldImage_.scaled(box, Qt::KeepAspectRatio, Qt::FastTransformation)));
    fieldLabel_->setToolTip(tr("%1 over the design region at %2 µm, last iteration; scaled to its maximum %3 "
                               "(white: 0, red: the maximum%4)")
                                .arg(fieldSource_->currentText(), QString::number(f.wavelength_um, 'g', 5))
                                .arg(double(peak), 0, 'g', 3)
                                .arg(quantity <= 0 ? QString() : tr(", blue: minus the maximum")));
}

void InverseDesignDock::clearPlot() {
    while (plot_->graphCount() > 1) plot_->removeGraph(plot_->graphCount() - 1);
    plot_->graph(0)->data()->clear();
    plot_->clearItems();
    curveWavelengths_.clear();
    showLegend(false);
    plot_->replot();
}

void InverseDesignDock::showLegend(bool show) {
    QCPLayoutGrid* layout = plot_->plotLayout();
    const bool placed = layout->rowCount() > 1 && layout->hasElement(1, 0);
    if (show && !placed) {
        layout->addElement(1, 0, plot_->legend);
        layout->setRowStretchFactor(1, 0.001);
    } else if (!show && placed) {
        layout->take(plot_->legend);
        layout->simplify();
    }
    plot_->legend->setVisible(show);
}

void InverseDesignDock::setCurveWavelengths(const std::vector<double>& wavelengths_um) {
    const std::vector<double> wanted = wavelengths_um.size() > 1 ? wavelengths_um : std::vector<double>{};
    if (wanted == curveWavelengths_) return;  // a resumed run: the curves go on
    while (plot_->graphCount() > 1) plot_->removeGraph(plot_->graphCount() - 1);
    curveWavelengths_ = wanted;
    const int colours = int(sizeof kCurveColours / sizeof kCurveColours[0]);
    for (std::size_t k = 0; k < wanted.size(); ++k) {
        QCPGraph* g = plot_->addGraph();
        g->setPen(QPen(kCurveColours[int(k) % colours], 1.0));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3));
        g->setName(tr("%1 µm").arg(wanted[k], 0, 'g', 6));
    }
    plot_->graph(0)->setName(tr("figure of merit"));
    showLegend(!wanted.empty());
    plot_->replot();
}

void InverseDesignDock::takeNews(News& news) {
    if (!news.wavelengths_um.empty()) setCurveWavelengths(news.wavelengths_um);
    if (!news.shapeNames.empty()) {
        shapeNames_ = news.shapeNames;
        shapeLo_ = news.shapeLo;
        shapeHi_ = news.shapeHi;
        if (shapeValues_.size() != shapeNames_.size()) shapeValues_ = news.shapeP0;
        showShapeValues();
    }
    if (news.normalizationSteps >= 0 && news.stage.isEmpty() && (state_ == State::Running))
        setStatus(tr("Normalization run (the input power for the start design): %1 steps...").arg(news.normalizationSteps));
    if (news.stage == QLatin1String("iterating") && state_ == State::Running && sessionIterations_ == 0)
        setStatus(tr("Iterating: forward and adjoint runs..."));
    for (const Point& pt : news.points) {
        if (lastBeta_ > 0 && pt.beta != lastBeta_) {
            betaSteps_.push_back(pt.index);
            auto* line = new QCPItemStraightLine(plot_);
            line->point1->setCoords(pt.index - 0.5, 0);
            line->point2->setCoords(pt.index - 0.5, 1);
            line->setPen(QPen(QColor(160, 90, 20), 1, Qt::DashLine));
            auto* text = new QCPItemText(plot_);
            text->position->setTypeX(QCPItemPosition::ptPlotCoords);
            text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);  // near the top of the plot
            // left of the line: the newest points, at the right edge, leave no room there
            text->position->setCoords(pt.index - 0.6, 0.03);
            text->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
            text->setText(QStringLiteral("β %1").arg(pt.beta, 0, 'g', 4));
            text->setColor(QColor(160, 90, 20));
        }
        lastBeta_ = pt.beta;
        plot_->graph(0)->addData(pt.index, pt.objective);
        if (pt.per_wavelength.size() == curveWavelengths_.size())
            for (std::size_t k = 0; k < pt.per_wavelength.size(); ++k)
                plot_->graph(int(k) + 1)->addData(pt.index, pt.per_wavelength[k]);
        nextIteration_ = pt.index + 1;
        ++sessionIterations_;
        wallSum_ += pt.wall_s;
        const int left = std::max(0, totalIterations_ - nextIteration_);
        const double perIteration = wallSum_ / sessionIterations_;
        if (shapeRun_) {
            shapeValues_ = pt.p;
            QStringList values;
            for (std::size_t k = 0; k < shapeNames_.size() && k < pt.p.size(); ++k)
                values << QStringLiteral("%1 = %2").arg(qs(shapeNames_[k]), QString::number(pt.p[k], 'g', 6));
            iteration_->setText(tr("Iteration %1 of %2: figure of merit %3 at %4, |grad| %5; %6 s per iteration, ETA %7")
                                    .arg(pt.index + 1)
                                    .arg(totalIterations_)
                                    .arg(pt.objective, 0, 'g', 6)
                                    .arg(values.join(QStringLiteral(", ")))
                                    .arg(pt.gradient_norm, 0, 'g', 4)
                                    .arg(perIteration, 0, 'g', 3)
                                    .arg(formatEta(perIteration * left)));
            continue;
        }
        iteration_->setText(tr("Iteration %1 of %2: figure of merit %3, beta %4, |grad| %5; %6 s per iteration, ETA %7")
                                .arg(pt.index + 1)
                                .arg(totalIterations_)
                                .arg(pt.objective, 0, 'g', 6)
                                .arg(pt.beta, 0, 'g', 4)
                                .arg(pt.gradient_norm, 0, 'g', 4)
                                .arg(perIteration, 0, 'g', 3)
                                .arg(formatEta(perIteration * left)));
    }
    if (!news.points.empty()) {
        plot_->rescaleAxes();
        plot_->xAxis->setRange(std::min(-0.5, plot_->xAxis->range().lower - 0.5), plot_->xAxis->range().upper + 0.5);
        const QCPRange y = plot_->yAxis->range();
        // the padding follows the values' scale: an objective that is not normalized (a
        // point's |E|^2 in DFT units) may be 1e-29, so no absolute floor; one point (no
        // span): 8 % of its value, or 1 at 0
        const double span = y.upper - y.lower, scale = std::max(std::abs(y.lower), std::abs(y.upper));
        const double pad = span > 1e-9 * scale ? 0.08 * span : scale > 0 ? 0.08 * scale : 1.0;
        plot_->yAxis->setRange(y.lower - pad, y.upper + pad);
        plot_->replot();
    }
    if (shapeRun_ && !news.points.empty()) {
        // the project follows the evaluated values (the canvas redraws the structure)
        pushShapeValues(shapeValues_);
        showShapeValues();
    }
    if (news.hasRho) showDensity(news.rho_projected);
    if (news.fields) {
        fields_ = std::move(news.fields);
        showFields();
    }
}

void InverseDesignDock::jobFinished(editor::JobOutcome<Result>& outcome) {
    const double wall = clock_.elapsed() / 1000.0;
    if (!outcome.ok()) {
        setStatus(tr("The optimization failed: %1").arg(outcome.error), true);
        // a paused run whose resume failed may be resumed again after a fix
        setState(nextIteration_ > 0 ? State::Paused : State::Idle);
        Q_EMIT finished(status_->text());
        return;
    }
    if (outcome.result->cancelledInNormalization) {
        // Stop or Pause during the normalization run: no iteration made, the design (if a
        // paused run left one) as it was
        if (stopRequested_) {
            setStatus(tr("Stopped during the normalization run, before iteration %1.").arg(nextIteration_));
            setState(State::Finished);
        } else if (pauseFlag_ && pauseFlag_->load()) {
            setStatus(tr("Paused during the normalization run, before iteration %1: edit the project if needed, "
                         "then Resume.")
                          .arg(nextIteration_));
            setState(State::Paused);
        } else {
            setStatus(tr("Cancelled during the normalization run."));
            setState(last_ ? State::Finished : State::Idle);
        }
        Q_EMIT finished(status_->text());
        return;
    }
    if (outcome.result->shape) {
        const Result& r = *outcome.result;
        shapeProblem_ = r.shape;
        nextIteration_ = r.next_iteration;
        if (!r.best_p.empty()) {
            // the best values found (NLopt's optimum, as the CLI's final.glproj), in the
            // session's undo step
            shapeValues_ = r.best_p;
            pushShapeValues(r.best_p);
            showShapeValues();
        }
        QStringList values;
        for (std::size_t k = 0; k < shapeNames_.size() && k < r.best_p.size(); ++k)
            values << QStringLiteral("%1 = %2").arg(qs(shapeNames_[k]), QString::number(r.best_p[k], 'g', 6));
        const QString best = values.join(QStringLiteral(", "));
        if (stopRequested_) {
            setStatus(tr("Stopped after iteration %1 (%2); the parameters hold the best values found (%3, figure of merit "
                         "%4); Edit > Undo gives back the values before the run.")
                          .arg(nextIteration_)
                          .arg(formatEta(wall), best)
                          .arg(r.best_objective, 0, 'g', 6));
            setState(State::Finished);
        } else if (pauseFlag_ && pauseFlag_->load()) {
            setStatus(tr("Paused after iteration %1: the parameters hold the best values so far (%2); edit the project if "
                         "needed, then Resume.")
                          .arg(nextIteration_)
                          .arg(best));
            setState(State::Paused);
        } else {
            setStatus(tr("Done: %n iteration(s) (%1); the best figure of merit %2 at %3, now the parameters' values "
                         "(Edit > Undo gives back the values before the run).",
                         nullptr, nextIteration_)
                          .arg(qs(r.stop))
                          .arg(r.best_objective, 0, 'g', 6)
                          .arg(best));
            setState(State::Finished);
        }
        Q_EMIT finished(status_->text());
        return;
    }
    last_ = std::make_shared<const Result>(std::move(*outcome.result));
    nextIteration_ = last_->next_iteration;
    showDensity(last_->rho_projected);
    const QString folder = QDir::toNativeSeparators(outDir_);
    if (stopRequested_) {
        setStatus(tr("Stopped after iteration %1 (%2); the design is in %3.").arg(nextIteration_).arg(formatEta(wall)).arg(folder));
        setState(State::Finished);
    } else if (pauseFlag_ && pauseFlag_->load()) {
        setStatus(tr("Paused after iteration %1: edit the project if needed, then Resume.").arg(nextIteration_));
        setState(State::Paused);
    } else {
        setStatus(tr("Done: %n iteration(s) (%1); the design is in %2.", nullptr, nextIteration_)
                      .arg(qs(last_->stop), folder));
        setState(State::Finished);
    }
    Q_EMIT finished(status_->text());
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
