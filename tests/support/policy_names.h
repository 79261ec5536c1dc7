// The policy's own names for QCOMPARE's output (QTest would free the static strings a toString
// it found by lookup returned). For the policy suites that drive the machine by hand.
#pragma once

#include "policy/supervision.h"

#include <QByteArray>

namespace tether::test {

inline QByteArray name(policy::State s) {
    return policy::toString(s);
}
inline QByteArray name(policy::StopCause c) {
    return policy::toString(c);
}

} // namespace tether::test
