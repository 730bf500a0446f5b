// GoLightly plots: S-parameter plots (issue 21). |S_ij| in dB (20 log10 |S_ij|) and the
// phase arg S_ij in degrees, (-180, 180], against the vacuum wavelength in um, one curve
// per (receiving i, exciting j) pair of port-modes; columns j that have not been computed
// yet are left out, so the plots fill in as each port's run finishes.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <complex>
#include <vector>

class QCustomPlot;
class QComboBox;
class QLabel;

namespace golightly::plots {

/// S-parameters as the plots hold them (the solver's SParameters without the runs).
struct SParamsTable {
    std::vector<double> frequency_hz;  ///< increasing
    QStringList labels;                ///< N port-modes, "<port>:<mode>"
    /// s[i][j][f], i receiving, j exciting; s[i][j] is empty while column j is not known
    std::vector<std::vector<std::vector<std::complex<double>>>> s;
    /// columns j that are known (all when read from a file)
    std::vector<bool> known;
    int size() const { return int(labels.size()); }
};

/// Reads a sparams.csv (write_sparams_csv, spec cli.md `sparams`: wavelength_um,
/// frequency_thz, S<i><j>_re, S<i><j>_im, ...; for N > 9 S<i>_<j>). The port-mode labels
/// come from the "! port K: LABEL" comments of the Touchstone file beside it
/// (sparams.s<N>p) when there is one, else "1".."N". False with `error` (naming the file
/// and the line) when the file is missing or malformed.
bool readSparamsCsv(const QString& path, SParamsTable& out, QString* error);

class SParamsView : public QWidget {
    Q_OBJECT
public:
    explicit SParamsView(QWidget* parent = nullptr);

    /// Which curves to show: all pairs, the reflections S_ii, or the transmissions S_ij (i != j).
    enum class Filter { All, Reflection, Transmission };

    /// Replaces the curves with the known columns of `table`.
    void setTable(const SParamsTable& table);
    const SParamsTable& table() const { return table_; }
    void clear();
    void setFilter(Filter f);
    Filter filter() const { return filter_; }

    QCustomPlot* magnitudePlot() const { return mag_; }
    QCustomPlot* phasePlot() const { return phase_; }
    /// The name of the curve of S_ij (1-based in the name, "S21 (b:0 <- a:0)").
    QString curveName(int i, int j) const;

    /// 20 log10 |s|, floored at -200 dB for s = 0.
    static double toDb(std::complex<double> s);
    /// arg s in degrees, (-180, 180].
    static double toDeg(std::complex<double> s);

protected:
    /// A resized plot: its legend's columns follow the width.
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    void rebuild();
    SParamsTable table_;
    Filter filter_ = Filter::All;
    QCustomPlot *mag_, *phase_;
    QComboBox* filterCombo_;
    QLabel* readout_;
};

}  // namespace golightly::plots
