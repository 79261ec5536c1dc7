#pragma once
// Containment of a service Tether starts, on Windows: the process is created suspended, put in
// a named job object, then resumed, so nothing it starts escapes; when it dies the job ends the
// rest of its tree. On POSIX a new session (setsid) does this job and these are no-ops.
#include "os/process.h"

#include <QString>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

class QProcess;

namespace tether {

// The job's name follows from the service's identity, so a later Tether launch that adopts the
// service reopens the same job.
std::string serviceJobName(const os::Identity &service);

// Before QProcess::start (Windows; nothing elsewhere): the service gets a windowless console of
// its own and leads a new process group, so terminate() can ask it to stop with CTRL_BREAK
// through that console, reaching nothing else; and it starts suspended when it is to be
// contained, so that it joins its job before it runs.
void setServiceCreationFlags(QProcess *process, bool suspended);

// After a suspended start: a new job holding the service, which is then resumed whatever
// happens. nullptr when it runs uncontained; *error says what failed. Always nullptr on POSIX.
std::shared_ptr<os::Job> containStartedService(const os::Identity &service, QString *error);

// Ends what is left in the job (the dead or stopped service's tree) and waits up to `wait` for
// it to empty, so a relaunch finds the port free; the pids it held, for the log. *emptied: the
// job is empty now. Nothing without a job.
std::vector<os::Pid> endServiceJob(const std::shared_ptr<os::Job> &job,
                                   std::chrono::milliseconds wait, bool *emptied = nullptr);

// The job of a service an earlier Tether launch started, if it still exists (Windows).
std::shared_ptr<os::Job> reopenServiceJob(const os::Identity &service);

} // namespace tether
