// GoLightly editor: the canvas's structure preview (canvas.hpp): the compiled,
// sub-pixel-averaged permittivity as the solver sees it, PML cells tinted.

#include "canvas.hpp"

#include <algorithm>
#include <cmath>

#include "golightly/compile.hpp"

namespace golightly::editor {

void Canvas::setStructurePreview(bool on) {
    preview_ = on;
    if (on) updatePreview();
    update();
}

void Canvas::updatePreview() {
    const Project& pr = doc_->project();
    if (previewOf_ && *previewOf_ == pr) return;
    previewOf_ = pr;
    previewImage_ = QImage();
    previewEps_.clear();
    previewError_.clear();
    try {
        const CompiledProject cp = compile_project(pr, doc_->displayName().toStdString());
        const Scene& sc = cp.scene;
        const int nx = sc.nx, ny = sc.ny;
        previewNx_ = nx;
        previewNy_ = ny;
        double epsMax = 1.0;
        previewEps_ = permittivity_picture(sc, &epsMax);
        previewImage_ = QImage(nx, ny, QImage::Format_RGB32);
        const QColor lo(255, 255, 255), hi(25, 45, 110);
        for (int j = 0; j < ny; ++j) {
            auto* row = reinterpret_cast<QRgb*>(previewImage_.scanLine(ny - 1 - j));  // row 0 = top
            const bool pmlY = j < sc.pml_lo[1] || j >= ny - sc.pml_hi[1];
            for (int i = 0; i < nx; ++i) {
                const double t = epsMax > 1 ? std::clamp((previewEps_[size_t(j) * nx + i] - 1) / (epsMax - 1), 0.0, 1.0) : 0;
                int r = int(lo.red() + t * (hi.red() - lo.red())), g = int(lo.green() + t * (hi.green() - lo.green())),
                    b = int(lo.blue() + t * (hi.blue() - lo.blue()));
                if (pmlY || i < sc.pml_lo[0] || i >= nx - sc.pml_hi[0]) {  // PML: tinted
                    r = r * 3 / 4 + 255 / 4 * 1;
                    g = g * 3 / 4 + 140 / 4;
                    b = b * 3 / 4;
                }
                row[i] = qRgb(r, g, b);
            }
        }
        // Ez sample (i, j) sits at ((i - pml_lo) dx, (j - pml_lo) dx); its cell spans +-dx/2
        const double dx = sc.dx_um;
        previewRect_ = QRectF((-sc.pml_lo[0] - 0.5) * dx, (-sc.pml_lo[1] - 0.5) * dx, nx * dx, ny * dx);
        Q_EMIT statusMessage(tr("Structure preview: %1 x %2 cells, eps_r up to %3").arg(nx).arg(ny).arg(epsMax, 0, 'g', 4));
    } catch (const std::exception& e) {
        previewError_ = QString::fromStdString(e.what());
        Q_EMIT statusMessage(tr("Structure preview unavailable: %1").arg(previewError_));
    }
}

double Canvas::previewEpsAt(QPointF w) {
    if (!preview_) return std::nan("");
    updatePreview();
    if (previewEps_.empty()) return std::nan("");
    const double dx = previewRect_.width() / previewNx_;
    const int i = int(std::floor((w.x() - previewRect_.left()) / dx));
    const int j = int(std::floor((w.y() - previewRect_.top()) / dx));
    if (i < 0 || j < 0 || i >= previewNx_ || j >= previewNy_) return std::nan("");
    return previewEps_[size_t(j) * size_t(previewNx_) + size_t(i)];
}

}  // namespace golightly::editor
