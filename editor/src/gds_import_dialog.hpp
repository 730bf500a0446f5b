// GoLightly editor: GDSII import and export (issue 22, IDE half). File > Import GDS opens
// GdsImportDialog: the file is read (gds::read), its cells are listed (top cells first),
// the chosen cell's layer/datatype pairs fill a table (element count after flattening, the
// target: a new layer or an existing one, by default the existing layer whose `gds_layer`
// is that pair; for a new layer a name, from a layer map (.lyp / YAML) when one is loaded,
// a material and, in 3D, a z range), a preview draws the flattened polygons of the ticked
// layers, and Import adds one `gds` shape embedding the file per ticked GDS layer: into
// its existing target layer (which keeps its z range, sidewall and material; a `gds`
// shape of that file and pair it already holds is replaced) or into a new layer with
// `gds_layer` set: ONE undo step. The dialog shows the file's database unit and lets it be
// overridden (a file written with a wrong UNITS record: the shapes get `db_unit_um`), and
// places the cell: centred in the domain, or at an offset (um; 0, 0 keeps the file's
// coordinates). The default is the offset 0, 0 when the cell's bounding box lies inside the
// domain (a layout drawn for it, or a GoLightly export coming back, lands where it was),
// else centred. An import that would make the project larger than GoLightly opens is
// refused with the message of save_size_problem (project.hpp). File > Export GDS
// (export_gds_document) first asks for the GDS layer of each exported layer that has none
// (gds_layers_without_number), sets it on the layer (one undo step, so that a re-import of
// the file fills the same layers), then writes through export_gds (gds.hpp) as
// `golightly-cli export-gds` does.
#pragma once

#include <QDialog>
#include <QString>

#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "editor_document.hpp"
#include "golightly/gds.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QTableWidget;

namespace golightly::editor {

class GdsImportDialog : public QDialog {
    Q_OBJECT
public:
    enum Column { ColLayer, ColElements, ColTarget, ColName, ColMaterial, ColZ, ColCount };
    GdsImportDialog(EditorDocument* doc, Prompts* prompts, QWidget* parent = nullptr);
    ~GdsImportDialog() override;

    /// Reads `path`; false (message to the prompts, naming the file) when it is not a
    /// readable GDSII stream.
    bool loadFile(const QString& path);
    bool isLoaded() const { return lib_ != nullptr; }
    QString filePath() const { return path_; }

    /// Reads a layer map (KLayout .lyp or gdsfactory YAML) and names the table's layers
    /// from it; false (message to the prompts) on errors.
    bool loadLayerMap(const QString& path);

    // ---- choices (also the widgets' state, for tests)
    QComboBox* cellCombo() const { return cell_; }
    QTableWidget* layersTable() const { return table_; }
    QString cell() const;
    void setCell(const QString& name);
    /// The table's rows: the cell's [layer, datatype] pairs, sorted.
    std::vector<std::array<int, 2>> layers() const { return layers_; }
    void setLayerIncluded(std::array<int, 2> layer, bool on);
    bool layerIncluded(std::array<int, 2> layer) const;
    void setLayerName(std::array<int, 2> layer, const QString& name);
    QString layerName(std::array<int, 2> layer) const;
    /// An existing material id.
    void setLayerMaterial(std::array<int, 2> layer, const QString& materialId);
    QString layerMaterial(std::array<int, 2> layer) const;
    /// The target of a row: the index of an existing layer of the project, or -1 for a new
    /// layer. Default: the first layer whose gds_layer is the row's pair, else -1.
    void setLayerTarget(std::array<int, 2> layer, int existingLayer);
    int layerTarget(std::array<int, 2> layer) const;
    /// The z range (um, z0 < z1) a new layer gets in a 3D project (the table's z column:
    /// "z0, z1"); nullopt in 2D, for an existing target, or when the text does not parse.
    void setLayerZ(std::array<int, 2> layer, std::array<double, 2> z);
    std::optional<std::array<double, 2>> layerZ(std::array<int, 2> layer) const;
    /// The z range offered to new layers in 3D: that of the last layer with a z range and a
    /// gds_layer, else of the last layer with a z range, else 0.22 um (at most a third of
    /// the domain's height) centred in the domain.
    std::array<double, 2> defaultZ() const;
    /// Polygons (boundaries, boxes and path outlines) the preview draws now.
    int previewPolygons() const;

