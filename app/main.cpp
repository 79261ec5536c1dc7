// tether: the tray companion, its headless mode, its CLI verbs and the bundled demo service.
#include "demo/demo.h"

#include <QApplication>
#include <QIcon>
#include <QMenu>
#include <QSystemTrayIcon>
#include <cstring>

int main(int argc, char **argv) {
    // The demo service and its MCP children are console programs: no GUI application object.
    if (argc > 1 && std::strcmp(argv[1], "demo-service") == 0)
        return tether::demo::runDemoService(argc - 1, argv + 1);
    if (argc > 1 && std::strcmp(argv[1], "demo-mcp") == 0)
        return tether::demo::runDemoMcp(argc - 1, argv + 1);

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("tether"));
    QApplication::setApplicationVersion(QStringLiteral(TETHER_VERSION));
    QApplication::setQuitOnLastWindowClosed(false);

    QSystemTrayIcon tray(QIcon(QStringLiteral(":/icons/tether.svg")));
    tray.setToolTip(QStringLiteral("Tether: Stopped"));
    QMenu menu;
    menu.addAction(QStringLiteral("Stopped"))->setEnabled(false);
    menu.addSeparator();
    QObject::connect(menu.addAction(QStringLiteral("Quit")), &QAction::triggered, &app,
                     &QApplication::quit);
    tray.setContextMenu(&menu);
    tray.show();
    return app.exec();
}
