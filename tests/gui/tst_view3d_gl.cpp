// The OpenGL paths of the viewport (issue 55 item 17), under Xvfb with Mesa (llvmpipe):
// tests/gui/CMakeLists.txt runs this executable through tests/gui/run-xvfb.sh with
// QT_QPA_PLATFORM=xcb, where the other GUI tests use the offscreen platform and with it the
// views' QPainter fallbacks. Nothing here skips: setup (scripts/setup-deps.sh) installs
// xvfb, xauth and Mesa, so a missing X server or an OpenGL context that cannot be made is
// a failure.
//
// The 3D structure view: the GL child is used and its context is valid, GL_RENDERER is
// reported, the shader program links, and the framebuffer shows the structure where the
// raster path (the same mesh and camera, drawn with QPainter) and the picking ray put it;
// a click on the drawn sphere selects it; the translucent slice plane is drawn over the
// same pixels in both paths. The field view: its GL surface draws a frame's colours where
// the raster rendering draws them.
#include <QApplication>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <cstdio>

#include "field_view.hpp"
#include "frame_source.hpp"
#include "golightly/project.hpp"
#include "structure_view_3d.hpp"

using namespace golightly;
using golightly::viewport::FieldView;
using golightly::viewport::StructureView3D;

namespace {

/// A 3D project with one sphere (r = 0.7 um, pure red) in the middle of a 2 um cube.
Project sphere_project() {
    Project p;
    p.name = "gl sphere (test)";
    p.domain.dimensions = 3;
    p.domain.size = {2.0, 2.0, 2.0};
    p.domain.cell_size = 0.05;
    p.domain.pml.cells = 8;
    Material red;
    red.id = "red";
    red.name = "red";
    red.epsilon_inf = 4;
    red.color = "#ff0000";
    p.materials = {red};
    Layer l;
    l.name = "sphere";
    l.material = "red";
    Shape s;
    s.type = ShapeType::Sphere;
    s.center_3d = {1.0, 1.0, 1.0};
    s.radius = 0.7;
    l.shapes.push_back(s);
    p.layers.push_back(l);
    return p;
}

/// The sphere's pixels: red dominant. Its lit colour is (k, 0, 0) with k in [0.38, 1]
/// (the shading of both paths), while the background (60, 63, 68) and every outline colour
/// of the structure mesh have green at least half their red. The lower left corner, where
/// both paths draw the axes triad (its x arrow is red), is left out.
QImage redMask(const QImage& image) {
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    QImage mask(img.size(), QImage::Format_Grayscale8);
    mask.fill(0);
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            if (x < 90 && y > img.height() - 90) continue;
            const QRgb c = img.pixel(x, y);
            if (qRed(c) > 2 * qGreen(c) + 20 && qRed(c) > 2 * qBlue(c) + 20) mask.setPixel(x, y, 255);
        }
    return mask;
}

/// Pixels that differ between two pictures by more than `levels` in a channel.
QImage changedMask(const QImage& a, const QImage& b, int levels) {
    const QImage ia = a.convertToFormat(QImage::Format_RGB32), ib = b.convertToFormat(QImage::Format_RGB32);
    QImage mask(ia.size(), QImage::Format_Grayscale8);
    mask.fill(0);
    for (int y = 0; y < ia.height(); ++y)
        for (int x = 0; x < ia.width(); ++x) {
            const QRgb p = ia.pixel(x, y), q = ib.pixel(x, y);
            if (std::abs(qRed(p) - qRed(q)) > levels || std::abs(qGreen(p) - qGreen(q)) > levels ||
                std::abs(qBlue(p) - qBlue(q)) > levels)
                mask.setPixel(x, y, 255);
        }
    return mask;
}

struct MaskStats {
    int area = 0;      ///< set pixels
    int boundary = 0;  ///< set pixels with an unset 4-neighbour
    QPointF centroid;
};

