// GoLightly editor: the Parameters dock (issue 53). A table of the project's parameters:
// name, expression or number, evaluated value and where it is used (fields bound to
// expressions that name it, other parameters, and the design's shape parameters that name
// it: "design: shape parameter [min, max]"). Add, rename, edit and delete are one
// undo step each; renaming rewrites the expressions that use the parameter (and the
// design's shape parameters that name it), deleting one
// that is used asks first and puts its value in its place in those expressions (a shape
// parameter naming it is removed with it: the design no longer optimizes it). Every
// change re-evaluates the project through the solver's reader (with_parameter_list in
// expressions.hpp), so a change that would make the project invalid is refused with the
// reader's message and nothing is applied.
#pragma once

#include <QDockWidget>

#include <functional>
#include <vector>

#include "golightly/project.hpp"

class QLabel;
class QPushButton;
class QTableWidget;

namespace golightly::editor {

class EditorDocument;
class Prompts;

class ParametersDock : public QDockWidget {
    Q_OBJECT
public:
    enum Column { ColName, ColExpression, ColValue, ColUses, ColCount };
    ParametersDock(EditorDocument* doc, Prompts* prompts, QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }
    /// The list of the selected parameter's uses below the table.
    QLabel* usesLabel() const { return uses_; }

    // Each returns the problem (shown in the dock, nothing applied), or empty on success
    // (one undo step).
    QString addParameter(const QString& name, const QString& text);
    QString renameParameter(const QString& from, const QString& to);
    QString setParameterText(const QString& name, const QString& text);
    /// Deleting a used parameter asks (Prompts::askProceed); cancelled: "cancelled".
    QString deleteParameter(const QString& name);
    /// The message shown under the table (the last problem, or empty).
    QString message() const;

private:
    void refresh();
    void cellEdited(int row, int column);
    void showUses();
    /// One undo step: the project with these parameters and expressions, then `also` (e.g.
    /// the design's shape parameters renamed with their parameter).
    QString apply(const std::vector<Parameter>& parameters, const std::vector<FieldExpression>& expressions,
                  const QString& undoText, const std::function<void(Project&)>& also = {});
    void showMessage(const QString& problem);
    EditorDocument* doc_;
    Prompts* prompts_;
    QTableWidget* table_ = nullptr;
    QLabel* uses_ = nullptr;
    QLabel* message_ = nullptr;
    QPushButton* delete_ = nullptr;
    bool updating_ = false;
};

}  // namespace golightly::editor
