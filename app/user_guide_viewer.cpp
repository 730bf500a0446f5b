#include "user_guide_viewer.hpp"

#include <QAction>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QScrollBar>
#include <QStyle>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextImageFormat>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <vector>


namespace golightly::app {

namespace {

const char* kOnlineGuide = "https://github.com/golightly/golightly/blob/main/docs/user-guide.md";

/// Local files shown in the viewer itself (by suffix); anything else goes to the desktop.
bool shownHere(const QUrl& url) {
    if (!url.isLocalFile()) return false;
    const QString suffix = QFileInfo(url.toLocalFile()).suffix().toLower();
    return suffix == QLatin1String("md") || suffix == QLatin1String("markdown") || suffix == QLatin1String("html") ||
           suffix == QLatin1String("htm") || suffix == QLatin1String("txt");
}

QTextDocument::ResourceType typeOf(const QUrl& url) {
    const QString suffix = QFileInfo(url.toLocalFile()).suffix().toLower();
    if (suffix == QLatin1String("md") || suffix == QLatin1String("markdown")) return QTextDocument::MarkdownResource;
    if (suffix == QLatin1String("txt")) return QTextDocument::UnknownResource;
    return QTextDocument::HtmlResource;
}

}  // namespace

UserGuideViewer::UserGuideViewer(QWidget* parent) : QWidget(parent, Qt::Window) {
    setObjectName(QStringLiteral("userGuide"));
    setWindowTitle(tr("GoLightly User Guide"));
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 6, 6, 6);
    auto* bar = new QHBoxLayout;
    auto tool = [&](QStyle::StandardPixmap icon, const QString& name, const QString& tip) {
        auto* b = new QToolButton;
        b->setObjectName(name);
        b->setIcon(style()->standardIcon(icon));
        b->setToolTip(tip);
        bar->addWidget(b);
        return b;
    };
    back_ = tool(QStyle::SP_ArrowBack, QStringLiteral("guide.back"), tr("Back (Alt+Left)"));
    forward_ = tool(QStyle::SP_ArrowForward, QStringLiteral("guide.forward"), tr("Forward (Alt+Right)"));
    home_ = tool(QStyle::SP_DirHomeIcon, QStringLiteral("guide.home"), tr("The guide's first page"));
    back_->setShortcut(QKeySequence::Back);
    forward_->setShortcut(QKeySequence::Forward);
    bar->addSpacing(12);
    find_ = new QLineEdit;
    find_->setObjectName(QStringLiteral("guide.find"));
    find_->setPlaceholderText(tr("Find in the guide (Ctrl+F, Enter: next)"));
    find_->setClearButtonEnabled(true);
    bar->addWidget(find_, 1);
    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("guide.status"));
    bar->addWidget(status_);
    v->addLayout(bar);
    browser_ = new QTextBrowser;
    browser_->setObjectName(QStringLiteral("guide.browser"));
    browser_->setOpenLinks(false);  // followLink decides: here or the desktop
    v->addWidget(browser_, 1);
    browser_->viewport()->installEventFilter(this);

    auto* findAction = new QAction(this);
    findAction->setShortcut(QKeySequence::Find);
    findAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(findAction);
    connect(findAction, &QAction::triggered, this, [this] {
        find_->setFocus();
        find_->selectAll();
    });
    connect(find_, &QLineEdit::returnPressed, this, [this] { findNext(find_->text()); });
    connect(find_, &QLineEdit::textEdited, this, [this](const QString& t) {
        // search again from the top as the word is typed
        QTextCursor c = browser_->textCursor();
        c.movePosition(QTextCursor::Start);
        browser_->setTextCursor(c);
        if (!t.isEmpty()) findNext(t);
        else status_->clear();
    });
    connect(browser_, &QTextBrowser::anchorClicked, this, &UserGuideViewer::followLink);
    connect(back_, &QToolButton::clicked, browser_, &QTextBrowser::backward);
    connect(forward_, &QToolButton::clicked, browser_, &QTextBrowser::forward);
    connect(home_, &QToolButton::clicked, this, [this] {
        if (homeUrl_.isValid()) browser_->setSource(homeUrl_, typeOf(homeUrl_));
    });
    connect(browser_, &QTextBrowser::backwardAvailable, back_, &QToolButton::setEnabled);
    connect(browser_, &QTextBrowser::forwardAvailable, forward_, &QToolButton::setEnabled);
    connect(browser_, &QTextBrowser::sourceChanged, this, [this](const QUrl& url) {
        browser_->setSearchPaths({QFileInfo(url.toLocalFile()).absolutePath()});
        fitImages();
        status_->clear();
    });
    back_->setEnabled(false);
    forward_->setEnabled(false);
    resize(900, 760);
}

