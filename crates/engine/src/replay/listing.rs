//! The catalog listing of releases from 0.20.0 (ENGINE-2026-09.md §2): the budget `threshold_pct`
//! sets, the short description of each tool, and the degrading forms (full, names, mixed,
//! groups, none) embedded in the `tool_search` description.
//!
//! Sizes are computed per group and form once, so finding the form is arithmetic; the text is
//! written only for the form chosen.

use rayon::prelude::*;
use std::fmt;

use crate::nouns::json_text::{CharCounter, JsonSink};
use schematax_releases::SentenceEnd;

/// Percentage leg of the budget when the context length is unknown (0).
pub const UNKNOWN_CONTEXT_LISTING_TOKENS: u64 = 10_000;
/// Longest short description, in characters, before the ellipsis.
pub const SHORT_DESCRIPTION_CHARS: usize = 60;
/// The first line of every listing.
pub const LISTING_HEADER: &str =
    "Deferred tool catalog (call schemas via `tool_describe`, invoke via `tool_call`):";

/// How much of the catalog the listing shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListingForm {
    /// Every tool with its short description.
    Full,
    /// Every tool's name.
    Names,
    /// Names, with the largest servers summarised.
    Mixed,
    /// Every server summarised.
    Groups,
    /// No listing (nothing fits, or `listing: off`).
    None,
}

impl ListingForm {
    /// `full`, `names`, `mixed`, `groups` or `none`.
    pub fn as_str(self) -> &'static str {
        match self {
            ListingForm::Full => "full",
            ListingForm::Names => "names",
            ListingForm::Mixed => "mixed",
            ListingForm::Groups => "groups",
            ListingForm::None => "none",
        }
    }

    /// The tier of an active session with this form: 1 when tools are named, 2 otherwise.
    pub fn tier(self) -> u8 {
        match self {
            ListingForm::Full | ListingForm::Names | ListingForm::Mixed => 1,
            ListingForm::Groups | ListingForm::None => 2,
        }
    }
}

impl fmt::Display for ListingForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `max(0, min(listing_max_tokens, floor(context * threshold_pct / 100)))`; an unknown
/// context uses 10000 for the percentage leg.
pub fn listing_budget(listing_max_tokens: u32, context_length: u64, threshold_pct: f64) -> u64 {
    let leg = if context_length == 0 {
        UNKNOWN_CONTEXT_LISTING_TOKENS
    } else {
        crate::replay::threshold::threshold_tokens(context_length, threshold_pct)
    };
    leg.min(u64::from(listing_max_tokens))
}

/// Where tuning `threshold_pct` changes the listing's form at `context_length`: for each form
/// of `form_budgets` (a catalog's [`CatalogListing::form_budgets`]), the least threshold_pct,
/// in hundredths as the settings are written, whose budget reaches the form's. A form beyond
/// `listing_max_tokens` is never reached and left out. Empty for an unknown context (0),
/// where threshold_pct does not size the budget.
pub fn form_thresholds(
    form_budgets: &[(ListingForm, u64)],
    listing_max_tokens: u32,
    context_length: u64,
) -> Vec<(ListingForm, f64)> {
    if context_length == 0 {
        return Vec::new();
    }
    let budget_at = |hundredths: u64| {
        listing_budget(
            listing_max_tokens,
            context_length,
            hundredths as f64 / 100.0,
        )
    };
    const ALL: u64 = 100 * 100;
    form_budgets
        .iter()
        .filter(|&&(_, least)| budget_at(ALL) >= least)
        .map(|&(form, least)| {
            // The least hundredth in [0, 100%] whose budget reaches `least` (the budget grows
            // with threshold_pct).
            let (mut low, mut high) = (0, ALL);
            while low < high {
                let mid = low + (high - low) / 2;
                if budget_at(mid) >= least {
                    high = mid;
                } else {
                    low = mid + 1;
                }
            }
            (form, low as f64 / 100.0)
        })
        .collect()
}

