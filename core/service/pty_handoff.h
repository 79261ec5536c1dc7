// opencode 2.x's persistent terminals across a replacement, as its own clients hand them over
// (docs/opencode2-protocol.md, Stop and replace; packages/client/src/pty-handoff.ts): before a
// ready service is stopped to be replaced, POST /api/experimental/persistent-pty/handoff gives
// a ticket (404: an older service, whose terminals are shut down instead); the ticket is
// published beside service.json in <service.json>.pty-handoff, and the new service gets it as
// OPENCODE_PTY_HANDOFF. Pure: what to write, what to hand over; the shell does the I/O.
#pragma once

#include "service/managed_registration.h"

#include <QByteArray>
#include <QString>
#include <optional>

namespace tether {

inline constexpr char kPtyHandoffRoute[] = "/api/experimental/persistent-pty/handoff";
inline constexpr char kPtyShutdownRoute[] = "/api/experimental/persistent-pty/shutdown";
inline constexpr char kPtyHandoffEnv[] = "OPENCODE_PTY_HANDOFF";
// How long a published "nothing to hand over" stays valid (the client's 30 s).
inline constexpr qint64 kPtyHandoffDefaultTtlMs = 30000;

QString ptyHandoffSidecarPath(const QString &registrationPath);

// The handoff route's answer: {handoff: {directory, instanceID, ticket, expiresAt} | null}.
struct PtyHandoffAnswer {
    bool ok = false;      // the shape is right (and a ticket has not expired by nowMs)
    QByteArray handoff;   // the handoff object as JSON, or "null": nothing to hand over
    qint64 expiresAt = 0; // the ticket's (0 for null)
    QString error;
};
PtyHandoffAnswer parsePtyHandoffAnswer(const QByteArray &body, qint64 nowMs);

// The sidecar for a replacement of `source`: {source: {id, pid, url}, handoff, expiresAt}.
QByteArray ptyHandoffSidecar(const ManagedRegistration &source, const PtyHandoffAnswer &answer,
                             qint64 nowMs);

// What a new service is given as OPENCODE_PTY_HANDOFF: the sidecar's handoff while it has not
// expired and service.json names its source or nothing; nullopt for none.
std::optional<QByteArray> ptyHandoffForLaunch(const QByteArray &sidecar,
                                              const std::optional<ManagedRegistration> &current,
                                              qint64 nowMs);

// After another service is ready: a sidecar of an older source has done its job.
bool ptyHandoffDone(const QByteArray &sidecar, const ManagedRegistration &ready);

} // namespace tether
