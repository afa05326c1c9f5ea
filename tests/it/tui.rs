//! TUI tests: every pane and overlay rendered into ratatui's TestBackend (insta snapshots), and
//! flows that drive the update function the way keys would.

use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use schematax_capture::signals::Signal;
use schematax_engine::analyses::eval::QuerySet;
use schematax_engine::inputs::capture_file::parse_capture;
use schematax_engine::inputs::Inputs;
use schematax_engine::nouns::config::{Config, Mode};
use schematax_engine::nouns::tools::ServerCapture;
use schematax_engine::replay::activation::{is_active, Traffic};
use schematax_engine::replay::session::Overrides;
use schematax_releases::Profile;
use schematax_tui::app::App;
use schematax_tui::msg::{Effect, Msg};
use schematax_tui::state::{Overlay, Pane};
use schematax_tui::{event_loop, view};
use std::sync::Arc;

/// The view of `inputs`, with these overrides and queries. The tests below were written against the seed engine (Hermes 0.17),
/// so it replays seed unless `overrides` names a profile ([`latest_app`] runs the default).
fn app_of(inputs: Inputs, overrides: Overrides, queries: Option<QuerySet>) -> App {
    let overrides = Overrides {
        profile: overrides.profile.or(Some(Profile::seed())),
        ..overrides
    };
    App::new(Arc::new(inputs), overrides, Traffic::default(), queries)
}

/// The view of the embedded sample under its default release, the newest.
fn latest_app() -> App {
    App::new(
        Arc::new(Inputs::sample()),
        Overrides::default(),
        Traffic::default(),
        None,
    )
}

/// Inputs of a config (YAML text) and captures.
fn inputs_of(yaml: &str, captures: Vec<ServerCapture>) -> Inputs {
    Inputs {
        config: Config::parse(yaml.as_bytes()).unwrap(),
        config_label: "test".into(),
        config_path: None,
        captures,
        warnings: Vec::new(),
    }
}

fn sample_app() -> App {
    app_of(Inputs::sample(), Overrides::default(), None)
}

/// Runs effects in place as the event loop's workers would (all but the slow tokenizers).
fn run_effects(app: &mut App, effects: Vec<Effect>) {
    for effect in effects {
        if matches!(effect, Effect::CountTokens { .. } | Effect::Recapture(_)) {
            continue;
        }
        if let Some(msg) = effect.run(&|_| {}) {
            let more = app.update(msg);
            run_effects(app, more);
        }
    }
}

/// Presses a key and runs the work it starts.
fn press_and_run(app: &mut App, code: KeyCode) {
    let effects = app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    run_effects(app, effects);
}

/// The screen as text, one line per row.
fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| view::render(app, frame)).unwrap();
    let buffer = terminal.backend().buffer();
    (0..height)
        .map(|y| {
            let line: String = (0..width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect();
            line.trim_end().to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A plain key press as a message.
fn key(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

/// The event loop on the sample app at 80x24, fed what `sender` queued, until it ends.
fn run_sample_loop(
    sender: &std::sync::mpsc::Sender<Msg>,
    receiver: &std::sync::mpsc::Receiver<Msg>,
) -> App {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    event_loop(
        &mut terminal,
        sample_app(),
        sender,
        receiver,
        &mut CountSuspends::default(),
    )
    .unwrap()
}

fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
    app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// Gives the app the real token counts of its servers.
fn with_counts(mut app: App) -> App {
    let mut counted = app.session.clone();
    counted.count_tokens().unwrap();
    let servers = counted.shared_servers();
    let counts = servers
        .iter()
        .enumerate()
        .flat_map(|(s, server)| (0..server.tools.len()).map(move |t| (s, t)))
        .map(|(server, tool)| {
            let count = counted.token_count(server, tool).unwrap();
            (
                schematax_engine::replay::catalog::ToolRef { server, tool },
                count,
            )
        })
        .collect();
    app.update(Msg::Counted {
        generation: app.generation,
        result: Ok(counts),
    });
    app
}

#[test]
fn main_screen_at_80x24_while_counting() {
    insta::assert_snapshot!(screen(&sample_app(), 80, 24));
}

#[test]
fn main_screen_at_120x40_with_real_counts() {
    insta::assert_snapshot!(screen(&with_counts(sample_app()), 120, 40));
}

#[test]
fn server_off_turns_the_gate_inactive() {
    let mut app = sample_app();
    for _ in 0..4 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Char(' '));
    let text = screen(&app, 100, 30);
    assert!(text.contains("○ fetch"), "{text}");
    assert!(text.contains(" INACTIVE "), "{text}");
    insta::assert_snapshot!(text);
}

/// The drawn screen's buffer, to look at its styles.
fn drawn(app: &App, width: u16, height: u16) -> ratatui::buffer::Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| view::render(app, frame)).unwrap();
    terminal.backend().buffer().clone()
}

/// The style of the first cell of `text` on the drawn screen.
fn style_of(buffer: &ratatui::buffer::Buffer, text: &str) -> ratatui::style::Style {
    let area = buffer.area;
    for y in 0..area.height {
        let line: Vec<String> = (0..area.width)
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect();
        let joined = line.concat();
        if let Some(at) = joined.find(text) {
            // Cells hold one symbol each: count the symbols before the byte offset.
            let mut bytes = 0;
            let x = line
                .iter()
                .take_while(|symbol| {
                    bytes += symbol.len();
                    bytes <= at
                })
                .count();
            return buffer[(x as u16, y)].style();
        }
    }
    panic!("{text:?} is not on the screen");
}

#[test]
fn the_states_have_their_styles() {
    use schematax_tui::view::theme;
    let mut app = sample_app();
    let on = drawn(&app, 100, 30);
    assert_eq!(style_of(&on, " ACTIVE ").bg, theme::badge(true).bg);
    // The focused pane (Servers) has the thick accent border, the others the plain dim one.
    assert_eq!(style_of(&on, "┏").fg, theme::border(true).1.fg);
    assert_eq!(style_of(&on, "┌").fg, theme::border(false).1.fg);
    assert_eq!(style_of(&on, "● fetch").fg, theme::GOOD.fg);
    for _ in 0..4 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Char(' '));
    let off = drawn(&app, 100, 30);
    assert_eq!(style_of(&off, " INACTIVE ").bg, theme::badge(false).bg);
    assert_ne!(theme::badge(true).bg, theme::badge(false).bg);
    assert_eq!(style_of(&off, "○ fetch").fg, theme::DIM.fg);
    assert_ne!(theme::GOOD.fg, theme::DIM.fg);
}

#[test]
fn search_pane_ranks_as_you_type() {
    let mut app = sample_app();
    press(&mut app, KeyCode::Char('/'));
    type_text(&mut app, "resolve library id");
    insta::assert_snapshot!(screen(&app, 100, 30));
}

#[test]
fn search_with_no_hits_says_so() {
    let mut app = sample_app();
    press(&mut app, KeyCode::Char('/'));
    type_text(&mut app, "zzqqx");
    let text = screen(&app, 80, 24);
    assert!(text.contains("No tool matched"), "{text}");
}

#[test]
fn help_overlay_lists_the_key_map() {
    let mut app = sample_app();
    press(&mut app, KeyCode::Char('?'));
    let first = screen(&app, 100, 40);
    // Scrolled to its end, the help has shown every binding of the key map.
    let mut seen = first.clone();
    for _ in 0..schematax_tui::keys::help_lines().len() {
        press(&mut app, KeyCode::Down);
        seen.push_str(&screen(&app, 100, 40));
    }
    // Every line of the key map, keys and hint together, and every section title.
    let lines = schematax_tui::keys::help_lines();
    assert!(lines.len() > schematax_tui::keys::KEYMAP.len());
    for (keys, text) in lines {
        let line = match keys {
            Some(keys) => format!("{keys:<12}{text}"),
            None => text.to_string(),
        };
        assert!(seen.contains(&line), "help lacks {line:?}\n{seen}");
    }
    insta::assert_snapshot!(first);
}

#[test]
fn server_tools_overlay() {
    let mut app = sample_app();
    press(&mut app, KeyCode::Enter);
    insta::assert_snapshot!(screen(&app, 100, 30));
}

