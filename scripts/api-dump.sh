#!/usr/bin/env bash
# The Kotlin library's public JVM API, dumped from the host-JVM build's classes and compared with
# the checked-in dumps, so that a change to it is seen and made on purpose (docs/testing.md).
#
#   ./scripts/api-dump.sh            compare; fails with the diff when the API changed
#   ./scripts/api-dump.sh --update   write the dumps anew (commit them with the change)
#
# Reads android/host-jvm/target/classes: run `./scripts/test.sh jvm` (or check.sh's JVM lane)
# first. The generated UniFFI bindings (dev.agentui.core.*) and the sample are not dumped.
set -euo pipefail
cd "$(dirname "$0")/.."

CLASSES=android/host-jvm/target/classes
# Checked-in dump and the package whose classes it lists, one pair per library module.
MODULES=(
  "android/agentui/api/agentui.api dev.agentui"
  "android/agentui-compose/api/agentui-compose.api dev.agentui.compose"
)

update=false
case "${1:-}" in
  --update) update=true ;;
  "") ;;
  *)
    echo "usage: $0 [--update]" >&2
    exit 2
    ;;
esac

if [ ! -d "$CLASSES/dev/agentui" ]; then
  echo "api-dump: no classes in $CLASSES: run ./scripts/test.sh jvm first" >&2
  exit 1
fi

fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
changed=0
for module in "${MODULES[@]}"; do
  read -r dump package <<<"$module"
  python3 scripts/lib/api_dump.py "$CLASSES" "$package" >"$fresh/new.api"
  if [ "$update" = true ]; then
    mkdir -p "$(dirname "$dump")"
    cp "$fresh/new.api" "$dump"
    echo "api-dump: wrote $dump"
  elif ! diff -u --label "$dump (checked in)" --label "$dump (these classes)" \
    "$dump" "$fresh/new.api"; then
    changed=1
  fi
done

if [ "$changed" -ne 0 ]; then
  cat >&2 <<'MSG'

api-dump: the Kotlin public API differs from the checked-in dump (diff above).
If the change is intended, run `./scripts/api-dump.sh --update`, commit the .api files in the
same commit, and list the change in CHANGELOG.md. Otherwise, restore the API.
MSG
  exit 1
fi
[ "$update" = true ] || echo "api-dump: the public API matches the checked-in dumps"
