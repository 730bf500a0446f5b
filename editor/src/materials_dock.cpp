// GoLightly editor: the Materials dock (materials_dock.hpp).
#include "materials_dock.hpp"

#include <QColorDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

#include "canvas.hpp"
#include "dock_util.hpp"
#include "material_editor.hpp"

namespace golightly::editor {

MaterialsDock::MaterialsDock(EditorDocument* doc, Prompts* prompts, QWidget* parent)
    : QDockWidget(tr("Materials"), parent), doc_(doc), prompts_(prompts) {
    setObjectName(QStringLiteral("MaterialsDock"));
    auto* w = new QWidget;
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(4, 4, 4, 4);
    table_ = new QTableWidget(0, ColCount);
    table_->setHorizontalHeaderLabels({tr("ID"), tr("Name"), tr("eps_inf"), tr("sigma (S/m)"), tr("Poles"), tr("Colour")});
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    v->addWidget(table_);
    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add"));
    auto* del = new QPushButton(tr("Delete"));
    auto* editB = new QPushButton(tr("Edit..."));
    editB->setToolTip(tr("Material editor: poles in rad/s, eV or THz, plot of eps, fit to measured n,k"));
    auto* libB = new QPushButton(tr("Add from library..."));
    buttons->addWidget(add);
    buttons->addWidget(del);
    buttons->addWidget(libB);
    buttons->addStretch();
    v->addLayout(buttons);
    polesLabel_ = new QLabel;
    v->addWidget(polesLabel_);
    poles_ = new QTableWidget(0, PoleColCount);
    poles_->setHorizontalHeaderLabels({tr("Kind"), tr("omega_p (rad/s)"), tr("omega_0 (rad/s)"), tr("gamma (rad/s)")});
    poles_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    poles_->verticalHeader()->hide();
    poles_->setToolTip(tr("eps(w) = eps_inf + sum omega_p^2 / (omega_0^2 - w^2 - i w gamma); omega_0 = 0 for Drude poles.\n"
                          "Kind: type drude or lorentz."));
    poles_->setMaximumHeight(120);
    v->addWidget(poles_);
    auto* poleButtons = new QHBoxLayout;
    auto* addPoleB = new QPushButton(tr("Add pole"));
    auto* delPoleB = new QPushButton(tr("Remove pole"));
    poleButtons->addWidget(addPoleB);
    poleButtons->addWidget(delPoleB);
    poleButtons->addWidget(editB);
    poleButtons->addStretch();
    v->addLayout(poleButtons);
    setWidget(w);
    connect(addPoleB, &QPushButton::clicked, this, &MaterialsDock::addPole);
    connect(delPoleB, &QPushButton::clicked, this, &MaterialsDock::removeSelectedPole);
    connect(poles_, &QTableWidget::cellChanged, this, &MaterialsDock::poleEdited);
    connect(table_, &QTableWidget::currentCellChanged, this, [this] {
        if (!updating_) refreshPoles();
    });
    connect(add, &QPushButton::clicked, this, &MaterialsDock::addMaterial);
    connect(del, &QPushButton::clicked, this, &MaterialsDock::deleteSelectedMaterial);
    connect(table_, &QTableWidget::cellChanged, this, &MaterialsDock::cellEdited);
    connect(editB, &QPushButton::clicked, this, &MaterialsDock::editSelectedMaterial);
    connect(libB, &QPushButton::clicked, this, &MaterialsDock::addFromLibrary);
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int col) {
        if (col == ColPoles && row >= 0 && row < int(doc_->project().materials.size())) {
            editSelectedMaterial();
            return;
        }
        if (col != ColColor || row < 0 || row >= int(doc_->project().materials.size())) return;
        const QColor start = material_color(doc_->project(), doc_->project().materials[size_t(row)].id);
        const QColor c = QColorDialog::getColor(start, this, tr("Material colour"));
        if (!c.isValid()) return;
        doc_->editProject(tr("Set material colour"),
                          [&](Project& p) { p.materials[size_t(row)].color = c.name().toStdString(); });
    });
    connect(doc_, &EditorDocument::changed, this, &MaterialsDock::refresh);
    refresh();
}

void MaterialsDock::refresh() {
    updating_ = true;
    const Project& p = doc_->project();
    const int current = table_->currentRow();
    table_->setRowCount(int(p.materials.size()));
    for (int r = 0; r < int(p.materials.size()); ++r) {
        const Material& m = p.materials[size_t(r)];
        auto set = [&](int col, const QString& text, bool editable) {
            auto* item = new QTableWidgetItem(text);
            if (!editable) item->setFlags(item->flags() & ~Qt::ItemIsEditable);
            table_->setItem(r, col, item);
            return item;
        };
        set(ColId, qs(m.id), true);
        set(ColName, qs(m.name), true);
        set(ColEps, QString::number(m.epsilon_inf, 'g', 8), true);
        set(ColSigma, QString::number(m.conductivity, 'g', 8), true);
        set(ColPoles, QString::number(m.poles.size()), false)->setToolTip(tr("Dispersion poles: double-click to open the material editor"));
        auto* c = set(ColColor, qs(m.color), false);
        c->setIcon(swatch(material_color(p, m.id)));
        c->setToolTip(tr("Double-click to choose the colour"));
    }
    if (current >= 0 && current < table_->rowCount()) table_->setCurrentCell(current, 0);
    else if (table_->rowCount() > 0) table_->setCurrentCell(0, 0);
    updating_ = false;
    refreshPoles();
}

