#include "supervision/stop_sequence.h"

namespace tether::supervision {

std::string pidList(const std::vector<os::Pid> &pids) {
    std::string out;
    for (os::Pid p : pids)
        out += (out.empty() ? "" : " ") + std::to_string(p);
    return out;
}

StopSequence::StopSequence(StopSequencePorts ports)
    : ports_(std::move(ports))
    , report_(std::make_shared<StopPlanReport>()) {
}

void StopSequence::run(const policy::RunStopPlan &run) {
    busy_ = true;
    const policy::StopPlan plan = run.plan;
    if (ports_.terminals && plan.terminals != policy::Terminals::Untouched) {
        ports_.terminals(plan.terminals, [this, plan] { signalAndSweep(plan); });
        return;
    }
    signalAndSweep(plan);
}

void StopSequence::signalAndSweep(const policy::StopPlan &plan) {
    auto report = std::make_shared<StopPlanReport>();
    auto job = std::make_shared<JobEnd>();
    auto pending = std::make_shared<int>(2); // the group's grace and the orphan sweep
    report_ = report;
    ProcessTable *table = ports_.table;
    std::function<JobEnd()> endJob;
    if (plan.group && ports_.jobEnder) endJob = ports_.jobEnder(plan);
    auto done = [this, plan, report, pending] {
        if (--*pending > 0) return;
        if (!report->groupKilled.empty())
            ports_.log("  group " + std::to_string(plan.pgid) +
                       " killed: " + pidList(report->groupKilled));
        if (report->groupKilled.empty() && !report->groupSkipped.empty())
            ports_.log("  group " + std::to_string(plan.pgid) +
                       " not killed: " + report->groupSkipped);
        if (!report->straysKilled.empty())
            ports_.log("  outside its group, killed: " + pidList(report->straysKilled));
        busy_ = false;
        ports_.done(policy::StopPlanDone{report->refused(), report->detail});
    };
    const Ms killWait = ports_.killWaitMs;
    ports_.worker->run(
        [plan, table, report, job, endJob, killWait] {
            *report = beginStopPlan(plan, *table, killWait);
            // Windows: what is left in its job (POSIX: the group step), gone before a relaunch.
            if (!report->refused() && endJob) *job = endJob();
        },
        [this, plan, table, report, job, done, killWait] {
            const StopPlanReport &r = *report;
            if (plan.terminate)
                ports_.log("pid " + std::to_string(plan.service.pid) + ": " +
                           os::toString(r.service) +
                           (r.detail.empty() ? "" : " (" + r.detail + ")"));
            if (!r.straysTermed.empty()) {
                std::vector<os::Pid> pids;
                for (const os::Identity &id : r.straysTermed)
                    pids.push_back(id.pid);
                ports_.log("  outside its group, terminating pid " + pidList(pids));
            }
            if (!r.groupTermed.empty())
                ports_.log("  group " + std::to_string(plan.pgid) +
                           " signalled: " + pidList(r.groupTermed));
            else if (plan.group && !r.groupSkipped.empty())
                ports_.log("  group " + std::to_string(plan.pgid) +
                           " not signalled: " + r.groupSkipped);
            if (!job->ended.empty())
                ports_.log("  job ended: " + pidList(job->ended) +
                           (job->emptied ? ""
                                         : " (still not empty after " +
                                               std::to_string(plan.graceMs) + " ms)"));
            ports_.worker->run([plan, table, report,
                                killWait] { finishStopPlan(plan, *table, *report, killWait); },
                               done);
            if (plan.orphans && ports_.sweepOrphans && !r.refused())
                ports_.sweepOrphans(plan.service, done);
            else
                done();
        });
}

} // namespace tether::supervision
