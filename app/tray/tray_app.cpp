#include "tray/tray_app.h"

#include "shell/runtime.h"

#include <QApplication>
#include <QIcon>

namespace tether {

TrayApp::TrayApp(Runtime *runtime, bool autostart, QObject *parent)
    : QObject(parent)
    , runtime_(runtime)
    , autostart_(autostart) {
    icon_.setIcon(QIcon(QStringLiteral(":/icons/tether.svg")));
    statusLine_ = menu_.addAction(QString());
    statusLine_->setEnabled(false);
    menu_.addSeparator();
    Supervisor *s = runtime_->supervisor();
    connect(menu_.addAction(tr("Start")), &QAction::triggered, s, &Supervisor::start);
    connect(menu_.addAction(tr("Stop")), &QAction::triggered, s, &Supervisor::stop);
    connect(menu_.addAction(tr("Restart")), &QAction::triggered, s, &Supervisor::restart);
    menu_.addSeparator();
    connect(menu_.addAction(tr("Quit")), &QAction::triggered, qApp, &QApplication::quit);
    icon_.setContextMenu(&menu_);
    connect(s, &Supervisor::statusChanged, this, &TrayApp::refresh);
    refresh();
}

void TrayApp::show() { icon_.show(); }

void TrayApp::refresh() {
    const ServiceStatus &st = runtime_->supervisor()->status();
    const QString state = QString::fromLatin1(policy::toString(st.state));
    statusLine_->setText(tr("Service: %1").arg(state));
    icon_.setToolTip(tr("Tether: %1").arg(state));
}

} // namespace tether
