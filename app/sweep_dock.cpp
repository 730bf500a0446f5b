#include "sweep_dock.hpp"
#include "ui_number.hpp"
#include "results_folder.hpp"
#include "run_progress.hpp"

#include <QLocale>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QSettings>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "golightly/errors.hpp"
#include "golightly/parameters.hpp"
#include "golightly/sweep.hpp"
#include "qcustomplot_include.hpp"

namespace golightly::app {

namespace {

/// A number typed in the interface's language ("0,5" in German) or with a point ("0.5").
double localeNumber(const QString& text, bool* ok) {
    const double v = QLocale().toDouble(text.trimmed(), ok);
    return *ok ? v : text.trimmed().toDouble(ok);
}
enum Col { ColName, ColValue, ColVary, ColFrom, ColTo, ColPoints, ColCount };

/// One CSV line (RFC 4180 quoting, as sweep.cpp's csv_field writes it).
QStringList splitCsv(const QString& line) {
    QStringList out;
    QString cell;
    bool quoted = false;
    for (int k = 0; k < line.size(); ++k) {
        const QChar c = line[k];
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (k + 1 < line.size() && line[k + 1] == QLatin1Char('"')) cell += c, ++k;
                else quoted = false;
            } else {
                cell += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            out << cell;
            cell.clear();
        } else {
            cell += c;
        }
    }
    out << cell;
    return out;
}

double number(const QString& s) {
    if (s == QStringLiteral("nan")) return std::nan("");
    bool ok = false;
    const double v = s.toDouble(&ok);
    return ok ? v : std::nan("");
}

/// Reads sweep.csv (design,<params>...,<quantities>...,status) or optimize.csv
/// (evaluation,<params>...,objective,status); `column` names the quantity column.
std::vector<SweepDock::Point> readTable(const QString& file, int params, const QString& column) {
    std::vector<SweepDock::Point> rows;
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return rows;
    QTextStream in(&f);
    const QStringList header = splitCsv(in.readLine());
    const int q = header.indexOf(column);
    while (!in.atEnd()) {
        const QString line = in.readLine();
        if (line.trimmed().isEmpty()) continue;
        const QStringList cells = splitCsv(line);
        if (cells.size() != header.size()) continue;
        SweepDock::Point p;
        p.index = cells[0].toInt();
        for (int k = 0; k < params; ++k) p.params.push_back(number(cells[1 + k]));
        p.value = q >= 0 ? number(cells[q]) : std::nan("");
        p.status = cells.back();
        rows.push_back(p);
    }
    return rows;
}

QString folderName(const QString& prefix, int index, int count) {
    int digits = 4;  // sweep.hpp: at least four digits, more for more designs
    for (long long n = 10000; n < count; n *= 10) ++digits;
    return QStringLiteral("%1_%2").arg(prefix).arg(index, digits, 10, QLatin1Char('0'));
}
}  // namespace