    /// Where the cell goes: centred in the domain (its bounding box over all its layers, at
    /// the database unit chosen), or moved by offset().
    enum class Placement { Centre, Offset };
    QComboBox* placementCombo() const { return placement_; }
    void setPlacement(Placement p);
    Placement placement() const;
    /// The offset (um) of Placement::Offset.
    void setOffset(Vec2 offset);
    Vec2 offset() const;
    /// The `translate` the imported shapes get: the offset, or what centres the cell.
    Vec2 translate() const;
    /// The bounding box of the chosen cell over all its layers, um at dbUnitUm() ([min, max]).
    std::array<Vec2, 2> cellBounds() const;
    /// The database unit of the file (its UNITS record), and the one the import uses (um;
    /// default the file's; another value is stored in the shapes' `db_unit_um`).
    double fileDbUnitUm() const;
    QDoubleSpinBox* dbUnitSpin() const { return dbUnit_; }
    void setDbUnitUm(double um);
    double dbUnitUm() const;

    /// Adds a `gds` shape per ticked GDS layer to its target (existing or new layer): ONE
    /// undo step; false (message to the prompts, project unchanged) when nothing is loaded
    /// or ticked, a new layer's name or material is empty, or its z range does not parse.
    bool importIntoDocument();

public Q_SLOTS:
    void accept() override;

private:
    int rowOf(std::array<int, 2> layer) const;
    void updateRowTarget(int row);
    void fillLayers();
    void updatePreview();
    void updatePlacement();
    /// dbUnitUm() / fileDbUnitUm(): what the file's coordinates are scaled by.
    double unitScale() const;
    EditorDocument* doc_;
    Prompts* prompts_;
    QString path_;
    std::string dataBase64_;
    std::shared_ptr<const gds::Library> lib_;
    std::vector<std::array<int, 2>> layers_;
    std::vector<gds::LayerName> names_;
    QComboBox* cell_;
    QComboBox* placement_;
    QDoubleSpinBox* offsetX_;
    QDoubleSpinBox* offsetY_;
    QDoubleSpinBox* dbUnit_;  ///< nm
    QLabel* placeLabel_;
    std::array<Vec2, 2> bounds_{};  ///< the cell's bounding box at the file's unit, um
    bool hasBounds_ = false;
    QTableWidget* table_;
    QLabel* fileLabel_;
    class GdsPreview* preview_;
};

/// Writes the project as a GDSII file (export_gds, cell `cell`); errors and warnings go to
/// the prompts (a warning is reported through error() titled "Export GDS" only when the
/// file was not written). Returns true when the file was written.
bool export_gds_file(const Project& project, const QString& path, const QString& cell, Prompts& prompts,
                     QStringList* warnings = nullptr);

/// "3/0", "3, 0", "3 0" or "3" (datatype 0) as [layer, datatype], each 0..65535; nullopt otherwise.
std::optional<std::array<int, 2>> parse_gds_layer(const QString& text);

/// Asks (Prompts::askText, one question per layer, proposing the lowest layer number no
/// layer uses, datatype 0) for the GDS layer of each layer that export_gds would write
/// but that has no gds_layer, and sets them: ONE undo step. True when nothing was missing
/// or all were given; false (document unchanged) when a question is cancelled or an
/// answer does not parse (a message through error()).
bool assign_missing_gds_layers(EditorDocument& doc, Prompts& prompts);

/// File > Export GDS: assign_missing_gds_layers, then export_gds_file.
bool export_gds_document(EditorDocument& doc, const QString& path, const QString& cell, Prompts& prompts,
                         QStringList* warnings = nullptr);

}  // namespace golightly::editor
