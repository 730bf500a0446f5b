// GoLightly plots: the Monitors dock. Spectra of flux monitors (normalized once the
// reference run is done, raw before), time series of time monitors, and the energy decay,
// each a QCustomPlot with pan/zoom, legend, a linked cursor readout and PNG/PDF/CSV export.
#pragma once

#include <QDockWidget>
#include <QString>

#include <memory>

#include "golightly/run.hpp"

class QCustomPlot;
class QLabel;
class QTabWidget;
class QTableWidget;
class QTimer;
class QCPItemStraightLine;
class QCPGraph;

class QComboBox;

namespace golightly::plots {

class FarFieldView;

class MonitorsDock : public QDockWidget {
    Q_OBJECT
public:
    explicit MonitorsDock(QWidget* parent = nullptr);

    /// Forgets everything (a new run starts): "Running...".
    void clear();
    /// Forgets everything and shows `summary` (default "No run yet."): another project was
    /// opened or created, or a run could not start.
    void reset(const QString& summary = QString());
    /// Shows (or hides) the offer to normalize the spectra (raw fluxes of a project with
    /// transmission / reflection monitors and normalization off).
    void setNormalizationOffer(bool show);
    bool normalizationOffered() const;
    /// Live monitor values of a running phase (replaces the curves).
    void setLive(const LiveMonitors& live);
    /// One energy sample: `db` below the peak (>= 0) at `timeFs` of `phase`.
    void addEnergyPoint(const QString& phase, double timeFs, double db);
    /// The final values of a run.
    void setFinal(const RunResult& result);
    /// Marks the spectra as not comparable (live edit during a run).
    void setSpectraComparable(bool comparable);
    /// Reads a results folder (spectra.csv, monitors/*.csv, summary.json). False (and
    /// `error`) when spectra.csv and summary.json are both missing or unreadable.
    bool loadResults(const QString& dir, QString* error = nullptr);
    /// Shows the tabs of the pages `project`'s monitors fill and hides the others, so that
    /// the tab bar fits the dock beside the 3D view: Spectra and Energy always; Time with a
    /// time monitor; Cross-sections with a flux box; Resonances with a time monitor with
    /// `resonances`; Far field with a flux box with `far_field`; Diffraction with a
    /// diffraction monitor; Mode amplitudes with a mode monitor. A page that holds results (a results
    /// folder read, a run of an older version of the project) shows too. Until the first
    /// call every tab shows.
    void showPagesFor(const Project& project);
    /// Whether `page` (a widget of tabs()) has its tab in the tab bar.
    bool pageShown(const QWidget* page) const;

Q_SIGNALS:
    /// "Normalize" was clicked in the offer.
    void normalizationRequested();
    /// A resonance row was double-clicked (or Enter pressed on it): make the field picture
    /// of that mode (a second short run with a narrow-band source, ResonancePictureRun).
    void resonancePictureRequested(double frequencyHz, double q, const QString& monitor);

public:
    QCustomPlot* spectraPlot() const { return spectra_; }
    QCustomPlot* timePlot() const { return time_; }
    QCustomPlot* energyPlot() const { return energy_; }
    /// Cross-sections of flux_box monitors (absorption, scattering, net flux: sigma(lambda)
    /// in um^2 in 3D, um in 2D), live during a TF/SF run or a normalized run (issue 16).
    QCustomPlot* crossSectionPlot() const { return cross_; }
    /// 2 or 3: the unit of the cross-section axis (um or um^2). Default 3.
    void setDimensions(int dims);
    QTabWidget* tabs() const { return tabs_; }
    /// Resonances of time monitors with `resonances` (one row each: monitor, wavelength,
    /// frequency, Q, amplitude, error); a selected row marks its wavelength on the spectra.
    QTableWidget* resonanceTable() const { return resonances_; }
    /// Asks for the field picture of resonance row `row` (resonancePictureRequested); false
    /// for a row that is not there.
    bool requestResonancePicture(int row);
    /// Far fields of flux boxes with `far_field` as cartesian curves: directivity against
    /// angle (2D: phi; 3D: theta in the phi = 0 and phi = 90 degree planes), one curve per
    /// wavelength and cut. The far-field page (farFieldView) also has a polar plot (2D) and a
    /// theta-phi map (3D).
    QCustomPlot* farFieldPlot() const { return farField_; }
    FarFieldView* farFieldView() const { return farView_; }
    /// The plot of the current tab (the far-field page: the view it shows); null for a page
    /// without one.
    QCustomPlot* currentPlot() const;
    /// Diffraction monitors: the power fraction of each propagating Floquet order as bars
    /// (one set per monitor) at the wavelength chosen beside the plot.
    QCustomPlot* diffractionPlot() const { return diffraction_; }
    /// Mode monitors: the power in each listed mode going forward (|a+|^2, solid) and
    /// backward (|a-|^2, dashed) against the wavelength, one colour per monitor and mode,
    /// live during a run (LiveMonitors::mode_coefficients) and final; in units of the
    /// incident power once normalized (as spectra.csv's columns), raw before.
    QCustomPlot* modeAmplitudePlot() const { return modes_; }
    QComboBox* diffractionWavelength() const { return diffractionWl_; }
    /// Points over all curves of a plot.
    static int pointCount(const QCustomPlot* plot);
    /// A run's stop reason as summary.json names it ("decay", "max_time", "max_steps",
    /// "diverged", "cancelled", "resonances") in words of the interface's language.
    static QString stopReasonText(const QString& reason);
    /// The summary line shown above the plots (stop reason, steps, Mcells/s).
    QString summaryText() const;
    /// Puts `prefix` in front of the summary line (e.g. "Saved results of x.glproj (date). ").
    void setSummaryPrefix(const QString& prefix);

