// GoLightly editor: a QDoubleSpinBox that shows its value without float noise or padding
// (0.3, not 0.30000000000000004 or 0.300000; issue 20). The value itself is unchanged.
#pragma once

#include <QDoubleSpinBox>
#include <QLocale>

namespace golightly::editor {

/// `value` with at most `decimals` decimals, trailing zeros removed ("0.3", "1000", "-2.5").
inline QString trimmed_number(double value, int decimals, const QLocale& locale = QLocale()) {
    QString t = locale.toString(value, 'f', decimals);
    const QString point = locale.decimalPoint();
    if (decimals > 0 && t.contains(point)) {
        while (t.endsWith(QLatin1Char('0'))) t.chop(1);
        if (t.endsWith(point)) t.chop(point.size());
    }
    if (t == QLatin1String("-0")) t = QStringLiteral("0");
    return t;
}

class NumberSpinBox : public QDoubleSpinBox {
public:
    using QDoubleSpinBox::QDoubleSpinBox;
    QString textFromValue(double value) const override {
        QString t = trimmed_number(value, decimals(), locale());
        if (!isGroupSeparatorShown()) t.remove(locale().groupSeparator());
        return t;
    }
};

}  // namespace golightly::editor