MaskStats stats(const QImage& m) {
    MaskStats s;
    double sx = 0, sy = 0;
    auto on = [&](int x, int y) {
        return x >= 0 && y >= 0 && x < m.width() && y < m.height() && qGray(m.pixel(x, y)) > 0;
    };
    for (int y = 0; y < m.height(); ++y)
        for (int x = 0; x < m.width(); ++x) {
            if (!on(x, y)) continue;
            ++s.area;
            sx += x;
            sy += y;
            if (!on(x - 1, y) || !on(x + 1, y) || !on(x, y - 1) || !on(x, y + 1)) ++s.boundary;
        }
    if (s.area > 0) s.centroid = QPointF(sx / s.area + 0.5, sy / s.area + 0.5);
    return s;
}

/// Pixels set in exactly one of two masks.
int mismatch(const QImage& a, const QImage& b) {
    int n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) n += (qGray(a.pixel(x, y)) > 0) != (qGray(b.pixel(x, y)) > 0);
    return n;
}

QImage orMask(const QImage& a, const QImage& b) {
    QImage m = a;
    for (int y = 0; y < m.height(); ++y)
        for (int x = 0; x < m.width(); ++x)
            if (qGray(b.pixel(x, y)) > 0) m.setPixel(x, y, 255);
    return m;
}

/// The mask grown by `r` pixels (a square neighbourhood).
QImage dilate(const QImage& a, int r) {
    QImage m = a;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            if (qGray(a.pixel(x, y)) == 0) continue;
            for (int dy = -r; dy <= r; ++dy)
                for (int dx = -r; dx <= r; ++dx)
                    if (m.valid(x + dx, y + dy)) m.setPixel(x + dx, y + dy, 255);
        }
    return m;
}

int countAnd(const QImage& a, const QImage& b) {
    int n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) n += qGray(a.pixel(x, y)) > 0 && qGray(b.pixel(x, y)) > 0;
    return n;
}

void clearWhere(QImage& a, const QImage& where) {
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            if (qGray(where.pixel(x, y)) > 0) a.setPixel(x, y, 0);
}

/// The view drawn by its raster path (the reference: the same mesh, camera and overlay).
QImage rasterPicture(StructureView3D& view, QSize size) {
    QImage img(size, QImage::Format_RGB32);
    QPainter p(&img);
    view.paintRaster(p, size);
    view.paintOverlay(p, size);
    return img;
}

}  // namespace