void MaterialsDock::refreshPoles() {
    updating_ = true;
    const Project& p = doc_->project();
    const int row = table_->currentRow();
    const bool valid = row >= 0 && row < int(p.materials.size());
    poles_->setRowCount(0);
    poles_->setEnabled(valid);
    if (valid) {
        const Material& m = p.materials[size_t(row)];
        polesLabel_->setText(tr("Dispersion poles of \"%1\"").arg(qs(m.id)));
        poles_->setRowCount(int(m.poles.size()));
        for (int r = 0; r < int(m.poles.size()); ++r) {
            const Pole& pole = m.poles[size_t(r)];
            poles_->setItem(r, PoleKind, new QTableWidgetItem(pole.kind == golightly::PoleKind::Drude ? QStringLiteral("drude")
                                                                                                 : QStringLiteral("lorentz")));
            poles_->setItem(r, PoleOmegaP, new QTableWidgetItem(QString::number(pole.omega_p, 'g', 8)));
            poles_->setItem(r, PoleOmega0, new QTableWidgetItem(QString::number(pole.omega_0, 'g', 8)));
            poles_->setItem(r, PoleGamma, new QTableWidgetItem(QString::number(pole.gamma, 'g', 8)));
        }
    } else {
        polesLabel_->setText(tr("Dispersion poles (select a material)"));
    }
    updating_ = false;
}

void MaterialsDock::poleEdited(int r, int col) {
    if (updating_) return;
    const int row = table_->currentRow();
    const Project& p = doc_->project();
    if (row < 0 || row >= int(p.materials.size()) || r < 0 || r >= int(p.materials[size_t(row)].poles.size())) return;
    const QString text = poles_->item(r, col)->text().trimmed();
    Pole pole = p.materials[size_t(row)].poles[size_t(r)];
    bool ok = true;
    if (col == PoleKind) {
        if (text.compare(QStringLiteral("drude"), Qt::CaseInsensitive) == 0) {
            pole.kind = golightly::PoleKind::Drude;
            pole.omega_0 = 0;
        } else if (text.compare(QStringLiteral("lorentz"), Qt::CaseInsensitive) == 0) {
            pole.kind = golightly::PoleKind::Lorentz;
        } else {
            ok = false;
        }
    } else {
        const double v = text.toDouble(&ok);
        ok = ok && std::isfinite(v) && v >= 0;
        if (ok) (col == PoleOmegaP ? pole.omega_p : col == PoleOmega0 ? pole.omega_0 : pole.gamma) = v;
    }
    if (!ok) {
        prompts_->error(tr("Pole"), tr("\"%1\" is not a valid value here.").arg(text));
        QTimer::singleShot(0, this, &MaterialsDock::refreshPoles);
        return;
    }
    doc_->editProject(tr("Edit pole"), [&](Project& pr) { pr.materials[size_t(row)].poles[size_t(r)] = pole; });
}

void MaterialsDock::addPole() {
    const int row = table_->currentRow();
    if (row < 0 || row >= int(doc_->project().materials.size())) return;
    Pole pole;
    pole.kind = golightly::PoleKind::Lorentz;
    pole.omega_p = 1e15;
    pole.omega_0 = 2e15;
    pole.gamma = 1e13;
    doc_->editProject(tr("Add pole"), [&](Project& pr) { pr.materials[size_t(row)].poles.push_back(pole); });
}

void MaterialsDock::removeSelectedPole() {
    const int row = table_->currentRow();
    const int r = poles_->currentRow();
    const Project& p = doc_->project();
    if (row < 0 || row >= int(p.materials.size()) || r < 0 || r >= int(p.materials[size_t(row)].poles.size())) return;
    doc_->editProject(tr("Remove pole"), [&](Project& pr) {
        auto& poles = pr.materials[size_t(row)].poles;
        poles.erase(poles.begin() + r);
    });
}

