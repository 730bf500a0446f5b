#include "structure_view_3d.hpp"

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QPainter>
#include <QWheelEvent>
#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QVBoxLayout>
#include <QVector4D>

#include <algorithm>
#include <cmath>
#include <limits>

namespace golightly::viewport {

namespace {

const char* kVertexShader = R"(
attribute vec3 a_pos;
attribute vec3 a_nrm;
attribute vec4 a_col;
uniform mat4 u_mvp;
uniform vec3 u_light;
uniform float u_lit;
varying vec4 v_col;
void main() {
    float d = abs(dot(normalize(a_nrm), u_light));
    float k = mix(1.0, 0.38 + 0.62 * d, u_lit);
    v_col = vec4(a_col.rgb * k, a_col.a);
    gl_Position = u_mvp * vec4(a_pos, 1.0);
}
)";

const char* kFragmentShader = R"(
#ifdef GL_ES
precision mediump float;
#endif
varying vec4 v_col;
void main() { gl_FragColor = v_col; }
)";

bool openGLUsable() {
    const QString platform = QGuiApplication::platformName();
    if (platform == QStringLiteral("offscreen") || platform == QStringLiteral("minimal") ||
        qEnvironmentVariableIsSet("GOLIGHTLY_NO_GL"))
        return false;
    QOpenGLContext ctx;
    if (!ctx.create()) return false;
    QOffscreenSurface surface;
    surface.create();
    const bool ok = ctx.makeCurrent(&surface);
    if (ok) ctx.doneCurrent();
    return ok;
}

/// The OpenGL child: its context runs the view's GL path. Mouse events go to the view.
class Gl3dSurface : public QOpenGLWidget {
public:
    explicit Gl3dSurface(StructureView3D* view) : QOpenGLWidget(view), view_(view) {}

protected:
    void initializeGL() override { view_->initGl(); }
    void paintGL() override { view_->paintGl(); }

private:
    StructureView3D* view_;
};

/// The raster child (no OpenGL): QPainter.
class Raster3dSurface : public QWidget {
public:
    explicit Raster3dSurface(StructureView3D* view) : QWidget(view), view_(view) {}

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        view_->paintRaster(p, size());
        view_->paintOverlay(p, size());
    }

private:
    StructureView3D* view_;
};

}  // namespace

StructureView3D::StructureView3D(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("structureView3D"));
    setMinimumSize(160, 120);
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(tr("3D structure: drag to orbit, right/middle drag (or Shift+drag) to pan, wheel to zoom; "
                  "click an item to select it in the editor"));
    openGL_ = openGLUsable();
    surface_ = openGL_ ? static_cast<QWidget*>(new Gl3dSurface(this)) : static_cast<QWidget*>(new Raster3dSurface(this));
    if (!openGL_) glInfo_ = tr("raster (QPainter; no OpenGL context on this platform)");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(surface_);
}

StructureView3D::~StructureView3D() {
    if (!program_) return;
    auto* gl = static_cast<QOpenGLWidget*>(surface_);
    gl->makeCurrent();
    vbo_.destroy();
    program_.reset();
    gl->doneCurrent();
}

void StructureView3D::refresh() {
    if (surface_) surface_->update();
}

QImage StructureView3D::grabImage() {
    if (openGL_) return static_cast<QOpenGLWidget*>(surface_)->grabFramebuffer();
    return surface_->grab().toImage();
}

