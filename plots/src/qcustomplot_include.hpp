// <qcustomplot.h> uses the Qt keywords (signals, slots, emit, foreach), which the GoLightly
// libraries switch off (QT_NO_KEYWORDS): include it through this header.
#pragma once

#if defined(QT_NO_KEYWORDS)
#include <QtGlobal>
#include <QtCore/qobjectdefs.h>
#define signals Q_SIGNALS
#define slots Q_SLOTS
#define emit Q_EMIT
#define foreach Q_FOREACH
#include <qcustomplot.h>
#undef signals
#undef slots
#undef emit
#undef foreach
#else
#include <qcustomplot.h>
#endif
