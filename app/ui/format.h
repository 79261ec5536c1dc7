// How durations, memory and states read for a person: one place, so the tray, the status
// window and the dialogs say the same thing the same way. Pure functions.
#pragma once

#include "policy/state.h"

#include <QString>
#include <QtGlobal>

namespace tether::ui {

QString stateLabel(policy::State s); // "Healthy", "Not responding", ...
QString durationText(qint64 ms);     // "45 s", "12 min", "3 h 05 min", "2 d 4 h"
QString memoryText(quint64 kib);     // "812 KiB", "14.2 MiB", "1.3 GiB"

} // namespace tether::ui
