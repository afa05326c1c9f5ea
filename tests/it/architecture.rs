//! The crate graph of docs/ARCHITECTURE.md, as the manifests declare it (the compiler then
//! refuses any import the manifests do not allow): each crate depends only on crates of lower
//! floors, the terminal, command-line and HTTP crates each sit in one crate, and the engine's
//! files import each other without a loop.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Each workspace crate and its floor: a crate may depend on crates of lower floors only
/// (`schematax-synthetic` is for tests, benches and examples: never a normal dependency).
const FLOORS: [(&str, u8); 7] = [
    ("schematax-releases", 0),
    ("schematax-engine", 1),
    ("schematax-synthetic", 2),
    ("schematax-report", 2),
    ("schematax-capture", 2),
    ("schematax-tui", 3),
    ("schematax", 4),
];

/// Outside crates that belong to one layer only, and the crate that may use them.
const ONE_HOME: [(&str, &str); 5] = [
    ("clap", "schematax"),
    ("ratatui", "schematax-tui"),
    ("crossterm", "schematax-tui"),
    ("ureq", "schematax-capture"),
    ("signal-hook", "schematax-capture"),
];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn floor(name: &str) -> u8 {
    FLOORS
        .iter()
        .find(|(crate_name, _)| *crate_name == name)
        .map(|(_, floor)| *floor)
        .unwrap_or_else(|| panic!("crate {name} is not in FLOORS"))
}

/// Each workspace crate's normal (not dev, not build) dependencies, by name.
fn normal_dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let output = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(repo())
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("metadata is JSON");
    let mut out = BTreeMap::new();
    for package in metadata["packages"].as_array().expect("packages") {
        let name = package["name"].as_str().expect("a name").to_string();
        let dependencies = package["dependencies"]
            .as_array()
            .expect("dependencies")
            .iter()
            .filter(|d| d["kind"].is_null())
            .map(|d| d["name"].as_str().expect("a name").to_string())
            .collect();
        out.insert(name, dependencies);
    }
    out
}

#[test]
fn every_crate_depends_only_on_lower_floors() {
    let crates = normal_dependencies();
    assert_eq!(
        crates.keys().collect::<BTreeSet<_>>(),
        FLOORS
            .iter()
            .map(|(name, _)| *name)
            .map(String::from)
            .collect::<BTreeSet<_>>()
            .iter()
            .collect(),
        "the workspace's crates and FLOORS differ"
    );
    let mut wrong = Vec::new();
    for (name, dependencies) in &crates {
        for dependency in dependencies.iter().filter(|d| d.starts_with("schematax")) {
            if dependency == "schematax-synthetic" || floor(dependency) >= floor(name) {
                wrong.push(format!("{name} depends on {dependency}"));
            }
        }
    }
    assert!(wrong.is_empty(), "dependencies up or across: {wrong:?}");
}

#[test]
fn terminal_cli_and_http_crates_each_live_in_one_crate() {
    let crates = normal_dependencies();
    for (outside, home) in ONE_HOME {
        let users: Vec<&String> = crates
            .iter()
            .filter(|(_, dependencies)| dependencies.contains(outside))
            .map(|(name, _)| name)
            .collect();
        assert_eq!(users, [home], "{outside} is used by {users:?}");
    }
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_path_climbs_two_modules_up() {
    let mut files = Vec::new();
    for dir in ["src", "crates", "tests", "benches", "examples"] {
        sources(&repo().join(dir), &mut files);
    }
    let climbing: Vec<String> = files
        .iter()
        .filter(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .contains(concat!("super", "::super"))
        })
        .map(|f| f.strip_prefix(repo()).unwrap().display().to_string())
        .collect();
    assert!(
        climbing.is_empty(),
        "name these by their crate path: {climbing:?}"
    );
}

/// The module path of an engine source file: `replay/search/mod.rs` is `replay::search`.
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .filter(|part| part != "mod" && part != "lib")
        .collect();
    parts.join("::")
}

/// The engine modules a file's code (its tests and comments left out) names: `crate::a::b`,
/// `super::b` and `self::b` paths, and a child module used by its bare name, each as the
/// longest known module the path starts with.
fn imported_modules(module: &str, text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let code: String = text
        .split("#[cfg(test)]")
        .next()
        .unwrap_or_default()
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let parent = module.rsplit_once("::").map_or("", |(parent, _)| parent);
    let join = |base: &str, rest: &str| {
        if base.is_empty() {
            rest.to_string()
        } else {
            format!("{base}::{rest}")
        }
    };
    let mut paths = Vec::new();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':';
    for (at, _) in code.match_indices("::") {
        let start = code[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .map_or(0, |i| i + 1);
        let end = code[at..]
            .find(|c: char| !word(c))
            .map_or(code.len(), |i| at + i);
        let path = &code[start..end];
        let (head, rest) = path.split_once("::").unwrap_or((path, ""));
        let absolute = match head {
            "crate" => rest.to_string(),
            "super" => join(parent, rest),
            "self" => join(module, rest),
            child if modules.contains(&join(module, child)) => join(module, path),
            _ => continue,
        };
        paths.push(absolute);
    }
    let mut out = BTreeSet::new();
    for path in paths {
        let parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
        if let Some(found) = (1..=parts.len())
            .rev()
            .map(|n| parts[..n].join("::"))
            .find(|m| modules.contains(m))
        {
            out.insert(found);
        }
    }
    out
}

#[test]
fn the_engines_files_import_each_other_without_a_loop() {
    let src = repo().join("crates/engine/src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(&src, f)).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(&src, file);
        let text = std::fs::read_to_string(file).unwrap();
        let mut imported = imported_modules(&module, &text, &modules);
        imported.remove(&module);
        edges.insert(module, imported);
    }
    // Depth-first search for a back edge; the loop is reported as its modules in order.
    fn visit(
        module: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|m| m == module) {
            return Some(path[at..].to_vec());
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_string());
        for next in edges.get(module).into_iter().flatten() {
            if let Some(found) = visit(next, edges, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(module.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for module in edges.keys() {
        let found = visit(module, &edges, &mut Vec::new(), &mut done);
        assert!(
            found.is_none(),
            "an import loop: {:?}",
            found.unwrap_or_default()
        );
    }
}
