#include "about_dialog.hpp"

#include <QDialogButtonBox>
#include <QLabel>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "golightly/version_info.hpp"

namespace golightly::app {

namespace {
struct LibraryLicence {
    const char* name;
    const char* licence;
    const char* url;
};
// Checked against /usr/share/doc/<package>/copyright on Debian 12; the full list with the
// Debian package names is packaging/THIRD_PARTY_LICENSES.txt (installed in
// /usr/share/doc/golightly/).
constexpr LibraryLicence kLibraries[] = {
    {"Qt 6", "GNU LGPL v3", "https://www.qt.io/licensing/"},
    {"QCustomPlot 2.1", "GNU GPL v3", "https://www.qcustomplot.com/"},
    {"Open CASCADE Technology 7.6", "GNU LGPL v2.1 with the Open CASCADE exception",
     "https://dev.opencascade.org/resources/licensing"},
    {"nlohmann-json 3.11", "MIT", "https://github.com/nlohmann/json"},
    {"Eigen 3.4", "MPL 2.0", "https://eigen.tuxfamily.org/"},
    {"libpng 1.6", "libpng License", "http://www.libpng.org/pub/png/"},
    {"HDF5 1.10", "BSD-style (BSD-3-Clause)", "https://www.hdfgroup.org/"},
    {"CLI11 2.1", "BSD-3-Clause", "https://github.com/CLIUtils/CLI11"},
    {"Catch2 2.13", "Boost Software License 1.0", "https://github.com/catchorg/Catch2"},
};
}  // namespace

AboutDialog::AboutDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("AboutDialog"));
    setWindowTitle(tr("About GoLightly"));
    auto* layout = new QVBoxLayout(this);
    auto* banner = new QLabel(this);
    banner->setObjectName(QStringLiteral("aboutBanner"));
    banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    banner->setText(tr("<h2>GoLightly</h2><p>A GPU FDTD IDE for photonic devices.</p><p><tt>%1</tt></p>")
                        .arg(QString::fromStdString(version_banner("golightly")).toHtmlEscaped()));
    layout->addWidget(banner);

    QString rows;
    for (const auto& lib : kLibraries) {
        const bool testsOnly = QLatin1String(lib.name).startsWith(QLatin1String("Catch2"));
        rows += QStringLiteral("<tr><td><a href=\"%1\">%2</a></td><td>%3%4</td></tr>")
                    .arg(QLatin1String(lib.url), QLatin1String(lib.name), QLatin1String(lib.licence),
                         testsOnly ? tr(" (tests only, not shipped)") : QString());
    }
    auto* licences = new QTextBrowser(this);
    licences->setObjectName(QStringLiteral("aboutLicences"));
    licences->setOpenExternalLinks(true);
    licences->setHtml(tr("<p><b>Libraries and their licences</b></p>"
                         "<table cellspacing=\"4\"><tr><th align=\"left\">Library</th>"
                         "<th align=\"left\">Licence</th></tr>%1</table>"
                         "<p>Because QCustomPlot is licensed under the GPL v3, the GoLightly IDE as a whole "
                         "is distributed under the GPL v3. The full texts are in the copyright files of "
                         "the Debian packages (/usr/share/doc/&lt;package&gt;/copyright); the list is in "
                         "/usr/share/doc/golightly/THIRD_PARTY_LICENSES.txt.</p>")
                          .arg(rows));
    licences->setMinimumSize(560, 300);
    layout->addWidget(licences, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    layout->addWidget(buttons);
}

}  // namespace golightly::app
