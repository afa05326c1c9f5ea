"""Writes crates/engine/src/tokenizers/claude/{v3,v4_7}.json from ctok 1.3.0 (installed by scripts/install-ctok):
each Claude tokenizer generation's piece list, in the internal form ctok's tiler reads (markers
as single noncharacter glyphs), without the measurement records, plus the scalars the count
uses. MIT-licensed data; its license is copied beside it.

    PYTHONPATH=target/ctok python3 -S tests/oracle/claude_pieces.py
"""

import json
import pathlib
import shutil

import ctok
from ctok.main import _document
from ctok.notation import parse_marked

OUT = pathlib.Path(__file__).resolve().parents[2] / "crates/engine/src/replay/claude"

for family, filename in (("v3", "pieces_v3.json"), ("v4_7", "pieces_v4_7.json")):
    doc = _document(filename)
    meta = doc["meta"]
    tokens = doc["tokens"]
    pieces = sorted({parse_marked(p) for group, ps in tokens.items()
                     if group != "bytes_fallback" for p in ps})
    out = {
        "source": f"ctok 1.3.0, {filename}: {meta['description']}",
        "message_overhead": meta["message_overhead"],
        "fold_quotes": meta["fold_quotes"],
        "allcaps_min": meta["allcaps_min"],
        "pieces": pieces,
        "contractions": sorted(tokens["contractions"]),
        "bytes_fallback": sorted(tokens["bytes_fallback"]),
    }
    (OUT / f"{family}.json").write_text(json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n",
                                        encoding="utf-8")

licence = pathlib.Path(ctok.__file__).parent.parent / "ctok-1.3.0.dist-info/licenses/LICENSE"
shutil.copy(licence, OUT / "LICENSE")
