// The MCP resource watch with a fake clock (plain numbers): memory and CPU flags at their
// edges, the trend summary, and a history that stays small however fast the probes come.
#include "policy/resource_watch.h"

#include <QtTest>

using namespace tether::policy;

namespace {

ResourceLimits small() {
    ResourceLimits l;
    l.memoryWarnKiB = 10 * 1024; // 10 MiB
    l.cpuBusyMs = 60000;
    l.trendMs = 60000;
    return l;
}

ResourceHistory feed(ResourceHistory h, Ms from, Ms to, Ms step, std::uint64_t rss0,
                     double kibPerMs, double cpu, const ResourceLimits &l) {
    for (Ms t = from; t <= to; t += step)
        h = addSample(h, {t, rss0 + std::uint64_t(kibPerMs * double(t - from)), cpu}, l);
    return h;
}

} // namespace

class TestResourceWatch : public QObject {
    Q_OBJECT
private slots:
    void limitsComeFromTheSettingsInUnitsOfKiBAndMs() {
        const ResourceLimits l = resourceLimits(1024, 10);
        QCOMPARE(l.memoryWarnKiB, std::uint64_t(1024 * 1024));
        QCOMPARE(l.cpuBusyMs, Ms(600000));
        QCOMPARE(resourceLimits(0, 0).memoryWarnKiB, std::uint64_t(1024)); // never below 1 MiB
    }

    void memoryFlagsAtTheThresholdExactlyAndNotBelow() {
        const ResourceLimits l = small();
        ResourceHistory h = addSample({}, {0, l.memoryWarnKiB - 1, 0}, l);
        QVERIFY(!h.memoryFlag);
        QVERIFY(trendOf(h, l).why.empty());
        const ResourceHistory before = h;
        h = addSample(h, {1000, l.memoryWarnKiB, 0}, l);
        QVERIFY(h.memoryFlag);
        QVERIFY(newlyFlagged(before, h));
        const ResourceTrend t = trendOf(h, l);
        QVERIFY(t.memoryFlag);
        QVERIFY(!t.cpuFlag);
        QVERIFY2(QString::fromStdString(t.why).contains(QLatin1String("over 10 MiB")),
                 t.why.c_str());
    }

    void memoryFlagClearsOnlyWellBelowTheThresholdSoItDoesNotFlap() {
        const ResourceLimits l = small();
        ResourceHistory h = addSample({}, {0, l.memoryWarnKiB + 5, 0}, l);
        QVERIFY(h.memoryFlag);
        const ResourceHistory flagged = h;
        h = addSample(h, {1000, l.memoryWarnKiB - 1, 0}, l); // just under: still flagged
        QVERIFY(h.memoryFlag);
        QVERIFY(!newlyFlagged(flagged, h)); // one notice per rise, not per sample
        h = addSample(h, {2000, l.memoryWarnKiB * 8 / 10, 0}, l);
        QVERIFY(!h.memoryFlag);
        const ResourceHistory cleared = h;
        h = addSample(h, {3000, l.memoryWarnKiB, 0}, l);
        QVERIFY(newlyFlagged(cleared, h)); // a second rise notifies again
    }

    void trendShowsGrowthPerMinuteOverTheSpan() {
        const ResourceLimits l = small();
        // 2 MiB per second for 30 s, sampled every 100 ms: 120 MiB per minute.
        const ResourceHistory h = feed({}, 0, 30000, 100, 4096, 2.048, 0, l);
        const ResourceTrend t = trendOf(h, l);
        QCOMPARE(t.rssKiB, std::uint64_t(4096 + 2.048 * 30000));
        QCOMPARE(t.rssKiBBefore, std::uint64_t(4096));
        QCOMPARE(t.spanMs, Ms(30000));
        QVERIFY2(qAbs(t.growthKiBPerMin - 2.048 * 60000) < 1.0,
                 qPrintable(QString::number(t.growthKiBPerMin)));
    }

    void historyStaysBoundedAndReachesBackAtMostTheTrendSpan() {
        const ResourceLimits l = small();
        const ResourceHistory h = feed({}, 0, 600000, 10, 1000, 0, 5, l); // 60,000 samples
        QVERIFY2(h.kept.size() <= std::size_t(kKeptSamples + 1),
                 qPrintable(QString::number(h.kept.size())));
        const ResourceTrend t = trendOf(h, l);
        QVERIFY(t.spanMs <= l.trendMs);
        QVERIFY(t.spanMs >= l.trendMs - l.trendMs / kKeptSamples - 10);
        QCOMPARE(t.growthKiBPerMin, 0.0);
        QVERIFY(qAbs(t.cpuAvgPercent - 5) < 1e-9);
    }

    void aCoreBusyForTheWholeSpanFlagsAndNotADayEarlier() {
        const ResourceLimits l = small();
        ResourceHistory h = addSample({}, {0, 100, -1}, l); // first sample: CPU unknown
        h = feed(h, 1000, 60000, 1000, 100, 0, 99, l);      // busy since 0 (interval start)
        QCOMPARE(h.busySince, Ms(0));
        QVERIFY(h.cpuFlag);
        QCOMPARE(trendOf(h, l).cpuBusyMs, Ms(60000));
        // One millisecond short of the limit is not flagged.
        ResourceHistory s = addSample({}, {0, 100, -1}, l);
        s = addSample(s, {59999, 100, 100}, l);
        QVERIFY(!s.cpuFlag);
        s = addSample(s, {60000, 100, 100}, l);
        QVERIFY(s.cpuFlag);
        QVERIFY(QString::fromStdString(trendOf(s, l).why).contains(QLatin1String("core busy")));
    }

    void anIdleIntervalEndsTheBusyStretchAndAnUnknownOneDoesNot() {
        const ResourceLimits l = small();
        ResourceHistory h = feed({}, 0, 50000, 1000, 100, 0, 95, l);
        h = addSample(h, {51000, 100, -1}, l); // unknown: e.g. a restarted sample series
        QVERIFY(h.busySince >= 0);
        h = addSample(h, {52000, 100, 10}, l);
        QCOMPARE(h.busySince, Ms(-1));
        h = feed(h, 53000, 100000, 1000, 100, 0, 95, l);
        QVERIFY(!h.cpuFlag); // 48 s of the new stretch: under a minute
        QVERIFY(trendOf(h, l).cpuBusyMs < l.cpuBusyMs);
    }

    void busyJustBelowTheBusyPercentNeverFlags() {
        const ResourceLimits l = small();
        const ResourceHistory h = feed({}, 0, 10 * 60000, 1000, 100, 0, l.busyPercent - 0.1, l);
        QVERIFY(!h.cpuFlag);
        QCOMPARE(h.busySince, Ms(-1));
    }

    void bothFlagsAreNamedInOneLine() {
        const ResourceLimits l = small();
        const ResourceHistory h = feed({}, 0, 60000, 1000, l.memoryWarnKiB, 0, 100, l);
        const ResourceTrend t = trendOf(h, l);
        QVERIFY(t.memoryFlag && t.cpuFlag);
        QVERIFY(t.why.find("memory") != std::string::npos);
        QVERIFY(t.why.find("; a core busy") != std::string::npos);
    }

    void anEmptyHistoryHasANeutralTrend() {
        const ResourceTrend t = trendOf({}, small());
        QCOMPARE(t.rssKiB, std::uint64_t(0));
        QVERIFY(!t.memoryFlag && !t.cpuFlag);
        QVERIFY(t.why.empty());
    }
};

QTEST_APPLESS_MAIN(TestResourceWatch)
#include "tst_resource_watch.moc"
