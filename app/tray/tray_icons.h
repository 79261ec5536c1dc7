// The tray's icon: Tether's own mark (the arch and its weight of the app icon) on a disc of the
// state's colour, its shape telling the state too (whole, broken, half drawn, its weight gone),
// so it reads at 16 px and without colour. Drawn with QPainter at any size and device pixel
// ratio, in a set for a light or a dark panel. Pure: (state, flags, size, dpr, panel, phase) ->
// pixels.
#pragma once

#include "policy/state.h"

#include <QColor>
#include <QIcon>
#include <QPalette>
#include <QPixmap>

namespace tether {

// What waits for a person besides the state: at most one badge shows, bottom right, sized in
// device pixels so its digit or glyph stays legible at every scale; the rest is in the tooltip.
struct IconFlags {
    bool orphans = false;         // first: a count of orphaned MCP processes to clean up
    int orphanCount = 0;          // the digit in that badge (10 and more: "9+")
    bool mcpAttention = false;    // then: a warning triangle, an MCP server over its limit
    bool versionMismatch = false; // then: an up arrow, an update waits for a restart
    // Healthy and working (a tool call or a session runs): the same calm green, with a ripple
    // around the mark's weight, so "busy" never reads as a warning.
    bool working = false;
};
bool operator==(const IconFlags &a, const IconFlags &b);
inline bool operator!=(const IconFlags &a, const IconFlags &b) {
    return !(a == b);
}

// The panel the icon sits on: the light or the dark set (trayPanel() in panel_theme.h).
enum class Panel { Light, Dark };
Panel panelOf(const QPalette &palette); // a window's palette: for the status window's colours

// Names the picture (state and the badge shown), e.g. "healthy+working+orphans".
QString iconKey(policy::State state, const IconFlags &flags);
// The one badge shown: "orphans", "mcp", "update" or empty.
QString shownBadge(const IconFlags &flags);

// The state's colour on a panel, shared with the status window's dot and timeline bands.
QColor stateColor(policy::State state, Panel panel);
QColor stateColor(policy::State state, const QPalette &palette);
// The disc's rim: the panel's contrasting tone of the state's colour, so the icon's edge stands
// out from any panel (amber on a light panel is ~2:1, its rim 3:1 and more).
QColor rimColor(policy::State state, Panel panel);
// The mark drawn on a state's disc: white or near-black, whichever contrasts more with it.
QColor glyphColor(const QColor &background);
// WCAG 2 contrast ratio of two colours (1..21), the measure the colours are chosen by.
double contrastRatio(const QColor &a, const QColor &b);

// Starting and restarting draw their arch, and working ripples from the weight, in a short
// animation: phase 0..1 is its frame, a negative phase the still picture.
bool animates(policy::State state, const IconFlags &flags);
constexpr int kAnimationFrameMs = 125;
constexpr int kAnimationMs = 4000; // then the still picture: calm, and no timer left running

// mask: a template image (black + alpha only) that the macOS menu bar tints itself.
QPixmap stateIconPixmap(policy::State state, IconFlags flags, int size, qreal dpr, Panel panel,
                        bool mask = false, qreal phase = -1);

// 16, 22, 32, 64 px at 1x and 2x; on macOS a mask (template) icon.
QIcon stateIcon(policy::State state, IconFlags flags, Panel panel, qreal phase = -1);

} // namespace tether
