#!/usr/bin/env python3
"""The tables of docs/performance.md from the last benchmark run (scripts/bench-table runs it):
criterion's medians under target/criterion, and the logs of the process bench and of
scripts/bench-search-vs-bm25s under target/bench-logs. Prints Markdown."""

import json
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..")
CRITERION = os.path.join(ROOT, "target", "criterion")
LOGS = os.path.join(ROOT, "target", "bench-logs")


def median(*parts):
    """Criterion's median for a benchmark id (its path parts), in seconds, or None."""
    path = os.path.join(CRITERION, *parts, "new", "estimates.json")
    try:
        with open(path) as f:
            return json.load(f)["median"]["point_estimate"] * 1e-9
    except (OSError, KeyError, ValueError):
        return None


def human(seconds):
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            value = seconds / scale
            return f"{value:.3g} {unit}" if value < 100 else f"{value:.0f} {unit}"
    return f"{seconds * 1e9:.2g} ns"


def pair(*values):
    return " / ".join(human(v) for v in values)


NEWEST = None


def newest_profile():
    """The newest release's id, as the benchmark ids name it."""
    global NEWEST
    if NEWEST is None:
        names = set()
        for group in os.listdir(CRITERION) if os.path.isdir(CRITERION) else []:
            bench = os.path.join(CRITERION, group, "index_build")
            if os.path.isdir(bench):
                names.update(os.listdir(bench))
        names.discard("seed")
        names.discard("report")
        NEWEST = sorted(names)[-1] if names else "newest"
    return NEWEST


def engine_rows():
    new = newest_profile()
    kinds = ["distinct", "openapi", "copies"]
    cols = [(k, s) for k in kinds for s in (10, 100)]
    head = "| what (criterion medians; seed / " + new + ") | " + " | ".join(
        f"{k} {s}k" for k, s in cols) + " |"
    lines = [head, "|---|" + "---:|" * len(cols)]

    def row(label, fn):
        lines.append(f"| {label} | " + " | ".join(fn(k, s) for k, s in cols) + " |")

    g = lambda k, s: f"catalog_{k}_{s}k"
    row("session built from loaded captures (" + new + ")",
        lambda k, s: human(median(g(k, s), "session_from_captures")))
    row("index build", lambda k, s: pair(median(g(k, s), "index_build", "seed"),
                                          median(g(k, s), "index_build", new)))
    for style, label in (("keyword", "one search, keyword (1-3 words; copies: one word)"),
                         ("natural", "one search, a sentence (copies: 3 fixed sentences, slowest)")):
        def cell(k, s, style=style):
            if k == "copies":
                if style == "keyword":
                    return pair(median(g(k, s), "search_1", "seed"), median(g(k, s), "search_1", new))
                worst = lambda p: max((median(g(k, s), f"search_{i}", p) or 0) for i in (0, 2, 3)) or None
                return pair(worst("seed"), worst(new))
            return pair(median(g(k, s), f"search_{style}", "seed"),
                        median(g(k, s), f"search_{style}", new))
        row(label, cell)
    row("activation and assembly", lambda k, s: pair(median(g(k, s), "activation", "seed"),
                                                      median(g(k, s), "activation", new)))
    row("measuring every definition from scratch",
        lambda k, s: human(median(g(k, s), "definition_chars_from_scratch")))
    q = lambda k, s: f"quality_{k}_{s}k"
    row("lint, in process",
        lambda k, s: pair(median(q(k, s), "lint", "seed"), median(q(k, s), "lint", new)))
    row("eval, 2,000 drawn queries (copies: one query per tool)",
        lambda k, s: pair(median(q(k, s), "eval_2k_drawn_queries", "seed"),
                          median(q(k, s), "eval_2k_drawn_queries", new)) if k != "copies" else
        pair(median(q(k, s), "eval_one_query_per_tool", "seed"),
             median(q(k, s), "eval_one_query_per_tool", new)))
    lines.append("")
    tokenizers = ("o200k_base", "claude-v3", "claude-v4.7")
    lines.append("| counting every tool (criterion medians, tokenizer loaded once) | "
                 + " | ".join(tokenizers) + " |")
    lines.append("|---|" + "---:|" * len(tokenizers))
    for bench, label in (("all_captures", "the 406 real tools"),
                         ("10k_distinct", "10,000 distinct tools")):
        lines.append(f"| {label} | " + " | ".join(
            human(median("tokenizers", f"count_{bench}_{t}")) for t in tokenizers) + " |")
    lines.append(f"| loading o200k_base again (the process keeps it) | {human(median('tokenizers', 'load_o200k_base'))} | | |")
    return lines


