// Claude Code's own ToolSearch ranking and fixed texts, run from its shipped package.
//
//   node tests/oracle/claude_code.mjs <claude binary>          < {"tools":[...],"queries":[...],"k":5}
//   node tests/oracle/claude_code.mjs <claude binary> --names  < {"tools":[...]}
//   node tests/oracle/claude_code.mjs <claude binary> --texts
//
// The package (@anthropic-ai/claude-code-linux-x64, scripts/install-agent-packages) is a
// bun-compiled binary that embeds its minified JS source. This takes out of it the functions
// ToolSearch ranks with (the scorer, the query cut, the name parts, the description cache and the
// MCP tool's description cut, the pool's order) and runs them in node, unchanged but for one
// patch: the ranking returns {name, score} instead of names. Stubbed are only what does not
// rank (the yield budget, logs, the environment with no override set, the wire-key maps, empty
// by default, one remote switch of the ToolSearch text, off by default, ...; each is named
// where it is stubbed, and docs/agent-oracles.md lists them).
//
// Ranking input, on stdin: tools as the MCP server lists them, {serverName, toolName,
// description, meta} (meta: the tool's `_meta`; "name" and "searchHint" optional, else built
// by the package's naming and read from meta); the pool is built as Claude Code builds it
// (hidden and over-long tools dropped, de-duplicated by full name, sorted with localeCompare),
// `anthropic/alwaysLoad` tools kept out of the deferred ones. Output:
// [{"query", "hits": [{"name", "score"}]}], score null for a hit of the exact-name or
// `mcp__` prefix rules, which return before scoring, or of a `select:` list (ToolSearch's
// call() resolves those with gwt, before ranking).
//
// --names prints the pool's full names (alwaysLoad tools too), in its order, for the tools on stdin.
// {"catalogs": [job, ...]} on stdin answers each job, in one array.
// --texts prints {"toolSearchDefinition", "toolSearchDescription", "toolSearchInputSchema",
// "deferredHeader", "reminderOpen", "reminderClose", "instructionsOpen", "instructionsCapChars",
// "instructionsCutMark", "sources": {name: declaration text}}.

import { Bundle, tokenize } from "./js_source.mjs";
import { readFileSync } from "node:fs";

const [binary, mode] = process.argv.slice(2);
if (!binary) {
  process.stderr.write("usage: claude_code.mjs <claude binary> [--names | --texts]\n");
  process.exit(2);
}
const bundle = new Bundle(binary);

/// Runs `code` (extracted declarations) with `stubs` in scope and returns `names`' values.
function evaluate(code, stubs, names) {
  const stubNames = Object.keys(stubs);
  const result = `return {${Object.entries(names).map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(",")}};`;
  return new Function(...stubNames, `"use strict";\n${code}\n${result}`)(...stubNames.map((n) => stubs[n]));
}

/// Extracts `roots` from the chunk declaring `anchor` (whose text holds `marker`), leaving out
/// `stubs`; fails on a used name found nowhere that is not a JS built-in.
function take(anchor, marker, roots, stubs) {
  const idx = bundle.findChunk(anchor, marker);
  const { code, names, globals } = bundle.extract(idx, roots, new Set(Object.keys(stubs)));
  const unknown = [...globals].filter((g) => !(g in globalThis));
  if (unknown.length > 0) throw new Error(`${roots}: used but not found: ${unknown.join(", ")}`);
  return { idx, code, names };
}

/// Replaces `from` by `to` in `code`, where it must occur exactly once.
function patchOnce(code, from, to) {
  const at = code.indexOf(from);
  if (at < 0 || code.indexOf(from, at + 1) >= 0) throw new Error(`patch target not found once: ${from}`);
  return code.slice(0, at) + to + code.slice(at + from.length);
}

/// A piece of source that a step here copies or relies on must be in the package as written
/// (in chunk `chunkIdx`, or anywhere when it is null).
function mustOccur(chunkIdx, text) {
  const chunks = chunkIdx === null ? bundle.chunks : [bundle.chunks[chunkIdx]];
  if (!chunks.some((c) => c.text.includes(text))) throw new Error(`not in the package: ${text}`);
}

const noop = () => {};
const envUnset = {}; // the environment Claude Code reads: no override set

// --- ranking ---------------------------------------------------------------------------------

