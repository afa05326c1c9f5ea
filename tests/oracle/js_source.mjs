// Reads the minified JS source a bun-compiled binary embeds as plain text, and takes out chosen
// top-level functions and variables with everything they use, so that node can run them.
//
// The binary holds its bundle as ES-module chunks, each starting with a `// @bun @bytecode`
// header and ending at a NUL byte; chunks import each other's top-level names (which the
// minifier keeps unique across the bundle) with `import{a,b}from"/$bunfs/root/chunk-x.js"` and
// list them in a final `export{...}`. A small scanner (strings, template literals, regular
// expressions, brackets) finds each chunk's top-level declarations; the identifiers a
// declaration uses, less those it declares itself, are followed the same way.

import { readFileSync } from "node:fs";

const HEADER = "// @bun @bytecode\n// (c) Anthropic PBC.";

/// Keywords after which a `/` starts a regular expression, not a division.
const REGEX_AFTER_WORD = new Set([
  "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw",
  "instanceof", "yield", "await",
]);

/// Words that are never identifiers to follow.
const KEYWORDS = new Set([
  ...REGEX_AFTER_WORD, "function", "async", "class", "extends", "var", "let", "const", "if",
  "for", "while", "switch", "break", "continue", "try", "catch", "finally", "this", "super",
  "null", "true", "false", "import", "export", "from", "default", "static", "get", "set",
  "debugger", "with", "arguments", "undefined", "NaN", "Infinity",
]);

/// The end of a template literal's text read from `start` (just after ` or }), and whether it
/// stops at a `${` rather than the closing `.
function templateEnd(text, start) {
  for (let j = start; j < text.length; j++) {
    const c = text[j];
    if (c === "\\") { j++; continue; }
    if (c === "`") return { end: j + 1, opens: false };
    if (c === "$" && text[j + 1] === "{") return { end: j + 2, opens: true };
  }
  throw new Error("unterminated template literal");
}

/// The end of the regular expression literal starting at `start` (its `/`), flags included.
function regexEnd(text, start) {
  let i = start + 1;
  let inClass = false;
  for (; i < text.length; i++) {
    const d = text[i];
    if (d === "\\") { i++; continue; }
    if (d === "[") inClass = true;
    else if (d === "]") inClass = false;
    else if (d === "/" && !inClass) break;
    else if (d === "\n") throw new Error(`unterminated regular expression: ${JSON.stringify(text.slice(start - 80, start + 40))}`);
  }
  i++;
  while (i < text.length && /[a-z]/.test(text[i])) i++;
  return i;
}

/// The end of the number literal starting at `start`.
function numberEnd(text, start) {
  let i = start + 1;
  while (i < text.length && /[0-9A-Za-z_.]/.test(text[i])) {
    if ((text[i] === "e" || text[i] === "E") && (text[i + 1] === "-" || text[i + 1] === "+")) i++;
    i++;
  }
  return i;
}

/// The end of the string literal starting at `start` (its quote).
function stringEnd(text, start) {
  let i = start + 1;
  while (text[i] !== text[start]) i += text[i] === "\\" ? 2 : 1;
  return i + 1;
}

const PUNCTUATOR = /^(>>>=|\.\.\.|===|!==|\*\*=|<<=|>>=|>>>|&&=|\|\|=|\?\?=|=>|\?\.|==|!=|<=|>=|&&|\|\||\?\?|\+\+|--|\+=|-=|\*=|\/=|%=|&=|\|=|\^=|\*\*|<<|>>)/;

/// Whether a `/` after token `prev` starts a regular expression rather than a division.
function regexAllowed(prev) {
  if (prev === null) return true;
  if (prev.t === "id") return REGEX_AFTER_WORD.has(prev.v);
  if (prev.t === "tmpl") return prev.v.endsWith("${");
  if (prev.t === "num" || prev.t === "str" || prev.t === "re") return false;
  return !(prev.v === ")" || prev.v === "]");
}

