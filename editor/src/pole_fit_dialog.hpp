// GoLightly editor: "Fit to data..." of the material editor. Imports a refractiveindex.info
// CSV (wavelength um, n, k), fits a passive pole model (pole_fit.hpp) off the GUI thread,
// shows the data and the fit together with the RMS error; Apply hands the result back.
#pragma once

#include <QDialog>
#include <QFutureWatcher>

#include <optional>
#include <string>

#include "golightly/pole_fit.hpp"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace golightly::editor {

/// What the worker thread hands back: a fit, or the error message.
struct PoleFitOutcome {
    std::optional<PoleFitResult> fit;
    std::string error;
};

class PoleFitDialog : public QDialog {
    Q_OBJECT
public:
    /// `lo_um`, `hi_um`: the initial fit band (the data's range is used when it is narrower).
    PoleFitDialog(double lo_um, double hi_um, QWidget* parent = nullptr);
    ~PoleFitDialog() override;

    /// Reads a CSV; on error shows it in the status line and returns false.
    bool loadCsv(const QString& path);
    /// Starts the fit in a worker thread (nothing if no data or a fit is running).
    void startFit();
    /// True while a fit runs.
    bool fitting() const;
    /// The last successful fit.
    const std::optional<PoleFitResult>& result() const { return result_; }
    const OpticalData& data() const { return data_; }

    // widgets, for tests
    QSpinBox* polesSpin() const { return poles_; }
    QCheckBox* drudeCheck() const { return drude_; }
    QDoubleSpinBox* bandMinSpin() const { return lo_; }
    QDoubleSpinBox* bandMaxSpin() const { return hi_; }
    QPushButton* fitButton() const { return fit_; }
    QPushButton* applyButton() const { return apply_; }
    QLabel* statusLabel() const { return status_; }
    QCustomPlot* plot() const { return plot_; }

Q_SIGNALS:
    /// Emitted when a fit finished (successfully or not).
    void fitFinished();

private:
    void browse();
    void fitDone();
    void refreshPlot();
    OpticalData data_;
    std::optional<PoleFitResult> result_;
    QFutureWatcher<PoleFitOutcome> watcher_;
    QString fileName_;
    QLabel* file_;
    QSpinBox* poles_;
    QCheckBox* drude_;
    QDoubleSpinBox *lo_, *hi_;
    QComboBox* mode_;
    QPushButton *fit_, *apply_;
    QLabel* status_;
    QCustomPlot* plot_;
};

}  // namespace golightly::editor
