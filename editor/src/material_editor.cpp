#include "material_editor.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "editor_document.hpp"
#include "pole_fit_dialog.hpp"
#include "qcustomplot_include.hpp"

namespace golightly::editor {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }
constexpr double kTwoPi = 6.283185307179586;

}  // namespace

double frequency_to_unit(double omega_rad_s, FrequencyUnit unit) {
    switch (unit) {
    case FrequencyUnit::ElectronVolt: return omega_rad_s / kRadPerSecondPerElectronVolt;
    case FrequencyUnit::Terahertz: return omega_rad_s / (kTwoPi * 1e12);
    default: return omega_rad_s;
    }
}

double frequency_from_unit(double value, FrequencyUnit unit) {
    switch (unit) {
    case FrequencyUnit::ElectronVolt: return value * kRadPerSecondPerElectronVolt;
    case FrequencyUnit::Terahertz: return value * kTwoPi * 1e12;
    default: return value;
    }
}

QString frequency_unit_name(FrequencyUnit unit) {
    switch (unit) {
    case FrequencyUnit::ElectronVolt: return QStringLiteral("eV");
    case FrequencyUnit::Terahertz: return QStringLiteral("THz");
    default: return QStringLiteral("rad/s");
    }
}

std::pair<double, double> material_plot_band_um(const Project& project) {
    double lo = project.run.spectrum.wavelength_min, hi = project.run.spectrum.wavelength_max;
    for (const auto& s : project.sources) {
        if (s.waveform.type != WaveformType::GaussianPulse) continue;
        const double c = s.waveform.wavelength_center, w = s.waveform.wavelength_span;
        if (c - w > 0) lo = std::min(lo, c - w);
        hi = std::max(hi, c + w);
    }
    if (!(lo > 0) || !(hi > lo) || !std::isfinite(hi)) return {0.4, 1.6};
    return {lo, hi};
}

void plot_material(QCustomPlot* plot, double epsilon_inf, double sigma_s_per_m, const std::vector<Pole>& poles,
                   double lo_um, double hi_um, MaterialPlotMode mode, const std::vector<OpticalSample>& data,
                   int points) {
    while (plot->graphCount() < 4) plot->addGraph();
    if (!plot->property("golightlyLegendRow").toBool()) {
        // the legend in a row of its own above the axes, so it never hides a curve
        plot->setProperty("golightlyLegendRow", true);
        plot->plotLayout()->insertRow(0);
        plot->plotLayout()->addElement(0, 0, plot->legend);
        plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        plot->legend->setBorderPen(Qt::NoPen);
        plot->plotLayout()->setRowStretchFactor(0, 0.001);
    }
    const bool nk = mode == MaterialPlotMode::RefractiveIndex;
    QVector<double> x, re, im;
    for (int i = 0; i < points; ++i) {
        const double wl = lo_um + (hi_um - lo_um) * i / std::max(1, points - 1);
        const auto eps = model_epsilon(epsilon_inf, sigma_s_per_m, poles, wavelength_um_to_omega(wl));
        const auto v = nk ? nk_from_epsilon(eps) : eps;
        x << wl;
        re << v.real();
        im << v.imag();
    }
    QVector<double> dx, dre, dim;
    for (const auto& s : data) {
        if (s.wavelength_um < lo_um || s.wavelength_um > hi_um) continue;
        const std::complex<double> v = nk ? std::complex<double>(s.n, s.k) : epsilon_from_nk(s.n, s.k);
        dx << s.wavelength_um;
        dre << v.real();
        dim << v.imag();
    }
    const QColor blue(31, 119, 180), red(214, 39, 40);
    plot->graph(0)->setData(x, re, true);
    plot->graph(0)->setPen(QPen(blue, 2));
    plot->graph(0)->setName(nk ? QObject::tr("n") : QObject::tr("Re eps"));
    plot->graph(1)->setData(x, im, true);
    plot->graph(1)->setPen(QPen(red, 2));
    plot->graph(1)->setName(nk ? QObject::tr("k") : QObject::tr("Im eps"));
    for (int g = 2; g < 4; ++g) {
        plot->graph(g)->setLineStyle(QCPGraph::lsNone);
        plot->graph(g)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, g == 2 ? blue : red, 5));
        plot->graph(g)->setPen(QPen(g == 2 ? blue : red));
    }
    plot->graph(2)->setData(dx, dre, true);
    plot->graph(3)->setData(dx, dim, true);
    plot->graph(2)->setName(nk ? QObject::tr("n (data)") : QObject::tr("Re eps (data)"));
    plot->graph(3)->setName(nk ? QObject::tr("k (data)") : QObject::tr("Im eps (data)"));
    plot->graph(0)->addToLegend();
    plot->graph(1)->addToLegend();
    plot->graph(2)->removeFromLegend();
    plot->graph(3)->removeFromLegend();
    if (!dx.isEmpty()) {
        plot->graph(2)->addToLegend();
        plot->graph(3)->addToLegend();
    }
    plot->xAxis->setLabel(QObject::tr("Wavelength (µm)"));
    plot->yAxis->setLabel(nk ? QObject::tr("n, k") : QObject::tr("eps"));
    plot->legend->setVisible(true);
    plot->rescaleAxes();
    plot->xAxis->setRange(lo_um, hi_um);
    const QCPRange y = plot->yAxis->range();
    const double pad = 0.05 * std::max(y.size(), 1e-9);
    plot->yAxis->setRange(y.lower - pad, y.upper + pad);
    plot->replot();
}

