#include "ui/health_timeline.h"

#include "tray/tray_icons.h"
#include "ui/format.h"

#include <QHash>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace tether::ui {

namespace {

// A check that went unanswered while a person had the service stopped, or while it was starting
// or being replaced, says nothing about its health: only misses while it served count.
bool missCounts(const HealthSample &s) {
    return s.probe && s.latencyMs < 0 &&
           (s.state == policy::State::Healthy || s.state == policy::State::NotResponding);
}

} // namespace

HealthTimeline::HealthTimeline(UiModel model, QWidget *parent)
    : QWidget(parent)
    , model_(std::move(model)) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAccessibleName(tr("Health timeline"));
}

QString HealthTimeline::summary() const {
    const qint64 now = model_.now().toMSecsSinceEpoch();
    const std::vector<HealthSample> samples = model_.health().lastHour(now);
    if (samples.empty()) return tr("No checks yet.");
    const qint64 from = now - spanMs();
    // Time in each state, in the order they first appear.
    QList<policy::State> order;
    QHash<int, qint64> spent;
    int missed = 0;
    qint64 slowest = -1;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        if (samples[i].atMs < from) continue;
        missed += missCounts(samples[i]) ? 1 : 0;
        slowest = std::max(slowest, samples[i].latencyMs);
        const qint64 end = i + 1 < samples.size() ? samples[i + 1].atMs : now;
        if (end <= samples[i].atMs) continue;
        const int key = int(samples[i].state);
        if (!spent.contains(key)) order << samples[i].state;
        spent[key] += end - samples[i].atMs;
    }
    QStringList states;
    for (policy::State s : order)
        states << tr("%1 for %2", "a state, then how long")
                      .arg(stateLabel(s), durationText(spent.value(int(s))));
    QString text = states.join(tr(", ")) + QLatin1Char('.');
    if (missed > 0) text += QLatin1Char(' ') + tr("%n check(s) went unanswered.", nullptr, missed);
    if (slowest >= 0) text += QLatin1Char(' ') + tr("Slowest answer: %1 ms.").arg(slowest);
    return text;
}

QString HealthTimeline::legendHtml() const {
    const QPalette &pal = palette();
    const QString swatch = QStringLiteral("<span style='color:%1'>%2</span>");
    return tr("%1 answer time  %2 no answer  %3 state (its colour)")
        .arg(swatch.arg(pal.color(QPalette::Highlight).name(), QStringLiteral("━")),
             swatch.arg(stateColor(policy::State::Failed, pal).name(), QStringLiteral("┃")),
             swatch.arg(stateColor(policy::State::Healthy, pal).name(), QStringLiteral("▬")));
}

qint64 HealthTimeline::spanMs() const {
    const qint64 now = model_.now().toMSecsSinceEpoch();
    const std::vector<HealthSample> samples = model_.health().lastHour(now);
    return timelineSpanMs(samples.empty() ? 0 : now - samples.front().atMs);
}

void HealthTimeline::paintEvent(QPaintEvent *) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette &pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));

    const qint64 now = model_.now().toMSecsSinceEpoch();
    const std::vector<HealthSample> samples = model_.health().lastHour(now);
    const qint64 span = spanMs();
    const qint64 from = now - span;

    const QFontMetrics fm(font());
    const int band = 10;
    const QRectF plot(fm.horizontalAdvance(QStringLiteral("0000 ms")) + 6, 6,
                      width() - fm.horizontalAdvance(QStringLiteral("0000 ms")) - 12,
                      height() - band - fm.height() - 14);
    const QRectF bands(plot.left(), plot.bottom() + 2, plot.width(), band);
    auto xOf = [&](qint64 t) {
        return plot.left() + plot.width() * double(std::max(t, from) - from) / double(span);
    };

    // State bands: each sample's state holds until the next sample (and the last until now).
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const qint64 end = i + 1 < samples.size() ? samples[i + 1].atMs : now;
        // Whole pixels, no antialiasing: adjacent bands must leave no seams between them.
        const int x0 = int(std::floor(xOf(samples[i].atMs)));
        // A spell that is not healthy stays visible (3 px) however short it was.
        const int least = samples[i].state == policy::State::Healthy ? 1 : 3;
        const int x1 = std::max(int(std::ceil(xOf(end))), x0 + least);
        p.fillRect(QRect(x0, int(bands.top()), x1 - x0, int(bands.height())),
                   stateColor(samples[i].state, pal));
    }

    // Latency scale: the largest answered latency, rounded up, at least 10 ms.
    qint64 maxLatency = 10;
    for (const HealthSample &s : samples)
        maxLatency = std::max(maxLatency, s.latencyMs);
    const double scale = std::pow(10.0, std::ceil(std::log10(double(maxLatency))));
    const qint64 top = qint64(maxLatency <= scale / 2 ? scale / 2 : scale);

    p.setPen(QPen(pal.color(QPalette::Mid), 1, Qt::DotLine));
    p.drawLine(QPointF(plot.left(), plot.top()), QPointF(plot.right(), plot.top()));
    p.drawLine(QPointF(plot.left(), plot.bottom()), QPointF(plot.right(), plot.bottom()));
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRectF(0, plot.top() - fm.height() / 2.0, plot.left() - 4, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, tr("%1 ms").arg(top));
    p.drawText(QRectF(0, plot.bottom() - fm.height() / 2.0, plot.left() - 4, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, tr("%1 ms").arg(0));
    const QRectF axis(plot.left(), bands.bottom() + 2, plot.width(), fm.height());
    const auto ago = [](qint64 ms) { return tr("%1 ago").arg(durationText(ms)); };
    p.drawText(axis, Qt::AlignLeft, ago(span));
    p.drawText(axis, Qt::AlignHCenter, ago(span / 2));
    p.drawText(axis, Qt::AlignRight, tr("now"));

    QPainterPath line;
    bool drawing = false;
    const QColor missed = stateColor(policy::State::Failed, pal);
    for (const HealthSample &s : samples) {
        if (!s.probe) continue;
        const qreal x = xOf(s.atMs);
        if (s.latencyMs < 0) {
            // Full height and 2 px wide: an unanswered probe is the thing to see here.
            if (missCounts(s)) p.fillRect(QRectF(x - 1, plot.top(), 2, plot.height()), missed);
            drawing = false; // a miss breaks the line
            continue;
        }
        const qreal y =
            plot.bottom() - plot.height() * std::min(1.0, double(s.latencyMs) / double(top));
        if (drawing)
            line.lineTo(x, y);
        else
            line.moveTo(x, y);
        drawing = true;
    }
    p.setPen(QPen(pal.color(QPalette::Highlight), 1.5));
    p.setBrush(Qt::NoBrush);
    p.drawPath(line);

    if (samples.empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(plot, Qt::AlignCenter, tr("No checks yet"));
    }
}

} // namespace tether::ui