void StructureView3D::paintRaster(QPainter& p, QSize size) {
    p.fillRect(QRect(QPoint(0, 0), size), QColor(60, 63, 68));
    const QMatrix4x4 mvp = projectionMatrix() * viewMatrix();
    QVector3D light = (eye() - target_).normalized() + QVector3D(0.3f, -0.2f, 0.6f);
    light.normalize();
    auto toScreen = [&](const float* v, double* depth) {
        const QVector4D c = mvp * QVector4D(v[0], v[1], v[2], 1.f);
        const float w = std::abs(c.w()) > 1e-12f ? c.w() : 1e-12f;
        if (depth) *depth = c.z() / w;
        return QPointF((c.x() / w + 1) * 0.5 * size.width(), (1 - c.y() / w) * 0.5 * size.height());
    };
    struct Tri {
        double depth;
        QPolygonF poly;
        QColor colour;
    };
    std::vector<Tri> tris;
    auto collect = [&](const std::vector<MeshVertex>& v, bool lit) {
        for (size_t k = 0; k + 2 < v.size(); k += 3) {
            Tri t;
            double d = 0, dk = 0;
            bool behind = false;
            for (size_t q = 0; q < 3; ++q) {
                t.poly << toScreen(v[k + q].p, &dk);
                d += dk;
                behind |= dk < -1 || dk > 1;
            }
            if (behind) continue;
            t.depth = d / 3;
            const MeshVertex& a = v[k];
            const float shade = lit ? 0.38f + 0.62f * std::abs(QVector3D::dotProduct(QVector3D(a.n[0], a.n[1], a.n[2]), light)) : 1.f;
            t.colour = QColor::fromRgbF(std::min(1.f, a.c[0] * shade), std::min(1.f, a.c[1] * shade),
                                        std::min(1.f, a.c[2] * shade), a.c[3]);
            tris.push_back(std::move(t));
        }
    };
    collect(mesh_.triangles, true);
    std::sort(tris.begin(), tris.end(), [](const Tri& a, const Tri& b) { return a.depth > b.depth; });
    p.setRenderHint(QPainter::Antialiasing, false);
    for (const Tri& t : tris) {
        p.setPen(QPen(t.colour, 0.8));
        p.setBrush(t.colour);
        p.drawPolygon(t.poly);
    }
    p.setRenderHint(QPainter::Antialiasing, true);
    for (size_t k = 0; k + 1 < mesh_.lines.size(); k += 2) {
        const MeshVertex& a = mesh_.lines[k];
        double da = 0, db = 0;
        const QPointF pa = toScreen(a.p, &da), pb = toScreen(mesh_.lines[k + 1].p, &db);
        if (da < -1 || db < -1) continue;
        p.setPen(QPen(QColor::fromRgbF(a.c[0], a.c[1], a.c[2], a.c[3]), 1.2));
        p.drawLine(pa, pb);
    }
    tris.clear();
    collect(mesh_.translucent, false);
    p.setPen(Qt::NoPen);
    for (const Tri& t : tris) {
        p.setBrush(t.colour);
        p.drawPolygon(t.poly);
    }
}

void StructureView3D::setProject(const Project& project) {
    // another domain (another project, or a resized one): the camera frames it again
    if (!haveProject_ || project.domain.size != project_.domain.size || project.domain.pml.cells != project_.domain.pml.cells ||
        project.domain.cell_size != project_.domain.cell_size)
        cameraSet_ = false;
    project_ = project;
    haveProject_ = true;
    rebuild();
}

void StructureView3D::setSlice(int normalAxis, double positionUm) {
    if (options_.slice_normal == normalAxis && options_.slice_position == positionUm) return;
    options_.slice_normal = normalAxis;
    options_.slice_position = positionUm;
    rebuild();
}

void StructureView3D::setSelection(int kind, int layer, int index) {
    if (options_.selected_kind == kind && options_.selected_layer == layer && options_.selected_index == index) return;
    options_.selected_kind = kind;
    options_.selected_layer = layer;
    options_.selected_index = index;
    rebuild();
}

void StructureView3D::setHighlight(const std::optional<Box3>& box) {
    if (options_.highlight == box) return;
    options_.highlight = box;
    rebuild();
}

void StructureView3D::rebuild() {
    if (!haveProject_) return;
    mesh_ = build_structure_mesh(project_, options_);
    dirty_ = true;
    if (!cameraSet_) resetCamera();
    refresh();
}

void StructureView3D::frameNextProject() {
    cameraSet_ = false;  // the next rebuild frames the project
    if (haveProject_ && isVisible()) rebuild();  // (hidden: setProject rebuilds when shown)
}

void StructureView3D::resetCamera() {
    const Box3& b = mesh_.bounds;
    if (!(b.hi.x > b.lo.x)) return;
    target_ = QVector3D(float(0.5 * (b.lo.x + b.hi.x)), float(0.5 * (b.lo.y + b.hi.y)), float(0.5 * (b.lo.z + b.hi.z)));
    const double diag = std::sqrt((b.hi.x - b.lo.x) * (b.hi.x - b.lo.x) + (b.hi.y - b.lo.y) * (b.hi.y - b.lo.y) +
                                  (b.hi.z - b.lo.z) * (b.hi.z - b.lo.z));
    distance_ = 1.9 * diag;
    yaw_ = -55;
    pitch_ = 28;
    cameraSet_ = true;
    refresh();
}

