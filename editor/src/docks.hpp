// GoLightly editor: the dock widgets. Every change made in a dock is one undoable
// EditorDocument edit; the docks refresh themselves from the document's signals.
#pragma once

#include <QDockWidget>
#include <QPointer>

#include <functional>

#include "editor_document.hpp"

class QListWidget;
class QTableWidget;
class QComboBox;
class QCheckBox;
class QDoubleSpinBox;
class QSpinBox;
class QPushButton;
class QLabel;
class QFormLayout;
class QWidget;

namespace golightly::editor {

class MaterialEditorDialog;
struct PortData;  // ports.hpp

/// Layers: add, delete, rename (double-click), reorder (drag or the arrow buttons),
/// show/hide (check box), lock; the current layer's material, z range and reference-only
/// flag. The list shows the topmost layer (last in the project, wins overlaps) first.
class LayersDock : public QDockWidget {
    Q_OBJECT
public:
    explicit LayersDock(EditorDocument* doc, QWidget* parent = nullptr);
    QListWidget* list() const { return list_; }
    /// Row in the list <-> layer index.
    int layerForRow(int row) const;
    int rowForLayer(int layer) const;

    void addLayer();
    void deleteCurrentLayer();
    void moveCurrentLayer(int delta);  ///< +1 = up (towards the top, later in the project)
    void toggleLock();
    /// Applies the order shown in the list (after a drag) to the project.
    void applyListOrder();

private:
    void refresh();
    void refreshDetails();
    EditorDocument* doc_;
    QListWidget* list_;
    QComboBox* material_;
    QCheckBox* zEnabled_;
    QDoubleSpinBox* zMin_;
    QDoubleSpinBox* zMax_;
    QCheckBox* referenceOnly_;
    QPushButton* lock_;
    bool updating_ = false;
};

/// Materials: list, add, delete (when unused), edit id, name, eps_inf, conductivity and
/// colour (double-click the colour cell); the dispersion poles of the selected material
/// (kind drude/lorentz, omega_p, omega_0, gamma in rad/s) in a second table.
class MaterialsDock : public QDockWidget {
    Q_OBJECT
public:
    enum Column { ColId, ColName, ColEps, ColSigma, ColPoles, ColColor, ColCount };
    enum PoleColumn { PoleKind, PoleOmegaP, PoleOmega0, PoleGamma, PoleColCount };
    explicit MaterialsDock(EditorDocument* doc, Prompts* prompts, QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }
    QTableWidget* polesTable() const { return poles_; }
    void addMaterial();
    void deleteSelectedMaterial();
    /// Adds a Lorentz pole to the selected material / removes the selected pole.
    void addPole();
    void removeSelectedPole();
    /// Opens the material editor (material_editor.hpp) on the selected material; returns it
    /// (nullptr when none is selected). One editor per dock; it follows the selection.
    MaterialEditorDialog* editSelectedMaterial();
    /// Opens the library picker and adds the chosen material (one undo step).
    void addFromLibrary();
    /// Adds a copy of `material`; when its id is taken, asks for another one
    /// (Prompts::askText; cancel: nothing added). Returns the row, or -1.
    int addLibraryMaterial(const Material& material);

private:
    void refresh();
    void refreshPoles();
    void cellEdited(int row, int column);
    void poleEdited(int row, int column);
    EditorDocument* doc_;
    Prompts* prompts_;
    QTableWidget* table_;
    QTableWidget* poles_;
    QLabel* polesLabel_;
    MaterialEditorDialog* editor_ = nullptr;
    bool updating_ = false;
};

/// Properties: numeric editing of the selected shape, source, monitor or port.
class PropertiesDock : public QDockWidget {
    Q_OBJECT
public:
    explicit PropertiesDock(EditorDocument* doc, QWidget* parent = nullptr);
    /// The editor of a field by its label (for tests); nullptr if absent.
    QWidget* field(const QString& label) const;
    /// Rebuilds now (normally deferred to the event loop).
    void rebuild();
    /// Entries that break a rule (shown red, with the rule as tool tip, and not applied to
    /// the project): "<item>: <field>: <rule> (entered <value>)". Run refuses to start
    /// while there are any.
    QStringList problems() const;
    /// A value entered in a numeric field: checked against the field's rule; applied
    /// (one undo step) when valid, else marked red. Returns the rule it breaks, or empty.
    /// (What editingFinished does; tests call it directly.)
    QString enterValue(const QString& label, double value);
    /// Text typed into a numeric field and entered: a number, or an expression over the
    /// project's parameters (bound to the field, one undo step). Returns the problem (an
    /// expression that does not evaluate, a broken rule), or empty. (Tests call it.)
    QString enterText(const QString& label, const QString& text);

Q_SIGNALS:
    /// "Re-import..." of a selected step shape was clicked (the main window asks for the file).
    void reimportStepRequested(const golightly::editor::ItemRef& item);

private:
    void scheduleRebuild();
    /// `rule` returns the rule a value breaks (empty: valid).
    QDoubleSpinBox* addDouble(const QString& label, double value, const QString& suffix,
                              std::function<void(double)> apply, std::function<QString(double)> rule = {});
    void markInvalid(QDoubleSpinBox* spin, const QString& rule);
    /// The JSON path of the one field `apply` sets (found by applying another value to a
    /// captured edit), or empty.
    std::string fieldPath(const std::function<void(double)>& apply, double current);
    /// Applies the expression `text` (value `value`) through `apply` and binds the field to
    /// it, one undo step; returns the problem, or empty.
    QString applyExpression(const std::function<void(double)>& apply, const QString& text, double value);
    /// A row below the field for its "= value" or the expression's problem.
    void ensureValueLabel(QDoubleSpinBox* spin);
    void addText(const QString& label, const QString& value, std::function<void(const QString&)> apply);
    /// A text field with a rule (`rule` returns the rule the text breaks, empty: valid): a
    /// broken entry is marked red with the rule, listed by problems() and not applied, as
    /// addDouble's.
    void addCheckedText(const QString& label, const QString& value, std::function<void(const QString&)> apply,
                        std::function<QString(const QString&)> rule);
    void addCombo(const QString& label, const QStringList& items, int current, std::function<void(int)> apply);
    void addInfo(const QString& label, const QString& text);
    void editShape(const std::function<void(Shape&)>& f);
    void editSource(const std::function<void(Source&)>& f);
    void editMonitor(const std::function<void(Monitor&)>& f);
    void editPort(const std::function<void(PortData&)>& f);
    /// A flux monitor's Kind (transmission, reflection, flux, mode) and a mode monitor's Modes.
    void fluxKindFields(const Monitor& m);

