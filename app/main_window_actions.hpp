// GoLightly IDE: helpers shared by the MainWindow files that make the menus
// (main_window_<menu>_menu.cpp) and main_window.cpp; MainWindow::makeAction names each
// action (objectName "menu.command": the shortcut list, the tests and QSettings use it).
#pragma once

#include <QDoubleSpinBox>
#include <QIcon>
#include <QString>

namespace golightly::app {

/// An icon of the editor's resources (":/icons/<name>.svg").
QIcon icon(const QString& name);
/// A spin box of the Tool Options tool bar (no keyboard tracking: one change per edit).
QDoubleSpinBox* option_spin(double lo, double hi, double value, double step, const QString& suffix, int decimals = 3);

}  // namespace golightly::app
