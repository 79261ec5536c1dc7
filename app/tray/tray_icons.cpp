#include "tray/tray_icons.h"

#include <QPainter>
#include <QPainterPath>

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
    case State::Starting: { // a play triangle
        QPainterPath tri;
        tri.moveTo(c.x() - r * 0.32, c.y() - r * 0.5);
        tri.lineTo(c.x() + r * 0.5, c.y());
        tri.lineTo(c.x() - r * 0.32, c.y() + r * 0.5);
        tri.closeSubpath();
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawPath(tri);
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
    case State::NotResponding: { // a clock: waiting, not broken
        p.drawLine(c, QPointF(c.x(), c.y() - r * 0.5));
        p.drawLine(c, QPointF(c.x() + r * 0.38, c.y() + r * 0.12));
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

// A small disc in a corner, separated from the main disc by a transparent ring.
void drawBadge(QPainter &p, const QPointF &centre, qreal radius, const QColor &colour, bool mask) {
    p.save();
    p.setCompositionMode(QPainter::CompositionMode_Clear);
    p.setPen(Qt::NoPen);
    p.setBrush(Qt::black);
    p.drawEllipse(centre, radius * 1.35, radius * 1.35);
    p.restore();
    p.setPen(Qt::NoPen);
    p.setBrush(mask ? QColor(Qt::black) : colour);
    p.drawEllipse(centre, radius, radius);
}

} // namespace

QColor stateColor(State state, const QPalette &palette) {
    const bool dark = isDark(palette);
    switch (state) {
    case State::Stopped:
        return dark ? QColor(0x9e, 0x9e, 0x9e) : QColor(0x75, 0x75, 0x75);
    case State::Starting:
    case State::Restarting:
    case State::Stopping:
        return dark ? QColor(0x42, 0xa5, 0xf5) : QColor(0x1e, 0x6f, 0xd9);
    case State::Healthy:
        return dark ? QColor(0x4c, 0xc2, 0x5a) : QColor(0x2e, 0x9d, 0x3e);
    case State::NotResponding:
    case State::Recovering:
        return dark ? QColor(0xff, 0xb3, 0x2e) : QColor(0xe8, 0x96, 0x0c);
    case State::Failed:
        return dark ? QColor(0xef, 0x53, 0x50) : QColor(0xd3, 0x2f, 0x2f);
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
    QPen glyphPen(Qt::white, stroke, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    QBrush glyphFill(Qt::white);
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

    const qreal badge = qMax<qreal>(2.5, size * 0.17);
    if (flags.orphans)
        drawBadge(p, QPointF(size - badge - 0.5, badge + 0.5), badge, QColor(0x8e, 0x24, 0xaa),
                  mask);
    if (flags.versionMismatch)
        drawBadge(p, QPointF(size - badge - 0.5, size - badge - 0.5), badge,
                  QColor(0x00, 0x83, 0x8f), mask);
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