/// Splits JS text into tokens: {t: "id"|"num"|"str"|"tmpl"|"re"|"p", v, s, e, d} where d is
/// the bracket depth before the token.
export function tokenize(text) {
  const out = [];
  const stack = []; // "(", "[", "{", or "${" for a template substitution
  let prev = null; // previous significant token
  const push = (t, s, e) => {
    prev = { t, v: text.slice(s, e), s, e, d: stack.length };
    out.push(prev);
    return e;
  };
  const template = (s, from) => {
    const r = templateEnd(text, from);
    push("tmpl", s, r.end);
    if (r.opens) stack.push("${");
    return r.end;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const s = i;
    if (c === " " || c === "\n" || c === "\t" || c === "\r") i++;
    else if (c === "/" && text[i + 1] === "/") i = text.indexOf("\n", i) < 0 ? text.length : text.indexOf("\n", i);
    else if (c === "/" && text[i + 1] === "*") i = text.indexOf("*/", i + 2) + 2;
    else if (/[A-Za-z_$#]/.test(c)) {
      i++;
      while (i < text.length && /[A-Za-z0-9_$]/.test(text[i])) i++;
      push("id", s, i);
    } else if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(text[i + 1]))) i = push("num", s, numberEnd(text, s));
    else if (c === '"' || c === "'") i = push("str", s, stringEnd(text, s));
    else if (c === "`") i = template(s, s + 1);
    else if (c === "}" && stack[stack.length - 1] === "${") { stack.pop(); i = template(s, s + 1); }
    else if (c === "/" && regexAllowed(prev)) i = push("re", s, regexEnd(text, s));
    else if (c === "(" || c === "[" || c === "{") { i = push("p", s, s + 1); stack.push(c); }
    else if (c === ")" || c === "]" || c === "}") { stack.pop(); i = push("p", s, s + 1); }
    else {
      const m = PUNCTUATOR.exec(text.slice(i, i + 4));
      i = push("p", s, s + (m ? m[1].length : 1));
    }
  }
  return out;
}

/// Index of the token closing the bracket opened at tokens[k].
function closing(tokens, k) {
  const d = tokens[k].d;
  for (let j = k + 1; j < tokens.length; j++) {
    if (tokens[j].t === "p" && tokens[j].d === d && (tokens[j].v === ")" || tokens[j].v === "]" || tokens[j].v === "}")) return j;
  }
  throw new Error("unbalanced bracket");
}

/// The top-level declarations of one chunk: name -> {kind, text}; and its imports: name -> path.
export function topLevel(text) {
  const tokens = tokenize(text);
  const decls = new Map();
  const imports = new Map();
  for (let k = 0; k < tokens.length; k++) {
    const tok = tokens[k];
    if (tok.d !== 0 || tok.t !== "id") continue;
    if (tok.v === "import" && tokens[k + 1]?.v === "{") {
      const close = closing(tokens, k + 1);
      const from = tokens[close + 2];
      for (let j = k + 2; j < close; j++) {
        if (tokens[j].t !== "id") continue;
        if (tokens[j + 1]?.v === "as") { imports.set(tokens[j + 2].v, { path: from.v.slice(1, -1), name: tokens[j].v }); j += 2; }
        else imports.set(tokens[j].v, { path: from.v.slice(1, -1), name: tokens[j].v });
      }
      k = close + 2;
      continue;
    }
    const fnAt = tok.v === "function" ? k : tok.v === "async" && tokens[k + 1]?.v === "function" ? k + 1 : -1;
    if (fnAt >= 0) {
      let j = fnAt + 1;
      if (tokens[j].v === "*") j++;
      const name = tokens[j].v;
      const open = closing(tokens, j + 1) + 1; // body's {
      const end = closing(tokens, open);
      decls.set(name, { kind: "function", text: text.slice(tok.s, tokens[end].e) });
      k = end;
      continue;
    }
    if (tok.v === "class" && tokens[k + 1]?.t === "id") {
      const name = tokens[k + 1].v;
      let j = k + 2;
      while (tokens[j].v !== "{") j++;
      const end = closing(tokens, j);
      decls.set(name, { kind: "class", text: text.slice(tok.s, tokens[end].e) });
      k = end;
      continue;
    }
    if (tok.v === "var" || tok.v === "let" || tok.v === "const") {
      let j = k + 1;
      for (;;) {
        const nameTok = tokens[j];
        if (nameTok.t !== "id") { // a destructuring declaration: skipped whole
          while (j < tokens.length && !(tokens[j].d === 0 && (tokens[j].v === ";" || tokens[j].v === ","))) j++;
        } else {
          let e = j + 1;
          while (e < tokens.length && !(tokens[e].d === 0 && (tokens[e].v === ";" || tokens[e].v === ","))) e++;
          const last = tokens[e - 1];
          const kind = e === j + 1 ? "unset" : "var"; // `var X;`: set by a module initialiser
          decls.set(nameTok.v, { kind, text: `var ${text.slice(nameTok.s, last.e)};`, tokens: [j + 2, e] });
          j = e;
        }
        if (tokens[j]?.v === ",") { j++; continue; }
        break;
      }
      k = j;
    }
  }
  // Bundled ES modules set some top-level variables inside a lazy initialiser
  // (`var init=wrap(()=>{X=...})`): the initialiser of each such variable.
  const initialiser = new Map();
  for (const [name, decl] of decls) {
    if (decl.kind !== "var") continue;
    const [from, to] = decl.tokens;
    for (let k = from; k < to; k++) {
      const t = tokens[k];
      if (t.t !== "id" || tokens[k + 1]?.v !== "=" || tokens[k - 1]?.v === "." || tokens[k - 1]?.v === "?.") continue;
      if (decls.get(t.v)?.kind === "unset" && !initialiser.has(t.v)) initialiser.set(t.v, name);
    }
  }
  return { decls, imports, initialiser };
}

