// GoLightly editor: the canvas that shows the project in world coordinates (um, y up):
// the domain and its PML band, a grid, every layer's shapes (outlines from
// golightly::shape_outline), painted rasters, sources and monitors with their names, the
// selection and the active tool's preview. Zoom with the wheel (about the cursor), fit,
// 1:1 (one simulation cell per screen pixel); pan with the middle button or space+drag.
#pragma once

#include <QHash>
#include <QImage>
#include <QPainterPath>
#include <QPointer>
#include <QUrl>
#include <QWidget>

#include <cmath>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "editor_document.hpp"

class QPainter;

namespace golightly::editor {

class Tool;

/// The first local .step / .stp file among `urls`, or an empty string.
QString step_file_from_urls(const QList<QUrl>& urls);

/// The filled region of a vector shape as a QPainterPath in world um (winding fill);
/// empty for raster shapes. `tolerance_um` bounds the curve discretization. Step shapes:
/// step_painter_path at `slice_z_um` (domain.slice_z).
QPainterPath shape_painter_path(const Shape& shape, double tolerance_um, double slice_z_um = 0.0);
/// The section of a step shape's selected solids by the plane z = slice_z_um as a
/// QPainterPath (world um, winding fill); curved edges to 2e-4 of the part's x-y extent.
/// `crosses` (optional) tells whether any selected solid crosses the plane; when none
/// does the path is the x-y bounding rectangle of the placed solids, so the shape stays
/// visible and selectable. Empty when the data cannot be read. Cached per (data,
/// placement, solids, z); OpenCASCADE work happens on the first call only.
QPainterPath step_painter_path(const Shape& shape, double slice_z_um, bool* crosses = nullptr);
/// Draws a point dipole of `component` centred at screen point `c` (the xy editor's view,
/// y down on screen): Ex / Hx an arrow along +x, Ey / Hy along +y, Ez / Hz a circled dot
/// (an arrow out of the screen); electric: filled head, solid shaft; magnetic: open head,
/// dashed shaft. The arrow reaches 11 px from `c` (the dot's circle 7 px).
void draw_dipole(QPainter& painter, QPointF c, Component component, const QColor& colour);
/// A material's colour ("#rrggbb"), or a stable colour derived from its id.
QColor material_color(const Project& project, const std::string& material_id);

/// A raster layer shape decoded for painting: coverage (Grayscale8, row 0 = top) and the
/// colourized display image (ARGB32 premultiplied, alpha = coverage).
struct RasterImage {
    std::string png_base64;  ///< the data the images were decoded from
    QImage coverage;
    QImage display;
    QRgb color = 0;
    /// Recomputes `display` from `coverage` inside `rect` (pixel coordinates).
    void refreshDisplay(const QRect& rect);
};

class Canvas : public QWidget {
    Q_OBJECT
public:
    explicit Canvas(EditorDocument* document, QWidget* parent = nullptr);
    ~Canvas() override;

    EditorDocument* document() const { return doc_; }

    // ---- view transform
    double pixelsPerUm() const { return scale_; }
    QPointF viewCenter() const { return center_; }
    void setView(double pixelsPerUm, QPointF centerUm);
    QPointF toWorld(QPointF screen) const;
    QPointF toScreen(QPointF world) const;
    QRectF toScreen(const QRectF& worldRect) const;
    void zoomBy(double factor, QPointF anchorScreen);
    void zoomToFit();
    void zoomOneToOne();

    // ---- grid and snapping
    bool gridVisible() const { return gridVisible_; }
    void setGridVisible(bool on);
    bool snapEnabled() const { return snap_; }
    void setSnapEnabled(bool on) { snap_ = on; }
    /// The displayed grid step in um (1, 2 or 5 times a power of ten, >= 16 pixels).
    double gridStep() const;
    /// Snaps a world point to the nearest shape vertex within 8 pixels, else to the grid
    /// (when snapping is on). Otherwise returns the point unchanged.
    QPointF snap(QPointF world) const;

    // ---- tools
    void setTool(Tool* tool);
    Tool* tool() const { return tool_; }
    /// A drag preview: the selected item is drawn shifted by this offset (um).
    void setPreviewOffset(QPointF offsetUm);

    /// The decoded raster of shape `shapeIndex` of `layer` (created/decoded on demand).
    RasterImage* rasterImage(int layer, int shapeIndex);

    /// Raster painting (BrushTool): starts editing raster `shapeIndex` of `layer`; when
    /// `newShape` is given the raster does not exist yet and is held here until committed.
    void beginRasterEdit(int layer, int shapeIndex, const Shape* newShape);
    /// The raster being painted (the pending new one, or the cached existing one).
    RasterImage* pendingRaster(int layer, int shapeIndex);
    /// Ends painting: commit = the document is about to receive the new data; otherwise
    /// the cached image is dropped and decoded again from the document.
    void endRasterEdit(bool commit);

    /// Bounding box (world um) of an item; empty when the item does not exist.
    QRectF itemBounds(const ItemRef& item) const;

    /// Hit test at a world point: topmost shape of a visible unlocked layer, source or monitor.
    ItemRef hitTest(QPointF world) const;

