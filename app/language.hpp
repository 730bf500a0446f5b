// GoLightly IDE language: the user interface follows the system locale unless a language
// is chosen in View > Language (stored in QSettings under "ui/language" and applied at
// once: the main window is rebuilt in the new language, MainWindow::languageChanged). Translations are the .qm files of translations/, embedded under :/i18n.
#pragma once

#include <QString>
#include <QStringList>

#include <functional>

class QCoreApplication;
class QMenu;
class QWidget;

namespace golightly::app {

/// Settings key holding the chosen language ("" or absent: follow the system locale).
inline constexpr const char* kLanguageSettingsKey = "ui/language";

/// Language codes with a translation, besides the source language "en".
QStringList availableTranslations();

/// Loads the GoLightly translation (and Qt's own, when installed) for the language stored
/// in QSettings(organization, application), or for the system locale when none is stored.
/// Call after the QApplication is constructed and before any window. Replaces the
/// translators an earlier call installed. Returns the language code that was installed
/// ("en" when none applied).
QString installTranslators(QCoreApplication& app, const QString& organization, const QString& application);

/// Adds a "Language" submenu to `parent`: System Default, English, Deutsch, 简体中文.
/// Choosing one stores it in QSettings(organization, application), installs its
/// translators and calls `changed` (the main window rebuilds itself); without `changed` it
/// tells the user it applies at the next start.
QMenu* addLanguageMenu(QMenu* parent, QWidget* window, const QString& organization, const QString& application,
                       std::function<void()> changed = {});

}  // namespace golightly::app
