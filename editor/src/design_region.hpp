// GoLightly editor: the project's `design` section (docs/spec/project-format.md "Inverse
// design") as the IDE edits it: one design region (design.regions[0], the one region the
// solver takes) or the shape parameters (design.shape_parameters, the other kind of design
// variable), the objective and the optimizer. The section lives in Project::extra["design"]
// as JSON; these helpers read and change it there, so every edit is an ordinary
// EditorDocument::editProject (one undo step) and a save writes it back as the reader
// expects. The Design region tool draws the region's box.
#pragma once

#include <QImage>
#include <QPointF>
#include <QStringList>

#include <array>
#include <vector>

#include "golightly/project.hpp"
#include "tools.hpp"

namespace golightly::editor {

/// design.regions[0], or nullptr when the project has no design region.
const Json* design_region(const Project& project);
/// The region's box in um (x-y; z when 3D in min_z / max_z). False without a region.
bool design_box(const Project& project, Vec3& min, Vec3& max);
/// Pixels of the region along x, y, z (nz = 1 in 2D) from its box and pixel_um; {0,0,0}
/// when the box is not a whole number of pixels.
std::array<int, 3> design_pixels(const Project& project);
/// The mode monitors (flux monitors of kind "mode") that objective terms can name.
QStringList mode_monitor_names(const Project& project);

/// Sets the design region's box to the rectangle a-b (um; in 3D the box spans the domain's
/// z extent), its edges snapped to whole pixels from `a`. Creates the design section when
/// there is none: pixel_um = the cell size, materials [background, the first other
/// material], rho 0.5, a conic filter of 4 pixels, beta 8 (schedule to 64 every 20), and an
/// objective: the forward power in mode 0 of the last mode monitor, normalized by the first
/// one (with one mode monitor: unnormalized; with none: |E|^2 at the domain's centre),
/// optimized by MMA for 50 iterations. A design of shape parameters
/// (design.shape_parameters) becomes a density design: the parameters' list is dropped,
/// the objective kept (a design has one kind of variable). Returns false (nothing changed)
/// for a box smaller than one pixel.
bool set_design_box(Project& project, QPointF a, QPointF b);
/// Removes the whole design section.
void remove_design(Project& project);

// ---- shape parameters (design.shape_parameters, docs/spec/project-format.md "Inverse
// design"): project parameters the optimizer moves within [min, max], the second kind of
// design variable (a design has either a density region or shape parameters)

/// True when the project's design section has a `shape_parameters` member.
bool has_shape_parameters(const Project& project);
/// design.shape_parameters as in the file (an empty array when the design has none).
Json shape_parameters(const Project& project);
/// What the reader (design_spec) says of each entry of design.shape_parameters: one string
/// per entry, empty when the reader takes it, else its message (naming `file_label` and the
/// field, e.g. "f.glproj: design.shape_parameters[1].max: must exceed min (0.5; found
/// 0.4)"). Each entry is checked after the entries before it that the reader takes (so a
/// repeated name is the later entry's problem). `check_references`: also the name (a
/// parameter of the project) and its start value within [min, max], as `optimize
/// --adjoint` reads them; without, only what makes the file unreadable.
std::vector<QString> shape_parameter_problems(const Project& project, const std::string& file_label,
                                              bool check_references = true);
/// Sets design.shape_parameters to `list`. Creates the design section when there is none,
/// with the objective and optimizer set_design_box gives a new region. An empty list
/// removes the design section (the reader refuses a design without variables). The caller
/// keeps density designs out (the reader refuses both kinds in one design).
void set_shape_parameters(Project& project, const Json& list);
/// A new entry for design.shape_parameters: the first project parameter the list does not
/// name yet, its range its value +- 10 % (+- 0.1 at 0); no `step` (the reader's default).
/// Empty (null JSON) when every parameter is listed or the project has none.
Json new_shape_parameter(const Project& project);

/// A box of the design region whose pixels the optimizer holds at rho 0 or 1
/// (design.regions[0].fixed[k], docs/spec/project-format.md "Inverse design"): um; in 2D
/// z is 0.
struct FixedDensityBox {
    Vec3 min, max;
    int rho = 1;  ///< 1: held solid (the high material), 0: held void (the low one)
};
/// The region's fixed boxes in file order (entries that are not well-formed boxes skipped).
std::vector<FixedDensityBox> design_fixed_boxes(const Project& project);
/// Appends a fixed box for the drag a-b (um): its edges rounded to the region's pixel
/// edges (so that the pixels it holds are the ones drawn: a pixel is fixed when its centre
/// lies in the box), clipped to the region; in 3D it spans the region's z extent. Returns
/// false (nothing changed) without a region or when the box holds no whole pixel.
bool add_design_fixed_box(Project& project, QPointF a, QPointF b, int rho);
/// Keeps the fixed boxes of `region` (design.regions[0]) inside its box after the box
/// changed: each clipped to it, those left without area removed (the reader refuses a
/// fixed box outside the region, so an edit of the region must not leave one).
void clip_design_fixed(Json& region, int dimensions);
/// A mutable design.regions[0] (the caller checked design_region()).
Json& design_region_mut(Project& project);
/// The objective / optimizer objects, created when missing.
Json& design_objective_mut(Project& project);
Json& design_optimizer_mut(Project& project);

/// A density image (Grayscale8, white = rho 0 = the low material, black = rho 1 = the high
/// one, as Meep's and the papers' pictures of designs: the solid dark on the canvas's light
/// background), row 0 = the top (largest y); `rho` x fastest, nx * ny values (the slice
/// k = 0 of a 3D grid).
QImage density_image(const std::vector<double>& rho, int nx, int ny);
/// The region's start density as an image when it is a list of values (empty otherwise).
QImage design_rho_image(const Project& project);

/// Draws the design region's box (drag from corner to corner): creates design.regions[0],
/// or moves it there when the project has one (one region is what the solver takes). With
/// Shift held at the press the drag paints a fixed solid box inside the region, with Ctrl a
/// fixed void box (add_design_fixed_box; or setMode for every drag). One undo step each;
/// selects the region.
class DesignRegionTool : public Tool {
    Q_OBJECT
public:
    /// What a plain drag does (the modifiers pick FixedSolid / FixedVoid for one drag).
    enum class Mode { Region, FixedSolid, FixedVoid };
    using Tool::Tool;
    QString name() const override { return tr("Design region"); }
    void setMode(Mode mode) { mode_ = mode; }
    Mode mode() const { return mode_; }
    void mousePress(QMouseEvent*, QPointF) override;
    void mouseMove(QMouseEvent*, QPointF) override;
    void mouseRelease(QMouseEvent*, QPointF) override;
    void paintOverlay(QPainter&) override;
    void cancel() override { active_ = false; }
    QString hint() const override {
        return tr("Drag from corner to corner to draw the inverse-design region (its density is optimized by "
                  "Run > Optimize (adjoint)); Shift+drag inside it: a fixed solid box, Ctrl+drag: a fixed void box");
    }
    /// The edit of a drag from a to b (um): the same as mouse press, move and release.
    void drawBox(QPointF a, QPointF b);
    /// The edit of a drag that paints a fixed box (rho 1: solid, 0: void) from a to b (um).
    void drawFixedBox(QPointF a, QPointF b, int rho);

private:
    bool active_ = false;
    Mode mode_ = Mode::Region;
    Mode drag_ = Mode::Region;  ///< the mode of the drag under way
    QPointF a_, b_;
};

}  // namespace golightly::editor