SweepDock::SweepDock(editor::EditorDocument* doc, QWidget* parent)
    : QDockWidget(tr("Sweep / Optimize"), parent), doc_(doc) {
    setObjectName(QStringLiteral("SweepDock"));
    // the setup at the left, the plot at the right (the dock sits under the canvas)
    auto* split = new QSplitter(Qt::Horizontal);
    auto* w = new QWidget;
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(4, 4, 4, 4);
    split->addWidget(w);

    // ---- parameters
    table_ = new QTableWidget(0, ColCount);
    table_->setObjectName(QStringLiteral("sweepParameters"));
    table_->setHorizontalHeaderLabels({tr("Parameter"), tr("Value"), tr("Vary"), tr("From"), tr("To"), tr("Points")});
    table_->horizontalHeaderItem(ColValue)->setToolTip(tr("A number (µm, fs or no unit) or an expression such as 250 nm or 2 * w"));
    table_->horizontalHeaderItem(ColPoints)->setToolTip(tr("Sweep: values from From to To inclusive. Optimize: From..To are the bounds."));
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(ColName, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setMinimumSectionSize(36);
    table_->setMinimumWidth(200);
    table_->setMinimumHeight(90);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    v->addWidget(table_, 1);
    auto* prow = new QHBoxLayout;
    auto* addB = new QPushButton(tr("Add Parameter..."));
    addB->setObjectName(QStringLiteral("sweepAddParameter"));
    auto* removeB = new QPushButton(tr("Remove"));
    removeB->setObjectName(QStringLiteral("sweepRemoveParameter"));
    prow->addWidget(addB);
    prow->addWidget(removeB);
    prow->addStretch(1);
    v->addLayout(prow);
    connect(addB, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Add Parameter"), tr("Name (letters, digits, _):"),
                                                   QLineEdit::Normal, QString(), &ok);
        if (!ok || name.isEmpty()) return;
        const QString value = QInputDialog::getText(this, tr("Add Parameter"), tr("Value of %1 (number or expression):").arg(name),
                                                    QLineEdit::Normal, QStringLiteral("1"), &ok);
        if (ok) addParameter(name.trimmed(), value.trimmed());
    });
    connect(removeB, &QPushButton::clicked, this, [this] {
        const int row = table_->currentRow();
        if (row >= 0 && table_->item(row, ColName)) removeParameter(table_->item(row, ColName)->text());
    });
    connect(table_, &QTableWidget::cellChanged, this, &SweepDock::tableEdited);

    // ---- quantity and objective
    auto* form = new QFormLayout;
    auto* qrow = new QHBoxLayout;
    monitor_ = new QComboBox;
    monitor_->setObjectName(QStringLiteral("sweepMonitor"));
    monitor_->setToolTip(tr("The flux monitor whose (normalized) value is plotted"));
    wavelength_ = new QDoubleSpinBox;
    wavelength_->setObjectName(QStringLiteral("sweepWavelength"));
    wavelength_->setDecimals(4);
    wavelength_->setRange(0.01, 1000);
    wavelength_->setSingleStep(0.01);
    wavelength_->setSuffix(QStringLiteral(" µm"));
    qrow->addWidget(monitor_, 1);
    qrow->addWidget(new QLabel(tr("at")));
    qrow->addWidget(wavelength_);
    form->addRow(tr("Sweep plots"), qrow);
    auto* orow = new QHBoxLayout;
    objective_ = new QLineEdit;
    objective_->setObjectName(QStringLiteral("sweepObjective"));
    objective_->setToolTip(tr("An expression over the monitors at wavelengths in µm and the parameters, e.g. "
                              "T(1.55) or min(T(1.5), T(1.6)) - R(1.55)"));
    minimize_ = new QCheckBox(tr("Minimize"));
    minimize_->setObjectName(QStringLiteral("sweepMinimize"));
    orow->addWidget(objective_, 1);
    orow->addWidget(minimize_);
    form->addRow(tr("Optimize"), orow);
    auto* arow = new QHBoxLayout;
    maxRuns_ = new QSpinBox;
    maxRuns_->setObjectName(QStringLiteral("sweepMaxRuns"));
    maxRuns_->setRange(1, 10000);
    maxRuns_->setValue(40);
    maxRuns_->setPrefix(tr("at most "));
    maxRuns_->setSuffix(tr(" runs"));
    algorithm_ = new QComboBox;
    algorithm_->setObjectName(QStringLiteral("sweepAlgorithm"));
    for (const std::string& a : optimize_algorithms()) algorithm_->addItem(QString::fromStdString(a));
    algorithm_->setCurrentText(QStringLiteral("cobyla"));
    algorithm_->setToolTip(tr("bobyqa, cobyla, neldermead, sbplx: local; direct, crs2, esch, isres: global (NLopt)"));
    arow->addWidget(maxRuns_);
    arow->addWidget(algorithm_, 1);
    form->addRow(QString(), arow);
    v->addLayout(form);

    // ---- run
    auto* rrow = new QHBoxLayout;
    sweepButton_ = new QPushButton(tr("Sweep"));
    sweepButton_->setObjectName(QStringLiteral("sweepStart"));
    sweepButton_->setToolTip(tr("Run every design of the varied parameters' ranges"));
    optimizeButton_ = new QPushButton(tr("Optimize"));
    optimizeButton_->setObjectName(QStringLiteral("optimizeStart"));
    optimizeButton_->setToolTip(tr("Search the varied parameters' ranges for the best objective"));
    cancelButton_ = new QPushButton(tr("Cancel"));
    cancelButton_->setObjectName(QStringLiteral("sweepCancel"));
    cancelButton_->setEnabled(false);
    progress_ = new QProgressBar;
    progress_->setObjectName(QStringLiteral("sweepProgress"));
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    progress_->setFormat(QString());
    rrow->addWidget(sweepButton_);
    rrow->addWidget(optimizeButton_);
    rrow->addWidget(cancelButton_);
    rrow->addWidget(progress_, 1);
    v->addLayout(rrow);
    connect(sweepButton_, &QPushButton::clicked, this, [this] { startSweep(); });
    connect(optimizeButton_, &QPushButton::clicked, this, [this] { startOptimize(); });
    connect(cancelButton_, &QPushButton::clicked, this, &SweepDock::cancel);
    status_ = new QLabel(tr("Tick Vary for one or two parameters, then Sweep or Optimize."));
    status_->setObjectName(QStringLiteral("sweepStatus"));
    status_->setWordWrap(true);
    v->addWidget(status_);

    plot_ = new QCustomPlot;
    plot_->setObjectName(QStringLiteral("sweepPlot"));
    plot_->setMinimumSize(260, 200);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setToolTip(tr("Click a point to open that design"));
    // the plot with a line above it that says when its points are not of the open project
    auto* plotBox = new QWidget;
    auto* pv = new QVBoxLayout(plotBox);
    pv->setContentsMargins(0, 0, 0, 0);
    stale_ = new QLabel;
    stale_->setObjectName(QStringLiteral("sweepStale"));
    stale_->setWordWrap(true);
    stale_->setStyleSheet(QStringLiteral("QLabel { color: #8a5300; }"));
    stale_->setVisible(false);
    pv->addWidget(stale_);
    pv->addWidget(plot_, 1);
    split->addWidget(plotBox);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({400, 600});
    connect(plot_, &QCustomPlot::mousePress, this, &SweepDock::plotClicked);
    setWidget(split);

    job_.onNews([this](News& news) { takeNews(news); });
    job_.onFinished([this](editor::JobOutcome<Outcome>& o) { jobFinished(o); });
    connect(doc_, &editor::EditorDocument::changed, this, [this] {
        rebuildTable();
        rebuildMonitors();
        updateStale();
    });
    connect(doc_, &editor::EditorDocument::filePathChanged, this, &SweepDock::updateStale);
    rebuildTable();
    rebuildMonitors();
}

