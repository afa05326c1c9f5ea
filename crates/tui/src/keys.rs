//! The one key map: it turns key events into [`Action`]s, and the hint bar and the help overlay
//! are generated from it, so the three never drift apart.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Everything a key can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Leave (prints the tuned `tools.tool_search` block when something was tuned).
    Quit,
    /// Give the terminal back to the shell until `fg` (Ctrl-Z).
    Suspend,
    /// Show or hide the help overlay.
    ToggleHelp,
    /// Focus the next pane.
    NextPane,
    /// Focus the previous pane.
    PrevPane,
    /// threshold_pct a step up: 1 from 1%, 0.1 from 0.1%, 0.01 below.
    ThresholdUp,
    /// threshold_pct a step down.
    ThresholdDown,
    /// threshold_pct a tenth of a step up (0.01 at least).
    ThresholdUpFine,
    /// threshold_pct a tenth of a step down.
    ThresholdDownFine,
    /// Next context-length preset.
    ContextNext,
    /// Previous context-length preset.
    ContextPrev,
    /// Type a context length.
    ContextEntry,
    /// auto -> on -> off.
    CycleMode,
    /// Focus the query line and type.
    StartSearch,
    /// Selection up / scroll up.
    Up,
    /// Selection down / scroll down.
    Down,
    /// A page up.
    PageUp,
    /// A page down.
    PageDown,
    /// Connect or disconnect the selected server.
    ToggleServer,
    /// Sort servers by cost or by name.
    CycleSort,
    /// Open the selection (a server's tools, a tool's detail).
    Open,
    /// Close the overlay / stop typing.
    Back,
    /// Search limit + 1.
    LimitUp,
    /// Search limit - 1.
    LimitDown,
    /// The Eval pane's k + 1 (recall@k only; not a setting).
    EvalKUp,
    /// The Eval pane's k - 1.
    EvalKDown,
    /// Show the `tool_search` payload of the current query.
    ShowPayload,
    /// Finish typing (keep the text).
    Submit,
    /// Capture the config's servers again, in the background.
    Recapture,
    /// Replay the next Hermes release (the newest wraps round to the oldest).
    NextRelease,
    /// Replay the previous Hermes release.
    PreviousRelease,
    /// Model the next agent (Hermes, Claude Code, Codex, ... round to Hermes).
    NextAgent,
    /// Model the previous agent.
    PreviousAgent,
    /// Show the tool_search definition the model sees, listing included.
    ShowListing,
    /// Show every warning: config fallbacks, skipped files, notes, collisions.
    ShowWarnings,
    /// listing_max_tokens + 500 (Hermes 0.20 on).
    ListingBudgetUp,
    /// listing_max_tokens - 500 (Hermes 0.20 on).
    ListingBudgetDown,
    /// listing on/off (Hermes 0.20 on).
    ToggleListing,
}

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyContext {
    /// Everywhere, overlays and typing included.
    Always,
    /// Everywhere except in overlays and while typing.
    Global,
    /// The Servers pane has the focus.
    Servers,
    /// The Search pane has the focus.
    Search,
    /// The Lint pane has the focus.
    Lint,
    /// The Eval pane has the focus.
    Eval,
    /// Typing in the query line or a prompt.
    Typing,
    /// The list of a server's tools.
    ToolList,
    /// A scrollable payload.
    Detail,
    /// The help overlay.
    Help,
    /// The warnings list.
    Warnings,
}

impl KeyContext {
    /// Whether only the context's own bindings apply (overlays and typing).
    pub fn is_modal(self) -> bool {
        matches!(
            self,
            KeyContext::Typing
                | KeyContext::ToolList
                | KeyContext::Detail
                | KeyContext::Help
                | KeyContext::Warnings
        )
    }

