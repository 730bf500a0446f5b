#include "monitors_dock.hpp"
#include "far_field_view.hpp"
#include "ui_number.hpp"

#include <QLocale>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonArray>
#include <QTableWidget>
#include <QDir>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSaveFile>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QTextStream>
#include <QTimer>
#include <QVBoxLayout>

#include "qcustomplot_include.hpp"

#include <algorithm>
#include <cmath>

namespace golightly::plots {

namespace {
/// A monitor's `kind` (project file: transmission, reflection, flux, absorption,
/// scattering, mode) in the user's language, for legends; another value as it is.
QString kindText(const std::string& kind) {
    if (kind == "transmission") return MonitorsDock::tr("transmission");
    if (kind == "reflection") return MonitorsDock::tr("reflection");
    if (kind == "flux") return MonitorsDock::tr("flux");
    if (kind == "absorption") return MonitorsDock::tr("absorption");
    if (kind == "scattering") return MonitorsDock::tr("scattering");
    if (kind == "mode") return MonitorsDock::tr("mode");
    return QString::fromStdString(kind);
}
const QColor kPalette[] = {QColor(31, 119, 180), QColor(214, 39, 40), QColor(44, 160, 44), QColor(255, 127, 14),
                           QColor(148, 103, 189), QColor(140, 86, 75), QColor(227, 119, 194), QColor(127, 127, 127)};

QCPGraph* graphNamed(QCustomPlot* plot, const QString& name) {
    for (int g = 0; g < plot->graphCount(); ++g)
        if (plot->graph(g)->name() == name) return plot->graph(g);
    QCPGraph* gr = plot->addGraph();
    gr->setName(name);
    plot->legend->setVisible(true);
    gr->setPen(QPen(kPalette[(plot->graphCount() - 1) % 8], 1.8));
    return gr;
}

/// Value of a graph at key x (nearest point), NaN if empty.
double valueAt(QCPGraph* g, double x) {
    auto data = g->data();
    if (data->isEmpty()) return std::nan("");
    auto it = data->findBegin(x, false);
    if (it == data->constEnd()) it = data->constEnd() - 1;
    auto best = it;
    if (it != data->constBegin()) {
        auto prev = it - 1;
        if (std::abs(prev->key - x) < std::abs(it->key - x)) best = prev;
    }
    return best->value;
}
}  // namespace

MonitorsDock::MonitorsDock(QWidget* parent) : QDockWidget(tr("Monitors"), parent) {
    setObjectName(QStringLiteral("MonitorsDock"));
    auto* w = new QWidget;
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(4, 4, 4, 4);
    summary_ = new QLabel(tr("No run yet."));
    summary_->setWordWrap(true);
    summary_->setObjectName(QStringLiteral("monitorsSummary"));
    v->addWidget(summary_);
    // one-click normalization (raw fluxes are meaningless numbers, ~1e-38)
    offer_ = new QWidget;
    offer_->setObjectName(QStringLiteral("normalizationOffer"));
    offer_->setAutoFillBackground(true);
    QPalette pal = offer_->palette();
    pal.setColor(QPalette::Window, QColor(255, 244, 214));
    pal.setColor(QPalette::WindowText, QColor(60, 45, 0));
    offer_->setPalette(pal);
    auto* offerRow = new QHBoxLayout(offer_);
    offerRow->setContentsMargins(6, 3, 6, 3);
    auto* offerText = new QLabel(tr("These are raw fluxes (normalization is off). Normalize to get transmission and "
                                    "reflection between 0 and 1."));
    offerText->setWordWrap(true);
    auto* offerButton = new QPushButton(tr("Normalize"));
    offerButton->setObjectName(QStringLiteral("normalizeButton"));
    offerButton->setToolTip(tr("Turn on the normalization (reference) run in one step; applies from the next run"));
    connect(offerButton, &QPushButton::clicked, this, &MonitorsDock::normalizationRequested);
    offerRow->addWidget(offerText, 1);
    offerRow->addWidget(offerButton);
    offer_->setVisible(false);
    v->addWidget(offer_);
    tabs_ = new QTabWidget;
    // the dock shares the bottom with the 3D view (about 460 px of a 1560 px window): only
    // the pages the project fills have tabs (showPagesFor), each with a tool tip saying what
    // it shows; should they still not fit, the names are elided (the tool tip keeps the
    // page's purpose) before scroll arrows appear
    tabs_->setElideMode(Qt::ElideRight);
    tabs_->setUsesScrollButtons(true);
    spectra_ = makePlot(tr("Wavelength (µm)"), tr("Flux (raw)"));
    time_ = makePlot(tr("Time (fs)"), tr("Field at the probe (V/m, A/m)"));
    energy_ = makePlot(tr("Time (fs)"), tr("Energy below peak (dB)"));
    energy_->yAxis->setRangeReversed(true);  // decay goes down
    tabs_->addTab(spectra_, tr("Spectra"));
    tabs_->setTabToolTip(0, tr("Spectra of the flux monitors"));
    tabs_->addTab(time_, tr("Time"));
    tabs_->setTabToolTip(1, tr("Time series of the time monitors"));
    tabs_->addTab(energy_, tr("Energy"));
    tabs_->setTabToolTip(2, tr("Energy decay of the run"));
    cross_ = makePlot(tr("Wavelength (µm)"), tr("Cross-section (µm²)"));
    cross_->setObjectName(QStringLiteral("crossSectionPlot"));
    tabs_->addTab(cross_, tr("Cross-sections"));
    tabs_->setTabToolTip(3, tr("Cross-sections of the flux boxes (absorption, scattering)"));
    resonances_ = new QTableWidget(0, 6);
    resonances_->setObjectName(QStringLiteral("resonanceTable"));
    resonances_->setHorizontalHeaderLabels(
        {tr("Monitor"), tr("Wavelength (µm)"), tr("Frequency (THz)"), tr("Q"), tr("Amplitude"), tr("Error")});
    resonances_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    resonances_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    resonances_->setSelectionBehavior(QAbstractItemView::SelectRows);
    resonances_->setSelectionMode(QAbstractItemView::SingleSelection);
    resonances_->setToolTip(tr("Resonances found by Harminv in the time monitors with \"resonances\"; "
                               "select one to mark its wavelength on the spectra, double-click it for a field "
                               "picture of the mode (a second short run with a narrow-band source)"));
    connect(resonances_, &QTableWidget::itemSelectionChanged, this, &MonitorsDock::markResonance);
    connect(resonances_, &QTableWidget::itemActivated, this,
            [this](QTableWidgetItem* item) { requestResonancePicture(item->row()); });
    tabs_->addTab(resonances_, tr("Resonances"));
    tabs_->setTabToolTip(4, tr("Resonances found by Harminv in the time monitors"));
    farView_ = new FarFieldView;
    farView_->setObjectName(QStringLiteral("farFieldPage"));
    farField_ = farView_->cartesianPlot();
    farField_->installEventFilter(this);  // re-layout when shown or resized
    connect(farField_, &QCustomPlot::mouseMove, this,
            [this](QMouseEvent* e) { updateCursor(farField_, farField_->xAxis->pixelToCoord(e->position().x())); });
    tabs_->addTab(farView_, tr("Far field"));
    tabs_->setTabToolTip(5, tr("Far fields of the flux boxes with far_field"));
    {
        auto* page = new QWidget;
        auto* pv = new QVBoxLayout(page);
        pv->setContentsMargins(0, 0, 0, 0);
        auto* top = new QHBoxLayout;
        top->addWidget(new QLabel(tr("Wavelength")));
        diffractionWl_ = new QComboBox;
        diffractionWl_->setObjectName(QStringLiteral("diffractionWavelength"));
        top->addWidget(diffractionWl_);
        top->addStretch(1);
        pv->addLayout(top);
        diffraction_ = makePlot(tr("Diffraction order"), tr("Power fraction"));
        diffraction_->setObjectName(QStringLiteral("diffractionPlot"));
        diffraction_->setToolTip(tr("Power per propagating Floquet order of each diffraction monitor at the chosen "
                                    "wavelength (golightly-cli diffraction prints the table)"));
        pv->addWidget(diffraction_, 1);
        connect(diffractionWl_, qOverload<int>(&QComboBox::currentIndexChanged), this,
                [this](int i) { showDiffraction(i); });
        tabs_->addTab(page, tr("Diffraction"));
        tabs_->setTabToolTip(6, tr("Diffraction orders of the diffraction monitors"));
    }
    modes_ = makePlot(tr("Wavelength (µm)"), tr("Mode power |a|² (raw)"));
    modes_->setObjectName(QStringLiteral("modeAmplitudePlot"));
    modes_->setToolTip(tr("Power in each mode of the mode monitors: forward |a+|² solid, backward |a-|² dashed "
                          "(spectra.csv: <monitor>_m<k>_fwd_re ...)"));
    tabs_->addTab(modes_, tr("Mode amplitudes"));
    tabs_->setTabToolTip(7, tr("Mode amplitudes of the mode monitors"));
    v->addWidget(tabs_, 1);
    auto* row = new QHBoxLayout;
    readout_ = new QLabel;
    readout_->setObjectName(QStringLiteral("cursorReadout"));
    row->addWidget(readout_, 1);
    auto* fit = new QPushButton(tr("Fit"));
    fit->setToolTip(tr("Rescale the axes to the data"));
    connect(fit, &QPushButton::clicked, this, [this] {
        QCustomPlot* p = currentPlot();
        if (p && farView_->currentPlot() == p && p != farField_) return;  // the polar and map ranges are fixed
        if (!p) return;
        p->rescaleAxes();
        p->replot();
    });
    auto* exp = new QPushButton(tr("Export..."));
    exp->setToolTip(tr("Save the current plot as PNG, PDF or CSV"));
    connect(exp, &QPushButton::clicked, this, &MonitorsDock::exportDialog);
    row->addWidget(fit);
    row->addWidget(exp);
    v->addLayout(row);
    setWidget(w);
    replotTimer_ = new QTimer(this);
    replotTimer_->setInterval(150);
    replotTimer_->setSingleShot(true);
    connect(replotTimer_, &QTimer::timeout, this, &MonitorsDock::replotDirty);
    connect(tabs_, &QTabWidget::currentChanged, this, [this] { replotDirty(); });
}

void MonitorsDock::markDirty(QCustomPlot* plot) {
    dirty_[plot == spectra_ ? 0 : plot == time_ ? 1 : plot == energy_ ? 2 : plot == cross_ ? 3 : plot == modes_ ? 5 : 4] =
        true;
    if (!replotTimer_->isActive()) replotTimer_->start();
}

void MonitorsDock::replotDirty() {
    QCustomPlot* plots[6] = {spectra_, time_, energy_, cross_, farField_, modes_};
    for (int k = 0; k < 6; ++k) {
        if (!dirty_[k] || !plots[k]->isVisible()) continue;  // hidden tabs replot when shown
        dirty_[k] = false;
        plots[k]->rescaleAxes();
        plots[k]->replot();
    }
}

QCustomPlot* MonitorsDock::makePlot(const QString& xLabel, const QString& yLabel) {
    auto* p = new QCustomPlot;
    p->setMinimumSize(260, 180);
    p->xAxis->setLabel(xLabel);
    p->yAxis->setLabel(yLabel);
    p->legend->setVisible(true);
    QFont lf = p->legend->font();
    lf.setPointSizeF(8);
    p->legend->setFont(lf);
    p->legend->setBrush(QColor(255, 255, 255));
    // the legend sits in its own row under the axes, never over the curves
    auto* legendRow = new QCPLayoutGrid;
    p->plotLayout()->addElement(1, 0, legendRow);
    legendRow->setMargins(QMargins(5, 0, 5, 3));
    // an empty grid's maximum width hint is ~0, which would squeeze the axes above it into a
    // sliver: give the row an explicit (large) maximum instead
    legendRow->setMaximumSize(100000, 100000);
    p->axisRect()->insetLayout()->take(p->legend);
    legendRow->addElement(0, 0, p->legend);
    p->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    p->legend->setWrap(4);
    p->plotLayout()->setRowStretchFactor(1, 0.001);
    p->legend->setVisible(false);  // shown with the first curve (an empty legend upsets the layout)
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom | QCP::iSelectPlottables);
    p->setNoAntialiasingOnDrag(true);
    p->installEventFilter(this);  // re-layout when shown or resized (showEvent below)
    connect(p, &QCustomPlot::mouseMove, this, [this, p](QMouseEvent* e) {
        updateCursor(p, p->xAxis->pixelToCoord(e->position().x()));
    });
    return p;
}