void StructureView3D::orbit(double dy, double dp) {
    yaw_ = std::remainder(yaw_ + dy, 360.0);
    pitch_ = std::clamp(pitch_ + dp, -89.0, 89.0);
    refresh();
}

void StructureView3D::pan(double dxPx, double dyPx) {
    // move the target in the view plane, by the pixels' size at the target's distance
    const double h = std::max(1, height());
    const double umPerPx = 2 * distance_ * std::tan(35.0 * M_PI / 360) / h;
    const QMatrix4x4 v = viewMatrix();
    const QVector3D right(v(0, 0), v(0, 1), v(0, 2)), up(v(1, 0), v(1, 1), v(1, 2));
    target_ += float(-dxPx * umPerPx) * right + float(dyPx * umPerPx) * up;
    refresh();
}

void StructureView3D::zoom(double f) {
    distance_ = std::clamp(distance_ / f, 1e-4, 1e7);
    refresh();
}

QVector3D StructureView3D::eye() const {
    const double y = yaw_ * M_PI / 180, p = pitch_ * M_PI / 180;
    const QVector3D dir(float(std::cos(p) * std::cos(y)), float(std::cos(p) * std::sin(y)), float(std::sin(p)));
    return target_ + float(distance_) * dir;
}

QMatrix4x4 StructureView3D::viewMatrix() const {
    QMatrix4x4 m;
    m.lookAt(eye(), target_, QVector3D(0, 0, 1));
    return m;
}

QMatrix4x4 StructureView3D::projectionMatrix() const {
    QMatrix4x4 m;
    const float aspect = float(std::max(1, width())) / float(std::max(1, height()));
    m.perspective(35.f, aspect, float(distance_ * 0.01), float(distance_ * 10 + 1));
    return m;
}

void StructureView3D::initGl() {
    gl_ = QOpenGLContext::currentContext()->functions();
    auto glGetString = [this](GLenum e) { return gl_->glGetString(e); };
    glInfo_ = QStringLiteral("%1, OpenGL %2")
                  .arg(QString::fromLatin1(reinterpret_cast<const char*>(glGetString(GL_RENDERER))),
                       QString::fromLatin1(reinterpret_cast<const char*>(glGetString(GL_VERSION))));
    program_ = std::make_unique<QOpenGLShaderProgram>();
    program_->addShaderFromSourceCode(QOpenGLShader::Vertex, kVertexShader);
    program_->addShaderFromSourceCode(QOpenGLShader::Fragment, kFragmentShader);
    program_->bindAttributeLocation("a_pos", 0);
    program_->bindAttributeLocation("a_nrm", 1);
    program_->bindAttributeLocation("a_col", 2);
    if (!program_->link()) glInfo_ += QStringLiteral(" (shader link failed: %1)").arg(program_->log());
    vbo_.create();
    uploaded_ = false;
    dirty_ = true;
}

