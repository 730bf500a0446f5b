#include "language.hpp"

#include <QActionGroup>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QTranslator>

namespace golightly::app {

QStringList availableTranslations() {
    QStringList codes;
    const QDir dir(QStringLiteral(":/i18n"));
    for (const QString& f : dir.entryList({QStringLiteral("golightly_*.qm")}, QDir::Files, QDir::Name))
        codes << f.mid(10, f.size() - 13);  // golightly_<code>.qm
    return codes;
}

QString installTranslators(QCoreApplication& app, const QString& organization, const QString& application) {
    // the translators of an earlier call go (a language chosen while running)
    for (QTranslator* old : app.findChildren<QTranslator*>(QStringLiteral("golightlyTranslator"), Qt::FindDirectChildrenOnly)) {
        QCoreApplication::removeTranslator(old);
        delete old;
    }
    const QString chosen = QSettings(organization, application).value(QLatin1String(kLanguageSettingsKey)).toString();
    QLocale locale = chosen.isEmpty() ? QLocale::system() : QLocale(chosen);
    // numbers in the language's decimal separator everywhere (spin boxes, plots, messages),
    // without group separators, as the spin boxes show them ("6000 fs", not "6.000 fs"); a
    // typed "1.000" is never read as a thousand
    locale.setNumberOptions(locale.numberOptions() | QLocale::OmitGroupSeparator | QLocale::RejectGroupSeparator);
    QLocale::setDefault(locale);
    if (chosen == QLatin1String("en")) return QStringLiteral("en");
    auto* mine = new QTranslator(&app);
    mine->setObjectName(QStringLiteral("golightlyTranslator"));
    if (!mine->load(locale, QStringLiteral("golightly"), QStringLiteral("_"), QStringLiteral(":/i18n"))) {
        delete mine;
        return QStringLiteral("en");
    }
    QCoreApplication::installTranslator(mine);
    // Qt's own strings (standard dialogs, buttons) when qt6-translations-l10n is installed.
    auto* qt = new QTranslator(&app);
    qt->setObjectName(QStringLiteral("golightlyTranslator"));
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return QFileInfo(mine->filePath()).completeBaseName().mid(10);
}

QMenu* addLanguageMenu(QMenu* parent, QWidget* window, const QString& organization, const QString& application,
                       std::function<void()> changed) {
    QMenu* menu = parent->addMenu(QCoreApplication::translate("golightly::app::Language", "&Language"));
    menu->setObjectName(QStringLiteral("view.language"));
    auto* group = new QActionGroup(menu);
    const QString current = QSettings(organization, application).value(QLatin1String(kLanguageSettingsKey)).toString();
    auto add = [&](const QString& code, const QString& label) {
        QAction* a = menu->addAction(label);
        a->setCheckable(true);
        a->setChecked(code == current);
        a->setData(code);
        a->setObjectName(QStringLiteral("view.language.") + (code.isEmpty() ? QStringLiteral("system") : code));
        group->addAction(a);
    };
    add(QString(), QCoreApplication::translate("golightly::app::Language", "System Default"));
    menu->addSeparator();
    add(QStringLiteral("en"), QStringLiteral("English"));  // language names in their own language
    for (const QString& code : availableTranslations()) {
        const QLocale l(code);
        QString name = l.nativeLanguageName();
        if (code == QLatin1String("zh_CN")) name = QStringLiteral("简体中文");
        if (!name.isEmpty()) name[0] = name[0].toUpper();
        add(code, name.isEmpty() ? code : name);
    }
    QObject::connect(group, &QActionGroup::triggered, window, [window, organization, application, changed](QAction* a) {
        QSettings(organization, application).setValue(QLatin1String(kLanguageSettingsKey), a->data().toString());
        if (changed) {
            installTranslators(*QCoreApplication::instance(), organization, application);
            changed();
            return;
        }
        QMessageBox::information(window, QCoreApplication::translate("golightly::app::Language", "Language"),
                                 QCoreApplication::translate("golightly::app::Language",
                                                             "The language changes when GoLightly is started again."));
    });
    return menu;
}

}  // namespace golightly::app