#[test]
fn tool_detail_overlay_scrolls() {
    let mut app = sample_app();
    press(&mut app, KeyCode::Char('/'));
    type_text(&mut app, "fetch url");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    let Some(Overlay::Detail(detail, _)) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    assert_eq!(detail.title, "tool_describe mcp_fetch_fetch");
    insta::assert_snapshot!("detail_top", screen(&app, 100, 30));
    press(&mut app, KeyCode::PageDown);
    let text = screen(&app, 100, 30);
    assert!(text.contains("from line 11 of 41"), "{text}");
}

#[test]
fn search_payload_overlay() {
    let mut app = sample_app();
    press(&mut app, KeyCode::Char('/'));
    type_text(&mut app, "web search");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('p'));
    insta::assert_snapshot!(screen(&app, 100, 30));
}

#[test]
fn context_prompt_overlay() {
    let mut app = sample_app();
    press(&mut app, KeyCode::Char('x'));
    type_text(&mut app, "1M");
    insta::assert_snapshot!(screen(&app, 80, 24));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.session.context().tokens, 1_000_000);
}

#[test]
fn a_large_server_shows_its_numbers_in_full() {
    // 12,345 tools with a long description each: five-digit tool counts and seven-digit
    // estimates, wider than the columns' headers.
    let description = "Reads one record of the archive and returns it. ".repeat(20);
    let tools: Vec<String> = (0..12_345)
        .map(|i| format!(r#"{{"name":"t{i}","description":"{description}","inputSchema":{{}}}}"#))
        .collect();
    let capture = parse_capture(
        format!(r#"{{"server":"big","tools":[{}]}}"#, tools.join(",")).as_bytes(),
        "big",
    )
    .unwrap();
    let app = app_of(inputs_of("{}", vec![capture]), Overrides::default(), None);
    let estimate =
        schematax_engine::nouns::json_text::estimate_tokens(app.session.servers()[0].chars);
    assert!(estimate >= 1_000_000, "{estimate}");
    let text = screen(&app, 120, 40);
    let row = text.lines().find(|l| l.contains("● big")).unwrap();
    assert!(row.contains("12,345"), "{row}");
    assert!(
        row.contains(&schematax_report::thousands(estimate)),
        "{row}"
    );
}

#[test]
fn too_small_terminal_says_so() {
    insta::assert_snapshot!(screen(&sample_app(), 60, 20));
}

#[test]
fn empty_session_has_empty_states() {
    let app = app_of(inputs_of("", Vec::new()), Overrides::default(), None);
    let text = screen(&app, 80, 24);
    assert!(text.contains("No MCP servers in this session"), "{text}");
    assert!(text.contains("The catalog is empty"), "{text}");
    assert!(text.contains("nothing to defer"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn raising_threshold_flips_at_the_engine_boundary() {
    let mut app = sample_app();
    let deferrable = app.derived.activation.deferrable_tokens;
    let mut flipped_at = None;
    // From 10.0 in steps of 0.1 up to 11.0: the engine says where the flip is.
    for _ in 0..10 {
        let activation = app.session.activation();
        assert_eq!(
            activation.active,
            is_active(Mode::Auto, deferrable, 200_000, activation.threshold_pct),
            "threshold {}",
            activation.threshold_pct
        );
        let text = screen(&app, 80, 24);
        assert_eq!(text.contains(" ACTIVE "), activation.active, "{text}");
        assert_eq!(text.contains(" INACTIVE "), !activation.active, "{text}");
        if !activation.active && flipped_at.is_none() {
            flipped_at = Some(activation.threshold_pct);
        }
        press(&mut app, KeyCode::Char(']'));
    }
    // 20,226 tokens at 200K: active up to 10.11%, so the first inactive tenth is 10.2.
    assert_eq!(flipped_at, Some(10.2));
    assert_eq!(app.session.settings().threshold_pct, 11.0);
    press(&mut app, KeyCode::Char('-'));
    press(&mut app, KeyCode::Char('-'));
    assert_eq!(app.session.settings().threshold_pct, 9.0);
    assert!(app.session.activation().active, "active again at 9%");
}

#[test]
fn toggling_any_server_off_flips_and_on_restores() {
    let mut app = sample_app();
    for row in 0..5 {
        app.servers.selected = row;
        press(&mut app, KeyCode::Char(' '));
        assert!(!app.session.activation().active, "row {row} off");
        press(&mut app, KeyCode::Char(' '));
        assert!(app.session.activation().active, "row {row} back on");
    }
}

#[test]
fn typed_query_shows_the_same_hits_as_schematax_search() {
    let query = "crawl a site and extract content";
    let mut app = sample_app();
    press(&mut app, KeyCode::Char('/'));
    type_text(&mut app, query);
    let tui: Vec<(String, f64)> = app
        .search
        .result
        .hits
        .iter()
        .map(|h| (app.session.catalog_entry(h.doc).0.name.clone(), h.score))
        .collect();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_schematax"))
        .args(["search", query, "--format", "json", "--profile", "seed"])
        .output()
        .unwrap();
    let cli: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let cli: Vec<(String, f64)> = cli["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["name"].as_str().unwrap().to_string(),
                h["score"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(tui.len(), 5);
    assert_eq!(tui, cli);
}

#[test]
fn untrusted_text_is_stripped_before_rendering() {
    let capture = parse_capture(
        "{\"server\":\"ev\\u001b[2Jil\",\"tools\":[{\"name\":\"wipe\\u001b]0;x\\u0007\",\"description\":\"Clears \\u001b[31mred\\u001b[0m screen \\u009b2J now\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"p\\u001b[5m\":{\"type\":\"string\"}}}}]}"
            .as_bytes(),
        "evil",
    )
    .unwrap();
    let mut app = app_of(inputs_of("", vec![capture]), Overrides::default(), None);
    let check = |app: &App| {
        let text = screen(app, 100, 30);
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
        text
    };
    // The names are drawn, and no part of an escape sequence is.
    let shown = |text: &str, names: &[&str]| {
        for name in names {
            assert!(text.contains(name), "{name:?} missing:\n{text}");
        }
        for remnant in ["[2J", "]0;", "[5m", "[31m"] {
            assert!(!text.contains(remnant), "{remnant:?} drawn:\n{text}");
        }
    };
    shown(&check(&app), &["evil"]);
    press(&mut app, KeyCode::Enter);
    shown(&check(&app), &["wipe"]);
    press(&mut app, KeyCode::Enter);
    let text = check(&app);
    assert!(
        text.contains("\\u001b[31mred"),
        "the payload shows escapes as text: {text}"
    );
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('/'));
    type_text(&mut app, "clears screen");
    let text = check(&app);
    assert!(text.contains("Clears red screen"), "{text}");
}

#[test]
fn event_loop_runs_on_a_test_backend() {
    let (sender, receiver) = std::sync::mpsc::channel();
    for code in [
        KeyCode::Char('/'),
        KeyCode::Char('f'),
        KeyCode::Char('e'),
        KeyCode::Enter,
        KeyCode::Char('+'),
        KeyCode::Char('q'),
    ] {
        sender
            .send(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
            .unwrap();
    }
    let app = run_sample_loop(&sender, &receiver);
    assert!(app.quit);
    assert_eq!(app.search.query, "fe");
    assert_eq!(app.session.settings().threshold_pct, 11.0);
    assert!(app.is_tuned());
    assert!(app.tuned_yaml().contains("threshold_pct: 11"));
}

fn app_with_queries() -> App {
    app_with_queries_at(Profile::seed())
}

/// The sample with its queries file under `profile`, evaluated.
fn app_with_queries_at(profile: Profile) -> App {
    let queries = QuerySet::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/samples/queries.yaml"
    )))
    .unwrap();
    let overrides = Overrides {
        profile: Some(profile),
        ..Overrides::default()
    };
    let mut app = app_of(Inputs::sample(), overrides, Some(queries));
    let effects = app.startup_effects();
    run_effects(&mut app, effects);
    app
}

/// Lints the app's catalog as the background worker would.
fn linted(mut app: App) -> App {
    let effects = app.startup_effects();
    run_effects(&mut app, effects);
    app
}

#[test]
fn lint_pane_lists_findings_and_opens_the_tool() {
    let mut app = linted(sample_app());
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, schematax_tui::state::Pane::Lint);
    let text = screen(&app, 120, 40);
    let count = app.lint.count();
    assert_eq!(
        count, 49,
        "the sample's findings, as `schematax lint` prints them"
    );
    assert!(text.contains(&format!("Lint {count}")), "{text}");
    insta::assert_snapshot!(text);
    let shadowed = app
        .lint
        .findings
        .as_ref()
        .and_then(|findings| findings.iter().position(|f| f.rule.id == "shadowed"))
        .unwrap();
    app.lint.selected = shadowed;
    press(&mut app, KeyCode::Enter);
    let Some(Overlay::Detail(detail, _)) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    assert_eq!(detail.title, "tool_describe mcp_firecrawl_firecrawl_scrape");
    assert!(
        detail.lines[0].starts_with("warning shadowed: a search for its name words"),
        "{:?}",
        detail.lines[0]
    );
    assert!(
        detail.lines[1].starts_with("involved: mcp_firecrawl_firecrawl_map"),
        "{:?}",
        detail.lines[1]
    );
}

#[test]
fn a_stale_lint_is_dropped_and_a_toggle_relints() {
    let mut app = sample_app();
    let first = app.startup_effects();
    let effects = press(&mut app, KeyCode::Char(' '));
    assert!(app.lint.is_stale());
    // The answer for the old catalog arrives late: it is ignored.
    run_effects(&mut app, first);
    assert!(app.lint.is_stale());
    assert!(!screen(&app, 100, 30).contains("Lint 0"));
    run_effects(&mut app, effects);
    assert!(!app.lint.is_stale());
    // The lint of the catalog without firecrawl (switched off): all 49 findings of the sample
    // are firecrawl's, so none is left, and the stale answer's 49 were never adopted.
    assert!(
        app.lint
            .findings
            .as_ref()
            .is_some_and(schematax_engine::analyses::lint::Findings::is_empty),
        "{:?}",
        app.lint.findings
    );
    let text = screen(&app, 100, 30);
    assert!(text.contains("Lint 0"), "{text}");
    press_and_run(&mut app, KeyCode::Char(' '));
    assert_eq!(app.lint.count(), 49);
    assert!(screen(&app, 100, 30).contains("Lint 49"));
}

/// The app with the sample's queries file, the Eval pane focused (three Tabs away).
fn eval_focused() -> App {
    let mut app = app_with_queries();
    for _ in 0..3 {
        press(&mut app, KeyCode::Tab);
    }
    assert_eq!(app.focus, Pane::Eval);
    app
}

#[test]
fn eval_pane_updates_live() {
    let mut app = app_with_queries();
    let eval = |app: &App| {
        app.eval
            .as_ref()
            .unwrap()
            .evaluation(app.session.profile())
            .unwrap()
            .clone()
    };
    let before = eval(&app).overall;
    assert_eq!(before.queries, 40);
    for _ in 0..3 {
        press(&mut app, KeyCode::Tab);
    }
    assert_eq!(app.focus, Pane::Eval);
    let text = screen(&app, 120, 40);
    assert!(
        text.contains("seed (now)") && text.contains(crate::common::newest()),
        "{text}"
    );
    insta::assert_snapshot!(text);
    // The pane's own k, evaluated on a worker; it tunes no setting.
    for _ in 0..4 {
        let effects = press(&mut app, KeyCode::Char('<'));
        assert!(app.eval.as_ref().unwrap().job.is_stale());
        run_effects(&mut app, effects);
    }
    let at_1 = eval(&app).overall;
    assert_eq!(at_1.k, 1);
    assert_eq!(at_1.recall_at_k, at_1.recall_at_1);
    assert_eq!(app.search.limit, 5, "search_default_limit is untouched");
    assert!(!app.is_tuned(), "{}", app.tuned_yaml());
    assert!(screen(&app, 120, 40).contains("Eval r@1 "));
    // Switching firecrawl off misses its queries.
    app.focus = Pane::Servers;
    app.servers.selected = 0;
    press_and_run(&mut app, KeyCode::Char(' '));
    assert_eq!(eval(&app).by_server["firecrawl"].recall_at_k, 0.0);
    // Enter on a query sends it to the Search pane.
    app.focus = Pane::Eval;
    app.lower = Pane::Eval;
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.focus, Pane::Search);
    assert_eq!(app.search.query, "scrape the content of a web page");
}

#[test]
fn eval_pane_says_what_came_first_and_why() {
    // Under the newest release, a miss names the tool that came first, or why nothing did.
    let mut app = app_with_queries_at(Profile::newest());
    for _ in 0..3 {
        press(&mut app, KeyCode::Tab);
    }
    let text = screen(&app, 160, 60);
    assert!(text.contains("came first instead / why"), "{text}");
    let row = |needle: &str| {
        text.lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no row for {needle:?}:\n{text}"))
            .to_string()
    };
    assert!(
        row("crawl a whole site").contains("mcp__firecrawl__firecrawl_monitor_create"),
        "{text}"
    );
    assert!(
        row("find pizza restaurants near me").contains("lacks \"pizza\""),
        "{text}"
    );
    // A hit within k leaves the column empty.
    assert!(!row("fetch a url").contains("mcp__"), "{text}");
}

#[test]
fn eval_pane_scrolls_to_the_selected_query() {
    let mut app = eval_focused();
    let evaluation = app
        .eval
        .as_ref()
        .unwrap()
        .evaluation(app.session.profile())
        .unwrap()
        .clone();
    let texts: Vec<String> = evaluation
        .queries()
        .map(|q| q.query.query.clone())
        .collect();
    let (first, last) = (&texts[0], &texts[texts.len() - 1]);
    let text = screen(&app, 120, 40);
    assert!(
        text.contains(first.as_str()) && !text.contains(last.as_str()),
        "{text}"
    );
    for _ in 1..texts.len() {
        press(&mut app, KeyCode::Down);
    }
    let text = screen(&app, 120, 40);
    assert!(
        text.contains(last.as_str()) && !text.contains(first.as_str()),
        "{text}"
    );
}

/// The app `schematax ARGS...` opens, built by the binary's own code.
/// The binary's app for these arguments, under seed unless they name a release.
fn app_from_command_line(args: &[&str]) -> App {
    use clap::Parser;
    let pinned = args
        .iter()
        .any(|a| a.starts_with("--profile") || a.starts_with("--hermes"));
    let seed: &[&str] = if pinned { &[] } else { &["--profile", "seed"] };
    let cli = schematax::cli::Cli::try_parse_from(
        std::iter::once("schematax")
            .chain(args.iter().copied())
            .chain(seed.iter().copied()),
    )
    .unwrap();
    schematax::cli::build_app(&cli.tui).unwrap()
}

#[test]
fn recapture_rebuilds_the_session_and_keeps_the_tuning() {
    let dir = tempfile::tempdir().unwrap();
    let python = String::from_utf8(
        std::process::Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/mcp_fixture.py");
    let yaml = format!("mcp_servers:\n  fx:\n    command: {:?}\n    args: [{fixture:?}, normal]\n  gone:\n    command: /no/such/server\n", python.trim());
    let config = dir.path().join("hermes.yaml");
    std::fs::write(&config, &yaml).unwrap();

    // Without mcp_servers, R says why it cannot.
    let bare_config = dir.path().join("bare.yaml");
    std::fs::write(&bare_config, "tools: {}\n").unwrap();
    let mut bare = app_from_command_line(&[bare_config.to_str().unwrap()]);
    assert!(bare.update(key('R')).is_empty());
    assert!(bare
        .status
        .as_deref()
        .unwrap()
        .contains("needs a config file"));

    // The binary's app: at first there is no capture folder.
    let mut app = app_from_command_line(&[config.to_str().unwrap()]);
    assert_eq!(app.session.total_available(), 0);
    press(&mut app, KeyCode::Char('+'));
    // A server's tools are open: they point into the session a re-capture replaces.
    press(&mut app, KeyCode::Enter);
    let effects = app.update(key('R'));
    let [Effect::Recapture(_)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert!(screen(&app, 100, 30).contains("re-capturing: 0/2 done"));
    assert!(app.update(key('R')).is_empty(), "one at a time");

    // The worker, as the event loop runs it: progress per server, then the new captures.
    let progress = std::sync::Mutex::new(Vec::new());
    let last = effects
        .into_iter()
        .next()
        .unwrap()
        .run(&|msg| progress.lock().unwrap().push(msg))
        .unwrap();
    for msg in progress.into_inner().unwrap() {
        assert!(app.update(msg).is_empty());
    }
    let text = screen(&app, 100, 30);
    for part in [
        "re-capturing: 2/2 done",
        "fx ok",
        "gone failed: command not found",
    ] {
        assert!(text.contains(part), "{part}: {text}");
    }
    assert!(dir.path().join("tools/fx.json").is_file());
    let effects = app.update(last);
    assert!(matches!(
        effects.as_slice(),
        [
            Effect::CountTokens { generation: 1, .. },
            Effect::Lint { generation: 1, .. }
        ]
    ));
    assert_eq!(app.session.total_available(), 3);
    assert_eq!(
        app.session.settings().threshold_pct,
        11.0,
        "tuning survives"
    );
    assert!(app.overlay.is_none(), "the stale tool list is closed");
    assert!(app.capturing.is_none());
    assert!(
        app.status
            .as_deref()
            .unwrap()
            .contains("failed: gone: command not found"),
        "{:?}",
        app.status
    );
    // Counts for the old session are ignored.
    app.update(Msg::Counted {
        generation: 0,
        result: Ok(Vec::new()),
    });
    assert_eq!(app.counting, schematax_tui::state::Counting::Pending);
}

#[test]
fn signals_end_the_view_and_ctrl_z_suspends_it() {
    let mut app = sample_app();
    let ctrl_z = Msg::Key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL));
    assert!(matches!(app.update(ctrl_z).as_slice(), [Effect::Suspend]));
    // Even in an overlay or while typing.
    press(&mut app, KeyCode::Char('?'));
    let ctrl_z = Msg::Key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL));
    assert!(matches!(app.update(ctrl_z).as_slice(), [Effect::Suspend]));
    assert!(matches!(
        app.update(Msg::Signal(Signal::Suspend)).as_slice(),
        [Effect::Suspend]
    ));
    assert!(!app.quit);
    for signal in Signal::ENDING {
        let mut app = sample_app();
        assert!(app.update(Msg::Signal(signal)).is_empty());
        assert!(app.quit);
        assert_eq!(app.ended_by, Some(signal));
    }
}

/// Counts suspensions instead of stopping the test process.
#[derive(Default)]
struct CountSuspends(usize);

impl schematax_tui::Suspend<TestBackend> for CountSuspends {
    fn suspend(
        &mut self,
        terminal: &mut Terminal<TestBackend>,
    ) -> Result<(), <TestBackend as ratatui::backend::Backend>::Error> {
        self.0 += 1;
        terminal.clear()
    }
}

#[test]
fn the_event_loop_suspends_and_ends_on_signals() {
    let (sender, receiver) = std::sync::mpsc::channel();
    sender.send(Msg::Signal(Signal::Suspend)).unwrap();
    sender.send(key('+')).unwrap();
    sender.send(Msg::Signal(Signal::Terminate)).unwrap();
    sender.send(key('+')).unwrap();
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let mut suspends = CountSuspends::default();
    let app = event_loop(
        &mut terminal,
        sample_app(),
        &sender,
        &receiver,
        &mut suspends,
    )
    .unwrap();
    assert_eq!(suspends.0, 1);
    assert_eq!(app.ended_by, Some(Signal::Terminate));
    assert_eq!(
        app.session.settings().threshold_pct,
        10.0,
        "a signal is answered before the keys queued with it"
    );
}

#[test]
fn a_flood_of_keys_does_not_hold_up_a_signal_and_a_burst_is_one_edit() {
    let (sender, receiver) = std::sync::mpsc::channel();
    sender.send(key('/')).unwrap();
    for _ in 0..20_000 {
        sender.send(key('z')).unwrap();
    }
    sender.send(Msg::Signal(Signal::Hangup)).unwrap();
    let app = run_sample_loop(&sender, &receiver);
    assert_eq!(app.ended_by, Some(Signal::Hangup));
    // A burst of typed keys is one edit: gathered, then typed at once.
    let (sender, receiver) = std::sync::mpsc::channel();
    for c in "/fetch a url".chars() {
        sender.send(key(c)).unwrap();
    }
    sender
        .send(Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)))
        .unwrap();
    sender.send(key('q')).unwrap();
    let app = run_sample_loop(&sender, &receiver);
    assert_eq!(app.search.query, "fetch a url");
    let first = app.search.result.hits[0].doc;
    assert_eq!(app.session.catalog_entry(first).0.name, "mcp_fetch_fetch");
    assert!(app.quit, "q after Enter quits: it is not text");
}