    /// Heading of the context in the help overlay.
    pub fn title(self) -> &'static str {
        match self {
            KeyContext::Always => "Anywhere",
            KeyContext::Global => "Main view",
            KeyContext::Servers => "Servers pane",
            KeyContext::Search => "Search pane",
            KeyContext::Lint => "Lint pane",
            KeyContext::Eval => "Eval pane",
            KeyContext::Typing => "While typing",
            KeyContext::ToolList => "Server tools",
            KeyContext::Detail => "Detail",
            KeyContext::Help => "Help",
            KeyContext::Warnings => "Warnings",
        }
    }
}

/// A key: a code and the modifiers that must be held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// The key code.
    pub code: KeyCode,
    /// Modifiers that must be held (Shift is ignored for characters).
    pub modifiers: KeyModifiers,
}

const fn key(code: KeyCode) -> Key {
    Key {
        code,
        modifiers: KeyModifiers::NONE,
    }
}

const fn ch(c: char) -> Key {
    key(KeyCode::Char(c))
}

const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        modifiers: KeyModifiers::CONTROL,
    }
}

impl Key {
    /// Whether `event` is this key.
    pub fn matches(&self, event: &KeyEvent) -> bool {
        // Shift is part of a character ('+', 'P') and of BackTab, which terminals report
        // with SHIFT held; it only counts for the other keys.
        let held = event.modifiers - KeyModifiers::SHIFT;
        match (self.code, event.code) {
            (KeyCode::Char(a), KeyCode::Char(b)) => a == b && held == self.modifiers,
            (KeyCode::BackTab, KeyCode::BackTab) => held == self.modifiers,
            (a, b) => a == b && event.modifiers == self.modifiers,
        }
    }

    /// The key as the help shows it.
    pub fn label(&self) -> String {
        let name = match self.code {
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Esc => "Esc".into(),
            KeyCode::Tab => "Tab".into(),
            KeyCode::BackTab => "S-Tab".into(),
            other => format!("{other:?}"),
        };
        if self.modifiers.contains(KeyModifiers::CONTROL) {
            format!("C-{name}")
        } else {
            name
        }
    }
}

/// One line of the key map.
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    /// Where it applies.
    pub context: KeyContext,
    /// The keys that trigger it.
    pub keys: &'static [Key],
    /// What it does.
    pub action: Action,
    /// Short description for the hint bar and the help.
    pub hint: &'static str,
    /// Whether the hint bar shows it.
    pub in_hint_bar: bool,
}

const fn bind(
    context: KeyContext,
    keys: &'static [Key],
    action: Action,
    hint: &'static str,
    in_hint_bar: bool,
) -> Binding {
    Binding {
        context,
        keys,
        action,
        hint,
        in_hint_bar,
    }
}

use KeyContext::{
    Always, Detail, Eval, Global, Help, Lint, Search, Servers, ToolList, Typing, Warnings,
};

