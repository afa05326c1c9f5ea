//! What the page tests share: running the binary, and reading the `<data id value>` figures
//! out of the page (as written, or as a browser dumps its DOM) to compare them with
//! `report --format json`.

use schematax_releases::Profile;
use serde_json::Value;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// Runs the binary with `args`.
pub fn schematax(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_schematax"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs the binary, requiring exit 0, and returns its stdout.
pub fn run_ok(args: &[&str]) -> String {
    let output = schematax(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// `report --format json` with `args` added.
pub fn report_json(args: &[&str]) -> Value {
    let mut all = vec!["report", "--format", "json"];
    all.extend_from_slice(args);
    serde_json::from_str(&run_ok(&all)).expect("report JSON parses")
}

/// The headline figures of the page: the `id` of the `<data>` element and the JSON pointer
/// of the same number in `report --format json`.
pub const HEADLINE: &[(&str, &str)] = &[
    ("tokens-before", "/tokens_before"),
    ("tokens-after", "/tokens_after"),
    ("savings-pct", "/savings_pct"),
    ("dollars-before-turn", "/dollars_before/per_turn"),
    ("dollars-before-session", "/dollars_before/per_session"),
    ("dollars-before-month", "/dollars_before/per_month"),
    ("dollars-after-turn", "/dollars_after/per_turn"),
    ("dollars-after-session", "/dollars_after/per_session"),
    ("dollars-after-month", "/dollars_after/per_month"),
    ("dollars-saved-turn", "/dollars_saved/per_turn"),
    ("dollars-saved-session", "/dollars_saved/per_session"),
    ("dollars-saved-month", "/dollars_saved/per_month"),
    ("price-per-mtok", "/price_per_mtok"),
    ("turns-per-day", "/turns_per_day"),
];

/// The figures of each profile's column: `<profile>-<id>` and the JSON pointer in that
/// profile's `report --format json`.
pub const PROFILE_COLUMN: &[(&str, &str)] = &[
    ("state", "/active"),
    ("tokens-before", "/tokens_before"),
    ("tokens-after", "/tokens_after"),
    ("savings-pct", "/savings_pct"),
    ("dollars-saved-turn", "/dollars_saved/per_turn"),
    ("dollars-saved-month", "/dollars_saved/per_month"),
];

/// The `value` and the text of the `<data id="...">` element of a page or a dumped DOM.
pub fn data(page: &str, id: &str) -> Option<(Value, String)> {
    let start = page.find(&format!("<data id=\"{id}\""))?;
    let tag_end = start + page[start..].find('>')?;
    let tag = &page[start..tag_end];
    let value_at = tag.find("value=\"")? + "value=\"".len();
    let value = &tag[value_at..value_at + tag[value_at..].find('"')?];
    let text_end = tag_end + page[tag_end..].find("</data>")?;
    let text = page[tag_end + 1..text_end].to_string();
    Some((serde_json::from_str(value).ok()?, text))
}

/// Checks every headline figure of `page` against `json` and each profile's column against
/// `per_profile` (profile id, its JSON); panics naming the first difference.
pub fn assert_same_numbers(page: &str, json: &Value, per_profile: &[(&str, Value)]) {
    for (id, pointer) in HEADLINE {
        let (value, text) = data(page, id).unwrap_or_else(|| panic!("no <data id={id:?}>"));
        assert_eq!(Some(&value), json.pointer(pointer), "{id}");
        assert!(!text.trim().is_empty(), "{id} shows nothing");
    }
    let shown = data(page, "tokens-before").unwrap().1.replace(',', "");
    assert_eq!(
        shown,
        json["tokens_before"].to_string(),
        "the text is the number"
    );
    for (profile, json) in per_profile {
        for (id, pointer) in PROFILE_COLUMN {
            let id = format!("{profile}-{id}");
            let (value, _) = data(page, &id).unwrap_or_else(|| panic!("no <data id={id:?}>"));
            assert_eq!(Some(&value), json.pointer(pointer), "{id}");
        }
    }
}

/// The id of the profile of the newest verified release: what every command replays unless
/// told otherwise. Tests name it so rather than spelling a version.
pub fn newest() -> &'static str {
    Profile::newest().id()
}

/// The first release of [`newest`], as `--hermes` takes it.
pub fn newest_version() -> &'static str {
    Profile::newest().spec().releases[0].version
}

/// Runs the binary with `env` set, killing it and failing if it has not finished within
/// `hang` (a deadline that only catches a hang: far above what the command takes, even in a
/// debug build on a busy machine).
pub fn schematax_within(hang: Duration, args: &[&str], env: &[(&str, &std::path::Path)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_schematax"));
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    let child = command.spawn().expect("the binary runs");
    let pid = child.id();
    // The output is read while the process runs (a full pipe would stall it).
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || sender.send(child.wait_with_output().expect("output")));
    receiver.recv_timeout(hang).unwrap_or_else(|_| {
        Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status()
            .ok();
        panic!("schematax {args:?} still running after {hang:?}")
    })
}
