// GoLightly editor: the Run setup dock (run_setup_dock.hpp).
#include "run_setup_dock.hpp"
#include "switch_3d_dialog.hpp"
#include "dimensions.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

#include "dock_util.hpp"
#include "expressions.hpp"
#include "number_spin_box.hpp"
#include "run_checks.hpp"

namespace golightly::editor {

RunSetupDock::RunSetupDock(EditorDocument* doc, QWidget* parent) : QDockWidget(tr("Run setup"), parent), doc_(doc) {
    setObjectName(QStringLiteral("RunSetupDock"));
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    auto* body = new QWidget;
    auto* form = new QFormLayout(body);
    const QString um = tr(" µm");
    sizeX_ = make_spin(0.01, 1e5, 3, 0.5, um);
    sizeY_ = make_spin(0.01, 1e5, 3, 0.5, um);
    cell_ = make_spin(0.0001, 10, 4, 0.005, um);
    resolution_ = new QLabel;
    resolution_->setWordWrap(true);
    polarization_ = new QComboBox;
    polarization_->addItems({tr("TMz (Ez, Hx, Hy)"), tr("TEz (Hz, Ex, Ey)")});
    const QStringList bounds{tr("PML"), tr("periodic"), tr("PEC"), tr("PMC"), tr("Mur")};
    boundX_ = new QComboBox;
    boundX_->addItems(bounds);
    boundY_ = new QComboBox;
    boundY_->addItems(bounds);
    pml_ = new QSpinBox;
    pml_->setRange(1, 200);
    pml_->setKeyboardTracking(false);
    wlMin_ = make_spin(0.01, 1000, 4, 0.05, um);
    wlMax_ = make_spin(0.01, 1000, 4, 0.05, um);
    points_ = new QSpinBox;
    points_->setRange(1, 100000);
    points_->setKeyboardTracking(false);
    courant_ = make_spin(0.01, 0.99, 3, 0.05, QString());
    decay_ = make_spin(1, 300, 1, 5, tr(" dB"));
    maxTime_ = make_spin(1, 1e9, 0, 500, tr(" fs"));
    normalization_ = new QCheckBox(tr("Normalize with a reference run"));
    referenceLayers_ = new QListWidget;
    referenceLayers_->setMaximumHeight(80);
    referenceLayers_->setToolTip(tr("Layers of the reference (normalization) run, e.g. the straight waveguide"));
    incident_ = new QComboBox;
    incident_->setToolTip(tr("Monitor that measures the incident flux (default: the first reflection, else transmission monitor)"));
    subpixel_ = new QCheckBox(tr("Sub-pixel averaging"));
    // run.subpixel_metal, in SubpixelMetal's order
    metal_ = new QComboBox;
    metal_->setObjectName(QStringLiteral("runSetup.subpixelMetal"));
    metal_->addItems({tr("Tangential (default)"), tr("Staircase"), tr("Fill fraction"), tr("Conformal")});
    metal_->setItemData(0, tr("Metal poles averaged for E along the surface, staircased for E normal to it: "
                              "never worse than staircasing"), Qt::ToolTipRole);
    metal_->setItemData(1, tr("Cells cut by a metal take the material that fills most of the cell, as "
                              "Lumerical does"), Qt::ToolTipRole);
    metal_->setItemData(2, tr("Metal poles weighted by the fill fraction for every component: absorbs "
                              "spuriously at curved surfaces (for comparison)"), Qt::ToolTipRole);
    metal_->setItemData(3, tr("On metal faces along the grid axes, the metal's full eps(omega) averaged as for "
                              "dielectrics, realized exactly by poles of each cut cell; curved metals as Tangential"),
                        Qt::ToolTipRole);
    metal_->setToolTip(tr("How cells cut by a dispersive (Lorentz/Drude) material are averaged"));
    backend_ = new QComboBox;
    backend_->addItems({tr("auto"), tr("CUDA"), tr("CPU")});
    precision_ = new QComboBox;
    precision_->addItems({tr("float32"), tr("float64")});

    // 3D (issue 16): the dimensions switch, the z size and boundary, the live slice
    dims_ = new QComboBox;
    dims_->setObjectName(QStringLiteral("runSetup.dimensions"));
    dims_->addItems({tr("2D"), tr("3D")});
    dims_->setToolTip(tr("2D (one cell in z, TMz or TEz) or 3D (all six field components); switching keeps "
                         "the drawing: layers become extrusions over their z range"));
    sizeZ_ = make_spin(0.01, 1e5, 3, 0.5, um);
    sizeZ_->setObjectName(QStringLiteral("runSetup.sizeZ"));
    boundZ_ = new QComboBox;
    boundZ_->setObjectName(QStringLiteral("runSetup.boundaryZ"));
    boundZ_->addItems(bounds);
    // Mirror symmetry per axis (project-format.md "Symmetry"): index 0 none, 1 even (+1),
    // 2 odd (-1).
    const QStringList syms{tr("none"), tr("even (+1, PMC plane)"), tr("odd (-1, PEC plane)")};
    for (int a = 0; a < 3; ++a) {
        symmetry_[a] = new QComboBox;
        symmetry_[a]->setObjectName(QStringLiteral("runSetup.symmetry") + QChar("xyz"[a]));
        symmetry_[a]->addItems(syms);
        symmetry_[a]->setToolTip(tr("Mirror symmetry through the domain's centre plane normal to %1: the run "
                                    "simulates the upper half only (half the cost) and reports the whole domain. "
                                    "Even: E tangential to the plane is even (a z dipole is even in x and y); "
                                    "odd: it is odd (a z dipole is odd in z).")
                                     .arg(QChar("xyz"[a])));
    }
    framesPlane_ = new QComboBox;
    framesPlane_->setObjectName(QStringLiteral("runSetup.framesPlane"));
    framesPlane_->addItems({QStringLiteral("xy"), QStringLiteral("xz"), QStringLiteral("yz")});
    framesPlane_->setToolTip(tr("The slice of the 3D grid the field view shows when a run starts "
                                "(changeable while running in the Run tool bar)"));
    framesPos_ = make_spin(-1e5, 1e5, 3, 0.05, um);
    framesPos_->setObjectName(QStringLiteral("runSetup.framesPosition"));
    framesPos_->setToolTip(tr("Position of the slice along its normal"));
    form->addRow(tr("Dimensions"), dims_);
    form->addRow(tr("Domain x"), sizeX_);
    form->addRow(tr("Domain y"), sizeY_);
    form->addRow(tr("Domain z"), sizeZ_);
    form->addRow(tr("Cell size"), cell_);
    form->addRow(QString(), resolution_);
    form->addRow(tr("Polarization"), polarization_);
    form->addRow(tr("Boundary x"), boundX_);
    form->addRow(tr("Boundary y"), boundY_);
    form->addRow(tr("Boundary z"), boundZ_);
    form->addRow(tr("Symmetry x"), symmetry_[0]);
    form->addRow(tr("Symmetry y"), symmetry_[1]);
    form->addRow(tr("Symmetry z"), symmetry_[2]);
    form->addRow(tr("Slice plane"), framesPlane_);
    form->addRow(tr("Slice position"), framesPos_);
    form->addRow(tr("PML cells"), pml_);
    form->addRow(tr("Shortest wavelength"), wlMin_);
    form->addRow(tr("Longest wavelength"), wlMax_);
    form->addRow(tr("Spectrum points"), points_);
    form->addRow(tr("Courant number"), courant_);
    form->addRow(tr("Stop at decay"), decay_);
    form->addRow(tr("Max time"), maxTime_);
    form->addRow(QString(), normalization_);
    form->addRow(tr("Reference layers"), referenceLayers_);
    form->addRow(tr("Incident monitor"), incident_);
    // set-up mistakes that spoil the results (run_checks.hpp), e.g. a reflection monitor behind the source
    warnings_ = new QLabel;
    warnings_->setObjectName(QStringLiteral("runWarnings"));
    warnings_->setWordWrap(true);
    warnings_->setStyleSheet(QStringLiteral("QLabel { color: #9a4a00; }"));
    warnings_->setVisible(false);
    form->addRow(warnings_);
    form->addRow(QString(), subpixel_);
    form->addRow(tr("Metals at cut cells"), metal_);
    form->addRow(tr("Backend"), backend_);
    form->addRow(tr("Precision"), precision_);
    scroll->setWidget(body);
    setWidget(scroll);

    // Each numeric field takes a number or an expression over the parameters
    // (expressions.hpp): a number is applied as it changes, an expression when entered.
    exprFields_.reserve(16);
    auto dbl = [this, form](QDoubleSpinBox* s, const QString& text, std::function<void(Project&, double)> f) {
        auto* ns = static_cast<NumberSpinBox*>(s);
        ns->setEvaluator([this](const QString& t) { return evaluate_in(doc_->project(), t); });
        auto* label = new QLabel;
        label->setWordWrap(true);
        label->setVisible(false);
        int row = -1;
        QFormLayout::ItemRole role;
        form->getWidgetPosition(s, &row, &role);
        if (row >= 0) form->insertRow(row + 1, label);
        ns->setValueLabel(label);
        exprFields_.push_back({ns, text, f, {}, label});
        const std::size_t index = exprFields_.size() - 1;
        connect(s, &QDoubleSpinBox::valueChanged, this, [this, ns, text, f](double v) {
            if (!ns->expression().isEmpty() || !ns->expressionError().isEmpty()) return;  // enterField binds it
            edit(text, [&](Project& p) { f(p, v); });
        });
        connect(s, &QDoubleSpinBox::editingFinished, this, [this, index] { enterField(exprFields_[index]); });
    };
    dbl(sizeX_, tr("Set domain size"), [](Project& p, double v) { p.domain.size[0] = v; });
    dbl(sizeY_, tr("Set domain size"), [](Project& p, double v) { p.domain.size[1] = v; });
    dbl(cell_, tr("Set cell size"), [](Project& p, double v) { p.domain.cell_size = v; });
    dbl(wlMin_, tr("Set spectrum"), [](Project& p, double v) { p.run.spectrum.wavelength_min = v; });
    dbl(wlMax_, tr("Set spectrum"), [](Project& p, double v) { p.run.spectrum.wavelength_max = v; });
    dbl(courant_, tr("Set Courant number"), [](Project& p, double v) { p.run.courant = v; });
    dbl(decay_, tr("Set stop criterion"), [](Project& p, double v) { p.run.stop.decay_db = v; });
    dbl(maxTime_, tr("Set stop criterion"), [](Project& p, double v) { p.run.stop.max_time_fs = v; });
    connect(pml_, &QSpinBox::valueChanged, this, [this](int v) { edit(tr("Set PML cells"), [v](Project& p) { p.domain.pml.cells = v; }); });
    connect(points_, &QSpinBox::valueChanged, this, [this](int v) { edit(tr("Set spectrum"), [v](Project& p) { p.run.spectrum.points = v; }); });
    auto combo = [this](QComboBox* c, const QString& text, std::function<void(Project&, int)> f) {
        connect(c, qOverload<int>(&QComboBox::activated), this, [this, text, f](int i) { edit(text, [&](Project& p) { f(p, i); }); });
    };
    combo(polarization_, tr("Set polarization"), [](Project& p, int i) { p.domain.polarization = Polarization(i); });
    combo(boundX_, tr("Set boundaries"), [](Project& p, int i) { p.domain.boundaries[0] = BoundaryKind(i); });
    combo(boundY_, tr("Set boundaries"), [](Project& p, int i) { p.domain.boundaries[1] = BoundaryKind(i); });
    combo(boundZ_, tr("Set boundaries"), [](Project& p, int i) { p.domain.boundaries[2] = BoundaryKind(i); });
    for (int a = 0; a < 3; ++a)
        combo(symmetry_[a], tr("Set symmetry"),
              [a](Project& p, int i) { p.domain.symmetry[std::size_t(a)] = i == 0 ? 0 : i == 1 ? 1 : -1; });
    dbl(sizeZ_, tr("Set domain size"), [](Project& p, double v) { p.domain.size[2] = v; });
    // 2D -> 3D from the combo asks first: the 3D grid's cost and z layout (Switch3dDialog)
    connect(dims_, qOverload<int>(&QComboBox::activated), this, [this](int i) {
        if (i != 1 || doc_->project().domain.dimensions == 3) return setDimensions(i == 1 ? 3 : 2);
        Switch3dDialog dialog(doc_->project(), this);
        if (dialog.exec() == QDialog::Accepted) doc_->replaceProject(dialog.result(), tr("Switch to 3D"));
        refresh();  // the combo shows what the project is (2D after Cancel)
    });
    // the slice: run.frames when idle; during a run the live slice (liveSliceHandler_)
    connect(framesPlane_, qOverload<int>(&QComboBox::activated), this, [this](int i) {
        if (updating_) return;
        if (liveSliceHandler_ && liveSliceHandler_(i, framesPos_->value(), true)) return;
        edit(tr("Set slice"), [&](Project& p) {
            static const char* planes[3] = {"xy", "xz", "yz"};
            p.run.frames.plane = planes[std::clamp(i, 0, 2)];
        });
    });
    connect(framesPos_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (updating_) return;
        if (liveSliceHandler_ && liveSliceHandler_(framesPlane_->currentIndex(), v, false)) return;
        edit(tr("Set slice"), [&](Project& p) { p.run.frames.position = v; });
    });
    combo(backend_, tr("Set backend"), [](Project& p, int i) { p.run.backend = BackendChoice(i); });
    combo(metal_, tr("Set metal averaging"), [](Project& p, int i) { p.run.subpixel_metal = SubpixelMetal(i); });
    combo(precision_, tr("Set precision"), [](Project& p, int i) { p.run.precision = Precision(i); });
    connect(normalization_, &QCheckBox::toggled, this, [this](bool on) {
        if (updating_) return;
        // on: the reference structure with it, in one undo step (run_checks.hpp)
        if (on) Q_EMIT statusMessage(set_up_normalization(doc_));
        else edit(tr("Set normalization"), [](Project& p) { p.run.normalization.enabled = false; });
    });
    connect(referenceLayers_, &QListWidget::itemChanged, this, [this] {
        if (updating_) return;
        std::vector<std::string> names;
        for (int r = 0; r < referenceLayers_->count(); ++r)
            if (referenceLayers_->item(r)->checkState() == Qt::Checked) names.push_back(referenceLayers_->item(r)->text().toStdString());
        edit(tr("Set reference layers"), [&](Project& p) { p.run.normalization.reference_layers = names; });
    });
    connect(incident_, qOverload<int>(&QComboBox::activated), this, [this](int i) {
        const QString name = incident_->itemData(i).toString();
        edit(tr("Set incident monitor"), [&](Project& p) {
            if (name.isEmpty()) p.run.normalization.incident_monitor.reset();
            else p.run.normalization.incident_monitor = name.toStdString();
        });
    });
    connect(subpixel_, &QCheckBox::toggled, this, [this](bool on) { edit(tr("Set sub-pixel averaging"), [on](Project& p) { p.run.subpixel_averaging = on; }); });
    connect(doc_, &EditorDocument::changed, this, &RunSetupDock::refresh);
    refresh();
}

