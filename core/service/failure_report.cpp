#include "service/failure_report.h"

#include "service/port_doctor.h"
#include "settings/storage.h"

#include <QFile>

#include <algorithm>

namespace tether {

namespace {

QString q(const std::string &s) {
    return QString::fromStdString(s);
}

// The lines the service wrote since `offset` (its last run), at most the last 64 KiB of them.
std::vector<std::string> serviceOutputSince(const QString &path, qint64 offset) {
    QFile f; // no link, no FIFO in its place (settings/storage.h)
    if (path.isEmpty() || !storage::openForReading(f, path, nullptr)) return {};
    constexpr qint64 kTail = 64 * 1024;
    const qint64 from = std::max(offset, f.size() - kTail);
    // A rotation since the launch leaves the file shorter than the offset: read its start.
    f.seek(from > f.size() ? 0 : from);
    std::vector<std::string> lines;
    for (const QByteArray &l : f.read(kTail).split('\n'))
        lines.push_back(QString::fromUtf8(l).toStdString());
    return lines;
}

} // namespace

FailureStatus failureReport(const FailureInputs &in) {
    policy::FailureFacts facts;
    facts.reason = in.reason;
    if (!in.exitOurs) facts.exit = in.exit;
    if (in.exit) facts.log = serviceOutputSince(in.serviceLogPath, in.logOffset);
    FailureStatus out;
    out.logPath = in.serviceLogPath;
    out.fix = in.fix;
    out.exit = in.exit;
    out.program = in.program;
    // The restart budget spent: Tether gave up after these.
    if (out.fix == policy::FixFirst::Nothing && in.failedStarts >= in.timings.burst) {
        out.failedStarts = in.failedStarts;
        out.withinMs = in.timings.burstWindowMs;
    }
    // The port doctor: nothing of ours runs now, so whoever holds the port is in the way.
    const PortExamination port = in.launchPort > 0 && in.examinePort
                                     ? examinePort(quint16(in.launchPort), 0)
                                     : PortExamination{};
    if (port.diagnosis.isCause) {
        facts.portCause = port.diagnosis.cause;
        out.portHeld = true;
        out.portBlock = port.diagnosis.block;
        for (const std::string &name : port.diagnosis.holderNames)
            out.portHolderNames << q(name);
        out.port = in.configuredPort;
        if (port.diagnosis.excludedRange)
            out.reservedRange = QStringLiteral("%1-%2")
                                    .arg(port.diagnosis.excludedRange->first)
                                    .arg(port.diagnosis.excludedRange->last);
        out.portHolder = q(port.diagnosis.holder);
        if (in.offerFreePort) out.freePort = port.freePort;
    }
    out.cause = q(policy::describeFailure(facts));
    if (facts.portCause.empty()) out.errorLine = q(policy::errorLine(facts.log));
    for (const std::string &l : policy::relevantLines(facts.log, 12))
        out.serviceLog << q(l);
    return out;
}

} // namespace tether
