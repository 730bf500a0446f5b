// The Monitors dock's far-field pictures (issue 52): the 2D polar plot and the 3D theta-phi
// map hold the directivity (or intensity) of the far fields given, linear and in dB, and
// draw them. Patterns with known directivities: 2D U = 1 + cos^2 phi (D(0) = 4/3 exactly on
// an even phi grid), 3D U = sin^2 theta (D(90 deg) = 4 pi / P, P from radiated_power).
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "qcustomplot_include.hpp"

#include <cmath>
#include <filesystem>
#include <functional>

#include "far_field_view.hpp"
#include "golightly/far_field.hpp"
#include "golightly/results.hpp"
#include "gui_test_util.hpp"
#include "monitors_dock.hpp"

using namespace golightly;

namespace {
constexpr double kPi = 3.14159265358979323846;

void shot(const QString& name, QWidget* w) {
    QTest::qWait(20);  // the queued replots
    const QString dir = qEnvironmentVariable("GOLIGHTLY_TEST_SHOTS");
    if (!dir.isEmpty()) w->grab().toImage().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

/// A 2D far field on n_phi azimuths with intensity u(phi) per wavelength.
FarFieldResult farField2d(const std::vector<double>& wavelengths, int n_phi,
                          const std::function<double(double phi, std::size_t w)>& u) {
    FarFieldResult f;
    f.name = "box";
    f.dimensions = 2;
    f.n_theta = 1;
    f.n_phi = n_phi;
    f.wavelength_um = wavelengths;
    for (std::size_t w = 0; w < wavelengths.size(); ++w) {
        f.samples.emplace_back();
        for (int j = 0; j < n_phi; ++j) {
            FarFieldSample x;
            x.theta_rad = kPi / 2;
            x.phi_rad = 2 * kPi * j / n_phi;
            x.intensity = u(x.phi_rad, w);
            f.samples.back().push_back(x);
        }
        f.power.push_back(radiated_power(f.samples.back(), 1, n_phi));
    }
    return f;
}

FarFieldResult farField3d(const std::vector<double>& wavelengths, int n_theta, int n_phi,
                          const std::function<double(double theta, double phi, std::size_t w)>& u) {
    FarFieldResult f;
    f.name = "antenna";
    f.dimensions = 3;
    f.n_theta = n_theta;
    f.n_phi = n_phi;
    f.wavelength_um = wavelengths;
    for (std::size_t w = 0; w < wavelengths.size(); ++w) {
        f.samples.emplace_back();
        for (int i = 0; i < n_theta; ++i)
            for (int j = 0; j < n_phi; ++j) {
                FarFieldSample x;
                x.theta_rad = kPi * i / (n_theta - 1);
                x.phi_rad = 2 * kPi * j / n_phi;
                x.intensity = u(x.theta_rad, x.phi_rad, w);
                f.samples.back().push_back(x);
            }
        f.power.push_back(radiated_power(f.samples.back(), n_theta, n_phi));
    }
    return f;
}

/// Pixels of a picture that are clearly blue (the first curve's colour, 31,119,180).
int bluePixels(const QImage& image) {
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb c = img.pixel(x, y);
            if (qBlue(c) > qRed(c) + 80 && qBlue(c) > qGreen(c) + 30) ++n;
        }
    return n;
}
}  // namespace

