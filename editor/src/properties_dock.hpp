// GoLightly editor: the Properties dock. Every change made in it is one undoable
// EditorDocument edit; it rebuilds itself from the document's signals. Implemented in
// properties_dock.cpp and one builder file per item kind (properties_*.cpp).
#pragma once

#include <QDockWidget>

#include <functional>

#include "editor_document.hpp"

class QDoubleSpinBox;
class QFormLayout;
class QWidget;

namespace golightly::editor {

struct PortData;  // ports.hpp

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
    /// The design region's fixed boxes (design.regions[0].fixed): a count, and per box its
    /// kind, a Delete button and its corners (properties_design.cpp).
    void designFixedRows(const Project& p);

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

}  // namespace golightly::editor
