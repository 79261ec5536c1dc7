// The last hour of health at a glance: state colour bands along the bottom and the probe
// latency as a line above them (misses as red ticks). Paints straight from the model.
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

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    UiModel model_;
};

} // namespace tether::ui