/// Names a piece of code declares (parameters, let/const/var, functions, classes, catch
/// bindings), wherever they are: what it uses that is not among them comes from outside.
function declaredNames(tokens) {
  const names = new Set();
  const addPattern = (from, to) => { // identifiers of a parameter list or destructuring pattern
    for (let j = from; j < to; j++) {
      const t = tokens[j];
      if (t.t !== "id") continue;
      const before = tokens[j - 1]?.v;
      const after = tokens[j + 1]?.v;
      if (after === ":") continue; // a key in {key: binding}
      if (before === "=" ) continue; // a default value
      if ([",", "(", "{", "[", "..."].includes(before) || before === undefined) names.add(t.v);
    }
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.t === "id" && (t.v === "function" || t.v === "class")) {
      let j = k + 1;
      if (tokens[j]?.v === "*") j++;
      // A declaration binds its name around it; an expression (`x=class y{}`) only inside.
      const before = tokens[k - 1]?.v === "async" ? tokens[k - 2]?.v : tokens[k - 1]?.v;
      const declaration = before === undefined || before === ";" || before === "{" || before === "}";
      if (tokens[j]?.t === "id") { if (declaration) names.add(tokens[j].v); j++; }
      if (t.v === "function" && tokens[j]?.v === "(") addPattern(j + 1, closing(tokens, j));
    } else if (t.v === "=>") {
      const p = tokens[k - 1];
      if (p.t === "id") names.add(p.v);
      else if (p.v === ")") {
        let o = k - 2;
        while (!(tokens[o].v === "(" && tokens[o].d === p.d)) o--;
        addPattern(o + 1, k - 1);
      }
    } else if (t.t === "id" && (t.v === "let" || t.v === "const" || t.v === "var")) {
      let j = k + 1;
      for (;;) {
        const b = tokens[j];
        if (!b) break;
        if (b.t === "id") names.add(b.v);
        else if (b.v === "{" || b.v === "[") { const c = closing(tokens, j); addPattern(j + 1, c); j = c; }
        j++;
        // skip the initializer up to the next declarator
        while (j < tokens.length && tokens[j].d >= b.d && !(tokens[j].d === b.d && [",", ";", "of", "in"].includes(tokens[j].v))) j++;
        if (tokens[j]?.v === ",") { j++; continue; }
        break;
      }
    } else if (t.v === "catch" && tokens[k + 1]?.v === "(") {
      addPattern(k + 2, closing(tokens, k + 1));
    } else if (t.t === "p" && t.v === "(" && tokens[k - 1]?.t === "id" && tokens[closing(tokens, k) + 1]?.v === "{"
      && ["{", "}", ";", ","].includes(tokens[k - 2]?.v) && !KEYWORDS.has(tokens[k - 1].v)) {
      addPattern(k + 1, closing(tokens, k)); // a method: name(params){...}
    }
  }
  return names;
}