// ---------------------------------------------------------------- material editor

MaterialEditorDialog::MaterialEditorDialog(EditorDocument* doc, Prompts* prompts, int materialIndex, QWidget* parent)
    : QDialog(parent), doc_(doc), prompts_(prompts), index_(materialIndex) {
    setObjectName(QStringLiteral("MaterialEditorDialog"));
    setAttribute(Qt::WA_DeleteOnClose, false);
    resize(900, 560);
    auto* outer = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    auto* left = new QWidget;
    auto* v = new QVBoxLayout(left);
    v->setContentsMargins(0, 0, 0, 0);
    auto* form = new QFormLayout;
    id_ = new QLineEdit;
    name_ = new QLineEdit;
    epsInf_ = new QLineEdit;
    sigma_ = new QLineEdit;
    epsInf_->setToolTip(tr("High-frequency permittivity eps_inf (>= 1 keeps the vacuum Courant limit)"));
    sigma_->setToolTip(tr("Static conductivity: adds i sigma / (eps0 w) to eps"));
    form->addRow(tr("ID"), id_);
    form->addRow(tr("Name"), name_);
    form->addRow(tr("eps_inf"), epsInf_);
    form->addRow(tr("Conductivity (S/m)"), sigma_);
    unitCombo_ = new QComboBox;
    unitCombo_->addItem(tr("rad/s"), int(FrequencyUnit::RadPerSecond));
    unitCombo_->addItem(tr("eV (hbar omega)"), int(FrequencyUnit::ElectronVolt));
    unitCombo_->addItem(tr("THz (omega / 2 pi)"), int(FrequencyUnit::Terahertz));
    unitCombo_->setToolTip(tr("Display unit of the pole frequencies; the project stores rad/s"));
    form->addRow(tr("Frequency unit"), unitCombo_);
    v->addLayout(form);
    v->addWidget(new QLabel(tr("Poles: eps(w) = eps_inf + i sigma/(eps0 w) + sum omega_p^2 / (omega_0^2 - w^2 - i w gamma)")));
    poles_ = new QTableWidget(0, ColCount);
    poles_->verticalHeader()->hide();
    poles_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    poles_->setSelectionBehavior(QAbstractItemView::SelectRows);
    poles_->setToolTip(tr("Kind: drude (omega_0 = 0) or lorentz. Frequencies in the selected unit."));
    v->addWidget(poles_, 1);
    auto* pb = new QHBoxLayout;
    auto* addB = new QPushButton(tr("Add pole"));
    auto* delB = new QPushButton(tr("Remove pole"));
    auto* fitB = new QPushButton(tr("Fit to data..."));
    pb->addWidget(addB);
    pb->addWidget(delB);
    pb->addStretch();
    pb->addWidget(fitB);
    v->addLayout(pb);
    auto* lb = new QHBoxLayout;
    auto* saveB = new QPushButton(tr("Save to personal library"));
    lb->addWidget(saveB);
    lb->addStretch();
    v->addLayout(lb);

    auto* right = new QWidget;
    auto* rv = new QVBoxLayout(right);
    rv->setContentsMargins(0, 0, 0, 0);
    auto* modeRow = new QHBoxLayout;
    modeCombo_ = new QComboBox;
    modeCombo_->addItem(tr("Re eps, Im eps"));
    modeCombo_->addItem(tr("n, k"));
    modeRow->addWidget(new QLabel(tr("Plot")));
    modeRow->addWidget(modeCombo_);
    modeRow->addStretch();
    bandLabel_ = new QLabel;
    modeRow->addWidget(bandLabel_);
    rv->addLayout(modeRow);
    plot_ = new QCustomPlot;
    plot_->setMinimumSize(380, 300);
    rv->addWidget(plot_, 1);

    auto* split = new QSplitter;
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    top->addWidget(split);
    content_ = split;
    outer->addLayout(top, 1);
    auto* closeRow = new QHBoxLayout;
    auto* closeB = new QPushButton(tr("Close"));
    closeRow->addStretch();
    closeRow->addWidget(closeB);
    outer->addLayout(closeRow);

    connect(addB, &QPushButton::clicked, this, &MaterialEditorDialog::addPole);
    connect(delB, &QPushButton::clicked, this, &MaterialEditorDialog::removeSelectedPole);
    connect(fitB, &QPushButton::clicked, this, &MaterialEditorDialog::openFitDialog);
    connect(saveB, &QPushButton::clicked, this, &MaterialEditorDialog::saveToPersonalLibrary);
    connect(closeB, &QPushButton::clicked, this, &QDialog::accept);
    for (QLineEdit* e : {id_, name_, epsInf_, sigma_})
        connect(e, &QLineEdit::editingFinished, this, [this, e] { commitField(e); });
    connect(poles_, &QTableWidget::cellChanged, this, &MaterialEditorDialog::poleEdited);
    connect(unitCombo_, &QComboBox::currentIndexChanged, this,
            [this](int i) { setUnit(FrequencyUnit(unitCombo_->itemData(i).toInt())); });
    connect(modeCombo_, &QComboBox::currentIndexChanged, this,
            [this](int i) { setPlotMode(i == 1 ? MaterialPlotMode::RefractiveIndex : MaterialPlotMode::Epsilon); });
    if (const Material* m = material()) trackedId_ = m->id;
    connect(doc_, &EditorDocument::changed, this, [this] {
        trackMaterial();
        refresh();
    });
    refresh();
}