#[test]
fn a_paste_is_one_line_one_edit_and_capped() {
    let mut app = sample_app();
    app.update(Msg::Paste("take a\nscreenshot\tof\u{7}".into()));
    assert!(app.search.typing, "a paste starts a search");
    assert_eq!(app.search.query, "take a screenshot of");
    let huge = "word ".repeat(20_000);
    app.update(Msg::Paste(huge));
    assert_eq!(
        app.search.query.chars().count(),
        schematax_tui::app::MAX_QUERY_CHARS
    );
    let text = screen(&app, 120, 40);
    assert!(text.contains("keeps 1,000 characters at most"), "{text}");
}

#[test]
fn help_scrolls_to_its_end_at_80x24() {
    let mut app = sample_app();
    press(&mut app, KeyCode::Char('?'));
    let lines = schematax_tui::keys::help_lines();
    let last = lines.last().unwrap().0.clone().unwrap();
    assert_eq!(last, "Esc w q");
    assert!(
        !screen(&app, 80, 24).contains(&last),
        "the end is below at first"
    );
    for _ in 0..lines.len() {
        press(&mut app, KeyCode::Down);
    }
    let text = screen(&app, 80, 24);
    assert!(text.contains(&last), "{text}");
    press(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none());
}

#[test]
fn at_80x24_the_figures_are_whole_and_the_help_is_one_column() {
    let mut app = latest_app();
    let effects = app.startup_effects();
    run_effects(&mut app, effects);
    let text = screen(&app, 80, 24);
    // The Activation pane drops words, never a figure.
    for figure in [
        "listing 865 of 4,000 tokens",
        "20,366 -> 1,378 tokens",
        "$170.89/month",
    ] {
        assert!(text.contains(figure), "{figure}: {text}");
    }
    // The axis labels never run together.
    assert!(!text.contains("128K400K"), "{text}");
    press(&mut app, KeyCode::Char('?'));
    let text = screen(&app, 80, 24);
    assert!(text.contains("previous context preset"), "{text}");
}

