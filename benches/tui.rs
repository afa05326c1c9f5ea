//! TUI benchmarks on catalogs of 10,000 and 100,000 tools, distinct (seeded synthetic tools,
//! `support::distinct_of`) and renamed copies of the real captures. Targets: a keystroke handled and
//! rendered within 8 ms and a server toggle within 16 ms at both sizes (the rebuild it starts
//! runs on a worker, measured apart); the first frame
//! (session built from the captures, frame drawn) on the sample within 100 ms, and at 100,000
//! tools within 200 ms.

mod support;

use criterion::{criterion_group, criterion_main, Criterion};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use schematax_engine::inputs::Inputs;
use schematax_engine::nouns::config::Config;
use schematax_engine::nouns::tools::ServerCapture;
use schematax_engine::replay::activation::Traffic;
use schematax_engine::replay::session::Overrides;
use schematax_tui::app::App;
use schematax_tui::msg::{Effect, Msg};
use schematax_tui::state::Pane;
use schematax_tui::view;
use std::hint::black_box;
use std::sync::Arc;

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// The catalog sizes measured: both in a bench run, the smaller one alone when `cargo test`
/// runs the benchmarks once in the debug build.
fn sizes() -> &'static [usize] {
    if std::env::args().any(|a| a == "--bench") {
        &[10_000, 100_000]
    } else {
        &[10_000]
    }
}

/// The catalog kinds: their names in the benchmark ids, and how a catalog of N tools is made.
type Kind = (&'static str, fn(usize) -> Vec<ServerCapture>);

const KINDS: [Kind; 2] = [
    ("distinct", support::distinct_of),
    ("copies", support::catalog_of),
];

fn inputs_of(size: usize, make: fn(usize) -> Vec<ServerCapture>) -> Inputs {
    Inputs {
        config: Config::default(),
        config_label: format!("{}k", size / 1000),
        config_path: None,
        captures: make(size),
        warnings: Vec::new(),
    }
}

fn keystrokes(c: &mut Criterion) {
    for &size in sizes() {
        for kind in KINDS {
            keystrokes_on(c, size, kind);
        }
    }
}

fn keystrokes_on(c: &mut Criterion, size: usize, (kind, make): Kind) {
    let inputs = inputs_of(size, make);
    let mut app = App::new(
        Arc::new(inputs),
        Overrides::default(),
        Traffic::default(),
        None,
    );
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    app.update(key(KeyCode::Char('/')));
    for c in "create a merge request".chars() {
        app.update(key(KeyCode::Char(c)));
    }
    let mut group = c.benchmark_group(format!("tui_{kind}_{}k", size / 1000));
    group.sample_size(20);
    // A character typed into the query (re-rank) and the frame drawn; then its removal.
    group.bench_function("type_a_character_and_render", |b| {
        let mut typed = false;
        b.iter(|| {
            app.update(key(if typed {
                KeyCode::Backspace
            } else {
                KeyCode::Char('s')
            }));
            typed = !typed;
            terminal.draw(|frame| view::render(&app, frame)).unwrap();
        });
    });
    app.update(key(KeyCode::Enter));
    while app.focus != Pane::Servers {
        app.update(key(KeyCode::Tab));
    }
    let before = app.session.total_available();
    toggle_and_rebuild(&mut app);
    assert!(
        app.session.total_available() < before,
        "Space switches the selected server off"
    );
    toggle_and_rebuild(&mut app);
    // Space on the selected server, as the UI thread sees it: the switch is recorded, the
    // rebuild handed to a worker (above 5,000 tools), the frame drawn.
    group.bench_function("toggle_a_server_and_render", |b| {
        b.iter(|| {
            for effect in app.update(key(KeyCode::Char(' '))) {
                black_box(effect);
            }
            terminal.draw(|frame| view::render(&app, frame)).unwrap();
        });
    });
    // The whole way to the new figures: the rebuild the worker runs (catalog, index,
    // listing), its result installed, the frame drawn.
    group.bench_function("toggle_rebuild_and_render", |b| {
        b.iter(|| {
            toggle_and_rebuild(&mut app);
            terminal.draw(|frame| view::render(&app, frame)).unwrap();
        });
    });
    group.bench_function("threshold_step_and_render", |b| {
        let mut up = false;
        b.iter(|| {
            app.update(key(KeyCode::Char(if up { '+' } else { '-' })));
            up = !up;
            terminal.draw(|frame| view::render(&app, frame)).unwrap();
        });
    });
    group.finish();
}

/// Presses Space on the selected server and runs the catalog rebuild it asks for in place, as
/// the worker would, installing its result (the lint and evaluation it then asks for are not
/// run).
fn toggle_and_rebuild(app: &mut App) {
    for effect in app.update(key(KeyCode::Char(' '))) {
        if let Effect::Rebuild { .. } = effect {
            if let Some(msg) = effect.run(&|_| {}) {
                black_box(app.update(msg));
            }
        }
    }
}

fn first_frame(c: &mut Criterion) {
    let large = sizes().last().copied().unwrap_or(10_000);
    let mut group = c.benchmark_group("first_frame");
    group.sample_size(10);
    for (kind, make) in KINDS {
        let inputs = Arc::new(inputs_of(large, make));
        group.bench_function(format!("{}k_{kind}_tools", large / 1000), |b| {
            b.iter(|| {
                let app = App::new(
                    Arc::clone(&inputs),
                    Overrides::default(),
                    Traffic::default(),
                    None,
                );
                let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
                terminal.draw(|frame| view::render(&app, frame)).unwrap();
            });
        });
    }
    group.finish();
    c.bench_function("first_frame_on_the_sample", |b| {
        b.iter(|| {
            let app = App::new(
                Arc::new(Inputs::sample()),
                Overrides::default(),
                Traffic::default(),
                None,
            );
            let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
            terminal.draw(|frame| view::render(&app, frame)).unwrap();
        });
    });
}

criterion_group!(benches, keystrokes, first_frame);
criterion_main!(benches);
