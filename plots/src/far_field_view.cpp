#include "far_field_view.hpp"
#include "ui_number.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSaveFile>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include "qcustomplot_include.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace golightly::plots {

namespace {
constexpr double kPi = 3.14159265358979323846;
/// The dB views show this range below the peak (deeper nulls are drawn at the floor).
constexpr double kDbRange = 40.0;
const QColor kPalette[] = {QColor(31, 119, 180), QColor(214, 39, 40), QColor(44, 160, 44), QColor(255, 127, 14),
                           QColor(148, 103, 189), QColor(140, 86, 75), QColor(227, 119, 194), QColor(127, 127, 127)};

QString curveName(const FarFieldResult& f, std::size_t w) {
    return QStringLiteral("%1 %2 µm").arg(QString::fromStdString(f.name)).arg(golightly::ui_number(f.wavelength_um[w], 'g', 5));
}

QString csvCell(QString s) { return s.replace(QLatin1Char(','), QLatin1Char(';')); }
}  // namespace

FarFieldView::FarFieldView(QWidget* parent) : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    viewBox_ = new QComboBox;
    viewBox_->setObjectName(QStringLiteral("farFieldView"));
    viewBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    viewBox_->setToolTip(tr("Polar plot (2D), theta-phi map (3D) or cartesian curves (2D: against phi; 3D: the "
                            "phi = 0 and 90 degree cuts against theta)"));
    quantityBox_ = new QComboBox;
    quantityBox_->setObjectName(QStringLiteral("farFieldQuantity"));
    quantityBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    quantityBox_->addItem(tr("Directivity"));
    quantityBox_->addItem(tr("Radiation intensity"));
    quantityBox_->setToolTip(tr("Directivity: the intensity over its average over all directions; radiation "
                                "intensity: power per steradian (per radian in 2D), in the DFT units of the spectra"));
    db_ = new QCheckBox(tr("dB"));
    db_->setObjectName(QStringLiteral("farFieldDb"));
    db_->setToolTip(tr("10 log10 of the quantity; %1 dB below the peak are shown").arg(kDbRange));
    mapBox_ = new QComboBox;
    mapBox_->setObjectName(QStringLiteral("farFieldMapWavelength"));
    mapBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    mapBox_->setToolTip(tr("The monitor and wavelength the theta-phi map shows"));
    top->addWidget(new QLabel(tr("View")));
    top->addWidget(viewBox_);
    top->addWidget(quantityBox_);
    top->addWidget(db_);
    top->addWidget(mapBox_);
    top->addStretch(1);
    v->addLayout(top);

    stack_ = new QStackedWidget;
    auto makePlot = [] {
        auto* p = new QCustomPlot;
        p->setMinimumSize(260, 180);
        p->setInteraction(QCP::iRangeDrag, true);
        p->setInteraction(QCP::iRangeZoom, true);
        return p;
    };
    cuts_ = makePlot();
    cuts_->setObjectName(QStringLiteral("farFieldPlot"));
    cuts_->xAxis->setLabel(tr("Angle (°)"));
    cuts_->legend->setVisible(true);
    cuts_->legend->setFont(QFont(font().family(), 8));

    polar_ = new QCustomPlot;
    polar_->setMinimumSize(260, 180);
    polar_->setObjectName(QStringLiteral("farFieldPolar"));
    polar_->plotLayout()->clear();  // the cartesian axis rect (and its legend) go
    angular_ = new QCPPolarAxisAngular(polar_);
    polar_->plotLayout()->addElement(0, 0, angular_);
    angular_->setRangeDrag(false);
    angular_->setRangeZoom(false);
    angular_->setRange(0, 360);
    // phi from +x (right) counter-clockwise, as the xy plane looks on the canvas
    angular_->setAngle(0);
    angular_->setRangeReversed(true);
    angular_->setTickLabelMode(QCPPolarAxisAngular::lmUpright);
    angular_->radialAxis()->setTickLabelMode(QCPPolarAxisRadial::lmUpright);
    angular_->radialAxis()->setTickLabelRotation(0);
    angular_->radialAxis()->setAngle(22.5);
    angular_->radialAxis()->setRangeDrag(false);
    angular_->grid()->setAngularPen(QPen(QColor(200, 200, 200), 0, Qt::SolidLine));
    angular_->grid()->setSubGridType(QCPPolarGrid::gtAll);
    // the legend in a column of its own (the angular axis's inset layout has no parent plot
    // to hand on in QCustomPlot 2.1)
    polarLegend_ = new QCPLegend;
    polar_->plotLayout()->addElement(1, 0, polarLegend_);
    polar_->plotLayout()->setRowStretchFactor(1, 0.001);
    polarLegend_->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    polarLegend_->setWrap(4);
    polarLegend_->setLayer(QStringLiteral("legend"));
    polarLegend_->setFont(QFont(font().family(), 8));
    polarLegend_->setVisible(false);

    map_ = makePlot();
    map_->setObjectName(QStringLiteral("farFieldMap"));
    map_->xAxis->setLabel(tr("Phi (°)"));
    map_->yAxis->setLabel(tr("Theta (°)"));
    map_->yAxis->setRangeReversed(true);  // the zenith (theta 0) at the top
    colorMap_ = new QCPColorMap(map_->xAxis, map_->yAxis);
    colorScale_ = new QCPColorScale(map_);
    map_->plotLayout()->addElement(0, 1, colorScale_);
    colorScale_->setType(QCPAxis::atRight);
    colorMap_->setColorScale(colorScale_);
    colorMap_->setGradient(QCPColorGradient::gpJet);
    colorMap_->setInterpolate(false);
    auto* group = new QCPMarginGroup(map_);
    map_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    colorScale_->setMarginGroup(QCP::msBottom | QCP::msTop, group);

    stack_->addWidget(polar_);
    stack_->addWidget(cuts_);
    stack_->addWidget(map_);
    v->addWidget(stack_, 1);

    connect(viewBox_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        if (i >= 0) setView(View(viewBox_->itemData(i).toInt()));
    });
    connect(quantityBox_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { rebuild(); });
    connect(db_, &QCheckBox::toggled, this, [this] { rebuild(); });
    connect(mapBox_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { rebuildMap(); });
    setView(View::Cuts);
}