/// Python's `str.isspace` (Rust's `is_whitespace` plus the separators U+001C..U+001F).
fn python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Whether a word character in Python's `re` sense.
fn word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// A tool's short description: whitespace collapsed; cut at the first sentence end by `rule`;
/// over 60 characters, cut back to a word and `…` appended.
pub fn short_description(description: &str, rule: SentenceEnd) -> String {
    // Only the first characters decide it: a sentence end at or before the limit (with the
    // character after it and the few before it), or else the limit's characters, cut back to a
    // word. So the whitespace is collapsed as far as that, not through a long description.
    let text: Vec<char> = description
        .split(python_space)
        .filter(|w| !w.is_empty())
        .enumerate()
        .flat_map(|(i, word)| (i > 0).then_some(' ').into_iter().chain(word.chars()))
        .take(SHORT_DESCRIPTION_CHARS + 1)
        .collect();
    let ends_abbreviation = |at: usize| {
        ["e.g", "i.e", "etc"].iter().any(|abbr| {
            let abbr: Vec<char> = abbr.chars().collect();
            at >= abbr.len()
                && text[at - abbr.len()..at] == abbr[..]
                && (at == abbr.len() || !word_char(text[at - abbr.len() - 1]))
        })
    };
    let end = match rule {
        // The first mark; a `.` is kept, `!` and `?` are not.
        SentenceEnd::FirstMark => text
            .iter()
            .position(|c| matches!(c, '.' | '!' | '?' | '\n'))
            .map(|i| i + usize::from(text[i] == '.')),
        SentenceEnd::MarkThenSpace => text.iter().enumerate().find_map(|(i, &c)| {
            let is_end = matches!(c, '.' | '!' | '?')
                && text.get(i + 1).is_none_or(|&next| python_space(next))
                && !ends_abbreviation(i);
            is_end.then_some(i + 1)
        }),
    };
    let sentence = &text[..end.unwrap_or(text.len())];
    if sentence.len() <= SHORT_DESCRIPTION_CHARS {
        return sentence.iter().collect();
    }
    let clipped = &sentence[..SHORT_DESCRIPTION_CHARS];
    let clipped = match clipped.iter().rposition(|&c| c == ' ') {
        Some(space) => &clipped[..space],
        None => clipped,
    };
    let mut out: String = clipped.iter().collect();
    let kept = out.trim_end_matches([',', ';', ':', ' ']).len();
    out.truncate(kept);
    out.push('…');
    out
}

/// One server's group of the listing: its label and tools (name, short description), sorted.
#[derive(Debug, Clone, PartialEq)]
pub struct ListingGroup {
    /// The server key (`mcp-X` shown as `X`).
    pub label: String,
    /// `(name, short description)`, sorted.
    pub tools: Vec<(String, String)>,
}

/// How one group is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GroupMode {
    Full,
    Names,
    Summary,
}

impl ListingGroup {
    /// A group from its label and `(name, description)` pairs (any order), short
    /// descriptions cut by `rule`.
    pub fn new<'a>(
        label: &str,
        rule: SentenceEnd,
        tools: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Self {
        let shorts: Vec<(&str, String)> = tools
            .into_iter()
            .map(|(name, description)| (name, short_description(description, rule)))
            .collect();
        ListingGroup::from_shorts(label, shorts.iter().map(|(n, s)| (*n, s.as_str())))
    }

    /// A group from its label and `(name, short description)` pairs (any order).
    pub fn from_shorts<'a>(
        label: &str,
        tools: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Self {
        let mut tools: Vec<(String, String)> = tools
            .into_iter()
            .map(|(name, short)| (name.to_string(), short.to_string()))
            .collect();
        tools.sort();
        ListingGroup {
            label: label.to_string(),
            tools,
        }
    }

    /// Writes the group in `mode`.
    fn write<S: JsonSink + ?Sized>(&self, mode: GroupMode, out: &mut S) {
        let count = self.tools.len();
        match mode {
            GroupMode::Summary => {
                out.push_str(&self.label);
                out.push_str(&format!(
                    " ({count} tools — names not listed; discover via `tool_search`)"
                ));
            }
            GroupMode::Full | GroupMode::Names => {
                out.push_str(&self.label);
                out.push_str(&format!(" tools ({count}):"));
                for (i, (name, short)) in self.tools.iter().enumerate() {
                    if mode == GroupMode::Full {
                        out.push_str("\n- ");
                        out.push_str(name);
                        if !short.is_empty() {
                            out.push_str(": ");
                            out.push_str(short);
                        }
                    } else {
                        out.push_str(if i == 0 { "\n" } else { ", " });
                        out.push_str(name);
                    }
                }
            }
        }
    }
}

