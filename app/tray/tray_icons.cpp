#include "tray/tray_icons.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace tether {

namespace {

using policy::State;

bool isDark(const QPalette &palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

// Glyph strokes: white on the coloured disc, cut out of a mask icon.
void drawGlyph(QPainter &p, State state, const QRectF &disc, const QPen &pen, const QBrush &fill) {
    const QPointF c = disc.center();
    const qreal r = disc.width() / 2;
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    switch (state) {
    case State::Stopped: { // a stop square
        const qreal h = r * 0.42;
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawRect(QRectF(c.x() - h, c.y() - h, 2 * h, 2 * h));
        break;
    }
    case State::Starting: { // an hourglass: on its way (a play triangle read as "press to start")
        const qreal w = r * 0.38, h = r * 0.5;
        QPainterPath glass;
        glass.moveTo(c.x() - w, c.y() - h);
        glass.lineTo(c.x() + w, c.y() - h);
        glass.lineTo(c.x() - w, c.y() + h);
        glass.lineTo(c.x() + w, c.y() + h);
        glass.closeSubpath();
        QPen thin = pen;
        thin.setWidthF(pen.widthF() * 0.7);
        p.setPen(thin);
        p.setBrush(fill);
        p.drawPath(glass);
        break;
    }
    case State::Restarting: { // a circular arrow
        const qreal a = r * 0.5;
        const QRectF arc(c.x() - a, c.y() - a, 2 * a, 2 * a);
        p.drawArc(arc, 90 * 16, 270 * 16);
        QPainterPath head; // arrowhead at the arc's start (top), pointing right
        const qreal h = pen.widthF() * 1.1;
        head.moveTo(c.x() + h * 1.3, c.y() - a);
        head.lineTo(c.x() - h * 0.4, c.y() - a - h * 1.2);
        head.lineTo(c.x() - h * 0.4, c.y() - a + h * 1.2);
        head.closeSubpath();
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawPath(head);
        break;
    }
    case State::Healthy: { // a check mark
        QPainterPath check;
        check.moveTo(c.x() - r * 0.48, c.y() + r * 0.02);
        check.lineTo(c.x() - r * 0.12, c.y() + r * 0.38);
        check.lineTo(c.x() + r * 0.5, c.y() - r * 0.36);
        p.drawPath(check);
        break;
    }
    case State::NotResponding: { // a clock face with hands: waiting (bare hands read as an "L")
        QPen thin = pen;
        thin.setWidthF(qMax<qreal>(1.0, pen.widthF() * 0.55));
        p.setPen(thin);
        p.drawEllipse(c, r * 0.62, r * 0.62);
        p.drawLine(c, QPointF(c.x(), c.y() - r * 0.42));
        p.drawLine(c, QPointF(c.x() + r * 0.3, c.y() + r * 0.1));
        break;
    }
    case State::Recovering: { // an exclamation mark: Tether is acting
        p.drawLine(QPointF(c.x(), c.y() - r * 0.52), QPointF(c.x(), c.y() + r * 0.12));
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        const qreal d = pen.widthF() * 0.62;
        p.drawEllipse(QPointF(c.x(), c.y() + r * 0.46), d, d);
        break;
    }
    case State::Stopping: { // the stop square, on the colour of a transition
        const qreal k = r * 0.36;
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawRect(QRectF(c.x() - k, c.y() - k, 2 * k, 2 * k));
        break;
    }
    case State::Failed: { // a cross
        const qreal k = r * 0.4;
        p.drawLine(QPointF(c.x() - k, c.y() - k), QPointF(c.x() + k, c.y() + k));
        p.drawLine(QPointF(c.x() + k, c.y() - k), QPointF(c.x() - k, c.y() + k));
        break;
    }
    }
}

// Clears a ring around a badge so it stands apart from the main disc.
void clearAround(QPainter &p, const QPointF &centre, qreal radius) {
    p.save();
    p.setCompositionMode(QPainter::CompositionMode_Clear);
    p.setPen(Qt::NoPen);
    p.setBrush(Qt::black);
    p.drawEllipse(centre, radius * 1.3, radius * 1.3);
    p.restore();
}

const QColor kBadgeInk(0x1b, 0x1b, 0x1b);
const QColor kWarnYellow(0xfb, 0xc0, 0x2d); // the warning sign's yellow; dark ink on it, 11:1

// A white disc with a dark rim: a mask icon gets it solid (the menu bar tints it).
void drawBadgeDisc(QPainter &p, const QPointF &centre, qreal radius, bool mask) {
    clearAround(p, centre, radius);
    p.setPen(mask ? Qt::NoPen : QPen(kBadgeInk, qMax<qreal>(0.8, radius * 0.16)));
    p.setBrush(mask ? QColor(Qt::black) : QColor(Qt::white));
    p.drawEllipse(centre, radius, radius);
}

void drawOrphanBadge(QPainter &p, const QPointF &centre, qreal radius, int count, bool mask) {
    drawBadgeDisc(p, centre, radius, mask);
    if (mask) return;
    if (radius < 3.5) { // too small for a digit: a dot in the middle
        p.setPen(Qt::NoPen);
        p.setBrush(kBadgeInk);
        p.drawEllipse(centre, radius * 0.4, radius * 0.4);
        return;
    }
    QFont f;
    f.setBold(true);
    f.setPixelSize(qMax(6, int(radius * 1.6)));
    p.setFont(f);
    p.setPen(kBadgeInk);
    const QString digit = count >= 10 ? QStringLiteral("+") : QString::number(qMax(1, count));
    p.drawText(QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius),
               Qt::AlignCenter, digit);
}

void drawUpdateBadge(QPainter &p, const QPointF &centre, qreal radius, bool mask) {
    drawBadgeDisc(p, centre, radius, mask);
    if (mask) return;
    QPainterPath arrow; // an up arrow: a newer version waits
    const qreal a = radius * 0.62;
    arrow.moveTo(centre.x(), centre.y() - a);
    arrow.lineTo(centre.x() + a, centre.y() + a * 0.1);
    arrow.lineTo(centre.x() + a * 0.35, centre.y() + a * 0.1);
    arrow.lineTo(centre.x() + a * 0.35, centre.y() + a);
    arrow.lineTo(centre.x() - a * 0.35, centre.y() + a);
    arrow.lineTo(centre.x() - a * 0.35, centre.y() + a * 0.1);
    arrow.lineTo(centre.x() - a, centre.y() + a * 0.1);
    arrow.closeSubpath();
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0x0d, 0x47, 0xa1));
    p.drawPath(arrow);
}

