// Where opencode 2.x keeps its files and which port it takes, per build channel (pure).
#pragma once

#include <QProcessEnvironment>
#include <QString>

#include <optional>

namespace tether::standin_v2 {

// service.json for latest/dev/beta/next, else service-<channel>.json with every character
// outside [a-zA-Z0-9._-] replaced by '-' [R14]. The registration and the service config share it.
QString channelFileName(const QString &channel);

// 0xC0DE (49374) for latest/dev/beta/next, 0xC0DF (49375) for local [R14]. Other channels hash
// their name (Hash.fast, not in the record): none here, the caller must be given a port.
std::optional<int> defaultPort(const QString &channel);

// Global.Path.state: $XDG_STATE_HOME/opencode, default ~/.local/state/opencode, on every OS
// [R47] [R48].
QString stateDirectory(const QProcessEnvironment &env, const QString &home);
// Global.Path.config: $OPENCODE_CONFIG_DIR, else $XDG_CONFIG_HOME/opencode, default
// ~/.config/opencode [R48] [R9].
QString configDirectory(const QProcessEnvironment &env, const QString &home);

// http://host:port, an IPv6 host in brackets [R9].
QString serviceUrl(const QString &hostname, int port);

// opencode's truthy(): "1" or "true" in any case [R9].
bool truthy(const QString &value);

} // namespace tether::standin_v2
