#include "mode_viewer.hpp"
#include "ui_number.hpp"

#include <QLocale>
#include <QColor>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QEventLoop>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "golightly/compile.hpp"
#include "golightly/errors.hpp"
#include "golightly/line_port_modes.hpp"
#include "golightly/mode_cache.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/mode_solver2d.hpp"
#include "golightly/sparams.hpp"
#include "golightly/units.hpp"
#include "qcustomplot_include.hpp"

namespace golightly::app {

namespace {
const char* kAxis = "xyz";

/// The Yee scheme's numerical vacuum wavenumber at `f_hz` (1/um), the k0~ a 2D line's
/// modes are solved at (mode_plane.hpp ModeMonitorPlan::modes): (2 / (c0 dt)) sin(omega dt / 2).
double line_numerical_k0_per_um(const ModeMonitorPlan& plan, double f_hz) {
    const double omega = 2 * M_PI * f_hz;
    return 2.0 / (units::c0 * plan.dt_s) * std::sin(0.5 * omega * plan.dt_s) * 1e-6;
}

PortModes solve_line_port(const Project& project, const std::string& file, const Port& port, double wl, int count) {
    // the port's line as a mode monitor (as run_sparameters places its monitors), alone in
    // the project, over three wavelengths around wl for the group index
    const CompiledProject cp = compile_line_port_modes(project, file, port, wl, count);
    const ModeMonitorPlan& plan = *cp.monitors[0].mode_plan;
    PortModes r;
    r.dimensions = 2;
    r.wavelength_um = wl;
    r.bent = port.bend_radius_um != 0;
    const std::size_t nf = plan.frequencies_hz.size();
    const std::size_t mid = nf / 2;
    const bool tm = project.domain.polarization == Polarization::TMz;
    const int normal = port.direction[1] - 'x';
    r.eName = tm ? QStringLiteral("Ez") : QStringLiteral("E%1").arg(QLatin1Char(kAxis[1 - normal]));
    r.hName = tm ? QStringLiteral("η₀H%1").arg(QLatin1Char(kAxis[1 - normal])) : QStringLiteral("η₀Hz");
    std::size_t nodes = 0;
    for (int k = 0; k < count; ++k) {
        PortModes::Mode md;
        md.n_eff = plan.line_neff[mid][std::size_t(k)];
        if (md.n_eff > 0 && mid < plan.line_neff_imag.size()) {
            // a bent line: its radiation loss, from Im beta = k0~ Im n_eff at the Yee scheme's
            // numerical k0~ (the wavenumber the line's modes are solved at)
            md.n_eff_imag = plan.line_neff_imag[mid][std::size_t(k)];
            const double beta_imag = line_numerical_k0_per_um(plan, plan.frequencies_hz[mid]) * md.n_eff_imag;
            md.loss_db_per_cm = 20.0 / std::log(10.0) * beta_imag * 1e4;
            if (r.bent) md.loss_db_per_90deg = 20.0 / std::log(10.0) * beta_imag * (M_PI * std::abs(port.bend_radius_um) / 2);
        }
        if (md.n_eff > 0 && nf >= 3 && plan.line_neff[0][std::size_t(k)] > 0 && plan.line_neff[nf - 1][std::size_t(k)] > 0) {
            // n_g = n + f dn/df (= n - lambda dn/dlambda), central difference
            const double f0 = plan.frequencies_hz[0], f1 = plan.frequencies_hz[nf - 1];
            md.n_group = md.n_eff + plan.frequencies_hz[mid] * (plan.line_neff[nf - 1][std::size_t(k)] -
                                                                  plan.line_neff[0][std::size_t(k)]) /
                                        (f1 - f0);
        }
        r.modes.push_back(md);
        r.e.push_back(plan.line_e[mid][std::size_t(k)]);
        r.h.push_back(plan.line_h[mid][std::size_t(k)]);
        nodes = std::max(nodes, r.e.back().size());
    }
    // the line's nodes, one per cell it covers (at least half), from its start along the
    // tangential axis (the picture's axis; within half a cell of the solver's nodes)
    const int tan = 1 - normal;
    const double start = port.center[tan] - 0.5 * port.size[tan];
    for (std::size_t k = 0; k < nodes; ++k) r.s_um.push_back(start + (double(k) + 0.5) * plan.dx_um);
    r.uName = QString(QLatin1Char(kAxis[tan]));
    return r;
}

PortModes solve_plane_port(const Project& project, const std::string& file, const Port& port, int index, double wl,
                           int count) {
    // the solve wavelength: dispersive materials are evaluated there (as `golightly-cli modes`)
    Json extra = Json::object();
    if (!port.mode_boundary.is_null()) extra["mode_boundary"] = port.mode_boundary;
    const std::string path = "ports[" + std::to_string(index) + "]";
    CrossSection cs = sample_cross_section(project, port.center, port.size, false, path, file, extra, wl);
    // a port across a Bloch axis with nonzero k: the period's Bloch modes, as its runs use them
    // (the scene's Bloch phases need the compiled project; as `golightly-cli modes`)
    bool any_bloch = false;
    for (int a = 0; a < 3; ++a) any_bloch = any_bloch || project.domain.is_bloch(a);
    if (any_bloch)
        apply_bloch_window(project, compile_project(project, file).scene, cs, extra, "port '" + port.name + "'", path,
                           file);
    // the port's own selection, so that the list is the one its `modes` indices count
    ModeSelection sel;
    sel.target_neff = port.target_neff;
    sel.filter = port.filter == "te" ? ModeFilter::te : port.filter == "tm" ? ModeFilter::tm : ModeFilter::none;
    sel.bend_radius_um = port.bend_radius_um;
    sel.bend_axis = port.bend_axis.empty() ? -1 : port.bend_axis[0] - 'x';
    ModeSolveOptions o;
    o.num_modes = modes_to_solve(count, sel.filter);
    apply_mode_selection(cs, sel, port.center, o, path, file);
    check_mode_solve_limits(cs.grid, cs.medium, o, "port '" + port.name + "'", file, path + ".size");
    std::vector<VectorMode> modes =
        filter_modes(cs, *cached_solve_modes_2d(cs.grid, cs.medium, wl, o), sel.filter, o.target_neff);
    if (int(modes.size()) > count) modes.resize(std::size_t(count));
    PortModes r;
    r.bent = port.bend_radius_um != 0;
    r.dimensions = 3;
    r.wavelength_um = wl;
    r.nu = cs.grid.nu;
    r.nv = cs.grid.nv;
    r.u0_um = cs.u0_um;
    r.v0_um = cs.v0_um;
    r.dx_um = cs.grid.dx_um;
    r.uName = QString(QLatin1Char(kAxis[cs.axis_u]));
    r.vName = QString(QLatin1Char(kAxis[cs.axis_v]));
    // cell (i, j) takes each component's nearest node (the picture, not the physics)
    auto nearest = [&](const std::vector<double>& values, std::array<int, 2> shape, int i, int j) {
        const int a = std::clamp(i, 0, shape[0] - 1), b = std::clamp(j, 0, shape[1] - 1);
        return values.empty() ? 0.0 : values[std::size_t(b) * std::size_t(shape[0]) + std::size_t(a)];
    };
    r.eps.resize(std::size_t(r.nu) * std::size_t(r.nv));
    const auto eshape = mode_component_shape_e(cs.grid, 2);
    for (int j = 0; j < r.nv; ++j)
        for (int i = 0; i < r.nu; ++i)
            r.eps[std::size_t(j) * std::size_t(r.nu) + std::size_t(i)] = nearest(cs.medium.eps[2], eshape, i, j);
    for (const VectorMode& vm : modes) {
        PortModes::Mode md;
        md.n_eff = vm.n_eff;
        md.n_eff_imag = vm.n_eff_imag;
        md.loss_db_per_cm = vm.loss_db_per_cm;
        md.loss_db_per_90deg = vm.loss_db_per_90deg;
        md.bend_loss_resolved = vm.bend_loss_resolved;
        md.outer_window_um = vm.outer_window_um;
        md.n_group = vm.n_group;
        md.te_fraction = vm.te_fraction;
        r.modes.push_back(md);
        std::array<std::vector<double>, 4> maps;
        std::array<std::vector<double>, 3> abs;
        for (int c = 0; c < 3; ++c)
            for (const auto& z : vm.e[std::size_t(c)]) abs[std::size_t(c)].push_back(std::abs(z));
        for (auto& mp : maps) mp.resize(std::size_t(r.nu) * std::size_t(r.nv));
        for (int j = 0; j < r.nv; ++j)
            for (int i = 0; i < r.nu; ++i) {
                const std::size_t k = std::size_t(j) * std::size_t(r.nu) + std::size_t(i);
                double sum = 0;
                for (int c = 0; c < 3; ++c) {
                    const double v = nearest(abs[std::size_t(c)], mode_component_shape_e(cs.grid, c), i, j);
                    maps[std::size_t(c)][k] = v;
                    sum += v * v;
                }
                maps[3][k] = std::sqrt(sum);
            }
        r.maps.push_back(std::move(maps));
    }
    return r;
}
}  // namespace

PortModes solve_port_modes(const Project& project, const std::string& file, int index, double wl, int count) {
    const std::vector<Port> ports = parse_ports(project, file);
    if (index < 0 || index >= int(ports.size())) throw std::invalid_argument("no port " + std::to_string(index));
    if (count < 1) throw std::invalid_argument("at least one mode");
    const Port& port = ports[std::size_t(index)];
    PortModes r = project.domain.dimensions == 3 ? solve_plane_port(project, file, port, index, wl, count)
                                                 : solve_line_port(project, file, port, wl, count);
    r.port = index;
    r.portName = port.name;
    return r;
}

void configure_mode_cache() { set_mode_cache_settings(mode_cache_settings_from_environment()); }

bool select_port_mode(Project& project, const std::string& portName, int mode, bool byTarget, double targetNeff) {
    if (!project.extra.is_object() || !project.extra.contains("ports") || !project.extra["ports"].is_array()) return false;
    for (Json& port : project.extra["ports"]) {
        if (!port.is_object() || !port.contains("name") || port["name"] != portName) continue;
        if (byTarget) {
            port["target_neff"] = targetNeff;
            port["modes"] = Json::array({0});
        } else {
            port["modes"] = Json::array({mode});
        }
        return true;
    }
    return false;
}

ModeViewerDock::ModeViewerDock(editor::EditorDocument* doc, QWidget* parent)
    : QDockWidget(tr("Port Modes"), parent), doc_(doc) {
    setObjectName(QStringLiteral("ModeViewerDock"));
    auto* w = new QWidget;
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(4, 4, 4, 4);
    auto* form = new QFormLayout;
    port_ = new QComboBox;
    port_->setObjectName(QStringLiteral("modePort"));
    form->addRow(tr("Port"), port_);
    auto* row = new QHBoxLayout;
    wavelength_ = new QDoubleSpinBox;
    wavelength_->setObjectName(QStringLiteral("modeWavelength"));
    wavelength_->setDecimals(6);
    wavelength_->setRange(0.01, 1000);
    wavelength_->setSingleStep(0.01);
    wavelength_->setSuffix(QStringLiteral(" µm"));
    count_ = new QSpinBox;
    count_->setObjectName(QStringLiteral("modeCount"));
    count_->setRange(1, 20);
    count_->setValue(4);
    count_->setSuffix(tr(" modes"));
    solveButton_ = new QPushButton(tr("Solve"));
    solveButton_->setObjectName(QStringLiteral("modeSolve"));
    row->addWidget(wavelength_);
    row->addWidget(count_);
    row->addWidget(solveButton_);
    form->addRow(tr("Wavelength"), row);
    component_ = new QComboBox;
    component_->setObjectName(QStringLiteral("modeComponent"));
    component_->addItems({tr("|E|"), tr("|E_u|"), tr("|E_v|"), tr("|E_w| (along the port's normal)"), tr("Permittivity")});
    form->addRow(tr("Picture"), component_);
    auto* pickRow = new QHBoxLayout;
    pickBy_ = new QComboBox;
    pickBy_->setObjectName(QStringLiteral("modePickBy"));
    pickBy_->addItems({tr("by index (modes)"), tr("by target n_eff")});
    pickBy_->setToolTip(tr("How the port keeps the mode picked: its index in this list, or its effective index as "
                           "the port's target_neff (3D)"));
    useButton_ = new QPushButton(tr("Use for the port"));
    useButton_->setObjectName(QStringLiteral("modeUse"));
    useButton_->setToolTip(tr("Make the mode shown the port's mode (also: double-click its picture)"));
    useButton_->setEnabled(false);
    pickRow->addWidget(pickBy_, 1);
    pickRow->addWidget(useButton_);
    form->addRow(tr("Pick"), pickRow);
    v->addLayout(form);
    status_ = new QLabel(tr("Pick a port and Solve: its modes before any run."));
    status_->setObjectName(QStringLiteral("modeStatus"));
    status_->setWordWrap(true);
    v->addWidget(status_);
    auto* split = new QSplitter(Qt::Horizontal);  // the table beside the picture (a dock under the canvas)
    table_ = new QTableWidget(0, 7);
    table_->setObjectName(QStringLiteral("modeTable"));
    table_->setHorizontalHeaderLabels({tr("Mode"), tr("n_eff"), tr("Im n_eff"), tr("Loss (dB/cm)"), tr("n_group"),
                                       tr("TE fraction"), tr("Bend loss (dB/90°)")});
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    split->addWidget(table_);
    plot_ = new QCustomPlot;
    plot_->setObjectName(QStringLiteral("modePlot"));
    plot_->setMinimumSize(220, 200);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    split->addWidget(plot_);
    split->setStretchFactor(1, 2);
    v->addWidget(split, 1);
    setWidget(w);

    connect(solveButton_, &QPushButton::clicked, this, &ModeViewerDock::solve);
    connect(useButton_, &QPushButton::clicked, this, [this] { useShownMode(pickBy_->currentIndex() == 1); });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] { useShownMode(pickBy_->currentIndex() == 1); });
    connect(component_, &QComboBox::currentIndexChanged, this, [this] { showPicture(); });
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int r) {
        if (r >= 0 && r != mode_) {
            mode_ = r;
            showPicture();
            rebuildPorts();  // "Use for the port" follows the mode shown
        }
    });
    connect(doc_, &editor::EditorDocument::changed, this, &ModeViewerDock::rebuildPorts);
    job_.onFinished([this](editor::JobOutcome<std::shared_ptr<const PortModes>>& o) { solveFinished(o); });
    rebuildPorts();
}

