# ctest build.tether_binds_at_load: the tether executable has every symbol bound at load
# (DT_FLAGS BIND_NOW), so nothing is resolved lazily in QProcess's child modifier, which runs
# in a child sharing Tether's memory. Usage: cmake -DBIN=<tether> -P check_bind_now.cmake
find_program(READELF readelf REQUIRED)
execute_process(COMMAND ${READELF} -d ${BIN} OUTPUT_VARIABLE dynamic RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf -d ${BIN} failed (${rc})")
endif()
if(NOT dynamic MATCHES "BIND_NOW")
  message(FATAL_ERROR "${BIN} binds symbols lazily (no BIND_NOW in its dynamic section):\n${dynamic}")
endif()
message(STATUS "${BIN}: BIND_NOW")
