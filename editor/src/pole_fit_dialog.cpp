#include "pole_fit_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

#include "material_editor.hpp"
#include "qcustomplot_include.hpp"

namespace golightly::editor {

PoleFitDialog::PoleFitDialog(double lo_um, double hi_um, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("PoleFitDialog"));
    setWindowTitle(tr("Fit poles to measured data"));
    resize(860, 520);
    auto* top = new QHBoxLayout(this);
    auto* left = new QVBoxLayout;
    auto* browseB = new QPushButton(tr("Import CSV..."));
    browseB->setToolTip(tr("refractiveindex.info export: wavelength (µm), n, k; one table or an n block and a k block"));
    file_ = new QLabel(tr("No data"));
    file_->setWordWrap(true);
    left->addWidget(browseB);
    left->addWidget(file_);
    auto* form = new QFormLayout;
    poles_ = new QSpinBox;
    poles_->setRange(1, 8);
    poles_->setValue(4);
    drude_ = new QCheckBox(tr("One Drude pole (metals)"));
    drude_->setChecked(true);
    lo_ = new QDoubleSpinBox;
    hi_ = new QDoubleSpinBox;
    for (auto* s : {lo_, hi_}) {
        s->setRange(0.01, 1000);
        s->setDecimals(3);
        s->setSingleStep(0.05);
        s->setSuffix(tr(" µm"));
    }
    lo_->setValue(lo_um);
    hi_->setValue(hi_um);
    mode_ = new QComboBox;
    mode_->addItem(tr("Re eps, Im eps"));
    mode_->addItem(tr("n, k"));
    form->addRow(tr("Poles"), poles_);
    form->addRow(QString(), drude_);
    form->addRow(tr("Band from"), lo_);
    form->addRow(tr("Band to"), hi_);
    form->addRow(tr("Plot"), mode_);
    left->addLayout(form);
    fit_ = new QPushButton(tr("Fit"));
    fit_->setEnabled(false);
    left->addWidget(fit_);
    status_ = new QLabel;
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    left->addWidget(status_);
    left->addStretch();
    auto* box = new QDialogButtonBox(QDialogButtonBox::Apply | QDialogButtonBox::Cancel);
    apply_ = box->button(QDialogButtonBox::Apply);
    apply_->setEnabled(false);
    apply_->setToolTip(tr("Replace eps_inf and the poles of the material with the fit"));
    left->addWidget(box);
    auto* leftW = new QWidget;
    leftW->setLayout(left);
    leftW->setMaximumWidth(300);
    top->addWidget(leftW);
    plot_ = new QCustomPlot;
    plot_->setMinimumSize(420, 320);
    top->addWidget(plot_, 1);

    connect(browseB, &QPushButton::clicked, this, &PoleFitDialog::browse);
    connect(fit_, &QPushButton::clicked, this, &PoleFitDialog::startFit);
    connect(apply_, &QPushButton::clicked, this, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(&watcher_, &QFutureWatcher<PoleFitOutcome>::finished, this, &PoleFitDialog::fitDone);
    connect(mode_, &QComboBox::currentIndexChanged, this, &PoleFitDialog::refreshPlot);
    connect(lo_, &QDoubleSpinBox::valueChanged, this, &PoleFitDialog::refreshPlot);
    connect(hi_, &QDoubleSpinBox::valueChanged, this, &PoleFitDialog::refreshPlot);
    refreshPlot();
}

PoleFitDialog::~PoleFitDialog() {
    watcher_.waitForFinished();  // the worker owns copies only; wait so nothing outlives the dialog
}

void PoleFitDialog::browse() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Import optical constants"), QString(),
                                                      tr("CSV files (*.csv *.txt);;All files (*)"));
    if (!path.isEmpty()) loadCsv(path);
}

bool PoleFitDialog::loadCsv(const QString& path) {
    try {
        data_ = read_refractive_index_csv(path.toStdString());
    } catch (const std::exception& e) {
        status_->setText(tr("Cannot read the data: %1").arg(QString::fromStdString(e.what())));
        return false;
    }
    fileName_ = QFileInfo(path).fileName();
    const double lo = data_.samples.front().wavelength_um, hi = data_.samples.back().wavelength_um;
    file_->setText(tr("%1: %2 points, %3 - %4 µm%5")
                       .arg(fileName_)
                       .arg(data_.samples.size())
                       .arg(lo, 0, 'g', 4)
                       .arg(hi, 0, 'g', 4)
                       .arg(data_.has_k ? QString() : tr(" (no k: lossless)")));
    // fit band: the requested band clipped to the data
    const double blo = std::max(lo, lo_->value()), bhi = std::min(hi, hi_->value());
    {
        const QSignalBlocker b1(lo_), b2(hi_);
        if (blo < bhi) {
            lo_->setValue(blo);
            hi_->setValue(bhi);
        } else {
            lo_->setValue(lo);
            hi_->setValue(hi);
        }
    }
    result_.reset();
    apply_->setEnabled(false);
    fit_->setEnabled(true);
    status_->setText(tr("Choose the poles and the band, then Fit."));
    refreshPlot();
    return true;
}