bool MonitorsDock::eventFilter(QObject* o, QEvent* e) {
    if (e->type() == QEvent::Show || e->type() == QEvent::Resize)
        if (auto* plot = qobject_cast<QCustomPlot*>(o)) plot->replot(QCustomPlot::rpQueuedReplot);  // no stale picture
    return QDockWidget::eventFilter(o, e);
}

void MonitorsDock::updateCursor(QCustomPlot* plot, double x) {
    QStringList parts{QStringLiteral("%1 = %2").arg(plot->xAxis->label()).arg(golightly::ui_number(x, 'g', 5))};
    for (int g = 0; g < plot->graphCount(); ++g) {
        const double y = valueAt(plot->graph(g), x);
        if (std::isfinite(y)) parts << QStringLiteral("%1: %2").arg(plot->graph(g)->name()).arg(golightly::ui_number(y, 'g', 5));
    }
    readout_->setText(parts.join(QStringLiteral("   ")));
}

void MonitorsDock::setDimensions(int dims) {
    dims_ = dims;
    cross_->yAxis->setLabel(dims == 3 ? tr("Cross-section (µm²)") : tr("Cross-section per length (µm)"));
    markDirty(cross_);
}

void MonitorsDock::clear() {
    resonances_->setRowCount(0);
    farView_->clear();
    setDiffraction({});
    if (resonanceMark_) {
        spectra_->removeItem(resonanceMark_);
        resonanceMark_ = nullptr;
    }
    for (QCustomPlot* p : {spectra_, time_, energy_, cross_, farField_, modes_}) {
        p->clearGraphs();
        p->legend->setVisible(false);
        p->replot(QCustomPlot::rpQueuedReplot);
    }
    comparable_ = true;
    normalizedShown_ = false;
    modesNormalized_ = false;
    summary_->setText(tr("Running..."));
    readout_->clear();
    updatePages();
}

