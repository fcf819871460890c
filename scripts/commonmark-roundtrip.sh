#!/usr/bin/env bash
# The Markdown round trip over the CommonMark spec's examples: installs the spec (npm
# commonmark-spec) and the reference implementation (npm commonmark, commonmark.js) once per
# machine (scripts/lib/tools.sh), writes each example with the reference's HTML to
# target/commonmark-examples.json, then runs the CLI's ignored round-trip test against it
# (rust/agentui-cli/tests/it/markdown.rs), which prints how many examples differ and why.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/tools.sh
source scripts/lib/tools.sh
modules=$(ensure_commonmark)
target_dir=$(cargo metadata --format-version 1 --no-deps --locked | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
examples="$target_dir/commonmark-examples.json"
NODE_PATH="$modules" node scripts/lib/commonmark-examples.js >"$examples"
AGENTUI_COMMONMARK_EXAMPLES="$examples" cargo test --locked -p agentui-cli --test it -- \
  --ignored --exact markdown::the_tree_round_trips_the_commonmark_spec_examples --nocapture
