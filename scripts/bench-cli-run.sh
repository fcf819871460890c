#!/usr/bin/env bash
# Whole-process figures for `agentui run` over loopback (issue 10): the 62,043-event bench run and
# 1M one-character text deltas of one message, each served by a plain HTTP server as recorded SSE.
# Prints hyperfine's times (per event too) and the peak RSS of one more run under /usr/bin/time.
# Needs hyperfine and GNU time; the 1M stream (68 MB) is written to a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."

bench=../shared/bench/agui-stream-n2000.sse
[ -f "$bench" ] || { echo "missing $bench (the fixed workloads sit beside the repository)" >&2; exit 2; }
cargo build --quiet --release -p agentui-cli
agentui=$PWD/target/release/agentui

work=$(mktemp -d)
trap 'kill "${server:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
ln -s "$(realpath "$bench")" "$work/n2000.sse"
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

# Any POST to /NAME answers with the file NAME of the work directory.
python3 - "$work" > "$work/port" <<'EOF' &
import http.server, os, sys
root = sys.argv[1]
class Recorded(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        path = os.path.join(root, os.path.basename(self.path))
        size = os.path.getsize(path)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        with open(path, "rb") as body:
            os.sendfile(self.wfile.fileno(), body.fileno(), 0, size)
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorded)
print(server.server_address[1], flush=True)
server.serve_forever()
EOF
server=$!
until [ -s "$work/port" ]; do sleep 0.1; done
url=http://127.0.0.1:$(cat "$work/port")

for case in "n2000 62043" "deltas-1m 1000004"; do
    read -r name events <<< "$case"
    command=("$agentui" run --thread thread-bench-0001 "$url/$name.sse" hello)
    hyperfine -N --warmup 1 --runs 10 --export-json "$work/$name.json" --output null "${command[*]}"
    python3 - "$work/$name.json" "$name" "$events" <<'EOF'
import json, sys
mean = json.load(open(sys.argv[1]))["results"][0]["mean"]
print(f"{sys.argv[2]}: mean {mean * 1e3:.1f} ms, {mean * 1e6 / int(sys.argv[3]):.2f} us/event")
EOF
    /usr/bin/time -f "$name: peak RSS %M KB" "${command[@]}" > /dev/null
done
