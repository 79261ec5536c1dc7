// The tray's state icons, drawn with QPainter at any size and device pixel ratio, so every
// tray height (16, 22, 32, 64 px) and HiDPI screen gets a crisp rendition without an SVG
// plugin. Pure: (state, flags, size, dpr, palette) -> pixels.
#pragma once

#include "policy/state.h"

#include <QColor>
#include <QIcon>
#include <QPalette>
#include <QPixmap>

namespace tether {

struct IconFlags {
    bool orphans = false;         // badge: orphaned MCP processes wait for a clean-up
    bool versionMismatch = false; // badge: the running version is not the installed one
    // Healthy and working (a tool call or a session runs): the same calm green, with three
    // dots for the check mark, so "busy" never reads as a warning.
    bool working = false;
};

// The state's colour, shared with the status window's timeline bands.
QColor stateColor(policy::State state, const QPalette &palette);

// mask: a template image (black + alpha only) that the macOS menu bar tints itself.
QPixmap stateIconPixmap(policy::State state, IconFlags flags, int size, qreal dpr,
                        const QPalette &palette, bool mask = false);

// 16, 22, 32, 64 px at 1x and 2x; on macOS a mask (template) icon.
QIcon stateIcon(policy::State state, IconFlags flags, const QPalette &palette);

} // namespace tether
