#include "start_page.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

#include "canvas.hpp"
#include "editor_document.hpp"

namespace golightly::app {

namespace {
QString firstExisting(const QStringList& candidates) {
    for (const QString& c : candidates)
        if (!c.isEmpty() && QFileInfo::exists(c)) return QFileInfo(c).absoluteFilePath();
    return {};
}

struct SilentPrompts : editor::Prompts {
    void error(const QString&, const QString&) override {}
    SaveChoice askSaveChanges(const QString&) override { return SaveChoice::Discard; }
    bool askRecover(const QString&) override { return false; }
};

}  // namespace

QString exampleTitle(const QString& path) {
    const QString base = QFileInfo(path).completeBaseName();
    if (base == QLatin1String("quickstart")) return StartPage::tr("Quick start: a waveguide bend");
    if (base == QLatin1String("fresnel_slab")) return StartPage::tr("Fresnel slab (R = 0.25)");
    if (base == QLatin1String("waveguide_bend")) return StartPage::tr("90-degree waveguide bend");
    if (base == QLatin1String("ring_resonator")) return StartPage::tr("Ring resonator");
    if (base == QLatin1String("gold_grating")) return StartPage::tr("Gold slit grating");
    if (base == QLatin1String("step_import")) return StartPage::tr("STEP import: ring filter");
    if (base == QLatin1String("oblique_slab")) return StartPage::tr("Glass slab at 30° (Bloch)");
    if (base == QLatin1String("grating_normal_2d")) return StartPage::tr("Si grating: diffraction orders");
    if (base == QLatin1String("grating_20deg_2d")) return StartPage::tr("Si grating lit at 20°");
    if (base == QLatin1String("inverse_design_bend_2d")) return StartPage::tr("Inverse design: a waveguide bend");
    if (base == QLatin1String("inverse_design_mode_converter_2d"))
        return StartPage::tr("Inverse design: a TE0 to TE1 mode converter");
    // the 3D examples, marked as the Examples menu marks them
    const QString threeD = StartPage::tr(" (3D)");
    if (base == QLatin1String("dipole_ground_plane_3d")) return StartPage::tr("Dipole over a ground plane") + threeD;
    if (base == QLatin1String("gold_nanosphere_3d")) return StartPage::tr("Gold nanosphere") + threeD;
    if (base == QLatin1String("gold_nanosphere_bcalm_3d")) return StartPage::tr("Gold nanosphere, B-CALM case") + threeD;
    if (base == QLatin1String("gold_nanosphere_bcalm_3d_fine"))
        return StartPage::tr("Gold nanosphere, B-CALM case, %1 nm cells").arg(QLocale().toString(0.25)) + threeD;
    if (base == QLatin1String("sphere_scattering_3d")) return StartPage::tr("Scattering by a dielectric sphere") + threeD;
    if (base == QLatin1String("strip_sparams_3d")) return StartPage::tr("Si strip: S-parameters") + threeD;
    if (base == QLatin1String("strip_symmetry_3d")) return StartPage::tr("Si strip taper, mirror symmetry") + threeD;
    if (base == QLatin1String("strip_waveguide_3d")) return StartPage::tr("Si strip taper") + threeD;
    QString title = base;
    title.replace(QLatin1Char('_'), QLatin1Char(' '));
    if (base.endsWith(QLatin1String("_3d"))) title = title.chopped(3) + threeD;
    if (!title.isEmpty()) title[0] = title[0].toUpper();
    return title;
}

QString examplesDirectory() {
    const QString app = QCoreApplication::applicationDirPath();
    return firstExisting({qEnvironmentVariable("GOLIGHTLY_EXAMPLES"), app + QStringLiteral("/../share/golightly/examples"),
#ifdef GOLIGHTLY_SOURCE_EXAMPLES
                          QStringLiteral(GOLIGHTLY_SOURCE_EXAMPLES),
#endif
                          QStringLiteral("/usr/share/golightly/examples")});
}

QString userGuidePath() {
    const QString app = QCoreApplication::applicationDirPath();
    return firstExisting({app + QStringLiteral("/../share/doc/golightly/user-guide.md"),
#ifdef GOLIGHTLY_SOURCE_DOCS
                          QStringLiteral(GOLIGHTLY_SOURCE_DOCS "/user-guide.md"),
#endif
                          QStringLiteral("/usr/share/doc/golightly/user-guide.md")});
}

QImage StartPage::renderExample(const QString& path, QSize size, std::vector<std::pair<QString, QRectF>>* labels) {
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    img.fill(QColor(250, 250, 250));
    SilentPrompts prompts;
    editor::EditorDocument doc;
    if (!doc.open(path, prompts)) return img;
    editor::Canvas canvas(&doc);
    canvas.resize(size);
    const QRectF scene = canvas.sceneRect();
    if (scene.isEmpty()) return img;
    // a margin around the domain: item labels drawn beside a monitor or source at its edge
    // (a port's name, "through") stay inside the picture
    const double s = 0.8 * std::min(size.width() / scene.width(), size.height() / scene.height());
    const QSizeF drawn(scene.width() * s, scene.height() * s);
    QPainter p(&img);
    canvas.renderScene(p, QRectF(QPointF((size.width() - drawn.width()) / 2, (size.height() - drawn.height()) / 2), drawn),
                       false);
    if (labels) *labels = canvas.drawnLabels();
    return img;
}

StartPage::StartPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("StartPage"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto* body = new QWidget;
    scroll->setWidget(body);
    auto* v = new QVBoxLayout(body);
    v->setContentsMargins(36, 28, 36, 28);
    v->setSpacing(14);

    auto* title = new QLabel(tr("<h1>Welcome to GoLightly</h1>"
                                "<p>Draw a photonic device on layers, press <b>Run (F5)</b> and watch the light "
                                "travel through it while the transmission and reflection spectra fill in.</p>"));
    title->setWordWrap(true);
    v->addWidget(title);

    auto* buttons = new QHBoxLayout;
    auto* newB = new QPushButton(tr("New Project"));
    newB->setObjectName(QStringLiteral("startNew"));
    newB->setToolTip(tr("A new project: a 10 x 8 µm domain with silicon and silica (Ctrl+N)"));
    auto* openB = new QPushButton(tr("Open Project..."));
    openB->setObjectName(QStringLiteral("startOpen"));
    auto* guideB = new QPushButton(tr("User Guide"));
    guideB->setObjectName(QStringLiteral("startGuide"));
    guideB->setToolTip(tr("The first steps, the tools and the run, explained (F1)"));
    for (QPushButton* b : {newB, openB, guideB}) {
        b->setMinimumHeight(34);
        buttons->addWidget(b);
    }
    buttons->addStretch(1);
    v->addLayout(buttons);
    connect(newB, &QPushButton::clicked, this, &StartPage::newProjectRequested);
    connect(openB, &QPushButton::clicked, this, &StartPage::openRequested);
    connect(guideB, &QPushButton::clicked, this, &StartPage::userGuideRequested);

    v->addWidget(new QLabel(tr("<h3>Examples</h3>")));
    examplesGrid_ = new QGridLayout;
    examplesGrid_->setSpacing(12);
    examplesGrid_->setColumnStretch(3, 1);  // the pictures stay together at the left
    v->addLayout(examplesGrid_);
    const QString dir = examplesDirectory();
    if (!dir.isEmpty()) {
        const QStringList order{QStringLiteral("quickstart"), QStringLiteral("fresnel_slab"), QStringLiteral("waveguide_bend"),
                                QStringLiteral("ring_resonator"), QStringLiteral("gold_grating"), QStringLiteral("step_import")};
        QStringList files = QDir(dir).entryList({QStringLiteral("*.glproj")}, QDir::Files, QDir::Name);
        std::stable_sort(files.begin(), files.end(), [&](const QString& a, const QString& b) {
            auto rank = [&](const QString& f) {
                const int i = order.indexOf(QFileInfo(f).completeBaseName());
                return i < 0 ? 100 : i;
            };
            return rank(a) < rank(b);
        });
        int k = 0;
        for (const QString& f : files) {
            const QString path = QDir(dir).filePath(f);
            examples_ << path;
            auto* b = new QToolButton;
            b->setObjectName(QStringLiteral("example.") + QFileInfo(f).completeBaseName());
            b->setToolButtonStyle(Qt::ToolButtonTextUnderIcon);
            b->setText(exampleTitle(path));
            b->setToolTip(QDir::toNativeSeparators(path));
            b->setIconSize(QSize(200, 130));
            b->setAutoRaise(true);
            connect(b, &QToolButton::clicked, this, [this, path] { Q_EMIT openFileRequested(path); });
            examplesGrid_->addWidget(b, k / 3, k % 3);
            // the picture comes after the page is shown (the STEP example reads its solids)
            QTimer::singleShot(50 + 40 * k, b, [b, path] { b->setIcon(QIcon(QPixmap::fromImage(renderExample(path, QSize(200, 130))))); });
            ++k;
        }
    } else {
        v->addWidget(new QLabel(tr("The examples folder was not found.")));
    }

    v->addWidget(new QLabel(tr("<h3>Recent projects</h3>")));
    recentLayout_ = new QVBoxLayout;
    v->addLayout(recentLayout_);
    v->addStretch(1);
}

void StartPage::setRecentFiles(const QStringList& recent) {
    while (QLayoutItem* it = recentLayout_->takeAt(0)) {
        delete it->widget();
        delete it;
    }
    int shown = 0;
    for (const QString& path : recent) {
        if (!QFileInfo::exists(path)) continue;
        auto* l = new QLabel(QStringLiteral("<a href=\"%1\">%2</a> &nbsp; <span style=\"color:gray\">%3</span>")
                                 .arg(path.toHtmlEscaped(), QFileInfo(path).fileName().toHtmlEscaped(),
                                      QDir::toNativeSeparators(QFileInfo(path).absolutePath()).toHtmlEscaped()));
        l->setObjectName(QStringLiteral("recentFile"));
        l->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
        connect(l, &QLabel::linkActivated, this, &StartPage::openFileRequested);
        recentLayout_->addWidget(l);
        ++shown;
    }
    if (shown == 0) recentLayout_->addWidget(new QLabel(tr("No recent projects yet.")));
}

}  // namespace golightly::app
