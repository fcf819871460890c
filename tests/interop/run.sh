#!/usr/bin/env bash
# Start the Python AG-UI interop servers (Google ADK, LangGraph, Microsoft Agent Framework,
# Pydantic AI, AWS Strands and CrewAI, each behind its own AG-UI adapter with a scripted fake
# model) on 127.0.0.1 and run a command against them.
#
#   tests/interop/run.sh              # the interop tests (nextest, profile ci, ignored tests only)
#   tests/interop/run.sh bash         # poke at the servers by hand
#   tests/interop/run.sh CMD ARGS...  # anything else
#
# The command sees AGENTUI_INTEROP_<SERVER>_URL for each server (ADK, LANGGRAPH, AGENT_FRAMEWORK,
# PYDANTIC_AI, STRANDS, CREWAI) and AGENTUI_INTEROP_VALIDATE (the ag-ui-validate command).
# The venvs live in ${CARGO_TARGET_DIR:-<repo>/target}/interop-venv (ADK, LangGraph) and
# .../interop-venvs/<name>, one per lock, each rebuilt only when its lock (or the Python version)
# changes. Server logs: ${CARGO_TARGET_DIR:-<repo>/target}/interop-logs/.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
[[ "$target" = /* ]] || target="$PWD/$target"
logs="$target/interop-logs"
python="${INTEROP_PYTHON:-python3}"
# CrewAI imports for about a minute on a busy 2-core machine.
health_timeout="${INTEROP_HEALTH_TIMEOUT:-180}"

log() { echo "interop: $*" >&2; }

# --- venvs -------------------------------------------------------------------
# One venv per lock: the frameworks' pins conflict (ag-ui-protocol 0.1 for Agent Framework, 1.0
# for the others; CrewAI's own fastapi), so each server runs in the venv of its lock.
ensure_venv() { # venv-dir lock-file
    local venv=$1 lock=$2 lock_hash stamp started
    lock_hash="$({ cat "$lock"; "$python" --version; } | sha256sum | cut -d' ' -f1)"
    stamp="$venv/.lock-sha256"
    if [[ ! -x "$venv/bin/python" || "$(cat "$stamp" 2>/dev/null || true)" != "$lock_hash" ]]; then
        log "building $venv from ${lock#"$repo"/}"
        started=$SECONDS
        rm -rf "$venv"
        "$python" -m venv "$venv"
        # The lock is the complete resolved set, so no resolver run is needed;
        # `pip check` then proves nothing is missing from it.
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$lock"
        "$venv/bin/python" -m pip check --disable-pip-version-check >&2
        echo "$lock_hash" >"$stamp"
        log "venv built in $((SECONDS - started)) s"
    fi
}

# name  script  venv (under $target)  lock (under $here)  URL variable
servers=(
    "adk adk_server.py interop-venv requirements.lock AGENTUI_INTEROP_ADK_URL"
    "langgraph langgraph_server.py interop-venv requirements.lock AGENTUI_INTEROP_LANGGRAPH_URL"
    "agent-framework agent_framework_server.py interop-venvs/agent-framework venvs/agent-framework/requirements.lock AGENTUI_INTEROP_AGENT_FRAMEWORK_URL"
    "pydantic-ai pydantic_ai_server.py interop-venvs/pydantic-ai venvs/pydantic-ai/requirements.lock AGENTUI_INTEROP_PYDANTIC_AI_URL"
    "strands strands_server.py interop-venvs/strands venvs/strands/requirements.lock AGENTUI_INTEROP_STRANDS_URL"
    "crewai crewai_server.py interop-venvs/crewai venvs/crewai/requirements.lock AGENTUI_INTEROP_CREWAI_URL"
)
venvs_started=$SECONDS
for entry in "${servers[@]}"; do
    read -r _ _ venv_dir lock_file _ <<<"$entry"
    ensure_venv "$target/$venv_dir" "$here/$lock_file"
done
log "venvs ready in $((SECONDS - venvs_started)) s"
venv="$target/interop-venv"

# --- servers ----------------------------------------------------------------
mkdir -p "$logs"
# Keep bytecode out of the source tree. The venv's packages were compiled by
# pip at install time and are read from there; only our two small modules
# compile on each start. (A PYTHONPYCACHEPREFIX would hide pip's bytecode.)
export PYTHONDONTWRITEBYTECODE=1
unset PYTHONPYCACHEPREFIX
export PYTHONUNBUFFERED=1

# Distinct free ports (held open together so they cannot coincide).
read -r -a ports < <("$venv/bin/python" - "${#servers[@]}" <<'EOF'
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))
for s in socks:
    s.close()
EOF
)

pids=()
# shellcheck disable=SC2317  # only invoked through the EXIT trap
cleanup() {
    local pid
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        # uvicorn shuts down gracefully within ~2 s; don't hang on a stuck one.
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

start_server() { # name script port venv
    "$4/bin/python" "$here/$2" --port "$3" >"$logs/$1.out" 2>"$logs/$1.err" &
    pids+=("$!")
}

wait_healthy() { # name port pid
    local name=$1 port=$2 pid=$3 deadline=$((SECONDS + health_timeout))
    while ! "$venv/bin/python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)' \
        "http://127.0.0.1:$port/_health" 2>/dev/null; do
        if ! kill -0 "$pid" 2>/dev/null; then
            log "$name server exited before becoming healthy; last stderr lines ($logs/$name.err):"
            tail -n 40 "$logs/$name.err" >&2 || true
            return 1
        fi
        if ((SECONDS >= deadline)); then
            log "$name server not healthy on port $port after ${health_timeout}s; last stderr lines ($logs/$name.err):"
            tail -n 40 "$logs/$name.err" >&2 || true
            return 1
        fi
        sleep 0.2
    done
}

started=$SECONDS
for i in "${!servers[@]}"; do
    read -r name script venv_dir _ _ <<<"${servers[$i]}"
    start_server "$name" "$script" "${ports[$i]}" "$target/$venv_dir"
done
for i in "${!servers[@]}"; do
    read -r name _ _ _ url_var <<<"${servers[$i]}"
    wait_healthy "$name" "${ports[$i]}" "${pids[$i]}"
    export "$url_var=http://127.0.0.1:${ports[$i]}"
    log "$url_var=http://127.0.0.1:${ports[$i]}"
done
export AGENTUI_INTEROP_VALIDATE="$venv/bin/ag-ui-validate"
log "servers healthy in $((SECONDS - started)) s"

# --- command ----------------------------------------------------------------
if (($# == 0)); then
    # The tests are #[ignore]d for a bare `cargo test`, hence --run-ignored. The build is the
    # workspace's, as in scripts/test.sh's rust stage: one feature set, nothing compiled twice, and
    # the agentui binary the CLI scenarios run comes with it.
    # shellcheck source=scripts/lib/tools.sh
    source "$repo/scripts/lib/tools.sh"
    ensure_tools cargo-nextest
    set -- cargo nextest run --workspace --locked --profile ci --run-ignored only -E 'package(agentui-interop)'
fi
rc=0
"$@" || rc=$?
exit "$rc"
