# shellcheck shell=bash
# Sourced by build-xcframework.sh (Apple) and scripts/swift-linux.sh (Linux): how the output of
# `uniffi-bindgen generate --language swift` becomes one Swift module and one C module.

# Every crate with UniFFI types in the library is a namespace of its own (uniffi.toml): one
# Swift file and one C header each, all in the Swift module AgentUICore and the C module
# AgentUICoreFFI. (The demo agent's namespace, AgentUIDemo, is left out: phone builds lack it.)
FFI_NAMESPACES=(AgentUICore AgentUICoreJSON AgentUICoreMarkdown AgentUICoreA2UI AgentUICoreAGUI AgentUICoreRuntime)

# Checks that GENERATED holds every namespace's Swift file and header and the module map;
# prints what is missing and returns 1 otherwise.
check_ffi_generated() { # generated
  local name file missing=""
  for name in "${FFI_NAMESPACES[@]}"; do
    for file in "$name.swift" "${name}FFI.h"; do
      [ -f "$1/$file" ] || missing="$missing $file"
    done
  done
  [ -f "$1/AgentUICoreFFI.modulemap" ] || missing="$missing AgentUICoreFFI.modulemap"
  if [ -n "$missing" ]; then
    echo "uniffi-bindgen did not write:$missing (check uniffi.toml)" >&2
    return 1
  fi
}

# Writes OUT/ with every namespace's header and one module.modulemap listing them all (the
# generated map names only agentui-ffi's header). With LINK, the module map also links that
# library (Linux: SwiftPM's system-library target; an XCFramework carries its own library).
write_ffi_module() { # generated out [link]
  local generated="$1" out="$2" link="${3:-}" name extra=""
  mkdir -p "$out"
  for name in "${FFI_NAMESPACES[@]}"; do
    cp "$generated/${name}FFI.h" "$out/"
    [ "$name" = AgentUICore ] || extra="$extra    header \"${name}FFI.h\"\n"
  done
  [ -z "$link" ] || extra="$extra    link \"$link\"\n"
  awk -v extra="$extra" '{ print } /header "AgentUICoreFFI.h"/ { printf "%s", extra }' \
    "$generated/AgentUICoreFFI.modulemap" >"$out/module.modulemap"
}

# Copies every namespace's Swift file to OUT/.
copy_ffi_swift() { # generated out
  local name
  mkdir -p "$2"
  for name in "${FFI_NAMESPACES[@]}"; do
    cp "$1/$name.swift" "$2/$name.swift"
  done
}

# The test kit's library (agentui_testing, issue 39) is apart from the phone library: its one
# namespace becomes the Swift module AgentUITestingCore over the C module AgentUITestingCoreFFI.
# (The core crates' namespaces that bindgen also writes for it are left out: the kit's Swift
# uses only its own types, and AgentUICore already carries the core's.)
KIT_FFI_NAMESPACE=AgentUITestingCore

# Writes OUT/ with the kit's header and module map (with LINK, linking that library) and
# copies its Swift file to SWIFT_OUT/.
write_kit_ffi_module() { # generated out swift_out [link]
  local generated="$1" out="$2" swift_out="$3" link="${4:-}" name="$KIT_FFI_NAMESPACE" extra=""
  for file in "$name.swift" "${name}FFI.h" "${name}FFI.modulemap"; do
    [ -f "$generated/$file" ] || {
      echo "uniffi-bindgen did not write $file for the test kit (check uniffi.toml)" >&2
      return 1
    }
  done
  mkdir -p "$out" "$swift_out"
  cp "$generated/${name}FFI.h" "$out/"
  [ -z "$link" ] || extra="    link \"$link\"\n"
  awk -v extra="$extra" -v header="header \"${name}FFI.h\"" '{ print } index($0, header) { printf "%s", extra }' \
    "$generated/${name}FFI.modulemap" >"$out/module.modulemap"
  cp "$generated/$name.swift" "$swift_out/$name.swift"
}