void StructureView3D::paintGl() {
    QOpenGLFunctions* f = gl_;
    if (!f) return;
    auto glClearColor = [f](float r, float g, float b, float a) { f->glClearColor(r, g, b, a); };
    auto glClear = [f](GLbitfield m) { f->glClear(m); };
    auto glEnable = [f](GLenum e) { f->glEnable(e); };
    auto glDisable = [f](GLenum e) { f->glDisable(e); };
    auto glDepthFunc = [f](GLenum e) { f->glDepthFunc(e); };
    auto glPolygonOffset = [f](float a, float b) { f->glPolygonOffset(a, b); };
    auto glDrawArrays = [f](GLenum m, int first, int n) { f->glDrawArrays(m, first, n); };
    auto glBlendFunc = [f](GLenum a, GLenum b) { f->glBlendFunc(a, b); };
    auto glDepthMask = [f](GLboolean b) { f->glDepthMask(b); };
    glClearColor(0.235f, 0.247f, 0.267f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    if (!program_ || !program_->isLinked()) return;
    if (dirty_ || !uploaded_) {
        std::vector<MeshVertex> all;
        all.reserve(mesh_.triangles.size() + mesh_.translucent.size() + mesh_.lines.size());
        all.insert(all.end(), mesh_.triangles.begin(), mesh_.triangles.end());
        all.insert(all.end(), mesh_.lines.begin(), mesh_.lines.end());
        all.insert(all.end(), mesh_.translucent.begin(), mesh_.translucent.end());
        nTri_ = int(mesh_.triangles.size());
        nLines_ = int(mesh_.lines.size());
        nTrans_ = int(mesh_.translucent.size());
        vbo_.bind();
        vbo_.allocate(all.data(), int(all.size() * sizeof(MeshVertex)));
        vbo_.release();
        uploaded_ = true;
        dirty_ = false;
    }
    const QMatrix4x4 mvp = projectionMatrix() * viewMatrix();
    QVector3D light = (eye() - target_).normalized() + QVector3D(0.3f, -0.2f, 0.6f);
    light.normalize();
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_CULL_FACE);
    program_->bind();
    program_->setUniformValue("u_mvp", mvp);
    program_->setUniformValue("u_light", light);
    vbo_.bind();
    const int stride = int(sizeof(MeshVertex));
    program_->enableAttributeArray(0);
    program_->enableAttributeArray(1);
    program_->enableAttributeArray(2);
    program_->setAttributeBuffer(0, GL_FLOAT, offsetof(MeshVertex, p), 3, stride);
    program_->setAttributeBuffer(1, GL_FLOAT, offsetof(MeshVertex, n), 3, stride);
    program_->setAttributeBuffer(2, GL_FLOAT, offsetof(MeshVertex, c), 4, stride);
    // solids, lit; a small polygon offset keeps the outlines on top of coincident faces
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.f, 1.f);
    program_->setUniformValue("u_lit", 1.f);
    if (nTri_ > 0) glDrawArrays(GL_TRIANGLES, 0, nTri_);
    glDisable(GL_POLYGON_OFFSET_FILL);
    program_->setUniformValue("u_lit", 0.f);
    if (nLines_ > 0) glDrawArrays(GL_LINES, nTri_, nLines_);
    // the slice plane: translucent, drawn last without writing depth
    if (nTrans_ > 0) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDepthMask(GL_FALSE);
        glDrawArrays(GL_TRIANGLES, nTri_ + nLines_, nTrans_);
        glDepthMask(GL_TRUE);
        glDisable(GL_BLEND);
    }
    program_->disableAttributeArray(0);
    program_->disableAttributeArray(1);
    program_->disableAttributeArray(2);
    vbo_.release();
    program_->release();
    glDisable(GL_DEPTH_TEST);
    // the axes and notes, with QPainter over the GL frame
    QPainter p(surface_);
    paintOverlay(p, surface_->size());
}

void StructureView3D::paintOverlay(QPainter& p, QSize size) {
    // the axes (a small triad at the lower left) and a note
    p.setRenderHint(QPainter::Antialiasing);
    const QMatrix4x4 v = viewMatrix();
    const QPointF o(38, size.height() - 38);
    const char* names[3] = {"x", "y", "z"};
    const QColor cols[3] = {QColor(230, 80, 80), QColor(90, 200, 90), QColor(90, 140, 240)};
    for (int a = 0; a < 3; ++a) {
        QVector3D axis;
        axis[a] = 1;
        const QVector3D s = v.mapVector(axis);
        const QPointF tip = o + QPointF(s.x(), -s.y()) * 26;
        p.setPen(QPen(cols[a], 2));
        p.drawLine(o, tip);
        p.drawText(tip + QPointF(3, 4), QString::fromLatin1(names[a]));
    }
    // the labels (point dipoles' components) beside their 3D points
    if (!mesh_.labels.empty()) {
        const QMatrix4x4 mvp = projectionMatrix() * viewMatrix();
        QFont f = p.font();
        f.setBold(true);
        p.setFont(f);
        for (const MeshLabel& l : mesh_.labels) {
            const QVector4D c = mvp * QVector4D(l.p[0], l.p[1], l.p[2], 1.f);
            if (c.w() <= 1e-9f) continue;  // behind the camera
            const QPointF at((c.x() / c.w() + 1) * 0.5 * size.width(), (1 - c.y() / c.w()) * 0.5 * size.height());
            p.setPen(QColor::fromRgbF(l.c[0], l.c[1], l.c[2], l.c[3]));
            p.drawText(at + QPointF(3, -3), QString::fromStdString(l.text));
        }
    }
    if (!haveProject_) {
        p.setPen(QColor(230, 230, 230));
        p.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter, tr("No project"));
    } else if (project_.domain.dimensions != 3) {
        p.setPen(QColor(230, 230, 230));
        // wrapped: a narrow dock (or a longer translation) must not cut the sentence
        p.drawText(QRectF(8, 6, size.width() - 16, size.height() / 2), Qt::AlignLeft | Qt::TextWordWrap,
                   tr("2D project: layers shown over the z extent they get in 3D"));
    }
}

