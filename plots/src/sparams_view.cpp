#include "sparams_view.hpp"
#include "ui_number.hpp"

#include <QLocale>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QSplitter>
#include <QTextStream>
#include <QVBoxLayout>

#include "golightly/units.hpp"
#include "qcustomplot_include.hpp"

#include <algorithm>
#include <cmath>

namespace golightly::plots {

namespace {
const QColor kPalette[] = {QColor(31, 119, 180), QColor(214, 39, 40), QColor(44, 160, 44), QColor(255, 127, 14),
                           QColor(148, 103, 189), QColor(140, 86, 75), QColor(227, 119, 194), QColor(127, 127, 127)};

QCustomPlot* makePlot(const QString& x, const QString& y) {
    auto* p = new QCustomPlot;
    p->setMinimumSize(260, 150);
    p->xAxis->setLabel(x);
    p->yAxis->setLabel(y);
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->legend->setVisible(false);
    QFont f = p->legend->font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    p->legend->setFont(f);
    // the legend in a row above the axes (placeLegend), never over the curves: a
    // reflection dip sits where an inset legend would be
    p->axisRect()->insetLayout()->take(p->legend);
    p->axisRect()->insetLayout()->simplify();
    p->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    p->legend->setBorderPen(Qt::NoPen);
    p->legend->setMargins(QMargins(4, 2, 4, 0));
    p->xAxis->ticker()->setTickCount(4);  // a narrow dock: no labels run into each other
    return p;
}

/// Puts the legend in a row above the axes while it has entries, and takes it out of the
/// layout while it has none: QCustomPlot caps a layout column at the smallest maximum
/// width of its elements, and an empty legend's is its margins (the axes would be squashed
/// to a strip before any data).
void placeLegend(QCustomPlot* p) {
    // (the legend's grid keeps empty cells where items were removed: count the items)
    int items = 0, widest = 1;
    for (int k = 0; k < p->legend->itemCount(); ++k)
        if (QCPAbstractLegendItem* it = p->legend->item(k)) {
            ++items;
            widest = std::max(widest, it->minimumOuterSizeHint().width() + p->legend->columnSpacing());
        }
    const bool want = items > 0;
    const bool placed = p->legend->layout() == p->plotLayout();
    if (want && !placed) {
        p->plotLayout()->insertRow(0);
        p->plotLayout()->addElement(0, 0, p->legend);
        p->plotLayout()->setRowStretchFactor(0, 0.001);
    } else if (!want && placed) {
        p->plotLayout()->take(p->legend);
        p->plotLayout()->simplify();
    }
    p->legend->setVisible(want);
    if (!want) return;
    // as many columns as fit the plot's width: names are never cut
    const int wrap = std::clamp((p->width() - 10) / widest, 1, 4);
    if (p->legend->wrap() != wrap) p->legend->setWrap(wrap);
}
}  // namespace

double SParamsView::toDb(std::complex<double> s) {
    const double a = std::abs(s);
    return a > 0 ? std::max(-200.0, 20 * std::log10(a)) : -200.0;
}

double SParamsView::toDeg(std::complex<double> s) {
    double d = std::arg(s) * 180.0 / M_PI;
    if (d <= -180.0) d += 360.0;
    return d;
}

SParamsView::SParamsView(QWidget* parent) : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Show")));
    filterCombo_ = new QComboBox;
    filterCombo_->setObjectName(QStringLiteral("sparamsFilter"));
    filterCombo_->addItem(tr("All S_ij"));
    filterCombo_->addItem(tr("Reflections S_ii"));
    filterCombo_->addItem(tr("Transmissions S_ij, i ≠ j"));
    row->addWidget(filterCombo_);
    readout_ = new QLabel;
    readout_->setObjectName(QStringLiteral("sparamsReadout"));
    row->addWidget(readout_, 1);
    v->addLayout(row);
    auto* split = new QSplitter(Qt::Horizontal);  // side by side: the dock sits under the canvas
    mag_ = makePlot(tr("Wavelength (µm)"), tr("|S_ij| (dB)"));
    mag_->setObjectName(QStringLiteral("sparamsMagnitude"));
    phase_ = makePlot(tr("Wavelength (µm)"), tr("arg S_ij (degrees)"));
    phase_->setObjectName(QStringLiteral("sparamsPhase"));
    split->addWidget(mag_);
    split->addWidget(phase_);
    mag_->installEventFilter(this);
    phase_->installEventFilter(this);
    v->addWidget(split, 1);
    connect(filterCombo_, &QComboBox::currentIndexChanged, this, [this](int k) { setFilter(Filter(k)); });
    // the wavelength axes move together
    connect(mag_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& r) {
        if (phase_->xAxis->range() != r) {
            phase_->xAxis->setRange(r);
            phase_->replot(QCustomPlot::rpQueuedReplot);
        }
    });
    connect(phase_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& r) {
        if (mag_->xAxis->range() != r) {
            mag_->xAxis->setRange(r);
            mag_->replot(QCustomPlot::rpQueuedReplot);
        }
    });
    // cursor readout: the values of every shown curve at the wavelength under the mouse
    auto readout = [this](QMouseEvent* e) {
        if (table_.frequency_hz.empty()) return;
        const double x = mag_->xAxis->pixelToCoord(e->position().x());
        std::size_t best = 0;
        for (std::size_t f = 0; f < table_.frequency_hz.size(); ++f)
            if (std::abs(units::hz_to_wavelength_um(table_.frequency_hz[f]) - x) <
                std::abs(units::hz_to_wavelength_um(table_.frequency_hz[best]) - x))
                best = f;
        QStringList parts{tr("λ = %1 µm").arg(golightly::ui_number(units::hz_to_wavelength_um(table_.frequency_hz[best]), 'f', 4))};
        for (int i = 0; i < table_.size() && parts.size() < 6; ++i)
            for (int j = 0; j < table_.size() && parts.size() < 6; ++j)
                if (j < int(table_.known.size()) && table_.known[std::size_t(j)] && !table_.s[i][j].empty())
                    parts << QStringLiteral("S%1%2 %3 dB").arg(i + 1).arg(j + 1).arg(golightly::ui_number(toDb(table_.s[i][j][best]), 'f', 2));
        readout_->setText(parts.join(QStringLiteral("   ")));
    };
    connect(mag_, &QCustomPlot::mouseMove, this, readout);
    connect(phase_, &QCustomPlot::mouseMove, this, readout);
}