void MaterialEditorDialog::trackMaterial() {
    const auto& ms = doc_->project().materials;
    if (index_ >= 0 && index_ < int(ms.size()) && ms[size_t(index_)].id == trackedId_) return;
    for (int i = 0; i < int(ms.size()); ++i)
        if (ms[size_t(i)].id == trackedId_) {
            index_ = i;  // moved: another material was added or removed before it
            return;
        }
    if (index_ >= 0 && index_ < int(ms.size())) trackedId_ = ms[size_t(index_)].id;  // renamed
    else index_ = -1;  // removed
}

const Material* MaterialEditorDialog::material() const {
    const auto& ms = doc_->project().materials;
    return index_ >= 0 && index_ < int(ms.size()) ? &ms[size_t(index_)] : nullptr;
}

void MaterialEditorDialog::setUnit(FrequencyUnit unit) {
    unit_ = unit;
    const int i = unitCombo_->findData(int(unit));
    if (i != unitCombo_->currentIndex()) {
        const QSignalBlocker block(unitCombo_);
        unitCombo_->setCurrentIndex(i);
    }
    refresh();
}

void MaterialEditorDialog::setPlotMode(MaterialPlotMode mode) {
    mode_ = mode;
    const int i = mode == MaterialPlotMode::RefractiveIndex ? 1 : 0;
    if (modeCombo_->currentIndex() != i) {
        const QSignalBlocker block(modeCombo_);
        modeCombo_->setCurrentIndex(i);
    }
    refreshPlot();
}

void MaterialEditorDialog::refresh() {
    updating_ = true;
    const Material* m = material();
    content_->setEnabled(m != nullptr);
    if (!m) {
        setWindowTitle(tr("Material (removed)"));
        poles_->setRowCount(0);
        updating_ = false;
        return;
    }
    setWindowTitle(tr("Material \"%1\"").arg(qs(m->id)));
    id_->setText(qs(m->id));
    name_->setText(qs(m->name));
    epsInf_->setText(QString::number(m->epsilon_inf, 'g', 10));
    sigma_->setText(QString::number(m->conductivity, 'g', 10));
    const QString u = frequency_unit_name(unit_);
    poles_->setHorizontalHeaderLabels(
        {tr("Kind"), tr("omega_p (%1)").arg(u), tr("omega_0 (%1)").arg(u), tr("gamma (%1)").arg(u)});
    poles_->setRowCount(int(m->poles.size()));
    for (int r = 0; r < int(m->poles.size()); ++r) {
        const Pole& p = m->poles[size_t(r)];
        poles_->setItem(r, ColKind, new QTableWidgetItem(p.kind == PoleKind::Drude ? QStringLiteral("drude")
                                                                                  : QStringLiteral("lorentz")));
        const double vals[3] = {p.omega_p, p.omega_0, p.gamma};
        for (int c = 0; c < 3; ++c) {
            // 7 significant digits shown (the library's precision), all of them in the tooltip
            const double shown = frequency_to_unit(vals[c], unit_);
            auto* item = new QTableWidgetItem(QString::number(shown, 'g', 7));
            item->setToolTip(QStringLiteral("%1 %2 = %3 rad/s")
                                 .arg(QString::number(shown, 'g', 15), u, QString::number(vals[c], 'g', 15)));
            poles_->setItem(r, ColOmegaP + c, item);
        }
        if (p.kind == PoleKind::Drude) poles_->item(r, ColOmega0)->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    }
    updating_ = false;
    refreshPlot();
}

