//! What the tokenizer tests share: the texts every tokenizer is checked on, and where its
//! reference is installed.

use schematax::engine::capture_file::load_paths;
use schematax::engine::catalog::ToolEntry;
use schematax::engine::profile::Profile;
use std::path::PathBuf;

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Texts that reach the rules real tool text seldom does.
pub const EDGE_TEXTS: [&str; 14] = [
    "HTTP API: GET /users/{id} returns the USER's data, doesn't it?",
    "  two leading spaces, and a trailing newline\n\n",
    " one leading space",
    "İstanbul ẞTRASSE Ωmega ΣΊΣΥΦΟΣ",
    "naïve café — “quoted” ‘text’ … 42% of 1,234.5",
    "日本語のテキストと한국어 텍스트 123 ٣٤٥",
    "emoji ⚖️ 👍🏽 and ⁂ symbols ① ½",
    "it's they'll we've I'm you'd x'S",
    "CamelCaseIdentifiers and snake_case_names and ALLCAPS",
    "tab\tseparated\tvalues\nand\r\nlines\u{0}nul",
    "control\u{1}chars\u{7f} and private\u{E000}use",
    "combining e\u{301} and stray \u{301}mark",
    "",
    "\n\n\n",
];

/// The edge texts, then every tool of every test capture as the model receives its definition
/// and its description alone.
pub fn tokenizer_texts() -> Vec<String> {
    let captures = load_paths(&[root().join("tests/data/captures")])
        .unwrap()
        .captures;
    let mut texts: Vec<String> = EDGE_TEXTS.iter().map(|t| t.to_string()).collect();
    for capture in &captures {
        for tool in &capture.tools {
            let entry = ToolEntry::new(Profile::newest(), &capture.server, tool);
            texts.push(entry.definition());
            texts.push(tool.description.clone().unwrap_or_default());
        }
    }
    texts
}

/// The folder a reference was installed in (`variable`, else `target/DEFAULT`), once its
/// install script finished; None (the test skips) when it is not there, unless
/// `SCHEMATAX_REQUIRE_ORACLE` is set (as `scripts/test` sets it), when the test fails.
pub fn installed(variable: &str, default: &str, script: &str) -> Option<PathBuf> {
    let dir = std::env::var_os(variable)
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target").join(default));
    if dir.join(".installed").exists() {
        return Some(dir);
    }
    let message = format!("not installed in {}; run {script}", dir.display());
    assert!(
        std::env::var_os("SCHEMATAX_REQUIRE_ORACLE").is_none(),
        "{message}"
    );
    eprintln!("skipped: {message}");
    None
}
