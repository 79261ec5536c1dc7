// What the suites that drive a real tray host (Debian's `trayer`, under Xvfb) share: where
// their screenshots go, a poll that keeps the event loop running, and trayer itself.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

#include <functional>

namespace tether::test {

// <build>/tests/ui-shots (created): the screenshots a person looks at.
QString shotsDir();

// Polls condition() every pollMs, the event loop running meanwhile, until it holds or timeoutMs
// have passed; then asks it once more.
bool waitFor(const std::function<bool()> &condition, int timeoutMs, int pollMs);

// Starts trayer as the tray host: a width x height panel at the top right, a dock.
void startTrayer(QProcess &trayer, int width, int height);
// Ends a trayer this test started (it is our own child): TERM, then KILL after 3 s.
void stopTrayer(QProcess &trayer);

} // namespace tether::test
