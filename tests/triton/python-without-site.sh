#!/bin/sh
# A real python3 that sees no site-packages (-S): torch and triton cannot be imported whatever is
# installed, so the runner's "no torch" path runs for real on any machine.
exec python3 -S "$@"
