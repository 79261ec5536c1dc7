// The question before an interruption, as a person meets it: it names the tool call, its
// buttons say what happens, and the safe answer is the default (Enter and Esc keep the work).
#include "i18n.h"
#include "tray/tray_menu_model.h"
#include "ui/consent_dialog.h"

#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QtTest>

using namespace tether;

namespace {
const QString kTool = QStringLiteral("everything_trigger-long-running-operation");

ServiceStatus busy(int tools) {
    ServiceStatus st;
    st.state = policy::State::Healthy;
    for (int i = 0; i < tools; ++i)
        st.activity.runningTools.append(
            RunningToolStatus{QStringLiteral("ses_%1").arg(i), kTool, 45000 + i});
    return st;
}

// Answers the next modal dialog with `key` (or a click on the button named `button`) once it
// is shown, and records what it showed.
struct Answer {
    QString text, go, keep;
    bool sawDefaultKeep = false;
};
void answerNextDialog(Answer *seen, const char *button, int key = 0) {
    QTimer::singleShot(0, [=] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box) { // not shown yet: look again
            answerNextDialog(seen, button, key);
            return;
        }
        seen->text = box->text();
        seen->go = box->findChild<QPushButton *>(QStringLiteral("goAhead"))->text();
        seen->keep = box->findChild<QPushButton *>(QStringLiteral("keepRunning"))->text();
        seen->sawDefaultKeep = box->defaultButton() &&
                               box->defaultButton()->objectName() == QLatin1String("keepRunning");
        if (key)
            QTest::keyClick(box, Qt::Key(key));
        else
            box->findChild<QPushButton *>(QString::fromLatin1(button))->click();
    });
}
} // namespace

class TestConsent : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        qputenv("TETHER_LANGUAGE", "en");
        QCOMPARE(i18n::install(qApp), QStringLiteral("en"));
    }

    void theQuestionNamesTheToolCallInPlainWords() {
        const QString one = consentQuestion(busy(1), QStringLiteral("Stop"));
        QVERIFY2(one.startsWith(QStringLiteral("Stop now? The service is running 1 tool call,")),
                 qPrintable(one));
        // Issue 27 (5): the tool by name, not its session's id.
        QVERIFY(one.contains(kTool + QStringLiteral(" (running for 45 s)")));
        QVERIFY(!one.contains(QStringLiteral("ses_0")));
        const QString two = consentQuestion(busy(2), QStringLiteral("Restart"));
        QVERIFY2(two.contains(QStringLiteral("running 2 tool calls,")), qPrintable(two));
        QVERIFY(!two.contains(QStringLiteral("(s)")));
    }

    void goingAheadNeedsTheNamedButton() {
        Answer seen;
        answerNextDialog(&seen, "goAhead");
        QVERIFY(ui::confirmInterruption(nullptr, QStringLiteral("Stop"),
                                        consentQuestion(busy(1), QStringLiteral("Stop"))));
        QCOMPARE(seen.go, QStringLiteral("Stop anyway"));
        QCOMPARE(seen.keep, QStringLiteral("&Keep it running"));
        QVERIFY(seen.text.contains(kTool));
    }

    void enterEscOrKeepNeverInterrupt() {
        for (const int key : {int(Qt::Key_Return), int(Qt::Key_Escape), 0}) {
            Answer seen;
            answerNextDialog(&seen, "keepRunning", key);
            QVERIFY2(
                !ui::confirmInterruption(nullptr, QStringLiteral("Quit and stop"),
                                         consentQuestion(busy(1), QStringLiteral("Quit and stop"))),
                qPrintable(QStringLiteral("key %1").arg(key)));
            QVERIFY(seen.sawDefaultKeep);
            QCOMPARE(seen.go, QStringLiteral("Quit and stop anyway"));
        }
    }
};

QTEST_MAIN(TestConsent)
#include "tst_consent.moc"
