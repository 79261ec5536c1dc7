// One Tether per user and data directory, decided by a lock the kernel keeps for as long as the
// process lives: flock (POSIX) or LockFileEx (Windows) on control.lock beside the control
// socket. A stall, a full listen backlog or exhausted descriptors cannot make a running Tether
// look gone (asking its socket could), and a Tether that dies, even by SIGKILL, lets go of it.
// The lock file itself is never deleted: deleting it could let two holders each lock their own.
#pragma once

#include <QString>
#include <optional>

namespace tether::control {

class InstanceLock {
public:
    InstanceLock() = default;
    ~InstanceLock(); // released
    InstanceLock(const InstanceLock &) = delete;
    InstanceLock &operator=(const InstanceLock &) = delete;

    static QString path(); // storage::dataPath("control.lock")

    enum class Result { Acquired, HeldByAnother, Error };
    // Takes the lock for this process. A verb that looks (isHeld) holds it for microseconds, so
    // a refusal is tried again for a moment before it counts as another Tether's.
    Result acquire(QString *error);
    bool held() const;

    // Whether a Tether holds it now (the lock is taken and let go at once); nullopt when that
    // cannot be told (the file is unreadable). Creates nothing: no file means nobody.
    static std::optional<bool> isHeld();

private:
#ifdef _WIN32
    void *handle_ = nullptr;
#else
    int fd_ = -1;
#endif
};

} // namespace tether::control
