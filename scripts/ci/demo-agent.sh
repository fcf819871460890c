#!/usr/bin/env bash
# Starts or stops the scripted demo agent (`agentui serve-demo`) in the background, for tests that
# run outside the Rust test process: the Android emulator's instrumented tests and `swift test`.
# Used by .github/workflows/{android,apple}.yml; works the same on a developer's Linux or Mac.
#
# Usage: scripts/ci/demo-agent.sh start [PORT]   build, start on 127.0.0.1:PORT (default 8765),
#                                                wait until it answers, print its base URL
#        scripts/ci/demo-agent.sh stop           stop the agent this script started
#
# The process id and the agent's output go to $CARGO_TARGET_DIR (default target/):
# serve-demo.pid and serve-demo.log. Written for the bash 3.2 of macOS too.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
pid_file="$target_dir/serve-demo.pid"
log_file="$target_dir/serve-demo.log"

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
}

start() {
  local port="${1:-8765}"
  case "$port" in
    '' | *[!0-9]*) echo "demo-agent: not a port: $port" >&2; exit 2 ;;
  esac
  if [ -f "$pid_file" ] && kill -0 "$(cat "$pid_file")" 2>/dev/null; then
    echo "demo-agent: already running (pid $(cat "$pid_file")); stop it first" >&2
    exit 1
  fi
  mkdir -p "$target_dir"
  cd "$root"
  # Build first, in the foreground, so the wait below only covers the start-up.
  cargo build --locked -p agentui-cli
  "$target_dir/debug/agentui" serve-demo --port "$port" >"$log_file" 2>&1 &
  echo $! >"$pid_file"

  local url="http://127.0.0.1:$port"
  local _
  for _ in $(seq 1 60); do
    # Any HTTP answer (GET / describes the agent) means it listens.
    if curl -s -o /dev/null --max-time 2 "$url/"; then
      echo "$url"
      return 0
    fi
    if ! kill -0 "$(cat "$pid_file")" 2>/dev/null; then
      echo "demo-agent: exited before answering; its output:" >&2
      cat "$log_file" >&2
      rm -f "$pid_file"
      exit 1
    fi
    sleep 1
  done
  echo "demo-agent: no answer on $url after 60 s; its output:" >&2
  cat "$log_file" >&2
  exit 1
}

stop() {
  if [ ! -f "$pid_file" ]; then
    echo "demo-agent: not started by this script (no $pid_file)" >&2
    return 0
  fi
  local pid
  pid="$(cat "$pid_file")"
  # Only the process this script started, by its id.
  kill "$pid" 2>/dev/null || true
  rm -f "$pid_file"
  echo "demo-agent: stopped (pid $pid)"
}

case "${1:-}" in
  start) shift; start "$@" ;;
  stop) stop ;;
  -h | --help) usage ;;
  *) usage >&2; exit 2 ;;
esac