SweepDock::~SweepDock() { job_.cancelAndDiscard(); }

QString SweepDock::statusText() const { return status_->text(); }

QString SweepDock::staleText() const { return stale_->isHidden() ? QString() : stale_->text(); }

std::shared_ptr<const Project> SweepDock::comparable(const Project& p) const {
    ParameterOverrides o;
    for (const QString& a : sweptOverrides_) {
        const qsizetype eq = a.indexOf(QLatin1Char('='));
        o.emplace_back(a.left(eq).toStdString(), a.mid(eq + 1).toStdString());
    }
    try {
        return std::make_shared<const Project>(with_parameters(p, o, label().toStdString()));
    } catch (const std::exception&) {
        return nullptr;  // e.g. a varied parameter removed: not the swept project
    }
}

void SweepDock::updateStale() {
    QString text;
    if (!points_.empty() && !job_.isRunning()) {
        const QString file = doc_->filePath();
        const QString name = sweptFile_.isEmpty() ? tr("an untitled project") : QFileInfo(sweptFile_).fileName();
        if (file != sweptFile_) {
            // e.g. a design opened from the plot, or another project
            text = (optimizing_ ? tr("Optimization of %1, not of the open project.") : tr("Sweep of %1, not of the open project."))
                       .arg(name);
        } else if (sweptFrom_) {
            const auto now = comparable(doc_->project());
            if (!now || !(*now == *sweptFrom_))
                text = optimizing_ ? tr("Optimized before the last edit: the points are of the project as it was then.")
                                   : tr("Swept before the last edit: the points are of the project as it was then.");
        }
    }
    stale_->setText(text);
    stale_->setVisible(!text.isEmpty());
}

void SweepDock::setSettingsStore(std::function<std::unique_ptr<QSettings>()> store) {
    settings_ = std::move(store);
    if (!settings_) return;
    {
        const auto s = settings_();
        const QString monitor = s->value(QStringLiteral("sweep/monitor")).toString();
        if (monitor_->findText(monitor) >= 0) monitor_->setCurrentText(monitor);
        const double wl = s->value(QStringLiteral("sweep/wavelength"), 0.0).toDouble();
        if (wl >= wavelength_->minimum() && wl <= wavelength_->maximum() && wl > 0) wavelength_->setValue(wl);
        const QString objective = s->value(QStringLiteral("sweep/objective")).toString();
        if (!objective.isEmpty()) objective_->setText(objective);
        minimize_->setChecked(s->value(QStringLiteral("sweep/minimize"), false).toBool());
        maxRuns_->setValue(s->value(QStringLiteral("sweep/maxRuns"), 40).toInt());
        const QString algorithm = s->value(QStringLiteral("sweep/algorithm")).toString();
        if (algorithm_->findText(algorithm) >= 0) algorithm_->setCurrentText(algorithm);
    }
    // written on every change from now on
    connect(monitor_, &QComboBox::currentTextChanged, this, &SweepDock::saveSettings);
    connect(wavelength_, &QDoubleSpinBox::valueChanged, this, &SweepDock::saveSettings);
    connect(objective_, &QLineEdit::editingFinished, this, &SweepDock::saveSettings);
    connect(minimize_, &QCheckBox::toggled, this, &SweepDock::saveSettings);
    connect(maxRuns_, &QSpinBox::valueChanged, this, &SweepDock::saveSettings);
    connect(algorithm_, &QComboBox::currentTextChanged, this, &SweepDock::saveSettings);
}

void SweepDock::saveSettings() const {
    if (!settings_) return;
    const auto s = settings_();
    if (!monitor_->currentText().isEmpty()) s->setValue(QStringLiteral("sweep/monitor"), monitor_->currentText());
    s->setValue(QStringLiteral("sweep/wavelength"), wavelength_->value());
    s->setValue(QStringLiteral("sweep/objective"), objective_->text());
    s->setValue(QStringLiteral("sweep/minimize"), minimize_->isChecked());
    s->setValue(QStringLiteral("sweep/maxRuns"), maxRuns_->value());
    s->setValue(QStringLiteral("sweep/algorithm"), algorithm_->currentText());
}
void SweepDock::setStatus(const QString& text) { status_->setText(text); }