void FarFieldView::setView(View v) {
    view_ = v;
    stack_->setCurrentIndex(int(v));
    mapBox_->setVisible(v == View::Map);
    const int i = viewBox_->findData(int(v));
    if (i >= 0 && i != viewBox_->currentIndex()) {
        const QSignalBlocker block(viewBox_);
        viewBox_->setCurrentIndex(i);
    }
    currentPlot()->replot(QCustomPlot::rpQueuedReplot);
}

QCustomPlot* FarFieldView::currentPlot() const {
    return view_ == View::Polar ? polar_ : view_ == View::Map ? map_ : cuts_;
}

double FarFieldView::plotted(double u, double p, int dimensions) const {
    double x = u;
    if (quantityBox_->currentIndex() == 0) x = p > 0 ? (dimensions == 3 ? 4 * kPi : 2 * kPi) * u / p : 0.0;
    if (!db_->isChecked()) return x;
    return x > 0 ? 10 * std::log10(x) : -std::numeric_limits<double>::infinity();
}

QString FarFieldView::quantityLabel() const {
    const bool dir = quantityBox_->currentIndex() == 0;
    if (db_->isChecked()) return dir ? tr("Directivity (dBi)") : tr("Radiation intensity (dB)");
    return dir ? tr("Directivity") : tr("Radiation intensity");
}

void FarFieldView::setFarFields(const std::vector<FarFieldResult>& fields) {
    data_ = fields;
    for (FarFieldResult& f : data_) f.surfaces.clear();  // large, and only the CLI projects again
    const int dims = data_.empty() ? dims_ : data_.front().dimensions;
    if (dims != dims_ && dims != 0) {
        dims_ = dims;
        const QSignalBlocker block(viewBox_);
        viewBox_->clear();
        if (dims == 2) {
            viewBox_->addItem(tr("Polar"), int(View::Polar));
            viewBox_->addItem(tr("Cartesian"), int(View::Cuts));
        } else {
            viewBox_->addItem(tr("Theta-phi map"), int(View::Map));
            viewBox_->addItem(tr("Principal cuts"), int(View::Cuts));
        }
        setView(dims == 2 ? View::Polar : View::Map);
    }
    {
        const QSignalBlocker block(mapBox_);
        const QString was = mapBox_->currentText();
        mapBox_->clear();
        for (std::size_t m = 0; m < data_.size(); ++m)
            if (data_[m].dimensions == 3)
                for (std::size_t w = 0; w < data_[m].samples.size(); ++w)
                    mapBox_->addItem(curveName(data_[m], w), QVariant::fromValue(QPoint(int(m), int(w))));
        const int keep = mapBox_->findText(was);
        mapBox_->setCurrentIndex(keep >= 0 ? keep : 0);
    }
    rebuild();
}

void FarFieldView::rebuild() {
    rebuildCartesian();
    rebuildPolar();
    rebuildMap();
}

