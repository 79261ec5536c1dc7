// The embedded default shows everything: with nothing configured and no opencode installed,
// the demo service starts with two demo MCP servers, so a newcomer sees MCP rows without
// opencode. A configured demo (profile=demo, or arguments given) is left as configured.
#include "mcp/mcp_monitor.h"
#include "service/profile.h"
#include "service/registration.h"
#include "service/supervisor.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace tether;
using policy::State;

class TestEmbeddedDefault : public QObject {
    Q_OBJECT
private slots:
    void nothingConfiguredMeansTwoMcpServers() {
        const Settings none; // auto profile, no arguments
        const ProfileResolution r = resolveProfile(none, {}, QStringLiteral("/x/tether"));
        QCOMPARE(r.profile.dialect, policy::Dialect::Demo);
        const QStringList &a = r.profile.arguments;
        const int at = int(a.indexOf(QStringLiteral("--mcp")));
        QVERIFY2(at > 0, qPrintable(a.join(QLatin1Char(' '))));
        QCOMPARE(a.value(at + 1), QString::number(kEmbeddedDemoMcpServers));

        Settings demo;
        demo.profile = policy::Dialect::Demo; // chosen by a person: as configured
        QVERIFY(!resolveProfile(demo, {}, QStringLiteral("/x/tether"))
                     .profile.arguments.contains(QStringLiteral("--mcp")));
        Settings given;
        given.arguments = QStringList{QStringLiteral("--slow-start"), QStringLiteral("10")};
        QVERIFY(!resolveProfile(given, {}, QStringLiteral("/x/tether"))
                     .profile.arguments.contains(QStringLiteral("--mcp")));
    }

    void theRowsShowUp() {
        QTemporaryDir dir;
        qputenv("TETHER_DATA_DIR", dir.path().toUtf8());
        Settings s;
        s.port = test::freeLoopbackPort();
        s.timings.probeIntervalMs = 200;
        const ProfileResolution r = resolveProfile(s, {}, test::tetherBin());
        Supervisor::Config c;
        c.settings = s;
        c.profile = r.profile;
        c.registrationPath = registrationPath();
        c.serviceLogPath = dir.filePath(QStringLiteral("service.log"));
        Supervisor sup(c);
        mcp::McpMonitor monitor(&sup);
        sup.start();
        QTRY_VERIFY_WITH_TIMEOUT(sup.status().state == State::Healthy, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(sup.status().mcp.size(), qsizetype(kEmbeddedDemoMcpServers),
                                  30000);
        for (const McpChildStatus &m : sup.status().mcp) {
            QCOMPARE(m.status, QStringLiteral("connected"));
#ifndef Q_OS_WIN // wine shows no command line of another process: no child is matched there
            QVERIFY2(m.pid > 1, qPrintable(m.name));
#endif
        }
        sup.stop();
        QTRY_VERIFY_WITH_TIMEOUT(sup.status().state == State::Stopped, 30000);
    }
};

QTEST_GUILESS_MAIN(TestEmbeddedDefault)
#include "tst_embedded_default.moc"
