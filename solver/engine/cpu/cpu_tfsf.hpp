// GoLightly CPU engine extension: total-field / scattered-field plane waves (scene.hpp
// "TF/SF", TfsfSource), 2D (TMz, TEz) and 3D. Private to the solver library. The method,
// the incident lines and the list of corrections: golightly/tfsf_plan.hpp (shared with the
// CUDA engines). Here the corrections are filed under their rows and added in the row
// phases right after the H sources (H) and the E sources (E); the lines are stepped in
// before_step.
//
// Traffic per correction and step: the field value read and written (2R) and the entry
// (cell, component, line index, coefficient: 16 B + R).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cpu_extensions.hpp"
#include "golightly/errors.hpp"
#include "golightly/scene.hpp"
#include "golightly/tfsf_plan.hpp"

namespace golightly::cpu {

template <typename Real>
class Tfsf final : public Extension<Real> {
public:
    /// Builds the plan (make_tfsf_plan: throws RunError naming tfsf[k] and the field for an
    /// invalid source or a box reaching into the PML) and files the corrections by row.
    Tfsf(const Scene& sc, const bool (&has)[6]) : nx_(sc.nx), rows_(grid_rows(sc)) {
        TfsfPlan plan = make_tfsf_plan(sc, has, "CPU engine");
        lines_ = std::move(plan.lines);
        line_size_ = plan.line_size;
        e_.assign(line_size_, 0.0);
        e_old_.assign(line_size_, 0.0);
        h_.assign(line_size_, 0.0);
        file(plan.h, h_corr_, h_row_);
        file(plan.e, e_corr_, e_row_);
        materials_changed(sc);
    }

    bool empty() const { return lines_.empty(); }
    unsigned phases() const override { return BeforeStep | AfterHRow | AfterERow; }
    double bytes_per_step() const override {
        return double(h_corr_.size() + e_corr_.size()) * (2.0 * sizeof(Real) + 16.0 + sizeof(Real)) +
               double(line_size_) * 10.0 * sizeof(double);
    }

    /// E corrections carry the cell's cb (follows live edits); H corrections carry S.
    void materials_changed(const Scene& sc) override {
        for (Corr& c : h_corr_) c.coef = Real(c.sign * sc.courant);
        for (Corr& c : e_corr_) {
            const auto& idx = sc.material_index[c.component];
            const double cb = std::size_t(c.cell) < idx.size() ? sc.table[idx[std::size_t(c.cell)]].cb : sc.courant;
            c.coef = Real(c.sign * cb);
        }
    }

    /// Steps every incident line from n to n+1 (e^n saved for this step's H corrections).
    void before_step(const StepContext<Real>& ctx) override {
        const double t_next = double(ctx.step + 1) * ctx.scene->dt_s;
        std::copy(e_.begin(), e_.end(), e_old_.begin());
        for (const TfsfLine& L : lines_) {
            double* e = e_.data() + L.offset;
            double* h = h_.data() + L.offset;
            const std::int64_t len = L.len;
            for (std::int64_t m = 0; m < len; ++m) h[m] = L.ha[m] * h[m] + L.hb[m] * ((m + 1 < len ? e[m + 1] : 0.0) - e[m]);
            for (std::int64_t m = 0; m < len; ++m) e[m] = L.ea[m] * e[m] + L.eb[m] * (h[m] - (m > 0 ? h[m - 1] : 0.0));
            const TfsfSource& t = ctx.scene->tfsf[L.src];
            e[L.m_src] = t.waveform.value(t_next - t.delay_s);
        }
    }
    void after_h_row(const StepContext<Real>& ctx, int r) override { apply(ctx, h_corr_, h_row_, e_old_, r); }
    void after_e_row(const StepContext<Real>& ctx, int r) override { apply(ctx, e_corr_, e_row_, h_, r); }

    /// The incident E (at t = n dt after n steps) along the line of source s, by axis position
    /// p: 0 outside the line (tests).
    double incident_e(std::size_t s, std::int64_t p) const {
        const TfsfLine& L = lines_.at(s);
        const std::int64_t m = p - L.p_first;
        return m >= 0 && m < L.len ? e_[L.offset + std::size_t(m)] : 0.0;
    }

private:
    struct Corr {
        CellIndex cell = 0;
        int component = 0;
        std::int32_t line = 0;
        double sign = 0;
        Real coef = 0;
    };
    void file(const std::vector<TfsfCorrection>& v, std::vector<Corr>& out, std::vector<std::size_t>& rows) {
        out.clear();
        out.reserve(v.size());
        for (const TfsfCorrection& c : v) out.push_back({c.cell, c.component, c.line, c.sign, Real(0)});
        rows.assign(std::size_t(rows_) + 1, 0);
        for (const Corr& c : out) rows[std::size_t(c.cell / nx_) + 1]++;
        for (int j = 0; j < rows_; ++j) rows[j + 1] += rows[j];
    }
    static void apply(const StepContext<Real>& ctx, const std::vector<Corr>& corr, const std::vector<std::size_t>& rows,
                      const std::vector<double>& inc, int r) {
        for (std::size_t k = rows[r]; k < rows[r + 1]; ++k) {
            const Corr& c = corr[k];
            ctx.field[c.component][c.cell] += c.coef * Real(inc[std::size_t(c.line)]);
        }
    }
    int nx_ = 0, rows_ = 0;
    std::vector<TfsfLine> lines_;
    std::size_t line_size_ = 0;
    std::vector<double> e_, e_old_, h_;
    std::vector<Corr> h_corr_, e_corr_;
    std::vector<std::size_t> h_row_, e_row_;
};

}  // namespace golightly::cpu
