#!/usr/bin/env bash
# Whole-process figures for `agentui run` over loopback (issue 10): the 62,043-event bench run and
# 1M one-character text deltas of one message, each served by `agentui serve-sse`.
# Prints hyperfine's times (per event too) and the peak RSS of one more run under /usr/bin/time.
# Needs hyperfine and GNU time; the 1M stream (68 MB) is written to a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."

bench=../shared/bench/agui-stream-n2000.sse
[ -f "$bench" ] || { echo "missing $bench (the fixed workloads sit beside the repository)" >&2; exit 2; }
cargo build --quiet --release -p agentui-cli
agentui=$PWD/target/release/agentui

work=$(mktemp -d)
servers=()
trap 'kill "${servers[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
python3 - "$work/deltas-1m.sse" <<'EOF'
import sys
thread, run = "thread-bench-0001", "run-1m"
with open(sys.argv[1], "w") as out:
    out.write(f'data: {{"type":"RUN_STARTED","threadId":"{thread}","runId":"{run}"}}\n\n')
    out.write('data: {"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}\n\n')
    out.write('data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x"}\n\n' * 1_000_000)
    out.write('data: {"type":"TEXT_MESSAGE_END","messageId":"m1"}\n\n')
    out.write(f'data: {{"type":"RUN_FINISHED","threadId":"{thread}","runId":"{run}"}}\n\n')
EOF

# Starts `agentui serve-sse FILE` on a free port and sets $url to its address.
serve() {
    local log=$work/serve-${#servers[@]}.log
    "$agentui" serve-sse --port 0 "$1" > "$log" 2>&1 &
    servers+=($!)
    until grep -q 'http://' "$log" 2>/dev/null; do sleep 0.1; done
    url=$(grep -o 'http://[^ ]*' "$log")
}

for case in "n2000 $bench 62043" "deltas-1m $work/deltas-1m.sse 1000004"; do
    read -r name file events <<< "$case"
    serve "$file"
    command=("$agentui" run --thread thread-bench-0001 "$url" hello)
    hyperfine -N --warmup 1 --runs 10 --export-json "$work/$name.json" --output null "${command[*]}"
    python3 - "$work/$name.json" "$name" "$events" <<'EOF'
import json, sys
mean = json.load(open(sys.argv[1]))["results"][0]["mean"]
print(f"{sys.argv[2]}: mean {mean * 1e3:.1f} ms, {mean * 1e6 / int(sys.argv[3]):.2f} us/event")
EOF
    /usr/bin/time -f "$name: peak RSS %M KB" "${command[@]}" > /dev/null
done