    // ---- structure preview: the compiled, sub-pixel-averaged permittivity as the solver
    // sees it (compile_project), PML cells included and marked
    void setStructurePreview(bool on);
    bool structurePreview() const { return preview_; }
    /// The previewed eps_r at a world point (nearest E sample); NaN outside or when off.
    double previewEpsAt(QPointF worldUm);
    /// The last compile error of the preview (empty when it compiled).
    QString previewError() const { return previewError_; }

    // ---- divergence region: where a run's fields grew first (RunResult::divergence's cell
    // box), drawn as a red outlined rectangle (at least 8 px across) with `label` above it
    /// Shows the region: `rectUm` in world um (x, y; for a 3D project its x-y footprint).
    /// An empty or invalid rectangle clears it.
    void setDivergenceRegion(const QRectF& rectUm, const QString& label);
    /// Removes the region (a new run, a new project).
    void clearDivergenceRegion() { setDivergenceRegion(QRectF(), QString()); }
    /// The region shown, world um; a null rectangle when none.
    QRectF divergenceRegion() const { return divergenceRect_; }
    QString divergenceLabel() const { return divergenceLabel_; }

    // ---- the design region (design_region.hpp): drawn as a hatched box; inside it the
    // density: the image set here (an optimization's projected density, pushed each
    // iteration by the Inverse Design dock), else the region's start density when it is a
    // list of values; over it the fixed boxes (design.regions[0].fixed), cross-hatched:
    // dark for solid, light with an orange hatch for void
    /// Shows `image` (Grayscale8, row 0 = the box's top) in the design region; a null image
    /// clears it.
    void setDesignDensity(const QImage& image);
    QImage designDensity() const { return designDensity_; }
    /// Draws the whole domain (plus PML band) into `painter` (export as PNG/SVG).
    void renderScene(QPainter& painter, const QRectF& targetRect, bool withGrid);
    /// The world rectangle shown by zoomToFit (domain + PML band + margin).
    QRectF sceneRect() const;
    /// The names of sources, monitors and ports the last drawing showed, with their
    /// rectangles (device pixels of that drawing). Where names would cover each other they
    /// are moved up or down, or left out (the selected item's never).
    const std::vector<std::pair<QString, QRectF>>& drawnLabels() const { return drawnLabels_; }

Q_SIGNALS:
    void statusMessage(const QString& text);
    void cursorMoved(QPointF worldUm);
    void viewChanged();
    /// A .step / .stp file was dropped on the canvas (the main window opens the import).
    void stepFileDropped(const QString& path);
    /// "Re-import STEP..." was chosen in the context menu of a step shape.
    void reimportStepRequested(const golightly::editor::ItemRef& item);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void keyReleaseEvent(QKeyEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void dragEnterEvent(QDragEnterEvent*) override;
    void dropEvent(QDropEvent*) override;
    /// On a step shape: Re-import STEP... and Delete.
    void contextMenuEvent(QContextMenuEvent*) override;

private:
    /// Draws everything; `w2d` maps world um to device pixels, `pxPerUm` its scale.
    void drawScene(QPainter& p, const QTransform& w2d, double pxPerUm, const QRectF& visibleWorld,
                   bool withGrid, bool withSelection);
    void drawGrid(QPainter& p, const QTransform& w2d, double pxPerUm, const QRectF& visibleWorld);
    void drawSourcesMonitors(QPainter& p, const QTransform& w2d, double pxPerUm);
    void drawSelection(QPainter& p, const QTransform& w2d, double pxPerUm);
    void drawDesignRegion(QPainter& p, const QTransform& w2d);
    QImage designDensity_;
    /// The divergence region (setDivergenceRegion) in screen pixels.
    void drawDivergenceRegion(QPainter& p);
    QRectF divergenceRect_;
    QString divergenceLabel_;
    std::vector<std::pair<QString, QRectF>> drawnLabels_;
    /// Rulers in um along the top and left edges, with the cursor position marked.
    void drawRulers(QPainter& p);
    QPointF lastCursor_{std::nan(""), std::nan("")};
    QTransform worldToScreen() const;

    EditorDocument* doc_;
    Tool* tool_ = nullptr;
    double scale_ = 50;  ///< pixels per um
    QPointF center_{5, 4};
    bool gridVisible_ = true;
    bool snap_ = true;
    bool fittedOnce_ = false;
    bool panning_ = false;
    bool spaceDown_ = false;
    QPoint lastPan_;
    QPointF previewOffset_;
    std::map<std::pair<int, int>, RasterImage> rasters_;
    struct PendingRaster {
        int layer = -1, index = -1;
        bool isNew = false;
        Shape shape;
        RasterImage image;
    };
    std::optional<PendingRaster> pending_;
    void updatePreview();
    bool preview_ = false;
    std::optional<Project> previewOf_;
    QImage previewImage_;
    std::vector<double> previewEps_;
    int previewNx_ = 0, previewNy_ = 0;
    QRectF previewRect_;      ///< world rectangle of the whole grid (PML included)
    QString previewError_;
};

}  // namespace golightly::editor