QString SParamsView::curveName(int i, int j) const {
    const QString sep = table_.size() > 9 ? QStringLiteral("_") : QString();
    return QStringLiteral("S%1%2%3 (%4 ← %5)")
        .arg(i + 1)
        .arg(sep)
        .arg(j + 1)
        .arg(table_.labels.value(i), table_.labels.value(j));
}

void SParamsView::clear() {
    table_ = {};
    rebuild();
}

bool SParamsView::eventFilter(QObject* o, QEvent* e) {
    if (e->type() == QEvent::Resize && (o == mag_ || o == phase_)) {
        auto* p = static_cast<QCustomPlot*>(o);
        const int wrap = p->legend->wrap();
        placeLegend(p);
        if (p->legend->wrap() != wrap) p->replot(QCustomPlot::rpQueuedReplot);
    }
    return QWidget::eventFilter(o, e);
}

void SParamsView::setTable(const SParamsTable& table) {
    table_ = table;
    rebuild();
}

void SParamsView::setFilter(Filter f) {
    filter_ = f;
    if (filterCombo_->currentIndex() != int(f)) filterCombo_->setCurrentIndex(int(f));
    rebuild();
}

void SParamsView::rebuild() {
    mag_->clearGraphs();
    phase_->clearGraphs();
    const int n = table_.size();
    QVector<double> wl;
    for (double f : table_.frequency_hz) wl.push_back(units::hz_to_wavelength_um(f));
    int colour = 0;
    for (int j = 0; j < n; ++j) {
        if (j >= int(table_.known.size()) || !table_.known[std::size_t(j)]) continue;
        for (int i = 0; i < n; ++i) {
            if ((filter_ == Filter::Reflection && i != j) || (filter_ == Filter::Transmission && i == j)) continue;
            const auto& sij = table_.s[std::size_t(i)][std::size_t(j)];
            if (sij.size() != table_.frequency_hz.size()) continue;
            QVector<double> db, deg;
            for (const auto& v : sij) db.push_back(toDb(v)), deg.push_back(toDeg(v));
            // reciprocal pairs (S21 = S12) and symmetric ports (S11 = S22) draw on top of
            // each other: earlier curves are wider, so that both stay visible
            const int k = colour++;
            const QPen pen(kPalette[k % 8], std::max(1.5, 4.5 - 1.0 * k), i == j ? Qt::DashLine : Qt::SolidLine);
            QCPGraph* gm = mag_->addGraph();
            gm->setName(curveName(i, j));
            gm->setPen(pen);
            gm->setData(wl, db);
            QCPGraph* gp = phase_->addGraph();
            gp->setName(curveName(i, j));
            gp->setPen(pen);
            gp->setLineStyle(QCPGraph::lsNone);  // the phase wraps at +-180: points, not a line
            gp->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, pen.color(), pen.color(), std::max(4.0, 9.0 - 1.5 * k)));
            gp->setData(wl, deg);
        }
    }
    placeLegend(mag_);
    placeLegend(phase_);  // its curves are points: which is which
    mag_->rescaleAxes();
    if (mag_->graphCount() > 0) {
        // a little room above 0 dB and never a degenerate range
        QCPRange r = mag_->yAxis->range();
        mag_->yAxis->setRange(std::min(r.lower, -3.0) - 2, std::max(r.upper, -60.0) + 2);
    }
    phase_->rescaleAxes();
    phase_->yAxis->setRange(-185, 185);
    phase_->yAxis->ticker()->setTickCount(5);
    mag_->replot();
    phase_->replot();
}

