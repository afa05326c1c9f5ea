"""Installs the Hermes releases listed in releases.txt into a cache folder, one folder each.

For every release: download its wheel (no dependencies), read the exact pins its metadata
declares for the packages the tool-search engine imports, and `pip install --target` the wheel
and those pins together. A folder holding a `.installed` marker is left as it is.
"""

import email.parser
import os
import pathlib
import subprocess
import sys
import tempfile
import zipfile

# What the engine modules (registry, MCP registration, schema passes, tool search, the config
# loader) import beyond the standard library. pydantic: 0.22's tool search imports the
# connector gateway's wire models. mcp: the MCP client library, pinned by the release's `mcp`
# extra, whose `Tool` model parses a server's tool list (without it Hermes skips MCP).
ENGINE_DEPENDENCIES = ("pyyaml", "ruamel.yaml", "snowballstemmer", "pydantic", "mcp")
# Extras whose pins count (the release's `mcp` extra is how users install MCP support).
ENGINE_EXTRAS = ('extra == "mcp"',)


def releases(listing: pathlib.Path):
    for line in listing.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            version, package = line.split()
            yield version, package


def pinned_engine_dependencies(wheel: pathlib.Path) -> list[str]:
    """The `name==version` pins of ENGINE_DEPENDENCIES in the wheel's METADATA."""
    with zipfile.ZipFile(wheel) as archive:
        metadata_name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = email.parser.Parser().parsestr(archive.read(metadata_name).decode())
    pins = []
    for requirement in metadata.get_all("Requires-Dist") or []:
        marker = requirement.split(";", 1)[1].strip() if ";" in requirement else ""
        if "extra" in marker and marker not in ENGINE_EXTRAS:
            continue
        spec = requirement.split(";", 1)[0].strip()
        if "==" not in spec:
            continue
        name = spec.split("==", 1)[0].strip().split("[", 1)[0]
        if name.lower() in ENGINE_DEPENDENCIES:
            pins.append(spec)
    return pins


def pip(*args: str) -> None:
    # --target installs into a folder of its own: the root-user warning does not apply.
    env = {**os.environ, "PIP_ROOT_USER_ACTION": "ignore"}
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                   check=True, stdout=subprocess.DEVNULL, env=env)


def install(version: str, package: str, cache: pathlib.Path) -> None:
    folder = cache / version
    marker = folder / ".installed"
    if marker.exists():
        return
    with tempfile.TemporaryDirectory() as downloads:
        pip("download", "--quiet", "--no-deps", "--dest", downloads, f"{package}=={version}")
        wheel = next(pathlib.Path(downloads).glob("*.whl"))
        pins = pinned_engine_dependencies(wheel)
        if folder.exists():
            subprocess.run(["rm", "-rf", str(folder)], check=True)
        pip("install", "--quiet", "--no-deps", "--target", str(folder), str(wheel))
        # The pins with their own dependencies (pydantic needs pydantic-core and friends).
        pip("install", "--quiet", "--upgrade", "--target", str(folder), *pins)
    marker.write_text(f"{package}=={version} {' '.join(pins)}\n")
    print(f"install-hermes-releases: {package}=={version} with {', '.join(pins) or 'no pins'}")


def main() -> None:
    listing, cache = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    cache.mkdir(parents=True, exist_ok=True)
    for version, package in releases(listing):
        install(version, package, cache)


if __name__ == "__main__":
    main()