#[test]
fn the_view_opens_on_the_newest_release_and_p_wraps_round_to_the_first() {
    let mut app = latest_app();
    let effects = app.startup_effects();
    run_effects(&mut app, effects);
    assert_eq!(app.session.profile(), Profile::newest());
    let text = screen(&app, 120, 40);
    assert!(
        text.contains(&format!("│ {} │", Profile::newest())),
        "{text}"
    );
    // From 0.20.0 the listing is what threshold_pct sizes.
    assert!(text.contains("(bridge + listing)"), "{text}");
    press_and_run(&mut app, KeyCode::Char('P'));
    let first = Profile::released().next().unwrap();
    assert_eq!(app.session.profile(), first);
    let text = screen(&app, 120, 40);
    assert!(text.contains(&format!("│ {first} │")), "{text}");
    assert!(
        text.contains("tokens (chars/4)"),
        "the threshold gate: {text}"
    );
    press_and_run(&mut app, KeyCode::Char('O'));
    assert_eq!(app.session.profile(), Profile::newest());
}

#[test]
fn the_profile_switches_live_and_every_pane_follows() {
    let queries = QuerySet::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/samples/queries.yaml"
    )))
    .unwrap();
    // From 0.21.0 (a listing, no gate) P steps to 0.21.3 (the rarest-word gate).
    let before = Profile::from_id("hermes-0.20.6").unwrap();
    let gated = Profile::from_id("hermes-0.21.3").unwrap();
    let mut app = app_of(
        inputs_of("", load_captures()),
        Overrides {
            profile: Some(before),
            ..Overrides::default()
        },
        Some(queries),
    );
    let effects = app.startup_effects();
    run_effects(&mut app, effects);
    let effects = press(&mut app, KeyCode::Char('P'));
    assert!(screen(&app, 120, 40).contains("hermes-0.20.6 -> hermes-0.21.3..."));
    run_effects(&mut app, effects);
    assert_eq!(app.session.profile(), gated);
    let text = screen(&app, 120, 40);
    assert!(text.contains("│ hermes-0.21.3 │"), "{text}");
    assert!(text.contains("Listing █full ▓names"), "{text}");
    assert!(
        text.contains("listing") && text.contains("tier 1"),
        "{text}"
    );
    assert!(text.contains("(bridge + listing)"), "{text}");
    insta::assert_snapshot!(text);
    // The listing as the model sees it.
    press(&mut app, KeyCode::Char('L'));
    let Some(Overlay::Detail(detail, _)) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    assert!(detail
        .lines
        .iter()
        .any(|l| l.starts_with("Deferred tool catalog")));
    press(&mut app, KeyCode::Esc);
    // The Search pane shows the gate and the tools it turns away.
    press(&mut app, KeyCode::Char('/'));
    type_text(&mut app, "take a screenshot of the page zzqq");
    let text = screen(&app, 120, 40);
    assert!(text.contains("gate \"zzqq\" (0 tools)"), "{text}");
    assert!(text.contains("No tool holds \"zzqq\""), "{text}");
    assert!(text.contains("not admitted:"), "{text}");
    press(&mut app, KeyCode::Enter);
    // O steps back to 0.21.0: the gate goes; from seed, O wraps round to the newest.
    press_and_run(&mut app, KeyCode::Char('O'));
    assert_eq!(app.session.profile(), before);
    let text = screen(&app, 120, 40);
    assert!(!text.contains("gate \""), "{text}");
}