bool UserGuideViewer::openGuide(const QString& path) {
    const QFileInfo fi(path);
    if (path.isEmpty() || !fi.isFile() || !fi.isReadable()) {
        homeUrl_ = QUrl();
        browser_->clearHistory();
        const QString app = QDir::toNativeSeparators(QCoreApplication::applicationDirPath() +
                                                     QStringLiteral("/../share/doc/golightly/user-guide.md"));
        browser_->setHtml(tr("<h2>The user guide was not found</h2>"
                             "<p>GoLightly looks for <code>user-guide.md</code> in <code>%1</code> and "
                             "<code>/usr/share/doc/golightly/</code> (the package installs it there) and, when it runs "
                             "from a build, in the source tree's <code>docs/</code>.</p>"
                             "<p>The guide is also online: <a href=\"%2\">%2</a></p>")
                              .arg(app.toHtmlEscaped(), QString::fromLatin1(kOnlineGuide)));
        return false;
    }
    homeUrl_ = QUrl::fromLocalFile(fi.absoluteFilePath());
    browser_->setSearchPaths({fi.absolutePath()});
    browser_->setSource(homeUrl_, QTextDocument::MarkdownResource);
    browser_->clearHistory();
    fitImages();
    return true;
}

QUrl UserGuideViewer::source() const { return homeUrl_.isValid() ? browser_->source() : QUrl(); }

void UserGuideViewer::followLink(const QUrl& link) {
    const QUrl url = link.isRelative() ? browser_->source().resolved(link) : link;
    if (url.isLocalFile() && (shownHere(url) || (url.hasFragment() && url.adjusted(QUrl::RemoveFragment) ==
                                                                           browser_->source().adjusted(QUrl::RemoveFragment)))) {
        if (QFileInfo::exists(url.toLocalFile())) {
            browser_->setSource(url, typeOf(url));
            return;
        }
        status_->setText(tr("Not found: %1").arg(QDir::toNativeSeparators(url.toLocalFile())));
        return;
    }
    lastExternal_ = url;
    if (!QDesktopServices::openUrl(url)) status_->setText(tr("No program opens %1").arg(url.toString()));
}

bool UserGuideViewer::findNext(const QString& text) {
    if (text.isEmpty()) return false;
    bool found = browser_->find(text);
    if (!found) {  // wrap around
        QTextCursor c = browser_->textCursor();
        c.movePosition(QTextCursor::Start);
        browser_->setTextCursor(c);
        found = browser_->find(text);
    }
    status_->setText(found ? QString() : tr("\"%1\" is not in this page").arg(text));
    return found;
}

bool UserGuideViewer::eventFilter(QObject* watched, QEvent* event) {
    // the page's width is the viewport's, which the layout sets after this widget's resize
    if (watched == browser_->viewport() && event->type() == QEvent::Resize) fitImages();
    return QWidget::eventFilter(watched, event);
}

void UserGuideViewer::fitImages() {
    // screenshots are wider than a reading window: scale each picture to fit the page
    QTextDocument* doc = browser_->document();
    const double room = std::max(200, browser_->viewport()->width() - 40);
    struct Fit {
        int position, length;
        QTextImageFormat format;
    };
    std::vector<Fit> fits;  // collected first: a format change splits and merges fragments
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            if (!f.isValid() || !f.charFormat().isImageFormat()) continue;
            QTextImageFormat img = f.charFormat().toImageFormat();
            QSizeF natural;
            const auto sizeOf = [&natural](const QVariant& v) {
                if (natural.isEmpty() && v.canConvert<QImage>()) natural = v.value<QImage>().size();
                if (natural.isEmpty() && v.canConvert<QPixmap>()) natural = v.value<QPixmap>().size();
                if (natural.isEmpty() && v.typeId() == QMetaType::QByteArray) natural = QImage::fromData(v.toByteArray()).size();
            };
            sizeOf(doc->resource(QTextDocument::ImageResource, QUrl(img.name())));
            // not loaded yet: the browser resolves the relative name against the page
            if (natural.isEmpty()) sizeOf(browser_->loadResource(QTextDocument::ImageResource, QUrl(img.name())));
            if (natural.isEmpty()) continue;
            const double w = std::min(double(natural.width()), room);
            if (std::abs(img.width() - w) < 0.5) continue;
            img.setWidth(w);
            img.setHeight(natural.height() * w / natural.width());
            fits.push_back({f.position(), f.length(), img});
        }
    }
    QTextCursor edit(doc);
    for (const Fit& f : fits) {
        edit.setPosition(f.position);
        edit.setPosition(f.position + f.length, QTextCursor::KeepAnchor);
        edit.setCharFormat(f.format);
    }
    const bool changed = !fits.empty();
    if (changed) doc->setModified(false);
}

}  // namespace golightly::app