QString SweepDock::label() const {
    return doc_->filePath().isEmpty() ? QStringLiteral("Untitled.glproj") : doc_->filePath();
}

QString SweepDock::defaultOutDir(const QString& suffix) const {
    const QString path = doc_->filePath();
    if (path.isEmpty())
        return QDir(QStandardPaths::writableLocation(QStandardPaths::TempLocation))
            .filePath(QStringLiteral("golightly-untitled") + suffix);
    return resultsFolderFor(path, suffix);  // the user's documents for an installed example
}

// ---------------------------------------------------------------- parameters

void SweepDock::rebuildTable() {
    rebuilding_ = true;
    const Project& p = doc_->project();
    table_->setRowCount(int(p.parameters.size()));
    for (int r = 0; r < int(p.parameters.size()); ++r) {
        const Parameter& prm = p.parameters[std::size_t(r)];
        const QString name = QString::fromStdString(prm.name);
        if (!ranges_.contains(name)) {
            Range rg;
            const double v = prm.value;
            rg.from = v != 0 ? 0.8 * v : -1;
            rg.to = v != 0 ? 1.2 * v : 1;
            if (rg.from > rg.to) std::swap(rg.from, rg.to);
            ranges_[name] = rg;
        }
        const Range& rg = ranges_[name];
        auto* nameItem = new QTableWidgetItem(name);
        nameItem->setFlags(nameItem->flags() & ~Qt::ItemIsEditable);
        table_->setItem(r, ColName, nameItem);
        const QString valueText = prm.text.empty() ? QString::number(prm.value, 'g', 10)
                                                   : QString::fromStdString(prm.text);
        auto* valueItem = new QTableWidgetItem(valueText);
        valueItem->setToolTip(tr("= %1").arg(golightly::ui_number(prm.value, 'g', 10)));
        table_->setItem(r, ColValue, valueItem);
        auto* vary = new QTableWidgetItem;
        vary->setFlags((vary->flags() | Qt::ItemIsUserCheckable) & ~Qt::ItemIsEditable);
        vary->setCheckState(rg.vary ? Qt::Checked : Qt::Unchecked);
        table_->setItem(r, ColVary, vary);
        table_->setItem(r, ColFrom, new QTableWidgetItem(golightly::ui_number(rg.from, 'g', 8)));
        table_->setItem(r, ColTo, new QTableWidgetItem(golightly::ui_number(rg.to, 'g', 8)));
        table_->setItem(r, ColPoints, new QTableWidgetItem(QString::number(rg.points)));
    }
    rebuilding_ = false;
}

void SweepDock::rebuildMonitors() {
    const Project& p = doc_->project();
    const QString current = monitor_->currentText();
    QStringList names;
    for (const Monitor& m : p.monitors)
        if (m.type == MonitorType::Flux || m.type == MonitorType::FluxBox) names << QString::fromStdString(m.name);
    QStringList old;
    for (int k = 0; k < monitor_->count(); ++k) old << monitor_->itemText(k);
    if (old != names) {
        monitor_->clear();
        monitor_->addItems(names);
        // default: the first monitor that is not the normalization's incident monitor
        QString pick = names.value(0);
        const QString incident = QString::fromStdString(p.run.normalization.incident_monitor.value_or(std::string()));
        for (const QString& n : names)
            if (n != incident) {
                pick = n;
                break;
            }
        monitor_->setCurrentText(names.contains(current) ? current : pick);
    }
    const double lo = p.run.spectrum.wavelength_min, hi = p.run.spectrum.wavelength_max;
    if (wavelength_->minimum() != lo || wavelength_->maximum() != hi) {
        const bool inside = wavelength_->value() >= lo && wavelength_->value() <= hi;
        wavelength_->setRange(lo, hi);
        if (!inside) wavelength_->setValue(0.5 * (lo + hi));
    }
    const QString m = monitor_->currentText();
    if (objective_->text().isEmpty() && !m.isEmpty() && valid_parameter_name(m.toStdString()))
        objective_->setText(QStringLiteral("%1(%2)").arg(m).arg(wavelength_->value(), 0, 'g', 6));
}

void SweepDock::tableEdited(int row, int column) {
    if (rebuilding_) return;
    QTableWidgetItem* nameItem = table_->item(row, ColName);
    QTableWidgetItem* item = table_->item(row, column);
    if (!nameItem || !item) return;
    const QString name = nameItem->text();
    Range& rg = ranges_[name];
    bool ok = true;
    switch (column) {
    case ColValue: {
        // after the edit has finished: the edit rebuilds the table, and the edited item
        // must not be replaced while its own change is being signalled
        const QString text = item->text().trimmed();
        QTimer::singleShot(0, this, [this, name, text] {
            if (!setParameterValue(name, text)) rebuildTable();
        });
        return;
    }
    case ColVary: rg.vary = item->checkState() == Qt::Checked; return;
    case ColFrom: rg.from = localeNumber(item->text(), &ok); break;
    case ColTo: rg.to = localeNumber(item->text(), &ok); break;
    case ColPoints: rg.points = std::max(1, item->text().toInt(&ok)); break;
    default: return;
    }
    if (!ok) {
        setStatus(tr("%1: not a number").arg(item->text()));
        QTimer::singleShot(0, this, &SweepDock::rebuildTable);
    }
}

