// Service.incumbent: is a compatible service already registered and answering at the URL this
// one would take? The registration is read, /api/info at that URL is asked with its password
// (2 s), and the answer must carry the registered pid (and version) [R2] [R9].
#pragma once

#include <QNetworkAccessManager>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

namespace tether::standin_v2 {

struct Incumbent {
    qint64 pid = 0;
    QString version;
    int status = 0; // 200 ready, 500 failed, else waiting: all count
};

class IncumbentProbe : public QObject {
public:
    explicit IncumbentProbe(QObject *parent = nullptr);

    // Calls `done` once, on the event loop, with the incumbent or nullopt.
    void check(const QString &registrationPath, const QString &url,
               std::function<void(std::optional<Incumbent>)> done);

    static constexpr int kRequestTimeoutMs = 2000; // requestTimeout [R2] [R4]

private:
    QNetworkAccessManager nam_;
};

} // namespace tether::standin_v2
