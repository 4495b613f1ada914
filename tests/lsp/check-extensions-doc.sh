#!/usr/bin/env bash
# Every custom method, notification and command the server names in lsp/
# ("tessel/..." and "tessel.xxx" string literals) must be documented in
# docs/lsp-extensions.md, so the page cannot drift from the code.
#   check-extensions-doc.sh REPO_ROOT
set -uo pipefail
root=${1:?usage: check-extensions-doc.sh REPO_ROOT}
doc=$root/docs/lsp-extensions.md
[ -f "$doc" ] || { echo "missing $doc" >&2; exit 1; }
mapfile -t names < <(grep -rhoE '"tessel(/[A-Za-z]+|\.[a-z][A-Za-z]+)"' "$root/lsp" | tr -d '"' | grep -v '^tessel/run/$' | sort -u)
status=0
for n in "${names[@]}"; do
  if ! grep -qF "\`$n\`" "$doc"; then
    echo "docs/lsp-extensions.md does not document \`$n\`"
    status=1
  fi
done
echo "checked ${#names[@]} names: ${names[*]}"
exit $status
