// Recent health at a glance: state colour bands along the bottom and the probe latency as a
// line above them (unanswered probes as red bars; a silence while the service was being stopped
// or started is no finding and is not marked). The span grows with the history it has
// (1, 5, 15, 60 min: timelineSpanMs), so a short spell is wide enough to see.
#pragma once

#include "ui/ui_model.h"

#include <QWidget>

namespace tether::ui {

class HealthTimeline : public QWidget {
    Q_OBJECT
public:
    explicit HealthTimeline(UiModel model, QWidget *parent = nullptr);
    QSize sizeHint() const override { return {480, 120}; }
    QSize minimumSizeHint() const override { return {240, 80}; }
    qint64 spanMs() const; // what it shows now, for the title above it
    // What the picture shows, in words: the text a screen reader gets (its accessible
    // description), e.g. "Healthy for 4 min 50 s, not responding for 10 s. 2 checks went
    // unanswered. Slowest answer: 120 ms."
    QString summary() const;
    // The key under the picture: what the line, the red bars and the bands mean.
    QString legendHtml() const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    UiModel model_;
};

} // namespace tether::ui
