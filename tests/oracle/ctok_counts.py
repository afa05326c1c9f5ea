"""Prints ctok's Claude token counts of the texts in a JSON file (a list of strings), as JSON:
{"3.0": [...], "4.7": [...], "4.8": [...]}. Run with ctok on the path (scripts/install-ctok):

    PYTHONPATH=target/ctok python3 -S tests/oracle/ctok_counts.py texts.json
"""

import json
import sys

import ctok

texts = json.load(open(sys.argv[1], encoding="utf-8"))
json.dump({v: [ctok.token_count(t, v) for t in texts] for v in ("3.0", "4.7", "4.8")}, sys.stdout)