ModeViewerDock::~ModeViewerDock() { job_.cancelAndDiscard(); }  // the mode solver is not cancellable: waits

QString ModeViewerDock::statusText() const { return status_->text(); }

void ModeViewerDock::setSettingsStore(std::function<std::unique_ptr<QSettings>()> store) {
    settings_ = std::move(store);
    if (!settings_) return;
    {
        const auto s = settings_();
        count_->setValue(s->value(QStringLiteral("modes/count"), count_->value()).toInt());
        component_->setCurrentIndex(std::clamp(s->value(QStringLiteral("modes/picture"), 0).toInt(), 0, component_->count() - 1));
    }
    auto save = [this] {
        const auto s = settings_();
        s->setValue(QStringLiteral("modes/count"), count_->value());
        s->setValue(QStringLiteral("modes/picture"), component_->currentIndex());
    };
    connect(count_, &QSpinBox::valueChanged, this, save);
    connect(component_, &QComboBox::currentIndexChanged, this, save);
}

void ModeViewerDock::rebuildPorts() {
    const Project& p = doc_->project();
    QStringList names;
    try {
        for (const Port& port : parse_ports(p, doc_->displayName().toStdString())) names << QString::fromStdString(port.name);
    } catch (const std::exception&) {
    }
    QStringList old;
    for (int k = 0; k < port_->count(); ++k) old << port_->itemText(k);
    if (old != names) {
        const QString current = port_->currentText();
        port_->clear();
        port_->addItems(names);
        if (names.contains(current)) port_->setCurrentText(current);
    }
    solveButton_->setEnabled(!names.isEmpty() && !job_.isRunning());
    // the status says what is true of this version of the project (never "no ports" for
    // a project that has them, nor old modes as if they were current)
    if (job_.isRunning() && !discardRunning_) {
        // "Solving..." stays
    } else if (names.isEmpty()) {
        status_->setText(tr("The project has no ports (top-level \"ports\", see the user guide)."));
    } else if (!result_) {
        status_->setText(tr("%n port(s). Pick one and a wavelength, then Solve: its modes before any run.", nullptr,
                            int(names.size())));
    } else if (isStale()) {
        status_->setText(tr("Solved before the last edit (Solve again for the current project): %1").arg(resultText_));
    } else {
        status_->setText(resultText_);
    }
    status_->setStyleSheet(result_ && isStale() ? QStringLiteral("QLabel { color: #8a5300; }") : QString());
    component_->setEnabled(p.domain.dimensions == 3);
    if (p.domain.dimensions != 3) pickBy_->setCurrentIndex(0);  // 2D ports take no target_neff
    pickBy_->setEnabled(p.domain.dimensions == 3);
    useButton_->setEnabled(result_ && !isStale() && mode_ >= 0 && mode_ < int(result_->modes.size()));
    const double lo = p.run.spectrum.wavelength_min, hi = p.run.spectrum.wavelength_max;
    if (lo > 0 && hi > lo && (wavelength_->value() < lo || wavelength_->value() > hi)) wavelength_->setValue(0.5 * (lo + hi));
}