MeshPick StructureView3D::pickAt(QPointF pos) const {
    MeshPick none;
    const QMatrix4x4 inv = (projectionMatrix() * viewMatrix()).inverted();
    const double x = 2.0 * pos.x() / std::max(1, width()) - 1, y = 1 - 2.0 * pos.y() / std::max(1, height());
    const QVector3D a = inv.map(QVector3D(float(x), float(y), -1.f)), b = inv.map(QVector3D(float(x), float(y), 1.f));
    const QVector3D d = (b - a).normalized();
    // of the items the ray meets, the smallest (by the volume of its bounds) wins: a solid
    // inside a flux box or TF/SF box (drawn as outlines) is picked through the box
    double best = std::numeric_limits<double>::infinity();
    MeshPick hit = none;
    for (const MeshPick& pk : mesh_.picks) {
        double t = -1;
        if (pk.sphere) {
            const QVector3D c(float(0.5 * (pk.bounds.lo.x + pk.bounds.hi.x)), float(0.5 * (pk.bounds.lo.y + pk.bounds.hi.y)),
                              float(0.5 * (pk.bounds.lo.z + pk.bounds.hi.z)));
            const QVector3D oc = a - c;
            const double bq = QVector3D::dotProduct(oc, d), cq = double(oc.lengthSquared()) - pk.radius * pk.radius;
            const double disc = bq * bq - cq;
            if (disc >= 0) t = -bq - std::sqrt(disc);
        } else {
            double t0 = -1e300, t1 = 1e300;
            bool miss = false;
            for (int k = 0; k < 3 && !miss; ++k) {
                const double o = a[k], dk = d[k];
                if (std::abs(dk) < 1e-12) {
                    if (o < pk.bounds.lo[k] || o > pk.bounds.hi[k]) miss = true;
                    continue;
                }
                double ta = (pk.bounds.lo[k] - o) / dk, tb = (pk.bounds.hi[k] - o) / dk;
                if (ta > tb) std::swap(ta, tb);
                t0 = std::max(t0, ta);
                t1 = std::min(t1, tb);
                if (t0 > t1) miss = true;
            }
            if (!miss && t1 >= 0) t = std::max(t0, 0.0);
        }
        if (t < 0) continue;
        const double volume = (pk.bounds.hi.x - pk.bounds.lo.x) * (pk.bounds.hi.y - pk.bounds.lo.y) *
                              (pk.bounds.hi.z - pk.bounds.lo.z);
        if (volume < best) {
            best = volume;
            hit = pk;
        }
    }
    return hit;
}

void StructureView3D::mousePressEvent(QMouseEvent* e) {
    pressPos_ = lastPos_ = e->position();
    dragButton_ = e->button();
    moved_ = false;
}

void StructureView3D::mouseMoveEvent(QMouseEvent* e) {
    if (dragButton_ == Qt::NoButton) return;
    const QPointF d = e->position() - lastPos_;
    lastPos_ = e->position();
    if ((e->position() - pressPos_).manhattanLength() > 3) moved_ = true;
    const bool panning = dragButton_ != Qt::LeftButton || (e->modifiers() & Qt::ShiftModifier);
    if (panning) pan(d.x(), d.y());
    else orbit(-d.x() * 0.4, d.y() * 0.4);
}

void StructureView3D::mouseReleaseEvent(QMouseEvent* e) {
    if (dragButton_ == Qt::LeftButton && !moved_ && e->button() == Qt::LeftButton) {
        const MeshPick pk = pickAt(e->position());
        Q_EMIT itemClicked(pk.kind, pk.layer, pk.index);
    }
    dragButton_ = Qt::NoButton;
}

void StructureView3D::wheelEvent(QWheelEvent* e) {
    zoom(std::pow(1.0015, e->angleDelta().y()));
}

}  // namespace golightly::viewport
