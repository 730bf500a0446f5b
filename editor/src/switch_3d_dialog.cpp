#include "switch_3d_dialog.hpp"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "golightly/limits.hpp"
#include "ports.hpp"

namespace golightly::editor {

namespace {

QString bytesText(double b) { return QString::fromStdString(limits::format_bytes(b)); }

/// "45 s", "3.2 min", "2.5 h", "4.1 days": a duration at the precision an estimate has.
QString durationText(double s) {
    const QLocale loc;
    if (s < 1) return Switch3dDialog::tr("under a second");
    if (s < 90) return Switch3dDialog::tr("%1 s").arg(loc.toString(s, 'g', 2));
    if (s < 5400) return Switch3dDialog::tr("%1 min").arg(loc.toString(s / 60, 'g', 2));
    if (s < 3 * 86400) return Switch3dDialog::tr("%1 h").arg(loc.toString(s / 3600, 'g', 2));
    return Switch3dDialog::tr("%1 days").arg(loc.toString(s / 86400, 'g', 2));
}

QString cellsText(double n) {
    const QLocale loc;
    if (n >= 1e9) return Switch3dDialog::tr("%1 G").arg(loc.toString(n / 1e9, 'f', 2));
    if (n >= 1e6) return Switch3dDialog::tr("%1 M").arg(loc.toString(n / 1e6, 'f', 1));
    return loc.toString(qlonglong(n));
}

QString zText(const std::array<double, 2>& z) {
    const QLocale loc;
    return QStringLiteral("%1 \u2013 %2 \u00b5m").arg(loc.toString(z[0], 'g', 4), loc.toString(z[1], 'g', 4));
}

}  // namespace

QString Switch3dDialog::costText(const GridEstimate& e, int threads) {
    const QLocale loc;
    QStringList lines;
    lines << tr("<b>%1 cells</b> (%2 \u00d7 %3 \u00d7 %4, PML included)")
                 .arg(cellsText(double(e.cells)), loc.toString(e.n[0]), loc.toString(e.n[1]), loc.toString(e.n[2]));
    const double host = double(limits::host_memory_bytes());
    QString mem = tr("<b>memory about %1</b> for the run, %2 while compiling").arg(bytesText(double(e.state_bytes)),
                                                                                bytesText(double(e.compile_bytes)));
    if (host > 0 && double(e.compile_bytes) > host)
        mem += QStringLiteral(" <span style=\"color:#c00000\">") +
               tr("(more than this computer's %1: the run cannot start)").arg(bytesText(host)) + QStringLiteral("</span>");
    else if (host > 0 && double(e.compile_bytes) > 0.5 * host)
        mem += QStringLiteral(" <span style=\"color:#b06000\">") + tr("(more than half of this computer's %1)").arg(bytesText(host)) +
               QStringLiteral("</span>");
    lines << mem;
    lines << tr("<b>compiling about %1</b> before the first step").arg(durationText(e.compile_s));
    lines << tr("<b>1000 time steps about %1</b> on %n CPU thread(s) (a GPU is many times faster)", "", threads)
                 .arg(durationText(1000 * e.step_s));
    if (e.max_steps > 0)
        lines << tr("the run ends when the fields have decayed, at most after %1 steps (about %2)")
                     .arg(loc.toString(qlonglong(e.max_steps)), durationText(double(e.max_steps) * e.step_s));
    return lines.join(QStringLiteral("<br>"));
}

Switch3dDialog::Switch3dDialog(const Project& project, QWidget* parent, int threads)
    : QDialog(parent), project_(project), threads_(threads > 0 ? threads : std::max(1, QThread::idealThreadCount())) {
    setObjectName(QStringLiteral("switch3dDialog"));
    setWindowTitle(tr("Switch to 3D"));
    auto* v = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("The 2D drawing becomes a 3D device: each layer is extruded over a z range, sources and "
                                "monitors become planes, ports become planes around the core. A 3D grid has many more "
                                "cells than the 2D one; this is what it will cost:"));
    intro->setWordWrap(true);
    v->addWidget(intro);
    auto* form = new QFormLayout;
    cell_ = new QDoubleSpinBox;
    cell_->setObjectName(QStringLiteral("switch3d.cellSize"));
    cell_->setDecimals(4);
    cell_->setRange(0.0005, 10.0);
    cell_->setSingleStep(0.005);
    cell_->setSuffix(QStringLiteral(" \u00b5m"));
    cell_->setValue(project.domain.cell_size > 0 ? project.domain.cell_size : 0.02);
    cell_->setToolTip(tr("The 3D cell size: doubling it divides the cells by 8 and the time by 16"));
    form->addRow(tr("Cell size"), cell_);
    soi_ = new QCheckBox(tr("Layers as a 220 nm SOI stack (core, buried oxide below, cladding above)"));
    soi_->setObjectName(QStringLiteral("switch3d.soiStack"));
    soi_->setChecked(true);
    soi_->setToolTip(tr("Off: every layer without a z range spans the whole domain height"));
    form->addRow(QString(), soi_);
    v->addLayout(form);
    cost_ = new QLabel;
    cost_->setObjectName(QStringLiteral("switch3d.cost"));
    cost_->setTextFormat(Qt::RichText);
    cost_->setWordWrap(true);
    v->addWidget(cost_);
    layers_ = new QLabel;
    layers_->setObjectName(QStringLiteral("switch3d.layers"));
    layers_->setTextFormat(Qt::RichText);
    layers_->setWordWrap(true);
    v->addWidget(layers_);
    auto* later = new QLabel(tr("The Layer Stack dock edits the z ranges afterwards; Undo switches back."));
    later->setWordWrap(true);
    v->addWidget(later);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Switch to 3D"));
    v->addWidget(buttons_);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(cell_, &QDoubleSpinBox::valueChanged, this, &Switch3dDialog::update);
    connect(soi_, &QCheckBox::toggled, this, &Switch3dDialog::update);
    setMinimumWidth(560);
    update();
}

