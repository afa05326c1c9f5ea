//! The README's sample outputs are what the binary prints today: every fenced block that starts
//! with `$ schematax ...` is run from the repository's root and compared line by line (a line
//! `...` in the README stands for any number of lines the README leaves out). `capture`
//! examples are left out: they start real servers.

use std::path::Path;
use std::process::Command;

/// One documented command: its arguments and the lines the README shows it printing.
struct Example {
    args: Vec<String>,
    shown: Vec<String>,
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

fn examples(readme: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        if !line.starts_with("```") {
            continue;
        }
        let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        let command = block.first().and_then(|l| l.strip_prefix("$ schematax "));
        if let Some(command) = command.filter(|c| !c.starts_with("capture")) {
            examples.push(Example {
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
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let examples = examples(&readme);
    assert!(
        examples.len() >= 8,
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
                "{missing} is not installed (scripts/test installs it)"
            );
            eprintln!(
                "skipped `schematax {}`: no {missing}",
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
            "README shows for `schematax {}`:\n{}\n\nthe binary prints:\n{}",
            example.args.join(" "),
            example.shown.join("\n"),
            actual.join("\n")
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
}
