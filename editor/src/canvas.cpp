// GoLightly editor: the canvas widget (canvas.hpp): construction, drag and drop, the
// context menu, the active tool and the input events it receives. The rest of Canvas is
// split by concept: canvas_view.cpp (view transform, zoom, grid, snapping),
// canvas_paint.cpp (painting), canvas_markers.cpp (sources, monitors, ports),
// canvas_hit_test.cpp (hit testing, item bounds), canvas_paths.cpp (shapes as painter
// paths), canvas_raster.cpp (painted rasters), canvas_preview.cpp (structure preview).

#include "canvas.hpp"

#include <QContextMenuEvent>
#include <QDragEnterEvent>
#include <QMenu>
#include <QDropEvent>
#include <QFileInfo>
#include <QKeyEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QWheelEvent>

#include <cmath>

#include "tools.hpp"

namespace golightly::editor {

QString step_file_from_urls(const QList<QUrl>& urls) {
    for (const QUrl& u : urls) {
        if (!u.isLocalFile()) continue;
        const QString suffix = QFileInfo(u.toLocalFile()).suffix().toLower();
        if (suffix == QLatin1String("step") || suffix == QLatin1String("stp")) return u.toLocalFile();
    }
    return {};
}

Canvas::Canvas(EditorDocument* document, QWidget* parent) : QWidget(parent), doc_(document) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(200, 150);
    setAcceptDrops(true);
    connect(doc_, &EditorDocument::changed, this, qOverload<>(&QWidget::update));
    connect(doc_, &EditorDocument::selectionChanged, this, qOverload<>(&QWidget::update));
    connect(doc_, &EditorDocument::filePathChanged, this, [this] { zoomToFit(); });
}

Canvas::~Canvas() = default;

void Canvas::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls() && !step_file_from_urls(e->mimeData()->urls()).isEmpty()) e->acceptProposedAction();
}

void Canvas::contextMenuEvent(QContextMenuEvent* e) {
    const ItemRef hit = hitTest(toWorld(QPointF(e->pos())));
    const Project& pr = doc_->project();
    if (hit.kind != ItemRef::Kind::Shape || pr.layers[size_t(hit.layer)].shapes[size_t(hit.index)].type != ShapeType::Step)
        return;
    doc_->setSelection(hit);
    QMenu menu(this);
    QAction* reimport = menu.addAction(tr("Re-import STEP..."));
    QAction* remove = menu.addAction(tr("Delete"));
    QAction* chosen = menu.exec(e->globalPos());
    if (chosen == reimport) Q_EMIT reimportStepRequested(hit);
    else if (chosen == remove) doc_->removeItem(hit);
}

void Canvas::dropEvent(QDropEvent* e) {
    const QString path = e->mimeData()->hasUrls() ? step_file_from_urls(e->mimeData()->urls()) : QString();
    if (path.isEmpty()) return;
    e->acceptProposedAction();
    Q_EMIT stepFileDropped(path);
}

void Canvas::setTool(Tool* tool) {
    if (tool_ == tool) return;
    if (tool_) tool_->deactivate();
    tool_ = tool;
    if (tool_) {
        tool_->activate();
        setCursor(tool_->cursor());
    } else {
        unsetCursor();
    }
    update();
}

void Canvas::setPreviewOffset(QPointF offset) {
    previewOffset_ = offset;
    update();
}

void Canvas::resizeEvent(QResizeEvent*) {
    if (!fittedOnce_ && width() > 0) zoomToFit();
}

void Canvas::mousePressEvent(QMouseEvent* e) {
    setFocus(Qt::MouseFocusReason);
    if (e->button() == Qt::MiddleButton || (e->button() == Qt::LeftButton && spaceDown_)) {
        panning_ = true;
        lastPan_ = e->position().toPoint();
        setCursor(Qt::ClosedHandCursor);
        return;
    }
    if (tool_) tool_->mousePress(e, toWorld(e->position()));
}

void Canvas::mouseMoveEvent(QMouseEvent* e) {
    if (panning_) {
        const QPoint d = e->position().toPoint() - lastPan_;
        lastPan_ = e->position().toPoint();
        center_ -= QPointF(d.x() / scale_, -d.y() / scale_);
        update();
        Q_EMIT viewChanged();
        return;
    }
    const QPointF w = toWorld(e->position());
    // repaint the old and new cursor marks on the rulers
    if (std::isfinite(lastCursor_.x())) {
        const QPointF o = toScreen(lastCursor_);
        update(QRect(int(o.x()) - 1, 0, 3, 19));
        update(QRect(0, int(o.y()) - 1, 19, 3));
    }
    lastCursor_ = w;
    update(QRect(int(e->position().x()) - 1, 0, 3, 19));
    update(QRect(0, int(e->position().y()) - 1, 19, 3));
    Q_EMIT cursorMoved(w);
    if (tool_) tool_->mouseMove(e, w);
}

void Canvas::mouseReleaseEvent(QMouseEvent* e) {
    if (panning_ && (e->button() == Qt::MiddleButton || e->button() == Qt::LeftButton)) {
        panning_ = false;
        setCursor(spaceDown_ ? QCursor(Qt::OpenHandCursor) : (tool_ ? tool_->cursor() : QCursor()));
        return;
    }
    if (tool_) tool_->mouseRelease(e, toWorld(e->position()));
}

void Canvas::mouseDoubleClickEvent(QMouseEvent* e) {
    if (tool_ && e->button() == Qt::LeftButton) tool_->mouseDoubleClick(e, toWorld(e->position()));
}

void Canvas::wheelEvent(QWheelEvent* e) {
    const double steps = e->angleDelta().y() / 120.0;
    if (steps != 0) zoomBy(std::pow(1.25, steps), e->position());
    e->accept();
}

void Canvas::keyPressEvent(QKeyEvent* e) {
    if (e->key() == Qt::Key_Space && !e->isAutoRepeat()) {
        spaceDown_ = true;
        setCursor(Qt::OpenHandCursor);
        return;
    }
    if (tool_ && tool_->keyPress(e)) return;
    QWidget::keyPressEvent(e);
}

void Canvas::keyReleaseEvent(QKeyEvent* e) {
    if (e->key() == Qt::Key_Space && !e->isAutoRepeat()) {
        spaceDown_ = false;
        setCursor(tool_ ? tool_->cursor() : QCursor());
        return;
    }
    QWidget::keyReleaseEvent(e);
}

}  // namespace golightly::editor
