#include "ui/lazy_icon.h"

#include <QApplication>
#include <QHash>
#include <QIconEngine>
#include <QPainter>
#include <QStyle>
#include <QStyleOption>

#include <cmath>
#include <utility>

namespace tether::ui {

namespace {

class LazyIconEngine final : public QIconEngine {
public:
    LazyIconEngine(QList<int> sizes, IconRender render)
        : sizes_(std::move(sizes))
        , render_(std::move(render)) {}

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode,
               QIcon::State state) override {
        const qreal scale = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
        painter->drawPixmap(rect, scaledPixmap(rect.size() * scale, mode, state, scale));
    }
    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override {
        return scaledPixmap(size, mode, state, 1.0);
    }
    // size is in device pixels (QIcon::pixmap(size, dpr) asks for size x dpr).
    QPixmap scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State, qreal scale) override {
        if (size.isEmpty() || scale <= 0) return QPixmap();
        const int device = std::min(size.width(), size.height());
        const int logical = std::max(1, int(std::lround(device / scale)));
        const Key key{device, int(std::lround(scale * 100)), mode == QIcon::Disabled};
        auto made = made_.constFind(key);
        if (made != made_.constEnd()) return *made;
        QPixmap pm = render_(logical, scale);
        if (mode == QIcon::Disabled && !pm.isNull() && qApp) {
            QStyleOption option;
            option.palette = QApplication::palette();
            pm = QApplication::style()->generatedIconPixmap(QIcon::Disabled, pm, &option);
        }
        made_.insert(key, pm);
        return pm;
    }
    void virtual_hook(int id, void *data) override {
        if (id == QIconEngine::ScaledPixmapHook) {
            auto *arg = static_cast<QIconEngine::ScaledPixmapArgument *>(data);
            arg->pixmap = scaledPixmap(arg->size, arg->mode, arg->state, arg->scale);
            return;
        }
        QIconEngine::virtual_hook(id, data);
    }
    QSize actualSize(const QSize &size, QIcon::Mode, QIcon::State) override {
        const int side = std::min(size.width(), size.height());
        return QSize(side, side);
    }
    QList<QSize> availableSizes(QIcon::Mode, QIcon::State) override {
        QList<QSize> out;
        for (int s : sizes_)
            out.append(QSize(s, s));
        return out;
    }
    bool isNull() override { return !render_; }
    QString key() const override { return QStringLiteral("tether-lazy"); }
    QIconEngine *clone() const override { return new LazyIconEngine(*this); }

private:
    LazyIconEngine(const LazyIconEngine &other) = default;

    struct Key {
        int device, scalePercent;
        bool disabled;
        bool operator==(const Key &o) const {
            return device == o.device && scalePercent == o.scalePercent && disabled == o.disabled;
        }
    };
    friend size_t qHash(const Key &k, size_t seed = 0) {
        return qHashMulti(seed, k.device, k.scalePercent, k.disabled);
    }

    QList<int> sizes_;
    IconRender render_;
    QHash<Key, QPixmap> made_;
};

} // namespace

QIcon lazyIcon(const QList<int> &sizes, IconRender render) {
    return QIcon(new LazyIconEngine(sizes, std::move(render)));
}

} // namespace tether::ui