void MonitorsDock::reset(const QString& summary) {
    clear();
    for (QCustomPlot* p : {spectra_, time_, energy_, cross_, farField_, modes_}) {
        p->rescaleAxes();
        p->replot();  // now: a hidden or resized plot shows no stale picture
    }
    setNormalizationOffer(false);
    spectra_->yAxis->setLabel(tr("Flux (raw)"));
    modes_->yAxis->setLabel(tr("Mode power |a|² (raw)"));
    summary_->setText(summary.isEmpty() ? tr("No run yet.") : summary);
}

void MonitorsDock::setNormalizationOffer(bool show) { offer_->setVisible(show); }
bool MonitorsDock::normalizationOffered() const { return !offer_->isHidden(); }

void MonitorsDock::setSpectra(const std::vector<double>& frequencyHz, const std::vector<FluxSpectrumResult>& spectra,
                              bool normalized) {
    if (normalized != normalizedShown_) spectra_->clearGraphs();
    normalizedShown_ = normalized;
    const double c0 = 299792458.0;
    bool anyCross = false;
    for (const FluxSpectrumResult& s : spectra) {
        // flux boxes with cross-sections (a TF/SF run, or a normalized one): their own plot
        if (s.type == MonitorType::FluxBox && !s.normalized.empty()) {
            QVector<double> keys, values;
            for (std::size_t f = 0; f < frequencyHz.size() && f < s.normalized.size(); ++f) {
                keys.push_back(c0 / frequencyHz[f] * 1e6);
                values.push_back(s.normalized[f]);
            }
            QString name = QString::fromStdString(s.name);
            if (!s.kind.empty()) name += QStringLiteral(" (%1)").arg(kindText(s.kind));
            graphNamed(cross_, name)->setData(keys, values);
            anyCross = true;
            continue;
        }
        const std::vector<double>& y = normalized && !s.normalized.empty() ? s.normalized : s.flux;
        QVector<double> keys, values;
        for (std::size_t f = 0; f < frequencyHz.size() && f < y.size(); ++f) {
            keys.push_back(c0 / frequencyHz[f] * 1e6);
            values.push_back(y[f]);
        }
        QString name = QString::fromStdString(s.name);
        if (!s.kind.empty() && normalized) name += QStringLiteral(" (%1)").arg(kindText(s.kind));
        graphNamed(spectra_, name)->setData(keys, values);  // sorts by key
    }
    spectra_->yAxis->setLabel(normalized ? tr("T, R (normalized)") : tr("Flux (raw)"));
    if (!comparable_) spectra_->yAxis->setLabel(spectra_->yAxis->label() + tr(" - not comparable (edited)"));
    markDirty(spectra_);
    if (anyCross) {
        markDirty(cross_);
        // only cross-sections (a scattering run): show them rather than an empty spectra plot
        if (spectra_->graphCount() == 0 && tabs_->currentWidget() == spectra_) tabs_->setCurrentWidget(cross_);
    }
}