class TestView3dGl : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        // run-xvfb.sh sets the xcb platform and starts the X server; anything else means this
        // test is not testing the GL path
        QVERIFY2(QGuiApplication::platformName() == QStringLiteral("xcb"),
                 qPrintable(QStringLiteral("platform %1, not xcb: run this test through tests/gui/run-xvfb.sh (ctest does)")
                                .arg(QGuiApplication::platformName())));
        QVERIFY2(!qEnvironmentVariableIsSet("GOLIGHTLY_NO_GL"), "GOLIGHTLY_NO_GL is set: the views would not use OpenGL");
    }

    void structureViewDrawsWithOpenGL() {
        StructureView3D view;
        view.resize(480, 360);
        view.setProject(sphere_project());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY2(view.usesOpenGL(), "no OpenGL context could be made under Xvfb (Mesa's libgl1-mesa-dri missing?)");
        auto* gl = view.findChild<QOpenGLWidget*>();
        QVERIFY(gl);
        QVERIFY(gl->isValid());
        QVERIFY(gl->context() && gl->context()->isValid());
        QTRY_VERIFY(gl->context() && !view.glInfo().isEmpty());

        // the picture as the framebuffer holds it (grabFramebuffer paints a frame first)
        const QImage glImage = view.grabImage().convertToFormat(QImage::Format_RGB32);
        QVERIFY(!glImage.isNull());
        gl->makeCurrent();
        const QString renderer =
            QString::fromLatin1(reinterpret_cast<const char*>(gl->context()->functions()->glGetString(GL_RENDERER)));
        gl->doneCurrent();
        std::printf("GL: %s\n", qPrintable(view.glInfo()));
        QVERIFY2(!renderer.isEmpty(), "GL_RENDERER is empty");
        QVERIFY2(view.glInfo().startsWith(renderer), qPrintable(view.glInfo()));
        QVERIFY2(!view.glInfo().contains(QStringLiteral("shader link failed")), qPrintable(view.glInfo()));
        const qreal dpr = glImage.devicePixelRatio();
        QCOMPARE(glImage.size(), (QSizeF(view.size()) * dpr).toSize());

        // the background: the clear colour, where the picking ray meets nothing
        const QPoint corner(glImage.width() - 3, 2);
        QCOMPARE(view.pickAt(QPointF(corner) / dpr).kind, 0);
        const QRgb bg = glImage.pixel(corner);
        QVERIFY2(std::abs(qRed(bg) - 60) <= 1 && std::abs(qGreen(bg) - 63) <= 1 && std::abs(qBlue(bg) - 68) <= 1,
                 qPrintable(QStringLiteral("corner pixel %1 is not the background").arg(QColor(bg).name())));

        // the sphere: drawn where the raster path draws it. Both project the same triangles
        // with the same matrix, so they can differ only along the outline (rasterization
        // rules, the raster path's 0.8 px edge pen, line widths): at most two pixels per
        // outline pixel.
        const QImage glMask = redMask(glImage);
        const QImage rasterImage = rasterPicture(view, glImage.size());
        const QImage rasterMask = redMask(rasterImage);
        const MaskStats g = stats(glMask), r = stats(rasterMask);
        const int diff = mismatch(glMask, rasterMask);
        std::printf("sphere: GL %d px, raster %d px (outline %d px), differing %d px\n", g.area, r.area, r.boundary, diff);
        // the sphere's outline (r = 0.7 um) is some 40 px in radius at this size: thousands of
        // pixels, not a stray few
        QVERIFY2(r.area > 2000, "the raster reference shows no sphere");
        QVERIFY2(g.area > 0, "the GL framebuffer shows no structure");
        QVERIFY2(diff <= 2 * r.boundary, "the GL picture of the sphere is not where the raster path draws it");

        // the picking ray through the middle of the drawn sphere hits it, and so does a click
        const auto pk = view.pickAt(g.centroid / dpr);
        QCOMPARE(pk.kind, 1);
        QCOMPARE(pk.layer, 0);
        QCOMPARE(pk.index, 0);
        QSignalSpy clicked(&view, &StructureView3D::itemClicked);
        QTest::mouseClick(gl, Qt::LeftButton, {}, (g.centroid / dpr).toPoint());
        QTRY_COMPARE(clicked.size(), 1);
        QCOMPARE(clicked.at(0).at(0).toInt(), 1);

        // the slice plane through the sphere's centre (translucent, blended without depth
        // writes). Around the sphere its pixels in the GL framebuffer are those of the raster
        // path, within the same outline tolerance. Over the sphere the two differ, as they
        // should: the GL depth test hides the plane behind the sphere's upper half, while the
        // raster path (painter's order, no depth buffer) paints it over the whole sphere.
        // Seen from 28 degrees above the plane, the lower half is visible over a fraction
        // (1 - sin 28°) / 2 = 0.27 of the sphere's disk, and the plane's picture covers nearly
        // all of the disk: the GL plane over the sphere is well under half the raster one's.
        view.setSlice(2, 1.0);
        const QImage glSliced = view.grabImage().convertToFormat(QImage::Format_RGB32);
        const QImage rasterSliced = rasterPicture(view, glImage.size());
        if (const QString dir = qEnvironmentVariable("GOLIGHTLY_SHOTS"); !dir.isEmpty()) {
            glImage.save(dir + QStringLiteral("/view3d_gl.png"));
            rasterImage.save(dir + QStringLiteral("/view3d_raster.png"));
            glSliced.save(dir + QStringLiteral("/view3d_gl_slice.png"));
            rasterSliced.save(dir + QStringLiteral("/view3d_raster_slice.png"));
        }
        const QImage sphere = dilate(orMask(glMask, rasterMask), 2);
        QImage glChanged = changedMask(glImage, glSliced, 8), rasterChanged = changedMask(rasterImage, rasterSliced, 8);
        const int glOverSphere = countAnd(glChanged, sphere), rasterOverSphere = countAnd(rasterChanged, sphere);
        clearWhere(glChanged, sphere);
        clearWhere(rasterChanged, sphere);
        const MaskStats gs = stats(glChanged), rs = stats(rasterChanged);
        const int sliceDiff = mismatch(glChanged, rasterChanged);
        std::printf("slice around the sphere: GL %d px, raster %d px (outline %d px), differing %d px; over the sphere: GL %d px, "
                    "raster %d px\n",
                    gs.area, rs.area, rs.boundary, sliceDiff, glOverSphere, rasterOverSphere);
        QVERIFY2(rs.area > 5000, "the raster reference draws no slice plane");
        QVERIFY2(gs.area > 0, "the GL framebuffer shows no slice plane");
        QVERIFY2(sliceDiff <= 2 * rs.boundary, "the GL slice plane is not where the raster path draws it");
        QVERIFY2(glOverSphere > 0, "the slice plane is not drawn over the sphere's lower half");
        QVERIFY2(glOverSphere < rasterOverSphere / 2, "the GL depth test does not hide the slice plane behind the sphere");
    }

    void fieldViewDrawsWithOpenGL() {
        FieldView view;
        view.resize(420, 300);
        // a 4 x 3 um structure (uniform) and a field frame +1 left of x = 2 um, -1 right of it
        viewport::StructureImage s;
        s.image = QImage(40, 30, QImage::Format_RGB32);
        s.image.fill(QColor(200, 200, 200));
        s.worldRect = QRectF(0, 0, 4, 3);
        s.interiorRect = QRectF(0.4, 0.4, 3.2, 2.2);
        view.setStructure(s);
        auto frame = std::make_shared<viewport::FieldFrame>();
        frame->width = 40;
        frame->height = 30;
        frame->width_um = 4;
        frame->height_um = 3;
        frame->values.resize(40 * 30);
        for (int y = 0; y < 30; ++y)
            for (int x = 0; x < 40; ++x) frame->values[size_t(y * 40 + x)] = x < 20 ? 1.f : -1.f;
        frame->max_abs = 1;
        view.showFrame(frame);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY2(view.usesOpenGL(), "the field view has no OpenGL surface under Xvfb");
        auto* gl = view.findChild<QOpenGLWidget*>();
        QVERIFY(gl && gl->isValid() && gl->context() && gl->context()->isValid());
        const QImage glImage = gl->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
        const qreal dpr = glImage.devicePixelRatio();
        QCOMPARE(glImage.size(), (QSizeF(view.size()) * dpr).toSize());
        const QImage raster = view.renderToImage(view.size()).convertToFormat(QImage::Format_RGB32);
        // inside each half (away from the split and the outlines) the GL paint engine blends
        // the same frame over the same structure as the raster engine: the 8-bit colour
        // arithmetic of the two engines differs by a few levels at most
        for (const QPointF world : {QPointF(1.0, 1.5), QPointF(3.0, 1.5)}) {
            const QPointF px = view.toScreen(world);
            const QRgb a = glImage.pixel((px * dpr).toPoint()), b = raster.pixel(px.toPoint());
            std::printf("field at (%.1f, %.1f) um: GL %s, raster %s\n", world.x(), world.y(), qPrintable(QColor(a).name()),
                        qPrintable(QColor(b).name()));
            QVERIFY2(std::abs(qRed(a) - qRed(b)) <= 4 && std::abs(qGreen(a) - qGreen(b)) <= 4 && std::abs(qBlue(a) - qBlue(b)) <= 4,
                     "the GL field view draws other colours than the raster rendering");
        }
        // and the two signs show as two different colours (the frame is drawn, not only the
        // structure)
        const QRgb left = glImage.pixel((view.toScreen({1.0, 1.5}) * dpr).toPoint()),
                   right = glImage.pixel((view.toScreen({3.0, 1.5}) * dpr).toPoint());
        QVERIFY2(std::abs(qRed(left) - qRed(right)) + std::abs(qBlue(left) - qBlue(right)) > 100,
                 "the frame's two signs are not drawn in different colours");
    }
};

QTEST_MAIN(TestView3dGl)
#include "tst_view3d_gl.moc"