#[test]
fn p_and_o_step_through_the_releases() {
    let mut app = app_of(inputs_of("", load_captures()), Overrides::default(), None);
    assert_eq!(app.session.profile(), Profile::seed());
    press_and_run(&mut app, KeyCode::Char('O'));
    assert_eq!(app.session.profile().id(), "hermes-0.16");
    press_and_run(&mut app, KeyCode::Char('O'));
    assert_eq!(
        app.session.profile(),
        Profile::newest(),
        "round to the newest"
    );
    press_and_run(&mut app, KeyCode::Char('P'));
    assert_eq!(
        app.session.profile().id(),
        "hermes-0.16",
        "round to the oldest"
    );
    let text = screen(&app, 120, 40);
    assert!(text.contains("Hermes 0.16.0"), "{text}");
}

/// The repository's captures of real servers.
fn load_captures() -> Vec<ServerCapture> {
    schematax_engine::inputs::capture_file::load_paths(&[std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/captures"
    ))])
    .unwrap()
    .captures
}

#[test]
fn warnings_show_in_the_view_and_in_a_list() {
    let yaml = "tool:\n  tool_search: {threshold_pct: 3}\nmcp_servers:\n  fetch: {command: x}\n  gone: {command: y}\n";
    let fetch = load_captures()
        .into_iter()
        .find(|c| c.server == "fetch")
        .unwrap();
    let mut app = app_of(inputs_of(yaml, vec![fetch]), Overrides::default(), None);
    let text = screen(&app, 100, 30);
    assert!(text.contains("⚠ 2 warnings (w)"), "{text}");
    assert!(text.contains("2 warnings: tool: unknown key"), "{text}");
    press(&mut app, KeyCode::Char('w'));
    let text = screen(&app, 100, 30);
    assert!(text.contains("did you mean tools?"), "{text}");
    assert!(
        text.contains("server gone is configured but has no capture"),
        "{text}"
    );
    press(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none());
}

#[test]
fn names_print_whole_and_units_are_never_cut() {
    let mut app = app_of(inputs_of("", load_captures()), Overrides::default(), None);
    press(&mut app, KeyCode::Char('/'));
    type_text(&mut app, "list merge request pipelines");
    let text = screen(&app, 120, 40);
    assert_eq!(app.search.result.hits.len(), 5);
    for hit in &app.search.result.hits {
        let name = &app.session.catalog_entry(hit.doc).0.name;
        assert!(text.contains(name.as_str()), "{name} cut:\n{text}");
    }
    let mut app = sample_app();
    press(&mut app, KeyCode::Char('x'));
    type_text(&mut app, "200K");
    press(&mut app, KeyCode::Enter);
    let text = screen(&app, 80, 24);
    assert!(text.contains("10% of 200K"), "{text}");
    assert!(text.contains("context: set in the view"), "{text}");
}

#[test]
fn the_flip_hint_says_always_active() {
    let mut app = sample_app();
    press(&mut app, KeyCode::Char('x'));
    type_text(&mut app, "8K");
    press(&mut app, KeyCode::Enter);
    let text = screen(&app, 100, 30);
    assert!(text.contains("always active, even at 100% of 8K"), "{text}");
    assert!(!text.contains(">100"), "{text}");
}

#[test]
fn a_tool_detail_shows_what_hermes_changed() {
    let capture = parse_capture(
        br#"{"server":"s","tools":[{"name":"t","description":"Does a thing.","inputSchema":{"type":"object","properties":{"when":{"anyOf":[{"type":"string"},{"type":"null"}]}}}}]}"#,
        "s",
    )
    .unwrap();
    let mut app = app_of(inputs_of("", vec![capture]), Overrides::default(), None);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    let Some(Overlay::Detail(detail, _)) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    let text = detail.lines.join("\n");
    assert!(
        text.contains("Hermes's schema passes change the captured inputSchema"),
        "{text}"
    );
    assert!(
        text.contains("-        {\n-          \"type\": \"null\"\n-        }"),
        "{text}"
    );
    assert!(text.contains("+      \"nullable\": true"), "{text}");
}

#[test]
fn a_large_catalog_is_rebuilt_on_a_worker_after_a_toggle() {
    let mut app = sample_app();
    app.rebuild_on_worker_above = 0;
    for _ in 0..4 {
        press(&mut app, KeyCode::Down);
    }
    let server = app.selected_server().unwrap();
    let effects = press(&mut app, KeyCode::Char(' '));
    assert!(
        matches!(effects.as_slice(), [Effect::Rebuild { .. }]),
        "{effects:?}"
    );
    // The switch shows at once; the catalog is the old one until the worker answers.
    assert!(!app.session.is_connected(server));
    assert!(app.session.activation().active);
    let text = screen(&app, 100, 30);
    assert!(text.contains("○ fetch"), "{text}");
    assert!(text.contains("re-indexing the catalog..."), "{text}");
    run_effects(&mut app, effects);
    assert!(!app.rebuild.is_stale());
    assert!(!app.session.activation().active);
    assert!(!app.lint.is_stale(), "the new catalog is linted");
    assert_eq!(app.lint.count(), 49);
    let text = screen(&app, 100, 30);
    assert!(!text.contains("re-indexing"), "{text}");
    assert!(text.contains(" INACTIVE "), "{text}");
}

#[test]
fn a_rebuild_overtaken_by_another_toggle_is_dropped() {
    let mut app = sample_app();
    app.rebuild_on_worker_above = 0;
    for _ in 0..4 {
        press(&mut app, KeyCode::Down);
    }
    let server = app.selected_server().unwrap();
    let off = press(&mut app, KeyCode::Char(' '));
    let on = press(&mut app, KeyCode::Char(' '));
    assert!(app.session.is_connected(server));
    // The answer for "off" arrives after "on" was asked for: it is not installed.
    run_effects(&mut app, off);
    assert!(app.rebuild.is_stale());
    assert!(app.session.activation().active);
    run_effects(&mut app, on);
    assert!(!app.rebuild.is_stale());
    assert!(app.session.activation().active);
    assert_eq!(app.lint.count(), 49);
}

