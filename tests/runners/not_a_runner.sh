#!/bin/sh
# A remote command that is not a tessel runner (a wrapper printing a banner
# first, say): the client must name the problem, not hang or crash.
echo "Welcome to the cluster!"
cat >/dev/null
