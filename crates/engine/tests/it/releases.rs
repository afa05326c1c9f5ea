//! The released Hermes code as the oracle: every release of `tests/oracle/releases.txt`,
//! installed by `scripts/install-hermes-releases`, runs its own engine modules on seeded random
//! jobs (`tests/oracle/jobs.rs`, driven by `tests/oracle/hermes_oracle.py`), and schematax must
//! give the same answer under the profile that covers that release, in every field: registered
//! names and toolsets, definition bytes, the chars/4 total, the resolved config, activation,
//! tier, listing form, budget and bridge bytes at every point of a context x override grid,
//! `tool_search` payloads with scores within 1e-6, and `tool_describe` payloads.
//!
//! `SCHEMATAX_RELEASE_JOBS` sets the number of jobs per release (40 by default; a long run takes
//! more), `SCHEMATAX_RELEASE_SEED` the first seed, `SCHEMATAX_RELEASES` a comma-separated subset
//! of versions. Without the installed releases the test fails when `SCHEMATAX_REQUIRE_ORACLE`
//! is set (as `scripts/test` sets it) and is skipped with a message otherwise.
//!
//! The golden files of `tests/data/releases` (written by `scripts/release-golden-files` from
//! the same oracle) are checked without Python or the releases, on every machine.

use crate::oracle_jobs as jobs;

use crate::support::repo_root;
use schematax_engine::inputs::capture_file::parse_capture;
use schematax_engine::nouns::config::{Config, Mode, ToolSearchSettings};
use schematax_engine::nouns::json_text::write_compact_json;
use schematax_engine::nouns::tools::ServerCapture;
use schematax_engine::replay::activation::{ContextLength, ContextSource};
use schematax_engine::replay::catalog::Scope;
use schematax_engine::replay::search::Via;
use schematax_engine::replay::session::{Overrides, Session};
use schematax_engine::replay::threshold::threshold_tokens;
use schematax_releases::Profile;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

fn releases_dir() -> PathBuf {
    std::env::var_os("SCHEMATAX_HERMES_RELEASES")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target/hermes-releases"))
}

