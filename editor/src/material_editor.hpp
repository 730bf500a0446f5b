// GoLightly editor: the material editor (eps_inf, conductivity, dispersion poles with a
// selectable frequency unit, live plot of eps or n,k against wavelength), the material
// plot shared with the pole-fit dialog, and the library picker.
//
// Values are stored in the project in rad/s (project-format.md); the unit selector only
// changes what the table shows. Every edit is one undo step on the document's stack.
#pragma once

#include <QDialog>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "golightly/material_library.hpp"
#include "golightly/pole_fit.hpp"
#include "golightly/project.hpp"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace golightly::editor {

class EditorDocument;
class Prompts;

/// Display units of pole frequencies.
enum class FrequencyUnit { RadPerSecond, ElectronVolt, Terahertz };

/// rad/s per eV: e / hbar (CODATA 2018) = 1.5192674488e15 (hbar omega = 1 eV).
inline constexpr double kRadPerSecondPerElectronVolt = 1.602176634e-19 / 1.054571817e-34;

/// omega (rad/s) in `unit`: eV = hbar omega / e, THz = omega / (2 pi 1e12).
double frequency_to_unit(double omega_rad_s, FrequencyUnit unit);
/// The inverse of frequency_to_unit: a value in `unit` to rad/s.
double frequency_from_unit(double value, FrequencyUnit unit);
/// "rad/s", "eV", "THz".
QString frequency_unit_name(FrequencyUnit unit);

/// The wavelength band (um) the material plot spans: the run spectrum of the project
/// widened to its sources' Gaussian pulse bands (center +- span); 0.4-1.6 um when that is
/// empty or invalid.
std::pair<double, double> material_plot_band_um(const Project& project);

/// What the material plot shows.
enum class MaterialPlotMode { Epsilon, RefractiveIndex };

/// Fills `plot` with the model's Re/Im eps (or n/k) over [lo, hi] um (graphs 0 and 1,
/// `points` samples) and, when `data` is non-empty, the measured values as markers
/// (graphs 2 and 3). Wavelength axis in um.
void plot_material(QCustomPlot* plot, double epsilon_inf, double sigma_s_per_m, const std::vector<Pole>& poles,
                   double lo_um, double hi_um, MaterialPlotMode mode, const std::vector<OpticalSample>& data = {},
                   int points = 200);

/// Edits one material of the document (by index). Non-modal; follows undo/redo.
class MaterialEditorDialog : public QDialog {
    Q_OBJECT
public:
    enum PoleColumn { ColKind, ColOmegaP, ColOmega0, ColGamma, ColCount };
    MaterialEditorDialog(EditorDocument* doc, Prompts* prompts, int materialIndex, QWidget* parent = nullptr);

    int materialIndex() const { return index_; }
    /// The edited material (nullptr when it no longer exists, e.g. after undoing its addition).
    const Material* material() const;

    FrequencyUnit unit() const { return unit_; }
    void setUnit(FrequencyUnit unit);
    MaterialPlotMode plotMode() const { return mode_; }
    void setPlotMode(MaterialPlotMode mode);

    // widgets, for tests
    QLineEdit* idEdit() const { return id_; }
    QLineEdit* nameEdit() const { return name_; }
    QLineEdit* epsInfEdit() const { return epsInf_; }
    QLineEdit* sigmaEdit() const { return sigma_; }
    QTableWidget* polesTable() const { return poles_; }
    QComboBox* unitCombo() const { return unitCombo_; }
    QCustomPlot* plot() const { return plot_; }

    void addPole();
    void removeSelectedPole();
    /// Opens the pole-fit dialog; "Apply" there replaces eps_inf and the poles (one step).
    void openFitDialog();
    /// Applies a fit: eps_inf and the poles (conductivity set to 0), one undo step.
    void applyFit(const PoleFitResult& fit);
    /// Writes the material to the personal library; reports errors through the prompts.
    bool saveToPersonalLibrary();

private:
    void refresh();
    void refreshPlot();
    void commitField(QLineEdit* edit);
    void poleEdited(int row, int column);
    /// Keeps index_ on the same material when others are added or removed (by id), and
    /// follows renames (the id at index_ changes, nothing else has the old id).
    void trackMaterial();
    EditorDocument* doc_;
    Prompts* prompts_;
    int index_;
    std::string trackedId_;
    FrequencyUnit unit_ = FrequencyUnit::RadPerSecond;
    MaterialPlotMode mode_ = MaterialPlotMode::Epsilon;
    QLineEdit *id_, *name_, *epsInf_, *sigma_;
    QComboBox *unitCombo_, *modeCombo_;
    QTableWidget* poles_;
    QCustomPlot* plot_;
    QLabel* bandLabel_;
    QWidget* content_;  ///< everything but the Close button: disabled when the material is gone
    bool updating_ = false;
};

/// Picks a material of the bundled and personal libraries (material_library()).
class MaterialLibraryDialog : public QDialog {
    Q_OBJECT
public:
    explicit MaterialLibraryDialog(QWidget* parent = nullptr);
    QListWidget* list() const { return list_; }
    /// The selected library material, if any.
    std::optional<LibraryMaterial> selected() const;
    /// The loading error ("" when the library loaded).
    QString error() const { return error_; }

private:
    std::vector<LibraryMaterial> materials_;
    QListWidget* list_;
    QLabel* source_;
    QString error_;
};

/// Adds a library material to the project under an unused id (the library id, or id_2,
/// id_3 ...): one undo step. Returns the new material's index.
int add_library_material(EditorDocument* doc, const Material& material);

}  // namespace golightly::editor
