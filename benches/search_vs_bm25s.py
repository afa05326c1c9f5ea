#!/usr/bin/env python3
"""Per-query search time of schematax and of bm25s, side by side in one run, on one core.

Run by scripts/bench-search-vs-bm25s, which makes the venv with bm25s and builds the release
example `search_bench`. For each catalog shape (distinct, openapi, copies of the real captures,
twins-10 and twins-100: every tool with 10 or 100 twins; see examples/search_bench.rs), size
and profile: the example writes each tool's
search tokens (the text schematax indexes for it, tokenised by the profile's rules) and the
queries' tokens; bm25s indexes the same token lists (k1 = 1.5, b = 0.75, Lucene's BM25, as
Hermes) and answers the same queries with the same limit. Rounds alternate the two engines so
that a busy machine slows both alike; each round times every query once per pass, and the
figure is the median over rounds of each round's median pass, in microseconds per query of
CPU time (the thread's own, so that the time other processes had the core is left out; wall
times are printed beside).
schematax is timed on the query's text (its tokenising included); bm25s on the tokens' ids
(its tokenising left out), both as one batch call (its fastest) and one call per query.
"""

import json
import os
import statistics
import subprocess
import sys
import time

import bm25s
import numpy as np

EXAMPLE = os.environ.get("SEARCH_BENCH", "target/release/examples/search_bench")
# Another build of the example (say, of an earlier commit), timed in the same rounds.
BEFORE = os.environ.get("BEFORE")
# Queries of each style, and whether bm25s is also timed one call per query.
QUERIES = os.environ.get("QUERIES", "1000")
PER_CALL = os.environ.get("PER_CALL", "1") == "1"


def run(*args, example=EXAMPLE):
    """The example's standard output."""
    out = subprocess.run([example, "--queries", QUERIES, *args], check=True,
                         capture_output=True, text=True)
    return out.stdout


def bm25s_rounds(retriever, ids, limit, passes):
    """Median microseconds per query over `passes`, in CPU time: one batch call, one call per
    query; and the batch call's in wall time."""
    retriever.retrieve(ids, k=limit, show_progress=False, n_threads=0)
    batch, single, wall = [], [], []
    for _ in range(passes):
        started, started_cpu = time.perf_counter(), time.thread_time()
        retriever.retrieve(ids, k=limit, show_progress=False, n_threads=0)
        batch.append((time.thread_time() - started_cpu) * 1e6 / len(ids))
        wall.append((time.perf_counter() - started) * 1e6 / len(ids))
        if not PER_CALL:
            single.append(float("nan"))
            continue
        started_cpu = time.thread_time()
        for query in ids:
            retriever.retrieve([query], k=limit, show_progress=False, n_threads=0)
        single.append((time.thread_time() - started_cpu) * 1e6 / len(ids))
    return statistics.median(batch), statistics.median(single), statistics.median(wall)