bool ModeViewerDock::isStale() const { return result_ && (!solvedFrom_ || !(*solvedFrom_ == doc_->project())); }

void ModeViewerDock::projectReplaced() {
    result_.reset();
    solvedFrom_.reset();
    resultText_.clear();
    mode_ = 0;
    table_->setRowCount(0);
    showPicture();
    discardRunning_ = job_.isRunning();
    rebuildPorts();
}

void ModeViewerDock::setPort(int index) { port_->setCurrentIndex(index); }
void ModeViewerDock::setWavelength(double um) { wavelength_->setValue(um); }
void ModeViewerDock::setModeCount(int n) { count_->setValue(n); }
void ModeViewerDock::setComponent(int k) { component_->setCurrentIndex(k); }
void ModeViewerDock::setMode(int m) {
    mode_ = m;
    if (m >= 0 && m < table_->rowCount()) table_->selectRow(m);
    showPicture();
    rebuildPorts();
}

void ModeViewerDock::setPickByTarget(bool byTarget) { pickBy_->setCurrentIndex(byTarget ? 1 : 0); }

bool ModeViewerDock::useShownMode(bool byTarget) {
    if (!result_ || isStale() || mode_ < 0 || mode_ >= int(result_->modes.size())) return false;
    const PortModes& r = *result_;
    const PortModes::Mode& m = r.modes[std::size_t(mode_)];
    if (!(m.n_eff > 0)) return false;  // no such guided mode
    if (byTarget && r.dimensions != 3) return false;
    Project after = doc_->project();
    if (!select_port_mode(after, r.portName, mode_, byTarget, m.n_eff)) return false;
    if (after == doc_->project()) return true;  // already the port's mode
    const QString port = QString::fromStdString(r.portName);
    doc_->replaceProject(after, byTarget ? tr("Port %1: target n_eff %2").arg(port).arg(golightly::ui_number(m.n_eff, 'f', 5))
                                         : tr("Port %1: mode %2").arg(port).arg(mode_));
    // by index, the modes listed are those of the new project too (the port's `modes` does
    // not enter the solve); a new target is another solve
    if (!byTarget) {
        solvedFrom_ = std::make_shared<const Project>(doc_->project());
        rebuildPorts();
    }
    return true;
}

