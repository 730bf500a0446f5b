// GoLightly editor: a QDoubleSpinBox that shows its value without float noise or padding
// (0.3, not 0.30000000000000004 or 0.300000; issue 20). The value itself is unchanged.
//
// With an evaluator (setEvaluator, issue 53) the field also takes an expression over the
// project's parameters ("2 * w + 10nm"): the field keeps showing the text, its value is
// the evaluated one (exact: expressionValue()), the tool tip shows "= value". An entry
// that does not evaluate keeps its text and the field's value, and expressionError() says
// why; the dock that owns the field decides what to do with it (mark it red, not apply).
#pragma once

#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPointer>

#include <cmath>
#include <exception>
#include <functional>

namespace golightly::editor {

/// `value` with at most `decimals` decimals, trailing zeros removed ("0.3", "1000", "-2.5").
inline QString trimmed_number(double value, int decimals, const QLocale& locale = QLocale()) {
    QString t = locale.toString(value, 'f', decimals);
    const QString point = locale.decimalPoint();
    if (decimals > 0 && t.contains(point)) {
        while (t.endsWith(QLatin1Char('0'))) t.chop(1);
        if (t.endsWith(point)) t.chop(point.size());
    }
    if (t == QLatin1String("-0")) t = QStringLiteral("0");
    return t;
}

class NumberSpinBox : public QDoubleSpinBox {
public:
    /// Evaluates an expression in the field's unit; throws std::exception with the problem.
    using Evaluator = std::function<double(const QString&)>;
    using QDoubleSpinBox::QDoubleSpinBox;

    void setEvaluator(Evaluator evaluator) { evaluator_ = std::move(evaluator); }
    /// A label (beside or below the field) that shows "= value" while the field holds an
    /// expression, the problem while it holds one that does not evaluate, and is hidden
    /// otherwise.
    void setValueLabel(QLabel* label) {
        valueLabel_ = label;
        updateToolTip();
    }
    bool acceptsExpressions() const { return bool(evaluator_); }

    /// Shows `text`, an expression that gives `value`, instead of the number.
    void setExpression(const QString& text, double value) {
        expr_ = text.trimmed();
        exprValue_ = value;
        error_.clear();
        if (!baseToolTipSet_) {
            baseToolTip_ = toolTip();
            baseToolTipSet_ = true;
        }
        setValue(value);
        lineEdit()->setText(prefix() + expr_ + suffix());
        updateToolTip();
    }
    /// Shows the number again (the field is no longer bound to an expression).
    void clearExpression() {
        expr_.clear();
        error_.clear();
        setValue(value());
        lineEdit()->setText(prefix() + textFromValue(value()) + suffix());
        updateToolTip();
    }
    /// The expression the field shows (empty: it shows a number).
    QString expression() const { return showsExpression() ? expr_ : QString(); }
    /// The exact value of expression() (value() is rounded to the field's decimals).
    double expressionValue() const { return exprValue_; }
    /// Why the text last entered does not evaluate (empty: it does, or it is a number).
    QString expressionError() const { return error_; }
    /// Puts `text` in the field as if typed and entered (a rejected entry shown again).
    void setEnteredText(const QString& text) {
        lineEdit()->setText(prefix() + text + suffix());
        interpretText();
        lineEdit()->setText(prefix() + text + suffix());
    }
    /// The text last entered, without prefix and suffix.
    QString enteredText() const { return stripped(lineEdit()->displayText()); }

    QString textFromValue(double value) const override {
        if (!expr_.isEmpty() && (!error_.isEmpty() || close(value, exprValue_))) return expr_;
        QString t = trimmed_number(value, decimals(), locale());
        if (!isGroupSeparatorShown()) t.remove(locale().groupSeparator());
        return t;
    }

    QValidator::State validate(QString& text, int& pos) const override {
        const QValidator::State base = QDoubleSpinBox::validate(text, pos);
        if (!evaluator_ || base == QValidator::Acceptable) return base;
        // Expressions are ASCII: a letter typed after the unit ("0.02 µme", which Qt's
        // validator completes to "0.02 µme µm") is refused as a number field refuses it.
        const QString t = stripped(text);
        for (const QChar c : t)
            if (c.unicode() > 127) return base;
        return t.isEmpty() ? base : QValidator::Acceptable;
    }

    double valueFromText(const QString& text) const override {
        const QString t = stripped(text);
        if (evaluator_) {
            int pos = 0;
            QString copy = text;
            bool plain = false;  // "0.5" where the locale writes "0,5": a number all the same
            const double number = QLocale::c().toDouble(t, &plain);
            if (plain && number >= minimum() && number <= maximum()) {
                expr_.clear();
                error_.clear();
                updateToolTip();
                return number;
            }
            if (QDoubleSpinBox::validate(copy, pos) != QValidator::Acceptable) {
                expr_ = t;
                try {
                    const double v = evaluator_(t);
                    if (v < minimum() || v > maximum()) {
                        error_ = QCoreApplication::translate("NumberSpinBox", "the value %1 is outside the field's range (%2 to %3)")
                                     .arg(v, 0, 'g', 8).arg(minimum(), 0, 'g', 6).arg(maximum(), 0, 'g', 6);
                        return value();
                    }
                    error_.clear();
                    exprValue_ = v;
                    updateToolTip();
                    return v;
                } catch (const std::exception& e) {
                    error_ = QString::fromStdString(e.what());
                    exprValue_ = value();
                    updateToolTip();
                    return value();
                }
            }
            expr_.clear();
            error_.clear();
            updateToolTip();
        }
        return QDoubleSpinBox::valueFromText(text);
    }

protected:
    void stepBy(int steps) override {
        expr_.clear();  // an arrow step sets a number
        error_.clear();
        QDoubleSpinBox::stepBy(steps);
        updateToolTip();
    }

private:
    bool showsExpression() const { return !expr_.isEmpty() && error_.isEmpty() && close(value(), exprValue_); }
    bool close(double a, double b) const { return std::fabs(a - b) <= 0.5 * std::pow(10.0, -decimals()) + 1e-12 * std::fabs(b); }
    QString stripped(QString t) const {
        if (!prefix().isEmpty() && t.startsWith(prefix())) t.remove(0, prefix().size());
        if (!suffix().isEmpty() && t.endsWith(suffix())) t.chop(suffix().size());
        return t.trimmed();
    }
    void updateToolTip() const {
        auto* self = const_cast<NumberSpinBox*>(this);
        if (!baseToolTipSet_) {
            self->baseToolTip_ = toolTip();
            self->baseToolTipSet_ = true;
        }
        const QString shown = QCoreApplication::translate("NumberSpinBox", "= %1%2")
                                  .arg(trimmed_number(exprValue_, 12, locale()), suffix());
        if (valueLabel_) {
            valueLabel_->setVisible(!expr_.isEmpty() && (showsExpression() || !error_.isEmpty()));
            valueLabel_->setStyleSheet(error_.isEmpty() ? QStringLiteral("QLabel { color: #555555; }")
                                                        : QStringLiteral("QLabel { color: #b00000; }"));
            valueLabel_->setText(error_.isEmpty() ? shown : error_);
        }
        if (property("invalid").toBool()) return;  // the owner's message stays
        self->setToolTip(showsExpression() ? expr_ + QLatin1Char(' ') + shown : baseToolTip_);
    }
    Evaluator evaluator_;
    QPointer<QLabel> valueLabel_;
    mutable QString expr_;
    mutable double exprValue_ = 0;
    mutable QString error_;
    QString baseToolTip_;
    bool baseToolTipSet_ = false;
};

}  // namespace golightly::editor