bool readSparamsCsv(const QString& path, SParamsTable& out, QString* error) {
    auto fail = [&](const QString& why) {
        if (error) *error = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), why);
        return false;
    };
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return fail(QObject::tr("cannot be read"));
    QTextStream in(&f);
    const QStringList header = in.readLine().trimmed().split(QLatin1Char(','));
    if (header.size() < 4 || header[0] != QStringLiteral("wavelength_um") || header[1] != QStringLiteral("frequency_thz") ||
        (header.size() - 2) % 2 != 0)
        return fail(QObject::tr("line 1: not an S-parameter table (expected wavelength_um,frequency_thz,S11_re,S11_im,...)"));
    const int pairs = (header.size() - 2) / 2;
    const int n = int(std::lround(std::sqrt(double(pairs))));
    if (n * n != pairs || n < 1) return fail(QObject::tr("line 1: %1 S columns is not a square matrix").arg(pairs));
    // check the column names: S<i><j>_re, S<i><j>_im, i receiving, row-major
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            const QString nm = n > 9 ? QStringLiteral("S%1_%2").arg(i + 1).arg(j + 1) : QStringLiteral("S%1%2").arg(i + 1).arg(j + 1);
            const int c = 2 + 2 * (i * n + j);
            if (header[c] != nm + QStringLiteral("_re") || header[c + 1] != nm + QStringLiteral("_im"))
                return fail(QObject::tr("line 1: column %1 should be %2_re").arg(c + 1).arg(nm));
        }
    SParamsTable t;
    t.s.assign(std::size_t(n), std::vector<std::vector<std::complex<double>>>(std::size_t(n)));
    int line = 1;
    while (!in.atEnd()) {
        const QString l = in.readLine().trimmed();
        ++line;
        if (l.isEmpty()) continue;
        const QStringList cells = l.split(QLatin1Char(','));
        if (cells.size() != header.size())
            return fail(QObject::tr("line %1: %2 values, the header has %3").arg(line).arg(cells.size()).arg(header.size()));
        std::vector<double> v(std::size_t(cells.size()));
        for (int c = 0; c < cells.size(); ++c) {
            bool ok = false;
            v[std::size_t(c)] = cells[c].toDouble(&ok);
            if (!ok || !std::isfinite(v[std::size_t(c)]))
                return fail(QObject::tr("line %1, column %2: not a number").arg(line).arg(c + 1));
        }
        t.frequency_hz.push_back(v[1] * 1e12);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                const std::size_t c = std::size_t(2 + 2 * (i * n + j));
                t.s[std::size_t(i)][std::size_t(j)].emplace_back(v[c], v[c + 1]);
            }
    }
    if (t.frequency_hz.empty()) return fail(QObject::tr("no rows"));
    // labels from the Touchstone file beside it
    for (int k = 0; k < n; ++k) t.labels << QString::number(k + 1);
    QFile ts(QFileInfo(path).dir().filePath(QStringLiteral("sparams.s%1p").arg(n)));
    if (ts.open(QIODevice::ReadOnly | QIODevice::Text)) {
        static const QRegularExpression re(QStringLiteral("^!\\s*port\\s+(\\d+):\\s*(.+)$"));
        QTextStream tin(&ts);
        while (!tin.atEnd()) {
            const QString l = tin.readLine().trimmed();
            if (!l.startsWith(QLatin1Char('!'))) break;
            const auto m = re.match(l);
            const int k = m.hasMatch() ? m.captured(1).toInt() : 0;
            if (k >= 1 && k <= n) t.labels[k - 1] = m.captured(2).trimmed();
        }
    }
    t.known.assign(std::size_t(n), true);
    out = std::move(t);
    return true;
}

}  // namespace golightly::plots