void FarFieldView::rebuildCartesian() {
    cuts_->clearGraphs();
    // the dB floor: kDbRange below the largest value shown
    double peak = -std::numeric_limits<double>::infinity();
    struct Curve {
        QString name;
        QVector<double> k, v;
    };
    std::vector<Curve> curves;
    for (const FarFieldResult& f : data_) {
        for (std::size_t w = 0; w < f.samples.size() && w < f.power.size(); ++w) {
            const double p = f.power[w];
            if (!(p > 0)) continue;
            if (f.dimensions == 2) {
                Curve c{curveName(f, w), {}, {}};
                for (const FarFieldSample& x : f.samples[w]) {
                    c.k.push_back(x.phi_rad * 180 / kPi);
                    c.v.push_back(plotted(x.intensity, p, 2));
                }
                curves.push_back(std::move(c));
                continue;
            }
            // the phi = 0 and phi = 90 degree cuts (nearest grid azimuths)
            for (const double cut : {0.0, 90.0}) {
                const int j = int(std::lround(cut / 360.0 * f.n_phi)) % f.n_phi;
                Curve c{curveName(f, w) + tr(", phi %1°").arg(golightly::ui_number(360.0 * j / f.n_phi, 'g', 4)), {}, {}};
                for (int i = 0; i < f.n_theta; ++i) {
                    const FarFieldSample& x = f.samples[w][std::size_t(i) * std::size_t(f.n_phi) + std::size_t(j)];
                    c.k.push_back(x.theta_rad * 180 / kPi);
                    c.v.push_back(plotted(x.intensity, p, 3));
                }
                curves.push_back(std::move(c));
            }
        }
    }
    for (const Curve& c : curves)
        for (double x : c.v) peak = std::max(peak, x);
    const double floor = db_->isChecked() ? peak - kDbRange : -std::numeric_limits<double>::infinity();
    int n = 0;
    for (Curve& c : curves) {
        for (double& x : c.v) x = std::max(x, floor);
        QCPGraph* g = cuts_->addGraph();
        g->setName(c.name);
        g->setPen(QPen(kPalette[n++ % 8], 1.8));
        g->setData(c.k, c.v);
    }
    cuts_->xAxis->setLabel(dims_ == 3 ? tr("Theta (°)") : tr("Phi (°)"));
    cuts_->yAxis->setLabel(quantityLabel());
    cuts_->legend->setVisible(n > 0);
    cuts_->rescaleAxes();
    cuts_->replot(QCustomPlot::rpQueuedReplot);
}

void FarFieldView::rebuildPolar() {
    polarLegend_->clearItems();
    for (QCPPolarGraph* g : polarGraphs_) angular_->removeGraph(g);  // deletes it
    polarGraphs_.clear();
    double peak = -std::numeric_limits<double>::infinity();
    std::vector<std::pair<QString, QVector<double>>> values;
    std::vector<QVector<double>> keys;
    for (const FarFieldResult& f : data_) {
        if (f.dimensions != 2) continue;
        for (std::size_t w = 0; w < f.samples.size() && w < f.power.size(); ++w) {
            if (!(f.power[w] > 0)) continue;
            QVector<double> k, v;
            for (const FarFieldSample& x : f.samples[w]) {
                k.push_back(x.phi_rad * 180 / kPi);
                v.push_back(plotted(x.intensity, f.power[w], 2));
                peak = std::max(peak, v.back());
            }
            if (!k.isEmpty()) {  // close the curve at 360 degrees
                k.push_back(k.front() + 360);
                v.push_back(v.front());
            }
            keys.push_back(k);
            values.emplace_back(curveName(f, w), v);
        }
    }
    const bool db = db_->isChecked();
    double lower = 0, upper = 1;
    if (std::isfinite(peak)) {
        if (db) {
            upper = std::ceil(peak / 5) * 5;  // whole 5 dB rings
            lower = upper - kDbRange;
        } else
            upper = peak > 0 ? peak * 1.05 : 1;
    }
    for (std::size_t c = 0; c < values.size(); ++c) {
        for (double& x : values[c].second) x = std::max(x, lower);  // nulls at the centre
        auto* g = new QCPPolarGraph(angular_, angular_->radialAxis());
        g->setName(values[c].first);
        g->setPen(QPen(kPalette[c % 8], 1.8));
        g->setData(keys[c], values[c].second, true);
        // (the graph puts itself into the plot's legend, polarLegend_, when made)
        if (polarLegend_->itemCount() < int(polarGraphs_.size()) + 1) g->addToLegend(polarLegend_);
        polarGraphs_.push_back(g);
    }
    polarLegend_->setVisible(!polarGraphs_.empty());
    angular_->radialAxis()->setRange(lower, upper);
    angular_->radialAxis()->setLabel(quantityLabel());
    polar_->replot(QCustomPlot::rpQueuedReplot);
}

