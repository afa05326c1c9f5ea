//! The rooms of the house and which may use which (docs/ARCHITECTURE.md): every `crate::ROOM`
//! a source file names must be its own room or one below it. Rooms on one level (`capture` and
//! `report`) do not use each other, so the graph has no arrow up and no circle.

use std::path::{Path, PathBuf};

/// Each room and its level: a room may use rooms of lower levels only.
const LEVELS: [(&str, u8); 8] = [
    ("text", 0),
    ("signals", 0),
    ("engine", 1),
    ("capture", 2),
    ("report", 2),
    ("tui", 3),
    ("cli", 4),
    ("main", 5),
];

fn level(room: &str) -> u8 {
    LEVELS
        .iter()
        .find(|(name, _)| *name == room)
        .map(|(_, level)| *level)
        .unwrap_or_else(|| panic!("room {room} is not in LEVELS"))
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

/// The rooms `text` names as `crate::ROOM`.
fn named_rooms(text: &str) -> Vec<String> {
    text.match_indices("crate::")
        .map(|(at, _)| {
            text[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|room| !room.is_empty())
        .collect()
}

#[test]
fn no_room_uses_one_above_it_or_beside_it() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let room = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if room == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for used in named_rooms(&text) {
            if used != room && level(&used) >= level(&room) {
                wrong.push(format!("{} uses crate::{used}", relative.display()));
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "imports up or across:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_check_sees_an_arrow_up() {
    assert_eq!(
        named_rooms("use crate::cli::parse; crate::text::x"),
        ["cli", "text"]
    );
    assert!(level("engine") < level("report") && level("capture") == level("report"));
}

/// The engine's groups (docs/ARCHITECTURE.md): `analyses` sit on top of `replay` and
/// `inputs`, which never use them. (`replay` and `inputs` use each other: the config is read
/// as each release's profile says, and the session is built from what was read.)
#[test]
fn no_engine_group_uses_the_analyses_above_it() {
    let engine = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/engine");
    let mut wrong = Vec::new();
    for group in ["replay", "inputs"] {
        let mut files = Vec::new();
        sources(&engine.join(group), &mut files);
        assert!(!files.is_empty(), "src/engine/{group} has no sources");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            if text.contains("engine::analyses") || text.contains("super::analyses") {
                wrong.push(file.strip_prefix(&engine).unwrap().display().to_string());
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the replay or the inputs use an analysis:\n{}",
        wrong.join("\n")
    );
}
