// An icon whose pixmaps are made the first time a size is asked for, then kept. Qt's own QIcon
// decodes every file given to addFile() and holds every pixmap given to addPixmap() up front:
// Tether's app icon (8 renditions up to 256 px) and each tray picture (8 sizes and scales) held
// about 480 KiB of a tray that showed one 22 px picture and no window (issue 28).
#pragma once

#include <QIcon>
#include <QList>
#include <QPixmap>
#include <QSize>

#include <functional>

namespace tether::ui {

// Makes the picture at a size in logical pixels for a device pixel ratio: a pixmap of
// size x scale device pixels whose devicePixelRatio is scale.
using IconRender = std::function<QPixmap(int size, qreal scale)>;

// sizes: what availableSizes() reports (in logical pixels); any other size is made on request.
QIcon lazyIcon(const QList<int> &sizes, IconRender render);

} // namespace tether::ui