const std::string& RunSetupDock::fieldPath(ExprField& f) {
    if (f.path.empty()) {
        const Project& p = doc_->project();
        for (const double probe : {1.2345, 2.3456}) {
            Project q = p;
            f.set(q, probe);
            if (const auto path = changed_field(p, q)) {
                f.path = *path;
                break;
            }
        }
    }
    return f.path;
}

void RunSetupDock::enterField(ExprField& f) {
    if (updating_) return;
    NumberSpinBox* s = f.spin;
    const auto mark = [s](const QString& problem) {
        s->setProperty("invalid", !problem.isEmpty());
        s->setStyleSheet(problem.isEmpty() ? QString()
                                           : QStringLiteral("QDoubleSpinBox { background: #ffd9d9; color: #8a0000; border: 1px solid #d00000; }"));
        s->setToolTip(problem.isEmpty() ? QString() : tr("Not applied: %1").arg(problem));
    };
    if (!s->expressionError().isEmpty()) return mark(s->expressionError());
    mark(QString());
    const Project& p = doc_->project();
    const QString expr = s->expression();
    const std::string& path = fieldPath(f);
    if (expr.isEmpty()) {  // a number: it replaces the field's expression
        if (!path.empty() && expression_at(p, path)) {
            Project after = p;
            f.set(after, s->value());
            remove_expression(after, path);
            doc_->replaceProject(after, f.text);
        }
        return;
    }
    if (path.empty()) return mark(tr("this field takes a number only"));
    Project after = p;
    f.set(after, s->expressionValue());
    set_expression(after, path, expr.toStdString(), s->expressionValue());
    doc_->replaceProject(after, f.text);
}

