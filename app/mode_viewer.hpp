// GoLightly IDE: the Port Modes dock (issue 21): pick a port of the project's `ports` and a
// wavelength, and see the port's modes before any run.
//  - 3D projects: the port plane's cross-section (sample_cross_section, mode_plane.hpp,
//    the FDTD's sub-pixel averaged permittivity, the port's mode_boundary) solved by the
//    full-vector mode solver with the port's own selection (target_neff, filter, bend:
//    the modes listed are the ones its `modes` indices count), through the mode cache
//    (cached_solve_modes_2d, mode_cache.hpp: the same solves as `golightly-cli modes` and
//    the runs of this session share): complex n_eff (Re, Im), loss in dB/cm (dB/90 deg on
//    a bend), n_group, TE fraction (|E_u|^2 share, u the first in-plane axis) per mode,
//    and a colour map of |E| or one component (|E_u|, |E_v|, |E_w|) or of the
//    permittivity over the cross-section.
//  - 2D projects: the port line's 1D slab modes as the `mode` line source and the
//    S-parameter runs compute them (compile_project with a mode monitor on the line, the
//    plan's line_neff / line_e / line_h at the Yee scheme's numerical k0): n_eff, n_group
//    = n_eff - lambda d n_eff / d lambda (central difference over lambda * (1 +- 1e-3)),
//    and the profile of the tangential E and H~ along the line.
// The solve runs on a worker thread, never the GUI thread. A window beyond the mode
// solver's limits (check_mode_solve_limits) is refused with the port and the size named.
// The mode shown is picked for the port by double-clicking its picture (or "Use for the
// port"): the port's `modes` becomes [m], or (3D, "by target n_eff") its `target_neff`
// becomes the mode's n_eff and `modes` [0]: one undo step.
#pragma once

#include <QDockWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "background_job.hpp"
#include "editor_document.hpp"

class QComboBox;
class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSettings;
class QSpinBox;
class QTableWidget;

namespace golightly::app {

/// The modes of one port at one wavelength, as the viewer shows them.
struct PortModes {
    int dimensions = 2;
    double wavelength_um = 0;
    struct Mode {
        double n_eff = 0;      ///< 0: no such guided mode
        double n_eff_imag = 0;  ///< Im n_eff (loss; 0 for lossless modes and 2D lines)
        double loss_db_per_cm = 0;
        double loss_db_per_90deg = 0;  ///< bent ports only
        /// bent 3D ports: false where the window's outer PML begins before the radiation
        /// caustic (VectorMode::bend_loss_resolved): the loss is not the bend's
        bool bend_loss_resolved = true;
        double outer_window_um = 0;  ///< bent 3D ports: from the guide to the outer PML
        double n_group = 0;    ///< 0: unknown
        double te_fraction = -1;  ///< 3D only (< 0 in 2D)
    };
    std::vector<Mode> modes;
    int port = -1;       ///< the port's index in parse_ports' list
    std::string portName;
    bool bent = false;   ///< the port has a bend_radius
    // 2D: profiles along the line, s_um = the nodes' coordinate along the line's axis
    // (uName), um
    std::vector<double> s_um;
    std::vector<std::vector<double>> e, h;  ///< [mode][node]
    QString eName, hName;                   ///< e.g. "Ez", "Hz"
    // 3D: |component| maps on the window's cells (nu x nv, u fastest); comp 0..2 = u, v, w;
    // 3 = |E|; eps: the permittivity (E_w nodes)
    int nu = 0, nv = 0;
    double u0_um = 0, v0_um = 0, dx_um = 0;
    QString uName, vName;                   ///< axis names ("x", "y", "z")
    std::vector<std::array<std::vector<double>, 4>> maps;  ///< [mode][comp][j * nu + i]
    std::vector<double> eps;                 ///< [j * nu + i]
};

/// Solves the modes of port `portIndex` of `project` (parse_ports) at `wavelengthUm`.
/// Throws ProjectError / std::runtime_error / std::invalid_argument as the solver does.
PortModes solve_port_modes(const Project& project, const std::string& fileLabel, int portIndex, double wavelengthUm,
                           int numModes);

/// The IDE's mode cache: as golightly-cli, memory and disk from the environment
/// (mode_cache_settings_from_environment: GOLIGHTLY_MODE_CACHE, _DIR, _MB, _DISK_MB), so
/// that the Port Modes dock, the IDE's runs and the command line share solves. Called once
/// at start (main.cpp).
void configure_mode_cache();

/// `project` with port `portName`'s mode selection set to mode `mode` of the dock's list:
/// its `modes` [mode], or with `byTarget` its `target_neff` = targetNeff and `modes` [0].
/// False (project unchanged) when there is no such port.
bool select_port_mode(Project& project, const std::string& portName, int mode, bool byTarget, double targetNeff);

class ModeViewerDock : public QDockWidget {
    Q_OBJECT
public:
    explicit ModeViewerDock(editor::EditorDocument* doc, QWidget* parent = nullptr);
    ~ModeViewerDock() override;

    /// Starts solving the current port's modes (off the GUI thread). False when a solve is
    /// going or the project has no ports.
    bool solve();
    bool isSolving() const { return job_.isRunning(); }
    bool waitForFinished(int ms);
    void setPort(int index);
    void setWavelength(double um);
    void setModeCount(int n);
    /// What the picture shows (3D): 0 = |E|, 1 = |E_u|, 2 = |E_v|, 3 = |E_w|, 4 = permittivity.
    void setComponent(int k);
    void setMode(int m);
    /// Makes the mode shown (setMode) the port's mode, in one undo step: by index, or by
    /// target n_eff (3D). False when nothing is shown, the modes are stale or the port is gone.
    bool useShownMode(bool byTarget);
    /// Whether "Use for the port" (and a double-click on the picture) picks by target n_eff.
    void setPickByTarget(bool byTarget);

    std::shared_ptr<const PortModes> result() const { return result_; }
    QTableWidget* table() const { return table_; }
    QCustomPlot* plot() const { return plot_; }
    QCPColorMap* colorMap() const { return map_; }
    QString statusText() const;
    /// Where the dock remembers the mode count and the picture (group "modes/").
    void setSettingsStore(std::function<std::unique_ptr<QSettings>()> store);
    /// Another project (Open, New, recovery): the modes shown belong to the previous one
    /// and go; a solve still going is discarded when it ends.
    void projectReplaced();
    /// The modes shown were solved for another version of the project (an edit since).
    bool isStale() const;

Q_SIGNALS:
    void solved(bool ok, const QString& message);

private:
    void rebuildPorts();
    void solveFinished(editor::JobOutcome<std::shared_ptr<const PortModes>>& outcome);
    void showResult();
    void showPicture();
    std::function<std::unique_ptr<QSettings>()> settings_;
    editor::EditorDocument* doc_;
    std::shared_ptr<const PortModes> result_;
    /// The project the shown modes were solved for, and the one being solved.
    std::shared_ptr<const Project> solvedFrom_, solving_;
    QString resultText_;           ///< what the status says of the shown modes
    bool discardRunning_ = false;  ///< the solve going belongs to a replaced project
    int mode_ = 0;
    QComboBox* port_;
    QDoubleSpinBox* wavelength_;
    QSpinBox* count_;
    QPushButton* solveButton_;
    QPushButton* useButton_;
    QComboBox* pickBy_;
    QComboBox* component_;
    QLabel* status_;
    QTableWidget* table_;
    QCustomPlot* plot_;
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    editor::BackgroundJob<std::shared_ptr<const PortModes>> job_{50};  ///< last: cancelled and joined first
};

}  // namespace golightly::app