def tui_rows():
    cols = [(k, s) for k in ("distinct", "copies") for s in (10, 100)]
    lines = ["| TUI (criterion medians) | " + " | ".join(f"{k} {s}k" for k, s in cols) + " |",
             "|---|" + "---:|" * len(cols)]
    for bench, label in (("type_a_character_and_render", "type a character, re-rank and render"),
                         ("threshold_step_and_render", "a threshold step, render"),
                         ("toggle_a_server_and_render", "switch a server off and render"),
                         ("toggle_rebuild_and_render", "the rebuild after a switch (worker)")):
        lines.append(f"| {label} | " + " | ".join(
            human(median(f"tui_{k}_{s}k", bench)) for k, s in cols) + " |")
    lines.append("| the app built from loaded captures and drawn | - | " +
                 human(median("first_frame", "100k_distinct_tools")) + " | - | " +
                 human(median("first_frame", "100k_copies_tools")) + " |")
    return lines


def process_rows():
    path = os.path.join(LOGS, "process.txt")
    if not os.path.exists(path):
        return ["(no process bench log)"]
    catalogs, order, labels = {}, [], []
    current = None
    with open(path) as f:
        for line in f:
            head = re.match(r"(\d+) (\w+) tools, ([\d.]+) MiB of captures.*?(\(load [\d.?]+\))?$", line.strip())
            if head:
                current = (head.group(2), int(head.group(1)))
                catalogs[current] = {"_size": head.group(3), "_load": head.group(4) or ""}
                order.append(current)
                continue
            cell = re.match(r"\s+(.+?)\s{2,}([\d.]+) s\s+peak\s+([\d.]+) MiB \(([\d.]+)x", line)
            if cell and current:
                label = cell.group(1)
                if label not in labels:
                    labels.append(label)
                extra = ""
                if "loading screen" in line:
                    extra = "; loading screen " + line.rsplit("at ", 1)[-1].strip()
                catalogs[current][label] = f"{float(cell.group(2)):.2f} s, {float(cell.group(3)):.0f} MiB ({cell.group(4)}x){extra}"
    million = [c for c in order if c[1] > 100_000]
    order = [c for c in order if c[1] <= 100_000]
    lines = ["| whole process | " + " | ".join(
        f"{k} {s:,} ({catalogs[(k, s)]['_size']} MiB) {catalogs[(k, s)]['_load']}" for k, s in order) + " |",
             "|---|" + "---:|" * len(order)]
    for label in labels:
        lines.append(f"| {label} | " + " | ".join(catalogs[c].get(label, "-") for c in order) + " |")
    for c in million:
        lines.append("")
        lines.append(f"| {c[1]:,} {c[0]} tools ({catalogs[c]['_size']} MiB of captures) "
                     f"{catalogs[c]['_load']} | |")
        lines.append("|---|---:|")
        for label in labels:
            if label in catalogs[c]:
                lines.append(f"| {label} | {catalogs[c][label]} |")
    return lines


def bm25s_rows():
    path = os.path.join(LOGS, "bm25s.txt")
    if not os.path.exists(path):
        return ["(no bm25s log)"]
    lines = ["| tools | profile | queries | schematax (CPU) | bm25s (CPU) | ratio | target |",
             "|---:|---|---|---:|---:|---:|---:|"]
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*(\d+) tools\s+(\S+)\s+(\w+)\s+\d+ queries: schematax\s+([\d.]+) us\s+bm25s\s+([\d.]+) us.*ratio\s+([\d.]+)", line)
            if m:
                lines.append(f"| {int(m.group(1)):,} | {m.group(2)} | {m.group(3)} | {m.group(4)} µs | "
                             f"{m.group(5)} µs | {m.group(6)} | 0.50 |")
    return lines


def main():
    for section in (engine_rows, tui_rows, process_rows, bm25s_rows):
        print("\n".join(section()))
        print()


if __name__ == "__main__":
    sys.exit(main())