/// The key map. The first binding that matches in the most specific context wins.
pub const KEYMAP: &[Binding] = &[
    bind(Global, &[ch('q')], Action::Quit, "quit", true),
    bind(Global, &[ch('?')], Action::ToggleHelp, "help", true),
    bind(
        Global,
        &[key(KeyCode::Tab)],
        Action::NextPane,
        "next pane",
        true,
    ),
    bind(
        Global,
        &[key(KeyCode::BackTab)],
        Action::PrevPane,
        "previous pane",
        false,
    ),
    bind(
        Global,
        &[ch('+'), ch('=')],
        Action::ThresholdUp,
        "threshold up",
        true,
    ),
    bind(
        Global,
        &[ch('-')],
        Action::ThresholdDown,
        "threshold down",
        true,
    ),
    bind(
        Global,
        &[ch(']')],
        Action::ThresholdUpFine,
        "threshold up, finely",
        false,
    ),
    bind(
        Global,
        &[ch('[')],
        Action::ThresholdDownFine,
        "threshold down, finely",
        false,
    ),
    bind(
        Global,
        &[ch('c')],
        Action::ContextNext,
        "next context preset",
        true,
    ),
    bind(
        Global,
        &[ch('C')],
        Action::ContextPrev,
        "previous context preset",
        false,
    ),
    bind(
        Global,
        &[ch('x')],
        Action::ContextEntry,
        "type a context length",
        false,
    ),
    bind(
        Global,
        &[ch('m')],
        Action::CycleMode,
        "mode auto/on/off",
        true,
    ),
    bind(Global, &[ch('/')], Action::StartSearch, "search", true),
    bind(
        Global,
        &[ch('R')],
        Action::Recapture,
        "re-capture the servers",
        false,
    ),
    bind(
        Global,
        &[ch('P')],
        Action::NextRelease,
        "next Hermes release",
        true,
    ),
    bind(
        Global,
        &[ch('O')],
        Action::PreviousRelease,
        "previous Hermes release",
        false,
    ),
    bind(Global, &[ch('a')], Action::NextAgent, "next agent", false),
    bind(
        Global,
        &[ch('A')],
        Action::PreviousAgent,
        "previous agent",
        false,
    ),
    bind(
        Global,
        &[ch('L')],
        Action::ShowListing,
        "show the bridge as sent",
        false,
    ),
    bind(Global, &[ch('w')], Action::ShowWarnings, "warnings", false),
    bind(
        Global,
        &[ch('}')],
        Action::ListingBudgetUp,
        "listing_max_tokens +500",
        false,
    ),
    bind(
        Global,
        &[ch('{')],
        Action::ListingBudgetDown,
        "listing_max_tokens -500",
        false,
    ),
    bind(
        Global,
        &[ch('l')],
        Action::ToggleListing,
        "listing on/off",
        false,
    ),
    bind(
        Servers,
        &[key(KeyCode::Up), ch('k')],
        Action::Up,
        "select up",
        false,
    ),
    bind(
        Servers,
        &[key(KeyCode::Down), ch('j')],
        Action::Down,
        "select down",
        false,
    ),
    bind(
        Servers,
        &[ch(' ')],
        Action::ToggleServer,
        "server on/off",
        true,
    ),
    bind(
        Servers,
        &[ch('s')],
        Action::CycleSort,
        "sort cost/name",
        true,
    ),
    bind(
        Servers,
        &[key(KeyCode::Enter)],
        Action::Open,
        "server's tools",
        true,
    ),
    bind(
        Search,
        &[key(KeyCode::Up), ch('k')],
        Action::Up,
        "select up",
        false,
    ),
    bind(
        Search,
        &[key(KeyCode::Down), ch('j')],
        Action::Down,
        "select down",
        false,
    ),
    bind(
        Search,
        &[key(KeyCode::Enter)],
        Action::Open,
        "tool detail",
        true,
    ),
    bind(Search, &[ch('>')], Action::LimitUp, "limit +1", true),
    bind(Search, &[ch('<')], Action::LimitDown, "limit -1", true),
    bind(
        Search,
        &[ch('p')],
        Action::ShowPayload,
        "tool_search payload",
        true,
    ),
    bind(
        Lint,
        &[key(KeyCode::Up), ch('k')],
        Action::Up,
        "select up",
        false,
    ),
    bind(
        Lint,
        &[key(KeyCode::Down), ch('j')],
        Action::Down,
        "select down",
        false,
    ),
    bind(
        Lint,
        &[key(KeyCode::Enter)],
        Action::Open,
        "tool detail",
        true,
    ),
    bind(
        Eval,
        &[key(KeyCode::Up), ch('k')],
        Action::Up,
        "select up",
        false,
    ),
    bind(
        Eval,
        &[key(KeyCode::Down), ch('j')],
        Action::Down,
        "select down",
        false,
    ),
    bind(
        Eval,
        &[key(KeyCode::Enter)],
        Action::Open,
        "query to Search",
        true,
    ),
    bind(Eval, &[ch('>')], Action::EvalKUp, "recall@k: k +1", true),
    bind(Eval, &[ch('<')], Action::EvalKDown, "recall@k: k -1", true),
    bind(Typing, &[key(KeyCode::Enter)], Action::Submit, "done", true),
    bind(Typing, &[key(KeyCode::Esc)], Action::Back, "cancel", true),
    bind(Typing, &[key(KeyCode::Up)], Action::Up, "select up", false),
    bind(
        Typing,
        &[key(KeyCode::Down)],
        Action::Down,
        "select down",
        false,
    ),
    bind(
        ToolList,
        &[key(KeyCode::Up), ch('k')],
        Action::Up,
        "select up",
        false,
    ),
    bind(
        ToolList,
        &[key(KeyCode::Down), ch('j')],
        Action::Down,
        "select down",
        false,
    ),
    bind(
        ToolList,
        &[key(KeyCode::PageUp)],
        Action::PageUp,
        "page up",
        false,
    ),
    bind(
        ToolList,
        &[key(KeyCode::PageDown)],
        Action::PageDown,
        "page down",
        false,
    ),
    bind(
        ToolList,
        &[key(KeyCode::Enter)],
        Action::Open,
        "tool detail",
        true,
    ),
    bind(
        ToolList,
        &[key(KeyCode::Esc), ch('q')],
        Action::Back,
        "back",
        true,
    ),
    bind(
        Detail,
        &[key(KeyCode::Up), ch('k')],
        Action::Up,
        "scroll up",
        true,
    ),
    bind(
        Detail,
        &[key(KeyCode::Down), ch('j')],
        Action::Down,
        "scroll down",
        true,
    ),
    bind(
        Detail,
        &[key(KeyCode::PageUp)],
        Action::PageUp,
        "page up",
        false,
    ),
    bind(
        Detail,
        &[key(KeyCode::PageDown), ch(' ')],
        Action::PageDown,
        "page down",
        true,
    ),
    bind(
        Detail,
        &[key(KeyCode::Esc), ch('q')],
        Action::Back,
        "back",
        true,
    ),
    bind(
        Help,
        &[key(KeyCode::Up), ch('k')],
        Action::Up,
        "scroll up",
        true,
    ),
    bind(
        Help,
        &[key(KeyCode::Down), ch('j')],
        Action::Down,
        "scroll down",
        true,
    ),
    bind(
        Help,
        &[key(KeyCode::PageUp)],
        Action::PageUp,
        "page up",
        false,
    ),
    bind(
        Help,
        &[key(KeyCode::PageDown), ch(' ')],
        Action::PageDown,
        "page down",
        false,
    ),
    bind(
        Help,
        &[key(KeyCode::Esc), ch('?'), ch('q')],
        Action::Back,
        "close help",
        true,
    ),
    bind(
        Warnings,
        &[key(KeyCode::Up), ch('k')],
        Action::Up,
        "scroll up",
        true,
    ),
    bind(
        Warnings,
        &[key(KeyCode::Down), ch('j')],
        Action::Down,
        "scroll down",
        true,
    ),
    bind(
        Warnings,
        &[key(KeyCode::Esc), ch('w'), ch('q')],
        Action::Back,
        "close",
        true,
    ),
    bind(Always, &[ctrl('c')], Action::Quit, "quit", false),
    bind(
        Always,
        &[ctrl('z')],
        Action::Suspend,
        "suspend; fg resumes",
        true,
    ),
];