def measure(shape, tools, profile, rounds, passes, work):
    """One catalog's rows: per query style, both engines' medians and their ratio."""
    folder = os.path.join(work, f"{shape}-{tools}-{profile}")
    run("--shape", shape, "--profile", profile, "export", str(tools), folder)
    with open(os.path.join(folder, "docs.jsonl")) as f:
        docs = [json.loads(line) for line in f]
    with open(os.path.join(folder, "queries.json")) as f:
        exported = json.load(f)
    limit = exported["limit"]
    started = time.perf_counter()
    retriever = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
    retriever.index(docs, show_progress=False)
    index_s = time.perf_counter() - started
    vocab = retriever.vocab_dict
    rows = {}
    entries = None
    for style, queries in exported["queries"].items():
        ids = [[vocab[t] for t in q["tokens"] if t in vocab] for q in queries]
        rows[style] = {"schematax": [], "bm25s": [], "bm25s_per_call": [], "queries": len(ids),
                       "schematax_wall": [], "bm25s_wall": [], "before": []}
    for _ in range(rounds):
        line = json.loads(run("--shape", shape, "--profile", profile, "time", str(tools),
                              str(passes)))
        entries = line["twin_entries"]
        for style, figures in line["styles"].items():
            rows[style]["schematax"].append(figures["cpu_median_us"])
            rows[style]["schematax_wall"].append(figures["median_us"])
        if BEFORE:
            earlier = json.loads(run("--shape", shape, "--profile", profile, "time",
                                     str(tools), str(passes), example=BEFORE))
            for style, figures in earlier["styles"].items():
                rows[style]["before"].append(figures["cpu_median_us"])
        for style, queries in exported["queries"].items():
            ids = [[vocab[t] for t in q["tokens"] if t in vocab] for q in queries]
            batch, single, wall = bm25s_rounds(retriever, ids, limit, passes)
            rows[style]["bm25s"].append(batch)
            rows[style]["bm25s_wall"].append(wall)
            rows[style]["bm25s_per_call"].append(single)
    table = []
    for style, row in rows.items():
        ours = statistics.median(row["schematax"])
        theirs = statistics.median(row["bm25s"])
        before = statistics.median(row["before"]) if row["before"] else None
        table.append((shape, tools, entries, profile, style, ours, theirs, before))
        print(
            f"{shape:<9} {tools:>7} tools ({entries} ranked entries)  {profile:<15} {style:<8} "
            f"{row['queries']} queries: "
            f"schematax {ours:8.1f} us  bm25s {theirs:8.1f} us "
            f"(one call per query {statistics.median(row['bm25s_per_call']):8.1f} us)  "
            f"ratio {ours / theirs:5.2f}  target <= 0.50  "
            f"[wall: schematax {statistics.median(row['schematax_wall']):.1f} us, "
            f"bm25s {statistics.median(row['bm25s_wall']):.1f} us]  "
            f"[rounds: schematax {', '.join(f'{x:.1f}' for x in row['schematax'])}; "
            f"bm25s {', '.join(f'{x:.1f}' for x in row['bm25s'])}]"
            + (f"  [before: {before:.1f} us, ratio {before / theirs:.2f}]" if before else ""),
            flush=True,
        )
    print(f"{shape:<9} {tools:>7} tools  {profile:<15} bm25s index built in {index_s:.2f} s",
          flush=True)
    return table


def main():
    shapes = os.environ.get("SHAPES", "distinct openapi copies twins-10 twins-100").split()
    sizes = [int(s) for s in os.environ.get("SIZES", "10000 100000").split()]
    profiles = os.environ.get("PROFILES", "hermes-0.22.2 seed").split()
    rounds = int(os.environ.get("ROUNDS", "3"))
    passes = int(os.environ.get("PASSES", "5"))
    work = os.environ.get("WORK", "target/bm25s-bench")
    print(f"bm25s {bm25s.__version__}, numpy {np.__version__}, python {sys.version.split()[0]}; "
          f"load {os.getloadavg()[0]:.2f} at start", flush=True)
    table = []
    for shape in shapes:
        for tools in sizes:
            for profile in profiles:
                table += measure(shape, tools, profile, rounds, passes, work)
    print(f"load {os.getloadavg()[0]:.2f} at the end", flush=True)
    print("\n| shape | tools | ranked entries | profile | queries | schematax (CPU) | "
          "bm25s (CPU) | ratio | target |" + (" before | ratio before |" if BEFORE else ""))
    print("|---|---:|---:|---|---|---:|---:|---:|---:|" + ("---:|---:|" if BEFORE else ""))
    for shape, tools, entries, profile, style, ours, theirs, before in table:
        print(f"| {shape} | {tools:,} | {entries:,} | {profile} | {style} | {ours:.1f} µs | "
              f"{theirs:.1f} µs | {ours / theirs:.2f} | 0.50 |"
              + (f" {before:.1f} µs | {before / theirs:.2f} |" if before else ""))


if __name__ == "__main__":
    main()
