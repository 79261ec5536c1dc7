# TEMPORARY (branch winexec), until the Windows test build lands (branch wintests): the one
# Windows suite of this branch, without tests/support (its helper programs are POSIX). Drop
# this file and its include in tests/CMakeLists.txt once tst_*_windows.cpp build there.
add_executable(tst_executor_windows ${CMAKE_CURRENT_LIST_DIR}/tst_executor_windows.cpp)
target_link_libraries(tst_executor_windows PRIVATE tether-core Qt6::Test)
add_dependencies(tst_executor_windows tether)
add_test(NAME integration.tst_executor_windows COMMAND tst_executor_windows)
set_tests_properties(integration.tst_executor_windows PROPERTIES LABELS integration TIMEOUT 600
  ENVIRONMENT "TETHER_BIN=$<TARGET_FILE:tether>;QT_QPA_PLATFORM=offscreen")
