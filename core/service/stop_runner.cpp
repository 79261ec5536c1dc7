#include "service/stop_runner.h"

#include "service/service_job.h"
#include "supervision/os_process_table.h"

#include <QThread>

namespace tether {

// Blocking work on a thread of its own (it may wait out a grace period), then() back on the
// runner's thread. The runner waits for such threads before it is destroyed.
class StopRunner::Threads : public supervision::Worker {
public:
    explicit Threads(QObject *owner)
        : owner_(owner) {}
    void run(std::function<void()> work, std::function<void()> then) override {
        QThread *thread = QThread::create(std::move(work));
        thread->setParent(owner_);
        QObject::connect(thread, &QThread::finished, owner_, [thread, then] {
            thread->deleteLater();
            then();
        });
        thread->start();
    }

private:
    QObject *owner_;
};

namespace {

supervision::StopSequencePorts portsOf(StopRunner *runner, supervision::ProcessTable *table,
                                       supervision::Worker *worker,
                                       std::function<void(const policy::Event &)> feed,
                                       std::function<std::shared_ptr<os::Job>()> job,
                                       const StopRunner::OrphanSweep *sweep,
                                       const StopRunner::TerminalStep *terminals) {
    supervision::StopSequencePorts p;
    p.table = table;
    p.worker = worker;
    p.terminals = [terminals](policy::Terminals t, std::function<void()> done) {
        if (*terminals)
            (*terminals)(t, std::move(done));
        else
            done();
    };
    // The job is taken on the runner's thread (the launcher's), ended on the worker.
    p.jobEnder = [job](const policy::StopPlan &plan) -> std::function<supervision::JobEnd()> {
        std::shared_ptr<os::Job> j = job();
        if (!j) return {};
        const std::chrono::milliseconds grace(plan.graceMs);
        return [j, grace] {
            supervision::JobEnd end;
            end.ended = endServiceJob(j, grace, &end.emptied);
            return end;
        };
    };
    p.sweepOrphans = [sweep](const os::Identity &service, std::function<void()> done) {
        if (*sweep)
            (*sweep)(service, std::move(done));
        else
            done();
    };
    p.log = [runner](const std::string &line) {
        emit runner->logLine(QString::fromStdString(line));
    };
    p.done = [feed](const policy::StopPlanDone &d) { feed(d); };
    return p;
}

} // namespace

StopRunner::StopRunner(std::function<void(const policy::Event &)> feed,
                       std::function<std::shared_ptr<os::Job>()> job, QObject *parent)
    : QObject(parent)
    , threads_(std::make_unique<Threads>(this))
    , table_(std::make_unique<supervision::OsProcessTable>())
    , sequence_(portsOf(this, table_.get(), threads_.get(), std::move(feed), std::move(job),
                        &sweep_, &terminals_)) {
}

StopRunner::~StopRunner() {
    for (QThread *t : findChildren<QThread *>())
        t->wait();
}

} // namespace tether