/// A sink measuring text both as characters and as characters inside a JSON string.
#[derive(Debug, Default, Clone, Copy)]
struct Measure {
    chars: CharCounter,
    json: CharCounter,
}

impl JsonSink for Measure {
    fn push_str(&mut self, text: &str) {
        self.chars.push_str(text);
        self.json.push_escaped(text);
    }
}

/// The listing chosen for a budget.
#[derive(Debug, Clone, PartialEq)]
pub struct Listing {
    /// Its form.
    pub form: ListingForm,
    /// Characters of its text (0 for none).
    pub chars: u64,
    /// Characters its text takes inside a JSON string (newlines and quotes escaped).
    pub json_chars: u64,
    /// How each group is written (empty for none).
    modes: Vec<GroupMode>,
}

impl Listing {
    /// No listing.
    pub fn none() -> Listing {
        Listing {
            form: ListingForm::None,
            chars: 0,
            json_chars: 0,
            modes: Vec::new(),
        }
    }
}

/// A catalog's listing groups with each group's size in every mode, measured once, so a
/// listing for any budget is chosen by arithmetic.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CatalogListing {
    groups: Vec<ListingGroup>,
    /// Per group: full, names and summary sizes, each with its joining newline.
    sizes: Vec<[(u64, u64); 3]>,
    /// Size of the header line.
    header: (u64, u64),
    /// Chars of the listing with every group in full, and with every group as names.
    full_chars: u64,
    names_chars: u64,
    /// The order groups are summarised in when all names do not fit: largest names block
    /// first, ties by label.
    collapse_order: Vec<usize>,
    /// Chars of the listing with every group as names but the first `i + 1` of
    /// `collapse_order` summarised, for each `i`.
    collapsed_chars: Vec<u64>,
    /// The least of `collapsed_chars[..=i]`, for each `i`: the first listing that fits a
    /// budget is found by bisection, so a choice costs no sum over the groups.
    least_collapsed_chars: Vec<u64>,
}

impl CatalogListing {
    /// Measures `groups`; they are sorted by label here.
    pub fn new(mut groups: Vec<ListingGroup>) -> CatalogListing {
        groups.sort_by(|a, b| a.label.cmp(&b.label));
        let measure = |write: &dyn Fn(&mut Measure)| {
            let mut m = Measure::default();
            write(&mut m);
            (m.chars.0, m.json.0)
        };
        // On every core: thousands of groups, each written three ways.
        let sizes = groups
            .par_iter()
            .map(|g| {
                [GroupMode::Full, GroupMode::Names, GroupMode::Summary].map(|mode| {
                    measure(&|m: &mut Measure| {
                        m.push_str("\n");
                        g.write(mode, m);
                    })
                })
            })
            .collect();
        let header = measure(&|m: &mut Measure| m.push_str(LISTING_HEADER));
        let sizes: Vec<[(u64, u64); 3]> = sizes;
        let chars_as = |mode: GroupMode| -> u64 {
            header.0 + sizes.iter().map(|size| size[mode as usize].0).sum::<u64>()
        };
        let (full_chars, names_chars) = (chars_as(GroupMode::Full), chars_as(GroupMode::Names));
        let names = GroupMode::Names as usize;
        let summary = GroupMode::Summary as usize;
        let mut collapse_order: Vec<usize> = (0..groups.len()).collect();
        collapse_order.sort_by(|&a, &b| {
            sizes[b][names]
                .0
                .cmp(&sizes[a][names].0)
                .then_with(|| groups[a].label.cmp(&groups[b].label))
        });
        let collapsed_chars: Vec<u64> = collapse_order
            .iter()
            .scan(names_chars, |chars, &group| {
                *chars = *chars - sizes[group][names].0 + sizes[group][summary].0;
                Some(*chars)
            })
            .collect();
        let least_collapsed_chars = collapsed_chars
            .iter()
            .scan(u64::MAX, |least, &chars| {
                *least = (*least).min(chars);
                Some(*least)
            })
            .collect();
        CatalogListing {
            groups,
            sizes,
            header,
            full_chars,
            names_chars,
            collapse_order,
            collapsed_chars,
            least_collapsed_chars,
        }
    }