QCPGraph* MonitorsDock::modeGraph(const QString& monitor, int mode, bool backward) {
    const QString name = backward ? tr("%1 mode %2 backward").arg(monitor).arg(mode)
                                  : tr("%1 mode %2 forward").arg(monitor).arg(mode);
    for (int g = 0; g < modes_->graphCount(); ++g)
        if (modes_->graph(g)->name() == name) return modes_->graph(g);
    // one colour per monitor and mode (the pair's forward curve decides it): the backward
    // curve dashed in the colour of its forward one
    int pairs = 0;
    for (int g = 0; g < modes_->graphCount(); ++g)
        if (!modes_->graph(g)->property("backward").toBool()) ++pairs;
    int colour = pairs;
    const QString partner = backward ? tr("%1 mode %2 forward").arg(monitor).arg(mode)
                                     : tr("%1 mode %2 backward").arg(monitor).arg(mode);
    for (int g = 0; g < modes_->graphCount(); ++g)
        if (modes_->graph(g)->name() == partner) colour = modes_->graph(g)->property("colour").toInt();
    QCPGraph* gr = modes_->addGraph();
    gr->setName(name);
    gr->setProperty("backward", backward);
    gr->setProperty("colour", colour);
    gr->setPen(QPen(kPalette[colour % 8], 1.8, backward ? Qt::DashLine : Qt::SolidLine));
    modes_->legend->setVisible(true);
    return gr;
}

void MonitorsDock::setModeAmplitudes(const std::vector<double>& frequencyHz,
                                     const std::vector<ModeCoefficientsResult>& modes, bool normalized) {
    if (normalized != modesNormalized_) modes_->clearGraphs();  // raw and normalized do not mix
    modesNormalized_ = normalized;
    const double c0 = 299792458.0;
    for (const ModeCoefficientsResult& m : modes) {
        QVector<double> keys, fwd, bwd;
        for (std::size_t f = 0; f < frequencyHz.size() && f < m.fwd.size() && f < m.bwd.size(); ++f) {
            keys.push_back(c0 / frequencyHz[f] * 1e6);
            fwd.push_back(std::norm(m.fwd[f]));
            bwd.push_back(std::norm(m.bwd[f]));
        }
        const QString name = QString::fromStdString(m.name);
        modeGraph(name, m.mode_index, false)->setData(keys, fwd);  // sorts by key
        modeGraph(name, m.mode_index, true)->setData(keys, bwd);
    }
    modes_->yAxis->setLabel(normalized ? tr("Mode power |a|² (of the incident power)") : tr("Mode power |a|² (raw)"));
    if (!modes.empty()) markDirty(modes_);
}

void MonitorsDock::setTimeSeries(const std::vector<TimeSeriesResult>& series) {
    for (const TimeSeriesResult& ts : series) {
        QVector<double> keys(ts.time_fs.begin(), ts.time_fs.end()), values(ts.values.begin(), ts.values.end());
        graphNamed(time_, QString::fromStdString(ts.name))->setData(keys, values, true);
    }
    markDirty(time_);
}

void MonitorsDock::setResonances(const std::vector<ResonanceRow>& rows) {
    resonances_->setRowCount(0);
    for (const ResonanceRow& r : rows) {
        const int row = resonances_->rowCount();
        resonances_->insertRow(row);
        const QString q = std::isfinite(r.q) ? golightly::ui_number(r.q, 'g', 6) : QStringLiteral("∞");
        const QString cells[6] = {r.monitor,
                                  golightly::ui_number(r.wavelengthUm, 'f', 6),
                                  golightly::ui_number(r.frequencyThz, 'f', 4),
                                  q,
                                  golightly::ui_number(r.amplitude, 'g', 4),
                                  golightly::ui_number(r.error, 'g', 2)};
        for (int c = 0; c < 6; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c == 1) item->setData(Qt::UserRole, r.wavelengthUm);
            if (c == 2) item->setData(Qt::UserRole, r.frequencyThz * 1e12);
            if (c == 3) item->setData(Qt::UserRole, r.q);
            resonances_->setItem(row, c, item);
        }
    }
}