/// The versions of `tests/oracle/releases.txt`, oldest first.
fn releases() -> Vec<String> {
    let text = std::fs::read_to_string(repo_root().join("tests/oracle/releases.txt")).unwrap();
    let only: Option<Vec<String>> = std::env::var("SCHEMATAX_RELEASES")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .filter(|v| only.as_ref().is_none_or(|o| o.contains(v)))
        .collect()
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn compact(value: &Value) -> String {
    let mut out = String::new();
    write_compact_json(value, &mut out);
    out
}

/// Runs the release installed in `folder` on `jobs`; its results, one per job.
fn oracle(folder: &Path, jobs: &[Value], scratch: &Path) -> Vec<Value> {
    let name = folder.file_name().unwrap().to_string_lossy().to_string();
    let jobs_path = scratch.join(format!("jobs-{name}.json"));
    std::fs::write(&jobs_path, serde_json::to_vec(jobs).unwrap()).unwrap();
    // The oracle's own temporary files go to a folder of their own, which must be empty
    // after it: a run leaves nothing behind.
    let temp = tempfile::tempdir().unwrap();
    let output = Command::new("python3")
        .arg("-S")
        .arg(repo_root().join("tests/oracle/hermes_oracle.py"))
        .arg(folder)
        .arg(&jobs_path)
        .env("TMPDIR", temp.path())
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "the oracle failed on {name}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let left: Vec<_> = std::fs::read_dir(temp.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "the oracle of {name} left {left:?} behind");
    // Python writes NaN and Infinity, which serde_json does not read.
    let text = String::from_utf8(output.stdout).unwrap();
    let text = text
        .replace("-Infinity", "\"-inf\"")
        .replace("Infinity", "\"inf\"")
        .replace("NaN", "\"nan\"");
    serde_json::from_str(&text).expect("the oracle's JSON")
}

/// The Rust side of one job under `profile`, in the oracle's shape.
fn schematax(job: &Value, profile: Profile) -> Value {
    // The job's environment is the oracle's too: `${VAR}` in the config reads it.
    let env: Map<String, Value> = job["env"].as_object().cloned().unwrap_or_default();
    let lookup = |name: &str| env.get(name).and_then(Value::as_str).map(str::to_string);
    let config = Config::parse_with(job["config_yaml"].as_str().unwrap().as_bytes(), &lookup)
        .expect("the job's config parses");
    // As the release's loader reads it (0.22 refuses a file with a duplicate key).
    let config = config.as_read_by(profile).into_owned();
    let captures: Vec<ServerCapture> = job["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let text = json!({"server": s["name"], "tools": s["tools"]}).to_string();
            parse_capture(text.as_bytes(), "unnamed").expect("a job's capture parses")
        })
        .collect();
    let strings = |v: &Value| -> Option<Vec<String>> {
        v.as_array()
            .map(|a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
    };
    let scope = Scope {
        enabled_toolsets: strings(&job["enabled_toolsets"]),
        disabled_toolsets: strings(&job["disabled_toolsets"]).unwrap_or_default(),
    };
    let overrides = Overrides {
        profile: Some(profile),
        scope,
        ..Overrides::default()
    };
    let session = Session::new(&config, &captures, &overrides);

    let registered: Vec<Value> = session
        .registered()
        .into_iter()
        .map(|(name, toolset)| json!({"name": name, "toolset": toolset}))
        .collect();
    let definitions: Vec<String> = session
        .catalog()
        .map(schematax_engine::replay::catalog::ToolEntry::definition)
        .collect();
    let settings = *session.settings();
    let assemblies: Vec<Value> = job["grid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|point| {
            let mut o = overrides.clone();
            let over = &point["overrides"];
            if let Some(p) = over.get("threshold_pct").and_then(Value::as_f64) {
                o.threshold_pct = Some(p);
            }
            if let Some(m) = over.get("enabled").and_then(Value::as_str) {
                o.mode = Mode::from_text(m);
            }
            if let Some(m) = over.get("listing").and_then(Value::as_str) {
                o.listing = Mode::from_text(m);
            }
            if let Some(t) = over.get("listing_max_tokens").and_then(Value::as_u64) {
                o.listing_max_tokens = Some(t as u32);
            }
            let at = o.settings(&config, profile);
            let tokens = point["context_length"].as_u64().unwrap();
            let context = ContextLength {
                tokens,
                source: ContextSource::Flag,
            };
            let activation = session.activation_at(&at, context.clone());
            let bridge = session.bridge_definitions_at(&at, context);
            let lists = profile.spec().listing.is_some();
            let nothing = activation.deferrable_tools == 0;
            // AssemblyResult's threshold_tokens: the listing budget when a listing release is
            // active, else int(context * pct / 100); 0 with nothing deferrable.
            let threshold = match (&activation.listing, nothing) {
                (_, true) => 0,
                (Some(state), false) => state.budget,
                (None, false) => threshold_tokens(tokens, at.threshold_pct),
            };
            let form = match &activation.listing {
                Some(state) => state.listing.form.as_str(),
                None => "none",
            };
            json!({
                "context_length": point["context_length"],
                "activated": activation.active,
                "deferred_count": activation.deferrable_tools,
                "deferred_tokens": activation.deferrable_tokens,
                "threshold_tokens": threshold,
                "tier": if lists { json!(activation.tier()) } else { Value::Null },
                "listing_form": if lists { json!(form) } else { Value::Null },
                "bridge": bridge.iter().flatten().map(compact).collect::<Vec<_>>(),
            })
        })
        .collect();
    let searches: Vec<Value> = job["searches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|arguments| {
            let (payload, results) = session.tool_search(arguments);
            let scores: Vec<Value> = results
                .iter()
                .map(|(_, result)| {
                    let mut scores = Map::new();
                    // Substring-fallback hits get a fixed score, not a BM25 one: left out.
                    let fallback = result.via == Via::Substring;
                    for hit in result.hits.iter().filter(|_| !fallback) {
                        let name = session.catalog_entry(hit.doc).0.name.clone();
                        let score = if hit.score.is_infinite() {
                            json!("inf")
                        } else {
                            json!(hit.score)
                        };
                        scores.insert(name, score);
                    }
                    Value::Object(scores)
                })
                .collect();
            json!({"payload": payload, "scores": scores})
        })
        .collect();
    let describes: Vec<Value> = job["describes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|arguments| json!({"payload": session.tool_describe(arguments)}))
        .collect();
    json!({
        "registered": registered,
        "definitions": definitions,
        "deferrable_tokens": session.activation_at(&settings, session.context().clone()).deferrable_tokens,
        "config": settings_fields(&settings, &config, profile),
        "assemblies": assemblies,
        "searches": searches,
        "describes": describes,
    })
}

