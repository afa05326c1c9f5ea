//! The view's styles by meaning: every pane asks for "good", "dim" or "the focused border"
//! here, never for a colour, so the look changes in one place and tests can ask for meanings.

use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::BorderType;

use schematax_engine::analyses::lint::Severity;
use schematax_engine::replay::listing::ListingForm;

/// Secondary text: hints, units, a server that is off, axes, empty cells.
pub const DIM: Style = Style::new().fg(Color::DarkGray);
/// Text one step back from the main text: a tab not shown, a row of totals.
pub const MUTED: Style = Style::new().fg(Color::Gray);
/// What is good: a server on, Tool Search saving, a query finding its tool in the top k.
pub const GOOD: Style = Style::new().fg(Color::Green);
/// What is bad: a miss, the bridge costing more than it saves, an error.
pub const BAD: Style = Style::new().fg(Color::Red);
/// What needs a look: a hit on the query's words, work in progress, a status line, a rank
/// outside the top k.
pub const NOTICE: Style = Style::new().fg(Color::Yellow);
/// The mark of the current setting (the gauge's threshold, the map's ◆).
pub const MARK: Style = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
/// A word of a hit that matched the query.
pub const MATCHED: Style = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
/// The share bars of the Servers pane.
pub const BAR: Style = Style::new().fg(Color::Magenta);
/// The focused pane's border, the cursor, and keys in hints.
pub const ACCENT: Style = Style::new().fg(Color::Cyan);
/// Headings: the search prompt, an overlay's title, a key in the hint bar.
pub const HEADING: Style = Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD);
/// A heading of secondary text ("not admitted:").
pub const DIM_HEADING: Style = Style::new()
    .fg(Color::DarkGray)
    .add_modifier(Modifier::BOLD);
/// The tab shown in the lower pane.
pub const TAB_SHOWN: Style = Style::new()
    .fg(Color::White)
    .add_modifier(Modifier::BOLD)
    .add_modifier(Modifier::UNDERLINED);
/// The header bar.
pub const HEADER: Style = Style::new().bg(Color::Blue).fg(Color::White);
/// The header's warning count.
pub const HEADER_WARNING: Style = Style::new()
    .bg(Color::Yellow)
    .fg(Color::Black)
    .add_modifier(Modifier::BOLD);

/// The border of a pane: thick and in the accent colour when focused, plain and dim when not.
pub fn border(focused: bool) -> (BorderType, Style) {
    if focused {
        (BorderType::Thick, ACCENT)
    } else {
        (BorderType::Plain, DIM)
    }
}

/// Good or bad, as a colour for text.
pub fn verdict(good: bool) -> Style {
    if good {
        GOOD
    } else {
        BAD
    }
}

/// The ACTIVE / INACTIVE badge: dark text on green or red.
pub fn badge(active: bool) -> Style {
    Style::new()
        .bg(if active { Color::Green } else { Color::Red })
        .fg(Color::Black)
        .add_modifier(Modifier::BOLD)
}

/// A rank of the Eval pane: within the top k, outside it, or a miss.
pub fn rank(rank: Option<usize>, k: usize) -> Style {
    match rank {
        Some(r) if r <= k => GOOD,
        Some(_) => NOTICE,
        None => BAD,
    }
}

/// A lint finding's severity.
pub fn severity(severity: Severity) -> Style {
    match severity {
        Severity::Error => BAD,
        Severity::Warning => NOTICE,
        Severity::Info => Style::new().fg(Color::Blue),
    }
}

/// A listing form's glyph and style in the Listing map and its legend.
pub fn listing_form(form: ListingForm) -> (&'static str, Style) {
    match form {
        ListingForm::Full => ("█", GOOD),
        ListingForm::Names => ("▓", Style::new().fg(Color::Cyan)),
        ListingForm::Mixed => ("▒", NOTICE),
        ListingForm::Groups => ("░", BAR),
        ListingForm::None => ("·", DIM),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meanings_stay_apart() {
        assert_ne!(GOOD, BAD);
        assert_ne!(badge(true), badge(false));
        assert_ne!(border(true), border(false));
        let forms = [
            ListingForm::Full,
            ListingForm::Names,
            ListingForm::Mixed,
            ListingForm::Groups,
            ListingForm::None,
        ];
        for (i, a) in forms.iter().enumerate() {
            for b in &forms[i + 1..] {
                assert_ne!(listing_form(*a), listing_form(*b));
            }
        }
    }
}
