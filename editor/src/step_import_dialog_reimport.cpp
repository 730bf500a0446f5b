// GoLightly editor: re-import of a STEP part (reimport_step, step_import_dialog.hpp): the
// new file's solids matched by name to the embedded ones, as one undo step.
#include "step_import_dialog.hpp"

#include "number_spin_box.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "canvas.hpp"
#include "golightly/limits.hpp"
#include "golightly/safe_read.hpp"
#include "golightly/image_io.hpp"
#include "step_import_dialog_internal.hpp"

namespace golightly::editor {

using namespace step_import_detail;

// ---------------------------------------------------------------- re-import

bool reimport_step(EditorDocument* doc, const ItemRef& item, const QString& path, Prompts& prompts,
                   const StepFileReader* reader) {
    const QString title = QCoreApplication::translate("golightly::editor::StepImportDialog", "Re-import STEP");
    const QString file = QDir::toNativeSeparators(path);
    const Project& p = doc->project();
    if (item.kind != ItemRef::Kind::Shape || item.layer < 0 || item.layer >= int(p.layers.size()) || item.index < 0 ||
        item.index >= int(p.layers[size_t(item.layer)].shapes.size()) ||
        p.layers[size_t(item.layer)].shapes[size_t(item.index)].type != ShapeType::Step) {
        prompts.error(title, QCoreApplication::translate("golightly::editor::StepImportDialog",
                                                         "Select an imported STEP part to re-import."));
        return false;
    }
    const Shape& selected = p.layers[size_t(item.layer)].shapes[size_t(item.index)];
    StepModel newModel, oldModel;
    std::vector<std::uint8_t> bytes;
    if (reader) {
        if (!reader->ok()) {
            prompts.error(title, reader->error());
            return false;
        }
        newModel = reader->model();
        bytes = reader->bytes();
    } else {
        StepFileReader r;
        r.start(path);
        r.waitForFinished();
        if (!r.ok()) {
            prompts.error(title, r.error());
            return false;
        }
        newModel = r.model();
        bytes = r.bytes();
    }
    try {
        oldModel = step_shape_model(selected);
    } catch (const std::exception&) {
        // the embedded data is broken: map nothing, every solid of the new file joins `item`
    }
    auto keys = [](const StepModel& m) {
        std::vector<std::string> out;
        std::map<std::string, int> count;
        for (const StepSolid& s : m.solids) out.push_back(s.name + "#" + std::to_string(count[s.name]++));
        return out;
    };
    const std::vector<std::string> oldKeys = keys(oldModel), newKeys = keys(newModel);
    std::map<std::string, int> newIndex;
    for (int k = 0; k < int(newKeys.size()); ++k) newIndex[newKeys[size_t(k)]] = k;

    Project after = p;
    const std::string oldData = selected.data_base64;
    const std::string newData = base64_encode(bytes);
    const std::string newName = QFileInfo(path).fileName().toStdString();
    std::set<int> used;
    bool anyAll = false;
    struct Ref {
        int layer, index;
    };
    std::vector<Ref> siblings;
    for (int l = 0; l < int(after.layers.size()); ++l)
        for (int i = 0; i < int(after.layers[size_t(l)].shapes.size()); ++i) {
            Shape& s = after.layers[size_t(l)].shapes[size_t(i)];
            if (s.type != ShapeType::Step || s.data_base64 != oldData) continue;
            siblings.push_back({l, i});
            if (s.solids.empty()) {
                anyAll = true;
            } else {
                std::vector<int> mapped;
                for (int k : s.solids)
                    if (k >= 0 && k < int(oldKeys.size())) {
                        auto it = newIndex.find(oldKeys[size_t(k)]);
                        if (it != newIndex.end()) mapped.push_back(it->second);
                    }
                s.solids = mapped;
                for (int k : mapped) used.insert(k);
                if (mapped.empty()) s.solids = {-1};  // marks "nothing left" (removed below unless it is `item`)
            }
            s.data_base64 = newData;
            s.file_name = newName;
        }
    Shape& target = after.layers[size_t(item.layer)].shapes[size_t(item.index)];
    if (!anyAll) {
        // solids the old file did not have join `item` when the slice plane cuts them;
        // solids the old file had but no shape used stay left out
        const std::set<std::string> oldKeySet(oldKeys.begin(), oldKeys.end());
        std::vector<int> extra;
        for (int k = 0; k < int(newKeys.size()); ++k) {
            if (used.count(k) || oldKeySet.count(newKeys[size_t(k)])) continue;
            try {
                Shape probe = target;
                probe.solids = {k};
                if (!step_section_solids(probe, after.domain.slice_z, section_tolerance(probe)).empty()) extra.push_back(k);
            } catch (const std::exception&) {
            }
        }
        if (target.solids == std::vector<int>{-1}) target.solids.clear();
        if (!extra.empty()) {
            target.solids.insert(target.solids.end(), extra.begin(), extra.end());
            std::sort(target.solids.begin(), target.solids.end());
        }
        if (target.solids.empty()) target.solids = {-1};
        if (int(target.solids.size()) == int(newKeys.size()) && siblings.size() == 1) target.solids.clear();
    }
    // drop the shapes none of whose solids is left (from the back, indices stay valid)
    for (auto it = siblings.rbegin(); it != siblings.rend(); ++it) {
        auto& shapes = after.layers[size_t(it->layer)].shapes;
        if (shapes[size_t(it->index)].solids == std::vector<int>{-1}) shapes.erase(shapes.begin() + it->index);
    }
    for (const Layer& l : after.layers)
        for (const Shape& s : l.shapes) {
            if (s.type != ShapeType::Step || s.data_base64 != newData) continue;
            try {
                checked_sections(s, after.domain.slice_z);
            } catch (const std::exception& e) {
                prompts.error(title, QCoreApplication::translate("golightly::editor::StepImportDialog",
                                                                 "Cannot re-import %1:\n%2")
                                         .arg(file, qs(e.what())));
                return false;
            }
        }
    if (const std::string problem = save_size_problem(after); !problem.empty()) {
        prompts.error(title, QCoreApplication::translate("golightly::editor::StepImportDialog", "Not re-imported: with %1 %2.")
                                 .arg(QFileInfo(path).fileName(), qs(problem)));
        return false;
    }
    doc->replaceProject(after, QCoreApplication::translate("golightly::editor::StepImportDialog", "Re-import STEP %1")
                                   .arg(QFileInfo(path).fileName()));
    return true;
}

}  // namespace golightly::editor