function rankingFunctions() {
  const stubs = {
    Co: () => ({ maybeYield: async () => {} }), // the yield budget of long loops
    KBe: (key) => key, // wire key -> internal key: identity while no key map is loaded
    t: noop, // debug log
  };
  const r = take("r8t", "async function r8t(", ["r8t", "zkn", "XJs", "nZn"], stubs);
  const code = patchOnce(r.code, ".slice(0,g).map((ee)=>ee.name)}", ".slice(0,g)}");
  const ranking = evaluate(code, stubs, r.names);
  // The MCP tool's description as prompt() gives it: cut at Gae() characters.
  const cutStubs = { Fe: noop, s: envUnset };
  const factory = take("ti", 'description`,e,we)', ["ti", "Gae", "_r"], cutStubs);
  mustOccur(factory.idx, 'Te=ti(Rt,`Tool "${le.name}" description`,e,oe),Jt=ti(Rt,`Tool "${le.name}" description`,e,we)');
  mustOccur(factory.idx, "maxDescriptionLength:oe=Gae(),maxLoadedDescriptionLength:we=Gae(!0)");
  mustOccur(factory.idx, "async prompt({loadedThroughToolSearch:Re}){return Re?Jt:Te}");
  mustOccur(factory.idx, 'searchHint:Ae?.replace(/\\s+/g," ").trim()||void 0');
  mustOccur(factory.idx, 'Rt=se?.tools?.[le.name]??le.description??""');
  mustOccur(factory.idx, "let $t=_r(e,le.name)");
  const cut = evaluate(factory.code, cutStubs, factory.names);
  // The pool's order.
  mustOccur(null, "Do=await r8t(ot,In,io,Zt(io),tt,ko)");
  mustOccur(null, "{max_results:tt=5}=o,ot=XJs(o.query)");
  // The pool: qJe drops tools kept from the model and names over the API's length, HA keeps
  // the first tool of a name, Wde sorts by localeCompare.
  // Stubbed: its logs, and i6o, which hides tools a server marks as posing as the ask tool
  // (a mark only Claude's own servers carry).
  const poolStubs = { Ic: noop, a: noop, S: (x) => x, eq: (x) => x, i6o: (x) => x };
  const pool = take("afn", "assembleToolPool:afn", ["HA", "Wde", "qJe"], poolStubs);
  mustOccur(null, "return i6o(i,o)}");
  mustOccur(pool.idx, "k=HA(qJe([...r?.machineMcpTools??[],...o],h!==void 0),(D)=>D.name)");
  mustOccur(pool.idx, "HA(R.toSorted(Wde).concat(w.sort(Wde)),(D)=>D.name)");
  const order = evaluate(pool.code, poolStubs, pool.names);
  // Whether `_meta.ui.visibility` keeps a tool from the model (the factory's hiddenFromModel).
  const visibility = take("me", "function ADa(", ["me"], {});
  mustOccur(visibility.idx, "let i=me(e);if(i)t(`MCP server");
  mustOccur(factory.idx, "...ADa(le._meta,e,le.name)&&{hiddenFromModel:!0}");
  mustOccur(factory.idx, 'alwaysLoad:!z&&(K&&!(o==="dynamic"&&le._meta?.["anthropic/alwaysLoad"]===!1)||le._meta?.["anthropic/alwaysLoad"]===!0)');
  const hidden = evaluate(visibility.code, {}, visibility.names);
  // The select path of call(): names resolved by gwt (exact name, else tools whose raw or
  // sanitised tool name is the name), else LRi's replacements, which FM finds only for
  // Claude's own artifacts server. aDe (wire name -> internal name) is the identity without a
  // key map.
  const selectStubs = { FM: () => undefined, pg: () => undefined, aDe: (x) => x };
  const select = take("rUe", "function SGn(", ["rUe", "SGn"], selectStubs);
  mustOccur(null, "function FM(e,r){let o=or(e),g=o?.serverName===si&&o.toolName!==void 0?");
  mustOccur(null, SELECT_GLUE[0]);
  mustOccur(null, SELECT_GLUE[1]);
  const selecting = evaluate(select.code, selectStubs, select.names);
  return { ...ranking, ...cut, ...order, ...hidden, ...selecting };
}

