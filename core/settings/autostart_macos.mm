// Start at login on macOS 13 and later: the app itself as a login item (SMAppService.mainApp),
// which System Settings > General > Login Items shows by name and which the user can switch off
// there ("Allow in the Background"). Before macOS 13, and when registering fails (an unsigned
// or misplaced bundle), the LaunchAgent plist (autostart_file.cpp).
//
// Written against Apple's ServiceManagement documentation, not compiled here (no macOS
// toolchain on the machines this was written on):
//   https://developer.apple.com/documentation/servicemanagement/smappservice
//   https://developer.apple.com/documentation/servicemanagement/smappservice/mainapp
//   https://developer.apple.com/documentation/servicemanagement/smappservice/register()
//   https://developer.apple.com/documentation/servicemanagement/smappservice/unregister()
//   https://developer.apple.com/documentation/servicemanagement/smappservice/status-swift.property
//   https://developer.apple.com/documentation/servicemanagement/smappservice/status-swift.enum/requiresapproval
//   https://developer.apple.com/documentation/servicemanagement/smappservice/status-swift.enum/notfound
//   https://developer.apple.com/documentation/servicemanagement/smappservice/statusforlegacyplist(at:)
// A login item carries no arguments, so a login start has no --autostart: on macOS that flag
// only lengthens the wait for a tray host, which the menu bar never needs.
#include "settings/autostart.h"
#include "settings/autostart_entries.h"

#import <Foundation/Foundation.h>
#import <ServiceManagement/ServiceManagement.h>

namespace tether {

namespace {

QString describe(NSError *error) {
    return error ? QString::fromNSString(error.localizedDescription) : QString();
}

class LoginItemAutostart : public Autostart {
public:
    LoginItemAutostart(QString program, std::unique_ptr<Autostart> legacy, QString legacyPath)
        : program_(std::move(program))
        , legacy_(std::move(legacy))
        , legacyPath_(std::move(legacyPath)) {}

    AutostartStatus status() const override {
        if (@available(macOS 13.0, *)) {
            AutostartStatus st;
            st.location = QStringLiteral("System Settings > General > Login Items");
            st.advice =
                autostart::moveToApplicationsAdvice(autostart::classifyLaunchLocation(program_));
            switch (SMAppService.mainAppService.status) {
            case SMAppServiceStatusEnabled:
                st.state = AutostartStatus::State::On;
                return st;
            case SMAppServiceStatusRequiresApproval: // registered, but the user switched it off
                st.state = AutostartStatus::State::DisabledBySystem;
                return st;
            case SMAppServiceStatusNotRegistered:
            case SMAppServiceStatusNotFound:
                break;
            }
            // Not a login item: a LaunchAgent of an earlier Tether may still start it, and macOS
            // 13 lets the user switch that off too.
            AutostartStatus legacy = legacy_->status();
            if (legacy.state == AutostartStatus::State::On &&
                [SMAppService
                    statusForLegacyURL:[NSURL fileURLWithPath:legacyPath_.toNSString()]] ==
                    SMAppServiceStatusRequiresApproval)
                legacy.state = AutostartStatus::State::DisabledBySystem;
            return legacy;
        }
        return legacy_->status();
    }

    bool enable(QString *error) override {
        if (@available(macOS 13.0, *)) {
            const QString advice =
                autostart::moveToApplicationsAdvice(autostart::classifyLaunchLocation(program_));
            if (!advice.isEmpty()) return fail(error, advice);
            SMAppService *app = SMAppService.mainAppService;
            if (app.status == SMAppServiceStatusRequiresApproval) {
                // Only the user can allow it again: take them there.
                [SMAppService openSystemSettingsLoginItems];
                return fail(error, QStringLiteral("Allow Tether in System Settings > General > "
                                                  "Login Items"));
            }
            NSError *why = nil;
            if ([app registerAndReturnError:&why]) {
                // One way to start at login: our old LaunchAgent would start a second Tether.
                const AutostartStatus legacy = legacy_->status();
                if (legacy.state == AutostartStatus::State::On || !legacy.staleProgram.isEmpty())
                    legacy_->disable(nullptr);
                if (app.status == SMAppServiceStatusRequiresApproval)
                    [SMAppService openSystemSettingsLoginItems];
                return true;
            }
            // An unsigned or misplaced bundle cannot be a login item: the LaunchAgent still works.
            QString legacyError;
            if (legacy_->enable(&legacyError)) return true;
            return fail(
                error,
                QStringLiteral("login item: %1; LaunchAgent: %2").arg(describe(why), legacyError));
        }
        return legacy_->enable(error);
    }

    bool disable(QString *error) override {
        if (@available(macOS 13.0, *)) {
            SMAppService *app = SMAppService.mainAppService;
            if (app.status != SMAppServiceStatusNotRegistered) {
                NSError *why = nil;
                // Already unregistered answers kSMErrorJobNotFound: that is off, as asked.
                if (![app unregisterAndReturnError:&why] && why.code != kSMErrorJobNotFound)
                    return fail(error, QStringLiteral("login item: %1").arg(describe(why)));
            }
        }
        return legacy_->disable(error);
    }

private:
    static bool fail(QString *error, const QString &why) {
        if (error) *error = why;
        return false;
    }

    QString program_;
    std::unique_ptr<Autostart> legacy_;
    QString legacyPath_;
};

} // namespace

std::unique_ptr<Autostart> makeLoginItemAutostart(const QString &agentsDir,
                                                  const QString &program) {
    const QString legacyPath =
        agentsDir + QLatin1Char('/') + QLatin1String(kAppId) + QStringLiteral(".plist");
    return std::make_unique<LoginItemAutostart>(
        program, makeLaunchAgentAutostart(agentsDir, program), legacyPath);
}

} // namespace tether