bool ModeViewerDock::solve() {
    if (job_.isRunning() || port_->currentIndex() < 0) return false;
    const Project snapshot = doc_->project();
    const std::string file = doc_->filePath().isEmpty() ? doc_->displayName().toStdString() : doc_->filePath().toStdString();
    const int index = port_->currentIndex();
    const double wl = wavelength_->value();
    const int count = count_->value();
    solveButton_->setEnabled(false);
    solving_ = std::make_shared<const Project>(snapshot);
    discardRunning_ = false;
    status_->setStyleSheet(QString());
    status_->setText(tr("Solving the modes of port %1 at %2 µm...").arg(port_->currentText()).arg(wl));
    job_.start([snapshot, file, index, wl, count](auto&) {
        return std::make_shared<const PortModes>(solve_port_modes(snapshot, file, index, wl, count));
    }, QStringLiteral("golightly-modes"));
    return true;
}

bool ModeViewerDock::waitForFinished(int ms) { return job_.waitForFinished(ms); }

void ModeViewerDock::solveFinished(editor::JobOutcome<std::shared_ptr<const PortModes>>& outcome) {
    const std::shared_ptr<const PortModes> r = outcome.result.value_or(nullptr);
    const QString error = outcome.error;
    solveButton_->setEnabled(port_->count() > 0);
    if (discardRunning_) {  // solved for the project before Open / New: not shown
        discardRunning_ = false;
        rebuildPorts();
        Q_EMIT solved(false, tr("The modes of the previous project were discarded."));
        return;
    }
    if (!r) {
        status_->setText(tr("Cannot solve the modes: %1").arg(error));
        Q_EMIT solved(false, status_->text());
        return;
    }
    result_ = r;
    solvedFrom_ = solving_;
    mode_ = 0;
    int guided = 0;
    for (const auto& m : r->modes) guided += m.n_eff > 0;
    status_->setText(r->dimensions == 3
                         ? tr("%n mode(s) of the %1-%2 cross-section at %3 µm (full-vector, PEC window).", nullptr, guided)
                               .arg(r->uName, r->vName)
                               .arg(r->wavelength_um)
                         : tr("%n guided slab mode(s) of the port line at %1 µm (as the mode source and the "
                              "S-parameter runs see them).", nullptr, guided)
                               .arg(r->wavelength_um));
    resultText_ = status_->text();
    showResult();
    rebuildPorts();  // labelled stale when the project was edited during the solve
    Q_EMIT solved(true, status_->text());
}

