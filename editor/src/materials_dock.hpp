// GoLightly editor: the Materials dock. Every change made in it is one undoable
// EditorDocument edit; it refreshes itself from the document's signals.
#pragma once

#include <QDockWidget>

#include "editor_document.hpp"

class QTableWidget;
class QLabel;

namespace golightly::editor {

class MaterialEditorDialog;

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

}  // namespace golightly::editor
