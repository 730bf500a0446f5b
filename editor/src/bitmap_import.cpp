#include "bitmap_import.hpp"

#include <QColor>

#include <map>
#include <stdexcept>

#include "golightly/image_io.hpp"

namespace golightly::editor {

Shape raster_from_mask(const std::vector<std::uint8_t>& mask, int width, int height, double pixelSizeUm) {
    Image8 img;
    img.width = width;
    img.height = height;
    img.channels = 1;
    img.pixels = mask;
    Shape s;
    s.type = ShapeType::Raster;
    s.origin = {0, 0};
    s.pixel_size = pixelSizeUm;
    s.width_px = width;
    s.height_px = height;
    s.png_base64 = base64_encode(encode_png(img));
    return s;
}

Project import_bitmap_model(const QImage& source, const BitmapImportOptions& o) {
    if (source.isNull() || source.width() < 1 || source.height() < 1)
        throw std::invalid_argument("bitmap model: the image is empty");
    if (!(o.epsMax > 0) || !(o.widthUm > 0))
        throw std::invalid_argument("bitmap model: eps_max and the width must be > 0");
    const QImage image = source.convertToFormat(QImage::Format_RGB32);
    const int w = image.width(), h = image.height();
    const double px = o.widthUm / w;
    const size_t n = size_t(w) * size_t(h);

    std::vector<int> green(n);
    std::vector<std::uint8_t> sourceMask(n, 0);
    std::map<int, std::vector<std::uint8_t>> monitorMasks;
    std::map<int, size_t> greenCount;
    for (int y = 0; y < h; ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < w; ++x) {
            const size_t i = size_t(y) * size_t(w) + size_t(x);
            const QRgb c = row[x];
            green[i] = qGreen(c);
            ++greenCount[qGreen(c)];
            if (qRed(c) > 128) sourceMask[i] = 255;
            if (const int b = qBlue(c); b > 0) {
                auto& m = monitorMasks[b];
                if (m.empty()) m.assign(n, 0);
                m[i] = 255;
            }
        }
    }

    Project p;
    p.name = o.name;
    p.domain.size = {o.widthUm, px * h, 0};
    p.domain.cell_size = px;
    auto epsOf = [&](int g) { return g == 0 ? 1.0 : o.epsMax * g / 255.0; };
    auto idOf = [](int g) { return "eps_g" + std::to_string(g); };
    int background = greenCount.begin()->first;
    for (const auto& [g, count] : greenCount)
        if (count > greenCount[background]) background = g;
    for (const auto& [g, count] : greenCount) {
        Material m;
        m.id = idOf(g);
        m.epsilon_inf = epsOf(g);
        char name[64];
        std::snprintf(name, sizeof name, "eps %.4g (green %d)", m.epsilon_inf, g);
        m.name = name;
        const int shade = 230 - int(170.0 * g / 255.0);
        m.color = QColor(shade, shade, std::min(255, shade + 40)).name().toStdString();
        p.materials.push_back(m);
    }
    p.domain.background = idOf(background);
    for (const auto& [g, count] : greenCount) {
        if (g == background) continue;
        std::vector<std::uint8_t> mask(n, 0);
        for (size_t i = 0; i < n; ++i) mask[i] = green[i] == g ? 255 : 0;
        Layer layer;
        layer.name = "eps " + std::to_string(epsOf(g)).substr(0, 6);
        layer.material = idOf(g);
        layer.shapes.push_back(raster_from_mask(mask, w, h, px));
        p.layers.push_back(std::move(layer));
    }
    bool anySource = false;
    for (auto v : sourceMask) anySource |= v != 0;
    if (anySource) {
        Source s;
        s.name = "bitmap_source";
        s.type = SourceType::Region;
        s.shape = raster_from_mask(sourceMask, w, h, px);
        p.sources.push_back(std::move(s));
    }
    for (auto& [id, mask] : monitorMasks) {
        Monitor m;
        m.name = "monitor_" + std::to_string(id);
        m.type = MonitorType::Time;
        m.shape = raster_from_mask(mask, w, h, px);
        m.reduce = Reduce::SumSquares;
        p.monitors.push_back(std::move(m));
    }
    return p;
}

}  // namespace golightly::editor
