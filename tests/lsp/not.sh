#!/usr/bin/env bash
# Runs its arguments as a command and inverts success: exit 0 when the
# command failed (any non-zero status), 1 when it succeeded. Used by
# transcript tests that expect `tessel lsp` to exit with an error.
"$@"
if [ $? -eq 0 ]; then exit 1; fi
exit 0