    /// The groups, sorted by label.
    pub fn groups(&self) -> &[ListingGroup] {
        &self.groups
    }

    fn total(&self, modes: &[GroupMode]) -> (u64, u64) {
        modes
            .iter()
            .zip(&self.sizes)
            .fold(self.header, |(chars, json), (mode, size)| {
                let (c, j) = size[*mode as usize];
                (chars + c, json + j)
            })
    }

    /// The form of the listing for `budget` tokens: all full, else all names, else names with
    /// the largest groups summarised one by one (largest names block first, ties by label),
    /// else none; with, for a mixed or grouped listing, how many groups are summarised. A
    /// listing fits when `ceil(chars / 4) <= budget`.
    fn form_for(&self, budget: u64) -> (ListingForm, usize) {
        let fits = |chars: u64| chars.div_ceil(4) <= budget;
        if self.groups.is_empty() {
            return (ListingForm::None, 0);
        }
        if fits(self.full_chars) {
            return (ListingForm::Full, 0);
        }
        if fits(self.names_chars) {
            return (ListingForm::Names, 0);
        }
        let groups = self.groups.len();
        match self
            .least_collapsed_chars
            .partition_point(|&least| !fits(least))
        {
            first if first == groups => (ListingForm::None, 0),
            last if last + 1 == groups => (ListingForm::Groups, groups),
            first => (ListingForm::Mixed, first + 1),
        }
    }

    /// Chooses the listing for `budget` tokens (see `CatalogListing::form_for`).
    pub fn choose(&self, budget: u64) -> Listing {
        let (form, summarised) = self.form_for(budget);
        let mut modes = vec![
            match form {
                ListingForm::None => return Listing::none(),
                ListingForm::Full => GroupMode::Full,
                ListingForm::Names | ListingForm::Mixed | ListingForm::Groups => GroupMode::Names,
            };
            self.groups.len()
        ];
        for &group in &self.collapse_order[..summarised] {
            modes[group] = GroupMode::Summary;
        }
        let (chars, json_chars) = self.total(&modes);
        Listing {
            form,
            chars,
            json_chars,
            modes,
        }
    }

    /// The least budget at which each form is chosen, in increasing budget (and so
    /// decreasing degradation): the points where the form changes.
    pub fn form_budgets(&self) -> Vec<(ListingForm, u64)> {
        if self.groups.is_empty() {
            return Vec::new();
        }
        let mut candidates: Vec<u64> = [0, self.full_chars, self.names_chars]
            .into_iter()
            .chain(self.collapsed_chars.iter().copied())
            .map(|chars| chars.div_ceil(4))
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        let mut changes: Vec<(ListingForm, u64)> = Vec::new();
        for budget in candidates {
            let (form, _) = self.form_for(budget);
            if changes.last().is_none_or(|(last, _)| *last != form) {
                changes.push((form, budget));
            }
        }
        changes
    }

