// Settings values as QSettings hands them over: each input line "key=value" becomes one entry;
// the line's first byte picks the QVariant type (string, string list, integer, double, bool).
#include "settings/settings.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    QMap<QString, QVariant> values;
    for (const QByteArray &line : bytes.split('\n')) {
        if (line.isEmpty()) continue;
        const char kind = line.at(0);
        const QByteArray rest = line.mid(1);
        const qsizetype eq = rest.indexOf('=');
        const QString key = QString::fromUtf8(eq < 0 ? rest : rest.left(eq));
        const QByteArray raw = eq < 0 ? QByteArray() : rest.mid(eq + 1);
        QVariant v;
        switch (kind % 5) {
        case 0:
            v = QString::fromUtf8(raw);
            break;
        case 1:
            v = QString::fromUtf8(raw).split(QLatin1Char(','));
            break;
        case 2:
            v = raw.toLongLong();
            break;
        case 3:
            v = raw.toDouble();
            break;
        default:
            v = !raw.isEmpty() && raw.at(0) % 2;
            break;
        }
        values.insert(key, v);
    }
    const tether::LoadedSettings s = tether::settingsFromValues(values);
    const auto &t = s.settings.timings;
    // Whatever came in, the result is inside the documented ranges.
    if (s.settings.port < 1 || s.settings.port > 65535 || t.probeIntervalMs < 10 ||
        t.probeTimeoutMs < 10 || t.backoffInitialMs < 1 || t.backoffMaxMs < t.backoffInitialMs ||
        t.burst < 1 || s.settings.orphanGraceMs < 0)
        std::abort();
    // And the validated settings read back as themselves without a warning.
    if (!tether::settingsFromValues(tether::settingsToValues(s.settings)).warnings.isEmpty())
        std::abort();
    return 0;
}
