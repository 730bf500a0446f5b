// GoLightly editor: the Properties rows of the selected design region
// (PropertiesDock::designRows; design.regions[0] of the project's `design` section,
// design_region.hpp): name, box, pixel edge, the two materials, the start density, the
// filter, the projection (its kind, its beta schedule: a list, or beta growing to beta
// max, and its threshold eta), the minimum length scale, the robust (three-field) design with its dilated and
// eroded thresholds and the fixed boxes (each: solid / void, Delete, its corners). Each entry is one
// undo step; the rules are the reader's (docs/spec/project-format.md "Inverse design"), so
// a value the optimizer would refuse is marked red instead of being applied.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <optional>

#include "design_region.hpp"
#include "dock_util.hpp"
#include "golightly/design_spec.hpp"
#include "properties_dock.hpp"

namespace golightly::editor {

namespace {
double numberAt(const Json& o, const char* key, double fallback) {
    return o.is_object() && o.contains(key) && o[key].is_number() ? o[key].get<double>() : fallback;
}
/// Empty when `width` is a whole number of pixels of edge `px` (the reader's 1e-6 rule).
QString wholePixels(double width, double px) {
    if (!(px > 0) || !(width > 0)) return PropertiesDock::tr("must leave a box wider than 0");
    const double q = width / px;
    if (std::llround(q) < 1 || std::abs(q - double(std::llround(q))) > 1e-6 * std::max(1.0, q))
        return PropertiesDock::tr("the box must be a whole number of pixels (%1 um / %2 um = %3)")
            .arg(width, 0, 'g', 6)
            .arg(px, 0, 'g', 6)
            .arg(q, 0, 'g', 6);
    return {};
}

/// The projection's beta list (projection.betas) as typed: "4, 8, 16, 32, inf"; empty
/// when the region has none (the geometric schedule of beta, beta_factor, beta_max).
QString betaListText(const Json& proj) {
    if (!proj.contains("betas") || !proj["betas"].is_array()) return {};
    QStringList parts;
    for (const Json& b : proj["betas"]) {
        if (b.is_number()) parts << QString::number(b.get<double>(), 'g', 10);
        else if (b.is_string()) parts << qs(b.get<std::string>());
        else parts << QString::fromStdString(b.dump());
    }
    return parts.join(QStringLiteral(", "));
}

/// The rules of design.regions[i].robust (design_spec.cpp): 0 < eta_dilated < eta and
/// eta < eta_eroded < 1, eta the projection's threshold. Empty: valid.
QString robustDilatedRule(double v, double eta) {
    return v > 0 && v < eta ? QString()
                            : PropertiesDock::tr("must lie between 0 and the projection's eta (%1), found %2").arg(eta).arg(v);
}
QString robustErodedRule(double v, double eta) {
    return v > eta && v < 1 ? QString()
                            : PropertiesDock::tr("must lie between the projection's eta (%1) and 1, found %2").arg(eta).arg(v);
}

/// The rule of design.regions[i].projection.eta: 0 < eta < 1 (the reader takes [0, 1], but
/// at 0 or 1 the tanh projection maps every density to one side: no threshold left), and,
/// with the robust design, the dilated and eroded thresholds on either side of it (the
/// reader's robustDilatedRule / robustErodedRule, checked with eta as entered). `rb` is the
/// region's `robust` object, null without a robust design. Empty: valid.
QString projectionEtaRule(double v, const Json* rb) {
    if (!(v > 0 && v < 1)) return PropertiesDock::tr("must lie between 0 and 1, found %1").arg(v);
    if (!rb) return {};
    const double dilated = numberAt(*rb, "eta_dilated", 0.25), eroded = numberAt(*rb, "eta_eroded", 0.75);
    if (!robustDilatedRule(dilated, v).isEmpty() || !robustErodedRule(eroded, v).isEmpty())
        return PropertiesDock::tr("must lie between the robust design's dilated threshold (%1) and eroded threshold (%2), "
                                  "found %3")
            .arg(dilated)
            .arg(eroded)
            .arg(v);
    return {};
}

/// A beta list typed as "4, 8, 16, 32, inf" (commas and/or spaces between the entries)
/// checked with the reader's rules (docs/spec/project-format.md "Inverse design",
/// projection.betas): numbers > 0, none below the one before it, "inf" only as the last
/// entry and only with the smoothed projection. Returns the rule broken (empty: valid) and
/// sets `out` to the JSON list (null for an empty text: no list).
QString parseBetaList(const QString& text, bool smoothed, Json& out) {
    out = Json();
    const QStringList parts = text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    if (parts.isEmpty()) return {};
    Json list = Json::array();
    double last = 0;
    for (int k = 0; k < parts.size(); ++k) {
        const QString& e = parts[k];
        if (e.compare(QLatin1String("inf"), Qt::CaseInsensitive) == 0) {
            if (!smoothed)
                return PropertiesDock::tr("\"inf\" needs the smoothed projection (the tanh projection has no gradient at "
                                          "beta = infinity): choose Projection \"smoothed\" first");
            if (k + 1 != parts.size()) return PropertiesDock::tr("\"inf\" must be the last beta (entry %1 of %2)").arg(k + 1).arg(parts.size());
            list.push_back("inf");
            continue;
        }
        bool ok = false;
        const double v = e.toDouble(&ok);
        if (!ok || !std::isfinite(v))
            return PropertiesDock::tr("entry %1 (\"%2\") is not a number or \"inf\"; e.g. 4, 8, 16, 32, inf").arg(k + 1).arg(e);
        if (!(v > 0)) return PropertiesDock::tr("entry %1 (%2) must be greater than 0").arg(k + 1).arg(e);
        if (k > 0 && v < last)
            return PropertiesDock::tr("entry %1 (%2) must not be below the beta before it (%3)").arg(k + 1).arg(e).arg(last);
        list.push_back(v);
        last = v;
    }
    out = std::move(list);
    return {};
}
}  // namespace

void PropertiesDock::editDesign(const QString& text, const std::function<void(Json&)>& f) {
    doc_->editProject(text, [&](Project& p) {
        if (!design_region(p)) return;
        Json& r = design_region_mut(p);
        f(r);
        clip_design_fixed(r, p.domain.dimensions);  // a box edit must not leave a fixed box outside
    });
}

void PropertiesDock::designFixedRows(const Project& p) {
    const Json& r = *design_region(p);
    const QString um = tr(" µm");
    const int axes = p.domain.dimensions == 3 ? 3 : 2;
    const char* axisName[3] = {"x", "y", "z"};
    Vec3 lo, hi;
    design_box(p, lo, hi);
    const Json fixed = r.contains("fixed") && r["fixed"].is_array() ? r["fixed"] : Json::array();
    // how many pixels the boxes hold, as the optimizer counts them (by their centres)
    {
        DesignRegionSpec grid;
        grid.min = lo, grid.max = hi;
        grid.pixel_um = numberAt(r, "pixel_um", 0);
        const auto n = design_pixels(p);
        grid.pixels = n;
        for (const FixedDensityBox& b : design_fixed_boxes(p)) grid.fixed.push_back({b.min, b.max, double(b.rho)});
        if (axes == 2) {
            grid.min.z = grid.max.z = 0;
            for (auto& b : grid.fixed) b.min.z = b.max.z = 0;
        }
        int solid = 0, voids = 0;
        if (n[0] > 0)
            for (const auto& [index, rho] : grid.fixed_pixels()) (rho > 0.5 ? solid : voids) += 1;
        addInfo(tr("Fixed pixels"), fixed.empty() ? tr("none (Design Region tool: Shift+drag inside the region for a fixed "
                                                       "solid box, Ctrl+drag for a fixed void box)")
                                                  : tr("%1 solid, %2 void").arg(solid).arg(voids));
    }
    for (size_t k = 0; k < fixed.size(); ++k) {
        const Json& b = fixed[k];
        if (!b.is_object() || !b.contains("min") || !b.contains("max") || !b["min"].is_array() || !b["max"].is_array() ||
            int(b["min"].size()) < axes || int(b["max"].size()) < axes)
            continue;
        const QString box = tr("Fixed box %1").arg(k + 1);
        // its kind and a Delete button in one row
        auto* row = new QWidget;
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        auto* kind = new QComboBox;
        kind->setObjectName(QStringLiteral("designFixedKind"));
        kind->addItems({tr("solid (rho = 1)"), tr("void (rho = 0)")});
        kind->setCurrentIndex(b.contains("rho") && b["rho"].is_number() && b["rho"].get<double>() == 0 ? 1 : 0);
        connect(kind, qOverload<int>(&QComboBox::activated), this, [this, k](int i) {
            editDesign(tr("Edit fixed box"), [k, i](Json& x) {
                if (x.contains("fixed") && x["fixed"].is_array() && k < x["fixed"].size()) x["fixed"][k]["rho"] = i == 1 ? 0 : 1;
            });
        });
        auto* remove = new QPushButton(tr("Delete"));
        remove->setObjectName(QStringLiteral("designFixedDelete"));
        remove->setToolTip(tr("Remove this fixed box (its pixels are optimized again)"));
        connect(remove, &QPushButton::clicked, this, [this, k] {
            editDesign(tr("Delete fixed box"), [k](Json& x) {
                if (!x.contains("fixed") || !x["fixed"].is_array() || k >= x["fixed"].size()) return;
                x["fixed"].erase(k);
                if (x["fixed"].empty()) x.erase("fixed");
            });
        });
        h->addWidget(kind, 1);
        h->addWidget(remove);
        form_->addRow(box, row);
        for (int a = 0; a < axes; ++a) {
            const double bmin = b["min"][size_t(a)].is_number() ? b["min"][size_t(a)].get<double>() : 0;
            const double bmax = b["max"][size_t(a)].is_number() ? b["max"][size_t(a)].get<double>() : 0;
            const double rlo = lo[a], rhi = hi[a];
            for (int end = 0; end < 2; ++end) {
                const char* key = end == 0 ? "min" : "max";
                addDouble(tr("%1 %2 %3").arg(box, end == 0 ? tr("min") : tr("max"), QLatin1String(axisName[a])),
                          end == 0 ? bmin : bmax, um,
                          [this, k, a, key](double v) {
                              editDesign(tr("Edit fixed box"), [k, a, key, v](Json& x) {
                                  if (x.contains("fixed") && x["fixed"].is_array() && k < x["fixed"].size())
                                      x["fixed"][k][key][size_t(a)] = v;
                              });
                          },
                          [end, bmin, bmax, rlo, rhi](double v) {
                              if (v < rlo - 1e-9 || v > rhi + 1e-9)
                                  return tr("must lie inside the design region (%1 .. %2 um)").arg(rlo).arg(rhi);
                              if (end == 0 ? !(v < bmax) : !(v > bmin))
                                  return end == 0 ? tr("must be below max (%1 um)").arg(bmax)
                                                  : tr("must exceed min (%1 um)").arg(bmin);
                              return QString();
                          });
            }
        }
    }
}

void PropertiesDock::designRows(const Project& p, const ItemRef&) {
    const QString um = tr(" µm");
    const Json& r = *design_region(p);
    const QString name = r.contains("name") && r["name"].is_string() ? qs(r["name"].get<std::string>()) : QStringLiteral("design");
    itemTitle_ = tr("design region \"%1\"").arg(name);
    addText(tr("Name"), name, [this](const QString& t) {
        if (!t.trimmed().isEmpty())
            editDesign(tr("Rename design region"), [t](Json& x) { x["name"] = t.trimmed().toStdString(); });
    });
    addInfo(tr("Type"), p.domain.dimensions == 3 ? tr("design region (box)") : tr("design region (rectangle)"));
    Vec3 a, b;
    design_box(p, a, b);
    const double px = numberAt(r, "pixel_um", 0);
    const bool three = p.domain.dimensions == 3;
    const int axes = three ? 3 : 2;
    const char* axisName[3] = {"x", "y", "z"};
    for (int k = 0; k < axes; ++k) {
        const double lo = a[k], hi = b[k];
        addDouble(tr("Min %1").arg(QLatin1String(axisName[k])), lo, um,
                  [this, k](double v) { editDesign(tr("Edit design region"), [k, v](Json& x) { x["min"][size_t(k)] = v; }); },
                  [hi, px](double v) { return wholePixels(hi - v, px); });
        addDouble(tr("Max %1").arg(QLatin1String(axisName[k])), hi, um,
                  [this, k](double v) { editDesign(tr("Edit design region"), [k, v](Json& x) { x["max"][size_t(k)] = v; }); },
                  [lo, px](double v) { return wholePixels(v - lo, px); });
    }
    addDouble(tr("Pixel"), px, um,
              [this](double v) {
                  editDesign(tr("Edit design pixel"), [v](Json& x) {
                      x["pixel_um"] = v;
                      if (x.contains("rho") && x["rho"].is_array()) x["rho"] = 0.5;  // a list of the old grid
                  });
              },
              [a, b, axes](double v) {
                  if (!(v > 0)) return tr("must be greater than 0");
                  for (int k = 0; k < axes; ++k)
                      if (QString e = wholePixels(b[k] - a[k], v); !e.isEmpty()) return e;
                  return QString();
              });
    const auto n = design_pixels(p);
    addInfo(tr("Pixels"), three ? QStringLiteral("%1 x %2 x %3").arg(n[0]).arg(n[1]).arg(n[2])
                                : QStringLiteral("%1 x %2").arg(n[0]).arg(n[1]));

    QStringList ids;
    for (const Material& m : p.materials) ids << qs(m.id);
    for (int slot = 0; slot < 2; ++slot) {
        const QString current = r.contains("materials") && r["materials"].is_array() && r["materials"].size() == 2 &&
                                        r["materials"][size_t(slot)].is_string()
                                    ? qs(r["materials"][size_t(slot)].get<std::string>())
                                    : QString();
        // the built-in "air" (or an id the project lacks) is not in the list: shown as it is
        QStringList items = ids;
        if (!current.isEmpty() && !items.contains(current)) items << current;
        addCombo(slot == 0 ? tr("Material (rho = 0)") : tr("Material (rho = 1)"), items, std::max(0, int(items.indexOf(current))),
                 [this, ids = items, slot](int i) {
                     if (i < 0 || i >= ids.size()) return;
                     editDesign(tr("Edit design materials"), [&](Json& x) {
                         if (!x.contains("materials") || !x["materials"].is_array() || x["materials"].size() != 2)
                             x["materials"] = Json::array({"air", "air"});
                         x["materials"][size_t(slot)] = ids[i].toStdString();
                     });
                 });
    }

    const Json rho = r.contains("rho") ? r["rho"] : Json(0.5);
    if (rho.is_number()) {
        addDouble(tr("Start density"), rho.get<double>(), QString(),
                  [this](double v) { editDesign(tr("Edit start density"), [v](Json& x) { x["rho"] = v; }); },
                  [](double v) { return v >= 0 && v <= 1 ? QString() : tr("must be in [0, 1]"); });
    } else if (rho.is_array()) {
        addInfo(tr("Start density"), tr("a list of %n value(s) (shown on the canvas)", nullptr, int(rho.size())));
        addCombo(tr("Reset density"), {tr("keep the list"), tr("uniform 0.5")}, 0, [this](int i) {
            if (i == 1) editDesign(tr("Edit start density"), [](Json& x) { x["rho"] = 0.5; });
        });
    } else if (rho.is_string()) {
        addInfo(tr("Start density"), tr("file %1").arg(qs(rho.get<std::string>())));
    }

    const Json filter = r.contains("filter") && r["filter"].is_object() ? r["filter"] : Json::object();
    const double radius = numberAt(filter, "radius_um", 0);
    const QString kind = filter.contains("kind") && filter["kind"].is_string() ? qs(filter["kind"].get<std::string>()) : QStringLiteral("conic");
    const QStringList kinds{QStringLiteral("conic"), QStringLiteral("gaussian")};
    addCombo(tr("Filter"), kinds, std::max(0, int(kinds.indexOf(kind))), [this, kinds](int i) {
        editDesign(tr("Edit design filter"), [&](Json& x) { x["filter"]["kind"] = kinds[i].toStdString(); });
    });
    addDouble(tr("Filter radius"), radius, um,
              [this](double v) { editDesign(tr("Edit design filter"), [v](Json& x) { x["filter"]["radius_um"] = v; }); },
              [](double v) { return v >= 0 ? QString() : tr("must be 0 (no filter) or more"); });

    const Json proj = r.contains("projection") && r["projection"].is_object() ? r["projection"] : Json::object();
    const double beta = numberAt(proj, "beta", 8), betaMax = numberAt(proj, "beta_max", std::max(64.0, beta));
    // the projection's kind: tanh, or the subpixel-smoothed projection that keeps a
    // gradient at any beta (and so may end its beta list with "inf")
    const bool smoothed = proj.contains("kind") && proj["kind"].is_string() && proj["kind"].get<std::string>() == "smoothed";
    addCombo(tr("Projection"), {tr("tanh"), tr("smoothed (subpixel)")}, smoothed ? 1 : 0, [this, smoothed](int i) {
        if ((i == 1) == smoothed) return;  // no change (the default kind is not written out)
        editDesign(tr("Edit projection"), [i](Json& x) {
            Json& pr = x["projection"];
            pr["kind"] = i == 1 ? "smoothed" : "tanh";
            // the tanh projection takes no "inf": a list ending in it drops it in the same
            // step, so that the project stays readable
            if (i == 0 && pr.contains("betas") && pr["betas"].is_array() && !pr["betas"].empty() &&
                pr["betas"].back().is_string()) {
                pr["betas"].erase(pr["betas"].size() - 1);
                if (pr["betas"].empty()) pr.erase("betas");
            }
        });
    });
    if (auto* c = qobject_cast<QComboBox*>(field(tr("Projection")))) {
        c->setObjectName(QStringLiteral("designProjectionKind"));
        c->setToolTip(tr("tanh: the usual projection. smoothed: the subpixel-smoothed projection of Hammond et al. (2025), "
                         "which keeps a gradient at any beta, so that the beta list may end with inf (a binary design). "
                         "Choosing tanh drops a final inf from the beta list."));
    }
    addCheckedText(tr("Beta list"), betaListText(proj),
                   [this, smoothed](const QString& t) {
                       Json list;
                       if (!parseBetaList(t, smoothed, list).isEmpty()) return;
                       editDesign(tr("Edit projection"), [&list](Json& x) {
                           if (list.is_null()) {
                               if (x.contains("projection") && x["projection"].is_object()) x["projection"].erase("betas");
                           } else {
                               x["projection"]["betas"] = list;
                           }
                       });
                   },
                   [smoothed](const QString& t) {
                       Json list;
                       return parseBetaList(t, smoothed, list);
                   });
    if (auto* e = field(tr("Beta list"))) {
        e->setObjectName(QStringLiteral("designBetaList"));
        if (e->toolTip().isEmpty())
            e->setToolTip(tr("The beta schedule as a list, e.g. 4, 8, 16, 32, inf: each entry for Beta every iterations, "
                             "the last one kept; inf (the binary design) only last and only with the smoothed projection. "
                             "Empty: beta grows from Beta to Beta max instead (Beta and Beta max are not used with a list)."));
        if (auto* le = qobject_cast<QLineEdit*>(e)) le->setPlaceholderText(tr("e.g. 4, 8, 16, 32, inf (empty: Beta .. Beta max)"));
    }
    addDouble(tr("Beta"), beta, QString(),
              [this](double v) { editDesign(tr("Edit projection"), [v](Json& x) { x["projection"]["beta"] = v; }); },
              [betaMax](double v) {
                  if (!(v > 0)) return tr("must be greater than 0");
                  return v <= betaMax ? QString() : tr("must be at most beta max (%1)").arg(betaMax);
              });
    addDouble(tr("Beta max"), betaMax, QString(),
              [this](double v) { editDesign(tr("Edit projection"), [v](Json& x) { x["projection"]["beta_max"] = v; }); },
              [beta](double v) { return v >= beta ? QString() : tr("must be at least beta (%1)").arg(beta); });
    addDouble(tr("Beta every"), numberAt(proj, "beta_every", 20), tr(" iterations"),
              [this](double v) {
                  editDesign(tr("Edit projection"), [v](Json& x) { x["projection"]["beta_every"] = int(std::lround(v)); });
              },
              [](double v) { return v >= 1 && v == std::round(v) ? QString() : tr("must be a whole number, at least 1"); });
    // the projection's threshold eta (densities above it project to solid)
    {
        const double eta = numberAt(proj, "eta", 0.5);
        const std::optional<Json> rb =
            r.contains("robust") && r["robust"].is_object() ? std::optional<Json>(r["robust"]) : std::nullopt;
        addDouble(tr("Projection threshold"), eta, QString(),
                  [this](double v) {
                      editDesign(tr("Edit projection"), [v](Json& x) {
                          const bool has = x.contains("projection") && x["projection"].is_object();
                          // the default stays unwritten while it is unchanged
                          if (v == numberAt(has ? x["projection"] : Json::object(), "eta", 0.5)) return;
                          x["projection"]["eta"] = v;
                      });
                  },
                  [rb](double v) { return projectionEtaRule(v, rb ? &*rb : nullptr); });
        if (QWidget* f = field(tr("Projection threshold"))) {
            f->setObjectName(QStringLiteral("designProjectionEta"));
            const QString tip = tr("The projection's threshold eta: filtered densities above it become the solid material "
                                   "(rho = 1), below it the other one. 0 < eta < 1, usually 0.5; with the robust design "
                                   "between its dilated and eroded thresholds.");
            f->setProperty("defaultToolTip", tip);
            if (!f->property("invalid").toBool()) f->setToolTip(tip);  // else it shows the rule broken
        }
    }
    addDouble(tr("Minimum length"), numberAt(r, "min_length_um", 0), um,
              [this](double v) {
                  editDesign(tr("Edit minimum length"), [v](Json& x) {
                      if (v > 0) {
                          x["min_length_um"] = v;
                      } else {  // the members that need it go too, so that the project stays valid
                          x.erase("min_length_um");
                          x.erase("min_length_from_beta");
                          x.erase("min_length_relax_iterations");
                      }
                  });
              },
              [kind, radius](double v) {
                  if (v < 0) return tr("must be 0 (no constraint) or more");
                  if (v > 0 && (kind != QLatin1String("conic") || !(radius > 0)))
                      return tr("needs a conic filter with a radius above 0");
                  return QString();
              });
    // the robust (three-field) design: the dilated and eroded designs of an over- and
    // under-etch are optimized with the intended one (the worst of the three raised)
    {
        const double eta = numberAt(proj, "eta", 0.5);
        const bool robust = r.contains("robust");
        const Json rb = robust && r["robust"].is_object() ? r["robust"] : Json::object();
        auto* check = new QCheckBox(tr("dilated, intended and eroded designs"));
        check->setObjectName(QStringLiteral("designRobust"));
        check->setChecked(robust);
        check->setToolTip(tr("Robust design (Wang, Lazarov and Sigmund 2011): each iteration also projects the filtered "
                             "density at the dilated and eroded thresholds (the designs of an over- and an under-etch by "
                             "about the filter's edge width) and raises the worst of the three figures of merit. Three "
                             "times the runs; needs MMA or CCSA (L-BFGS is replaced by MMA in the same step)."));
        connect(check, &QCheckBox::toggled, this, [this, eta](bool on) {
            doc_->editProject(on ? tr("Turn robust design on") : tr("Turn robust design off"), [on, eta](Project& p) {
                if (!design_region(p)) return;
                Json& x = design_region_mut(p);
                if (!on) {
                    x.erase("robust");
                    return;
                }
                // the reader's defaults where they fit around eta, else midway to 0 and 1
                const double dilated = robustDilatedRule(0.25, eta).isEmpty() ? 0.25 : eta / 2;
                const double eroded = robustErodedRule(0.75, eta).isEmpty() ? 0.75 : (1 + eta) / 2;
                x["robust"] = Json{{"eta_dilated", dilated}, {"eta_eroded", eroded}};
                // L-BFGS takes no constraints (the worst of three designs is raised in the
                // epigraph form): MMA in the same step, so that the project stays readable
                Json& opt = design_optimizer_mut(p);
                if (opt.value("algorithm", std::string("mma")) == "lbfgs") opt["algorithm"] = "mma";
            });
        });
        form_->addRow(tr("Robust design"), check);
        if (robust) {
            addDouble(tr("Dilated threshold"), numberAt(rb, "eta_dilated", 0.25), QString(),
                      [this](double v) { editDesign(tr("Edit robust design"), [v](Json& x) { x["robust"]["eta_dilated"] = v; }); },
                      [eta](double v) { return robustDilatedRule(v, eta); });
            addDouble(tr("Eroded threshold"), numberAt(rb, "eta_eroded", 0.75), QString(),
                      [this](double v) { editDesign(tr("Edit robust design"), [v](Json& x) { x["robust"]["eta_eroded"] = v; }); },
                      [eta](double v) { return robustErodedRule(v, eta); });
            const auto explain = [this](const QString& label, const char* name, const QString& tip) {
                QWidget* f = field(label);
                if (!f) return;
                f->setObjectName(QLatin1String(name));
                f->setProperty("defaultToolTip", tip);
                if (!f->property("invalid").toBool()) f->setToolTip(tip);  // else it shows the rule broken
            };
            explain(tr("Dilated threshold"), "designRobustDilated",
                    tr("The projection threshold of the dilated design: 0 < it < the projection's eta (%1)").arg(eta));
            explain(tr("Eroded threshold"), "designRobustEroded",
                    tr("The projection threshold of the eroded design: the projection's eta (%1) < it < 1").arg(eta));
        }
    }
    designFixedRows(p);
    addInfo(tr("Objective"), tr("in the Inverse Design dock (Run > Optimize (adjoint))"));
}

}  // namespace golightly::editor