bool SweepDock::applyEdit(const Project& edited, const QString& undoText) {
    try {
        // re-evaluate every expression (and validate) as a loaded project is
        const Project after = with_parameters(edited, {}, label().toStdString());
        doc_->replaceProject(after, undoText);
        return true;
    } catch (const std::exception& e) {
        setStatus(QString::fromStdString(e.what()));
        return false;
    }
}

bool SweepDock::addParameter(const QString& name, const QString& valueText) {
    const std::string n = name.toStdString();
    if (!valid_parameter_name(n)) {
        setStatus(tr("\"%1\" is not a valid parameter name (letters, digits and _, not starting with a digit; not a "
                     "unit or function name)").arg(name));
        return false;
    }
    Project p = doc_->project();
    for (const Parameter& prm : p.parameters)
        if (prm.name == n) {
            setStatus(tr("The project has a parameter %1 already.").arg(name));
            return false;
        }
    Parameter prm;
    prm.name = n;
    bool isNumber = false;
    const double v = valueText.toDouble(&isNumber);
    if (isNumber) prm.value = v;
    else prm.text = valueText.toStdString();
    p.parameters.push_back(prm);
    if (!applyEdit(p, tr("Add parameter %1").arg(name))) return false;
    setStatus(tr("Parameter %1 added.").arg(name));
    return true;
}

bool SweepDock::removeParameter(const QString& name) {
    Project p = doc_->project();
    const auto it = std::find_if(p.parameters.begin(), p.parameters.end(),
                                 [&](const Parameter& prm) { return prm.name == name.toStdString(); });
    if (it == p.parameters.end()) return false;
    p.parameters.erase(it);
    if (!applyEdit(p, tr("Remove parameter %1").arg(name))) {
        setStatus(tr("Cannot remove %1: %2").arg(name, status_->text()));
        return false;
    }
    ranges_.remove(name);
    setStatus(tr("Parameter %1 removed.").arg(name));
    return true;
}

bool SweepDock::setParameterValue(const QString& name, const QString& valueText) {
    Project p = doc_->project();
    bool found = false;
    for (Parameter& prm : p.parameters)
        if (prm.name == name.toStdString()) {
            found = true;
            bool isNumber = false;
            const double v = valueText.toDouble(&isNumber);
            if (isNumber && prm.text.empty() && v == prm.value) return true;  // unchanged
            prm.text = isNumber ? std::string() : valueText.toStdString();
            if (isNumber) prm.value = v;
        }
    if (!found) return false;
    return applyEdit(p, tr("Set parameter %1").arg(name));
}

void SweepDock::setRange(const QString& name, const Range& range) {
    ranges_[name] = range;
    rebuildTable();
}

SweepDock::Range SweepDock::range(const QString& name) const { return ranges_.value(name); }

void SweepDock::setQuantity(const QString& monitor, double wavelengthUm) {
    monitor_->setCurrentText(monitor);
    wavelength_->setValue(wavelengthUm);
}

void SweepDock::setObjective(const QString& expression, bool minimize, int maxRuns, const QString& algorithm) {
    objective_->setText(expression);
    minimize_->setChecked(minimize);
    maxRuns_->setValue(maxRuns);
    algorithm_->setCurrentText(algorithm);
    saveSettings();
}

// ---------------------------------------------------------------- running

bool SweepDock::startSweep(const QString& outDir, int threads) {
    return startWorker(false, outDir.isEmpty() ? defaultOutDir(QStringLiteral("_sweep")) : outDir, threads);
}

bool SweepDock::startOptimize(const QString& outDir, int threads) {
    return startWorker(true, outDir.isEmpty() ? defaultOutDir(QStringLiteral("_optimize")) : outDir, threads);
}

