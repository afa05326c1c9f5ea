"""Runs one installed Hermes Agent release on the differential test's jobs.

    python3 -S hermes_oracle.py RELEASE_DIR JOBS.json > RESULTS.json

RELEASE_DIR is a folder made by scripts/install-hermes-releases (the release's wheel and the
packages its engine imports); it is put first on sys.path, and `-S` keeps the machine's own
site-packages out. Nothing of Hermes is copied here: this file only drives the release's own
modules the way a running agent does, with MCP servers that answer from the job instead of a
subprocess:

- the release's config loader reads the job's `config.yaml` from a fresh HERMES_HOME;
- `discover_mcp_tools()` connects the configured servers (`MCPServerTask.start` is the one
  function replaced: it hands the task the job's tool list instead of spawning a server) and
  registers their tools in the release's registry, with its naming, filters, collisions and
  schema normalisation;
- `model_tools.get_tool_definitions(skip_tool_search_assembly=True)` gives the pre-assembly
  definitions (registry order, the schema sanitiser applied), scoped by the job's toolsets;
- `tools.tool_search` assembles, lists, searches, describes and resolves calls.

Each job runs in a forked child, so that every job starts from the state the release has just
after import. BM25 scores, which Hermes never returns, are read from the return values of the
release's own `_bm25_score` as it ranks.
"""

import asyncio
import contextlib
import io
import json
import logging
import os
import sys
import tempfile
import traceback


