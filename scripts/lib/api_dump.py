#!/usr/bin/env python3
"""Writes the public JVM API of one package's compiled classes, in the layout of Kotlin's
binary-compatibility-validator .api files: one block per class (its modifiers, name and
supertypes), then each public or protected field and method with its JVM descriptor, all
sorted, so the same classes always give the same text.

    api_dump.py CLASSES_DIR PACKAGE    # e.g. android/host-jvm/target/classes dev.agentui

Only the classes directly in PACKAGE are read (not its sub-packages: dev.agentui.core holds the
generated UniFFI bindings, dev.agentui.compose the renderer). It reads `javap -v -protected`,
which the JDK ships, so no class-file library is needed.

Kotlin `internal` declarations compile to public JVM members; this tool drops the ones whose
names the compiler mangles (members: `name$module`), but internal classes and top-level
functions stay listed (binary-compatibility-validator drops them by reading the Kotlin metadata).
"""

import re
import subprocess
import sys
from pathlib import Path

# Member modifiers printed, in the validator's order; `synthetic` only for `$default` methods.
MODIFIER_FLAGS = [
    ("ACC_PUBLIC", "public"),
    ("ACC_PROTECTED", "protected"),
    ("ACC_STATIC", "static"),
    ("ACC_FINAL", "final"),
    ("ACC_ABSTRACT", "abstract"),
    ("ACC_SYNTHETIC", "synthetic"),
]


def strip_generics(text):
    """Removes every <...> (nested too): supertypes are listed erased, as in the descriptors."""
    out, depth = [], 0
    for ch in text:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def internal_name(dotted):
    return dotted.strip().replace(".", "/")


def class_header(line, flags, super_class):
    """`public final class dev/agentui/Foo : java/lang/Object, dev/agentui/Bar`."""
    erased = strip_generics(line)
    is_interface = "ACC_INTERFACE" in flags
    supertypes = []
    # An interface's class file names java/lang/Object as its superclass; the validator omits it.
    if super_class and not is_interface:
        supertypes.append(super_class)
    # An interface's super-interfaces follow `extends`, a class's follow `implements`.
    keyword = " extends " if is_interface else " implements "
    if keyword in erased:
        supertypes += [internal_name(t) for t in erased.split(keyword, 1)[1].split(",")]
    name = re.search(r"(?:class|interface) (\S+)", erased).group(1)
    words = ["public"] if "ACC_PUBLIC" in flags else []
    if "ACC_ABSTRACT" in flags and not is_interface:
        words.append("abstract")
    if "ACC_FINAL" in flags:
        words.append("final")
    if "ACC_ENUM" in flags:
        words.append("enum")
    if "ACC_ANNOTATION" in flags:
        words.append("annotation")
    words.append("interface" if is_interface else "class")
    words.append(internal_name(name))
    header = " ".join(words)
    if supertypes:
        header += " : " + ", ".join(supertypes)
    return header


def class_name_of(header):
    return header.split(" : ")[0].split()[-1]


def is_listed(name, flags, module_suffixes):
    if "ACC_BRIDGE" in flags:
        return False
    # `$default` methods carry default arguments: callers in other modules link to them.
    if "ACC_SYNTHETIC" in flags and not name.endswith("$default"):
        return False
    # Kotlin `internal` members are public in bytecode, with the module's name appended.
    # (A property's accessors carry the suffix before `$annotations`, so look anywhere in the name.)
    return not any(suffix in name for suffix in module_suffixes)


def member_line(decl, descriptor, flags, class_name, module_suffixes):
    words = [word for flag, word in MODIFIER_FLAGS if flag in flags]
    if "(" in decl:
        # The method's name is the last word before its parameter list.
        name = decl.split("(", 1)[0].split()[-1]
        if name == class_name.replace("/", "."):
            name = "<init>"
        kind = "fun"
    else:
        name = decl.rstrip(";").split()[-1]
        kind = "field"
    if name in ("{}", "static") or not is_listed(name, flags, module_suffixes):
        return None
    return "\t" + " ".join(words + [kind, name, descriptor])


def parse_classes(javap_text, module_suffixes):
    """Yields (header, [member lines]) for each public class in javap -v output."""
    blocks = re.split(r"^Classfile ", javap_text, flags=re.M)[1:]
    for block in blocks:
        lines = block.splitlines()
        decl = next(l for l in lines if re.match(r"^(\S.* )?(class|interface) ", l))
        flags = next(l for l in lines if l.startswith("  flags: "))
        if "ACC_PUBLIC" not in flags:
            continue
        super_match = re.search(r"^  super_class: #\d+\s+// (\S+)", block, flags=re.M)
        super_class = super_match.group(1) if super_match else None
        header = class_header(decl, flags, super_class)
        class_name = class_name_of(header)
        members = []
        i = lines.index("{") + 1 if "{" in lines else len(lines)
        while i < len(lines) and lines[i] != "}":
            line = lines[i]
            if re.match(r"^  \S.*;$", line):
                descriptor = lines[i + 1].strip().removeprefix("descriptor: ")
                member_flags = lines[i + 2]
                entry = member_line(line.strip(), descriptor, member_flags, class_name,
                                    module_suffixes)
                if entry:
                    members.append(entry)
                i += 3
            else:
                i += 1
        yield header, sorted(set(members))


def dump(classes_dir, package, module_suffixes):
    folder = Path(classes_dir) / package.replace(".", "/")
    files = sorted(str(p) for p in folder.glob("*.class"))
    if not files:
        sys.exit(f"api_dump: no classes in {folder}: build the host-JVM classes first")
    javap = subprocess.run(["javap", "-v", "-protected"] + files, check=True,
                           capture_output=True, text=True).stdout
    out = []
    by_name = sorted(parse_classes(javap, module_suffixes), key=lambda c: class_name_of(c[0]))
    for header, members in by_name:
        out.append(header + " {\n" + "".join(m + "\n" for m in members) + "}\n")
    return "\n".join(out)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    classes_dir, package = sys.argv[1], sys.argv[2]
    # The host-JVM pom compiles the layer and the renderer as module `agentui` (its strict,
    # explicit-API step); their internal members end in `$agentui`.
    suffixes = sys.argv[3:] or ["$agentui"]
    sys.stdout.write(dump(classes_dir, package, suffixes))


if __name__ == "__main__":
    main()