bool MonitorsDock::requestResonancePicture(int row) {
    if (row < 0 || row >= resonances_->rowCount() || !resonances_->item(row, 2) || !resonances_->item(row, 3)) return false;
    const double f = resonances_->item(row, 2)->data(Qt::UserRole).toDouble();
    if (!(f > 0)) return false;
    Q_EMIT resonancePictureRequested(f, resonances_->item(row, 3)->data(Qt::UserRole).toDouble(),
                                     resonances_->item(row, 0)->text());
    return true;
}

void MonitorsDock::markResonance() {
    const auto sel = resonances_->selectedItems();
    if (resonanceMark_) {
        spectra_->removeItem(resonanceMark_);
        resonanceMark_ = nullptr;
    }
    if (!sel.isEmpty()) {
        const QTableWidgetItem* wl = resonances_->item(sel.first()->row(), 1);
        const double x = wl ? wl->data(Qt::UserRole).toDouble() : 0.0;
        resonanceMark_ = new QCPItemStraightLine(spectra_);
        resonanceMark_->point1->setCoords(x, 0);
        resonanceMark_->point2->setCoords(x, 1);
        resonanceMark_->setPen(QPen(QColor(214, 39, 40), 1.2, Qt::DashLine));
    }
    spectra_->replot(QCustomPlot::rpQueuedReplot);
}

void MonitorsDock::setDiffraction(const std::vector<DiffractionResult>& results) {
    diffractionData_ = results;
    const QSignalBlocker block(diffractionWl_);
    const QString was = diffractionWl_->currentText();
    diffractionWl_->clear();
    if (!results.empty())
        for (double wl : results.front().wavelength_um) diffractionWl_->addItem(golightly::ui_number(wl, 'g', 5) + QStringLiteral(" µm"));
    int pick = diffractionWl_->findText(was);
    if (pick < 0) pick = diffractionWl_->count() / 2;  // the band's middle
    diffractionWl_->setCurrentIndex(pick);
    showDiffraction(pick);
}