def compact(value):
    """JSON as Hermes measures it: compact separators, non-ASCII unescaped."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def parse_tools(raw_tools):
    """The tool list as the release's pinned MCP client library parses a `tools/list` result:
    `mcp.types.ListToolsResult`, which raises on a tool it rejects (the whole list fails, and
    Hermes does not connect the server)."""
    from mcp import types

    return types.ListToolsResult.model_validate({"tools": raw_tools}).tools


class FakeSession:
    """A connected client session. It has none of the optional list methods, so no resource or
    prompt utility tools are registered (schematax models a server's own tools only)."""

    async def list_tools(self):
        raise RuntimeError("the oracle hands tools over at connect")


def quietly(function, *args, **kwargs):
    """Calls `function` with stdout and stderr swallowed (the releases print banners)."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return function(*args, **kwargs)


def import_release():
    logging.disable(logging.CRITICAL)

    def load():
        import model_tools  # noqa: F401  (registers the core tools, as at agent start)
        import tools.mcp_tool  # noqa: F401
        import tools.tool_search  # noqa: F401
        # The MCP client library, which later releases import only when a server connects:
        # imported once here rather than in every job's process.
        import mcp  # noqa: F401
        import mcp.types  # noqa: F401

    quietly(load)


def install_fake_servers(servers_tools):
    """Makes `MCPServerTask.start` connect to the job's tool lists."""
    from tools import mcp_tool

    async def start(self, config):
        self._config = config
        self.session = FakeSession()
        self._tools = parse_tools(servers_tools.get(self.name, []))
        self._ready.set()

    mcp_tool.MCPServerTask.start = start


def search(tool_search, arguments, pre, config):
    """`dispatch_tool_search`, plus the score of every document of every query, one mapping
    per query in order. The release's own `_bm25_score` is wrapped where its search looks it
    up, to read the value it returns for each document; `search_catalog` is wrapped where the
    dispatcher looks it up, to tell the queries apart."""
    per_query = []
    search_module = sys.modules[tool_search.search_catalog.__module__]
    original_score = search_module._bm25_score
    original_search = tool_search.search_catalog

    def recording_score(query_tokens, doc_tokens, *args, **kwargs):
        score = original_score(query_tokens, doc_tokens, *args, **kwargs)
        per_query[-1][0][id(doc_tokens)] = score
        return score

    def recording_search(catalog, *args, **kwargs):
        per_query.append(({}, {id(entry._tokens): entry.name for entry in catalog}))
        return original_search(catalog, *args, **kwargs)

    search_module._bm25_score = recording_score
    tool_search.search_catalog = recording_search
    try:
        payload = json.loads(quietly(tool_search.dispatch_tool_search, arguments,
                                     current_tool_defs=pre, config=config))
    finally:
        search_module._bm25_score = original_score
        tool_search.search_catalog = original_search
    scores = [{names[key]: score for key, score in by_tokens.items() if key in names}
              for by_tokens, names in per_query]
    return {"arguments": arguments, "payload": payload, "scores": scores}


def assemble(tool_search, pre, point, config):
    """One assembly at a grid point: a context length, and settings put over the config's
    resolved ones (as schematax's flags and keys do: valid values, set after parsing)."""
    import dataclasses

    overrides = point.get("overrides") or {}
    fields = {f.name for f in dataclasses.fields(config)}
    config = dataclasses.replace(config, **{k: v for k, v in overrides.items() if k in fields})
    result = quietly(tool_search.assemble_tool_defs, pre,
                     context_length=point["context_length"], config=config)
    bridge = [compact(td) for td in result.tool_defs
              if (td.get("function") or {}).get("name") in tool_search.BRIDGE_TOOL_NAMES]
    return {
        "context_length": point["context_length"],
        "overrides": overrides,
        "activated": result.activated,
        "deferred_count": result.deferred_count,
        "deferred_tokens": result.deferred_tokens,
        "threshold_tokens": result.threshold_tokens,
        "tier": getattr(result, "tier", None),
        "listing_form": getattr(result, "listing_form", None),
        "bridge": bridge,
    }


def config_fields(config):
    """The resolved `ToolSearchConfig`; `defer_tools` as the set in effect (the release's
    default when the config gives no list)."""
    fields = {}
    for key, value in vars(config).items():
        if key == "defer_tools":
            value = getattr(config, "effective_defer_tools", value)
        if isinstance(value, frozenset):
            value = sorted(value)
        fields[key] = value
    return fields


def discovery():
    """The module that holds `discover_mcp_tools` (split out of `mcp_tool` in 0.21.3)."""
    try:
        from tools import mcp_tool_discovery

        return mcp_tool_discovery
    except ImportError:
        from tools import mcp_tool

        return mcp_tool


def run_job(job):
    # Inside the run's scratch folder, which main removes at the end.
    home = tempfile.mkdtemp(prefix="job-", dir=os.environ["SCHEMATAX_ORACLE_SCRATCH"])
    os.environ["HERMES_HOME"] = home
    with open(os.path.join(home, "config.yaml"), "w", encoding="utf-8") as f:
        f.write(job["config_yaml"])
    for key, value in (job.get("env") or {}).items():
        os.environ[key] = value

    import model_tools
    from hermes_cli import config as hermes_config
    from tools import tool_search
    from tools.registry import registry

    install_fake_servers({s["name"]: s["tools"] for s in job["servers"]})
    quietly(hermes_config.load_config)
    quietly(discovery().discover_mcp_tools)

    entries = [registry.get_entry(name) for name in registry.get_all_tool_names()]
    mcp_names = sorted(e.name for e in entries if e is not None and e.toolset.startswith("mcp-"))
    mcp_toolsets = sorted({e.toolset for e in entries
                           if e is not None and e.toolset.startswith("mcp-")})
    enabled = job.get("enabled_toolsets")
    pre = quietly(model_tools.get_tool_definitions,
                  enabled_toolsets=list(enabled) if enabled is not None else mcp_toolsets,
                  disabled_toolsets=job.get("disabled_toolsets"),
                  quiet_mode=True, skip_tool_search_assembly=True)
    pre = [td for td in pre if (td.get("function") or {}).get("name", "") in set(mcp_names)]

    config = quietly(tool_search.load_config)
    result = {
        "id": job["id"],
        "registered": [{"name": name, "toolset": registry.get_entry(name).toolset}
                       for name in mcp_names],
        "definitions": [compact(td) for td in pre],
        "deferrable_tokens": tool_search.estimate_tokens_from_schemas(pre),
        "config": config_fields(config),
        "assemblies": [assemble(tool_search, pre, point, config) for point in job["grid"]],
        "searches": [search(tool_search, arguments, pre, config) for arguments in job["searches"]],
        "describes": [{"arguments": arguments,
                       "payload": json.loads(quietly(tool_search.dispatch_tool_describe, arguments,
                                                     current_tool_defs=pre))}
                      for arguments in job["describes"]],
    }
    return result


def run_in_child(job):
    """Runs `job` in a forked child and returns its result (or the child's error)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            output = json.dumps(run_job(job), ensure_ascii=False, allow_nan=True)
        except BaseException:
            output = json.dumps({"id": job["id"], "error": traceback.format_exc()})
        with os.fdopen(write_end, "w", encoding="utf-8") as pipe:
            pipe.write(output)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, encoding="utf-8") as pipe:
        text = pipe.read()
    os.waitpid(pid, 0)
    if not text:
        return {"id": job["id"], "error": "the job's process died without an answer"}
    return json.loads(text)


def run_job_once_more_on_error(job):
    """Runs `job`, and once more if the release raised: its MCP discovery waits on timers
    (a per-server connect timeout, a total for discovery) that a busy machine can run out, so
    one error is retried in a fresh child. An error that repeats is the answer."""
    result = run_in_child(job)
    if "error" in result:
        result = run_in_child(job)
    return result


def main():
    release_dir, jobs_path = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.abspath(release_dir))
    with open(jobs_path, encoding="utf-8") as f:
        jobs = json.load(f)
    # Every home and file of the run lives in one scratch folder, removed at the end.
    with tempfile.TemporaryDirectory(prefix="hermes-oracle-") as scratch:
        os.environ["SCHEMATAX_ORACLE_SCRATCH"] = scratch
        os.environ["HERMES_HOME"] = scratch
        # What the release itself writes to the temporary directory goes there too.
        os.environ["TMPDIR"] = scratch
        tempfile.tempdir = scratch
        os.chdir(scratch)
        import_release()
        results = [run_job_once_more_on_error(job) for job in jobs]
        os.chdir("/")
    json.dump(results, sys.stdout, ensure_ascii=False, allow_nan=True)


if __name__ == "__main__":
    main()