void MaterialsDock::cellEdited(int row, int col) {
    if (updating_) return;
    const Project& p = doc_->project();
    if (row < 0 || row >= int(p.materials.size())) return;
    const QString text = table_->item(row, col)->text().trimmed();
    const std::string oldId = p.materials[size_t(row)].id;
    bool ok = true;
    switch (col) {
    case ColId: {
        const std::string id = text.toStdString();
        bool clash = id.empty() || id == "air";
        for (int i = 0; i < int(p.materials.size()); ++i) clash |= (i != row && p.materials[size_t(i)].id == id);
        if (clash) {
            prompts_->error(tr("Material id"), tr("The id \"%1\" is empty or already used.").arg(text));
            refresh();
            return;
        }
        // rename the references too
        doc_->editProject(tr("Rename material"), [&](Project& pr) {
            pr.materials[size_t(row)].id = id;
            for (auto& l : pr.layers)
                if (l.material == oldId) l.material = id;
            if (pr.domain.background == oldId) pr.domain.background = id;
        });
        return;
    }
    case ColName:
        doc_->editProject(tr("Rename material"), [&](Project& pr) { pr.materials[size_t(row)].name = text.toStdString(); });
        return;
    case ColEps: {
        const double v = text.toDouble(&ok);
        if (!ok || !(v >= 1e-6) || !std::isfinite(v)) break;
        doc_->editProject(tr("Edit eps_inf"), [&](Project& pr) { pr.materials[size_t(row)].epsilon_inf = v; });
        return;
    }
    case ColSigma: {
        const double v = text.toDouble(&ok);
        if (!ok || !(v >= 0) || !std::isfinite(v)) break;
        doc_->editProject(tr("Edit conductivity"), [&](Project& pr) { pr.materials[size_t(row)].conductivity = v; });
        return;
    }
    default: return;
    }
    prompts_->error(tr("Material"), tr("\"%1\" is not a valid value here.").arg(text));
    QTimer::singleShot(0, this, &MaterialsDock::refresh);
}

void MaterialsDock::addMaterial() {
    const Project& p = doc_->project();
    Material m;
    for (int n = 1;; ++n) {
        const std::string id = "material" + std::to_string(n);
        bool used = false;
        for (const auto& x : p.materials) used |= x.id == id;
        if (!used) { m.id = id; break; }
    }
    m.name = tr("New material").toStdString();
    m.epsilon_inf = 2.25;
    m.color = QColor::fromHsv(int(p.materials.size() * 67 % 360), 150, 210).name().toStdString();
    doc_->editProject(tr("Add material"), [&](Project& pr) { pr.materials.push_back(m); });
    table_->setCurrentCell(table_->rowCount() - 1, 0);
}

MaterialEditorDialog* MaterialsDock::editSelectedMaterial() {
    const int row = table_->currentRow();
    if (row < 0 || row >= int(doc_->project().materials.size())) return nullptr;
    if (editor_ && editor_->materialIndex() != row) {
        editor_->close();
        editor_->deleteLater();
        editor_ = nullptr;
    }
    if (!editor_) editor_ = new MaterialEditorDialog(doc_, prompts_, row, this);
    editor_->show();
    editor_->raise();
    editor_->activateWindow();
    return editor_;
}

void MaterialsDock::addFromLibrary() {
    MaterialLibraryDialog dialog(this);
    if (!dialog.error().isEmpty()) {
        prompts_->error(tr("Material library"), dialog.error());
        return;
    }
    if (dialog.exec() != QDialog::Accepted) return;
    if (const auto lm = dialog.selected()) addLibraryMaterial(lm->material);
}

int MaterialsDock::addLibraryMaterial(const Material& material) {
    Material m = material;
    auto used = [this](const QString& id) {
        if (id == QLatin1String("air")) return true;
        return doc_->project().find_material(id.toStdString()) != nullptr;
    };
    QString id = qs(m.id);
    if (used(id)) {  // a second copy: the user names it (no silent "_2")
        QString proposal = id;
        for (int n = 2; used(proposal); ++n) proposal = QStringLiteral("%1_%2").arg(id).arg(n);
        QString question = tr("The project already has a material \"%1\". Id of the new copy:").arg(id);
        bool named = false;
        for (int attempt = 0; attempt < 5 && !named; ++attempt) {
            const std::optional<QString> answer = prompts_->askText(tr("Add material"), question, proposal);
            if (!answer) return -1;
            const QString name = answer->trimmed();
            if (!name.isEmpty() && !used(name) && !name.contains(QLatin1Char('"'))) {
                id = name;
                named = true;
                break;
            }
            question = name.isEmpty() ? tr("The id must not be empty. Id of the new copy:")
                                      : tr("\"%1\" is taken too. Id of the new copy:").arg(name);
        }
        if (!named) return -1;
    }
    m.id = id.toStdString();
    const int row = add_library_material(doc_, m);
    table_->setCurrentCell(row, 0);
    return row;
}

void MaterialsDock::deleteSelectedMaterial() {
    const int row = table_->currentRow();
    const Project& p = doc_->project();
    if (row < 0 || row >= int(p.materials.size())) return;
    const std::string id = p.materials[size_t(row)].id;
    bool used = p.domain.background == id;
    for (const auto& l : p.layers) used |= l.material == id;
    if (used) {
        prompts_->error(tr("Delete material"),
                        tr("The material \"%1\" is used by a layer or as the background.").arg(qs(id)));
        return;
    }
    doc_->editProject(tr("Delete material"), [&](Project& pr) { pr.materials.erase(pr.materials.begin() + row); });
}

}  // namespace golightly::editor