/// The resolved `tools.tool_search` fields as the release's `ToolSearchConfig` names them.
fn settings_fields(settings: &ToolSearchSettings, config: &Config, profile: Profile) -> Value {
    let rules = profile.spec().config;
    let mut fields = json!({
        "enabled": settings.enabled.as_str(),
        "threshold_pct": settings.threshold_pct,
        "search_default_limit": settings.search_default_limit,
        "max_search_limit": settings.max_search_limit,
    });
    if rules.listing_keys {
        fields["listing"] = json!(settings.listing.as_str());
        fields["listing_max_tokens"] = json!(settings.listing_max_tokens);
    }
    if rules.defer_key {
        fields["defer_tools"] = match (config.defer_for(profile), rules.default_defer) {
            (Some(list), _) => json!(list),
            (None, default) => json!(default),
        };
    }
    fields
}

/// One difference between the release and schematax.
struct Difference {
    field: String,
    want: String,
    got: String,
}

fn differ(out: &mut Vec<Difference>, field: String, want: &Value, got: &Value) {
    // Lists: the first element that differs; strings: from a little before the first
    // differing character.
    if let (Value::Array(w), Value::Array(g)) = (want, got) {
        if let Some(i) = (0..w.len().max(g.len())).find(|&i| w.get(i) != g.get(i)) {
            let (w, g) = (
                w.get(i).unwrap_or(&Value::Null),
                g.get(i).unwrap_or(&Value::Null),
            );
            return differ(out, format!("{field} [{i}]"), w, g);
        }
    }
    if let (Value::Object(w), Value::Object(g)) = (want, got) {
        let keys_w: Vec<&String> = w.keys().collect();
        let keys_g: Vec<&String> = g.keys().collect();
        if keys_w == keys_g {
            if let Some(key) = keys_w.into_iter().find(|k| !same(&w[*k], &g[*k])) {
                return differ(out, format!("{field}.{key}"), &w[key], &g[key]);
            }
        }
    }
    if let (Value::String(w), Value::String(g)) = (want, got) {
        let at = w
            .chars()
            .zip(g.chars())
            .take_while(|(a, b)| a == b)
            .count()
            .saturating_sub(60);
        let tail = |s: &str| s.chars().skip(at).collect::<String>();
        out.push(Difference {
            field: format!("{field} (from char {at})"),
            want: truncate(&tail(w)),
            got: truncate(&tail(g)),
        });
        return;
    }
    out.push(Difference {
        field,
        want: truncate(&want.to_string()),
        got: truncate(&got.to_string()),
    });
}

fn truncate(text: &str) -> String {
    if text.chars().count() > 400 {
        format!("{}…", text.chars().take(400).collect::<String>())
    } else {
        text.to_string()
    }
}

/// Scores agree within 1e-6; everything else exactly.
fn same(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::Number(a), Value::Number(b)) => {
            (a.as_f64().unwrap() - b.as_f64().unwrap()).abs() <= 1e-6
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b.iter())
                    .all(|((ka, va), (kb, vb))| ka == kb && same(va, vb))
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        _ => want == got,
    }
}

