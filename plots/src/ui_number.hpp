// A number as the IDE shows it: the default locale's decimal separator (the language of
// View > Language: "0,5" in German) and never a group separator ("6000 fs", as the spin
// boxes show numbers), whatever the system locale's own options.
#pragma once

#include <QLocale>
#include <QString>

namespace golightly {

inline QString ui_number(double value, char format = 'g', int precision = 6) {
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() | QLocale::OmitGroupSeparator);
    return locale.toString(value, format, precision);
}

}  // namespace golightly