    /// The text of a listing chosen from this catalog (`None` for no listing).
    pub fn text(&self, listing: &Listing) -> Option<String> {
        if listing.form == ListingForm::None {
            return None;
        }
        let mut text = String::with_capacity(listing.chars as usize * 2);
        text.push_str(LISTING_HEADER);
        for (group, mode) in self.groups.iter().zip(&listing.modes) {
            text.push('\n');
            group.write(*mode, &mut text);
        }
        Some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server with twelve long names and one with a single tool.
    fn groups() -> Vec<ListingGroup> {
        let names: Vec<String> = (0..12)
            .map(|i| format!("mcp__big__tool_number_{i:02}"))
            .collect();
        vec![
            ListingGroup::new(
                "big",
                SentenceEnd::MarkThenSpace,
                names.iter().map(|n| (n.as_str(), "Does a thing. More.")),
            ),
            ListingGroup::new(
                "small",
                SentenceEnd::MarkThenSpace,
                [("mcp__small__x", "Only tool.")],
            ),
        ]
    }

    /// The budget in which `text` just fits.
    fn tokens(text: &str) -> u64 {
        (text.chars().count() as u64).div_ceil(4)
    }

    #[test]
    fn budget_takes_the_smaller_leg() {
        assert_eq!(listing_budget(4000, 200_000, 5.0), 4000);
        assert_eq!(listing_budget(4000, 8_000, 5.0), 400);
        assert_eq!(listing_budget(200, 0, 0.0), 200);
        assert_eq!(listing_budget(60_000, 0, 1.0), 10_000);
        assert_eq!(listing_budget(4000, 8_000, 0.0), 0);
    }

    #[test]
    fn form_thresholds_are_the_least_hundredths_that_reach_each_form() {
        let budgets = [
            (ListingForm::None, 0),
            (ListingForm::Groups, 75),
            (ListingForm::Names, 300),
            (ListingForm::Full, 660),
        ];
        // 150K: 0.05% is 75 tokens, 0.2% is 300, 0.44% is 660.
        assert_eq!(
            form_thresholds(&budgets, 4000, 150_000),
            [
                (ListingForm::None, 0.0),
                (ListingForm::Groups, 0.05),
                (ListingForm::Names, 0.2),
                (ListingForm::Full, 0.44),
            ]
        );
        for (form, pct) in form_thresholds(&budgets, 4000, 150_000) {
            let least = budgets.iter().find(|(f, _)| *f == form).unwrap().1;
            assert!(listing_budget(4000, 150_000, pct) >= least, "{form}");
            if pct > 0.0 {
                let below = pct - 0.01;
                assert!(listing_budget(4000, 150_000, below) < least, "{form}");
            }
        }
        // Not a round hundredth: 661 tokens of 150K need 0.4407%, so 0.45.
        assert_eq!(
            form_thresholds(&[(ListingForm::Full, 661)], 4000, 150_000),
            [(ListingForm::Full, 0.45)]
        );
        // listing_max_tokens below a form's budget: no threshold_pct reaches it.
        assert_eq!(
            form_thresholds(&budgets, 500, 150_000),
            [
                (ListingForm::None, 0.0),
                (ListingForm::Groups, 0.05),
                (ListingForm::Names, 0.2),
            ]
        );
        // Nor does a form beyond 100% of a small context (660 of 500).
        assert_eq!(
            form_thresholds(&budgets, 4000, 500),
            [
                (ListingForm::None, 0.0),
                (ListingForm::Groups, 15.0),
                (ListingForm::Names, 60.0)
            ]
        );
        assert!(form_thresholds(&budgets, 4000, 0).is_empty());
    }

    #[test]
    fn forms_degrade_with_the_budget() {
        let groups = groups();
        let big: Vec<String> = (0..12)
            .map(|i| format!("mcp__big__tool_number_{i:02}"))
            .collect();
        let full_text =
            format!(
            "{LISTING_HEADER}\nbig tools (12):\n{}\nsmall tools (1):\n- mcp__small__x: Only tool.",
            big.iter().map(|n| format!("- {n}: Does a thing.")).collect::<Vec<_>>().join("\n")
        );
        let names_text = format!(
            "{LISTING_HEADER}\nbig tools (12):\n{}\nsmall tools (1):\nmcp__small__x",
            big.join(", ")
        );
        let mixed_text = format!(
            "{LISTING_HEADER}\nbig (12 tools — names not listed; discover via `tool_search`)\nsmall tools (1):\nmcp__small__x"
        );
        let groups_text = format!(
            "{LISTING_HEADER}\nbig (12 tools — names not listed; discover via `tool_search`)\nsmall (1 tools — names not listed; discover via `tool_search`)"
        );
        let cases = [
            (tokens(&full_text), ListingForm::Full, Some(&full_text)),
            (
                tokens(&full_text) - 1,
                ListingForm::Names,
                Some(&names_text),
            ),
            (
                tokens(&names_text) - 1,
                ListingForm::Mixed,
                Some(&mixed_text),
            ),
            (tokens(&mixed_text) - 1, ListingForm::None, None),
        ];
        let catalog = CatalogListing::new(groups.clone());
        for (budget, form, text) in cases {
            let listing = catalog.choose(budget);
            assert_eq!(listing.form, form, "budget {budget}");
            assert_eq!(catalog.text(&listing).as_ref(), text, "budget {budget}");
            if let Some(text) = text {
                assert_eq!(listing.chars, text.chars().count() as u64);
                let newlines = text.matches('\n').count() as u64;
                assert_eq!(listing.json_chars, listing.chars + newlines);
            }
        }
        // A single large server summarised is the groups form.
        let one = CatalogListing::new(groups[..1].to_vec());
        let summary = format!(
            "{LISTING_HEADER}\nbig (12 tools — names not listed; discover via `tool_search`)"
        );
        let listing = one.choose(tokens(&summary));
        assert_eq!(listing.form, ListingForm::Groups);
        assert_eq!(one.text(&listing).as_ref(), Some(&summary));
        assert!(groups_text.len() > mixed_text.len());
        assert_eq!(
            CatalogListing::default().choose(1000).form,
            ListingForm::None
        );
        assert_eq!(
            catalog.form_budgets(),
            [
                (ListingForm::None, 0),
                (ListingForm::Mixed, tokens(&mixed_text)),
                (ListingForm::Names, tokens(&names_text)),
                (ListingForm::Full, tokens(&full_text)),
            ]
        );
    }

    /// The choice as first written: every summarising step summed over all the groups.
    fn choose_by_sums(catalog: &CatalogListing, budget: u64) -> Listing {
        let g = catalog.groups.len();
        let fits = |modes: &[GroupMode]| catalog.total(modes).0.div_ceil(4) <= budget;
        let listing = |form, modes: Vec<GroupMode>| {
            let (chars, json_chars) = catalog.total(&modes);
            Listing {
                form,
                chars,
                json_chars,
                modes,
            }
        };
        if g == 0 {
            return Listing::none();
        }
        for (form, mode) in [
            (ListingForm::Full, GroupMode::Full),
            (ListingForm::Names, GroupMode::Names),
        ] {
            if fits(&vec![mode; g]) {
                return listing(form, vec![mode; g]);
            }
        }
        let mut order: Vec<usize> = (0..g).collect();
        let names = |i: usize| catalog.sizes[i][GroupMode::Names as usize].0;
        order.sort_by(|&a, &b| {
            names(b)
                .cmp(&names(a))
                .then_with(|| catalog.groups[a].label.cmp(&catalog.groups[b].label))
        });
        let mut modes = vec![GroupMode::Names; g];
        for (summarised, &group) in order.iter().enumerate() {
            modes[group] = GroupMode::Summary;
            if fits(&modes) {
                let form = if summarised + 1 == g {
                    ListingForm::Groups
                } else {
                    ListingForm::Mixed
                };
                return listing(form, modes);
            }
        }
        Listing::none()
    }

    #[test]
    fn the_choice_by_bisection_is_the_choice_by_sums() {
        // Groups of many shapes, some whose summary is longer than their names.
        let mut seed = 7u64;
        let mut next = |below: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % below
        };
        for catalog_size in [1, 2, 5, 40] {
            let names: Vec<Vec<String>> = (0..catalog_size)
                .map(|g| {
                    (0..1 + next(6))
                        .map(|t| format!("mcp_s{g}_{}{t}", "x".repeat(next(30) as usize)))
                        .collect()
                })
                .collect();
            let groups = names
                .iter()
                .enumerate()
                .map(|(g, tools)| {
                    let label = format!("s{}", next(1000) + g as u64 * 1000);
                    ListingGroup::new(
                        &label,
                        SentenceEnd::MarkThenSpace,
                        tools
                            .iter()
                            .map(|n| (n.as_str(), "Does one thing well. More.")),
                    )
                })
                .collect();
            let catalog = CatalogListing::new(groups);
            let most = catalog.full_chars.div_ceil(4) + 2;
            for budget in 0..=most {
                assert_eq!(
                    catalog.choose(budget),
                    choose_by_sums(&catalog, budget),
                    "{catalog_size} groups, budget {budget}"
                );
            }
            let changes = catalog.form_budgets();
            for pair in changes.windows(2) {
                assert!(
                    pair[0].1 < pair[1].1 && pair[0].0 != pair[1].0,
                    "{changes:?}"
                );
            }
            for (form, budget) in changes {
                assert_eq!(choose_by_sums(&catalog, budget).form, form);
                if budget > 0 {
                    assert_ne!(choose_by_sums(&catalog, budget - 1).form, form);
                }
            }
        }
    }