fn compare(job: &Value, want: &Value, got: &Value) -> Vec<Difference> {
    let mut out = Vec::new();
    if let Some(error) = want.get("error") {
        differ(&mut out, "oracle error".into(), error, &Value::Null);
        return out;
    }
    for field in ["registered", "definitions", "deferrable_tokens", "config"] {
        if !same(&want[field], &got[field]) {
            differ(&mut out, field.into(), &want[field], &got[field]);
        }
    }
    for (i, (w, g)) in want["assemblies"]
        .as_array()
        .unwrap()
        .iter()
        .zip(got["assemblies"].as_array().unwrap())
        .enumerate()
    {
        let point = &job["grid"][i];
        for field in [
            "activated",
            "deferred_count",
            "deferred_tokens",
            "threshold_tokens",
            "tier",
            "listing_form",
            "bridge",
        ] {
            if !same(&w[field], &g[field]) {
                differ(
                    &mut out,
                    format!("assembly {point} {field}"),
                    &w[field],
                    &g[field],
                );
            }
        }
    }
    for (i, (w, g)) in want["searches"]
        .as_array()
        .unwrap()
        .iter()
        .zip(got["searches"].as_array().unwrap())
        .enumerate()
    {
        let arguments = &job["searches"][i];
        if !same(&w["payload"], &g["payload"]) {
            differ(
                &mut out,
                format!("search {arguments} payload"),
                &w["payload"],
                &g["payload"],
            );
            continue;
        }
        for (q, scores) in g["scores"].as_array().unwrap().iter().enumerate() {
            for (name, score) in scores.as_object().unwrap() {
                let expected = &w["scores"][q][name];
                // An exact-name hit is ranked without a BM25 score (the payload checked its
                // place).
                if score == "inf" && expected.is_null() {
                    continue;
                }
                if !same(expected, score) {
                    let field = format!("search {arguments} query {q} score of {name}");
                    differ(&mut out, field, expected, score);
                }
            }
        }
    }
    for (i, (w, g)) in want["describes"]
        .as_array()
        .unwrap()
        .iter()
        .zip(got["describes"].as_array().unwrap())
        .enumerate()
    {
        let arguments = &job["describes"][i];
        if !same(&w["payload"], &g["payload"]) {
            differ(
                &mut out,
                format!("describe {arguments} payload"),
                &w["payload"],
                &g["payload"],
            );
        }
    }
    out
}

