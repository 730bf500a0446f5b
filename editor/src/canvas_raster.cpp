// GoLightly editor: the canvas's painted rasters (canvas.hpp): decoded on demand, and
// the pending raster of a brush stroke until it is committed.

#include "canvas.hpp"

#include <algorithm>

#include "golightly/image_io.hpp"

namespace golightly::editor {

void RasterImage::refreshDisplay(const QRect& rect) {
    const QRect r = rect.intersected(coverage.rect());
    const int cr = qRed(color), cg = qGreen(color), cb = qBlue(color);
    for (int y = r.top(); y <= r.bottom(); ++y) {
        const uchar* src = coverage.constScanLine(y);
        auto* dst = reinterpret_cast<QRgb*>(display.scanLine(y));
        for (int x = r.left(); x <= r.right(); ++x) {
            const int a = src[x] * 200 / 255;  // same translucency as vector shapes
            dst[x] = qRgba(cr * a / 255, cg * a / 255, cb * a / 255, a);
        }
    }
}

RasterImage* Canvas::rasterImage(int layer, int index) {
    const auto& layers = doc_->project().layers;
    if (layer < 0 || layer >= int(layers.size())) return nullptr;
    const auto& shapes = layers[size_t(layer)].shapes;
    if (index < 0 || index >= int(shapes.size()) || shapes[size_t(index)].type != ShapeType::Raster) return nullptr;
    const Shape& s = shapes[size_t(index)];
    RasterImage& r = rasters_[{layer, index}];
    const QRgb color = material_color(doc_->project(), layers[size_t(layer)].material).rgb();
    const bool sizeOk = r.coverage.width() == s.width_px && r.coverage.height() == s.height_px;
    if (!sizeOk || r.png_base64 != s.png_base64) {
        r.png_base64 = s.png_base64;
        r.coverage = QImage(std::max(s.width_px, 1), std::max(s.height_px, 1), QImage::Format_Grayscale8);
        r.coverage.fill(0);
        try {
            if (!s.png_base64.empty()) {
                const Image8 img = decode_png_gray(base64_decode(s.png_base64));
                if (img.width == s.width_px && img.height == s.height_px)
                    for (int y = 0; y < img.height; ++y)
                        std::copy_n(img.pixels.data() + size_t(y) * size_t(img.width), img.width, r.coverage.scanLine(y));
            }
        } catch (const std::exception&) {
            // unreadable raster data: shown empty; the file keeps it as it was
        }
        r.display = QImage(r.coverage.size(), QImage::Format_ARGB32_Premultiplied);
        r.color = color;
        r.refreshDisplay(r.coverage.rect());
    } else if (r.color != color) {
        r.color = color;
        r.refreshDisplay(r.coverage.rect());
    }
    return &r;
}

void Canvas::beginRasterEdit(int layer, int index, const Shape* newShape) {
    PendingRaster pr;
    pr.layer = layer;
    pr.index = index;
    if (newShape) {
        pr.isNew = true;
        pr.shape = *newShape;
        pr.image.coverage = QImage(newShape->width_px, newShape->height_px, QImage::Format_Grayscale8);
        pr.image.coverage.fill(0);
        pr.image.display = QImage(pr.image.coverage.size(), QImage::Format_ARGB32_Premultiplied);
        pr.image.display.fill(0);
        pr.image.color = material_color(doc_->project(), doc_->project().layers[size_t(layer)].material).rgb();
    }
    pending_ = std::move(pr);
}

RasterImage* Canvas::pendingRaster(int layer, int index) {
    if (pending_ && pending_->isNew && pending_->layer == layer && pending_->index == index) return &pending_->image;
    return rasterImage(layer, index);
}

void Canvas::endRasterEdit(bool commit) {
    if (!pending_) return;
    if (pending_->isNew) {
        if (commit) rasters_[{pending_->layer, pending_->index}] = std::move(pending_->image);
    } else if (!commit) {
        auto it = rasters_.find({pending_->layer, pending_->index});
        if (it != rasters_.end()) it->second.png_base64 = "\x01stale";
    }
    pending_.reset();
    update();
}

}  // namespace golightly::editor
