// The recorded opencode 2.x answers and files of tests/fixtures/opencode2 (see its README.md for
// where in opencode's source each shape comes from), built into the test support library as Qt
// resources so every platform's suites read the same bytes; and the shape check that holds
// Tether's stand-in to them.
#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

namespace tether::test {

// The fixture's bytes (e.g. "mcp_list.json"); a missing one fails the calling test loudly.
QByteArray opencode2Fixture(const QString &name);
QStringList opencode2FixtureNames();

// The `data:` payloads of a recorded event stream, in order.
QList<QByteArray> sseDataLines(const QByteArray &stream);

// Empty when `actual` has the recorded shape: an object has exactly the record's keys (each
// value of the same shape), an array's every element has the shape of one of the record's
// elements, a scalar the same JSON type. An object under a key in `freeKeys` (a map such as
// /api/session/active's data, a tool's input) may have any keys: each value has the shape of
// the record's first. Else the path of the first difference and what differs.
QString shapeDifference(const QJsonValue &actual, const QJsonValue &record,
                        const QStringList &freeKeys = {},
                        const QString &path = QStringLiteral("$"));

} // namespace tether::test