#[test]
fn a_profile_switch_overtakes_a_rebuild_on_its_way() {
    let mut app = sample_app();
    app.rebuild_on_worker_above = 0;
    for _ in 0..4 {
        press(&mut app, KeyCode::Down);
    }
    let server = app.selected_server().unwrap();
    let rebuild = press(&mut app, KeyCode::Char(' '));
    let switch = press(&mut app, KeyCode::Char('P'));
    run_effects(&mut app, switch);
    // The next release's session is built with the server already off: nothing is pending.
    assert_eq!(app.session.profile().id(), "hermes-0.18.0");
    assert!(!app.rebuild.is_stale());
    assert!(!app.session.is_connected(server));
    let catalog = app.session.total_available();
    // The old session's rebuild arrives late and is not installed in the new one.
    run_effects(&mut app, rebuild);
    assert_eq!(app.session.total_available(), catalog);
    assert!(!screen(&app, 100, 30).contains("re-indexing"));
}

/// The terminal's screen as text, one line per row.
fn terminal_text(terminal: &Terminal<TestBackend>) -> String {
    let buffer = terminal.backend().buffer();
    let area = buffer.area;
    (0..area.height)
        .map(|y| {
            (0..area.width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_loading_screen_shows_the_inputs_until_the_app_is_ready() {
    use schematax_tui::{loading_loop, Loaded};
    let (built_sender, built) = std::sync::mpsc::channel::<Result<App, String>>();
    let (_sender, receiver) = std::sync::mpsc::channel();
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    let mut suspends = CountSuspends::default();
    // Nothing built yet: one tick draws the loading screen, then the app arrives.
    let builder = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(150));
        built_sender.send(Ok(sample_app())).unwrap();
    });
    let started = std::time::Instant::now();
    let loaded = loading_loop(
        &mut terminal,
        "big/hermes.yaml, big/tools",
        started,
        &built,
        &receiver,
        &mut suspends,
    )
    .unwrap();
    builder.join().unwrap();
    let text = terminal_text(&terminal);
    assert!(text.contains("Loading"), "{text}");
    assert!(text.contains("big/hermes.yaml, big/tools"), "{text}");
    assert!(text.contains("q quit"), "{text}");
    match loaded {
        Loaded::Ready(app) => assert!(app.session.total_available() > 0),
        _ => panic!("the app should be ready"),
    }
}

#[test]
fn the_loading_screen_quits_on_a_key_or_a_signal_and_reports_a_failed_or_lost_load() {
    use schematax_tui::{loading_loop, Loaded};
    // The loop on `msgs`, with the builder's answer `build` (None: still building) and the
    // builder gone away after it when `builder_ends`.
    let run = |msgs: Vec<Msg>, build: Option<Result<App, String>>, builder_ends: bool| {
        let (built_sender, built) = std::sync::mpsc::channel::<Result<App, String>>();
        if let Some(result) = build {
            built_sender.send(result).unwrap();
        }
        let builder = if builder_ends {
            drop(built_sender);
            None
        } else {
            Some(built_sender)
        };
        let (sender, receiver) = std::sync::mpsc::channel();
        for msg in msgs {
            sender.send(msg).unwrap();
        }
        let mut terminal = Terminal::new(TestBackend::new(40, 10)).unwrap();
        let mut suspends = CountSuspends::default();
        let loaded = loading_loop(
            &mut terminal,
            "tools",
            std::time::Instant::now(),
            &built,
            &receiver,
            &mut suspends,
        )
        .unwrap();
        // A builder still at work keeps its end of the channel until the loop is done.
        drop(builder);
        (loaded, suspends.0)
    };
    let ctrl = |c: char| Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
    for quit in [
        key('q'),
        Msg::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)),
        ctrl('c'),
    ] {
        let (loaded, _) = run(vec![key('x'), quit], None, false);
        assert!(matches!(loaded, Loaded::Cancelled(None)));
    }
    let (loaded, suspends) = run(
        vec![
            ctrl('z'),
            Msg::Signal(Signal::Suspend),
            Msg::Signal(Signal::Terminate),
        ],
        None,
        false,
    );
    assert!(matches!(loaded, Loaded::Cancelled(Some(Signal::Terminate))));
    assert_eq!(suspends, 2, "Ctrl-Z and SIGTSTP both suspend");
    let (loaded, _) = run(Vec::new(), Some(Err("tools/x.json: not JSON".into())), true);
    assert!(matches!(loaded, Loaded::Failed(e) if e == "tools/x.json: not JSON"));
    // A builder that goes away without an answer (it panicked) is reported as lost.
    let (loaded, _) = run(Vec::new(), None, true);
    assert!(matches!(loaded, Loaded::Lost));
}

/// A runner whose lints panic, as a bug in a background job would; the rest runs as in the view.
fn lint_panics(effect: Effect, progress: &(dyn Fn(Msg) + Sync)) -> Option<Msg> {
    if matches!(effect, Effect::Lint { .. }) {
        panic!("a lint that fails");
    }
    effect.run(progress)
}

#[test]
fn a_background_job_that_panics_ends_the_view_with_its_one_line() {
    use schematax_tui::worker::{JobKind, Workers};
    let (sender, receiver) = std::sync::mpsc::channel();
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let mut app = sample_app();
    app.update(key('+'));
    // Nothing else is queued: before, the loop waited for ever on a lint that never came.
    let app = schematax_tui::event_loop_on(
        &mut terminal,
        app,
        Workers::with_runner(sender.clone(), lint_panics),
        &receiver,
        &mut CountSuspends::default(),
    )
    .unwrap();
    assert!(app.quit);
    assert_eq!(app.ended_by, None);
    let failure = app.failed.clone().unwrap();
    assert_eq!(failure.job, JobKind::Lint);
    // The command's one line (schematax: error: ...), and the tuning is still there to print.
    let error = schematax_tui::TerminalError::from(failure).to_string();
    assert_eq!(
        error,
        "the view's lint failed: a lint that fails; the view was closed"
    );
    assert!(app.is_tuned());
}

/// Terminal events in batches, as reads of the terminal bring them: `poll` answers whether the
/// batch being read has more.
struct Batches(
    std::collections::VecDeque<std::collections::VecDeque<ratatui::crossterm::event::Event>>,
);

impl schematax_tui::EventSource for Batches {
    fn read(&mut self) -> std::io::Result<ratatui::crossterm::event::Event> {
        loop {
            let batch = self
                .0
                .front_mut()
                .ok_or(std::io::ErrorKind::UnexpectedEof)?;
            if let Some(event) = batch.pop_front() {
                return Ok(event);
            }
            self.0.pop_front();
        }
    }

    fn poll(&mut self, _timeout: std::time::Duration) -> std::io::Result<bool> {
        Ok(self.0.front().is_some_and(|batch| !batch.is_empty()))
    }
}