    /// Exports the plot of the current tab: .png, .pdf or .csv by the file's suffix.
    bool exportCurrent(const QString& path);
    static bool exportPlot(QCustomPlot* plot, const QString& path);

protected:
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    QCustomPlot* makePlot(const QString& xLabel, const QString& yLabel);
    void setSpectra(const std::vector<double>& frequencyHz, const std::vector<FluxSpectrumResult>& spectra,
                    bool normalized);
    void setTimeSeries(const std::vector<TimeSeriesResult>& series);
    /// One row per resonance (table cleared first).
    struct ResonanceRow {
        QString monitor;
        double wavelengthUm, frequencyThz, q, amplitude, error;
    };
    void setResonances(const std::vector<ResonanceRow>& rows);
    void setFarFields(const std::vector<FarFieldResult>& fields);
    void setDiffraction(const std::vector<DiffractionResult>& results);
    void setModeAmplitudes(const std::vector<double>& frequencyHz, const std::vector<ModeCoefficientsResult>& modes,
                           bool normalized);
    /// Curves of mode monitor `monitor`'s mode `mode` (created on first use, legend names
    /// the monitor and the mode).
    QCPGraph* modeGraph(const QString& monitor, int mode, bool backward);
    void showDiffraction(int spectrumPoint);
    void markResonance();
    void exportDialog();
    void updateCursor(QCustomPlot* plot, double x);
    /// Schedules a rescale and replot (at most every 150 ms, visible plots only).
    void markDirty(QCustomPlot* plot);
    void replotDirty();
    /// Shows each optional page's tab when the project fills it or it holds results
    /// (showPagesFor); the current page stays or becomes Spectra.
    void updatePages();
    /// Pages 1 (Time) and 3 .. 7 of tabs_ (by index): filled by the project's monitors.
    bool projectPages_[8] = {true, true, true, true, true, true, true, true};

    QTabWidget* tabs_;
    QCustomPlot *spectra_, *time_, *energy_, *cross_ = nullptr;
    QTableWidget* resonances_ = nullptr;
    QCustomPlot* farField_ = nullptr;
    FarFieldView* farView_ = nullptr;
    QCustomPlot* diffraction_ = nullptr;
    QComboBox* diffractionWl_ = nullptr;
    QCustomPlot* modes_ = nullptr;
    bool modesNormalized_ = false;
    std::vector<DiffractionResult> diffractionData_;
    QCPItemStraightLine* resonanceMark_ = nullptr;
    int dims_ = 3;
    QLabel* summary_;
    QWidget* offer_ = nullptr;
    QLabel* readout_;
    QTimer* replotTimer_;
    /// spectra, time, energy, cross-sections, far field, mode amplitudes
    bool dirty_[6] = {false, false, false, false, false, false};
    bool comparable_ = true;
    bool normalizedShown_ = false;
};

}  // namespace golightly::plots
