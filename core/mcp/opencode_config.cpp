#include "mcp/opencode_config.h"

#include "settings/storage.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <map>

namespace tether::mcp {

QByteArray jsoncToJson(const QByteArray &in) {
    QByteArray out;
    out.reserve(in.size());
    const qsizetype n = in.size();
    qsizetype i = 0;
    while (i < n) {
        const char c = in[i];
        if (c == '"') { // a string, escapes and all, as it is
            const qsizetype start = i++;
            while (i < n && in[i] != '"')
                i += in[i] == '\\' ? 2 : 1;
            i = std::min(n, i + 1);
            out.append(in.constData() + start, i - start);
        } else if (c == '/' && i + 1 < n && in[i + 1] == '/') {
            while (i < n && in[i] != '\n')
                ++i;
        } else if (c == '/' && i + 1 < n && in[i + 1] == '*') {
            const qsizetype end = in.indexOf("*/", i + 2);
            i = end < 0 ? n : end + 2;
            out.append(' ');
        } else if (c == ',') {
            // A trailing comma: the next thing that is not blank or a comment closes.
            qsizetype j = i + 1;
            for (;;) {
                while (j < n && QChar::isSpace(uchar(in[j])))
                    ++j;
                if (j + 1 < n && in[j] == '/' && in[j + 1] == '/') {
                    while (j < n && in[j] != '\n')
                        ++j;
                } else if (j + 1 < n && in[j] == '/' && in[j + 1] == '*') {
                    const qsizetype end = in.indexOf("*/", j + 2);
                    j = end < 0 ? n : end + 2;
                } else {
                    break;
                }
            }
            if (j >= n || (in[j] != '}' && in[j] != ']')) out.append(',');
            ++i;
        } else {
            out.append(c);
            ++i;
        }
    }
    return out;
}

ConfigParse parseOpencodeConfig(const QByteArray &text) {
    ConfigParse r;
    if (text.size() > kMaxConfigFileBytes) {
        r.error = "larger than " + std::to_string(kMaxConfigFileBytes) + " bytes";
        return r;
    }
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(jsoncToJson(text), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        r.error = pe.error != QJsonParseError::NoError
                      ? "not JSON: " + pe.errorString().toStdString()
                      : std::string("not a JSON object");
        return r;
    }
    const QJsonValue mcp = doc.object().value(QStringLiteral("mcp"));
    r.ok = true;
    if (!mcp.isObject()) {
        if (!mcp.isUndefined() && !mcp.isNull()) r.warnings.push_back("\"mcp\" is not an object");
        return r;
    }
    std::map<std::string, McpEntry> byName; // native entries are read last: they win
    auto read = [&](const QJsonObject &entries, const char *where, bool skipNativeKeys) {
        for (auto it = entries.begin(); it != entries.end(); ++it) {
            // In the 1.x shape "servers" and "timeout" are the native section's keys, unless
            // they look like an entry themselves.
            if (skipNativeKeys &&
                (it.key() == QLatin1String("servers") || it.key() == QLatin1String("timeout")) &&
                !it.value().toObject().contains(QStringLiteral("type")))
                continue;
            McpEntry e;
            std::string why;
            if (parseMcpEntry(it.key(), it.value(), &e, &why))
                byName[e.name] = std::move(e);
            else
                r.warnings.push_back(std::string(where) + " entry \"" +
                                     it.key().left(200).toStdString() + "\" " + why + ": skipped");
        }
    };
    const QJsonObject section = mcp.toObject();
    read(section, "mcp", true);
    const QJsonValue servers = section.value(QStringLiteral("servers"));
    if (servers.isObject()) read(servers.toObject(), "mcp.servers", false);
    for (auto &[name, entry] : byName)
        r.entries.push_back(std::move(entry));
    return r;
}

OpencodeConfigEnvironment opencodeConfigEnvironment() {
    OpencodeConfigEnvironment env;
    env.home = QDir::homePath();
    const QString xdg = qEnvironmentVariable("XDG_CONFIG_HOME");
    env.configHome =
        !xdg.isEmpty() && QDir::isAbsolutePath(xdg) ? xdg : env.home + QStringLiteral("/.config");
    env.configFile = qEnvironmentVariable("OPENCODE_CONFIG");
    env.configDir = qEnvironmentVariable("OPENCODE_CONFIG_DIR");
    env.content = qgetenv("OPENCODE_CONFIG_CONTENT");
    env.projects = qEnvironmentVariableIsEmpty("OPENCODE_DISABLE_PROJECT_CONFIG") &&
                   qEnvironmentVariableIsEmpty("OPENCODE_CONFIG_PROJECT_DISABLE");
    return env;
}

QStringList opencodeConfigFiles(const OpencodeConfigEnvironment &env, const QString &directory) {
    // docs/opencode2-protocol.md [R59]: the global folder (OPENCODE_CONFIG_DIR replaces it),
    // OPENCODE_CONFIG, the project walk from the root down, then each .opencode/ folder,
    // outermost first. OPENCODE_CONFIG_CONTENT comes last (readOpencodeMcpConfig).
    static const QStringList names{QStringLiteral("opencode.json"),
                                   QStringLiteral("opencode.jsonc")};
    QStringList files;
    auto addDir = [&](const QString &dir) {
        for (const QString &name : names)
            files << QDir::cleanPath(dir + QLatin1Char('/') + name);
    };
    const QString global = QDir::cleanPath(
        env.configDir.isEmpty() ? env.configHome + QStringLiteral("/opencode") : env.configDir);
    addDir(global);
    if (!env.configFile.isEmpty()) files << QDir::cleanPath(env.configFile);
    if (env.projects && !directory.isEmpty() && QDir::isAbsolutePath(directory)) {
        QStringList chain; // the root first, the location last: the nearest folder wins
        for (QString dir = QDir::cleanPath(directory);;) {
            chain.prepend(dir);
            const QString parent = QFileInfo(dir).dir().absolutePath();
            if (parent == dir || chain.size() > 64) break;
            dir = parent;
        }
        for (const QString &dir : chain)
            if (dir != global) addDir(dir); // the global files are not project files
        for (const QString &dir : chain)
            addDir(dir + QStringLiteral("/.opencode"));
    }
    files.removeDuplicates();
    return files;
}

OpencodeMcpConfig mergeOpencodeConfigs(const std::vector<std::pair<QString, ConfigParse>> &docs) {
    OpencodeMcpConfig out;
    std::map<std::string, McpEntry> byName;
    for (const auto &[source, parse] : docs) {
        out.sources << source;
        if (!parse.ok) {
            out.warnings.push_back(source.toStdString() + ": " + parse.error + ": ignored");
            continue;
        }
        for (const std::string &w : parse.warnings)
            out.warnings.push_back(source.toStdString() + ": " + w);
        for (const McpEntry &e : parse.entries)
            byName[e.name] = e;
    }
    for (auto &[name, entry] : byName)
        out.entries.push_back(std::move(entry));
    return out;
}

OpencodeMcpConfig readOpencodeMcpConfig(const OpencodeConfigEnvironment &env,
                                        const QString &directory) {
    std::vector<std::pair<QString, ConfigParse>> docs;
    for (const QString &file : opencodeConfigFiles(env, directory)) {
        QByteArray bytes;
        QString error;
        switch (storage::readSmallFile(file, kMaxConfigFileBytes, &bytes, &error)) {
        case storage::ReadStatus::Missing:
            continue;
        case storage::ReadStatus::Ok:
            docs.emplace_back(file, parseOpencodeConfig(bytes));
            continue;
        case storage::ReadStatus::TooLarge:
        case storage::ReadStatus::Error: {
            ConfigParse failed;
            failed.error = error.toStdString();
            docs.emplace_back(file, failed);
            continue;
        }
        }
    }
    if (!env.content.isEmpty())
        docs.emplace_back(QStringLiteral("OPENCODE_CONFIG_CONTENT"),
                          parseOpencodeConfig(env.content));
    return mergeOpencodeConfigs(docs);
}

} // namespace tether::mcp
