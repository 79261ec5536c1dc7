# Sourced: start_xvfb WxHxD starts a private Xvfb and sets XVFB_PID and XVFB_DISPLAY (":N").
# The server picks a free display number itself (-displayfd) and says it once it accepts
# connections: a number taken by an X server this /tmp cannot see (another chroot, another
# container on the same host holds the abstract socket) is skipped, which a look at
# /tmp/.X11-unix cannot do. Returns 1 when no server came up within 10 s.
start_xvfb() {
    local screen=$1 numfile
    numfile=$(mktemp)
    Xvfb -displayfd 3 -screen 0 "$screen" -nolisten tcp 3>"$numfile" >/dev/null 2>&1 &
    XVFB_PID=$!
    XVFB_DISPLAY=''
    for _ in $(seq 100); do
        if [ -s "$numfile" ]; then
            XVFB_DISPLAY=":$(tr -dc 0-9 <"$numfile")"
            break
        fi
        kill -0 "$XVFB_PID" 2>/dev/null || break
        sleep 0.1
    done
    rm -f "$numfile"
    [ "$XVFB_DISPLAY" != ':' ] && [ -n "$XVFB_DISPLAY" ]
}
