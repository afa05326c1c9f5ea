//! The documented sample outputs are what the binary prints today: every fenced block of
//! `README.md` and of `docs/*.md` that starts with `$ schematax ...` is run from the
//! repository's root and compared line by line (a line `...` in a document stands for any
//! number of lines it leaves out). `capture` examples are left out: they start real servers.
//! Every relative link of those documents must point to a file that exists (and, with a
//! `#fragment`, to a heading of it).

use std::path::{Path, PathBuf};
use std::process::Command;

/// One documented command: the document that shows it, its arguments and the lines the
/// document shows it printing.
struct Example {
    file: String,
    args: Vec<String>,
    shown: Vec<String>,
}

/// `README.md`, then every `docs/*.md` in name order, each as its path from the root and its
/// text.
fn documents(root: &Path) -> Vec<(String, String)> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    std::iter::once(root.join("README.md"))
        .chain(docs)
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let name = path
                .strip_prefix(root)
                .expect("under the root")
                .to_string_lossy()
                .into_owned();
            (name, text)
        })
        .collect()
}

/// Splits a command line as a shell would for the plain words and double-quoted phrases the
/// README uses.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            _ => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

fn examples(file: &str, text: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if !line.starts_with("```") {
            continue;
        }
        let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        let command = block.first().and_then(|l| l.strip_prefix("$ schematax "));
        if let Some(command) = command.filter(|c| !c.starts_with("capture")) {
            examples.push(Example {
                file: file.to_string(),
                args: words(command),
                shown: block[1..]
                    .iter()
                    .map(std::string::ToString::to_string)
                    .collect(),
            });
        }
    }
    examples
}

/// Whether `actual` is `shown` with each `...` line standing for any run of lines.
fn matches(shown: &[String], actual: &[String]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => {
            actual.first().is_some_and(|a| a == first) && matches(rest, &actual[1..])
        }
    }
}

#[test]
fn readme_outputs_are_what_the_binary_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let examples: Vec<Example> = documents(root)
        .iter()
        .flat_map(|(file, text)| examples(file, text))
        .collect();
    // 13 examples: one or more for every command but `tui`, `card` and `capture`.
    assert!(
        examples.len() >= 13,
        "only {} examples found",
        examples.len()
    );
    for example in &examples {
        // An example reading what `scripts/test` installs under target/ (a tokenizer.json)
        // needs it there; without it the example is skipped, unless the references are
        // required (as `scripts/test` requires them).
        if let Some(missing) = example
            .args
            .iter()
            .find(|a| a.starts_with("target/") && !root.join(a).exists())
        {
            assert!(
                std::env::var_os("SCHEMATAX_REQUIRE_ORACLE").is_none(),
                "{}: {missing} is not installed (scripts/test installs it)",
                example.file
            );
            eprintln!(
                "{}: skipped `schematax {}`: no {missing}",
                example.file,
                example.args.join(" ")
            );
            continue;
        }
        let output = Command::new(env!("CARGO_BIN_EXE_schematax"))
            .args(&example.args)
            .current_dir(root)
            .output()
            .expect("the binary runs");
        let actual: Vec<String> = String::from_utf8_lossy(&output.stdout)
            .trim_end()
            .lines()
            .map(str::to_string)
            .collect();
        assert!(
            matches(&example.shown, &actual),
            "{} shows for `schematax {}`:\n{}\n\nthe binary prints:\n{}",
            example.file,
            example.args.join(" "),
            example.shown.join("\n"),
            actual.join("\n")
        );
    }
}

/// The anchor GitHub gives a heading: lower case, letters, digits, spaces, `-` and `_` kept,
/// spaces made `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a document's headings (outside fenced blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// The targets of a document's inline links and images (`](target)`), outside fenced blocks.
fn link_targets(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                out.push(rest[..end].to_string());
                rest = &rest[end + 1..];
            }
        }
    }
    out
}

#[test]
fn relative_links_point_to_files_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    let mut checked = 0;
    for (file, text) in documents(root) {
        let dir = Path::new(&file).parent().unwrap_or(Path::new(""));
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, fragment) = match target.split_once('#') {
                Some((path, fragment)) => (path, Some(fragment)),
                None => (target.as_str(), None),
            };
            let linked = if path.is_empty() {
                PathBuf::from(&file)
            } else {
                dir.join(path)
            };
            let full = root.join(&linked);
            if !full.exists() {
                broken.push(format!("{file}: {target}: no {}", linked.display()));
                continue;
            }
            let is_markdown = full.extension().is_some_and(|e| e == "md");
            if let Some(fragment) = fragment.filter(|_| is_markdown) {
                let text = std::fs::read_to_string(full).expect("a linked document");
                if !anchors(&text).iter().any(|a| a == fragment) {
                    broken.push(format!("{file}: {target}: no heading #{fragment}"));
                }
            }
        }
    }
    assert!(checked >= 10, "only {checked} relative links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The example of each row of the README's table of commands: its last cell's command.
fn table_examples(readme: &str) -> Vec<String> {
    readme
        .lines()
        .filter(|line| line.starts_with('|'))
        .filter_map(|line| line.trim_end_matches('|').rsplit('|').next())
        .filter_map(|cell| cell.trim().strip_prefix("`schematax ")?.strip_suffix('`'))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_example_of_the_readmes_table_runs_as_shown() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let examples = table_examples(&readme);
    assert!(examples.len() >= 12, "{examples:?}");
    let scratch = tempfile::tempdir().unwrap();
    for example in examples {
        let mut args = words(&example);
        // Capture starts a server from the network, and the view wants a terminal.
        if args[0] == "capture" || args[0].ends_with(".yaml") {
            continue;
        }
        // What an example writes goes to a scratch folder, not the repository.
        if let Some(at) = args.iter().position(|a| a == "--output") {
            args[at + 1] = scratch.path().join(&args[at + 1]).display().to_string();
        }
        let output = Command::new(env!("CARGO_BIN_EXE_schematax"))
            .args(&args)
            .current_dir(root)
            .output()
            .expect("the binary runs");
        // `check` exits 1 when over its budget, as the README's example is.
        let expected = if args[0] == "check" { 1 } else { 0 };
        assert_eq!(
            output.status.code(),
            Some(expected),
            "`schematax {example}`: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

#[test]
fn elisions_match_any_run_of_lines() {
    let lines = |t: &str| t.lines().map(str::to_string).collect::<Vec<_>>();
    assert!(matches(&lines("a\n...\nd"), &lines("a\nb\nc\nd")));
    assert!(matches(&lines("a\n...\nd"), &lines("a\nd")));
    assert!(!matches(&lines("a\n...\nd"), &lines("a\nb\nc")));
    assert!(!matches(&lines("a\nb"), &lines("a\nc")));
    assert_eq!(
        words(r#"search "take a page" --tools x"#),
        ["search", "take a page", "--tools", "x"]
    );
    assert_eq!(
        anchor(" `schematax search QUERY... [--limit N]`"),
        "schematax-search-query---limit-n"
    );
    assert_eq!(
        link_targets("see [a](docs/a.md#b) and ![c](c.png)"),
        ["docs/a.md#b", "c.png"]
    );
}
