// What a person reads when the service failed: exit code meanings, the service's own error
// line, the port doctor's finding, and the netsh parser for Windows' excluded port ranges.
#include "policy/failure.h"
#include "policy/port_doctor.h"

#include <QtTest>

using namespace tether::policy;

class TestFailure : public QObject {
    Q_OBJECT
private slots:
    void exitCodesSayWhatTheyMean() {
        QCOMPARE(describeExit({2, false, 10}), std::string("exit code 2: bad arguments"));
        QCOMPARE(describeExit({127, false, 10}), std::string("exit code 127: command not found"));
        QCOMPARE(describeExit({137, false, 10}),
                 std::string("exit code 137: killed (SIGKILL; out of memory?)"));
        QCOMPARE(describeExit({143, false, 10}), std::string("exit code 143: ended by SIGTERM"));
        QCOMPARE(describeExit({7, false, 10}), std::string("exit code 7"));
        QCOMPARE(describeExit({0, true, 10}), std::string("killed or crashed"));
        QCOMPARE(exitCodeMeaning(int(0xC0000135u)), std::string("a DLL it needs was not found"));
        QCOMPARE(exitCodeMeaning(int(0xC0000005u)),
                 std::string("access violation (the program crashed)"));
    }

    void theErrorLineIsTheServicesOwnWords() {
        // What the demo service (QCommandLineParser) prints for a bad option, help after it.
        const std::vector<std::string> demo = {"listening on 127.0.0.1:4096 (old run)",
                                               "tether demo-service: Unknown option 'bogus'.",
                                               "Usage: tether demo-service [options]", ""};
        QCOMPARE(errorLine(demo), std::string("Unknown option 'bogus'."));
        // node's EADDRINUSE: the "Error:" prefix is part of the message.
        QCOMPARE(errorLine({"Error: listen EADDRINUSE: address already in use 127.0.0.1:4096",
                            "    at Server.setupListenHandle"}),
                 std::string("Error: listen EADDRINUSE: address already in use 127.0.0.1:4096"));
        // Nothing reads like an error: the last line is still the best there is.
        QCOMPARE(errorLine({"starting", "bye", "  "}), std::string("bye"));
        QCOMPARE(errorLine({}), std::string());
    }

    void lastLinesKeepsTheNewestNonEmpty() {
        std::vector<std::string> many;
        for (int i = 0; i < 30; ++i)
            many.push_back("line " + std::to_string(i) + (i % 2 ? "  " : ""));
        many.push_back("");
        const auto out = lastLines(many, 12);
        QCOMPARE(out.size(), std::size_t(12));
        QCOMPARE(out.front(), std::string("line 18"));
        QCOMPARE(out.back(), std::string("line 29"));
    }

    void theLinesShownEndWithTheError() {
        std::vector<std::string> out = {"starting", "tether demo-service: Unknown option 'x'.",
                                        "Usage: tether demo-service [options]"};
        for (int i = 0; i < 20; ++i)
            out.push_back("  --opt" + std::to_string(i) + "  Run tool NAME (error-free help)");
        const auto shown = relevantLines(out, 12);
        QCOMPARE(shown.back(), std::string("tether demo-service: Unknown option 'x'."));
        QCOMPARE(shown.size(), std::size_t(2));
        QCOMPARE(errorLine(out), std::string("Unknown option 'x'."));
        QCOMPARE(relevantLines({"a", "b", "c"}, 2), (std::vector<std::string>{"b", "c"}));
    }

    void theCauseNamesTheErrorAndTheExit() {
        FailureFacts f;
        f.reason = "gave up after 5 crashes or failed starts within 600 s; last: pid 9 exited";
        f.exit = ExitFacts{2, false, 40};
        f.log = {"tether demo-service: Unknown option 'bogus'.", "Usage: x"};
        QCOMPARE(describeFailure(f), std::string("the service stopped at once: Unknown option "
                                                 "'bogus'. (exit code 2: bad arguments)"));
        f.exit->ranMs = 120000; // it ran a while: not "at once"
        QCOMPARE(describeFailure(f).rfind("the service stopped: Unknown option", 0), 0u);
        f.portCause = "port 4096 is held by python3 (pid 12)";
        QCOMPARE(describeFailure(f), f.portCause); // the port is the cause, whatever it printed
        FailureFacts none;
        none.reason = "cannot start the service: No such file (setting [service] program)";
        QCOMPARE(describeFailure(none), none.reason);
    }