#[test]
fn what_follows_a_paste_in_the_same_read_is_text_never_keys() {
    use ratatui::crossterm::event::Event;
    let press = |code: KeyCode, modifiers: KeyModifiers| Event::Key(KeyEvent::new(code, modifiers));
    let plain = |c: char| press(KeyCode::Char(c), KeyModifiers::NONE);
    // "fetch ESC[201~ CR + q Ctrl-C ESC[200~ more ESC[201~" as crossterm parses it: the paste
    // ends early, and what follows would press Enter, +, q and Ctrl-C.
    let mut source = Batches(
        [
            vec![
                Event::Paste("fetch".into()),
                press(KeyCode::Enter, KeyModifiers::NONE),
                plain('+'),
                plain('q'),
                press(KeyCode::Char('c'), KeyModifiers::CONTROL),
                Event::Paste(" more".into()),
            ],
            // Keys pressed later, in reads of their own, are keys.
            vec![press(KeyCode::Enter, KeyModifiers::NONE)],
            vec![plain('q')],
        ]
        .into_iter()
        .map(Into::into)
        .collect(),
    );
    let (sender, receiver) = std::sync::mpsc::channel();
    let mut msgs = Vec::new();
    while let Some(msg) = schematax_tui::next_input(&mut source) {
        msgs.push(format!("{msg:?}"));
        sender.send(msg).unwrap();
    }
    assert_eq!(msgs.len(), 3, "{msgs:?}");
    assert_eq!(msgs[0], r#"Paste("fetch\n+q more")"#);
    let app = run_sample_loop(&sender, &receiver);
    assert_eq!(app.search.query, "fetch +q more");
    assert_eq!(app.session.settings().threshold_pct, 10.0, "+ was text");
    assert!(!app.is_tuned());
    assert!(app.quit, "the q pressed after the paste quits");
}

#[test]
fn under_a_listing_the_threshold_keys_reach_every_form_and_the_map_shows_each() {
    use schematax_engine::replay::listing::ListingForm;
    let mut app = latest_app();
    let effects = app.startup_effects();
    run_effects(&mut app, effects);
    press(&mut app, KeyCode::Char('x'));
    type_text(&mut app, "150K");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.session.context().tokens, 150_000);
    let form = |app: &App| {
        app.derived
            .activation
            .listing
            .as_ref()
            .unwrap()
            .listing
            .form
    };
    let mut seen = vec![form(&app)];
    let mut names_screen = None;
    while app.session.settings().threshold_pct > 0.0 {
        press(&mut app, KeyCode::Char('-'));
        let now = form(&app);
        let status = app.status.clone().unwrap_or_default();
        let words = match now {
            ListingForm::None => "no listing".to_string(),
            form => format!("{form} listing"),
        };
        assert!(status.contains(&words), "{status}");
        if seen.last() != Some(&now) {
            seen.push(now);
            if now == ListingForm::Names {
                names_screen = Some((app.session.settings().threshold_pct, screen(&app, 120, 40)));
            }
        }
    }
    assert_eq!(
        seen,
        [
            ListingForm::Full,
            ListingForm::Names,
            ListingForm::Mixed,
            ListingForm::None
        ]
    );
    // The first names step: the map has names cells, and the marker sits among them.
    let (pct, text) = names_screen.unwrap();
    let changes = schematax_engine::replay::listing::form_thresholds(
        &app.derived.form_budgets,
        app.session.settings().listing_max_tokens,
        150_000,
    );
    let full = changes
        .iter()
        .find(|(form, _)| *form == ListingForm::Full)
        .unwrap()
        .1;
    assert!(pct < full && full < 1.0, "{pct} {full}");
    let marked = text.lines().find(|l| l.contains('◆')).unwrap();
    assert!(marked.contains("▓◆") || marked.contains("◆▓"), "{text}");
    assert!(text.contains("names listing; mixed below "), "{text}");
    assert!(text.contains(&format!("full from {full}%")), "{text}");
    // The y axis is labelled down to where the forms change at 2M.
    let map_rows = text
        .lines()
        .filter(|l| l.contains("0.01% ·") || l.contains(" 0.1% ·"));
    assert_eq!(map_rows.count(), 2, "{text}");
}

#[test]
fn the_mode_says_what_auto_means_under_the_release_shown() {
    let mut app = latest_app();
    press(&mut app, KeyCode::Char('m'));
    let status = app.status.clone().unwrap();
    assert!(status.starts_with("enabled: on under Hermes"), "{status}");
    assert!(
        status.contains("whenever a tool can be deferred"),
        "{status}"
    );
    press(&mut app, KeyCode::Char('m'));
    press(&mut app, KeyCode::Char('m'));
    let status = app.status.clone().unwrap();
    assert!(
        status.contains("threshold_pct sizes the listing"),
        "{status}"
    );
    let mut seed = sample_app();
    press(&mut seed, KeyCode::Char('m'));
    press(&mut seed, KeyCode::Char('m'));
    press(&mut seed, KeyCode::Char('m'));
    let status = seed.status.clone().unwrap();
    assert_eq!(
        status,
        "enabled: auto under Hermes 0.17.0: active when the deferrable schemas reach threshold_pct of the context"
    );
}

#[test]
fn the_bridge_overlay_says_why_tool_search_is_inactive() {
    let bridge_words = |app: &mut App| {
        press(app, KeyCode::Char('L'));
        let Some(Overlay::Detail(detail, _)) = &app.overlay else {
            panic!("{:?}", app.overlay)
        };
        let words = detail.lines.join("\n");
        press(app, KeyCode::Esc);
        words
    };
    // Below the threshold: with the heaviest server off, far from 20,000 tokens.
    let mut app = sample_app();
    press(&mut app, KeyCode::Char(' '));
    assert!(!app.derived.activation.active);
    let words = bridge_words(&mut app);
    assert!(!words.contains("enabled: off"), "{words}");
    assert!(
        words.contains("below 10% of 200K (20,000 tokens)"),
        "{words}"
    );
    // Off: said so.
    press(&mut app, KeyCode::Char(' '));
    press(&mut app, KeyCode::Char('m'));
    press(&mut app, KeyCode::Char('m'));
    assert_eq!(app.session.settings().enabled, Mode::Off);
    assert_eq!(
        bridge_words(&mut app),
        "With enabled: off, every tool is sent as it is."
    );
}

#[test]
fn p_and_o_say_when_they_go_round_the_releases() {
    use schematax_tui::app::{ROUND_TO_NEWEST, ROUND_TO_OLDEST};
    let mut app = latest_app();
    let effects = press(&mut app, KeyCode::Char('P'));
    let oldest = Profile::released().next().unwrap();
    assert_eq!(
        app.status.as_deref(),
        Some(format!("{ROUND_TO_OLDEST}: switching to {oldest}...").as_str())
    );
    run_effects(&mut app, effects);
    assert_eq!(app.session.profile(), oldest);
    let status = app.status.clone().unwrap();
    assert!(
        status.starts_with(&format!("{ROUND_TO_OLDEST}: {oldest} (Hermes")),
        "{status}"
    );
    assert!(screen(&app, 120, 40).contains(ROUND_TO_OLDEST));
    // A step that does not go round says nothing of it.
    press_and_run(&mut app, KeyCode::Char('P'));
    let status = app.status.clone().unwrap();
    assert!(!status.contains("round"), "{status}");
    press_and_run(&mut app, KeyCode::Char('O'));
    press_and_run(&mut app, KeyCode::Char('O'));
    assert_eq!(app.session.profile(), Profile::newest());
    let status = app.status.clone().unwrap();
    assert!(status.starts_with(ROUND_TO_NEWEST), "{status}");
}

/// The sample under its default release, its start-up work done, after `presses` of the
/// agent key `a` (each agent's turn built as the worker builds it).
fn sample_on_agent(presses: usize) -> App {
    let mut app = latest_app();
    let effects = app.startup_effects();
    run_effects(&mut app, effects);
    for _ in 0..presses {
        press_and_run(&mut app, KeyCode::Char('a'));
    }
    app
}

/// The turn of the agent `app` models, built here as `report --agent` builds it: the
/// captures of the servers on, the view's context and tokenizer.
fn expected_turn(app: &App) -> schematax_engine::agents::turn::AgentTurn {
    use schematax_engine::agents::settings::AgentSettings;
    use schematax_engine::agents::turn::AgentTurn;
    let chosen = app.agent.as_ref().expect("an agent is chosen");
    let tokenizer =
        schematax_engine::tokenizers::LoadedTokenizer::shared(&app.session.tokenizer().tokenizer)
            .unwrap();
    let captures: Vec<ServerCapture> = app
        .inputs
        .captures
        .iter()
        .filter(|c| {
            (0..app.session.servers().len())
                .any(|s| app.session.servers()[s].name == c.server && app.session.is_connected(s))
        })
        .cloned()
        .collect();
    let settings = AgentSettings {
        context_window: app.session.context().tokens,
        ..AgentSettings::default()
    };
    AgentTurn::build(chosen.release, &captures, &settings, Some(&tokenizer)).unwrap()
}