/// What a key does on the loading screen: quit (the view's quit keys, or Esc), suspend, or
/// nothing.
pub fn loading_action(event: &KeyEvent) -> Option<Action> {
    if event.code == KeyCode::Esc {
        return Some(Action::Quit);
    }
    action_for(KeyContext::Servers, event).filter(|a| matches!(a, Action::Quit | Action::Suspend))
}

/// The action `event` asks for in `context`: the context's own bindings first, then the global
/// ones (overlays and typing are modal: only their own bindings apply).
pub fn action_for(context: KeyContext, event: &KeyEvent) -> Option<Action> {
    let find = |c: KeyContext| {
        KEYMAP
            .iter()
            .filter(|b| b.context == c)
            .find(|b| b.keys.iter().any(|k| k.matches(event)))
            .map(|b| b.action)
    };
    let modal = context.is_modal();
    find(KeyContext::Always)
        .or_else(|| find(context))
        .or_else(|| {
            if modal {
                None
            } else {
                find(KeyContext::Global)
            }
        })
}

/// The hint-bar entries for `context`: `(keys, hint)`.
pub fn hints(context: KeyContext) -> Vec<(String, &'static str)> {
    let modal = context.is_modal();
    KEYMAP
        .iter()
        .filter(|b| {
            b.in_hint_bar
                && (b.context == context
                    || (!modal && matches!(b.context, KeyContext::Global | KeyContext::Always)))
        })
        .map(|b| (b.keys[0].label(), b.hint))
        .collect()
}

