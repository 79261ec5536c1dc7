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

// Badges are white discs with a dark glyph (or, for the MCP warning, a yellow triangle): each
// reads by its shape and place on any state colour and panel, without the tooltip.
struct IconFlags {
    bool orphans = false;         // top right, a count: orphaned MCP processes wait for a clean-up
    int orphanCount = 0;          // the digit in that badge (10 and more: "+")
    bool versionMismatch = false; // bottom right, an up arrow: an update waits for a restart
    bool mcpAttention = false;    // bottom left, a warning triangle: an MCP server over its limit
    // Healthy and working (a tool call or a session runs): the same calm green, with three
    // dots for the check mark, so "busy" never reads as a warning.
    bool working = false;
};
bool operator==(const IconFlags &a, const IconFlags &b);
inline bool operator!=(const IconFlags &a, const IconFlags &b) {
    return !(a == b);
}

// Names the picture (state and badges), e.g. "healthy+mcp+orphans": logs and tests read it.
QString iconKey(policy::State state, const IconFlags &flags);

// The state's colour, shared with the status window's timeline bands.
QColor stateColor(policy::State state, const QPalette &palette);
// The glyph drawn on a state's disc: white or near-black, whichever contrasts more with it.
QColor glyphColor(const QColor &background);
// WCAG 2 contrast ratio of two colours (1..21), the measure the colours are chosen by.
double contrastRatio(const QColor &a, const QColor &b);

// mask: a template image (black + alpha only) that the macOS menu bar tints itself.
QPixmap stateIconPixmap(policy::State state, IconFlags flags, int size, qreal dpr,
                        const QPalette &palette, bool mask = false);

// 16, 22, 32, 64 px at 1x and 2x; on macOS a mask (template) icon.
QIcon stateIcon(policy::State state, IconFlags flags, const QPalette &palette);

} // namespace tether
