#include "service/service_job.h"

#include <QProcess>

#ifdef Q_OS_WIN
#include <windows.h>
#endif

namespace tether {

std::string serviceJobName(const os::Identity &service) {
    return "tether-service-" + std::to_string(service.pid) + "-" +
           std::to_string(service.startTime);
}

std::vector<os::Pid> endServiceJob(const std::shared_ptr<os::Job> &job,
                                   std::chrono::milliseconds wait, bool *emptied) {
    if (emptied) *emptied = true;
    if (!job) return {};
    std::vector<os::Pid> pids = job->pids();
    if (pids.empty()) return pids;
    // terminate() refuses a job that holds Tether itself. It only starts the ending: the
    // processes (and the port the service held) are gone once the job is empty.
    const bool ended = job->terminate(1) && job->waitEmpty(wait);
    if (emptied) *emptied = ended;
    return pids;
}

#ifdef Q_OS_WIN
// Compiled into tether.exe with Qt 6.4.2 for MinGW-w64; the Qt suites do not build for Windows
// yet, so what runs under wine is the OS layer below (tests/windows/test_os_windows.cpp).

void setServiceCreationFlags(QProcess *process, bool suspended) {
    process->setCreateProcessArgumentsModifier([suspended](QProcess::CreateProcessArguments *args) {
        // CREATE_NO_WINDOW: a new console without a window (not Tether's, if it has one).
        args->flags &= ~DWORD(CREATE_NEW_CONSOLE | DETACHED_PROCESS);
        args->flags |= CREATE_NO_WINDOW | CREATE_NEW_PROCESS_GROUP;
        if (suspended) args->flags |= CREATE_SUSPENDED;
    });
}

std::shared_ptr<os::Job> containStartedService(const os::Identity &service, QString *error) {
    std::string why;
    std::shared_ptr<os::Job> job = os::Job::create(serviceJobName(service), &why);
    if (job && !job->assign(service.pid, &why)) job.reset();
    // The job's name dies with its last handle: the service holds one, so a Tether started
    // after this one quit can still reopen the job while the service lives.
    if (job && !job->keepOpenIn(service, &why)) why = "job not reopenable later: " + why;
    std::string resumeWhy; // resumed whatever happened above: a service is never left frozen
    if (!os::resumeSuspended(service.pid, &resumeWhy)) why += (why.empty() ? "" : "; ") + resumeWhy;
    if (error) *error = QString::fromStdString(why);
    return job;
}

std::shared_ptr<os::Job> reopenServiceJob(const os::Identity &service) {
    return os::Job::open(serviceJobName(service));
}

#else

void setServiceCreationFlags(QProcess *, bool) {
}

std::shared_ptr<os::Job> containStartedService(const os::Identity &, QString *) {
    return nullptr;
}

std::shared_ptr<os::Job> reopenServiceJob(const os::Identity &) {
    return nullptr;
}

#endif

} // namespace tether