#[test]
fn every_release_agrees_with_its_profile() {
    let folder = releases_dir();
    let versions = releases();
    let missing: Vec<&String> = versions
        .iter()
        .filter(|v| !folder.join(v).join(".installed").exists())
        .collect();
    if !missing.is_empty() {
        let message = format!(
            "Hermes releases not installed in {} ({}); run scripts/install-hermes-releases",
            folder.display(),
            missing
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        if std::env::var_os("SCHEMATAX_REQUIRE_ORACLE").is_some() {
            panic!("{message}");
        }
        eprintln!("skipped: {message}");
        return;
    }
    let captures = jobs::load_captures(&repo_root().join("tests/data/captures"));
    let count = env_number("SCHEMATAX_RELEASE_JOBS", 40);
    let first = env_number("SCHEMATAX_RELEASE_SEED", 1);
    let jobs: Vec<Value> = (first..first + count)
        .map(|s| jobs::job(s, &captures))
        .collect();
    let scratch = tempfile::tempdir().unwrap();

    // Two releases at a time: each oracle is one Python process.
    let results: Vec<(String, Vec<Value>)> = std::thread::scope(|s| {
        let mut handles = Vec::new();
        for chunk in versions.chunks(versions.len().div_ceil(2).max(1)) {
            let (jobs, folder, scratch) = (&jobs, &folder, scratch.path());
            handles.push(s.spawn(move || {
                chunk
                    .iter()
                    .map(|v| (v.clone(), oracle(&folder.join(v), jobs, scratch)))
                    .collect::<Vec<_>>()
            }));
        }
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });

    let mut report = String::new();
    let mut failed = 0;
    for (version, wants) in &results {
        let profile = Profile::for_version(version)
            .unwrap_or_else(|e| panic!("no profile covers {version}: {e}"))
            .profile;
        let mut jobs_failed = 0;
        let mut first_differences = Vec::new();
        for (job, want) in jobs.iter().zip(wants) {
            let got = schematax(job, profile);
            let differences = compare(job, want, &got);
            if !differences.is_empty() {
                jobs_failed += 1;
                if first_differences.len() < 6 {
                    for d in differences.into_iter().take(3) {
                        first_differences.push(format!(
                            "  {} {}\n    release:    {}\n    schematax: {}",
                            job["id"].as_str().unwrap(),
                            d.field,
                            d.want,
                            d.got
                        ));
                    }
                }
            }
        }
        report.push_str(&format!(
            "{version} ({profile}): {} of {} jobs agree\n",
            jobs.len() - jobs_failed,
            jobs.len()
        ));
        for line in first_differences {
            report.push_str(&line);
            report.push('\n');
        }
        failed += jobs_failed;
    }
    eprintln!("{report}");
    assert_eq!(failed, 0, "releases and profiles disagree:\n{report}");
}

/// Where the golden files of the releases are: the jobs, and each release's answers.
fn golden_dir() -> PathBuf {
    repo_root().join("tests/data/releases")
}

/// Seeds of the golden jobs (distinct from the differential test's default ones).
const GOLDEN_SEEDS: std::ops::Range<u64> = 9_001..9_005;

/// `value` with every string over 128 characters replaced by its SHA-256 (`sha256:<hex>`):
/// the golden files stay small and still pin every byte of a definition or a bridge.
fn digested(value: &Value) -> Value {
    use sha2::{Digest, Sha256};
    match value {
        Value::String(text) if text.chars().count() > 128 => {
            let digest = Sha256::digest(text.as_bytes());
            let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
            Value::String(format!("sha256:{hex}"))
        }
        Value::Array(items) => Value::Array(items.iter().map(digested).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), digested(v))).collect())
        }
        other => other.clone(),
    }
}

/// Writes the golden files from the installed releases: `scripts/release-golden-files` runs
/// it (`cargo test --test releases -- --ignored write_golden_files`).
#[test]
#[ignore = "writes tests/data/releases from the installed releases; run by scripts/release-golden-files"]
fn write_golden_files() {
    let folder = releases_dir();
    let captures = jobs::load_captures(&repo_root().join("tests/data/captures"));
    let jobs: Vec<Value> = GOLDEN_SEEDS.map(|s| jobs::job(s, &captures)).collect();
    let dir = golden_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.join("jobs.json"),
        serde_json::to_string(&jobs).unwrap() + "\n",
    )
    .unwrap();
    for version in releases() {
        let results = oracle(&folder.join(&version), &jobs, scratch.path());
        let results: Vec<Value> = results.iter().map(digested).collect();
        std::fs::write(
            dir.join(format!("{version}.json")),
            serde_json::to_string(&results).unwrap() + "\n",
        )
        .unwrap();
    }
}

/// The golden files, checked without Python: every release's answers to the stored jobs, as
/// the released code gave them when `scripts/release-golden-files` last ran.
#[test]
fn every_release_agrees_with_its_golden_files() {
    let dir = golden_dir();
    let jobs: Vec<Value> =
        serde_json::from_slice(&std::fs::read(dir.join("jobs.json")).unwrap()).unwrap();
    let mut report = String::new();
    for version in releases() {
        let path = dir.join(format!("{version}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("{}: {e}; run scripts/release-golden-files", path.display())
        });
        let wants: Vec<Value> = serde_json::from_str(&text).unwrap();
        let profile = Profile::for_version(&version).unwrap().profile;
        for (job, want) in jobs.iter().zip(&wants) {
            let got = digested(&schematax(job, profile));
            for d in compare(job, want, &got).into_iter().take(3) {
                report.push_str(&format!(
                    "{version} ({profile}) {} {}\n  release:   {}\n  schematax: {}\n",
                    job["id"].as_str().unwrap(),
                    d.field,
                    d.want,
                    d.got
                ));
            }
        }
    }
    assert!(report.is_empty(), "golden files disagree:\n{report}");
}
