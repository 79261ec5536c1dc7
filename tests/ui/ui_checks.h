// What the UI suites check on whole windows and menus, as a person (or a screen reader) meets
// them: every visible string came through Tether's catalogue (under the pseudo-language, where a
// translated string is marked ⟦…⟧ and accented, a run of plain ASCII letters outside the marks is
// a string that did not), and every control a keyboard reaches has a name through Qt's
// accessibility interface (what a screen reader says). Header-only, for tst_translations and
// tst_person_xvfb.
#pragma once

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QRegularExpression>
#include <QTabBar>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTreeWidget>
#include <QWidget>
#include <QWidgetAction>

#include <algorithm>

namespace tether::test {

// A string a person reads is translated when, with the pseudo-marked parts and the data it
// quotes (names, versions, the service's own words) taken out, no word of plain ASCII letters
// is left. Single letters (a mnemonic kept as it was, a unit like "s") are no word.
inline QString untranslatedPart(QString text, const QStringList &data) {
    if (Qt::mightBeRichText(text)) {
        QTextDocument doc;
        doc.setHtml(text);
        text = doc.toPlainText();
    }
    static const QRegularExpression marked(QStringLiteral("⟦[^⟧]*⟧"));
    text.remove(marked);
    // The longest first: a quoted line holds shorter data ("tether demo-service: Unknown ...").
    QStringList byLength = data;
    std::sort(byLength.begin(), byLength.end(),
              [](const QString &a, const QString &b) { return a.size() > b.size(); });
    for (const QString &d : std::as_const(byLength))
        if (!d.isEmpty()) text.replace(d, QStringLiteral(" "));
    static const QRegularExpression word(QStringLiteral("[A-Za-z]{2,}"));
    const QRegularExpressionMatch m = word.match(text);
    return m.hasMatch() ? text.trimmed() : QString();
}

// Every string shown by `root` and its visible children that is not translated, as
// "ClassName: text". Menus: their actions' texts (submenus too).
inline QStringList untranslatedStrings(QWidget *root, const QStringList &data) {
    QStringList out;
    const auto check = [&](const QObject *where, const QString &text) {
        const QString left = untranslatedPart(text, data);
        if (!left.isEmpty())
            out << QStringLiteral("%1 %2: %3")
                       .arg(QString::fromLatin1(where->metaObject()->className()),
                            where->objectName(), text);
    };
    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(root);
    for (QWidget *w : std::as_const(widgets)) {
        if (!w->isVisibleTo(root) && w != root) continue;
        if (w->isWindow()) check(w, w->windowTitle());
        if (!w->toolTip().isEmpty()) check(w, w->toolTip());
        if (auto *l = qobject_cast<QLabel *>(w)) check(l, l->text());
        if (auto *b = qobject_cast<QAbstractButton *>(w)) check(b, b->text());
        if (auto *e = qobject_cast<QLineEdit *>(w)) check(e, e->placeholderText());
        if (auto *c = qobject_cast<QComboBox *>(w))
            for (int i = 0; i < c->count(); ++i)
                check(c, c->itemText(i));
        if (auto *s = qobject_cast<QAbstractSpinBox *>(w)) check(s, s->text());
        if (auto *t = qobject_cast<QTabBar *>(w))
            for (int i = 0; i < t->count(); ++i)
                check(t, t->tabText(i));
        if (auto *t = qobject_cast<QTableWidget *>(w))
            for (int c = 0; c < t->columnCount(); ++c) {
                if (t->isColumnHidden(c)) continue;
                if (auto *h = t->horizontalHeaderItem(c)) check(t, h->text());
                for (int r = 0; r < t->rowCount(); ++r)
                    if (auto *i = t->item(r, c)) check(t, i->text());
            }
        if (auto *t = qobject_cast<QTreeWidget *>(w))
            for (int c = 0; c < t->columnCount(); ++c) {
                if (t->isColumnHidden(c)) continue;
                check(t, t->headerItem()->text(c));
            }
        if (auto *l = qobject_cast<QListWidget *>(w))
            for (int i = 0; i < l->count(); ++i)
                if (!l->item(i)->isHidden()) check(l, l->item(i)->text());
        if (auto *p = qobject_cast<QPlainTextEdit *>(w))
            for (const QString &line : p->toPlainText().split(QLatin1Char('\n')))
                check(p, line);
        if (auto *m = qobject_cast<QMenu *>(w)) {
            check(m, m->title());
            for (QAction *a : m->actions()) {
                if (!a->isVisible() || a->isSeparator()) continue;
                check(m, a->text());
                if (!a->toolTip().isEmpty() && a->toolTip() != a->text()) check(m, a->toolTip());
                if (a->menu()) out += untranslatedStrings(a->menu(), data);
            }
        }
    }
    return out;
}

// Every control a keyboard reaches (visible, enabled, taking focus) that a screen reader would
// not name: its accessible interface has no name. "ClassName objectName".
inline QStringList unnamedControls(QWidget *root) {
    QStringList out;
    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(root);
    for (QWidget *w : std::as_const(widgets)) {
        if (!w->isVisibleTo(root) || !w->isEnabled() || w->focusPolicy() == Qt::NoFocus) continue;
        // The viewport and the scroll bars of a scroll area, the text field of a spin box: their
        // parts, named by them.
        if (qobject_cast<QScrollBar *>(w) ||
            w->objectName() == QLatin1String("qt_scrollarea_viewport") ||
            qobject_cast<QAbstractSpinBox *>(w->parentWidget()))
            continue;
        QAccessibleInterface *a = QAccessible::queryAccessibleInterface(w);
        const QString name = a ? a->text(QAccessible::Name).trimmed() : QString();
        if (name.isEmpty())
            out << QStringLiteral("%1 %2").arg(QString::fromLatin1(w->metaObject()->className()),
                                               w->objectName());
    }
    return out;
}

// Every tab of a visible tab bar in view: a longer language's titles must not push a tab
// behind the bar's scroll arrows (the Events tab was, at 2x in German), and, when `whole`, each
// title is not shortened either. The tabs that are not.
inline QStringList tabsOutOfView(QWidget *root, bool whole = false) {
    QStringList out;
    for (QTabBar *bar : root->findChildren<QTabBar *>()) {
        if (!bar->isVisibleTo(root)) continue;
        for (int i = 0; i < bar->count(); ++i) {
            const QRect r = bar->tabRect(i);
            const int text = bar->fontMetrics().horizontalAdvance(
                QString(bar->tabText(i)).remove(QLatin1Char('&')));
            if (!bar->rect().contains(r) || (whole && r.width() < text))
                out << QStringLiteral("tab \"%1\" at %2..%3 of a %4 wide bar, its title %5 wide")
                           .arg(bar->tabText(i))
                           .arg(r.left())
                           .arg(r.right())
                           .arg(bar->width())
                           .arg(text);
        }
    }
    return out;
}

// Every item of a menu that a person picks has a mnemonic (&), and no two of the same menu
// share one: the texts of those that do not (a list of rows, like the MCP servers', has none).
inline QStringList mnemonicProblems(QMenu *menu) {
    QStringList out;
    QSet<QChar> used;
    static const QRegularExpression mnemonic(QStringLiteral("&[^&]"));
    for (QAction *a : menu->actions()) {
        if (!a->isVisible() || a->isSeparator() || a->text().isEmpty()) continue;
        if (qobject_cast<QWidgetAction *>(a)) continue; // the status block: nothing to pick
        const QString text = a->text().section(QLatin1Char('\t'), 0, 0);
        const int at = text.indexOf(mnemonic);
        if (at < 0) {
            out << text;
            continue;
        }
        const QChar key = text.at(at + 1).toLower();
        if (used.contains(key)) out << text + QStringLiteral(" (shares its mnemonic)");
        used.insert(key);
    }
    return out;
}

} // namespace tether::test
