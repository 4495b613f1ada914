#!/usr/bin/env python3
# Stands in for a tessel of another version installed on the remote host: it
# answers the runner protocol's hello as tessel 0.0.1 would, then ends (as a
# real runner does when the versions differ). runner_test.py names it with
# ssh://host?tessel=PATH, so the real ssh client and sshd carry the exchange.
import json
import sys

sys.stdin.readline()
print(json.dumps({"type": "hello", "protocol": 1, "tessel": "0.0.1", "build": "0123456789ab+00000000deadbeef",
                  "host": "old-host", "cores": 1, "gpus": 0, "gpuError": ""}), flush=True)