    #[test]
    fn short_descriptions() {
        let cases = [
            ("Open an issue. Second sentence dropped.", "Open an issue."),
            (
                "Use e.g. this, i.e. that, etc. and more. Next.",
                "Use e.g. this, i.e. that, etc. and more.",
            ),
            ("Why? Because!", "Why?"),
            (
                "  multiple   spaces\n\tand newlines.  ",
                "multiple spaces and newlines.",
            ),
            ("", ""),
            ("Version 1.2 is out", "Version 1.2 is out"),
            ("Stop.Here", "Stop.Here"),
            ("See the.e.g. list", "See the.e.g. list"),
            (
                "Item one, item two; item three: item four and a lot more words here to clip",
                "Item one, item two; item three: item four and a lot more…",
            ),
        ];
        for (text, short) in cases {
            assert_eq!(
                short_description(text, SentenceEnd::MarkThenSpace),
                short,
                "{text:?}"
            );
        }
        assert_eq!(
            short_description(&"A".repeat(70), SentenceEnd::MarkThenSpace),
            format!("{}…", "A".repeat(60))
        );
    }

    /// The short description read from the whole text, its whitespace collapsed throughout
    /// (as Hermes reads it): the reference the early stop must agree with.
    fn short_description_of_whole_text(description: &str, rule: SentenceEnd) -> String {
        let text: Vec<char> = description
            .split(python_space)
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .collect();
        let after_abbreviation = |at: usize| {
            ["e.g", "i.e", "etc"].iter().any(|abbr| {
                let abbr: Vec<char> = abbr.chars().collect();
                at >= abbr.len()
                    && text[at - abbr.len()..at] == abbr[..]
                    && (at == abbr.len() || !word_char(text[at - abbr.len() - 1]))
            })
        };
        let end = match rule {
            SentenceEnd::FirstMark => text
                .iter()
                .position(|c| matches!(c, '.' | '!' | '?' | '\n'))
                .map(|i| i + usize::from(text[i] == '.')),
            SentenceEnd::MarkThenSpace => (0..text.len()).find_map(|i| {
                let is_end = matches!(text[i], '.' | '!' | '?')
                    && text.get(i + 1).is_none_or(|&next| python_space(next))
                    && !after_abbreviation(i);
                is_end.then_some(i + 1)
            }),
        };
        let sentence = &text[..end.unwrap_or(text.len())];
        if sentence.len() <= SHORT_DESCRIPTION_CHARS {
            return sentence.iter().collect();
        }
        let clipped = &sentence[..SHORT_DESCRIPTION_CHARS];
        let clipped = match clipped.iter().rposition(|&c| c == ' ') {
            Some(space) => &clipped[..space],
            None => clipped,
        };
        let clipped: String = clipped.iter().collect();
        format!("{}…", clipped.trim_end_matches([',', ';', ':', ' ']))
    }

    #[test]
    fn only_the_first_characters_decide_a_short_description() {
        let pieces = [
            "word", "e.g.", "i.e.", "etc.", "x.", "end!", "why?", "\n", " ", "  ", "\t", ",", ";",
            ":", "é", "日本", "3.5", "a", "stop.", "\u{1d}",
        ];
        let mut state = 7u64;
        let mut next = |n: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        for _ in 0..4000 {
            let words = next(60);
            let text: String = (0..words)
                .map(|_| {
                    let piece = pieces[next(pieces.len())];
                    if next(3) == 0 {
                        piece.to_string()
                    } else {
                        format!("{piece} ")
                    }
                })
                .collect();
            for rule in [SentenceEnd::FirstMark, SentenceEnd::MarkThenSpace] {
                assert_eq!(
                    short_description(&text, rule),
                    short_description_of_whole_text(&text, rule),
                    "{text:?} {rule:?}"
                );
            }
        }
    }
}
