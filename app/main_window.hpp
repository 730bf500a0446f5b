// GoLightly IDE main window: menus, tool bars, the canvas and the docks around one
// EditorDocument; file handling (New/Open/Save/Save As, recent files, unsaved-changes
// prompt), settings (QSettings), autosave to a recovery file offered at the next start.
#pragma once

#include <QMainWindow>
#include <QPointer>

#include <memory>
#include <optional>
#include <variant>

#include "bitmap_import.hpp"
#include "canvas.hpp"
#include "docks.hpp"
#include "editor_document.hpp"
#include "tools.hpp"

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QTimer;
class QSettings;

namespace golightly::app {

using namespace golightly::editor;

/// Where the main window keeps settings and recovery files (tests use their own).
struct MainWindowOptions {
    QString settingsOrganization = QStringLiteral("GoLightly");
    QString settingsApplication = QStringLiteral("golightly");
    QString recoveryDir;             ///< empty: <AppLocalDataLocation>/recovery
    int autosaveIntervalMs = 3 * 60 * 1000;
    Prompts* prompts = nullptr;      ///< nullptr: message boxes
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(MainWindowOptions options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    EditorDocument* document() const { return doc_; }
    Canvas* canvas() const { return canvas_; }
    ToolSettings& toolSettings() { return toolSettings_; }
    LayersDock* layersDock() const { return layersDock_; }
    MaterialsDock* materialsDock() const { return materialsDock_; }
    PropertiesDock* propertiesDock() const { return propertiesDock_; }
    RunSetupDock* runSetupDock() const { return runDock_; }
    /// The action of a tool by its object name ("tool.rectangle", ...), or any action by name.
    QAction* action(const QString& objectName) const;
    QStringList recentFiles() const;

    bool openFile(const QString& path);
    bool saveFile();
    bool saveFileAs(const QString& path);
    /// Asks whether to save unsaved changes; false when the user cancels.
    bool maybeSave();

    /// Writes the canvas (whole domain and PML band, no grid) to `path`: SVG when it ends in
    /// .svg, else PNG (about 1600 pixels on the long side). Errors go to the prompts.
    bool exportCanvas(const QString& path);
    /// Replaces the document (after the unsaved-changes prompt) with an imported bitmap
    /// model; one undo step. Errors go to the prompts.
    bool importBitmapFile(const QString& path, const BitmapImportOptions& options);

    // ---- autosave and recovery
    QString recoveryFile() const;
    /// Writes the recovery file now when the document has unsaved changes.
    bool autosaveNow();
    /// If a recovery file from an earlier session exists, offers it (Prompts::askRecover)
    /// and loads it into the document when accepted. Returns true when recovered.
    bool offerRecovery();
    void removeRecoveryFile();

protected:
    void closeEvent(QCloseEvent*) override;

private:
    void createActions();
    void createDocks();
    void setTool(Tool* tool);
    void updateTitle();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void exportImage(bool svg);
    void importBitmap();
    void copySelection();
    void paste();
    std::unique_ptr<QSettings> settings() const;

    MainWindowOptions options_;
    std::unique_ptr<Prompts> ownPrompts_;
    Prompts* prompts_;
    EditorDocument* doc_;
    Canvas* canvas_;
    ToolSettings toolSettings_;
    std::vector<Tool*> tools_;
    QActionGroup* toolGroup_ = nullptr;
    LayersDock* layersDock_ = nullptr;
    MaterialsDock* materialsDock_ = nullptr;
    PropertiesDock* propertiesDock_ = nullptr;
    RunSetupDock* runDock_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QLabel* cursorLabel_ = nullptr;
    QLabel* zoomLabel_ = nullptr;
    QTimer* autosaveTimer_ = nullptr;
    std::optional<std::variant<Shape, Source, Monitor>> clipboard_;
};

}  // namespace golightly::app