#[test]
fn switching_to_claude_code_shows_its_turn() {
    use schematax_report::thousands;
    let mut app = sample_on_agent(0);
    // The agent switch starts its turn on a worker, never on the UI thread.
    let effects = press(&mut app, KeyCode::Char('a'));
    assert!(
        matches!(effects.as_slice(), [Effect::BuildAgentTurn { .. }]),
        "{effects:?}"
    );
    let building = screen(&app, 120, 40);
    assert!(
        building.contains("claude-code@2.1.328 building..."),
        "{building}"
    );
    run_effects(&mut app, effects);
    let chosen = app.agent.as_ref().unwrap();
    assert_eq!(chosen.agent.id, "claude-code");
    let turn = expected_turn(&app);
    assert_eq!(chosen.built.as_ref().unwrap().turn, turn);
    let text = screen(&app, 120, 40);
    // The header names the agent and what of it is modelled.
    assert!(
        text.contains(&format!("│ claude-code@{} (", turn.release.version)),
        "{text}"
    );
    assert!(text.contains("35 tools, 35 deferred"), "{text}");
    // Its figures, from the turn the report builds.
    let (before, after) = (
        turn.tokens_without_deferral().unwrap(),
        turn.tokens_per_turn().unwrap(),
    );
    for figure in [
        format!(
            "a turn {} -> {} claude-v3 tokens",
            thousands(before),
            thousands(after)
        ),
        format!(
            "listing {} · fixed texts {}",
            thousands(turn.listing.tokens.unwrap()),
            thousands(turn.fixed_tools.tokens.unwrap())
        ),
        format!(
            "instructions {} · one search {}",
            thousands(turn.instructions.tokens.unwrap()),
            thousands(turn.one_search.tokens.unwrap())
        ),
        "ENABLE_TOOL_SEARCH=unset".to_string(),
        "rule: always: ENABLE_TOOL_SEARCH unset or on".to_string(),
        "Claude Code has no threshold".to_string(),
    ] {
        assert!(
            text.contains(&figure),
            "{figure:?} is not on the screen:\n{text}"
        );
    }
    insta::assert_snapshot!(text);
    // P and O are Hermes's: they say so and switch nothing.
    let profile = app.session.profile();
    assert!(press(&mut app, KeyCode::Char('P')).is_empty());
    assert_eq!(app.session.profile(), profile);
    assert_eq!(
        app.status.as_deref(),
        Some(schematax_tui::app::RELEASES_ARE_HERMES)
    );
}

#[test]
fn an_agent_turn_follows_the_servers_switched_off_and_the_context() {
    let mut app = sample_on_agent(1);
    // firecrawl, the heaviest, is the first row: off, the turn is built again without it.
    let effects = press(&mut app, KeyCode::Char(' '));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::BuildAgentTurn { .. })),
        "{effects:?}"
    );
    run_effects(&mut app, effects);
    let built = app.agent.as_ref().unwrap().built.clone().unwrap();
    assert_eq!(built.turn.tools.len(), 35 - 26);
    assert_eq!(built.turn, expected_turn(&app));
    // The next context preset: the turn's context window follows the view's.
    press_and_run(&mut app, KeyCode::Char('c'));
    let built = app.agent.as_ref().unwrap().built.clone().unwrap();
    assert_eq!(built.settings.context_window, app.session.context().tokens);
    assert_eq!(built.turn, expected_turn(&app));
    // Nothing changed: no build is asked for.
    assert!(app.update(Msg::Resize).is_empty());
}

#[test]
fn enable_tool_search_auto_shows_claude_codes_threshold_on_the_map() {
    use schematax_report::thousands;
    let mut app =
        app_from_command_line(&["--agent", "claude-code", "--enable-tool-search", "auto:5"]);
    let effects = app.startup_effects();
    run_effects(&mut app, effects);
    let text = screen(&app, 120, 40);
    assert!(text.contains("claude-code@"), "{text}");
    assert!(text.contains("ENABLE_TOOL_SEARCH=auto:5"), "{text}");
    assert!(text.contains("auto:5 threshold: 5% of 200K"), "{text}");
    let turn = &app.agent.as_ref().unwrap().built.as_ref().unwrap().turn;
    let schematax_engine::agents::turn::Activation::TokenShare {
        threshold, measure, ..
    } = turn.activation
    else {
        panic!("{:?}", turn.activation)
    };
    let schematax_engine::agents::turn::ShareMeasure::Tokens { counted, overhead } = measure else {
        panic!("{measure:?}")
    };
    assert!(
        text.contains(&format!(
            "{} of {} tokens",
            thousands(counted - overhead),
            thousands(threshold)
        )),
        "{text}"
    );
}

#[test]
fn the_search_pane_ranks_with_codex_bm25() {
    use schematax_engine::agents::search::AgentIndex;
    let mut app = sample_on_agent(2);
    assert_eq!(app.agent.as_ref().unwrap().agent.id, "codex");
    press(&mut app, KeyCode::Char('/'));
    type_text(&mut app, "scrape a page");
    let turn = expected_turn(&app);
    let expected = AgentIndex::build(&turn, &app.inputs.captures)
        .unwrap()
        .search("scrape a page", turn.release.rules.loading.default_results);
    let shown = &app.agent.as_ref().unwrap().search.as_ref().unwrap().hits;
    assert_eq!(shown, &expected.hits);
    let text = screen(&app, 120, 40);
    assert!(text.contains("codex · bm25 · 8 results"), "{text}");
    for hit in &expected.hits {
        assert!(
            text.contains(&hit.name),
            "{} is not listed:\n{text}",
            hit.name
        );
    }
    insta::assert_snapshot!(text);
    // Enter opens the first hit's definition as Codex sends it.
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    let Some(Overlay::Detail(detail, _)) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    assert_eq!(
        detail.title,
        format!("{} as Codex CLI sends it", expected.hits[0].name)
    );
}

#[test]
fn agents_whose_search_cannot_be_replayed_say_why_in_one_line() {
    for (presses, id, why) in [
        (4, "cursor", "Cursor has no search tool"),
        (
            5,
            "gemini-cli",
            "Gemini CLI defers no tool, so nothing is searched",
        ),
        (6, "anthropic-api", "ranks on the provider's servers"),
    ] {
        let mut app = sample_on_agent(presses);
        assert_eq!(app.agent.as_ref().unwrap().agent.id, id);
        press(&mut app, KeyCode::Char('/'));
        type_text(&mut app, "scrape a page");
        // Wide enough for each sentence to stay on a line of its own.
        let wide = screen(&app, 200, 40);
        assert!(wide.contains(why), "{id}: {why:?} is missing:\n{wide}");
        assert!(wide.contains("has no threshold"), "{id}:\n{wide}");
        if id == "cursor" {
            insta::assert_snapshot!(screen(&app, 120, 40));
        }
    }
}

#[test]
fn back_to_hermes_every_frame_is_as_before() {
    let mut app = sample_on_agent(0);
    press(&mut app, KeyCode::Char('/'));
    type_text(&mut app, "scrape a page");
    press(&mut app, KeyCode::Enter);
    let before: Vec<_> = [(80, 24), (120, 40)]
        .iter()
        .map(|&(w, h)| drawn(&app, w, h))
        .collect();
    let seen: Vec<&str> = (0..8)
        .map(|_| {
            press_and_run(&mut app, KeyCode::Char('a'));
            app.agent.as_ref().map_or("hermes", |c| c.agent.id)
        })
        .collect();
    assert_eq!(
        seen,
        [
            "claude-code",
            "codex",
            "copilot-vscode",
            "cursor",
            "gemini-cli",
            "anthropic-api",
            "openai-responses",
            "hermes"
        ]
    );
    let after: Vec<_> = [(80, 24), (120, 40)]
        .iter()
        .map(|&(w, h)| drawn(&app, w, h))
        .collect();
    assert_eq!(before, after);
    // A goes the other way round.
    press_and_run(&mut app, KeyCode::Char('A'));
    assert_eq!(app.agent.as_ref().unwrap().agent.id, "openai-responses");
    press_and_run(&mut app, KeyCode::Char('a'));
    assert!(app.agent.is_none());
    assert_eq!(drawn(&app, 120, 40), before[1]);
}

#[test]
fn the_view_takes_another_agent_on_its_command_line() {
    // Not refused as a command that replays Hermes only: the view opens on the agent (here,
    // without a terminal, it stops at that).
    let output = crate::common::schematax(&["--agent", "codex"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("replays Hermes only"), "{stderr}");
    assert!(stderr.contains("needs a terminal"), "{stderr}");
    let mut app = app_from_command_line(&["--agent", "codex"]);
    assert_eq!(app.agent.as_ref().unwrap().label(), "codex@0.171.0");
    let effects = app.startup_effects();
    run_effects(&mut app, effects);
    assert_eq!(
        app.agent.as_ref().unwrap().built.as_ref().unwrap().turn,
        expected_turn(&app)
    );
    // Hermes named, or no agent: the view opens on Hermes as before.
    assert!(app_from_command_line(&["--agent", "hermes"])
        .agent
        .is_none());
    assert!(app_from_command_line(&[]).agent.is_none());
}
