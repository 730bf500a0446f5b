// GoLightly viewport: the 3D structure view (issue 16). It draws a project's
// structure_mesh (extruded layers, spheres, boxes and STEP solids in their materials'
// colours; the simulation box, PML, sources, monitors and the slice plane as outlines)
// with OpenGL: a QOpenGLWidget child running a GLSL program (two-sided diffuse light,
// depth test). Where no OpenGL context can be made (the offscreen and minimal platforms,
// GOLIGHTLY_NO_GL, as the field view) a raster child paints the same mesh with QPainter
// (triangles sorted far to near). Mouse: left drag orbits, right
// or middle drag (or Shift+left) pans, the wheel zooms; a click picks an item (ray against
// the items' bounds, spheres exactly; of several the smallest) and emits itemClicked.
#pragma once

#include <QMatrix4x4>
#include <QOpenGLBuffer>
#include <QOpenGLFunctions>
#include <QOpenGLShaderProgram>
#include <QOpenGLWidget>
#include <QVector3D>

#include <memory>

#include "golightly/project.hpp"
#include "structure_mesh.hpp"

namespace golightly::viewport {

class StructureView3D : public QWidget {
    Q_OBJECT
public:
    explicit StructureView3D(QWidget* parent = nullptr);
    ~StructureView3D() override;

    void setProject(const Project& project);
    /// The slice plane shown: normal axis 0/1/2 (yz, xz, xy), -1 none.
    void setSlice(int normalAxis, double positionUm);
    /// Highlights an item (MeshPick kind/layer/index; kind 0 none).
    void setSelection(int kind, int layer, int index);
    /// Marks a region with a red box outline (um; the cell box of a diverged run); nullopt
    /// removes it.
    void setHighlight(const std::optional<Box3>& box);
    std::optional<Box3> highlight() const { return options_.highlight; }
    const StructureMesh& mesh() const { return mesh_; }

    // camera (degrees, um)
    void resetCamera();
    /// Another project: the camera frames it when it is shown, whatever the previous
    /// one's view was (even when both domains have the same size).
    void frameNextProject();
    void orbit(double dYawDeg, double dPitchDeg);
    void pan(double dxPx, double dyPx);
    void zoom(double factor);
    double yaw() const { return yaw_; }
    double pitch() const { return pitch_; }
    double distance() const { return distance_; }
    QVector3D target() const { return target_; }
    /// The item under a widget point (kind 0 when none), as a click picks it.
    MeshPick pickAt(QPointF widgetPos) const;
    /// A text describing the GL context (renderer, version) once it is made, or the raster
    /// fallback.
    QString glInfo() const { return glInfo_; }
    bool usesOpenGL() const { return openGL_; }
    /// The picture as shown (the GL framebuffer, or the raster painting).
    QImage grabImage();
    /// Draws the mesh with QPainter (the raster path; also usable for pictures).
    void paintRaster(QPainter& p, QSize size);
    /// OpenGL path (the GL child calls these with its context current).
    void initGl();
    void paintGl();
    /// The axes triad and the notes, over either path.
    void paintOverlay(QPainter& p, QSize size);

Q_SIGNALS:
    void itemClicked(int kind, int layer, int index);

protected:
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void wheelEvent(QWheelEvent*) override;

private:
    void rebuild();
    QMatrix4x4 viewMatrix() const;
    QMatrix4x4 projectionMatrix() const;
    QVector3D eye() const;

    QWidget* surface_ = nullptr;
    bool openGL_ = false;
    QOpenGLFunctions* gl_ = nullptr;
    Project project_;
    bool haveProject_ = false;
    StructureMeshOptions options_;
    StructureMesh mesh_;
    bool dirty_ = true;
    bool cameraSet_ = false;
    double yaw_ = -55, pitch_ = 28, distance_ = 10;
    QVector3D target_;
    void refresh();
    std::unique_ptr<QOpenGLShaderProgram> program_;
    QOpenGLBuffer vbo_{QOpenGLBuffer::VertexBuffer};
    int nTri_ = 0, nTrans_ = 0, nLines_ = 0;
    bool uploaded_ = false;
    QString glInfo_;
    QPointF pressPos_, lastPos_;
    Qt::MouseButton dragButton_ = Qt::NoButton;
    bool moved_ = false;
};

}  // namespace golightly::viewport
