# Neovim as a real LSP client: tests/nvim/lsp_test.lua drives `tessel lsp`
# through Neovim's built-in client (Debian's neovim 0.7.2); config_test.lua
# checks the shipped editors/nvim/tessel.lua. Skipped with a
# message when nvim is not installed.
find_program(TESSEL_NVIM nvim)
if(TESSEL_NVIM)
  add_test(NAME nvim.lsp
           COMMAND ${TESSEL_NVIM} --headless -u NONE -i NONE -c "luafile ${CMAKE_CURRENT_LIST_DIR}/lsp_test.lua")
  set_tests_properties(nvim.lsp PROPERTIES TIMEOUT 120 LABELS "lsp;nvim"
    ENVIRONMENT "TESSEL=$<TARGET_FILE:tessel>;FIXTURE=${CMAKE_CURRENT_LIST_DIR}/vector_add_bug.py;XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/nvim-home/cache;XDG_STATE_HOME=${CMAKE_BINARY_DIR}/nvim-home/state;XDG_DATA_HOME=${CMAKE_BINARY_DIR}/nvim-home/data")
  add_test(NAME nvim.config
           COMMAND ${TESSEL_NVIM} --headless -u NONE -i NONE -c "luafile ${CMAKE_CURRENT_LIST_DIR}/config_test.lua")
  set_tests_properties(nvim.config PROPERTIES TIMEOUT 120 LABELS "lsp;nvim"
    ENVIRONMENT "TESSEL=$<TARGET_FILE:tessel>;FIXTURE=${CMAKE_CURRENT_LIST_DIR}/vector_add_bug.py;CONFIG=${PROJECT_SOURCE_DIR}/editors/nvim/tessel.lua;XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/nvim-home/cache;XDG_STATE_HOME=${CMAKE_BINARY_DIR}/nvim-home/state;XDG_DATA_HOME=${CMAKE_BINARY_DIR}/nvim-home/data")
  add_test(NAME nvim.codelens
           COMMAND ${TESSEL_NVIM} --headless -u NONE -i NONE -c "luafile ${CMAKE_CURRENT_LIST_DIR}/codelens_test.lua")
  set_tests_properties(nvim.codelens PROPERTIES TIMEOUT 120 LABELS "lsp;nvim"
    ENVIRONMENT "TESSEL=$<TARGET_FILE:tessel>;FIXTURE=${PROJECT_SOURCE_DIR}/samples/bugs/ts105_invalid_arange.py;CONFIG=${PROJECT_SOURCE_DIR}/editors/nvim/tessel.lua;XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/nvim-home/cache;XDG_STATE_HOME=${CMAKE_BINARY_DIR}/nvim-home/state;XDG_DATA_HOME=${CMAKE_BINARY_DIR}/nvim-home/data")
  # Its own cache folder: the test reads Neovim's lsp.log, which no other test may write.
  add_test(NAME nvim.editing
           COMMAND ${TESSEL_NVIM} --headless -u NONE -i NONE -c "luafile ${CMAKE_CURRENT_LIST_DIR}/editing_test.lua")
  set_tests_properties(nvim.editing PROPERTIES TIMEOUT 180 LABELS "lsp;nvim"
    ENVIRONMENT "TESSEL=$<TARGET_FILE:tessel>;FIXTURE=${PROJECT_SOURCE_DIR}/samples/vector_add.py;CONFIG=${PROJECT_SOURCE_DIR}/editors/nvim/tessel.lua;XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/nvim-home/editing-cache;XDG_STATE_HOME=${CMAKE_BINARY_DIR}/nvim-home/editing-state;XDG_DATA_HOME=${CMAKE_BINARY_DIR}/nvim-home/data")
  add_test(NAME nvim.tune
           COMMAND ${TESSEL_NVIM} --headless -u NONE -i NONE -c "luafile ${CMAKE_CURRENT_LIST_DIR}/tune_test.lua")
  set_tests_properties(nvim.tune PROPERTIES TIMEOUT 120 LABELS "lsp;nvim"
    ENVIRONMENT "TESSEL=$<TARGET_FILE:tessel>;FIXTURE=${PROJECT_SOURCE_DIR}/samples/matmul.py;SLOW=${PROJECT_SOURCE_DIR}/tests/runners/slow_tune.py;CONFIG=${PROJECT_SOURCE_DIR}/editors/nvim/tessel.lua;XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/nvim-home/tune-cache;XDG_STATE_HOME=${CMAKE_BINARY_DIR}/nvim-home/tune-state;XDG_DATA_HOME=${CMAKE_BINARY_DIR}/nvim-home/data")
else()
  message(STATUS "tessel: nvim not found; the Neovim LSP test is skipped (apt-get install neovim)")
endif()

# The install target the README's Neovim set-up relies on: `cmake --install build --prefix P` gives P/bin/tessel,
# which runs from PATH with nothing from the build tree (a fresh prefix each run, so a stale copy cannot pass).
set(TESSEL_INSTALL_PREFIX ${CMAKE_BINARY_DIR}/install-test)
add_test(NAME install.prefix
         COMMAND sh -c "rm -rf '${TESSEL_INSTALL_PREFIX}' && '${CMAKE_COMMAND}' --install '${CMAKE_BINARY_DIR}' --prefix '${TESSEL_INSTALL_PREFIX}' >/dev/null && cd / && PATH='${TESSEL_INSTALL_PREFIX}/bin' tessel --version")
set_tests_properties(install.prefix PROPERTIES TIMEOUT 60 LABELS install PASS_REGULAR_EXPRESSION "^tessel [0-9]")
