#include "tray/tray_icons.h"

#include "ui/lazy_icon.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace tether {

namespace {

using policy::State;

// How the mark is drawn for a state: the arch (from which foot, how much of it, whole or with a
// gap), the weight below it (there, hollow, gone, a cross), a ripple around it.
struct MarkStyle {
    qreal arch = 1.0;       // the part of the arch drawn, from one foot over the top
    bool fromRight = false; // that part starts at the right foot
    bool gap = false;       // a gap at the top: the link is not answering
    bool broken = false;    // a cross in place of the weight: it failed
    bool weight = true;     // the weight hangs from the arch
    bool hollowWeight = false;
    qreal ripple = -1; // working: a ring around the weight, this far out (0..1); < 0 none
};

MarkStyle styleOf(State state, const IconFlags &flags, qreal phase) {
    MarkStyle m;
    const bool moving = phase >= 0;
    switch (state) {
    case State::Stopped: // whole, but nothing hangs from it: off
        m.weight = false;
        break;
    case State::Starting: // drawn from the left foot, over the top
        m.arch = moving ? 0.15 + 0.85 * phase : 0.62;
        break;
    case State::Restarting: // drawn again, from the right foot
        m.arch = moving ? 0.15 + 0.85 * phase : 0.62;
        m.fromRight = true;
        break;
    case State::Healthy:
        if (flags.working) m.ripple = moving ? phase : 0.55;
        break;
    case State::NotResponding:
        m.gap = true;
        break;
    case State::Recovering:
        m.gap = true;
        m.hollowWeight = true;
        break;
    case State::Stopping: // the weight let go of, the arch still up
        m.weight = false;
        m.hollowWeight = false;
        m.arch = 0.999;
        m.ripple = -1;
        break;
    case State::Failed:
        m.broken = true;
        m.weight = false;
        break;
    }
    return m;
}

// The mark on a disc of centre c and radius r: the arch of the app icon (its two feet are the
// round caps) and the weight that hangs below it.
void drawMark(QPainter &p, const QPointF &c, qreal r, const MarkStyle &m, const QColor &ink,
              qreal dpr) {
    const qreal width = r * 0.25;
    const qreal a = r * 0.46;                          // the arch's radius
    const QPointF archCentre(c.x(), c.y() + r * 0.08); // its feet stand here
    const QRectF arc(archCentre.x() - a, archCentre.y() - a, 2 * a, 2 * a);
    QPen pen(ink, width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    if (m.gap) {
        p.drawArc(arc, 180 * 16, -72 * 16);
        p.drawArc(arc, 0, 72 * 16);
    } else {
        const int span = int(std::lround(180.0 * 16 * std::clamp<qreal>(m.arch, 0, 1)));
        if (m.fromRight)
            p.drawArc(arc, 0, span);
        else
            p.drawArc(arc, 180 * 16, -span);
    }
    const QPointF weight(c.x(), archCentre.y() + r * 0.24);
    const qreal w = r * 0.19;
    if (m.broken) { // nothing holds: a cross where the weight hung
        const qreal k = r * 0.2;
        p.setPen(QPen(ink, r * 0.16, Qt::SolidLine, Qt::RoundCap));
        const QPointF x(c.x(), archCentre.y() + r * 0.18);
        p.drawLine(x + QPointF(-k, -k), x + QPointF(k, k));
        p.drawLine(x + QPointF(k, -k), x + QPointF(-k, k));
    } else if (m.weight) {
        if (m.hollowWeight) {
            p.setPen(QPen(ink, std::max(r * 0.08, 0.9 / dpr)));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(weight, w * 0.8, w * 0.8);
        } else {
            p.setPen(Qt::NoPen);
            p.setBrush(ink);
            p.drawEllipse(weight, w, w);
        }
    }
    if (m.ripple >= 0) {
        QColor ring = ink;
        ring.setAlphaF(std::clamp<qreal>(1.0 - 0.6 * m.ripple, 0.3, 1.0));
        p.setPen(QPen(ring, std::max(r * 0.08, 1.0 / dpr)));
        p.setBrush(Qt::NoBrush);
        const qreal rr = w + r * (0.1 + 0.22 * m.ripple);
        p.drawEllipse(weight, rr, rr);
    }
}

const QColor kBadgeInk(0x1b, 0x1b, 0x1b);
const QColor kWarnYellow(0xfb, 0xc0, 0x2d); // the warning sign's yellow; dark ink on it, 11:1

// A transparent ring around a badge, so it stands apart from the disc it overlaps.
void clearAround(QPainter &p, const QPointF &centre, qreal radius, qreal dpr) {
    p.save();
    p.setCompositionMode(QPainter::CompositionMode_Clear);
    p.setPen(Qt::NoPen);
    p.setBrush(Qt::black);
    p.drawEllipse(centre, radius + 1.2 / dpr, radius + 1.2 / dpr);
    p.restore();
}

void drawOrphanBadge(QPainter &p, const QPointF &centre, qreal radius, int count, bool mask) {
    p.setPen(mask ? Qt::NoPen : QPen(kBadgeInk, radius * 0.14));
    p.setBrush(mask ? QColor(Qt::black) : QColor(Qt::white));
    p.drawEllipse(centre, radius, radius);
    const QString text = count >= 10 ? QStringLiteral("9+") : QString::number(std::max(1, count));
    QFont f;
    f.setBold(true);
    f.setPixelSize(std::max(1, int(std::lround(radius * (text.size() > 1 ? 1.25 : 1.75)))));
    p.setFont(f);
    if (mask) p.setCompositionMode(QPainter::CompositionMode_Clear);
    p.setPen(mask ? QColor(Qt::black) : kBadgeInk);
    p.drawText(QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius),
               Qt::AlignCenter, text);
    p.setCompositionMode(QPainter::CompositionMode_SourceOver);
}

void drawUpdateBadge(QPainter &p, const QPointF &centre, qreal radius, Panel panel, bool mask) {
    p.setPen(Qt::NoPen);
    p.setBrush(mask ? QColor(Qt::black)
                    : (panel == Panel::Dark ? QColor(0x64, 0xb5, 0xf6) : QColor(0x1e, 0x6f, 0xd9)));
    p.drawEllipse(centre, radius, radius);
    QPainterPath arrow; // up: a newer version waits
    const qreal a = radius * 0.72;
    arrow.moveTo(centre.x(), centre.y() - a);
    arrow.lineTo(centre.x() + a * 0.9, centre.y() + a * 0.05);
    arrow.lineTo(centre.x() + a * 0.32, centre.y() + a * 0.05);
    arrow.lineTo(centre.x() + a * 0.32, centre.y() + a * 0.9);
    arrow.lineTo(centre.x() - a * 0.32, centre.y() + a * 0.9);
    arrow.lineTo(centre.x() - a * 0.32, centre.y() + a * 0.05);
    arrow.lineTo(centre.x() - a * 0.9, centre.y() + a * 0.05);
    arrow.closeSubpath();
    if (mask) p.setCompositionMode(QPainter::CompositionMode_Clear);
    p.setBrush(mask ? QColor(Qt::black)
                    : glyphColor(panel == Panel::Dark ? QColor(0x64, 0xb5, 0xf6)
                                                      : QColor(0x1e, 0x6f, 0xd9)));
    p.drawPath(arrow);
    p.setCompositionMode(QPainter::CompositionMode_SourceOver);
}

void drawWarningBadge(QPainter &p, const QPointF &centre, qreal radius, bool mask) {
    QPainterPath tri;
    tri.moveTo(centre.x(), centre.y() - radius * 1.05);
    tri.lineTo(centre.x() + radius * 1.1, centre.y() + radius * 0.9);
    tri.lineTo(centre.x() - radius * 1.1, centre.y() + radius * 0.9);
    tri.closeSubpath();
    p.setPen(mask ? Qt::NoPen
                  : QPen(kBadgeInk, radius * 0.12, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.setBrush(mask ? QColor(Qt::black) : kWarnYellow);
    p.drawPath(tri);
    if (mask) p.setCompositionMode(QPainter::CompositionMode_Clear);
    const qreal w = radius * 0.26;
    p.setPen(QPen(mask ? QColor(Qt::black) : kBadgeInk, w, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(QPointF(centre.x(), centre.y() - radius * 0.45),
               QPointF(centre.x(), centre.y() + radius * 0.12));
    p.drawPoint(QPointF(centre.x(), centre.y() + radius * 0.55));
    p.setCompositionMode(QPainter::CompositionMode_SourceOver);
}

double luminance(const QColor &c) {
    auto lin = [](double v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
}

} // namespace

bool operator==(const IconFlags &a, const IconFlags &b) {
    return a.orphans == b.orphans && a.orphanCount == b.orphanCount &&
           a.versionMismatch == b.versionMismatch && a.mcpAttention == b.mcpAttention &&
           a.working == b.working;
}

Panel panelOf(const QPalette &palette) {
    return palette.color(QPalette::Window).lightness() < 128 ? Panel::Dark : Panel::Light;
}

QString shownBadge(const IconFlags &flags) {
    if (flags.orphans) return QStringLiteral("orphans");
    if (flags.mcpAttention) return QStringLiteral("mcp");
    if (flags.versionMismatch) return QStringLiteral("update");
    return QString();
}

QString iconKey(State state, const IconFlags &flags) {
    QString key = QString::fromLatin1(policy::toString(state));
    if (flags.working && state == State::Healthy) key += QStringLiteral("+working");
    const QString badge = shownBadge(flags);
    if (!badge.isEmpty()) key += QLatin1Char('+') + badge;
    return key;
}

double contrastRatio(const QColor &a, const QColor &b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor glyphColor(const QColor &background) {
    const QColor ink(0x1b, 0x1b, 0x1b);
    return contrastRatio(background, Qt::white) >= contrastRatio(background, ink)
               ? QColor(Qt::white)
               : ink;
}

// Each state its own colour, each at least 4.3:1 against its mark, in a set for each panel.
QColor stateColor(State state, Panel panel) {
    const bool dark = panel == Panel::Dark;
    switch (state) {
    case State::Stopped:
        return dark ? QColor(0x9e, 0x9e, 0x9e) : QColor(0x75, 0x75, 0x75);
    case State::Starting:
    case State::Restarting:
    case State::Stopping:
        return dark ? QColor(0x64, 0xb5, 0xf6) : QColor(0x1e, 0x6f, 0xd9);
    case State::Healthy:
        return dark ? QColor(0x4c, 0xc2, 0x5a) : QColor(0x2e, 0x7d, 0x32);
    case State::NotResponding: // waiting: amber, with a dark mark
        return dark ? QColor(0xff, 0xb3, 0x2e) : QColor(0xf0, 0xa2, 0x0c);
    case State::Recovering: // Tether acts: deep orange, between waiting and failed
        return dark ? QColor(0xff, 0x8a, 0x50) : QColor(0xc2, 0x41, 0x0c);
    case State::Failed:
        return dark ? QColor(0xef, 0x53, 0x50) : QColor(0xc6, 0x28, 0x28);
    }
    return Qt::gray;
}

QColor rimColor(State state, Panel panel) {
    const QColor c = stateColor(state, panel);
    return panel == Panel::Dark ? c.lighter(135) : c.darker(150);
}

QColor stateColor(State state, const QPalette &palette) {
    return stateColor(state, panelOf(palette));
}

bool animates(State state, const IconFlags &flags) {
    return state == State::Starting || state == State::Restarting ||
           (state == State::Healthy && flags.working);
}

QPixmap stateIconPixmap(State state, IconFlags flags, int size, qreal dpr, Panel panel, bool mask,
                        qreal phase) {
    QPixmap pixmap(QSize(size, size) * dpr);
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);

    // A badge takes the bottom right corner, sized in device pixels (10 at the least: a digit
    // stays a digit at 16 px); the disc moves up and left to leave it room. Under half the icon
    // wide where there are pixels to spare: at 0.56 it hid a third of the mark at 2x.
    const QString badge = shownBadge(flags);
    const qreal badgeD = badge.isEmpty() ? 0 : std::max(10.0, std::round(size * dpr * 0.44)) / dpr;
    const qreal margin = std::max<qreal>(0.5, size * 0.04);
    const qreal discD = badge.isEmpty() ? size - 2 * margin : size - margin - badgeD * 0.4;
    const QRectF disc(margin, margin, discD, discD);
    const QPointF c = disc.center();
    const qreal r = discD / 2;
    const QColor colour = stateColor(state, panel);
    const QColor rim = rimColor(state, panel);

    p.setPen(mask ? Qt::NoPen : QPen(rim, std::max<qreal>(1.0 / dpr, size / 24.0)));
    p.setBrush(mask ? QColor(Qt::black) : colour);
    if (state == State::Stopped && mask) { // a ring reads as "off" in a monochrome menu bar
        p.setPen(QPen(Qt::black, std::max<qreal>(1.5, size / 10.0)));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(disc.adjusted(1, 1, -1, -1));
    } else {
        p.drawEllipse(disc);
    }
    QColor ink = glyphColor(colour);
    if (mask && state != State::Stopped)
        p.setCompositionMode(QPainter::CompositionMode_Clear); // cut out of the template
    else if (mask)
        ink = Qt::black;
    drawMark(p, c, r, styleOf(state, flags, phase), ink, dpr);
    p.setCompositionMode(QPainter::CompositionMode_SourceOver);

    if (!badge.isEmpty()) {
        const qreal br = badgeD / 2;
        const QPointF at(size - br - 0.25 / dpr, size - br - 0.25 / dpr);
        clearAround(p, at, br, dpr);
        if (badge == QLatin1String("orphans"))
            drawOrphanBadge(p, at, br, flags.orphanCount, mask);
        else if (badge == QLatin1String("mcp"))
            drawWarningBadge(p, at, br, mask);
        else
            drawUpdateBadge(p, at, br, panel, mask);
    }
    p.end();
    return pixmap;
}

QIcon stateIcon(State state, IconFlags flags, Panel panel, qreal phase) {
#ifdef Q_OS_MACOS
    const bool mask = true;
#else
    const bool mask = false;
#endif
    // Drawn at the sizes the tray host asks for, when it asks (ui/lazy_icon.h).
    QIcon icon = ui::lazyIcon({16, 22, 32, 64}, [=](int size, qreal dpr) {
        return stateIconPixmap(state, flags, size, dpr, panel, mask, phase);
    });
    icon.setIsMask(mask);
    return icon;
}

} // namespace tether
