// GoLightly editor: the STEP file reader off the GUI thread (StepFileReader) and the
// default placement of an imported model (step_import_dialog.hpp).
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

// ---------------------------------------------------------------- reader

StepFileReader::StepFileReader(QObject* parent) : QObject(parent) {
    job_.onNews([this](News& n) {
        if (n.progress) Q_EMIT progress(n.progress->first, n.progress->second);
    });
    job_.onFinished([this](JobOutcome<Read>& o) { done(o); });
}

StepFileReader::~StepFileReader() = default;  // job_ cancels and waits

void StepFileReader::start(const QString& path) {
    if (job_.isRunning()) return;
    path_ = path;
    ok_ = cancelled_ = false;
    error_.clear();
    model_ = StepModel{};
    bytes_.clear();
    timer_.start();
    const std::string label = QFileInfo(path).fileName().toStdString();
    job_.start([path, label](BackgroundJob<Read, News>::Context& ctx) {
        Read r;
        // Regular files only, at most the STEP size limit: a FIFO or /dev/zero chosen in
        // the file dialog must neither block this thread nor exhaust memory (issue 19).
        std::string data;
        try {
            data = read_regular_file(path.toStdString(), limits::kMaxStepBytes);
        } catch (const FileReadError& e) {
            throw std::runtime_error(std::string("cannot read the file: ") + e.what());
        }
        if (data.empty()) throw std::runtime_error("the file is empty");
        r.bytes.assign(reinterpret_cast<const std::uint8_t*>(data.data()),
                       reinterpret_cast<const std::uint8_t*>(data.data()) + data.size());
        r.model = read_step(r.bytes, label, [&ctx](double fraction, const std::string& stage) {
            const QString st = qs(stage);
            ctx.post([&](News& n) { n.progress = std::make_pair(fraction, st); });
            return !ctx.cancelled();
        });
        if (r.model.solids.empty()) throw std::runtime_error("'" + label + "' holds no solid");
        return r;
    }, QStringLiteral("golightly-step-reader"));
}

void StepFileReader::done(JobOutcome<Read>& outcome) {
    seconds_ = timer_.elapsed() / 1000.0;
    ok_ = outcome.ok();
    cancelled_ = !ok_ && outcome.cancelled;
    if (ok_) {
        model_ = std::move(outcome.result->model);
        bytes_ = std::move(outcome.result->bytes);
    } else {
        error_ = cancelled_ ? tr("Reading %1 was cancelled.").arg(QDir::toNativeSeparators(path_))
                            : tr("Cannot import the STEP file %1:\n%2").arg(QDir::toNativeSeparators(path_), outcome.error);
    }
    Q_EMIT finished(ok_);
}

void StepFileReader::cancel() { job_.cancel(); }

bool StepFileReader::waitForFinished(int timeoutMs) { return job_.waitForFinished(timeoutMs); }

// ---------------------------------------------------------------- placement

StepPlacement default_step_placement(const StepModel& model, const Project& project, double scale) {
    StepPlacement p;
    p.scale = scale;
    const auto& d = project.domain;
    const double cx = 0.5 * (model.bbox_min[0] + model.bbox_max[0]);
    const double cy = 0.5 * (model.bbox_min[1] + model.bbox_max[1]);
    const double cz = 0.5 * (model.bbox_min[2] + model.bbox_max[2]);
    // 3D (issue 16): the part's z centre at the domain's z centre (slice_z is a 2D notion)
    const double zc = d.dimensions == 3 ? 0.5 * d.size[2] : d.slice_z;
    p.translate = {0.5 * d.size[0] - scale * cx, 0.5 * d.size[1] - scale * cy, zc - scale * cz};
    return p;
}

}  // namespace golightly::editor