void RunSetupDock::showSlice(int planeIndex, double positionUm) {
    const bool was = updating_;
    updating_ = true;
    framesPlane_->setCurrentIndex(std::clamp(planeIndex, 0, 2));
    framesPos_->setValue(positionUm);
    updating_ = was;
}

void RunSetupDock::setDimensions(int dims) {
    if (updating_ || dims == doc_->project().domain.dimensions) return;
    const Project after = dims == 3 ? to_3d(doc_->project()) : to_2d(doc_->project());
    doc_->replaceProject(after, dims == 3 ? tr("Switch to 3D") : tr("Switch to 2D"));
}

double RunSetupDock::cellsPerWavelength(const Project& p, double* nMaxOut) {
    double epsMax = 1.0;
    if (const Material* bg = p.find_material(p.domain.background)) epsMax = std::max(epsMax, bg->epsilon_inf);
    for (const auto& l : p.layers)
        if (const Material* m = p.find_material(l.material)) epsMax = std::max(epsMax, m->epsilon_inf);
    const double nMax = std::sqrt(epsMax);
    if (nMaxOut) *nMaxOut = nMax;
    if (p.domain.cell_size <= 0) return 0;
    return p.run.spectrum.wavelength_min / (nMax * p.domain.cell_size);
}

void RunSetupDock::edit(const QString& text, const std::function<void(Project&)>& f) {
    if (updating_) return;
    doc_->editProject(text, f, /*mergeable=*/true);
}