void ModeViewerDock::showResult() {
    const PortModes& r = *result_;
    table_->setRowCount(int(r.modes.size()));
    auto cell = [](double v, int prec) {
        auto* it = new QTableWidgetItem(v > 0 ? golightly::ui_number(v, 'f', prec) : QStringLiteral("—"));
        it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        return it;
    };
    auto text = [](const QString& t) {
        auto* it = new QTableWidgetItem(t);
        it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        return it;
    };
    for (int k = 0; k < int(r.modes.size()); ++k) {
        const auto& m = r.modes[std::size_t(k)];
        const bool found = m.n_eff > 0;
        table_->setItem(k, 0, new QTableWidgetItem(QString::number(k)));
        table_->setItem(k, 1, cell(m.n_eff, 5));
        // complex n_eff: Im n_eff and the power loss it means (0 for a lossless mode)
        table_->setItem(k, 2, text(found ? golightly::ui_number(m.n_eff_imag, 'g', 4) : QStringLiteral("—")));
        table_->setItem(k, 3, text(found ? golightly::ui_number(m.loss_db_per_cm, 'g', 4) : QStringLiteral("—")));
        table_->setItem(k, 4, cell(m.n_group, 4));
        table_->setItem(k, 5, m.te_fraction >= 0 ? cell(std::max(m.te_fraction, 1e-9), 3)
                                                 : new QTableWidgetItem(QStringLiteral("—")));
        table_->setItem(k, 6, text(found && r.bent ? golightly::ui_number(m.loss_db_per_90deg, 'g', 4) : QStringLiteral("—")));
        if (found && r.bent && !m.bend_loss_resolved) {
            // the PML sits in the evanescent tail: n_eff holds, the loss is not the bend's
            QTableWidgetItem* it = table_->item(k, 6);
            it->setText(tr("not resolved"));
            it->setForeground(QColor(0xc0, 0x60, 0x00));
            it->setToolTip(tr("The port's PML on the outer side of the bend begins %1 µm from the guide, before the "
                              "radiation caustic (where n_clad·(1 + x/R) reaches n_eff). n_eff holds; for the bend "
                              "loss widen the port on the outer side of the bend.")
                               .arg(golightly::ui_number(m.outer_window_um, 'g', 3)));
        }
    }
    table_->setColumnHidden(6, !r.bent);
    if (!r.modes.empty()) table_->selectRow(0);
    // the whole table beside the picture where the dock is wide enough (its columns are
    // not cut off behind a scroll bar); else as much of it as leaves the picture its
    // minimum width
    if (auto* split = qobject_cast<QSplitter*>(table_->parentWidget()); split && split->width() > 0) {
        QHeaderView* header = table_->horizontalHeader();
        header->setStretchLastSection(false);
        header->resizeSections(QHeaderView::ResizeToContents);
        int need = 2 * table_->frameWidth() + table_->verticalScrollBar()->sizeHint().width();
        for (int c = 0; c < table_->columnCount(); ++c)
            if (!table_->isColumnHidden(c)) need += header->sectionSize(c);
        header->setStretchLastSection(true);
        const int total = split->width() - split->handleWidth();
        const int tableWidth = std::min(need, std::max(0, total - plot_->minimumWidth()));
        split->setSizes({tableWidth, total - tableWidth});
    }
    showPicture();
}