bool PoleFitDialog::fitting() const { return watcher_.isRunning(); }

void PoleFitDialog::startFit() {
    if (data_.samples.empty() || fitting()) return;
    PoleFitOptions o;
    o.poles = poles_->value();
    o.drude = drude_->isChecked();
    o.wavelength_min_um = lo_->value();
    o.wavelength_max_um = hi_->value();
    const std::vector<OpticalSample> samples = data_.samples;
    fit_->setEnabled(false);
    apply_->setEnabled(false);
    status_->setText(tr("Fitting..."));
    watcher_.setFuture(QtConcurrent::run([samples, o]() {
        PoleFitOutcome out;
        try {
            out.fit = fit_poles(samples, o);
        } catch (const std::exception& e) {
            out.error = e.what();
        }
        return out;
    }));
}

void PoleFitDialog::fitDone() {
    const PoleFitOutcome out = watcher_.result();
    fit_->setEnabled(true);
    if (!out.fit) {
        status_->setText(tr("The fit failed: %1").arg(QString::fromStdString(out.error)));
        Q_EMIT fitFinished();
        return;
    }
    result_ = out.fit;
    apply_->setEnabled(true);
    status_->setText(tr("eps_inf = %1, %2 poles, %3 points.\nRMS relative error of eps: %4 (max %5).\n"
                        "RMS = sqrt(mean |eps_fit - eps_data|^2 / |eps_data|^2).")
                         .arg(result_->epsilon_inf, 0, 'g', 5)
                         .arg(result_->poles.size())
                         .arg(result_->samples_used)
                         .arg(result_->rms_relative_error, 0, 'g', 3)
                         .arg(result_->max_relative_error, 0, 'g', 3));
    refreshPlot();
    Q_EMIT fitFinished();
}

void PoleFitDialog::refreshPlot() {
    const MaterialPlotMode mode = mode_->currentIndex() == 1 ? MaterialPlotMode::RefractiveIndex : MaterialPlotMode::Epsilon;
    double lo = lo_->value(), hi = hi_->value();
    if (!(hi > lo)) hi = lo * 1.5;
    if (result_) plot_material(plot_, result_->epsilon_inf, 0.0, result_->poles, lo, hi, mode, data_.samples);
    else plot_material(plot_, 1.0, 0.0, {}, lo, hi, mode, data_.samples, 2);
    if (!result_) {
        plot_->graph(0)->data()->clear();
        plot_->graph(1)->data()->clear();
        plot_->graph(0)->removeFromLegend();
        plot_->graph(1)->removeFromLegend();
        // An empty legend caps the layout column's width (QCustomPlot takes the smallest
        // maximum of a column's elements, an empty legend's is its margins): the axes were
        // squashed to a strip before any data. Out of the layout until it has entries
        // (plot_material puts the legend row back).
        bool entries = false;  // (the legend's grid keeps empty cells where entries were)
        for (int k = 0; k < plot_->legend->itemCount(); ++k) entries = entries || plot_->legend->item(k);
        if (!entries && plot_->legend->layout() == plot_->plotLayout()) {
            plot_->plotLayout()->take(plot_->legend);
            plot_->plotLayout()->simplify();
            plot_->legend->setVisible(false);
            plot_->setProperty("golightlyLegendRow", false);
        }
        plot_->rescaleAxes();
        plot_->xAxis->setRange(lo, hi);
        plot_->replot();
    } else {
        plot_->graph(0)->setName(mode == MaterialPlotMode::RefractiveIndex ? tr("n (fit)") : tr("Re eps (fit)"));
        plot_->graph(1)->setName(mode == MaterialPlotMode::RefractiveIndex ? tr("k (fit)") : tr("Im eps (fit)"));
        plot_->replot();
    }
}

}  // namespace golightly::editor
