#include "opencode2_fixtures.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

namespace tether::test {

namespace {

const QString kRoot = QStringLiteral(":/opencode2");

QString typeName(const QJsonValue &v) {
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("bool");
    case QJsonValue::Double:
        return QStringLiteral("number");
    case QJsonValue::String:
        return QStringLiteral("string");
    case QJsonValue::Array:
        return QStringLiteral("array");
    case QJsonValue::Object:
        return QStringLiteral("object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

} // namespace

QByteArray opencode2Fixture(const QString &name) {
    QFile f(kRoot + QLatin1Char('/') + name);
    if (!f.open(QIODevice::ReadOnly)) {
        QTest::qFail(qPrintable(QStringLiteral("no recorded fixture %1").arg(name)), __FILE__,
                     __LINE__);
        return {};
    }
    return f.readAll();
}

QStringList opencode2FixtureNames() {
    return QDir(kRoot).entryList(QDir::Files, QDir::Name);
}

QList<QByteArray> sseDataLines(const QByteArray &stream) {
    QList<QByteArray> out;
    for (const QByteArray &line : stream.split('\n'))
        if (line.startsWith("data: ")) out << line.mid(6);
    return out;
}

QString shapeDifference(const QJsonValue &actual, const QJsonValue &record,
                        const QStringList &freeKeys, const QString &path) {
    if (actual.type() != record.type())
        return QStringLiteral("%1: %2 where the record has %3")
            .arg(path, typeName(actual), typeName(record));
    if (record.isArray()) {
        const QJsonArray recorded = record.toArray();
        const QJsonArray elements = actual.toArray();
        for (qsizetype i = 0; i < elements.size(); ++i) {
            const QString at = QStringLiteral("%1[%2]").arg(path).arg(i);
            QString why = QStringLiteral("%1: the record has no element").arg(at);
            for (const QJsonValue &r : recorded) {
                why = shapeDifference(elements.at(i), r, freeKeys, at);
                if (why.isEmpty()) break;
            }
            if (!why.isEmpty()) return why;
        }
        return {};
    }
    if (!record.isObject()) return {};
    const QJsonObject a = actual.toObject();
    const QJsonObject r = record.toObject();
    const QString name = path.section(QLatin1Char('.'), -1);
    if (freeKeys.contains(name)) {
        if (r.isEmpty()) return {};
        for (auto it = a.begin(); it != a.end(); ++it) {
            const QString why =
                shapeDifference(it.value(), r.begin().value(), freeKeys, path + "." + it.key());
            if (!why.isEmpty()) return why;
        }
        return {};
    }
    for (auto it = a.begin(); it != a.end(); ++it)
        if (!r.contains(it.key()))
            return QStringLiteral("%1: key \"%2\" is not in the record").arg(path, it.key());
    for (auto it = r.begin(); it != r.end(); ++it) {
        if (!a.contains(it.key()))
            return QStringLiteral("%1: the record's key \"%2\" is missing").arg(path, it.key());
        const QString why =
            shapeDifference(a.value(it.key()), it.value(), freeKeys, path + "." + it.key());
        if (!why.isEmpty()) return why;
    }
    return {};
}

} // namespace tether::test
