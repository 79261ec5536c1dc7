// Tether's own icon (resources/icons, the PNG renditions in the tether-resources library), for
// the windows that are about Tether rather than the service's state: About, Settings, orphans.
#pragma once

#include <QIcon>

namespace tether::ui {

QIcon appIcon(); // null when tether-resources is not linked in

} // namespace tether::ui