void MonitorsDock::showDiffraction(int f) {
    diffraction_->clearPlottables();
    diffraction_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    if (diffractionData_.empty() || f < 0) {
        diffraction_->legend->setVisible(false);
        diffraction_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    // one x slot per order label over all monitors, one bar set per monitor side by side
    std::vector<QString> labels;
    auto label = [](const FloquetOrder& o, int dims) {
        // the order along the normal is 0: 2D shows the one tangential order, 3D all three
        return dims == 3 ? QStringLiteral("(%1,%2,%3)").arg(o.order[0]).arg(o.order[1]).arg(o.order[2])
                         : QString::number(o.order[0] + o.order[1] + o.order[2]);
    };
    for (const DiffractionResult& d : diffractionData_) {
        if (std::size_t(f) >= d.orders.size()) continue;
        for (const FloquetOrder& o : d.orders[std::size_t(f)]) {
            const QString l = label(o, d.dimensions);
            if (std::find(labels.begin(), labels.end(), l) == labels.end()) labels.push_back(l);
        }
    }
    std::sort(labels.begin(), labels.end(), [](const QString& a, const QString& b) {
        bool oa = false, ob = false;
        const int ia = a.toInt(&oa), ib = b.toInt(&ob);
        return oa && ob ? ia < ib : a < b;
    });
    const int n = int(diffractionData_.size());
    const double width = 0.8 / std::max(1, n);
    static const QColor colours[] = {QColor(31, 119, 180), QColor(214, 39, 40), QColor(44, 160, 44), QColor(148, 103, 189)};
    for (int m = 0; m < n; ++m) {
        const DiffractionResult& d = diffractionData_[std::size_t(m)];
        if (std::size_t(f) >= d.orders.size()) continue;
        auto* bars = new QCPBars(diffraction_->xAxis, diffraction_->yAxis);
        bars->setName(QString::fromStdString(d.name) + QStringLiteral(" (") + kindText(d.kind) + QStringLiteral(")"));
        bars->setWidth(width);
        bars->setPen(Qt::NoPen);
        bars->setBrush(colours[m % 4]);
        for (std::size_t o = 0; o < d.orders[std::size_t(f)].size(); ++o) {
            const auto it = std::find(labels.begin(), labels.end(), label(d.orders[std::size_t(f)][o], d.dimensions));
            bars->addData(double(it - labels.begin()) + (m - 0.5 * (n - 1)) * width, d.power_fraction(std::size_t(f), o));
        }
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    for (std::size_t k = 0; k < labels.size(); ++k) ticker->addTick(double(k), labels[k]);
    diffraction_->xAxis->setTicker(ticker);
    diffraction_->xAxis->setRange(-0.6, double(labels.size()) - 0.4);
    diffraction_->yAxis->setRange(0, 1.05);
    diffraction_->legend->setVisible(n > 0);
    diffraction_->replot(QCustomPlot::rpQueuedReplot);
}

void MonitorsDock::setFarFields(const std::vector<FarFieldResult>& fields) { farView_->setFarFields(fields); }

void MonitorsDock::setLive(const LiveMonitors& live) {
    setSpectra(live.frequency_hz, live.spectra, live.normalized);
    setTimeSeries(live.time_series);
    setDiffraction(live.diffraction);  // the orders grow with the DFTs, as the spectra do
    setModeAmplitudes(live.frequency_hz, live.mode_coefficients, live.normalized);
    if (!live.far_fields.empty()) setFarFields(live.far_fields);  // empty: a throttled snapshot, the last picture stands
    updatePages();
    summary_->setText(tr("%1: step %2, %3 fs%4")
                          .arg(live.phase == "reference" ? tr("Reference run") : tr("Main run"))
                          .arg(live.step)
                          .arg(golightly::ui_number(live.time_fs, 'f', 1))
                          .arg(live.normalized ? tr(" (spectra normalized)") : tr(" (raw spectra)")) +
                      (comparable_ ? QString() : tr("; spectra not comparable (edited during the run)")));
}

void MonitorsDock::addEnergyPoint(const QString& phase, double timeFs, double db) {
    QCPGraph* g = graphNamed(energy_, phase == QStringLiteral("reference") ? tr("reference run") : tr("main run"));
    g->addData(timeFs, std::min(db, 200.0));
    markDirty(energy_);
}

void MonitorsDock::setFinal(const RunResult& r) {
    setSpectra(r.frequency_hz, r.spectra, r.normalized);
    setTimeSeries(r.time_series);
    std::vector<ResonanceRow> rows;
    for (const ResonanceResult& rr : r.resonances)
        for (const Resonance& m : rr.modes)
            rows.push_back({QString::fromStdString(rr.name), m.wavelength_um, m.frequency_hz * 1e-12, m.q, m.amplitude,
                            m.error});
    setResonances(rows);
    setFarFields(r.far_fields);
    setDiffraction(r.diffraction);
    setModeAmplitudes(r.frequency_hz, r.mode_coefficients, r.normalized);
    updatePages();
    summary_->setText(tr("Finished: %1 after %2 steps (%3 fs), %4 Mcells/s on %5%6")
                          .arg(stopReasonText(QString::fromStdString(to_string(r.stop_reason))))
                          .arg(r.steps)
                          .arg(golightly::ui_number(r.time_fs, 'f', 1))
                          .arg(golightly::ui_number(r.mcells_per_s, 'f', 1))
                          .arg(QString::fromStdString(r.backend))
                          .arg(comparable_ ? QString() : tr("; spectra not comparable (edited during the run)")));
}

void MonitorsDock::setSpectraComparable(bool comparable) {
    const QString mark = tr(" - not comparable (edited)");
    const QString note = tr("; spectra not comparable (edited during the run)");
    QString label = spectra_->yAxis->label();
    if (label.endsWith(mark)) label.chop(mark.size());
    spectra_->yAxis->setLabel(comparable ? label : label + mark);
    QString text = summary_->text();
    if (text.endsWith(note)) text.chop(note.size());
    summary_->setText(comparable ? text : text + note);
    comparable_ = comparable;
    spectra_->replot(QCustomPlot::rpQueuedReplot);
}

void MonitorsDock::showPagesFor(const Project& project) {
    bool time = false, box = false, resonances = false, farField = false, diffraction = false, modes = false;
    for (const Monitor& m : project.monitors) {
        time = time || m.type == MonitorType::Time;
        resonances = resonances || (m.type == MonitorType::Time && m.resonances);
        box = box || m.type == MonitorType::FluxBox;
        farField = farField || (m.type == MonitorType::FluxBox && m.far_field);
        diffraction = diffraction || m.diffraction;
        modes = modes || (m.type == MonitorType::Flux && m.kind == "mode");
    }
    const bool pages[8] = {true, time, true, box, resonances, farField, diffraction, modes};
    std::copy(std::begin(pages), std::end(pages), std::begin(projectPages_));
    updatePages();
}

bool MonitorsDock::pageShown(const QWidget* page) const {
    const int i = tabs_->indexOf(const_cast<QWidget*>(page));
    return i >= 0 && tabs_->isTabVisible(i);
}

void MonitorsDock::updatePages() {
    const bool content[8] = {true,
                             time_->graphCount() > 0,
                             true,
                             cross_->graphCount() > 0,
                             resonances_->rowCount() > 0,
                             farField_->graphCount() > 0,
                             diffraction_->plottableCount() > 0,
                             modes_->graphCount() > 0};
    for (int i = 0; i < 8 && i < tabs_->count(); ++i) {
        const bool show = projectPages_[i] || content[i];
        if (tabs_->isTabVisible(i) != show) tabs_->setTabVisible(i, show);
    }
    if (!tabs_->isTabVisible(tabs_->currentIndex())) tabs_->setCurrentIndex(0);
}

QString MonitorsDock::summaryText() const { return summary_->text(); }

void MonitorsDock::setSummaryPrefix(const QString& prefix) { summary_->setText(prefix + summary_->text()); }

QString MonitorsDock::stopReasonText(const QString& reason) {
    if (reason == QLatin1String("decay")) return tr("fields decayed");
    if (reason == QLatin1String("max_time")) return tr("time limit reached");
    if (reason == QLatin1String("max_steps")) return tr("step limit reached");
    if (reason == QLatin1String("diverged")) return tr("diverged");
    if (reason == QLatin1String("cancelled")) return tr("stopped");
    if (reason == QLatin1String("resonances")) return tr("resonances found");
    return reason;
}

int MonitorsDock::pointCount(const QCustomPlot* plot) {
    int n = 0;
    for (int g = 0; g < plot->graphCount(); ++g) n += plot->graph(g)->dataCount();
    return n;
}

namespace {
bool readCsv(const QString& path, QStringList& header, std::vector<std::vector<double>>& columns) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return false;
    QTextStream in(&f);
    header = in.readLine().split(QLatin1Char(','));
    columns.assign(std::size_t(header.size()), {});
    while (!in.atEnd()) {
        const QString line = in.readLine();
        if (line.trimmed().isEmpty()) continue;
        const QStringList cells = line.split(QLatin1Char(','));
        for (int c = 0; c < header.size(); ++c)
            columns[std::size_t(c)].push_back(c < cells.size() ? cells[c].toDouble() : std::nan(""));
    }
    return true;
}
}  // namespace

bool MonitorsDock::loadResults(const QString& dir, QString* error) {
    const QDir d(dir);
    if (!d.exists(QStringLiteral("spectra.csv")) && !d.exists(QStringLiteral("summary.json"))) {
        if (error) *error = tr("%1 holds no spectra.csv or summary.json").arg(dir);
        return false;  // what is shown stays
    }
    clear();
    QStringList header;
    std::vector<std::vector<double>> cols;
    bool any = false;
    bool normalized = false;
    QString text;
    QFile sf(d.filePath(QStringLiteral("summary.json")));
    if (sf.open(QIODevice::ReadOnly)) {
        const QJsonObject j = QJsonDocument::fromJson(sf.readAll()).object();
        normalized = j.value(QStringLiteral("normalization")).toObject().value(QStringLiteral("ran")).toBool();
        text = tr("Results %1: %2 after %3 steps (%4 fs), %5 Mcells/s on %6")
                   .arg(QDir::toNativeSeparators(dir), stopReasonText(j.value(QStringLiteral("stop_reason")).toString()))
                   .arg(j.value(QStringLiteral("steps")).toInteger())
                   .arg(golightly::ui_number(j.value(QStringLiteral("time_fs")).toDouble(), 'f', 1))
                   .arg(golightly::ui_number(j.value(QStringLiteral("mcells_per_s")).toDouble(), 'f', 1))
                   .arg(j.value(QStringLiteral("backend")).toString());
        if (j.value(QStringLiteral("live_edits")).toInt() > 0)
            text += tr("; spectra not comparable (edited during the run)");
        std::vector<ResonanceRow> rows;
        const QJsonObject res = j.value(QStringLiteral("resonances")).toObject();
        for (auto it = res.begin(); it != res.end(); ++it)
            for (const QJsonValue m : it.value().toObject().value(QStringLiteral("modes")).toArray()) {
                const QJsonObject o = m.toObject();
                const QJsonValue q = o.value(QStringLiteral("q"));
                rows.push_back({it.key(), o.value(QStringLiteral("wavelength_um")).toDouble(),
                                o.value(QStringLiteral("frequency_thz")).toDouble(),
                                q.isString() ? (q.toString().startsWith(QLatin1Char('-')) ? -INFINITY : INFINITY) : q.toDouble(),
                                o.value(QStringLiteral("amplitude")).toDouble(), o.value(QStringLiteral("error")).toDouble()});
            }
        setResonances(rows);
        // far fields: far_field/<monitor>.csv, n_theta x n_phi rows per wavelength in order
        // (project-format.md "Far fields")
        std::vector<FarFieldResult> far;
        const QJsonObject ffs = j.value(QStringLiteral("far_field")).toObject();
        for (auto it = ffs.begin(); it != ffs.end(); ++it) {
            const QJsonObject o = it.value().toObject();
            FarFieldResult f;
            f.name = it.key().toStdString();
            f.dimensions = j.value(QStringLiteral("dimensions")).toInt(2);
            f.n_theta = o.value(QStringLiteral("theta_points")).toInt(1);
            f.n_phi = o.value(QStringLiteral("phi_points")).toInt(1);
            for (const QJsonValue v : o.value(QStringLiteral("wavelength_um")).toArray()) f.wavelength_um.push_back(v.toDouble());
            for (const QJsonValue v : o.value(QStringLiteral("power")).toArray()) f.power.push_back(v.toDouble());
            QStringList h;
            std::vector<std::vector<double>> c;
            const std::size_t per = std::size_t(std::max(1, f.n_theta)) * std::size_t(std::max(1, f.n_phi));
            if (!readCsv(d.filePath(QStringLiteral("far_field/%1.csv").arg(it.key())), h, c) || h.size() < 4 ||
                f.power.size() != f.wavelength_um.size() || c[0].size() != per * f.wavelength_um.size())
                continue;  // not this version's layout: the other results still show
            f.samples.resize(f.wavelength_um.size());
            for (std::size_t k = 0; k < c[0].size(); ++k) {
                FarFieldSample x;
                x.theta_rad = c[1][k] * 3.14159265358979323846 / 180;
                x.phi_rad = c[2][k] * 3.14159265358979323846 / 180;
                x.intensity = c[3][k];
                f.samples[k / per].push_back(x);
            }
            far.push_back(std::move(f));
        }
        setFarFields(far);
        any = true;
    }
    if (readCsv(d.filePath(QStringLiteral("spectra.csv")), header, cols) && header.size() >= 2) {
        // wavelength_um, frequency_thz, <monitor>..., <monitor>_flux...
        normalizedShown_ = normalized;
        // mode monitors' columns (<monitor>_m<k>_fwd_re, _fwd_im, _bwd_re, _bwd_im, _neff;
        // spec "Mode sources and monitors"): the mode amplitude plot, not spectra
        const QRegularExpression modeColumn(QStringLiteral("^(.*)_m(\\d+)_(fwd_re|fwd_im|bwd_re|bwd_im|neff)$"));
        std::vector<ModeCoefficientsResult> modes;
        std::vector<double> freqHz;
        for (double thz : cols[1]) freqHz.push_back(thz * 1e12);
        auto column = [&](const QString& n) -> const std::vector<double>* {
            const int i = int(header.indexOf(n));
            return i >= 0 ? &cols[std::size_t(i)] : nullptr;
        };
        QSet<QString> modeColumns;
        for (int c = 2; c < header.size(); ++c) {
            const QRegularExpressionMatch mt = modeColumn.match(header[c]);
            if (!mt.hasMatch() || mt.captured(3) != QStringLiteral("fwd_re")) continue;
            const QString prefix = mt.captured(1) + QStringLiteral("_m") + mt.captured(2);
            const auto *fr = column(prefix + QStringLiteral("_fwd_re")), *fi = column(prefix + QStringLiteral("_fwd_im"));
            const auto *br = column(prefix + QStringLiteral("_bwd_re")), *bi = column(prefix + QStringLiteral("_bwd_im"));
            if (!fr || !fi || !br || !bi) continue;
            ModeCoefficientsResult m;
            m.name = mt.captured(1).toStdString();
            m.mode_index = mt.captured(2).toInt();
            for (std::size_t f = 0; f < fr->size(); ++f) {
                m.fwd.emplace_back((*fr)[f], (*fi)[f]);
                m.bwd.emplace_back((*br)[f], (*bi)[f]);
            }
            modes.push_back(std::move(m));
            for (const char* sfx : {"_fwd_re", "_fwd_im", "_bwd_re", "_bwd_im", "_neff"})
                modeColumns.insert(prefix + QLatin1String(sfx));
        }
        setModeAmplitudes(freqHz, modes, normalized);
        for (int c = 2; c < header.size(); ++c) {
            const QString name = header[c];
            if (modeColumns.contains(name)) continue;
            if (name.endsWith(QStringLiteral("_flux")) && header.contains(name.chopped(5))) continue;
            QVector<double> k(cols[0].begin(), cols[0].end()), v(cols[std::size_t(c)].begin(), cols[std::size_t(c)].end());
            graphNamed(spectra_, name)->setData(k, v);
        }
        spectra_->yAxis->setLabel((normalized ? tr("T, R (normalized)") : tr("Flux (raw)")) +
                                  (text.endsWith(tr("; spectra not comparable (edited during the run)"))
                                       ? tr(" - not comparable (edited)")
                                       : QString()));
        spectra_->rescaleAxes();
        spectra_->replot();
        any = true;
    }
    const QDir md(d.filePath(QStringLiteral("monitors")));
    for (const QString& file : md.entryList({QStringLiteral("*.csv")}, QDir::Files, QDir::Name)) {
        if (!readCsv(md.filePath(file), header, cols) || header.size() < 2) continue;
        QVector<double> k(cols[0].begin(), cols[0].end()), v(cols[1].begin(), cols[1].end());
        graphNamed(time_, header[1])->setData(k, v, true);
    }
    time_->rescaleAxes();
    time_->replot();
    if (!any) {
        if (error) *error = tr("%1 holds no spectra.csv or summary.json").arg(dir);
        summary_->setText(tr("No results in %1").arg(dir));
        return false;
    }
    summary_->setText(text.isEmpty() ? tr("Results %1").arg(dir) : text);
    updatePages();
    return true;
}

QCustomPlot* MonitorsDock::currentPlot() const {
    if (tabs_->currentWidget() == farView_) return farView_->currentPlot();
    return qobject_cast<QCustomPlot*>(tabs_->currentWidget());
}

bool MonitorsDock::exportCurrent(const QString& path) {
    if (tabs_->currentWidget() == farView_) return farView_->exportTo(path);
    auto* p = currentPlot();
    return p && exportPlot(p, path);
}

bool MonitorsDock::exportPlot(QCustomPlot* plot, const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QStringLiteral("png")) return plot->savePng(path, 1200, 800);
    if (suffix == QStringLiteral("pdf")) return plot->savePdf(path, 1200, 800);
    // CSV: key and value of every graph, one block per graph (graphs may have different keys)
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Text)) return false;
    QTextStream out(&f);
    out << "curve," << plot->xAxis->label().replace(QLatin1Char(','), QLatin1Char(';')) << ","
        << plot->yAxis->label().replace(QLatin1Char(','), QLatin1Char(';')) << "\n";
    for (int g = 0; g < plot->graphCount(); ++g) {
        const QString name = plot->graph(g)->name().replace(QLatin1Char(','), QLatin1Char(';'));
        for (auto it = plot->graph(g)->data()->constBegin(); it != plot->graph(g)->data()->constEnd(); ++it)
            out << name << "," << QString::number(it->key, 'g', 10) << "," << QString::number(it->value, 'g', 10) << "\n";
    }
    out.flush();
    return f.commit();
}

void MonitorsDock::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), QString(),
                                                      tr("PNG image (*.png);;PDF (*.pdf);;CSV table (*.csv)"));
    if (path.isEmpty()) return;
    if (!exportCurrent(path)) summary_->setText(tr("Could not write %1").arg(path));
}

}  // namespace golightly::plots