void MaterialEditorDialog::refreshPlot() {
    const Material* m = material();
    if (!m) return;
    const auto [lo, hi] = material_plot_band_um(doc_->project());
    bandLabel_->setText(tr("%1 - %2 µm").arg(lo, 0, 'g', 4).arg(hi, 0, 'g', 4));
    plot_material(plot_, m->epsilon_inf, m->conductivity, m->poles, lo, hi, mode_);
}

void MaterialEditorDialog::commitField(QLineEdit* e) {
    if (updating_) return;
    const Material* m = material();
    if (!m) return;
    const QString text = e->text().trimmed();
    const int row = index_;
    if (e == id_) {
        const std::string id = text.toStdString();
        if (id == m->id) return;
        bool clash = id.empty() || id == "air";
        const auto& ms = doc_->project().materials;
        for (int i = 0; i < int(ms.size()); ++i) clash |= (i != row && ms[size_t(i)].id == id);
        if (clash) {
            prompts_->error(tr("Material id"), tr("The id \"%1\" is empty or already used.").arg(text));
            QTimer::singleShot(0, this, &MaterialEditorDialog::refresh);
            return;
        }
        const std::string oldId = m->id;
        doc_->editProject(tr("Rename material"), [&](Project& p) {
            p.materials[size_t(row)].id = id;
            for (auto& l : p.layers)
                if (l.material == oldId) l.material = id;
            if (p.domain.background == oldId) p.domain.background = id;
        });
        return;
    }
    if (e == name_) {
        if (text.toStdString() == m->name) return;
        doc_->editProject(tr("Rename material"), [&](Project& p) { p.materials[size_t(row)].name = text.toStdString(); });
        return;
    }
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (e == epsInf_) {
        if (ok && std::isfinite(v) && v >= 1e-6) {
            if (v != m->epsilon_inf)
                doc_->editProject(tr("Edit eps_inf"), [&](Project& p) { p.materials[size_t(row)].epsilon_inf = v; });
            return;
        }
    } else if (e == sigma_) {
        if (ok && std::isfinite(v) && v >= 0) {
            if (v != m->conductivity)
                doc_->editProject(tr("Edit conductivity"), [&](Project& p) { p.materials[size_t(row)].conductivity = v; });
            return;
        }
    }
    prompts_->error(tr("Material"), tr("\"%1\" is not a valid value here.").arg(text));
    QTimer::singleShot(0, this, &MaterialEditorDialog::refresh);
}

void MaterialEditorDialog::poleEdited(int r, int col) {
    if (updating_) return;
    const Material* m = material();
    if (!m || r < 0 || r >= int(m->poles.size())) return;
    const QString text = poles_->item(r, col)->text().trimmed();
    Pole pole = m->poles[size_t(r)];
    bool ok = true;
    if (col == ColKind) {
        if (text.compare(QStringLiteral("drude"), Qt::CaseInsensitive) == 0) {
            pole.kind = PoleKind::Drude;
            pole.omega_0 = 0;
        } else if (text.compare(QStringLiteral("lorentz"), Qt::CaseInsensitive) == 0) {
            pole.kind = PoleKind::Lorentz;
        } else {
            ok = false;
        }
    } else {
        const double v = text.toDouble(&ok);
        ok = ok && std::isfinite(v) && v >= 0;
        if (ok) {
            const double si = frequency_from_unit(v, unit_);
            (col == ColOmegaP ? pole.omega_p : col == ColOmega0 ? pole.omega_0 : pole.gamma) = si;
        }
    }
    if (!ok) {
        prompts_->error(tr("Pole"), tr("\"%1\" is not a valid value here.").arg(text));
        QTimer::singleShot(0, this, &MaterialEditorDialog::refresh);
        return;
    }
    const int row = index_;
    doc_->editProject(tr("Edit pole"), [&](Project& p) { p.materials[size_t(row)].poles[size_t(r)] = pole; });
}