void ModeViewerDock::showPicture() {
    plot_->clearPlottables();
    map_ = nullptr;
    if (scale_) {
        plot_->plotLayout()->remove(scale_);
        plot_->plotLayout()->simplify();
        scale_ = nullptr;
    }
    if (!result_ || mode_ < 0 || mode_ >= int(result_->modes.size())) {
        plot_->replot();
        return;
    }
    const PortModes& r = *result_;
    if (r.dimensions == 2) {
        const auto& e = r.e[std::size_t(mode_)];
        const auto& h = r.h[std::size_t(mode_)];
        auto add = [&](const std::vector<double>& y, const QString& name, QColor c) {
            if (y.empty()) return;
            QCPGraph* g = plot_->addGraph();
            g->setName(name);
            g->setPen(QPen(c, 2));
            QVector<double> xs, ys;
            for (std::size_t k = 0; k < y.size() && k < r.s_um.size(); ++k) xs << r.s_um[k], ys << y[k];
            g->setData(xs, ys);
        };
        add(e, r.eName, QColor(31, 119, 180));
        add(h, r.hName, QColor(214, 39, 40));
        plot_->legend->setVisible(plot_->graphCount() > 0);
        plot_->xAxis->setLabel(tr("%1 along the port (µm)").arg(r.uName));
        plot_->yAxis->setLabel(tr("Mode %1 field (arbitrary units)").arg(mode_));
        plot_->rescaleAxes();
        plot_->yAxis->scaleRange(1.1);
        plot_->replot();
        return;
    }
    plot_->legend->setVisible(false);
    const int comp = component_->currentIndex();
    const std::vector<double>& values = comp == 4 ? r.eps : r.maps[std::size_t(mode_)][std::size_t(comp == 0 ? 3 : comp - 1)];
    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    map_->data()->setSize(r.nu, r.nv);
    map_->data()->setRange(QCPRange(r.u0_um + 0.5 * r.dx_um, r.u0_um + (r.nu - 0.5) * r.dx_um),
                           QCPRange(r.v0_um + 0.5 * r.dx_um, r.v0_um + (r.nv - 0.5) * r.dx_um));
    for (int j = 0; j < r.nv; ++j)
        for (int i = 0; i < r.nu; ++i) map_->data()->setCell(i, j, values[std::size_t(j) * std::size_t(r.nu) + std::size_t(i)]);
    map_->setInterpolate(false);
    scale_ = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(0, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    scale_->axis()->setLabel(component_->currentText());
    map_->setColorScale(scale_);
    map_->setGradient(comp == 4 ? QCPColorGradient::gpGrayscale : QCPColorGradient::gpJet);  // after setColorScale
    map_->rescaleDataRange(true);
    plot_->xAxis->setLabel(tr("%1 (µm)").arg(r.uName));
    plot_->yAxis->setLabel(tr("%1 (µm)").arg(r.vName));
    plot_->rescaleAxes();
    // square cells: the x range widens (or narrows) to the plot's aspect, the whole
    // height of the window stays in view
    plot_->xAxis->setScaleRatio(plot_->yAxis, 1.0);
    plot_->replot();
}

}  // namespace golightly::app