class TestFarFieldPlots : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void polar2d() {
        plots::MonitorsDock dock;
        dock.resize(760, 520);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        // two wavelengths: 1 + cos^2 phi and the narrower 1 + cos^4 phi
        RunResult r;
        r.far_fields.push_back(farField2d({1.5, 1.6}, 72, [](double phi, std::size_t w) {
            return 1 + std::pow(std::cos(phi), w == 0 ? 2 : 4);
        }));
        dock.setFinal(r);
        plots::FarFieldView* view = dock.farFieldView();
        QCOMPARE(view->view(), plots::FarFieldView::View::Polar);  // 2D opens on the polar plot
        QCOMPARE(view->viewChooser()->count(), 2);
        const auto& graphs = view->polarGraphs();
        QCOMPARE(int(graphs.size()), 2);
        QCOMPARE(graphs[0]->data()->size(), 73);  // 72 azimuths and the curve closed at 360 degrees
        QVERIFY(graphs[0]->name().contains(QStringLiteral("1.5")));
        QCPLegend* legend = view->polarLegend();
        QVERIFY(legend);
        QCOMPARE(legend->itemCount(), 2);  // one entry per curve
        // D = 2 pi U / P; P = 2 pi * 1.5 for 1 + cos^2 on an even grid: D(0) = 4/3, D(90) = 2/3
        const auto d0 = graphs[0]->data();
        QVERIFY(std::abs(d0->at(0)->value - 4.0 / 3.0) < 1e-12);
        QVERIFY(std::abs(d0->at(18)->value - 2.0 / 3.0) < 1e-12);
        QVERIFY(std::abs(d0->at(72)->key - 360.0) < 1e-12);
        QVERIFY(std::abs(d0->at(72)->value - 4.0 / 3.0) < 1e-12);
        // the cartesian curves hold the same values (without the closing point)
        QCOMPARE(dock.farFieldPlot()->graphCount(), 2);
        QCOMPARE(dock.farFieldPlot()->graph(0)->dataCount(), 72);
        QVERIFY(std::abs(dock.farFieldPlot()->graph(0)->data()->at(0)->value - 4.0 / 3.0) < 1e-12);
        // radial axis from the centre to just above the peak
        QCOMPARE(view->polarAxis()->radialAxis()->range().lower, 0.0);
        QVERIFY(view->polarAxis()->radialAxis()->range().upper >= 4.0 / 3.0);
        // dB: 10 log10 D, the axis spanning 40 dB below whole 5 dB rings
        view->decibels()->setChecked(true);
        QCOMPARE(int(view->polarGraphs().size()), 2);
        QCOMPARE(legend->itemCount(), 2);
        QVERIFY(std::abs(view->polarGraphs()[0]->data()->at(0)->value - 10 * std::log10(4.0 / 3.0)) < 1e-12);
        QVERIFY(std::abs(view->polarGraphs()[0]->data()->at(18)->value - 10 * std::log10(2.0 / 3.0)) < 1e-12);
        QCOMPARE(view->polarAxis()->radialAxis()->range().upper, 5.0);
        QCOMPARE(view->polarAxis()->radialAxis()->range().lower, -35.0);
        QVERIFY(dock.farFieldPlot()->yAxis->label().contains(QStringLiteral("dB")));
        // radiation intensity: U itself
        view->decibels()->setChecked(false);
        view->quantityChooser()->setCurrentIndex(1);
        QVERIFY(std::abs(view->polarGraphs()[0]->data()->at(0)->value - 2.0) < 1e-12);
        QVERIFY(std::abs(view->polarGraphs()[1]->data()->at(18)->value - 1.0) < 1e-12);
        view->quantityChooser()->setCurrentIndex(0);
        // drawn: the first curve's colour covers a good part of the picture
        dock.tabs()->setCurrentWidget(view);
        view->polarPlot()->replot();
        const QImage picture = view->polarPlot()->grab().toImage();
        QVERIFY2(bluePixels(picture) > 300, qPrintable(QString::number(bluePixels(picture))));
        QVERIFY(test::distinctColours(picture) > 8);
        shot(QStringLiteral("far-field-polar"), &dock);
        // export: CSV of the polar curves (angle, value)
        QTemporaryDir tmp;
        const QString csv = tmp.filePath(QStringLiteral("polar.csv"));
        QVERIFY(dock.exportCurrent(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QVERIFY(lines[0].startsWith("curve,phi_deg,Directivity"));
        QCOMPARE(lines.size(), 1 + 2 * 73 + 1);  // header, two curves, the final newline
        // a results folder (Open results): the far fields come back from far_field/<box>.csv
        r.dimensions = 2;
        r.frequency_hz = {2e14};
        write_results(std::filesystem::path(tmp.filePath(QStringLiteral("run")).toStdString()), Project{}, r, {});
        plots::MonitorsDock reopened;
        QVERIFY(reopened.loadResults(tmp.filePath(QStringLiteral("run"))));
        const auto& again = reopened.farFieldView()->polarGraphs();
        QCOMPARE(int(again.size()), 2);
        QVERIFY(std::abs(again[0]->data()->at(0)->value - 4.0 / 3.0) < 1e-9);  // the CSV's 10 digits
        QVERIFY(std::abs(again[1]->data()->at(18)->value - graphs[1]->data()->at(18)->value) < 1e-9);
        // live snapshots: one with far fields replaces the curves, a throttled one (none)
        // leaves the last picture
        LiveMonitors live;
        live.phase = "main";
        live.step = 200;
        live.far_fields.push_back(farField2d({1.55}, 72, [](double, std::size_t) { return 1.0; }));
        dock.setLive(live);
        QCOMPARE(int(view->polarGraphs().size()), 1);
        QVERIFY(std::abs(view->polarGraphs()[0]->data()->at(5)->value - 1.0) < 1e-12);  // isotropic
        live.far_fields.clear();
        live.step = 400;
        dock.setLive(live);
        QCOMPARE(int(view->polarGraphs().size()), 1);
        // the run's next start forgets them
        dock.clear();
        QCOMPARE(int(view->polarGraphs().size()), 0);
        QCOMPARE(dock.farFieldPlot()->graphCount(), 0);
    }

    void map3d() {
        plots::MonitorsDock dock;
        dock.resize(760, 520);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        RunResult r;
        // wavelength 0: a z dipole, sin^2 theta; wavelength 1: sin^4 theta cos^2 phi
        r.far_fields.push_back(farField3d({1.0, 1.2}, 37, 72, [](double th, double ph, std::size_t w) {
            return w == 0 ? std::pow(std::sin(th), 2) : std::pow(std::sin(th), 4) * std::pow(std::cos(ph), 2);
        }));
        const double p0 = r.far_fields[0].power[0], p1 = r.far_fields[0].power[1];
        QVERIFY(std::abs(p0 / (8 * kPi / 3) - 1) < 2e-3);  // the grid integrates sin^2 to 8 pi / 3
        dock.setFinal(r);
        plots::FarFieldView* view = dock.farFieldView();
        QCOMPARE(view->view(), plots::FarFieldView::View::Map);  // 3D opens on the map
        QCOMPARE(view->mapChooser()->count(), 2);
        QCPColorMapData* d = view->colorMap()->data();
        QCOMPARE(d->keySize(), 73);  // phi 0..360, the last column repeating phi 0
        QCOMPARE(d->valueSize(), 37);
        // theta 90 (row 18): D = 4 pi / P at every phi; the poles 0
        for (int j : {0, 17, 40, 72}) QVERIFY(std::abs(d->cell(j, 18) - 4 * kPi / p0) < 1e-12);
        QVERIFY(std::abs(d->cell(5, 0)) < 1e-12);
        double phi = 0, theta = 0;
        d->cellToCoord(18, 18, &phi, &theta);
        QVERIFY(std::abs(phi - 90) < 1e-9 && std::abs(theta - 90) < 1e-9);
        // dB with the 40 dB floor (the poles' nulls at the floor)
        view->decibels()->setChecked(true);
        QVERIFY(std::abs(d->cell(3, 18) - 10 * std::log10(4 * kPi / p0)) < 1e-12);
        QVERIFY(std::abs(view->colorMap()->dataRange().upper - 10 * std::log10(4 * kPi / p0)) < 1e-12);
        QVERIFY(std::abs(view->colorMap()->dataRange().lower - (view->colorMap()->dataRange().upper - 40)) < 1e-12);
        QVERIFY(std::abs(d->cell(5, 0) - view->colorMap()->dataRange().lower) < 1e-12);
        // the other wavelength: its peak at theta 90, phi 0; null at phi 90
        view->mapChooser()->setCurrentIndex(1);
        d = view->colorMap()->data();
        QVERIFY(std::abs(d->cell(0, 18) - 10 * std::log10(4 * kPi / p1)) < 1e-12);
        QVERIFY(std::abs(d->cell(18, 18) - view->colorMap()->dataRange().lower) < 1e-12);
        // the principal cuts: phi 0 and 90 per wavelength against theta
        QCustomPlot* cuts = dock.farFieldPlot();
        QCOMPARE(cuts->graphCount(), 4);
        QCOMPARE(cuts->graph(0)->dataCount(), 37);
        QVERIFY(cuts->graph(1)->name().contains(QStringLiteral("90")));
        view->decibels()->setChecked(false);
        QVERIFY(std::abs(cuts->graph(0)->data()->at(18)->value - 4 * kPi / p0) < 1e-12);
        // drawn with the colour scale's range of colours
        view->decibels()->setChecked(true);
        view->mapChooser()->setCurrentIndex(0);
        dock.tabs()->setCurrentWidget(view);
        view->mapPlot()->replot();
        QVERIFY(test::distinctColours(view->mapPlot()->grab().toImage(), 200) > 30);
        shot(QStringLiteral("far-field-map-3d"), &dock);
        // the cuts view: Fit and Export act on it
        view->setView(plots::FarFieldView::View::Cuts);
        QCOMPARE(dock.currentPlot(), cuts);
        QTemporaryDir tmp;
        QVERIFY(dock.exportCurrent(tmp.filePath(QStringLiteral("cuts.png"))));
        view->setView(plots::FarFieldView::View::Map);
        const QString csv = tmp.filePath(QStringLiteral("map.csv"));
        QVERIFY(dock.exportCurrent(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().count('\n'), 1 + 37 * 72);
    }

    // The pictures of the user guide (docs/screenshots/far-field-polar.png and
    // far-field-map-3d.png with GOLIGHTLY_TEST_SHOTS): textbook patterns, checked where they
    // peak. 2D: two line sources half a wavelength apart along x, in phase (broadside: peaks
    // at phi 90 and 270, nulls along x); 3D: an x dipole a quarter wavelength over a ground
    // plane (the upper half space only; peak at the zenith).
    void userGuidePictures() {
        plots::MonitorsDock dock;
        dock.resize(760, 560);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        RunResult r;
        r.stop_reason = StopReason::Decay;
        r.steps = 8000;
        r.time_fs = 133.4;
        r.mcells_per_s = 310.5;
        r.backend = "cpu";
        r.far_fields.push_back(farField2d({1.5, 1.55, 1.6}, 360, [](double phi, std::size_t w) {
            const double kd = kPi * 1.55 / std::vector<double>{1.5, 1.55, 1.6}[w];  // d = 0.775 um
            return std::pow(std::cos(0.5 * kd * std::cos(phi)), 2);
        }));
        dock.setFinal(r);
        plots::FarFieldView* view = dock.farFieldView();
        view->decibels()->setChecked(true);
        dock.tabs()->setCurrentWidget(view);
        const auto peak = [](const QSharedPointer<QCPGraphDataContainer>& d) {
            double best = -1e300, at = 0;
            for (auto it = d->constBegin(); it != d->constEnd(); ++it)
                if (it->value > best) best = it->value, at = it->key;
            return at;
        };
        QVERIFY(std::abs(std::fmod(peak(view->polarGraphs()[1]->data()), 180.0) - 90) < 1e-9);
        shot(QStringLiteral("far-field-polar"), &dock);

        r.far_fields.clear();
        r.dimensions = 3;
        r.far_fields.push_back(farField3d({1.55}, 37, 72, [](double th, double ph, std::size_t) {
            if (th > kPi / 2) return 0.0;
            const double kh = kPi / 2;  // h = lambda / 4
            return (1 - std::pow(std::sin(th) * std::cos(ph), 2)) * std::pow(std::sin(kh * std::cos(th)), 2);
        }));
        r.far_fields[0].name = "box";
        dock.setFinal(r);
        QCPColorMapData* d = view->colorMap()->data();
        for (int j = 0; j < 72; ++j) QVERIFY(d->cell(j, 0) >= d->cell(j, 10));  // the zenith is brightest
        shot(QStringLiteral("far-field-map-3d"), &dock);
    }
};

QTEST_MAIN(TestFarFieldPlots)
#include "tst_far_field_plots.moc"
