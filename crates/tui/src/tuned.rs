//! What the view was tuned to, as YAML to paste into hermes.yaml.

use schematax_engine::nouns::config::ToolSearchSettings;
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

    /// The YAML to paste into hermes.yaml for the tuned values: the keys of the current profile.
    pub fn tuned_yaml(&self) -> String {
        let settings = self.session.settings();
        let mut yaml = String::new();
        if self.overrides.context_length != self.cli.context_length {
            yaml.push_str(&format!(
                "model:\n  context_length: {}\n",
                self.session.context().tokens
            ));
        }
        yaml.push_str(&format!(
            "tools:\n  tool_search:\n    enabled: {}\n    threshold_pct: {}\n    search_default_limit: {}\n    max_search_limit: {}\n",
            settings.enabled,
            pct_label(settings.threshold_pct),
            self.search.limit,
            settings.max_search_limit
        ));
        if self.session.profile().spec().config.listing_keys {
            yaml.push_str(&format!(
                "    listing: {}\n    listing_max_tokens: {}\n",
                settings.listing, settings.listing_max_tokens
            ));
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