    void aForeignListenerIsNamed() {
        PortFactsForDoctor f;
        f.port = 4096;
        f.tablesRead = true;
        f.listening = true;
        f.holders = {{1234, "python3"}};
        f.bind = BindResult::InUse;
        const PortDiagnosis d = diagnosePort(f);
        QVERIFY(d.isCause);
        QCOMPARE(d.cause, std::string("port 4096 is held by python3 (pid 1234)"));
    }

    void theServiceOnItsOwnPortIsNoFault() {
        PortFactsForDoctor f;
        f.port = 4096;
        f.tablesRead = true;
        f.listening = true;
        f.holders = {{77, "tether"}};
        f.servicePid = 77;
        f.bind = BindResult::InUse;
        QVERIFY(!diagnosePort(f).isCause);
    }

    void aFreePortIsNoCause() {
        PortFactsForDoctor f;
        f.port = 4096;
        f.tablesRead = true;
        f.bind = BindResult::Ok;
        QVERIFY(!diagnosePort(f).isCause);
        QVERIFY(diagnosePort(f).cause.empty());
    }

    void anUnreadableListenerIsStillTheCause() {
        PortFactsForDoctor f; // wine reports pid 0 as every listener's owner
        f.port = 4096;
        f.tablesRead = true;
        f.listening = true;
        f.holders = {{0, ""}};
        const PortDiagnosis d = diagnosePort(f);
        QVERIFY(d.isCause);
        QVERIFY(d.cause.find("cannot see") != std::string::npos);
    }

    void accessDeniedWithoutAListenerIsAnExcludedRange() {
        PortFactsForDoctor f;
        f.port = 50000;
        f.tablesRead = true;
        f.bind = BindResult::AccessDenied;
        f.excluded = {{49900, 49999}, {50000, 50099}};
        const PortDiagnosis d = diagnosePort(f);
        QVERIFY(d.isCause);
        QVERIFY(d.excludedRange.has_value());
        QCOMPARE(d.excludedRange->first, std::uint16_t(50000));
        QVERIFY(d.cause.find("reserved by Windows (excluded range 50000-50099") !=
                std::string::npos);
        f.excluded.clear(); // netsh could not be read: still the port, without the range
        QVERIFY(diagnosePort(f).isCause);
        QVERIFY(diagnosePort(f).cause.find("access denied") != std::string::npos);
    }

    void netshOutputParses() {
        // As printed by Windows 11 with Hyper-V and Docker Desktop (CRLF line ends).
        const std::string sample = "\r\nProtocol tcp Port Exclusion Ranges\r\n\r\n"
                                   "Start Port    End Port\r\n"
                                   "----------    --------\r\n"
                                   "      5357        5357\r\n"
                                   "     49674       49773\r\n"
                                   "     50000       50059     *\r\n"
                                   "\r\n* - Administered port exclusions.\r\n\r\n";
        const auto ranges = parseExcludedPortRanges(sample);
        QCOMPARE(ranges.size(), std::size_t(3));
        QCOMPARE(ranges[0], (PortRange{5357, 5357}));
        QCOMPARE(ranges[1], (PortRange{49674, 49773}));
        QCOMPARE(ranges[2], (PortRange{50000, 50059}));
        // A German Windows: other words, the same table.
        const std::string de = "Protokoll tcp Portausschlussbereiche\n\nStartport    Endport\n"
                               "----------    --------\n     1080        1179\n";
        QCOMPARE(parseExcludedPortRanges(de), (std::vector<PortRange>{{1080, 1179}}));
        QVERIFY(parseExcludedPortRanges("The requested operation requires elevation.").empty());
        QVERIFY(parseExcludedPortRanges("").empty());
    }

    void theFreePortSkipsExcludedAndUsedPorts() {
        const std::vector<PortRange> excluded = {{4097, 4099}};
        const auto used = [](std::uint16_t p) { return p != 4100; };
        QCOMPARE(pickFreePort(4096, excluded, used), std::uint16_t(4101));
        QCOMPARE(pickFreePort(65535, {}, [](std::uint16_t) { return true; }),
                 std::uint16_t(1024)); // wraps to the first unprivileged port
        QCOMPARE(pickFreePort(4096, {}, [](std::uint16_t) { return false; }), std::uint16_t(0));
    }
};

QTEST_APPLESS_MAIN(TestFailure)
#include "tst_failure.moc"