void drawWarningBadge(QPainter &p, const QPointF &centre, qreal radius, bool mask) {
    clearAround(p, centre, radius);
    QPainterPath tri;
    tri.moveTo(centre.x(), centre.y() - radius * 1.05);
    tri.lineTo(centre.x() + radius * 1.1, centre.y() + radius * 0.85);
    tri.lineTo(centre.x() - radius * 1.1, centre.y() + radius * 0.85);
    tri.closeSubpath();
    p.setPen(mask ? Qt::NoPen
                  : QPen(kBadgeInk, qMax<qreal>(0.8, radius * 0.14), Qt::SolidLine, Qt::RoundCap,
                         Qt::RoundJoin));
    p.setBrush(mask ? QColor(Qt::black) : kWarnYellow);
    p.drawPath(tri);
    if (mask || radius < 3.0) return;
    const qreal w = qMax<qreal>(0.8, radius * 0.22);
    p.setPen(QPen(kBadgeInk, w, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(QPointF(centre.x(), centre.y() - radius * 0.45),
               QPointF(centre.x(), centre.y() + radius * 0.15));
    p.drawPoint(QPointF(centre.x(), centre.y() + radius * 0.5));
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

QString iconKey(State state, const IconFlags &flags) {
    QString key = QString::fromLatin1(policy::toString(state));
    if (flags.working && state == State::Healthy) key += QStringLiteral("+working");
    if (flags.mcpAttention) key += QStringLiteral("+mcp");
    if (flags.orphans) key += QStringLiteral("+orphans");
    if (flags.versionMismatch) key += QStringLiteral("+update");
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

// Each state its own colour (not responding and recovering used to share one amber), and
// each at least 4.3:1 against its glyph (white on the old amber was 2.4:1).
QColor stateColor(State state, const QPalette &palette) {
    const bool dark = isDark(palette);
    switch (state) {
    case State::Stopped:
        return dark ? QColor(0x9e, 0x9e, 0x9e) : QColor(0x75, 0x75, 0x75);
    case State::Starting:
    case State::Restarting:
    case State::Stopping:
        return dark ? QColor(0x64, 0xb5, 0xf6) : QColor(0x1e, 0x6f, 0xd9);
    case State::Healthy:
        return dark ? QColor(0x4c, 0xc2, 0x5a) : QColor(0x2e, 0x7d, 0x32);
    case State::NotResponding: // waiting: amber, with a dark glyph
        return dark ? QColor(0xff, 0xb3, 0x2e) : QColor(0xf0, 0xa2, 0x0c);
    case State::Recovering: // Tether acts: deep orange, between waiting and failed
        return dark ? QColor(0xff, 0x8a, 0x50) : QColor(0xc2, 0x41, 0x0c);
    case State::Failed:
        return dark ? QColor(0xef, 0x53, 0x50) : QColor(0xc6, 0x28, 0x28);
    }
    return Qt::gray;
}

QPixmap stateIconPixmap(State state, IconFlags flags, int size, qreal dpr, const QPalette &palette,
                        bool mask) {
    QPixmap pixmap(QSize(size, size) * dpr);
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);

    const qreal margin = qMax<qreal>(0.5, size * 0.06);
    const QRectF disc(margin, margin, size - 2 * margin, size - 2 * margin);
    const QColor colour = stateColor(state, palette);
    // A thin rim in the panel's contrasting tone keeps the disc's edge visible on any panel.
    const QColor rim = isDark(palette) ? colour.lighter(135) : colour.darker(135);

    p.setPen(mask ? Qt::NoPen : QPen(rim, qMax<qreal>(1.0, size / 32.0)));
    p.setBrush(mask ? QColor(Qt::black) : colour);
    if (state == State::Stopped && mask) {
        // A hollow ring reads as "off" in a monochrome menu bar.
        p.setPen(QPen(Qt::black, qMax<qreal>(1.5, size / 10.0)));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(disc.adjusted(1, 1, -1, -1));
    } else {
        p.drawEllipse(disc);
    }

    const qreal stroke = qMax<qreal>(1.5, size / 8.0);
    const QColor ink = glyphColor(colour);
    QPen glyphPen(ink, stroke, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    QBrush glyphFill(ink);
    if (mask && state != State::Stopped) {
        p.setCompositionMode(QPainter::CompositionMode_Clear);
    } else if (mask) {
        glyphPen.setColor(Qt::black);
        glyphFill = QBrush(Qt::black);
    }
    if (flags.working && state == State::Healthy) { // three dots: at work, nothing wrong
        p.setPen(Qt::NoPen);
        p.setBrush(glyphFill);
        const QPointF c = disc.center();
        const qreal d = qMax<qreal>(0.9, disc.width() * 0.085);
        for (qreal dx : {-0.28, 0.0, 0.28})
            p.drawEllipse(QPointF(c.x() + dx * disc.width(), c.y()), d, d);
    } else {
        drawGlyph(p, state, disc, glyphPen, glyphFill);
    }
    p.setCompositionMode(QPainter::CompositionMode_SourceOver);

    // Badges a bit larger than before (0.17): a badge is read, not only noticed.
    const qreal badge = qMax<qreal>(2.8, size * 0.2);
    if (flags.orphans)
        drawOrphanBadge(p, QPointF(size - badge - 0.3, badge + 0.3), badge, flags.orphanCount,
                        mask);
    if (flags.versionMismatch)
        drawUpdateBadge(p, QPointF(size - badge - 0.3, size - badge - 0.3), badge, mask);
    if (flags.mcpAttention)
        drawWarningBadge(p, QPointF(badge + 0.3, size - badge - 0.3), badge, mask);
    p.end();
    return pixmap;
}

QIcon stateIcon(State state, IconFlags flags, const QPalette &palette) {
#ifdef Q_OS_MACOS
    const bool mask = true;
#else
    const bool mask = false;
#endif
    QIcon icon;
    for (int size : {16, 22, 32, 64})
        for (qreal dpr : {1.0, 2.0})
            icon.addPixmap(stateIconPixmap(state, flags, size, dpr, palette, mask));
    icon.setIsMask(mask);
    return icon;
}

} // namespace tether