bool SweepDock::startWorker(bool optimize, const QString& outDir, int threads) {
    if (job_.isRunning()) {
        setStatus(tr("A sweep or optimization is running already."));
        return false;
    }
    const Project snapshot = doc_->project();
    QStringList varied;
    std::vector<Range> ranges;
    for (const Parameter& prm : snapshot.parameters) {
        const QString n = QString::fromStdString(prm.name);
        if (ranges_.value(n).vary) varied << n, ranges.push_back(ranges_.value(n));
    }
    if (varied.isEmpty()) {
        setStatus(tr("Tick Vary for at least one parameter (add one with Add Parameter... if the project has none)."));
        return false;
    }
    for (std::size_t k = 0; k < ranges.size(); ++k)
        if (!(ranges[k].from < ranges[k].to) && (optimize || ranges[k].points > 1)) {
            setStatus(tr("%1: From must be below To.").arg(varied[int(k)]));
            return false;
        }
    const QString monitor = monitor_->currentText();
    if (!optimize && monitor.isEmpty()) {
        setStatus(tr("The project has no flux monitor to plot."));
        return false;
    }
    if (optimize && objective_->text().trimmed().isEmpty()) {
        setStatus(tr("Give an objective, e.g. T(1.55)."));
        return false;
    }
    optimizing_ = optimize;
    outDir_ = outDir;
    varied_ = varied;
    variedRanges_ = ranges;
    points_.clear();
    updateStale();
    sweptFile_ = doc_->filePath();
    sweptOverrides_.clear();
    for (const Parameter& prm : snapshot.parameters)
        if (varied.contains(QString::fromStdString(prm.name)))
            sweptOverrides_ << QString::fromStdString(prm.name + "=" + parameter_text(prm.value));
    sweptFrom_ = comparable(snapshot);
    designFraction_ = 0;
    const double wl = wavelength_->value();
    quantityName_ = optimize ? objective_->text().trimmed()
                             : QStringLiteral("%1@%2").arg(monitor, QString::asprintf("%g", wl));
    total_ = 1;
    if (optimize) total_ = maxRuns_->value();
    else
        for (const Range& r : ranges) total_ *= std::max(1, r.points);
    rebuildPlot();

    std::vector<SweepParameter> sweepParams;
    std::vector<BoundParameter> bounds;
    try {
        for (int k = 0; k < varied.size(); ++k) {
            const Range& r = ranges[std::size_t(k)];
            if (optimize)
                bounds.push_back(parse_bound_parameter(QStringLiteral("%1=%2..%3").arg(varied[k])
                                                           .arg(r.from, 0, 'g', 17).arg(r.to, 0, 'g', 17).toStdString()));
            else
                sweepParams.push_back(parse_sweep_parameter(QStringLiteral("%1=%2:%3:%4").arg(varied[k])
                                                                .arg(r.from, 0, 'g', 17).arg(r.to, 0, 'g', 17)
                                                                .arg(r.points).toStdString()));
        }
    } catch (const std::exception& e) {
        setStatus(QString::fromStdString(e.what()));
        return false;
    }
    const std::string file = label().toStdString();
    const std::filesystem::path out = outDir.toStdString();
    const int nParams = int(varied.size());
    const QString csv = QDir(outDir).filePath(optimize ? QStringLiteral("optimize.csv") : QStringLiteral("sweep.csv"));
    const QString column = optimize ? QStringLiteral("objective") : quantityName_;
    const std::string objective = objective_->text().trimmed().toStdString();
    const bool minimize = minimize_->isChecked();
    const int maxEvals = maxRuns_->value();
    const std::string algorithm = algorithm_->currentText().toStdString();
    sweepButton_->setEnabled(false);
    optimizeButton_->setEnabled(false);
    cancelButton_->setEnabled(true);
    progress_->setValue(0);
    progress_->setFormat(tr("starting..."));
    setStatus(optimize ? tr("Optimizing %1 over %2 (at most %3 runs) into %4")
                             .arg(quantityName_, varied.join(QStringLiteral(", ")))
                             .arg(total_)
                             .arg(QDir::toNativeSeparators(outDir))
                       : tr("Sweeping %1 over %n design(s) into %2", nullptr, total_)
                             .arg(varied.join(QStringLiteral(", ")), QDir::toNativeSeparators(outDir)));
    clock_.start();
    job_.start([=](Job::Context& ctx) {
        std::atomic<bool>* cancel = ctx.cancelFlag();
        RunOptions ro;
        ro.threads = threads;
        ro.cancel = cancel;
        const bool twoPhases = snapshot.run.normalization.enabled;
        ro.progress = [&ctx, twoPhases, decay = snapshot.run.stop.decay_db](const ProgressInfo& p) {
            double f = p.max_steps > 0 ? double(p.step) / double(p.max_steps) : 0;
            if (decay > 0) f = std::max(f, std::min(1.0, p.energy_db / decay));
            f = std::clamp(f, 0.0, 1.0);
            if (twoPhases) f = p.phase == "reference" ? 0.5 * f : 0.5 + 0.5 * f;
            ctx.post([&](News& n) { n.designFraction = f; });
        };
        auto log = [&ctx, csv, nParams, column](const std::string&) {
            auto rows = readTable(csv, nParams, column);
            ctx.post([&](News& n) {
                n.rows = std::move(rows);
                n.designFraction = 0.0;
            });
        };
        bool ok = false;
        QString message;
        try {
            if (optimize) {
                OptimizeOptions o;
                o.out = out;
                o.objective = objective;
                o.minimize = minimize;
                o.max_evals = maxEvals;
                o.algorithm = algorithm;
                o.runner = in_process_runner(ro);
                o.log = log;
                o.cancel = cancel;
                const OptimizeReport r = run_optimize(snapshot, file, bounds, o);
                QStringList best;
                for (std::size_t k = 0; k < r.names.size(); ++k)
                    best << QStringLiteral("%1 = %2").arg(QString::fromStdString(r.names[k])).arg(golightly::ui_number(r.best[k], 'g', 6));
                message = QCoreApplication::translate("golightly::app::SweepDock",
                                                      "Best: %1; objective %2 at run %3 of %4 (%5). Click a point to open that design.")
                              .arg(best.join(QStringLiteral(", ")))
                              .arg(golightly::ui_number(r.best_objective, 'g', 6))
                              .arg(r.best_evaluation + 1)
                              .arg(r.evaluations)
                              .arg(QString::fromStdString(r.stop));
                ok = !cancel->load();
            } else {
                SweepOptions o;
                o.out = out;
                o.at_um = {wl};
                o.runner = in_process_runner(ro);
                o.log = log;
                o.cancel = cancel;
                const SweepReport r = run_sweep(snapshot, file, sweepParams, o);
                message = QCoreApplication::translate("golightly::app::SweepDock",
                                                      "%1 designs: %2 ran, %3 reused, %4 failed%5. Click a point to open that design.")
                              .arg(r.designs)
                              .arg(r.ran)
                              .arg(r.skipped)
                              .arg(r.failed)
                              .arg(r.cancelled ? QCoreApplication::translate("golightly::app::SweepDock", ", cancelled")
                                               : QString());
                ok = !r.cancelled && r.failed == 0;
            }
        } catch (const std::exception& e) {
            message = QString::fromStdString(e.what());
        }
        auto rows = readTable(csv, nParams, column);  // the designs done, also after an error
        ctx.post([&](News& n) { n.rows = std::move(rows); });
        return Outcome{ok, message};
    }, QStringLiteral("golightly-sweep"));
    return true;
}

