#include "demo/common/option_values.h"

namespace tether::demo {

bool parseOptionsOnly(QCommandLineParser &p, const QStringList &arguments, QString &error) {
    if (!p.parse(arguments)) {
        error = p.errorText();
        return false;
    }
    if (!p.positionalArguments().isEmpty()) {
        error = QStringLiteral("unexpected argument \"%1\"").arg(p.positionalArguments().first());
        return false;
    }
    return true;
}

bool readIntOption(const QCommandLineParser &p, const QCommandLineOption &o, int min, int max,
                   int &out, QString &error) {
    if (!p.isSet(o)) return true;
    bool ok = false;
    const QString text = p.value(o);
    const qlonglong v = text.toLongLong(&ok);
    if (!ok || v < min || v > max) {
        error = QStringLiteral("--%1 must be an integer from %2 to %3, got \"%4\"")
                    .arg(o.names().constFirst())
                    .arg(min)
                    .arg(max)
                    .arg(text);
        return false;
    }
    out = static_cast<int>(v);
    return true;
}

bool readToolSpec(const QString &value, int maxSeconds, QString &tool, int &seconds,
                  QString &error) {
    const qsizetype colon = value.lastIndexOf(QLatin1Char(':'));
    bool ok = false;
    const int s = colon > 0 ? value.mid(colon + 1).toInt(&ok) : 0;
    if (!ok || s < 0 || s > maxSeconds) {
        error = QStringLiteral("--busy-tool must be NAME:SECONDS (0..%1), got \"%2\"")
                    .arg(maxSeconds)
                    .arg(value);
        return false;
    }
    tool = value.left(colon);
    seconds = s;
    return true;
}

} // namespace tether::demo
