# The Qt runtime of a cross-compiled (MinGW-w64) Windows build, as explicit install rules:
# windeployqt runs only on a Windows host, so a cross build lists what tether.exe loads.
# A native Windows build deploys with windeployqt instead (app/CMakeLists.txt, same predicate).
if(NOT WIN32)
  return()
endif()

# The console CLI, when app/ defines it: in bin/ beside tether.exe, so it loads the same Qt
# DLLs, whichever way they were deployed.
if(TARGET tether-cli)
  install(TARGETS tether-cli RUNTIME DESTINATION bin)
endif()

if(NOT CMAKE_CROSSCOMPILING)
  return()
endif()

# The modules tether.exe links. Their own dependencies are these and system DLLs only (checked
# with objdump -p against Qt 6.4.2 for MinGW-w64: zlib, libpng, harfbuzz are built in).
set(_tether_qt_modules Core Gui Widgets Network)
foreach(_module IN LISTS _tether_qt_modules)
  install(FILES "$<TARGET_FILE:Qt6::${_module}>" DESTINATION bin)
endforeach()

# The plugins, beside tether.exe where Qt always looks (the application directory), as
# windeployqt lays them out. A tray start loads the platform and the native style (seen with
# WINEDEBUG=+loaddll; tests/install/windows_install.sh checks both). The TLS backend is not
# loaded today (the service is plain http on loopback); it is shipped so that anything asking
# QtNetwork for https gets Schannel rather than "TLS initialization failed". The tray icons are
# painted in code and the window icon comes from the .rc: no image format plugin is loaded, and
# none is shipped.
set(_tether_qt_plugins QWindowsIntegrationPlugin QWindowsVistaStylePlugin QSchannelBackendPlugin)
foreach(_plugin IN LISTS _tether_qt_plugins)
  get_target_property(_type Qt6::${_plugin} QT_PLUGIN_TYPE)
  install(FILES "$<TARGET_FILE:Qt6::${_plugin}>" DESTINATION bin/${_type})
endforeach()

# The MinGW-w64 C++ runtime the Qt DLLs and tether.exe were built against: the copies that
# come with that Qt (bin/, beside Qt6Core.dll), the same build as the cross compiler's.
get_target_property(_qt_core_dll Qt6::Core IMPORTED_LOCATION_RELEASE)
if(NOT _qt_core_dll)
  get_target_property(_qt_core_dll Qt6::Core IMPORTED_LOCATION)
endif()
get_filename_component(_qt_bin "${_qt_core_dll}" DIRECTORY)
foreach(_dll libstdc++-6.dll libgcc_s_seh-1.dll libwinpthread-1.dll)
  if(NOT EXISTS "${_qt_bin}/${_dll}")
    message(FATAL_ERROR "tether: ${_dll} is not beside Qt6Core.dll in ${_qt_bin}; the installer "
                        "would not start on Windows without it")
  endif()
  install(FILES "${_qt_bin}/${_dll}" DESTINATION bin)
endforeach()

# The Qt and MinGW DLLs come with their symbol tables (libstdc++-6.dll: 23 MB, 2 MB without).
# CPack strips what install(TARGETS) installs (CPACK_STRIP_FILES); these are files, so strip
# them the same way here. --strip-unneeded keeps the export table, which is what loads them.
if(CMAKE_STRIP)
  set(_tether_strip [[
    if(CMAKE_INSTALL_DO_STRIP)
      file(GLOB_RECURSE _dlls "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/bin/*.dll")
      foreach(_dll IN LISTS _dlls)
        execute_process(COMMAND "@CMAKE_STRIP@" --strip-unneeded "${_dll}" RESULT_VARIABLE _rc)
        if(NOT _rc EQUAL 0)
          message(FATAL_ERROR "tether: strip failed on ${_dll}")
        endif()
      endforeach()
    endif()
  ]])
  string(CONFIGURE "${_tether_strip}" _tether_strip @ONLY)
  install(CODE "${_tether_strip}")
endif()