Switch3dOptions Switch3dDialog::options() const {
    Switch3dOptions o;
    o.cell_size_um = cell_->value();
    o.soi_stack = soi_->isChecked();
    return o;
}

Project Switch3dDialog::result() const { return to_3d(project_, options()); }

void Switch3dDialog::update() {
    const Project p = result();
    estimate_ = estimate_grid(p, threads_);
    cost_->setText(costText(estimate_, threads_));
    QStringList rows;
    const std::vector<LayerRole> roles = layer_roles(project_);
    for (size_t i = 0; i < p.layers.size(); ++i) {
        const Layer& l = p.layers[i];
        QString what;
        if (!soi_->isChecked() || roles[i] == LayerRole::Kept) what = l.z ? zText(*l.z) : tr("the whole height");
        else {
            const QString role = roles[i] == LayerRole::Core        ? tr("core")
                                 : roles[i] == LayerRole::Substrate ? tr("below the core")
                                                                    : tr("above the core");
            what = tr("%1, %2").arg(zText(*l.z), role);
        }
        rows << QStringLiteral("%1: %2").arg(QString::fromStdString(l.name).toHtmlEscaped(), what);
    }
    int ports = 0;
    std::array<double, 2> portZ{0, 0};
    for (int i = 0; i < port_count(p); ++i)
        if (const auto d = port_at(p, i)) {
            ++ports;
            portZ = {d->center.z - 0.5 * d->size.z, d->center.z + 0.5 * d->size.z};
        }
    if (ports > 0) rows << tr("%n port plane(s): %1", "", ports).arg(zText(portZ));
    layers_->setText(tr("Domain height %1 \u00b5m. z ranges:").arg(QLocale().toString(p.domain.size[2], 'g', 4)) +
                     QStringLiteral("<ul style=\"margin-top:2px\"><li>") + rows.join(QStringLiteral("</li><li>")) +
                     QStringLiteral("</li></ul>"));
}

}  // namespace golightly::editor
