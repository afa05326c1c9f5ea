//! What the view was tuned to, as YAML to paste into hermes.yaml.

use schematax_engine::nouns::config::ToolSearchSettings;
use schematax_engine::replay::session::Overrides;
use schematax_report::pct_label;

use crate::app::App;

impl App {
    /// The settings at start under the current profile (the command line's values).
    fn baseline(&self) -> ToolSearchSettings {
        self.cli
            .settings(&self.inputs.config, self.session.profile())
    }

    /// Whether the profile, the tool_search settings or the context differ from those at start.
    pub fn is_tuned(&self) -> bool {
        let settings = ToolSearchSettings {
            search_default_limit: self.search.limit as u32,
            ..*self.session.settings()
        };
        settings != self.baseline()
            || self.overrides.context_length != self.cli.context_length
            || self.session.profile() != self.start_profile
    }

    /// The YAML to paste into hermes.yaml for the tuned values: the keys of the current profile
    /// whose values differ from the config's (set in the view or on the command line).
    pub fn tuned_yaml(&self) -> String {
        let settings = self.session.settings();
        let mut yaml = String::new();
        // Against the config itself: what the command line set is pasted too (the view showed
        // it), what the config already says is not.
        if self.overrides.context_length.is_some() {
            yaml.push_str(&format!(
                "model:\n  context_length: {}\n",
                self.session.context().tokens
            ));
        }
        // Only what differs from the config: a key left as the config has it needs no pasting.
        let baseline = Overrides::default().settings(&self.inputs.config, self.session.profile());
        let mut keys: Vec<String> = Vec::new();
        if settings.enabled != baseline.enabled {
            keys.push(format!("enabled: {}", settings.enabled));
        }
        if settings.threshold_pct != baseline.threshold_pct {
            keys.push(format!(
                "threshold_pct: {}",
                pct_label(settings.threshold_pct)
            ));
        }
        if self.search.limit != baseline.search_default_limit as usize {
            keys.push(format!("search_default_limit: {}", self.search.limit));
        }
        if settings.max_search_limit != baseline.max_search_limit {
            keys.push(format!("max_search_limit: {}", settings.max_search_limit));
        }
        if self.session.profile().spec().config.listing_keys {
            if settings.listing != baseline.listing {
                keys.push(format!("listing: {}", settings.listing));
            }
            if settings.listing_max_tokens != baseline.listing_max_tokens {
                keys.push(format!(
                    "listing_max_tokens: {}",
                    settings.listing_max_tokens
                ));
            }
        }
        if !keys.is_empty() {
            yaml.push_str("tools:\n  tool_search:\n");
            for key in keys {
                yaml.push_str(&format!("    {key}\n"));
            }
        }
        let profile = self.session.profile();
        if profile != self.start_profile {
            yaml.push_str("# schematax itself: replay this Hermes release\nschematax:\n");
            yaml.push_str(&match profile.spec().releases.first() {
                Some(release) => format!("  hermes: \"{}\"\n", release.version),
                None => format!("  profile: {profile}\n"),
            });
        }
        yaml
    }
}
