// GoLightly plots: the Monitors dock's far-field page (issue 52). The far fields of flux
// boxes with `far_field` as the pictures antenna and scattering people expect:
//   2D  a polar plot of the pattern against phi (one curve per monitor and wavelength) and
//       the same as cartesian curves;
//   3D  a theta-phi map (colour: the pattern of one chosen monitor and wavelength) and the
//       principal cuts phi = 0 and 90 degrees against theta as cartesian curves.
// The quantity is the directivity D = 4 pi U / P (2 pi U / P in 2D) or the radiation
// intensity U itself, linear or in dB (10 log10; a 40 dB range below the peak is shown).
#pragma once

#include <QString>
#include <QWidget>

#include <vector>

#include "golightly/run.hpp"

class QCustomPlot;
class QComboBox;
class QCheckBox;
class QStackedWidget;
class QCPColorMap;
class QCPColorScale;
class QCPPolarAxisAngular;
class QCPPolarGraph;
class QCPLegend;

namespace golightly::plots {

class FarFieldView : public QWidget {
    Q_OBJECT
public:
    explicit FarFieldView(QWidget* parent = nullptr);

    /// Replaces the far fields shown (the equivalent currents are not kept).
    void setFarFields(const std::vector<FarFieldResult>& fields);
    const std::vector<FarFieldResult>& farFields() const { return data_; }
    void clear() { setFarFields({}); }

    enum class View { Polar = 0, Cuts = 1, Map = 2 };
    /// Shows one picture; Polar is offered in 2D, Map in 3D, Cuts (cartesian curves) in both.
    void setView(View v);
    View view() const { return view_; }
    /// The plot the current view draws in (Fit and Export act on it).
    QCustomPlot* currentPlot() const;

    QCustomPlot* cartesianPlot() const { return cuts_; }
    QCustomPlot* polarPlot() const { return polar_; }
    QCustomPlot* mapPlot() const { return map_; }
    QCPColorMap* colorMap() const { return colorMap_; }
    /// The polar curves, one per monitor and wavelength of the 2D far fields shown.
    const std::vector<QCPPolarGraph*>& polarGraphs() const { return polarGraphs_; }
    QCPPolarAxisAngular* polarAxis() const { return angular_; }
    QCPLegend* polarLegend() const { return polarLegend_; }
    QComboBox* viewChooser() const { return viewBox_; }
    QComboBox* quantityChooser() const { return quantityBox_; }
    QCheckBox* decibels() const { return db_; }
    /// The 3D map's monitor and wavelength (one entry per pair).
    QComboBox* mapChooser() const { return mapBox_; }

    /// The value plotted for intensity `u` of a far field with total power `p` in
    /// `dimensions` (directivity or intensity, linear or dB as chosen; dB of 0 is -inf).
    double plotted(double u, double p, int dimensions) const;

    /// Exports a plot as .png, .pdf or .csv (curves: angle and value per point; the map:
    /// theta, phi and value per cell).
    bool exportTo(const QString& path);

private:
    void rebuild();
    void rebuildCartesian();
    void rebuildPolar();
    void rebuildMap();
    QString quantityLabel() const;

    std::vector<FarFieldResult> data_;
    View view_ = View::Cuts;
    int dims_ = 0;  ///< of the far fields shown (0: none yet)
    QComboBox* viewBox_;
    QComboBox* quantityBox_;
    QCheckBox* db_;
    QComboBox* mapBox_;
    QStackedWidget* stack_;
    QCustomPlot* cuts_;
    QCustomPlot* polar_;
    QCPPolarAxisAngular* angular_ = nullptr;
    QCPLegend* polarLegend_ = nullptr;
    std::vector<QCPPolarGraph*> polarGraphs_;
    QCustomPlot* map_;
    QCPColorMap* colorMap_ = nullptr;
    QCPColorScale* colorScale_ = nullptr;
};

}  // namespace golightly::plots