/// Claude Code's MCP tool object, as far as ranking reads it: from the tool as the server lists
/// it (`meta` its `_meta`), the server having no alwaysLoad or defer-all setting.
function mcpTool(f, t) {
  const description = t.description ?? "";
  const label = `Tool "${t.toolName}" description`;
  const meta = t.meta ?? undefined;
  const hint = t.searchHint ?? (typeof meta?.["anthropic/searchHint"] === "string" ? meta["anthropic/searchHint"] : undefined);
  return {
    name: t.name ?? f._r(t.serverName, t.toolName),
    mcpInfo: { serverName: t.serverName, toolName: t.toolName, ...(f.me(meta) && { hiddenFromModel: true }) },
    isMcp: true,
    alwaysLoad: meta?.["anthropic/alwaysLoad"] === true,
    searchHint: typeof hint === "string" ? hint.replace(/\s+/g, " ").trim() || undefined : undefined,
    async prompt({ loadedThroughToolSearch }) {
      return f.ti(description, label, undefined, loadedThroughToolSearch ? f.Gae(true) : f.Gae());
    },
  };
}

/// The code of ToolSearch's call() that the select path below follows (Zr, the permission
/// check, is false without deny rules; Fo, the already-loaded check, is empty outside by-value
/// listings).
const SELECT_GLUE = [
  'hr=nZn.exec(ot)?.[1]??(SGn(In,Zt(io),ot.trim(),Zr).selected.some((_o)=>In.includes(_o))?ot.trim():void 0);if(hr!==void 0){let _o=hr.split(",").map((zi)=>zi.trim()).filter(Boolean),dr=_o.map((zi)=>[zi,Fo(zi)])',
  "for(let zi of fs){let Qi=rUe(In,pa,zi,Zr);for(let Oa of Qi)if(!Rs.includes(Oa.name))Rs.push(Oa.name);if(Qi.length===0)js.push(zi)}",
];

/// ToolSearch's select path, or null when the query takes the keyword path.
function selected(f, ot, deferred, all) {
  const Zr = () => false;
  const hr = f.nZn.exec(ot)?.[1] ?? (f.SGn(deferred, all, ot.trim(), Zr).selected.some((t) => deferred.includes(t)) ? ot.trim() : undefined);
  if (hr === undefined) return null;
  const names = [];
  for (const name of hr.split(",").map((x) => x.trim()).filter(Boolean)) {
    for (const tool of f.rUe(deferred, all, name, Zr)) if (!names.includes(tool.name)) names.push(tool.name);
  }
  return names;
}

let functions = null;

async function rank(input) {
  functions ??= rankingFunctions();
  const f = functions;
  const tools = input.tools.map((t) => mcpTool(f, t));
  const pool = f.HA(f.HA(f.qJe(tools), (x) => x.name).sort(f.Wde), (x) => x.name);
  const deferred = pool.filter((x) => !x.alwaysLoad);
  const describer = new f.zkn();
  const k = input.k ?? 5;
  const out = [];
  for (const query of input.queries) {
    // ToolSearch's call(): `ot=XJs(o.query)`, then `r8t(ot,In,io,Zt(io),tt,ko)` with the
    // deferred tools, all tools, all tools again (Zt is the identity outside REPL and
    // by-value modes; only MCP tools are modelled), max_results and the describe cache.
    const ot = f.XJs(query);
    const hits = selected(f, ot, deferred, pool) ?? (await f.r8t(ot, deferred, pool, pool, k, describer));
    out.push({
      query,
      hits: hits.map((h) => (typeof h === "string" ? { name: h, score: null } : h)),
    });
  }
  return { pool: pool.map((t) => t.name), results: out };
}

// --- texts -----------------------------------------------------------------------------------

/// The cooked value of a template-literal piece as the tokenizer gives it (`...${, }...${, }...`).
function cook(raw) {
  const inner = raw.replace(/^[`}]/, "").replace(/(\$\{|`)$/, "");
  return new Function(`return \`${inner}\`;`)();
}

