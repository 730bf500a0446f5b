// GoLightly editor: the document being edited (a golightly::Project), its undo stack,
// file path, modified state and the editor selection.
//
// Every edit goes through a QUndoCommand that stores the before and after state of what it
// changes (one layer, or the whole project for structural edits), so undo/redo gives back
// a Project that compares equal (Project::operator==) to the one before the edit.
#pragma once

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <cstdint>
#include <functional>
#include <optional>

#include "golightly/project.hpp"

namespace golightly::editor {

struct PortData;  // ports.hpp

/// A reference to one editable item of the project.
struct ItemRef {
    /// Port: project.extra["ports"][index] (ports.hpp); Design: the design region,
    /// project.extra["design"]["regions"][0] (design_region.hpp)
    enum class Kind { None, Shape, Source, Monitor, Port, Design };
    Kind kind = Kind::None;
    int layer = -1;  ///< shapes only
    int index = -1;  ///< shape index in the layer, or source / monitor index
    bool valid() const { return kind != Kind::None; }
    bool operator==(const ItemRef&) const = default;
};

/// The user-facing questions and messages of file handling, behind an interface so that
/// tests can answer them without modal dialogs (MessageBoxPrompts is the real one).
class Prompts {
public:
    enum class SaveChoice { Save, Discard, Cancel };
    virtual ~Prompts() = default;
    virtual void error(const QString& title, const QString& text) = 0;
    virtual SaveChoice askSaveChanges(const QString& documentName) = 0;
    virtual bool askRecover(const QString& text) = 0;
    /// Asks for a line of text (e.g. the name of a material); nullopt when cancelled.
    /// Default: `proposal` unchanged.
    virtual std::optional<QString> askText(const QString& title, const QString& label, const QString& proposal) {
        Q_UNUSED(title);
        Q_UNUSED(label);
        return proposal;
    }
    /// Asks whether to go ahead with `action` (e.g. "Replace uses"), or cancel. Default: yes.
    virtual bool askProceed(const QString& title, const QString& text, const QString& action) {
        Q_UNUSED(title);
        Q_UNUSED(text);
        Q_UNUSED(action);
        return true;
    }
};

/// Prompts through QMessageBox, parented to `parent`.
class MessageBoxPrompts : public Prompts {
public:
    explicit MessageBoxPrompts(class QWidget* parent) : parent_(parent) {}
    void error(const QString& title, const QString& text) override;
    SaveChoice askSaveChanges(const QString& documentName) override;
    bool askRecover(const QString& text) override;
    std::optional<QString> askText(const QString& title, const QString& label, const QString& proposal) override;
    bool askProceed(const QString& title, const QString& text, const QString& action) override;

private:
    QWidget* parent_;
};

/// The starting project of File > New: a 10 x 8 um domain, 20 nm cells, silicon and
/// silica materials and one empty layer.
Project default_project();

class EditorDocument : public QObject {
    Q_OBJECT
public:
    explicit EditorDocument(QObject* parent = nullptr);

    const Project& project() const { return project_; }
    QUndoStack* undoStack() { return &undo_; }

    QString filePath() const { return filePath_; }
    bool isModified() const { return !undo_.isClean(); }
    /// File name without folder, or "Untitled".
    QString displayName() const;

    // ---- edits: each call pushes exactly one undo step
    /// Replaces the whole project (structural edits: layers, materials, run setup...).
    /// `mergeable`: consecutive mergeable edits with the same text (e.g. holding a spin
    /// box arrow) become one undo step.
    void replaceProject(const Project& after, const QString& text, bool mergeable = false);
    /// As replaceProject, merged with the undo step on top when that step was made by this
    /// call with the same `session` and `text` (e.g. the parameter values an optimization
    /// sets at each iteration: its whole session one undo step, unless another edit came
    /// in between). Sessions are told apart by their keys, so two in a row stay two steps.
    void replaceProjectInSession(const Project& after, const QString& text, std::uint64_t session);
    /// Replaces one layer (shape edits, brush strokes).
    void replaceLayer(int layer, const Layer& after, const QString& text);
    /// Applies `edit` to a copy of the project and pushes the result (nothing if unchanged).
    void editProject(const QString& text, const std::function<void(Project&)>& edit, bool mergeable = false);
    /// Applies `edit` to a copy of one layer and pushes the result (nothing if unchanged).
    void editLayer(int layer, const QString& text, const std::function<void(Layer&)>& edit);