    // One builder per item kind (rebuild() calls the selected item's), each in its own file:
    // properties_shape.cpp, properties_source.cpp, properties_monitor.cpp, properties_port.cpp.
    void shapeRows(const Project& p, const ItemRef& sel);
    void sourceRows(const Project& p, const ItemRef& sel);
    void monitorRows(const Project& p, const ItemRef& sel);
    void portRows(const Project& p, const ItemRef& sel);
    /// The design region (properties_design.cpp).
    void designRows(const Project& p, const ItemRef& sel);
    void editDesign(const QString& text, const std::function<void(Json&)>& f);

    // Fields the builders share (properties_dock.cpp). The rules are the project format's
    // (validate_project). `rule(axis, value)`: the rule of each coordinate (empty: any value).
    using AxisRule = std::function<QString(int, double)>;
    static QString positive(double v);
    /// "+x", "-x", "+y", "-y" (and "+z", "-z" when dims is 3): directions of sources, monitors, ports.
    static QStringList directionNames(int dims);
    /// "Ex" .. "Hz" in Component order.
    static QStringList componentNames();
    /// x and y of a point (µm).
    void vecFields(const QString& name, Vec2 v, std::function<void(Vec2)> apply, AxisRule rule = {});
    /// 3D (issue 16): x, y, z of a point, a centre, a size or a box corner.
    void vec3Fields(const QString& name, Vec3 v, std::function<void(Vec3)> apply, AxisRule rule = {});
    void zField(const QString& name, double z, std::function<void(double)> apply);
    /// The corners of a box (a rectangle, a box solid, a TF/SF box, a flux box or DFT
    /// region): min below max on every axis, as validate_project requires of a file; a
    /// zero-width or inverted box is marked, not applied. `axes` = 2: z is not checked (2D:
    /// no z extent).
    static AxisRule minRule(Vec3 max, int axes = 3);
    static AxisRule maxRule(Vec3 min, int axes = 3);
    static Vec3 v3(Vec2 v, double z = 0) { return Vec3{v.x, v.y, z}; }
    EditorDocument* doc_;
    QWidget* body_ = nullptr;
    QFormLayout* form_ = nullptr;
    bool pending_ = false;
    struct Invalid {
        QString label;
        double value = 0;
        QString rule;
        bool isText = false;  ///< addCheckedText's entry: `text` (else the number `value`)
        QString text;
    };
    /// Rejected entries of the selected item (cleared when the selection changes).
    std::vector<Invalid> invalid_;
    ItemRef invalidItem_;
    QString itemTitle_;
};

/// Run setup: domain size, cell size (with cells per wavelength for the highest index and
/// the shortest wavelength), polarization, boundaries, PML cells, spectrum, stop criteria,
/// normalization, backend and precision.
class RunSetupDock : public QDockWidget {
    Q_OBJECT
public:
    explicit RunSetupDock(EditorDocument* doc, QWidget* parent = nullptr);
    /// Cells per shortest wavelength in the highest-index material: lambda_min / (n_max dx).
    static double cellsPerWavelength(const Project& p, double* nMax = nullptr);
    QLabel* resolutionLabel() const { return resolution_; }
    /// Check list of the layers of the normalization (reference) run.
    QListWidget* referenceLayers() const { return referenceLayers_; }
    QComboBox* incidentMonitor() const { return incident_; }
    /// The "Normalize with a reference run" switch: ticking it sets up normalization with
    /// its reference structure in one undo step (set_up_normalization) and emits
    /// statusMessage with what the reference run will contain.
    QCheckBox* normalization() const { return normalization_; }
    QDoubleSpinBox* cellSize() const { return cell_; }
    /// 2D / 3D switch (issue 16): index 0 = 2D, 1 = 3D; one undo step (dimensions.hpp).
    QComboBox* dimensions() const { return dims_; }
    QDoubleSpinBox* sizeZ() const { return sizeZ_; }
    QComboBox* boundaryZ() const { return boundZ_; }
    /// run.frames (3D): the slice plane (xy, xz, yz) and its position along the normal.
    QComboBox* framesPlane() const { return framesPlane_; }
    QDoubleSpinBox* framesPosition() const { return framesPos_; }
    /// Switches the project to `dims` (2 or 3) in one undo step (to_3d / to_2d).
    void setDimensions(int dims);
    /// Called when the slice fields change (plane index 0 xy, 1 xz, 2 yz; position um;
    /// whether the plane was changed): returning true takes the change (a running run's
    /// live slice, the main window's setSlice) and the project is left alone; false (or
    /// no handler): the change is an undoable edit of run.frames.
    void setLiveSliceHandler(std::function<bool(int planeIndex, double positionUm, bool planeChanged)> handler) {
        liveSliceHandler_ = std::move(handler);
    }
    /// Shows a slice in the fields without editing the project (the live slice of a run).
    void showSlice(int planeIndex, double positionUm);

Q_SIGNALS:
    /// A sentence for the status bar (what switching normalization on set up).
    void statusMessage(const QString& text);

private:
    void refresh();
    void edit(const QString& text, const std::function<void(Project&)>& f);
    /// A numeric field that takes an expression (issue 53): its undo text, how it sets the
    /// project, its JSON path (found once by setting another value) and its "= value" label.
    struct ExprField {
        class NumberSpinBox* spin;
        QString text;
        std::function<void(Project&, double)> set;
        std::string path;
        QLabel* valueLabel = nullptr;
    };
    const std::string& fieldPath(ExprField& f);
    void enterField(ExprField& f);
    std::vector<ExprField> exprFields_;
    EditorDocument* doc_;
    QComboBox *dims_ = nullptr, *boundZ_ = nullptr, *framesPlane_ = nullptr;
    QComboBox* symmetry_[3] = {nullptr, nullptr, nullptr};  ///< domain.symmetry per axis
    QDoubleSpinBox *sizeZ_ = nullptr, *framesPos_ = nullptr;
    QDoubleSpinBox *sizeX_, *sizeY_, *cell_, *wlMin_, *wlMax_, *decay_, *maxTime_, *courant_;
    QSpinBox *pml_, *points_;
    QComboBox *polarization_, *boundX_, *boundY_, *backend_, *precision_, *incident_, *metal_ = nullptr;
    QListWidget* referenceLayers_;
    QCheckBox *normalization_, *subpixel_;
    QLabel* resolution_;
    QLabel* warnings_ = nullptr;
    std::function<bool(int, double, bool)> liveSliceHandler_;
    bool updating_ = false;
};

}  // namespace golightly::editor