void FarFieldView::rebuildMap() {
    QCPColorMapData* d = colorMap_->data();
    const QPoint pick = mapBox_->currentData().toPoint();
    const FarFieldResult* f = mapBox_->currentIndex() >= 0 && std::size_t(pick.x()) < data_.size()
                                  ? &data_[std::size_t(pick.x())]
                                  : nullptr;
    const std::size_t w = std::size_t(pick.y());
    if (!f || f->dimensions != 3 || w >= f->samples.size() || w >= f->power.size() || f->n_theta < 2 ||
        f->n_phi < 1) {
        d->clear();
        colorMap_->setVisible(false);
        map_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    // cells centred on the grid's directions; the column phi = 360 repeats phi = 0
    d->setSize(f->n_phi + 1, f->n_theta);
    d->setRange(QCPRange(0, 360), QCPRange(0, 180));
    double peak = -std::numeric_limits<double>::infinity(), low = std::numeric_limits<double>::infinity();
    for (int i = 0; i < f->n_theta; ++i)
        for (int j = 0; j <= f->n_phi; ++j) {
            const FarFieldSample& x = f->samples[w][std::size_t(i) * std::size_t(f->n_phi) + std::size_t(j % f->n_phi)];
            const double v = plotted(x.intensity, f->power[w], 3);
            d->setCell(j, i, v);
            peak = std::max(peak, v);
            if (std::isfinite(v)) low = std::min(low, v);
        }
    const bool db = db_->isChecked();
    QCPRange range(db ? peak - kDbRange : std::min(0.0, low), peak);
    if (!(range.size() > 0)) range = QCPRange(range.lower - 1, range.upper + 1);
    if (db)  // -inf (exact nulls) at the floor, so that they take its colour
        for (int i = 0; i < f->n_theta; ++i)
            for (int j = 0; j <= f->n_phi; ++j)
                if (!(d->cell(j, i) >= range.lower)) d->setCell(j, i, range.lower);
    colorMap_->setVisible(true);
    colorMap_->setDataRange(range);
    colorScale_->axis()->setLabel(quantityLabel());
    map_->xAxis->setRange(-360.0 / (2 * f->n_phi), 360 + 360.0 / (2 * f->n_phi));
    map_->yAxis->setRange(-90.0 / (f->n_theta - 1), 180 + 90.0 / (f->n_theta - 1));
    map_->replot(QCustomPlot::rpQueuedReplot);
}

bool FarFieldView::exportTo(const QString& path) {
    QCustomPlot* plot = currentPlot();
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QStringLiteral("png")) return plot->savePng(path, 1200, 800);
    if (suffix == QStringLiteral("pdf")) return plot->savePdf(path, 1200, 800);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) return false;
    QTextStream out(&file);
    if (view_ == View::Map) {
        QCPColorMapData* d = colorMap_->data();  // cell() is not const in QCustomPlot 2.1
        out << "theta_deg,phi_deg," << csvCell(quantityLabel()) << "\n";
        for (int i = 0; i < d->valueSize(); ++i)
            for (int j = 0; j + 1 < d->keySize(); ++j) {  // the last column repeats phi = 0
                double phi = 0, theta = 0;
                d->cellToCoord(j, i, &phi, &theta);
                out << QString::number(theta, 'g', 10) << "," << QString::number(phi, 'g', 10) << ","
                    << QString::number(d->cell(j, i), 'g', 10) << "\n";
            }
    } else {
        out << "curve," << (view_ == View::Polar || dims_ == 2 ? "phi_deg" : "theta_deg") << ","
            << csvCell(quantityLabel()) << "\n";
        auto rows = [&](const QString& name, const QSharedPointer<QCPGraphDataContainer>& data) {
            for (auto it = data->constBegin(); it != data->constEnd(); ++it)
                out << csvCell(name) << "," << QString::number(it->key, 'g', 10) << ","
                    << QString::number(it->value, 'g', 10) << "\n";
        };
        if (view_ == View::Polar)
            for (QCPPolarGraph* g : polarGraphs_) rows(g->name(), g->data());
        else
            for (int g = 0; g < cuts_->graphCount(); ++g) rows(cuts_->graph(g)->name(), cuts_->graph(g)->data());
    }
    out.flush();
    return file.commit();
}

}  // namespace golightly::plots
