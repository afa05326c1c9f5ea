"""Writes crates/releases/src/bridge_texts.rs: the exact bridge definitions of every Hermes release.

    python3 tests/oracle/bridge_texts.py [RELEASES_DIR] > crates/releases/src/bridge_texts.rs

Each release in tests/oracle/releases.txt (installed by scripts/install-hermes-releases) is
asked for its own `bridge_tool_schemas`: once without a listing, and once per listing form with
a marker listing. From these the script takes, per release: the `tool_search` description before
any listing (with `{count}` where the number of deferred tools goes), the framing text each
form puts between that description and the listing, and the three definitions themselves (the
`tool_search` description replaced by an empty string). Identical texts are written once and
shared. The differential test (crates/engine/tests/it/releases.rs) checks the result against the releases.
"""

import contextlib
import io
import json
import logging
import os
import pathlib
import subprocess
import sys
import tempfile

COUNT = 987654321
LISTING = "@@@LISTING@@@"
FORMS = ("full", "names", "mixed", "groups")

PROBE = r"""
import contextlib, inspect, io, json, logging, os, sys, tempfile
sys.path.insert(0, sys.argv[1])
os.environ["HERMES_HOME"] = tempfile.mkdtemp()
logging.disable(logging.CRITICAL)
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    import tools.tool_search as ts
count, listing = int(sys.argv[2]), sys.argv[3]
parameters = inspect.signature(ts.bridge_tool_schemas).parameters
out = {"none": ts.bridge_tool_schemas(count)}
if "listing" in parameters:
    for form in ("full", "names", "mixed", "groups"):
        out[form] = ts.bridge_tool_schemas(count, listing=listing, listing_form=form)
print(json.dumps(out, ensure_ascii=False))
"""


def releases(root: pathlib.Path):
    for line in (root / "tests/oracle/releases.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            yield line.split()[0]


def compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def probe(folder: pathlib.Path) -> dict:
    output = subprocess.run(
        [sys.executable, "-S", "-c", PROBE, str(folder), str(COUNT), LISTING],
        check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def texts_of(schemas: dict) -> dict:
    base = schemas["none"][0]["function"]["description"]
    if base.count(str(COUNT)) != 1:
        raise SystemExit("the tool_search description does not name the count exactly once")
    framing = {}
    for form in FORMS:
        if form not in schemas:
            continue
        description = schemas[form][0]["function"]["description"]
        if not (description.startswith(base) and description.endswith(LISTING)):
            raise SystemExit(f"the {form} description is not base + framing + listing")
        framing[form] = description[len(base):-len(LISTING)]
        if schemas[form][1:] != schemas["none"][1:]:
            raise SystemExit(f"the {form} listing changes more than tool_search's description")
    definitions = json.loads(json.dumps(schemas["none"]))
    definitions[0]["function"]["description"] = ""
    return {
        "search_description": base.replace(str(COUNT), "{count}"),
        "framing": framing,
        "definitions": [compact(d) for d in definitions],
    }


def rust_string(text: str) -> str:
    hashes = "#"
    while f'"{hashes}' in text:
        hashes += "#"
    return f'r{hashes}"{text}"{hashes}'


def main() -> None:
    root = pathlib.Path(__file__).resolve().parents[2]
    folder = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else root / "target/hermes-releases"
    by_release = {v: texts_of(probe(folder / v)) for v in releases(root)}

    names: dict[str, str] = {}  # text -> const name

    def const(kind: str, version: str, text: str) -> str:
        if text not in names:
            names[text] = f"{kind}_{version.split('.post')[0].replace('.', '_')}"
        return names[text]

    rows = []
    for version, texts in by_release.items():
        framing = texts["framing"]
        row = {
            "search_description": const("SEARCH", version, texts["search_description"]),
            "framing": None if not framing else {
                "listed": const("FRAMING_LISTED", version, framing["full"]),
                "mixed": const("FRAMING_MIXED", version, framing["mixed"]),
                "groups": const("FRAMING_GROUPS", version, framing["groups"]),
            },
            "definitions": [const(kind, version, d) for kind, d in
                            zip(("SEARCH_DEFINITION", "DESCRIBE_DEFINITION", "CALL_DEFINITION"),
                                texts["definitions"])],
        }
        if framing and framing["names"] != framing["full"]:
            raise SystemExit(f"{version}: the names form is framed unlike the full form")
        rows.append((version, row))

    out = io.StringIO()
    out.write("//! The bridge definitions of every Hermes release, exactly as each sends them.\n")
    out.write("//!\n")
    out.write("//! Generated by `tests/oracle/bridge_texts.py` from the installed releases' own\n")
    out.write("//! `bridge_tool_schemas`; do not edit. `{count}` in a `tool_search` description is\n")
    out.write("//! the number of deferred tools; each definition's JSON carries an empty `tool_search`\n")
    out.write("//! description where the assembled one goes.\n\n")
    out.write("use crate::rules::{BridgeTexts, ListingFraming};\n\n")
    for text, name in names.items():
        out.write(f"const {name}: &str = {rust_string(text)};\n")
    out.write("\n")
    seen = set()
    for version, row in rows:
        ident = "RELEASE_" + version.split(".post")[0].replace(".", "_")
        key = json.dumps(row, sort_keys=True)
        doc = f"/// The bridge of Hermes {version}."
        if key in seen:
            continue
        seen.add(key)
        framing = row["framing"]
        framing_rust = "None" if framing is None else (
            "Some(ListingFraming {\n"
            f"        listed: {framing['listed']},\n"
            f"        mixed: {framing['mixed']},\n"
            f"        groups: {framing['groups']},\n"
            "    })")
        out.write(f"{doc}\npub const {ident}: BridgeTexts = BridgeTexts {{\n")
        out.write(f"    search_description: {row['search_description']},\n")
        out.write(f"    framing: {framing_rust},\n")
        d = row["definitions"]
        out.write(f"    definitions: [{d[0]}, {d[1]}, {d[2]}],\n}};\n\n")
    sys.stdout.write(out.getvalue().rstrip("\n") + "\n")


if __name__ == "__main__":
    logging.disable(logging.CRITICAL)
    with contextlib.suppress(KeyboardInterrupt):
        main()
