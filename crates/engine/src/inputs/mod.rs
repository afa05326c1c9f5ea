//! Reading the inputs: a `hermes.yaml` ([`config`], read by [`yaml`]), capture files of tool
//! lists ([`capture_file`]), found from the command line's paths or the embedded sample
//! ([`Inputs`]); the MCP client configs of other agents ([`client_config`]); and the limits
//! and errors of reading a file ([`error`]).

mod capture_document;
pub mod capture_file;
pub mod client_config;
pub mod config;
pub mod error;

use std::path::{Path, PathBuf};

use crate::nouns::config::{Config, ConfigWarning};
use crate::nouns::tools::ServerCapture;
use capture_file::{load_paths, parse_capture, LoadWarning};
use error::InputError;
use schematax_releases::Profile;

/// The embedded default sample: `samples/hermes.yaml`.
pub const SAMPLE_CONFIG: &str = include_str!("../../../../samples/hermes.yaml");

/// The embedded default sample: `samples/tools/*.json`, as (file stem, contents).
pub const SAMPLE_TOOLS: &[(&str, &str)] = &[
    (
        "brave-search",
        include_str!("../../../../samples/tools/brave-search.json"),
    ),
    (
        "context7",
        include_str!("../../../../samples/tools/context7.json"),
    ),
    (
        "fetch",
        include_str!("../../../../samples/tools/fetch.json"),
    ),
    (
        "firecrawl",
        include_str!("../../../../samples/tools/firecrawl.json"),
    ),
    (
        "perplexity",
        include_str!("../../../../samples/tools/perplexity.json"),
    ),
];

/// How the embedded sample is named.
pub const SAMPLE_LABEL: &str = "embedded sample";

/// Where the embedded sample's config lives in the repository.
pub const SAMPLE_CONFIG_PATH: &str = "samples/hermes.yaml";

/// A warning about the inputs: a config key read otherwise than written, or something loading
/// the captures skipped.
#[derive(Debug, Clone, PartialEq)]
pub enum InputWarning {
    /// From the config.
    Config(ConfigWarning),
    /// From the captures.
    Load(LoadWarning),
}

/// A config and its captures, read and ready for a [`crate::replay::session::Session`].
#[derive(Debug, Clone)]
pub struct Inputs {
    /// The parsed config (defaults when none was given with explicit `--tools`).
    pub config: Config,
    /// What was loaded, for display: the config's path, `embedded sample`, or without a
    /// config the captures given (`captures in tools/, x.json`).
    pub config_label: String,
    /// The path of the config file, when there is one on disk.
    pub config_path: Option<PathBuf>,
    /// The usable captures.
    pub captures: Vec<ServerCapture>,
    /// Skipped files and entries (and warnings from flags), before the config's own.
    pub warnings: Vec<InputWarning>,
}

impl Inputs {
    /// Reads the inputs:
    /// - a config and no `--tools`: the config and the `tools/` folder beside it;
    /// - `--tools` without a config: those captures and default settings;
    /// - neither: the embedded sample.
    pub fn load(config: Option<&Path>, tools: &[PathBuf]) -> Result<Inputs, InputError> {
        match (config, tools.is_empty()) {
            (None, true) => Ok(Inputs::sample()),
            (None, false) => {
                let loaded = load_paths(tools)?;
                Ok(Inputs {
                    config: Config::default(),
                    config_label: format!(
                        "captures in {}",
                        tools
                            .iter()
                            .map(|p| p.display().to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    config_path: None,
                    captures: loaded.captures,
                    warnings: loaded
                        .warnings
                        .into_iter()
                        .map(InputWarning::Load)
                        .collect(),
                })
            }
            (Some(path), _) => {
                let config = Config::load(path)?;
                let mut warnings = Vec::new();
                let paths = if tools.is_empty() {
                    let beside = path.parent().unwrap_or(Path::new(".")).join("tools");
                    if beside.is_dir() {
                        vec![beside]
                    } else {
                        warnings.push(InputWarning::Load(LoadWarning::NoToolsFolder {
                            folder: beside,
                        }));
                        Vec::new()
                    }
                } else {
                    tools.to_vec()
                };
                let loaded = load_paths(&paths)?;
                warnings.extend(loaded.warnings.into_iter().map(InputWarning::Load));
                Ok(Inputs {
                    config,
                    config_label: path.display().to_string(),
                    config_path: Some(path.to_path_buf()),
                    captures: loaded.captures,
                    warnings,
                })
            }
        }
    }

    /// Where the config came from, as the JSON reports name it: its path, `embedded sample`,
    /// or `none` (captures only).
    pub fn config_source(&self) -> String {
        match &self.config_path {
            Some(path) => path.display().to_string(),
            None if self.config_label == SAMPLE_LABEL => SAMPLE_LABEL.to_string(),
            None => "none".to_string(),
        }
    }

    /// The embedded sample.
    pub fn sample() -> Inputs {
        let config =
            Config::parse(SAMPLE_CONFIG.as_bytes()).expect("the embedded sample config parses");
        let captures = SAMPLE_TOOLS
            .iter()
            .map(|(stem, text)| {
                let mut capture = parse_capture(text.as_bytes(), stem)
                    .expect("the embedded sample captures parse");
                capture.source = PathBuf::from(format!("samples/tools/{stem}.json"));
                capture
            })
            .collect();
        Inputs {
            config,
            config_label: SAMPLE_LABEL.into(),
            config_path: None,
            captures,
            warnings: Vec::new(),
        }
    }

    /// Config warnings under `profile` followed by capture warnings.
    pub fn warnings(&self, profile: Profile) -> impl Iterator<Item = InputWarning> + '_ {
        self.config
            .warnings(profile)
            .map(InputWarning::Config)
            .chain(self.warnings.iter().cloned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_is_clean_and_complete() {
        let inputs = Inputs::sample();
        assert_eq!(inputs.captures.len(), 5);
        for profile in Profile::all() {
            assert_eq!(inputs.warnings(profile).count(), 0);
        }
        let configured: Vec<_> = inputs
            .config
            .mcp_servers
            .as_ref()
            .unwrap()
            .iter()
            .map(|s| &s.name)
            .collect();
        for capture in &inputs.captures {
            assert!(configured.contains(&&capture.server), "{}", capture.server);
            assert!(capture.skipped.is_empty());
        }
    }

    #[test]
    fn the_sample_config_states_its_own_figures() {
        use crate::replay::session::{Overrides, Session};
        let inputs = Inputs::sample();
        let tokens = |profile: Profile| {
            let overrides = Overrides {
                profile: Some(profile),
                ..Overrides::default()
            };
            let session = Session::new(&inputs.config, &inputs.captures, &overrides);
            crate::text::thousands(session.activation().deferrable_tokens)
        };
        let first_lines: String = SAMPLE_CONFIG.lines().take(4).collect();
        let newest = Profile::newest().spec().releases[0]
            .version
            .split(".post")
            .next()
            .unwrap();
        for (profile, release) in [(Profile::seed(), "0.17.0"), (Profile::newest(), newest)] {
            let figure = tokens(profile);
            assert!(
                first_lines.contains(&figure) && first_lines.contains(release),
                "samples/hermes.yaml should say {figure} tokens under {release}: {first_lines}"
            );
        }
    }
}