function texts() {
  // FOt (describe system turns as "a message from the system") reads the model only when one
  // is given; Wnl is a remote switch (the fetch rule), off unless the server turns it on.
  const flagStubs = { Wnl: () => false, utr: () => false, _x: (m) => m };
  const description = take("j5o", "function j5o(", ["j5o"], flagStubs);
  mustOccur(description.idx, "function FOt(e){return e.describesSystemTurns??(e.model!==void 0&&utr(_x(e.model)))}");
  mustOccur(null, "function Wnl(){return Ci().toolSearchFetchRule}");
  const j5o = evaluate(description.code, flagStubs, description.names).j5o;
  // The input schema: the zod schema Pus, converted by YV (zod's JSON Schema writer, which
  // IYn calls for a tool without inputJSONSchema), zod's classes set up by their own module
  // initialisers.
  const schemaChunk = bundle.findChunk("Pus", "Pus=p(()=>");
  const writerChunk = bundle.findChunk("YV", "function YV(e){let o=qS.lookup(e)");
  mustOccur(null, 'function IYn(e,{remoteToolForwarding:o}){let g="inputJSONSchema"in e&&e.inputJSONSchema?e.inputJSONSchema:YV(e.inputSchema);');
  mustOccur(null, "oo={name:e.name,description:is.description,input_schema:No}");
  const schema = bundle.extractAll([[schemaChunk, "Pus"], [writerChunk, "YV"], [schemaChunk, "So"]], new Set());
  const { Pus, YV, So } = evaluate(schema.code, {}, schema.names);
  const inputSchema = YV(Pus());
  const header = take("Zzi", "Zzi=`", ["Zzi"], {});
  const reminder = take("Gd", "function Gd(e){return`${Ck}", ["Gd"], {});
  const wrapped = evaluate(reminder.code, {}, reminder.names).Gd("\u0000");
  const [reminderOpen, reminderClose] = wrapped.split("\u0000");
  const cut = take("Fl", 'return ti(e,"Server instructions",o,r)', ["Fl"], { Fe: noop, s: envUnset });
  const long = "x".repeat(5000);
  const cutText = evaluate(cut.code, { Fe: noop, s: envUnset }, cut.names).Fl(long, "server");
  const capChars = cutText.lastIndexOf("x") + 1;
  // The instructions attachment: the template pieces around the optional "shortened" sentence.
  const idx = bundle.findChunk("Dvt", "function Dvt(");
  const toks = tokenize(bundle.chunks[idx].text);
  const first = toks.findIndex((t) => t.t === "tmpl" && t.v.startsWith("`# MCP Server Instructions"));
  let next = first + 1;
  while (toks[next].t !== "tmpl") next++;
  const instructionsOpen = reminderOpen + cook(toks[first].v) + cook(toks[next].v);
  // The declarations the constants of schematax's Claude Code row are read from, as written.
  const declaration = (name, marker) => bundle.chunks[bundle.findChunk(name, marker)].parsed.decls.get(name).text;
  const sources = {
    r8t: declaration("r8t", "async function r8t("),
    dw: declaration("dw", "var dw=16384"),
    sw: declaration("sw", "var dw=16384"),
    iw: declaration("iw", "var dw=16384"),
    XJs: declaration("XJs", "function XJs("),
    aw: declaration("aw", "var dw=16384"),
    zoo: declaration("zoo", "zoo=4096"),
    Voo: declaration("Voo", "zoo=4096"),
    Gae: declaration("Gae", "function Gae("),
    ete: declaration("ete", "var ete=500"),
    Bvt: declaration("Bvt", "var Bvt=10"),
    Uvt: declaration("Uvt", "function Uvt("),
    jvs: declaration("jvs", "var jvs=2.5"),
    Wvs: declaration("Wvs", "function Wvs("),
    Pus: declaration("Pus", "Pus=p(()=>"),
  };
  return {
    sources,
    // As the request sends it: {name, description, input_schema}, compact.
    toolSearchDefinition: JSON.stringify({ name: So, description: j5o(), input_schema: inputSchema }),
    toolSearchDescription: j5o(),
    toolSearchInputSchema: inputSchema,
    deferredHeader: evaluate(header.code, {}, header.names).Zzi,
    reminderOpen,
    reminderClose,
    instructionsOpen,
    instructionsCapChars: capChars,
    instructionsCutMark: cutText.slice(capChars),
  };
}

if (mode === "--texts") {
  process.stdout.write(`${JSON.stringify(texts(), null, 1)}\n`);
} else {
  const input = JSON.parse(readFileSync(0, "utf8"));
  const answer = async (job) => {
    const { pool, results } = await rank({ queries: [], ...job });
    return mode === "--names" ? pool : results;
  };
  let out;
  if (input.catalogs) {
    out = [];
    for (const job of input.catalogs) out.push(await answer(job));
  } else {
    out = await answer(input);
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
