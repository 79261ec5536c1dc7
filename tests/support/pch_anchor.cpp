// The one source of each area's precompiled-header target (tests/CMakeLists.txt): the header
// is compiled for it, and every suite of the area reuses it.
