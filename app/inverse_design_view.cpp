// GoLightly IDE, Inverse Design dock: the density and field pictures and the figure-of-merit plot.
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

namespace {

/// The index of the frequency (Hz) nearest the vacuum wavelength `wavelength_um` (um); 0
/// for wavelength_um <= 0 (the first). `frequencies_hz` must not be empty.
std::size_t nearestFrequency(const std::vector<double>& frequencies_hz, double wavelength_um) {
    std::size_t fi = 0;
    if (wavelength_um > 0) {
        const double target = units::c0 / (wavelength_um * units::um);
        for (std::size_t k = 1; k < frequencies_hz.size(); ++k)
            if (std::abs(frequencies_hz[k] - target) < std::abs(frequencies_hz[fi] - target)) fi = k;
    }
    return fi;
}

}  // namespace

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
    const std::size_t fi = nearestFrequency(f.frequencies_hz, wavelength_um);
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

std::shared_ptr<const InverseDesignDock::FieldSlice> InverseDesignDock::shapeFieldSlice(const adjoint::ShapeFields& f,
                                                                                        double wavelength_um) {
    auto out = std::make_shared<FieldSlice>();
    const std::size_t nf = f.frequencies_hz.size();
    if (!f.sites || nf == 0 || f.sites->size() == 0 || f.forward.size() != f.sites->size() * nf) return out;
    const std::size_t fi = nearestFrequency(f.frequencies_hz, wavelength_um);
    out->wavelength_um = units::c0 / f.frequencies_hz[fi] / units::um;
    // the view box around the shapes: every site of it (the picture's plane in 3D)
    const std::int64_t vx = f.view_hi[0] - f.view_lo[0] + 1, vy = f.view_hi[1] - f.view_lo[1] + 1,
                       vz = f.view_hi[2] - f.view_lo[2] + 1;
    const std::size_t nc = f.view_components.size();
    if (vx > 0 && vy > 0 && vz == 1 && nc > 0 && f.view_sampled.size() == nc * std::size_t(vx * vy) &&
        f.view_forward.size() == f.view_sampled.size() * nf) {
        out->shapeView = true;
        out->w = int(vx);
        out->h = int(vy);
        const std::size_t n = std::size_t(vx * vy);
        const bool adjointField = f.view_adjoint.size() == f.view_forward.size();
        const bool all = std::all_of(f.view_sampled.begin(), f.view_sampled.end(), [](char c) { return c != 0; });
        for (std::size_t c = 0; c < nc; ++c) {
            out->components.push_back(f.view_components[c]);
            out->forward.emplace_back(n);
            out->adjoint.emplace_back(adjointField ? n : 0);
            if (!all) out->known.emplace_back(n, std::uint8_t(0));
            for (std::size_t o = 0; o < n; ++o) {
                const std::size_t v = c * n + o;  // (j * vx + i), j and i from view_lo
                out->forward[c][o] = std::complex<float>(f.view_forward[v * nf + fi]);
                if (adjointField) out->adjoint[c][o] = std::complex<float>(f.view_adjoint[v * nf + fi]);
                if (!all) out->known[c][o] = f.view_sampled[v] ? 1 : 0;
            }
        }
        return out;
    }
    const adjoint::DesignSites& sites = *f.sites;
    const std::int64_t nx = std::max<std::int64_t>(f.grid[0], 1), ny = std::max<std::int64_t>(f.grid[1], 1);
    auto ijk = [&](CellIndex cell, std::int64_t (&v)[3]) {
        v[0] = cell % nx, v[1] = (cell / nx) % ny, v[2] = cell / (nx * ny);
    };
    // 3D: the z plane holding the most sites (a face normal to z has sites on a few planes only)
    std::int64_t plane = 0;
    {
        std::vector<std::size_t> count(std::size_t(std::max<std::int64_t>(f.grid[2], 1)), 0);
        for (std::size_t s = 0; s < sites.size(); ++s) {
            std::int64_t v[3];
            ijk(sites.cell[s], v);
            if (v[2] >= 0 && std::size_t(v[2]) < count.size()) ++count[std::size_t(v[2])];
        }
        plane = std::int64_t(std::max_element(count.begin(), count.end()) - count.begin());
    }
    const std::int64_t lo[2] = {f.box_lo[0], f.box_lo[1]};
    out->w = int(f.box_hi[0] - f.box_lo[0] + 1);
    out->h = int(f.box_hi[1] - f.box_lo[1] + 1);
    if (out->w <= 0 || out->h <= 0) return std::make_shared<FieldSlice>();
    const bool adjointField = f.adjoint.size() == f.forward.size();
    const std::size_t n = std::size_t(out->w) * std::size_t(out->h);
    std::size_t c = 0;
    for (std::size_t s = 0; s < sites.size(); ++s) {
        if (s == 0 || sites.component[s] != sites.component[s - 1]) {  // the next component's sites
            out->components.push_back(sites.component[s]);
            out->forward.emplace_back(n);
            out->adjoint.emplace_back(adjointField ? n : 0);
            out->known.emplace_back(n, std::uint8_t(0));
            c = out->components.size() - 1;
        }
        std::int64_t v[3];
        ijk(sites.cell[s], v);
        if (v[2] != plane) continue;
        const std::int64_t i = v[0] - lo[0], j = v[1] - lo[1];
        if (i < 0 || j < 0 || i >= out->w || j >= out->h) continue;
        const std::size_t o = std::size_t(j) * std::size_t(out->w) + std::size_t(i);
        out->forward[c][o] = std::complex<float>(f.forward[s * nf + fi]);
        if (adjointField) out->adjoint[c][o] = std::complex<float>(f.adjoint[s * nf + fi]);
        out->known[c][o] = 1;
    }
    return out;
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
    fieldLabel_->setText(QString());
    if (!fields_ || fields_->w <= 0 || fields_->h <= 0 || fields_->components.empty()) {
        fieldLabel_->setToolTip(shapeRun_ ? tr("The field around the shapes appears after the first iteration")
                                          : tr("The field in the design region appears after the first iteration"));
        return;
    }
    const FieldSlice& f = *fields_;
    const auto& data = adjointField ? f.adjoint : f.forward;
    if (data.empty() || data[0].empty()) return;
    const int quantity = fieldQuantity_->currentIndex();  // 0: |E|², k: Re of component k - 1
    const std::size_t n = std::size_t(f.w) * std::size_t(f.h);
    std::vector<float> v(n, 0.f);
    // shape designs: a cell is blank where the quantity's components were not sampled
    const bool masked = !f.known.empty();
    std::vector<std::uint8_t> known(n, masked ? 0 : 1);
    for (std::size_t o = 0; o < n; ++o) {
        if (quantity <= 0) {
            for (std::size_t c = 0; c < data.size(); ++c) {
                if (masked && !f.known[c][o]) continue;
                v[o] += std::norm(data[c][o]);
                known[o] = 1;
            }
        } else if (std::size_t(quantity - 1) < data.size()) {
            const std::size_t c = std::size_t(quantity - 1);
            v[o] = data[c][o].real();
            if (masked) known[o] = f.known[c][o];
        }
    }
    float peak = 0;
    for (float x : v) peak = std::max(peak, std::abs(x));
    fieldImage_ = QImage(f.w, f.h, masked ? QImage::Format_ARGB32 : QImage::Format_RGB32);
    for (int j = 0; j < f.h; ++j) {
        auto* row = reinterpret_cast<QRgb*>(fieldImage_.scanLine(f.h - 1 - j));  // y up
        for (int i = 0; i < f.w; ++i) {
            const std::size_t o = std::size_t(j) * std::size_t(f.w) + std::size_t(i);
            if (!known[o]) {
                row[i] = qRgba(0, 0, 0, 0);
                continue;
            }
            // the field view's map: |E|² on its white..red half, a component on the whole
            const float t = peak > 0 ? v[o] / peak : 0.f;
            std::uint8_t r, g, b;
            diverging_rgb(t, r, g, b);
            row[i] = qRgb(r, g, b);
        }
    }
    const QSize box = fieldLabel_->size().boundedTo(QSize(400, 400)).expandedTo(QSize(120, 120));
    fieldLabel_->setPixmap(QPixmap::fromImage(fieldImage_.scaled(box, Qt::KeepAspectRatio, Qt::FastTransformation)));
    const QString scale = quantity <= 0 ? QString() : tr(", blue: minus the maximum");
    if (f.shapeView)
        fieldLabel_->setToolTip(tr("%1 around the shapes (the bounding box of the sites the shape parameters move, "
                                   "grown by a margin) at %2 µm, last iteration; scaled to its maximum %3 (white: 0, "
                                   "red: the maximum%4)")
                                    .arg(fieldSource_->currentText(), QString::number(f.wavelength_um, 'g', 5))
                                    .arg(double(peak), 0, 'g', 3)
                                    .arg(scale) +
                                (masked ? tr("; blank: a source's sites (not sampled)") : QString()));
    else if (masked)
        fieldLabel_->setToolTip(tr("%1 at the sites the shape parameters move (the only ones the shape gradient "
                                   "samples), over their bounding box at %2 µm, last iteration; blank: not sampled; "
                                   "scaled to its maximum %3 (white: 0, red: the maximum%4)")
                                    .arg(fieldSource_->currentText(), QString::number(f.wavelength_um, 'g', 5))
                                    .arg(double(peak), 0, 'g', 3)
                                    .arg(scale));
    else
        fieldLabel_->setToolTip(tr("%1 over the design region at %2 µm, last iteration; scaled to its maximum %3 "
                                   "(white: 0, red: the maximum%4)")
                                    .arg(fieldSource_->currentText(), QString::number(f.wavelength_um, 'g', 5))
                                    .arg(double(peak), 0, 'g', 3)
                                    .arg(scale));
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

}  // namespace golightly::app
