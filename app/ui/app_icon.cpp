#include "ui/app_icon.h"

#include "ui/lazy_icon.h"

#include <QFile>

#include <iterator>

namespace tether::ui {

namespace {

constexpr int kRenditions[] = {16, 22, 24, 32, 48, 64, 128, 256};

QString renditionFile(int size) {
    return QStringLiteral(":/icons/hicolor/%1x%1/apps/dev.tether.Tether.png").arg(size);
}

// The smallest rendition that covers the device pixels asked for (the largest when none does),
// scaled down only when none is exact. The format is named, so no image plugin is probed.
QPixmap render(int size, qreal scale) {
    const int device = qRound(size * scale);
    int pick = kRenditions[std::size(kRenditions) - 1];
    for (int r : kRenditions)
        if (r >= device) {
            pick = r;
            break;
        }
    QPixmap pm(renditionFile(pick), "PNG");
    if (pm.isNull()) return pm;
    if (pm.width() != device)
        pm = pm.scaled(device, device, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    pm.setDevicePixelRatio(scale);
    return pm;
}

} // namespace

// Decoded when a window first shows it: a tray with no window open holds none of it.
QIcon appIcon() {
    static const QIcon icon = [] {
        if (!QFile::exists(renditionFile(16))) return QIcon();
        QList<int> sizes;
        for (int r : kRenditions)
            sizes.append(r);
        return lazyIcon(sizes, render);
    }();
    return icon;
}

} // namespace tether::ui