void RunSetupDock::refresh() {
    updating_ = true;
    const Project& p = doc_->project();
    const QStringList warnings = setup_warnings(p);
    warnings_->setText(warnings.isEmpty() ? QString() : QStringLiteral("\u26a0 ") + warnings.join(QStringLiteral("\n\u26a0 ")));
    warnings_->setVisible(!warnings.isEmpty());
    sizeX_->setValue(p.domain.size[0]);
    sizeY_->setValue(p.domain.size[1]);
    cell_->setValue(p.domain.cell_size);
    polarization_->setCurrentIndex(int(p.domain.polarization));
    const bool three = p.domain.dimensions == 3;
    dims_->setCurrentIndex(three ? 1 : 0);
    polarization_->setEnabled(!three);  // 3D runs all six components
    sizeZ_->setValue(p.domain.size[2] > 0 ? p.domain.size[2] : kDefault3dDepthUm);
    sizeZ_->setEnabled(three);
    boundZ_->setCurrentIndex(int(p.domain.boundaries[2]));
    boundZ_->setEnabled(three);
    framesPlane_->setCurrentIndex(std::max(0, framesPlane_->findText(qs(p.run.frames.plane))));
    framesPlane_->setEnabled(three);
    {
        const int normal = p.run.frames.plane == "yz" ? 0 : p.run.frames.plane == "xz" ? 1 : 2;
        framesPos_->setValue(p.run.frames.position.value_or(0.5 * p.domain.size[size_t(normal)]));
    }
    framesPos_->setEnabled(three);
    boundX_->setCurrentIndex(int(p.domain.boundaries[0]));
    boundY_->setCurrentIndex(int(p.domain.boundaries[1]));
    for (int a = 0; a < 3; ++a) {
        const int sgn = p.domain.symmetry[std::size_t(a)];
        symmetry_[a]->setCurrentIndex(sgn == 0 ? 0 : sgn > 0 ? 1 : 2);
    }
    symmetry_[2]->setEnabled(three);
    pml_->setValue(p.domain.pml.cells);
    wlMin_->setValue(p.run.spectrum.wavelength_min);
    wlMax_->setValue(p.run.spectrum.wavelength_max);
    points_->setValue(p.run.spectrum.points);
    courant_->setValue(p.run.courant);
    decay_->setValue(p.run.stop.decay_db);
    maxTime_->setValue(p.run.stop.max_time_fs);
    normalization_->setChecked(p.run.normalization.enabled);
    referenceLayers_->clear();
    for (const auto& l : p.layers) {
        auto* item = new QListWidgetItem(qs(l.name));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        const auto& refs = p.run.normalization.reference_layers;
        item->setCheckState(std::find(refs.begin(), refs.end(), l.name) != refs.end() ? Qt::Checked : Qt::Unchecked);
        referenceLayers_->addItem(item);
    }
    referenceLayers_->setEnabled(p.run.normalization.enabled);
    incident_->clear();
    incident_->addItem(tr("(default)"), QString());
    for (const auto& m : p.monitors)
        if (m.type == MonitorType::Flux) incident_->addItem(qs(m.name), qs(m.name));
    incident_->setCurrentIndex(
        std::max(0, incident_->findData(qs(p.run.normalization.incident_monitor.value_or(std::string())))));
    incident_->setEnabled(p.run.normalization.enabled);
    subpixel_->setChecked(p.run.subpixel_averaging);
    metal_->setCurrentIndex(int(p.run.subpixel_metal));
    metal_->setEnabled(p.run.subpixel_averaging);
    backend_->setCurrentIndex(int(p.run.backend));
    precision_->setCurrentIndex(int(p.run.precision));
    double nMax = 1;
    const double cpw = cellsPerWavelength(p, &nMax);
    const long long nx = p.domain.cell_size > 0 ? (long long)std::ceil(p.domain.size[0] / p.domain.cell_size) : 0;
    const long long ny = p.domain.cell_size > 0 ? (long long)std::ceil(p.domain.size[1] / p.domain.cell_size) : 0;
    const long long nz = p.domain.cell_size > 0 ? (long long)std::ceil(p.domain.size[2] / p.domain.cell_size) : 0;
    resolution_->setText(three ? tr("%1 cells per wavelength (n = %2 at %3 µm); grid %4 x %5 x %6 cells")
                                     .arg(cpw, 0, 'f', 1)
                                     .arg(nMax, 0, 'f', 3)
                                     .arg(p.run.spectrum.wavelength_min)
                                     .arg(nx)
                                     .arg(ny)
                                     .arg(nz)
                               : tr("%1 cells per wavelength (n = %2 at %3 µm); grid %4 x %5 cells")
                                     .arg(cpw, 0, 'f', 1)
                                     .arg(nMax, 0, 'f', 3)
                                     .arg(p.run.spectrum.wavelength_min)
                                     .arg(nx)
                                     .arg(ny));
    resolution_->setStyleSheet(cpw < 10 ? QStringLiteral("color: #c0392b;") : QStringLiteral("color: #2e7d32;"));
    resolution_->setToolTip(tr("At least 10 cells per wavelength in the densest material are recommended; 20+ for accurate phase."));
    for (ExprField& f : exprFields_) {  // the fields bound to expressions show them
        const FieldExpression* e = p.expressions.empty() || fieldPath(f).empty() ? nullptr : expression_at(p, f.path);
        if (e) f.spin->setExpression(qs(e->text), e->value);
        else if (f.spin->expressionError().isEmpty()) f.spin->clearExpression();
    }
    updating_ = false;
}

}  // namespace golightly::editor
