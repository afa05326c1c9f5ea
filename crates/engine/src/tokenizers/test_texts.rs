//! The texts the tokenizers' unit tests count: texts that reach rules real tool text seldom
//! does, every tool of every test capture as the model receives its definition and its
//! description alone, and long texts made of them.

use std::path::PathBuf;

use crate::inputs::capture_file::load_paths;
use crate::replay::catalog::ToolEntry;
use schematax_releases::Profile;

/// Texts that reach the rules real tool text seldom does.
pub(crate) const EDGE_TEXTS: [&str; 16] = [
    "HTTP API: GET /users/{id} returns the USER's data, doesn't it?",
    "  two leading spaces, and a trailing newline\n\n",
    " one leading space",
    "İstanbul ẞTRASSE Ωmega ΣΊΣΥΦΟΣ",
    "naïve café — “quoted” ‘text’ … 42% of 1,234.5",
    "日本語のテキストと한국어 텍스트 123 ٣٤٥",
    "emoji ⚖️ 👍🏽 and ⁂ symbols ① ½",
    "it's they'll we've I'm you'd x'S",
    "CamelCaseIdentifiers and snake_case_names and ALLCAPS WORDS Here",
    "tab\tseparated\tvalues\nand\r\nlines\u{0}nul",
    "control\u{1}chars\u{7f} and private\u{E000}use",
    "combining e\u{301} and stray \u{301}mark a\u{301} b",
    "a b c d e f g h ab cd ef AB CD EF aB Cd",
    "x y\n\nz w  v u\t t s",
    "",
    "\n\n\n",
];

/// Every text of one to `longest` characters drawn from `alphabet`, each text once: what a
/// hand-written matcher is held to its reference on.
pub(crate) fn every_short_text(
    alphabet: &[char],
    longest: u32,
) -> impl Iterator<Item = String> + '_ {
    let n = alphabet.len();
    (1..=longest).flat_map(move |length| {
        (0..n.pow(length)).map(move |mut code| {
            let mut text = String::new();
            for _ in 0..length {
                text.push(alphabet[code % n]);
                code /= n;
            }
            text
        })
    })
}

/// The repository's root, where `tests/data` and `target/` are.
pub(crate) fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The edge texts, then every tool of every test capture as the model receives its definition
/// and its description alone.
pub(crate) fn texts() -> Vec<String> {
    let captures = load_paths(&[repo_root().join("tests/data/captures")])
        .expect("the test captures load")
        .captures;
    let mut texts: Vec<String> = EDGE_TEXTS.iter().map(|t| (*t).to_string()).collect();
    for capture in &captures {
        for tool in &capture.tools {
            let entry = ToolEntry::new(Profile::newest(), &capture.server, tool);
            texts.push(entry.definition());
            texts.push(tool.description.as_deref().unwrap_or_default().to_string());
        }
    }
    texts
}

/// Long texts with word starts: every text above joined into one (several pieces long), and a
/// word repeated.
pub(crate) fn long_texts() -> Vec<String> {
    vec![texts().join("\n"), "Word ".repeat(30_000)]
}

/// Long texts without a word start, which are cut where they must be.
pub(crate) fn unbroken_texts() -> Vec<String> {
    vec![
        " ".repeat(100_000) + "a",
        "a".repeat(100_000),
        "日本語".repeat(12_000),
    ]
}
