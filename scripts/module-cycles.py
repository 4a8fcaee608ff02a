#!/usr/bin/env python3
"""List import cycles between the modules of each workspace crate.

Usage: scripts/module-cycles.py [--check] [--edges] [CRATE ...]
(default: every crate under crates/). `--check` exits 1 when a listed crate
has a cycle; `--edges` prints every module's dependencies too.

A module is one source file (`lib.rs`/`main.rs` is `crate`, `a/mod.rs` and
`a.rs` are `a`, `a/b.rs` is `a::b`). Module A depends on module B when A's
code names something B defines: through a `use crate::…`, `use super::…` or
`use self::…` tree, an inline `crate::…`/`super::…`/`self::…` path, or a path
through a child module (`child::item`). A path resolves to the longest
module prefix it names, then through `pub use` re-exports to the module that
defines the item. A parent and its child are two modules like any others.
Not dependencies: `mod` declarations, `pub use` re-exports themselves (the
facade a module keeps for its callers), comments, string literals and
`#[cfg(test)]` modules (a test may reach anywhere). Names brought into scope
by a `pub use` and then used bare are not followed. A cycle is a strongly
connected set of two or more modules; each is printed with the edges that
close it, with file:line of the first use.
"""

import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def module_name(src, path):
    rel = os.path.relpath(path, src)[: -len(".rs")].split(os.sep)
    if rel[-1] == "mod":
        rel = rel[:-1]
    if rel in (["lib"], ["main"]) or not rel:
        return "crate"
    return "::".join(rel)


def strip_code(text):
    """The text with comments, string and char literals blanked out."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == "\n":
                        out.append("\n")
                    i += 1
        elif re.match(r'b?r#*"', text[i:i + 40]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'b?r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\'])'", text[i:])
            if m:
                out.append("' '")
                i += m.end()
            else:  # a lifetime
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def drop_test_modules(code):
    """Remove `#[cfg(test)] mod x { … }` blocks (braces balance: literals are blank)."""
    while True:
        m = re.search(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{", code)
        if not m:
            return code
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        code = code[: m.start()] + "\n" * code.count("\n", m.start(), j) + code[j:]


def expand_use_tree(tree):
    """`a::{b, c::{d as e}}` -> [('a::b', None), ('a::c::d', 'e')]."""
    tree = re.sub(r"\s+as\s+", "@", tree)
    tree = re.sub(r"\s+", "", tree)
    out = []

    def walk(prefix, t):
        # split t at top-level commas
        parts, depth, cur = [], 0, ""
        for ch in t:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        if cur:
            parts.append(cur)
        for p in parts:
            k = p.find("{")
            if k >= 0:
                head = p[:k].rstrip(":")
                walk(join(prefix, head), p[k + 1 : p.rfind("}")])
            else:
                name, _, alias = p.partition("@")
                out.append((join(prefix, name), alias or None))

    def join(a, b):
        if not a:
            return b
        if not b or b == "self":
            return a
        return a + "::" + b

    walk("", tree)
    return out


def absolute(module, path, modules):
    """`path`, written in `module`, as segments from the crate root (None when
    it leaves the crate: `std::…`, another crate)."""
    segs = path.split("::")
    cur = module.split("::") if module != "crate" else []
    if segs[0] == "crate":
        return segs[1:]
    if segs[0] in ("super", "self"):
        base = list(cur)
        while segs and segs[0] in ("super", "self"):
            if segs[0] == "super":
                base = base[:-1]
            segs = segs[1:]
        return base + segs
    if "::".join(cur + [segs[0]]) in modules:
        return cur + segs
    return None


def locate(segs, modules, reexports, depth=0):
    """The module that defines what `segs` (from the crate root) names,
    following `pub use` re-exports."""
    best, rest = "crate", segs
    for k in range(1, len(segs) + 1):
        cand = "::".join(segs[:k])
        if cand in modules:
            best, rest = cand, segs[k:]
    target = reexports.get(best, {}).get(rest[0]) if rest else None
    if target is not None and depth < 16:
        return locate(target + rest[1:], modules, reexports, depth + 1)
    return best


def crate_graph(src):
    files = []
    for d, _, names in os.walk(src):
        for f in names:
            if f.endswith(".rs"):
                files.append(os.path.join(d, f))
    modules = {}
    for path in files:
        # Files under src/bin are crates of their own.
        if os.path.relpath(path, src).split(os.sep)[0] == "bin":
            continue
        modules[module_name(src, path)] = path
    codes, uses, reexports = {}, {}, {}
    use_re = re.compile(r"(pub(?:\([^)]*\))?\s+)?\buse\s+([^;]+);")
    for m, path in modules.items():
        with open(path, encoding="utf-8") as fh:
            code = drop_test_modules(strip_code(fh.read()))
        uses[m] = []
        reexports[m] = {}
        for match in use_re.finditer(code):
            line = code.count("\n", 0, match.start()) + 1
            tree = match.group(2)
            for p, alias in expand_use_tree(tree):
                if match.group(1):
                    segs = absolute(m, p, modules)
                    if segs is not None and not p.endswith("*"):
                        reexports[m][alias or segs[-1]] = segs
                else:
                    uses[m].append((p, line))
        # What remains after the `use` items: inline paths.
        rest = use_re.sub(lambda x: "\n" * x.group(0).count("\n"), code)
        path_re = r"(?<![\w:])((?:crate|super|self|[a-z_][a-z0-9_]*)(?:::[A-Za-z_][A-Za-z0-9_]*)+)"
        for match in re.finditer(path_re, rest):
            uses[m].append((match.group(1), rest.count("\n", 0, match.start()) + 1))
        codes[m] = path
    graph = {m: {} for m in modules}
    for m, items in uses.items():
        for p, line in items:
            segs = absolute(m, p.rstrip(":*").rstrip(":"), modules)
            if segs is None:
                continue
            target = locate(segs, modules, reexports)
            if target != m:
                graph[m].setdefault(target, f"{os.path.relpath(codes[m], ROOT)}:{line}")
    return graph


def sccs(graph):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [c for c in out if len(c) > 1]


def main(argv):
    check = "--check" in argv
    edges = "--edges" in argv
    crates = [a for a in argv if not a.startswith("--")]
    if not crates:
        crates = sorted(os.listdir(os.path.join(ROOT, "crates")))
    total = 0
    for crate in crates:
        src = os.path.join(ROOT, "crates", crate, "src")
        if not os.path.isdir(src):
            print(f"error: no crate {crate} (looked for {src})", file=sys.stderr)
            return 2
        graph = crate_graph(src)
        cycles = sccs(graph)
        total += len(cycles)
        print(f"{crate}: {len(graph)} modules, {len(cycles)} cycle(s)")
        if edges:
            for m in sorted(graph):
                print(f"  {m} -> {', '.join(sorted(graph[m])) or '-'}")
        for comp in cycles:
            print(f"  cycle of {len(comp)}: {', '.join(comp)}")
            inside = set(comp)
            for m in comp:
                for t, where in sorted(graph[m].items()):
                    if t in inside:
                        print(f"    {m} -> {t}  ({where})")
    print(f"total: {total} cycle(s)")
    return 1 if check and total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