void MaterialEditorDialog::addPole() {
    if (!material()) return;
    Pole pole;
    pole.kind = PoleKind::Lorentz;
    pole.omega_p = 1e15;
    pole.omega_0 = 2e15;
    pole.gamma = 1e14;
    const int row = index_;
    doc_->editProject(tr("Add pole"), [&](Project& p) { p.materials[size_t(row)].poles.push_back(pole); });
}

void MaterialEditorDialog::removeSelectedPole() {
    const Material* m = material();
    const int r = poles_->currentRow();
    if (!m || r < 0 || r >= int(m->poles.size())) return;
    const int row = index_;
    doc_->editProject(tr("Remove pole"), [&](Project& p) {
        auto& poles = p.materials[size_t(row)].poles;
        poles.erase(poles.begin() + r);
    });
}

void MaterialEditorDialog::openFitDialog() {
    if (!material()) return;
    const auto [lo, hi] = material_plot_band_um(doc_->project());
    PoleFitDialog dialog(lo, hi, this);
    if (dialog.exec() == QDialog::Accepted && dialog.result()) applyFit(*dialog.result());
}

void MaterialEditorDialog::applyFit(const PoleFitResult& fit) {
    if (!material()) return;
    const int row = index_;
    doc_->editProject(tr("Fit poles"), [&](Project& p) {
        Material& m = p.materials[size_t(row)];
        m.epsilon_inf = fit.epsilon_inf;
        m.conductivity = 0;
        m.poles = fit.poles;
    });
}

bool MaterialEditorDialog::saveToPersonalLibrary() {
    const Material* m = material();
    if (!m) return false;
    try {
        std::string source;
        if (auto it = m->extra.find("source"); it != m->extra.end() && it->is_string()) source = it->get<std::string>();
        save_to_personal_material_library(*m, source);
    } catch (const std::exception& e) {
        prompts_->error(tr("Personal library"), QString::fromStdString(e.what()));
        return false;
    }
    return true;
}

// ---------------------------------------------------------------- library picker

MaterialLibraryDialog::MaterialLibraryDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Add material from library"));
    resize(520, 420);
    auto* v = new QVBoxLayout(this);
    list_ = new QListWidget;
    source_ = new QLabel;
    source_->setWordWrap(true);
    v->addWidget(list_, 1);
    v->addWidget(source_);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    v->addWidget(box);
    connect(box, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(list_, &QListWidget::itemDoubleClicked, this, &QDialog::accept);
    try {
        materials_ = material_library();
    } catch (const std::exception& e) {
        error_ = QString::fromStdString(e.what());
        source_->setText(error_);
    }
    for (const auto& lm : materials_) {
        QString text = QStringLiteral("%1 - %2").arg(qs(lm.material.id), qs(lm.material.name));
        if (lm.personal) text += QStringLiteral("  ") + tr("(personal)");
        list_->addItem(text);
    }
    connect(list_, &QListWidget::currentRowChanged, this, [this](int r) {
        if (r < 0 || r >= int(materials_.size())) return;
        const auto& lm = materials_[size_t(r)];
        source_->setText(tr("%1 poles. Source: %2")
                             .arg(lm.material.poles.size())
                             .arg(lm.source.empty() ? tr("not given") : qs(lm.source)));
    });
    if (!materials_.empty()) list_->setCurrentRow(0);
}

std::optional<LibraryMaterial> MaterialLibraryDialog::selected() const {
    const int r = list_->currentRow();
    if (r < 0 || r >= int(materials_.size())) return std::nullopt;
    return materials_[size_t(r)];
}

int add_library_material(EditorDocument* doc, const Material& material) {
    Material m = material;
    const auto& ms = doc->project().materials;
    auto used = [&](const std::string& id) {
        if (id == "air") return true;
        for (const auto& x : ms)
            if (x.id == id) return true;
        return false;
    };
    const std::string base = m.id.empty() ? std::string("material") : m.id;
    m.id = base;
    for (int n = 2; used(m.id); ++n) m.id = base + "_" + std::to_string(n);
    doc->editProject(QObject::tr("Add material from library"), [&](Project& p) { p.materials.push_back(m); });
    return int(doc->project().materials.size()) - 1;
}

}  // namespace golightly::editor
