#include "ui/app_icon.h"

#include <QFile>

namespace tether::ui {

QIcon appIcon() {
    static const QIcon icon = [] {
        QIcon out;
        for (int size : {16, 22, 24, 32, 48, 64, 128, 256}) {
            const QString file =
                QStringLiteral(":/icons/hicolor/%1x%1/apps/dev.tether.Tether.png").arg(size);
            if (QFile::exists(file)) out.addFile(file, QSize(size, size));
        }
        return out;
    }();
    return icon;
}

} // namespace tether::ui
