# Cargo tools the scripts use, built from crates.io once per machine at pinned versions and kept
# outside the checkout, so a fresh clone (or `git clean`) does not build them again.
#
#   source scripts/lib/tools.sh
#   ensure_tools cargo-nextest cargo-deny   # builds the missing ones, then puts them first on PATH
#
# The cache is $AGENTUI_TOOLS_DIR (default ~/.cache/agentui-tools), one folder per tool and
# version (cargo-deny-0.20.2/bin/...): bumping a version below builds the new one beside the old.
# The tools of one call share a build folder, so what their locked dependency sets have in common
# compiles once; it is removed when the call ends (1-2 GB that nothing reads again).

# shellcheck shell=bash

AGENTUI_TOOLS_DIR="${AGENTUI_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/agentui-tools}"

# name -> "version [cargo install options]". nextest without its self-updater: one download
# client fewer to build, and versions here change only with this file.
tool_spec() {
  case "$1" in
    cargo-nextest) echo "0.9.151 --no-default-features --features default-no-update" ;;
    cargo-deny) echo "0.20.2" ;;
    cargo-bloat) echo "0.12.1" ;;
    cargo-fuzz) echo "0.13.2" ;;
    *) echo "tools.sh: unknown tool $1" >&2; return 1 ;;
  esac
}

# Builds each tool whose pinned version is not in the cache, and puts them all on PATH. A failed
# build fails the caller: no check that needs a tool is ever skipped for want of it.
ensure_tools() {
  local name spec version root started rc=0 lock_fd
  mkdir -p "$AGENTUI_TOOLS_DIR"
  # One builder at a time per machine: a second script waits here instead of building the same
  # tool into the same folders.
  exec {lock_fd}>"$AGENTUI_TOOLS_DIR/.lock"
  flock "$lock_fd"
  for name in "$@"; do
    spec="$(tool_spec "$name")" || { rc=1; break; }
    version="${spec%% *}"
    root="$AGENTUI_TOOLS_DIR/$name-$version"
    if [ ! -x "$root/bin/$name" ]; then
      started=$SECONDS
      echo "tools: building $name $version into $root (once per machine)" >&2
      rm -rf "$root.partial"
      # shellcheck disable=SC2046  # the options are words
      if ! CARGO_TARGET_DIR="$AGENTUI_TOOLS_DIR/build" CARGO_INCREMENTAL=0 \
        cargo install --quiet --locked --root "$root.partial" "$name" --version "$version" \
        $(echo "$spec" | cut -s -d' ' -f2-); then
        echo "tools: could not build $name $version from crates.io" >&2
        rm -rf "$root.partial"
        rc=1
        break
      fi
      # Renamed only once complete, so an interrupted build is never taken for a finished one.
      rm -rf "$root"
      mv "$root.partial" "$root"
      echo "tools: $name $version built in $((SECONDS - started)) s" >&2
    fi
    case ":$PATH:" in
      *":$root/bin:"*) ;;
      *) PATH="$root/bin:$PATH" ;;
    esac
  done
  rm -rf "$AGENTUI_TOOLS_DIR/build"
  exec {lock_fd}>&-
  export PATH
  return "$rc"
}

# The CommonMark spec's examples (npm commonmark-spec) and the reference implementation
# (npm commonmark, commonmark.js), the Markdown round trip's test peer
# (scripts/commonmark-roundtrip.sh). Installed once per machine into the same cache; prints the
# node_modules folder.
COMMONMARK_VERSION=0.31.2
ensure_commonmark() {
  local root="$AGENTUI_TOOLS_DIR/commonmark-$COMMONMARK_VERSION" lock_fd
  mkdir -p "$AGENTUI_TOOLS_DIR"
  exec {lock_fd}>"$AGENTUI_TOOLS_DIR/.lock"
  flock "$lock_fd"
  if [ ! -f "$root/node_modules/commonmark/package.json" ] || [ ! -f "$root/node_modules/commonmark-spec/spec.txt" ]; then
    echo "tools: installing commonmark $COMMONMARK_VERSION and commonmark-spec from npm into $root" >&2
    rm -rf "$root.partial"
    mkdir -p "$root.partial"
    if ! npm install --silent --no-audit --no-fund --prefix "$root.partial" \
      "commonmark@$COMMONMARK_VERSION" "commonmark-spec@$COMMONMARK_VERSION" >&2; then
      echo "tools: could not install commonmark from npm" >&2
      rm -rf "$root.partial"
      exec {lock_fd}>&-
      return 1
    fi
    rm -rf "$root"
    mv "$root.partial" "$root"
  fi
  exec {lock_fd}>&-
  echo "$root/node_modules"
}
