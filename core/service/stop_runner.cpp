#include "service/stop_runner.h"

#include "service/service_job.h"
#include "supervision/os_process_table.h"
#include "supervision/stop_plan.h"

#include <QStringList>
#include <QThread>

namespace tether {

QString pidList(const std::vector<os::Pid> &pids); // supervisor.cpp

StopRunner::StopRunner(std::function<void(const policy::Event &)> feed,
                       std::function<std::shared_ptr<os::Job>()> job, QObject *parent)
    : QObject(parent)
    , feed_(std::move(feed))
    , job_(std::move(job)) {
}

StopRunner::~StopRunner() {
    for (QThread *t : findChildren<QThread *>())
        t->wait();
}

namespace {

// Runs work() on a thread of its own (it may block for a grace period), then() back on the
// owner's thread. The owner waits for such threads before it is destroyed.
void offThread(QObject *owner, std::function<void()> work, std::function<void()> then) {
    QThread *thread = QThread::create(std::move(work));
    thread->setParent(owner);
    QObject::connect(thread, &QThread::finished, owner, [thread, then] {
        thread->deleteLater();
        then();
    });
    thread->start();
}

} // namespace

void StopRunner::run(const policy::RunStopPlan &run) {
    busy_ = true;
    if (terminals_ && run.plan.terminals != policy::Terminals::Untouched) {
        terminals_(run.plan.terminals, [this, run] { signalAndSweep(run); });
        return;
    }
    signalAndSweep(run);
}

void StopRunner::signalAndSweep(const policy::RunStopPlan &run) {
    struct Outcome {
        supervision::StopPlanReport report;
        std::vector<os::Pid> jobEnded;
        bool jobEmptied = true;
        int pending = 2; // the group's grace and the orphan sweep run side by side
    };
    auto outcome = std::make_shared<Outcome>();
    const policy::StopPlan plan = run.plan;
    const std::shared_ptr<os::Job> job = plan.group ? job_() : nullptr;
    auto done = [this, plan, outcome] {
        if (--outcome->pending > 0) return;
        const supervision::StopPlanReport &r = outcome->report;
        if (!r.groupKilled.empty())
            emit logLine(
                QStringLiteral("  group %1 killed: %2").arg(plan.pgid).arg(pidList(r.groupKilled)));
        if (!r.straysKilled.empty())
            emit logLine(
                QStringLiteral("  outside its group, killed: %1").arg(pidList(r.straysKilled)));
        busy_ = false;
        feed_(policy::StopPlanDone{r.refused(), r.detail});
    };
    offThread(
        this,
        [plan, job, outcome] {
            supervision::OsProcessTable table;
            outcome->report = supervision::beginStopPlan(plan, table);
            // Windows: what is left in its job (POSIX: the group step), gone before the relaunch.
            if (!outcome->report.refused())
                outcome->jobEnded = endServiceJob(job, std::chrono::milliseconds(plan.graceMs),
                                                  &outcome->jobEmptied);
        },
        [this, plan, outcome, done] {
            const supervision::StopPlanReport &r = outcome->report;
            if (plan.terminate)
                emit logLine(QStringLiteral("pid %1: %2%3")
                                 .arg(plan.service.pid)
                                 .arg(QLatin1String(os::toString(r.service)))
                                 .arg(r.detail.empty() ? QString()
                                                       : QStringLiteral(" (%1)").arg(
                                                             QString::fromStdString(r.detail))));
            if (!r.straysTermed.empty()) {
                std::vector<os::Pid> pids;
                for (const os::Identity &id : r.straysTermed)
                    pids.push_back(id.pid);
                emit logLine(
                    QStringLiteral("  outside its group, terminating pid %1").arg(pidList(pids)));
            }
            if (!r.groupTermed.empty())
                emit logLine(QStringLiteral("  group %1 signalled: %2")
                                 .arg(plan.pgid)
                                 .arg(pidList(r.groupTermed)));
            else if (plan.group && !r.groupSkipped.empty())
                emit logLine(QStringLiteral("  group %1 not signalled: %2")
                                 .arg(plan.pgid)
                                 .arg(QString::fromStdString(r.groupSkipped)));
            if (!outcome->jobEnded.empty())
                emit logLine(QStringLiteral("  job ended: %1%2")
                                 .arg(pidList(outcome->jobEnded))
                                 .arg(outcome->jobEmptied
                                          ? QString()
                                          : QStringLiteral(" (still not empty after %1 ms)")
                                                .arg(plan.graceMs)));
            offThread(
                this,
                [plan, outcome] {
                    supervision::OsProcessTable table;
                    supervision::finishStopPlan(plan, table, outcome->report);
                },
                done);
            if (plan.orphans && sweep_ && !r.refused())
                sweep_(plan.service, done);
            else
                done();
        });
}

} // namespace tether