/// Identifiers a piece of code uses that it does not declare (property names and object keys
/// left out).
export function freeNames(text) {
  const tokens = tokenize(text);
  const declared = declaredNames(tokens);
  const used = new Set();
  const classBody = []; // per open bracket: whether it is a class body
  let pendingClass = false;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.t === "id" && t.v === "class") pendingClass = true;
    if (t.t === "p" && (t.v === "(" || t.v === "[" || t.v === "{")) {
      classBody.push(t.v === "{" && pendingClass);
      if (t.v === "{") pendingClass = false;
    }
    if (t.t === "p" && (t.v === ")" || t.v === "]" || t.v === "}")) classBody.pop();
    if (t.t === "tmpl") continue;
    if (t.t === "id" && classBody[classBody.length - 1] && (tokens[k + 1]?.v === "=" || tokens[k + 1]?.v === ";")) continue; // a field
    if (t.t !== "id" || KEYWORDS.has(t.v) || declared.has(t.v) || t.v.startsWith("#")) continue;
    const before = tokens[k - 1]?.v;
    if (before === "." || before === "?.") continue;
    if (tokens[k + 1]?.v === ":" && (before === "{" || before === ",")) continue;
    if (tokens[k + 1]?.v === "(" && tokens[closing(tokens, k + 1) + 1]?.v === "{") continue; // a method
    used.add(t.v);
  }
  return used;
}

/// The bundle a binary embeds: its chunks, and which chunk exports each name.
export class Bundle {
  constructor(binaryPath) {
    const buf = readFileSync(binaryPath);
    const header = Buffer.from(HEADER, "latin1");
    this.chunks = [];
    this.exporter = new Map();
    let at = buf.indexOf(header);
    if (at < 0) throw new Error(`${binaryPath}: no bundled JS source found`);
    while (at >= 0) {
      const end = buf.indexOf(0, at);
      const text = buf.toString("latin1", at, end);
      const idx = this.chunks.length;
      this.chunks.push({ text, parsed: null });
      const ex = text.lastIndexOf("export{");
      if (ex >= 0) {
        for (const item of text.slice(ex + 7, text.indexOf("}", ex)).split(",")) {
          const [local, exported] = item.includes(" as ") ? item.split(" as ") : [item, item];
          const list = this.exporter.get(exported) ?? [];
          list.push({ chunk: idx, local });
          this.exporter.set(exported, list);
        }
      }
      at = buf.indexOf(header, end);
    }
  }

  parsed(idx) {
    const c = this.chunks[idx];
    c.parsed ??= topLevel(c.text);
    return c.parsed;
  }

  /// The chunk whose top level declares `name` and holds `marker` (a piece of its text).
  findChunk(name, marker) {
    for (let idx = 0; idx < this.chunks.length; idx++) {
      if (!this.chunks[idx].text.includes(marker)) continue;
      if (this.parsed(idx).decls.has(name)) return idx;
    }
    throw new Error(`no chunk declares ${name} with ${JSON.stringify(marker)}`);
  }

  /// Where `name`, used in chunk `idx`, is declared: {chunk, name} or null (a global).
  resolve(name, idx) {
    const p = this.parsed(idx);
    if (p.decls.has(name)) return { chunk: idx, name };
    const imp = p.imports.get(name);
    if (!imp || !imp.path.startsWith("/$bunfs/")) return null;
    const found = (this.exporter.get(imp.name) ?? []).filter((x) => this.parsed(x.chunk).decls.has(x.local));
    if (found.length !== 1) throw new Error(`${name}: ${found.length} chunks export it`);
    if (found[0].local !== name) throw new Error(`${name}: exported under another name`);
    return { chunk: found[0].chunk, name };
  }

  /// The text of `roots` (names declared in chunk `idx`) and of everything they use, in an order
  /// that defines each variable after what its initializer uses, leaving out `stubs` (names the
  /// caller provides). Chunks may reuse private names, so each declaration is renamed
  /// `name$chunk`. Returns {code, names, globals}: `names` maps each root to its new name;
  /// `globals` are the names used but declared nowhere (JS built-ins, or something missed).
  extract(idx, roots, stubs) {
    return this.extractAll(roots.map((r) => [idx, r]), stubs);
  }