void SweepDock::cancel() {
    if (!job_.isRunning()) return;
    job_.cancel();
    setStatus(tr("Cancelling: the running design stops, no other starts..."));
}

bool SweepDock::waitForFinished(int ms) { return job_.waitForFinished(ms); }

void SweepDock::takeNews(News& news) {
    if (news.designFraction) designFraction_ = *news.designFraction;
    if (news.rows) {
        points_ = std::move(*news.rows);
        rebuildPlot();
    }
    if (!job_.isRunning()) return;  // the last news: jobFinished follows
    const int finished = int(points_.size());
    const double overall = std::clamp((finished + designFraction_) / std::max(1, total_), 0.0, 1.0);
    const double elapsed = clock_.elapsed() / 1000.0;
    const double eta = overall > 0.02 ? elapsed * (1 - overall) / overall : -1;
    progress_->setValue(int(overall * 1000));
    progress_->setFormat((optimizing_ ? tr("run %1 of at most %2 — ETA %3") : tr("design %1 of %2 — ETA %3"))
                             .arg(std::min(total_, finished + 1))
                             .arg(total_)
                             .arg(formatEta(optimizing_ ? -1 : eta)));
}

void SweepDock::jobFinished(editor::JobOutcome<Outcome>& outcome) {
    const bool ok = outcome.result && outcome.result->ok;
    const QString message = outcome.result ? outcome.result->message : outcome.error;
    sweepButton_->setEnabled(true);
    optimizeButton_->setEnabled(true);
    cancelButton_->setEnabled(false);
    const bool cancelled = outcome.cancelled;
    progress_->setValue(ok ? 1000 : progress_->value());
    progress_->setFormat(cancelled ? tr("cancelled") : ok ? tr("done in %1").arg(formatEta(clock_.elapsed() / 1000.0))
                                                          : tr("finished with errors"));
    setStatus(message);
    updateStale();  // edited or another project opened while it ran
    Q_EMIT finished(ok, message);
}

// ---------------------------------------------------------------- the plot

