#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Circles between files: the include graph and the call graph.

  scripts/check/file-circles.py SRCDIR OBJDIR [TOP...]

TOP are the folders of SRCDIR to look at (default: lib tools, for
userspace/; driver for the module, whose objects are built in the tree).
The include graph has an edge a -> b when a file of SRCDIR/TOP names file
b in an #include "..." (headers that include each other), found beside
a, or relative to a TOP folder.  The call graph has an edge a.o -> b.o
when a.o leaves a symbol undefined that b.o defines (nm of every object
under OBJDIR/TOP): units that call each other, directly or round a
longer loop.  A
circle is a strongly connected set of two or more nodes.  Prints one line
per circle and a TAP result per graph; exits 1 if any circle is found.

With lib among TOP, a third result checks libtracebuf's layer order
(Documentation/library.rst): a file of lib/A may include or call a file
of lib/B only when B is A or a layer below it in LIB_LAYERS.  Each edge
that goes up is printed; it fails as a circle does.
"""
import os
import re
import subprocess
import sys


# libtracebuf's layers, lowest first: the one place the order is written.
LIB_LAYERS = ["util", "cli", "format", "device", "convert", "collect"]


def lib_layer(node):
    """The layer of lib/LAYER/..., or None for a file outside lib."""
    parts = node.split(os.sep)
    if len(parts) > 2 and parts[0] == "lib" and parts[1] in LIB_LAYERS:
        return parts[1]
    return None


def upward(graphs):
    """Edges of @graphs from a library layer to a higher one."""
    out = []
    for name, graph in graphs:
        for a in sorted(graph):
            la = lib_layer(a)
            for b in sorted(graph[a]):
                lb = lib_layer(b)
                if la and lb and LIB_LAYERS.index(lb) > LIB_LAYERS.index(la):
                    out.append("%s %s -> %s (%s is above %s)" %
                               (name, a, b, lb, la))
    return out


def sccs(graph):
    """Tarjan's strongly connected components of size > 1."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
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
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def unit(path):
    """An object's unit: lib/format/fdr_reader.o is lib/format/fdr_reader."""
    return os.path.splitext(path)[0]


def include_graph(src, tops):
    graph = {}
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    files = []
    for top in tops:
        for d, _, names in os.walk(os.path.join(src, top)):
            files += [os.path.join(d, n) for n in names
                      if n.endswith((".c", ".h"))]
    by_name = {}
    for f in files:
        rel = os.path.relpath(f, src)
        by_name.setdefault(os.path.basename(f), []).append(rel)
        for top in tops:
            by_name.setdefault(os.path.relpath(f, os.path.join(src, top)),
                               []).append(rel)
    for f in files:
        a = os.path.relpath(f, src)
        graph.setdefault(a, set())
        with open(f, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                m = inc.match(line)
                if not m:
                    continue
                name = m.group(1)
                here = os.path.normpath(os.path.join(os.path.dirname(f), name))
                if os.path.exists(here):
                    targets = [os.path.relpath(here, src)]
                else:
                    targets = by_name.get(name, [])[:1]
                for b in targets:
                    if b != a:
                        graph[a].add(b)
    return graph


def call_graph(src, obj, tops):
    defs, undefs = {}, {}
    objs = []
    for top in tops:
        for d, _, names in os.walk(os.path.join(obj, top)):
            objs += [os.path.join(d, n) for n in names if n.endswith(".o")]
    # An object whose source was renamed or removed is not a file now.
    objs = [o for o in objs if os.path.exists(
        os.path.join(src, os.path.relpath(o, obj))[:-2] + ".c")]
    for o in sorted(objs):
        node = unit(os.path.relpath(o, obj))
        out = subprocess.run(["nm", "--defined-only", "-g", o],
                             capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3:
                defs[parts[2]] = node
        out = subprocess.run(["nm", "-u", o], capture_output=True, text=True,
                             check=True).stdout
        undefs[node] = {line.split()[-1] for line in out.splitlines() if line.strip()}
    graph = {}
    for node, syms in undefs.items():
        graph[node] = {defs[s] for s in syms if s in defs and defs[s] != node}
    return graph


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    src, obj = sys.argv[1], sys.argv[2]
    tops = sys.argv[3:] or ["lib", "tools"]
    graphs = [("include", include_graph(src, tops)),
              ("call", call_graph(src, obj, tops))]
    layers = "lib" in tops
    print("TAP version 13")
    print("1..%d" % (len(graphs) + layers))
    bad = 0
    for i, (name, graph) in enumerate(graphs, 1):
        edges = sum(len(v) for v in graph.values())
        circles = sccs(graph)
        print("# %s graph: %d files, %d edges, %d circles" %
              (name, len(graph), edges, len(circles)))
        for c in circles:
            print("#   circle: %s" % " ".join(c))
        print("%sok %d %s_circles" % ("not " if circles else "", i, name))
        bad += bool(circles)
    if layers:
        up = upward(graphs)
        print("# library layers, lowest first: %s; %d edges go up" %
              (" ".join(LIB_LAYERS), len(up)))
        for e in up:
            print("#   up: %s" % e)
        print("%sok %d lib_layer_order" % ("not " if up else "",
                                            len(graphs) + 1))
        bad += bool(up)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