/// The help's lines: a heading per context, then `(keys, hint)` of each binding.
pub fn help_lines() -> Vec<(Option<String>, &'static str)> {
    let mut lines = Vec::new();
    for context in HELP_ORDER {
        lines.push((None, context.title()));
        for binding in KEYMAP.iter().filter(|b| b.context == context) {
            let keys = binding
                .keys
                .iter()
                .map(Key::label)
                .collect::<Vec<_>>()
                .join(" ");
            lines.push((Some(keys), binding.hint));
        }
    }
    lines
}

/// The contexts in the order the help lists them.
pub const HELP_ORDER: [KeyContext; 11] = [
    Always, Global, Servers, Search, Lint, Eval, Typing, ToolList, Detail, Help, Warnings,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn event(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn context_bindings_win_over_global_ones() {
        let enter = event(KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(action_for(KeyContext::Servers, &enter), Some(Action::Open));
        let q = event(KeyCode::Char('q'), KeyModifiers::NONE);
        assert_eq!(action_for(KeyContext::Servers, &q), Some(Action::Quit));
        assert_eq!(action_for(KeyContext::Detail, &q), Some(Action::Back));
        assert_eq!(
            action_for(KeyContext::Typing, &q),
            None,
            "typing: q is text"
        );
        let plus = event(KeyCode::Char('+'), KeyModifiers::SHIFT);
        assert_eq!(
            action_for(KeyContext::Search, &plus),
            Some(Action::ThresholdUp)
        );
        let ctrl_c = event(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(action_for(KeyContext::Typing, &ctrl_c), Some(Action::Quit));
        let c = event(KeyCode::Char('c'), KeyModifiers::NONE);
        assert_eq!(
            action_for(KeyContext::Servers, &c),
            Some(Action::ContextNext)
        );
    }

    #[test]
    fn shift_tab_goes_back_whether_or_not_the_terminal_reports_shift() {
        for modifiers in [KeyModifiers::SHIFT, KeyModifiers::NONE] {
            let back = event(KeyCode::BackTab, modifiers);
            assert_eq!(
                action_for(KeyContext::Servers, &back),
                Some(Action::PrevPane)
            );
        }
        let ctrl_back = event(
            KeyCode::BackTab,
            KeyModifiers::CONTROL | KeyModifiers::SHIFT,
        );
        assert_eq!(action_for(KeyContext::Servers, &ctrl_back), None);
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        for (i, a) in KEYMAP.iter().enumerate() {
            for b in &KEYMAP[i + 1..] {
                if a.context == b.context {
                    for k in a.keys {
                        assert!(
                            !b.keys.contains(k),
                            "{:?} bound twice in {:?}",
                            k,
                            a.context
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn hints_come_from_the_map() {
        let servers = hints(KeyContext::Servers);
        assert!(servers.contains(&("Space".to_string(), "server on/off")));
        assert!(servers.contains(&("q".to_string(), "quit")));
        assert!(!hints(KeyContext::Detail).iter().any(|(_, h)| *h == "quit"));
    }
}
