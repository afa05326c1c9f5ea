//! The command line's choices of format and theme: each mirrors an enum of `schematax-report`
//! with the same values and help texts, and converts into it, so that clap stays in this
//! crate.

use clap::ValueEnum;

/// Defines a command-line choice mirroring `$target`: the same variants, their doc comments
/// as help texts, and `From` into `$target`.
macro_rules! choice {
    ($(#[$meta:meta])* $name:ident => $target:path {
        $($(#[$variant_meta:meta])* $variant:ident,)+
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
        pub enum $name {
            $($(#[$variant_meta])* $variant,)+
        }

        impl From<$name> for $target {
            fn from(choice: $name) -> Self {
                match choice {
                    $($name::$variant => <$target>::$variant,)+
                }
            }
        }
    };
}

choice! {
    /// Output format of a report command.
    Format => schematax_report::Format {
        /// Aligned plain text for a terminal.
        #[default]
        Table,
        /// Pretty-printed JSON.
        Json,
        /// GitHub-flavoured Markdown.
        Markdown,
    }
}

choice! {
    /// `--format` of `report`: the report formats plus the HTML page.
    ReportFormat => schematax_report::ReportFormat {
        /// Aligned plain text for a terminal.
        #[default]
        Table,
        /// Pretty-printed JSON.
        Json,
        /// GitHub-flavoured Markdown.
        Markdown,
        /// One self-contained HTML page: headline, charts, activation map, lint, inputs.
        Html,
    }
}

choice! {
    /// `--format` of `card`.
    CardFormat => schematax_report::card::CardFormat {
        /// A standalone SVG document.
        #[default]
        Svg,
    }
}

choice! {
    /// Colours of the page and the card.
    Theme => schematax_report::markup::Theme {
        /// Dark text on white.
        #[default]
        Light,
        /// Light text on near-black.
        Dark,
    }
}

choice! {
    /// `--format` of `lint`.
    LintFormat => schematax_report::lint::LintFormat {
        /// Aligned plain text.
        #[default]
        Table,
        /// JSON.
        Json,
        /// GitHub-flavoured Markdown.
        Markdown,
        /// SARIF 2.1.0, for code-scanning tools.
        Sarif,
    }
}

choice! {
    /// `--format` of `check`.
    CheckFormat => schematax_report::check::CheckFormat {
        /// Aligned plain text for a terminal.
        #[default]
        Table,
        /// GitHub-flavoured Markdown, for a pull-request comment.
        Markdown,
        /// Pretty-printed JSON.
        Json,
        /// SARIF 2.1.0, for code-scanning tools.
        Sarif,
    }
}