void SweepDock::rebuildPlot() {
    plot_->clearPlottables();
    map_ = nullptr;
    if (scale_) {
        plot_->plotLayout()->remove(scale_);
        plot_->plotLayout()->simplify();
        scale_ = nullptr;
    }
    const bool map2d = !optimizing_ && varied_.size() == 2;
    if (map2d) {
        const int n0 = std::max(1, variedRanges_[0].points), n1 = std::max(1, variedRanges_[1].points);
        map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
        map_->setName(quantityName_);
        map_->data()->setSize(n0, n1);
        map_->data()->setRange(QCPRange(variedRanges_[0].from, variedRanges_[0].to),
                               QCPRange(variedRanges_[1].from, variedRanges_[1].to));
        for (int a = 0; a < n0; ++a)
            for (int b = 0; b < n1; ++b) map_->data()->setCell(a, b, std::nan(""));
        for (const Point& p : points_) {
            const int a = p.index / n1, b = p.index % n1;  // the last parameter varies fastest
            if (a < n0) map_->data()->setCell(a, b, p.value);
        }
        QCPColorGradient g(QCPColorGradient::gpJet);  // no white end: T = 1 must not look like an empty cell
        g.setNanHandling(QCPColorGradient::nhTransparent);
        map_->setInterpolate(false);
        scale_ = new QCPColorScale(plot_);
        plot_->plotLayout()->addElement(0, 1, scale_);
        scale_->setType(QCPAxis::atRight);
        scale_->axis()->setLabel(quantityName_);
        map_->setColorScale(scale_);
        map_->setGradient(g);  // after setColorScale: the scale's gradient is the one drawn
        map_->rescaleDataRange(true);
        plot_->xAxis->setLabel(varied_[0]);
        plot_->yAxis->setLabel(varied_[1]);
        plot_->rescaleAxes();
        // half a cell of margin so that the edge cells show whole
        const double h0 = n0 > 1 ? 0.5 * (variedRanges_[0].to - variedRanges_[0].from) / (n0 - 1) : 0.5;
        const double h1 = n1 > 1 ? 0.5 * (variedRanges_[1].to - variedRanges_[1].from) / (n1 - 1) : 0.5;
        plot_->xAxis->setRange(variedRanges_[0].from - h0, variedRanges_[0].to + h0);
        plot_->yAxis->setRange(variedRanges_[1].from - h1, variedRanges_[1].to + h1);
        plot_->replot();
        return;
    }
    // 1D: against the (first) parameter, or the evaluation number for several optimized ones
    const bool byIndex = optimizing_ ? varied_.size() != 1 : varied_.size() != 1;
    QCPGraph* g = plot_->addGraph();
    g->setName(quantityName_);
    g->setPen(QPen(QColor(31, 119, 180), 1.8));
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(31, 119, 180), Qt::white, 7));
    if (optimizing_) g->setLineStyle(QCPGraph::lsNone);
    QVector<double> x, y;
    std::vector<Point> sorted = points_;
    if (!byIndex) std::sort(sorted.begin(), sorted.end(), [](const Point& a, const Point& b) { return a.params[0] < b.params[0]; });
    for (const Point& p : sorted) {
        if (!std::isfinite(p.value)) continue;
        x.push_back(byIndex ? p.index + 1 : p.params[0]);
        y.push_back(p.value);
    }
    g->setData(x, y, true);
    if (optimizing_ && !points_.empty()) {
        // the best so far, ringed in red
        int best = -1;
        for (std::size_t k = 0; k < points_.size(); ++k)
            if (std::isfinite(points_[k].value) &&
                (best < 0 || (minimize_->isChecked() ? points_[k].value < points_[std::size_t(best)].value
                                                     : points_[k].value > points_[std::size_t(best)].value)))
                best = int(k);
        if (best >= 0) {
            QCPGraph* b = plot_->addGraph();
            b->setName(tr("best"));
            b->setLineStyle(QCPGraph::lsNone);
            b->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(214, 39, 40), 2.5), Qt::NoBrush, 13));
            const Point& p = points_[std::size_t(best)];
            b->setData({byIndex ? p.index + 1.0 : p.params[0]}, {p.value});
        }
    }
    plot_->xAxis->setLabel(byIndex ? (optimizing_ ? tr("Run") : tr("Design")) : varied_.value(0));
    plot_->yAxis->setLabel(quantityName_);
    plot_->rescaleAxes();
    if (!byIndex && !variedRanges_.empty()) {
        const double pad = 0.04 * (variedRanges_[0].to - variedRanges_[0].from);
        plot_->xAxis->setRange(variedRanges_[0].from - pad, variedRanges_[0].to + pad);
    }
    plot_->yAxis->scaleRange(1.15);
    plot_->replot();
}

QString SweepDock::designFile(int index) const {
    const QString prefix = optimizing_ ? QStringLiteral("eval") : QStringLiteral("design");
    const QString f = QDir(outDir_).filePath(folderName(prefix, index, total_) + QStringLiteral("/design.glproj"));
    return QFileInfo::exists(f) ? f : QString();
}

void SweepDock::plotClicked(QMouseEvent* e) {
    if (points_.empty() || e->button() != Qt::LeftButton) return;
    const QPointF pos = e->position();
    int index = -1;
    if (map_) {
        int a = 0, b = 0;
        map_->data()->coordToCell(plot_->xAxis->pixelToCoord(pos.x()), plot_->yAxis->pixelToCoord(pos.y()), &a, &b);
        const int n1 = std::max(1, variedRanges_[1].points);
        const int d = a * n1 + b;
        for (const Point& p : points_)
            if (p.index == d) index = d;
    } else {
        const bool byIndex = varied_.size() != 1;
        double bestDist = 12;  // pixels
        for (const Point& p : points_) {
            if (!std::isfinite(p.value)) continue;
            const double px = plot_->xAxis->coordToPixel(byIndex ? p.index + 1 : p.params[0]);
            const double py = plot_->yAxis->coordToPixel(p.value);
            const double d = std::hypot(px - pos.x(), py - pos.y());
            if (d < bestDist) bestDist = d, index = p.index;
        }
    }
    if (index < 0) return;
    const QString file = designFile(index);
    if (file.isEmpty()) return;
    Q_EMIT openDesignRequested(file);
}

}  // namespace golightly::app