  /// `extract` for roots of several chunks: [[chunk, name], ...].
  extractAll(pairs, stubs) {
    const seen = new Set();
    const order = [];
    const inits = [];
    const globals = new Set();
    const visit = (chunk, name) => {
      const key = `${chunk}:${name}`;
      if (seen.has(key)) return;
      seen.add(key);
      const parsed = this.parsed(chunk);
      const decl = parsed.decls.get(name);
      const init = parsed.initialiser.get(name);
      if (decl.kind === "unset" && init !== undefined) {
        order.push(`var ${name}$${chunk};`);
        visit(chunk, init);
        inits.push(`${init}$${chunk}`);
        return;
      }
      const rename = new Map([[name, `${name}$${chunk}`]]);
      for (const used of freeNames(decl.text)) {
        if (stubs.has(used) || used === name) continue;
        let at;
        try { at = this.resolve(used, chunk); } catch (e) { throw new Error(`${name} uses ${e.message}`); }
        if (at === null) { globals.add(used); continue; }
        try { visit(at.chunk, at.name); } catch (e) { throw new Error(`${name} -> ${e.message}`); }
        rename.set(used, `${at.name}$${at.chunk}`);
      }
      order.push(renameIn(decl.text, rename));
    };
    const names = {};
    for (const [idx, r] of pairs) {
      const at = this.resolve(r, idx);
      if (at === null) throw new Error(`${r}: not declared in the chunk nor imported by it`);
      visit(at.chunk, at.name);
      names[r] = `${at.name}$${at.chunk}`;
    }
    // Declarations first (functions hoist, variables in dependency order), then the
    // initialisers of the variables set lazily.
    const code = [...order, ...[...new Set(inits)].map((f) => `${f}();`)].join("\n");
    return { code, names, globals };
  }
}

/// Tokens after which a `{` opens an object literal rather than a block.
const OBJECT_BEFORE = new Set(["(", ",", "=", ":", "[", "?", "return", "||", "&&", "??", "...", "!", "in", "of", "typeof", "yield", "await", "+", "-", "===", "!==", "==", "!="]);

/// `text` with the identifiers of `rename` (free uses and the declaration's own name)
/// replaced; a shorthand property `{a}` becomes `{a:a$1}`.
function renameIn(text, rename) {
  const tokens = tokenize(text);
  const declared = declaredNames(tokens);
  const enclosing = [];
  let out = "";
  let at = 0;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.t === "p" && (t.v === "(" || t.v === "[")) enclosing.push(t.v);
    if (t.t === "p" && t.v === "{") enclosing.push(OBJECT_BEFORE.has(tokens[k - 1]?.v) ? "object" : "block");
    if (t.t === "p" && (t.v === ")" || t.v === "]" || t.v === "}")) enclosing.pop();
    if (t.t !== "id" || !rename.has(t.v)) continue;
    const before = tokens[k - 1]?.v;
    const after = tokens[k + 1]?.v;
    if (before === "." || before === "?.") continue;
    if (after === ":" && (before === "{" || before === ",")) continue;
    const own = k <= 2 && (before === "function" || before === "class" || before === "var");
    if (declared.has(t.v) && !own && rename.get(t.v) !== undefined && !isOwnName(tokens, t.v)) continue;
    const shorthand = enclosing[enclosing.length - 1] === "object" && (before === "{" || before === ",") && (after === "," || after === "}");
    out += text.slice(at, t.s) + (shorthand ? `${t.v}:` : "") + rename.get(t.v);
    at = t.e;
  }
  return out + text.slice(at);
}

/// Whether `name` is the declaration's own name (its first declared identifier).
function isOwnName(tokens, name) {
  let k = 0;
  if (tokens[k]?.v === "async") k++;
  if (tokens[k]?.v === "function" || tokens[k]?.v === "class" || tokens[k]?.v === "var") k++;
  if (tokens[k]?.v === "*") k++;
  return tokens[k]?.v === name;
}