    /// Adds a shape to a layer and selects it. `expressions`: the item's field expressions,
    /// paths relative to the item (item_expressions of a copy, expressions.hpp); those
    /// whose field holds another value (a pasted copy's moved position) are left out.
    void addShape(int layer, const Shape& shape, const QString& text, const std::vector<FieldExpression>& expressions = {});
    void addSource(const Source& source, const std::vector<FieldExpression>& expressions = {});
    void addMonitor(const Monitor& monitor, const std::vector<FieldExpression>& expressions = {});
    /// Adds a port (ports.hpp; top-level `ports`) and selects it.
    void addPort(const PortData& port, const std::vector<FieldExpression>& expressions = {});
    /// Removes the item (one undo step); clears the selection.
    void removeItem(const ItemRef& item);
    /// Copies the item, shifted by (dx, dy) um; selects the copy.
    void duplicateItem(const ItemRef& item, double dx_um, double dy_um);
    /// Moves the item by (dx, dy) um.
    void translateItem(const ItemRef& item, double dx_um, double dy_um);

    /// A name not yet used by a source, monitor or port: prefix + number.
    QString uniqueItemName(const QString& prefix) const;

    // ---- file handling
    /// Starts a new default project (clears undo history and the path).
    void newProject();
    /// Opens `path`. On any error shows it through `prompts` and returns false, leaving the
    /// document (and the file) untouched; the broken file is never adopted as save target.
    bool open(const QString& path, Prompts& prompts);
    /// Saves to the current path (false when there is none). Atomic (save_project).
    bool save(Prompts& prompts);
    /// Saves to `path` and adopts it as the current path.
    bool saveAs(const QString& path, Prompts& prompts);
    /// Replaces the content with a recovered project: undoable, modified, keeps `path`.
    void adoptRecovered(const Project& recovered, const QString& originalPath);

    // ---- selection and current layer (view state, not undoable)
    ItemRef selection() const { return selection_; }
    void setSelection(const ItemRef& item);
    int currentLayer() const { return currentLayer_; }
    void setCurrentLayer(int layer);

    /// Runs `edit` (calls of the edit functions above) without pushing anything: returns
    /// the project and undo text of the last edit it made, or nullopt when it made none.
    /// The Properties dock uses it to find the field an entry sets (expressions.hpp).
    std::optional<std::pair<Project, QString>> captureEdit(const std::function<void()>& edit);

    /// Internal: sets the project without an undo step (used by the undo commands).
    void setProjectInternal(const Project& project);
    void setLayerInternal(int layer, const Layer& value);

Q_SIGNALS:
    void changed();
    void selectionChanged();
    void currentLayerChanged(int layer);
    void filePathChanged(const QString& path);
    void modifiedChanged(bool modified);

private:
    void fixSelection();
    Project project_;
    std::optional<std::pair<Project, QString>>* capture_ = nullptr;
    QUndoStack undo_;
    QString filePath_;
    ItemRef selection_;
    int currentLayer_ = 0;
};

/// Shifts every coordinate of a shape by (dx, dy) um.
void translate_shape(Shape& shape, double dx_um, double dy_um);
void translate_source(Source& source, double dx_um, double dy_um);
/// Scales a vector shape about `anchor` by (sx, sy): rectangle corners, polygon and path
/// points, ellipse centre and radii, ring centre and radii (by sqrt|sx sy|). Path widths,
/// rotations and raster / step shapes stay as they are.
void scale_shape(Shape& shape, Vec2 anchor, double sx, double sy);
/// Rotates a vector shape by `degrees` (CCW) about `center`: rotation_deg of rectangles and
/// ellipses (about their own centre, which is moved), points of polygons and paths; a step
/// shape's rotate_deg[2] (about z) and translate (x, y turned about `center`).
void rotate_shape(Shape& shape, Vec2 center, double degrees);
void translate_monitor(Monitor& monitor, double dx_um, double dy_um);

}  // namespace golightly::editor
