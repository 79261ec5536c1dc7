#include "ui/about_dialog.h"

#include "ui/app_icon.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace tether::ui {

namespace {

// The licence's own words stay in English: it is the text that binds.
const char *const kMitLicence =
    "Copyright (c) Tether maintainers\n\n"
    "Permission is hereby granted, free of charge, to any person obtaining a copy of this "
    "software and associated documentation files (the \"Software\"), to deal in the Software "
    "without restriction, including without limitation the rights to use, copy, modify, merge, "
    "publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons "
    "to whom the Software is furnished to do so, subject to the following conditions:\n\n"
    "The above copyright notice and this permission notice shall be included in all copies or "
    "substantial portions of the Software.\n\n"
    "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, "
    "INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR "
    "PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE "
    "FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR "
    "OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER "
    "DEALINGS IN THE SOFTWARE.";

} // namespace

AboutDialog::AboutDialog(QWidget *parent)
    : QDialog(parent) {
    setWindowTitle(tr("About Tether"));
    setWindowIcon(appIcon());
    version_ = tr("Version %1").arg(QCoreApplication::applicationVersion());

    auto *layout = new QVBoxLayout(this);
    auto *head = new QHBoxLayout;
    auto *mark = new QLabel;
    mark->setPixmap(appIcon().pixmap(64, 64));
    mark->setAccessibleName(tr("Tether's icon"));
    head->addWidget(mark, 0, Qt::AlignTop);
    auto *title = new QLabel;
    title->setTextFormat(Qt::RichText);
    title->setText(QStringLiteral("<b style='font-size:large'>%1</b><br>%2<br>%3")
                       .arg(tr("Tether").toHtmlEscaped(), version_.toHtmlEscaped(),
                            tr("Keeps a local AI agent service and its MCP servers running, "
                               "without ending one that is only busy.")
                                .toHtmlEscaped()));
    title->setWordWrap(true);
    head->addWidget(title, 1);
    layout->addLayout(head);

    auto *link = new QLabel(QStringLiteral("<a href='%1'>%2</a>")
                                .arg(QStringLiteral(TETHER_HOMEPAGE),
                                     tr("Tether's website: news, help and the source code")));
    link->setTextFormat(Qt::RichText);
    link->setOpenExternalLinks(true);
    link->setTextInteractionFlags(Qt::TextBrowserInteraction);
    link->setAccessibleName(tr("Tether's website"));
    layout->addWidget(link);

    licences_ = new QTextBrowser;
    licences_->setOpenExternalLinks(true);
    licences_->setAccessibleName(tr("Licences"));
    licences_->setAccessibleDescription(tr("Tether's licence and the notice for Qt"));
    const QString qt = QString::fromLatin1(qVersion());
    licences_->setHtml(
        QStringLiteral("<h4>%1</h4><p>%2</p><pre style='white-space:pre-wrap'>%3</pre>"
                       "<h4>%4</h4><p>%5</p><p>%6</p>")
            .arg(tr("Tether").toHtmlEscaped(),
                 tr("Tether is free software under the MIT licence:").toHtmlEscaped(),
                 QString::fromLatin1(kMitLicence).toHtmlEscaped(), tr("Qt").toHtmlEscaped(),
                 tr("Tether uses the Qt toolkit, version %1, under the GNU Lesser General "
                    "Public License version 3 (LGPLv3). You may replace the Qt libraries "
                    "Tether uses with your own build of them.")
                     .arg(qt)
                     .toHtmlEscaped(),
                 tr("Qt's licence and source code: %1")
                     .toHtmlEscaped()
                     .arg(QStringLiteral("<a href='https://www.qt.io/licensing/open-source-lgpl-"
                                         "obligations'>qt.io/licensing</a>"))));
    layout->addWidget(licences_, 1);

    auto *buttons = new QDialogButtonBox;
    QPushButton *aboutQt = buttons->addButton(tr("About &Qt"), QDialogButtonBox::HelpRole);
    connect(aboutQt, &QPushButton::clicked, this, [] { QApplication::aboutQt(); });
    QPushButton *close = buttons->addButton(tr("&Close"), QDialogButtonBox::RejectRole);
    close->setDefault(true);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    close->setFocus(); // Enter, Space and Esc all close it; About Qt is a Tab away

    QSize size(520, 440);
    if (const QScreen *s = screen()) size = size.boundedTo(s->availableSize() - QSize(24, 48));
    resize(size);
}

QString AboutDialog::versionText() const {
    return version_;
}

QString AboutDialog::licenceText() const {
    return licences_->toPlainText();
}

} // namespace tether::ui
