//! Property tests: invariants that must hold for any input.

use proptest::prelude::*;
use schematax_engine::inputs::Inputs;
use schematax_engine::nouns::json_text::{write_json_string, CharCounter};
use schematax_engine::replay::search::Via;
use schematax_engine::replay::session::{Overrides, Session};
use schematax_engine::text::{clip, sanitize, width};
use schematax_releases::Profile;
use std::sync::OnceLock;

/// The embedded sample's session under each profile.
fn samples() -> &'static [Session] {
    static SESSIONS: OnceLock<Vec<Session>> = OnceLock::new();
    SESSIONS.get_or_init(|| {
        let inputs = Inputs::sample();
        Profile::all()
            .map(|profile| {
                let overrides = Overrides {
                    profile: Some(profile),
                    ..Overrides::default()
                };
                Session::new(&inputs.config, &inputs.captures, &overrides)
            })
            .collect()
    })
}

proptest! {
    #[test]
    fn sanitized_text_holds_no_control_character(text in any::<String>()) {
        let clean = sanitize(&text);
        prop_assert!(!clean.chars().any(char::is_control), "{clean:?}");
    }

    #[test]
    fn clipped_text_fits(text in any::<String>(), max in 0usize..60) {
        prop_assert!(width(&clip(&text, max)) <= max);
    }

    #[test]
    fn counting_characters_agrees_with_writing_them(text in any::<String>()) {
        let mut written = String::new();
        write_json_string(&text, &mut written);
        let mut counter = CharCounter::default();
        write_json_string(&text, &mut counter);
        prop_assert_eq!(counter.0, written.chars().count() as u64);
        prop_assert_eq!(serde_json::from_str::<String>(&written).unwrap(), text);
    }

    #[test]
    fn search_hits_are_ranked_and_bounded(query in "[a-z_ ]{0,30}", limit in 1usize..25) {
        prop_assert_eq!(samples().len(), Profile::all().len());
        for session in samples() {
            let result = session.search(&query, limit);
            prop_assert!(result.hits.len() <= limit);
            prop_assert_eq!(result.hits.is_empty(), result.via == Via::None);
            for pair in result.hits.windows(2) {
                prop_assert!(pair[0].score >= pair[1].score);
                if pair[0].score == pair[1].score {
                    prop_assert!(pair[0].doc < pair[1].doc, "ties keep catalog order");
                }
            }
            prop_assert!(result.hits.iter().all(|h| h.score > 0.0));
            // A wider limit extends the list, never reorders it.
            let wider = session.search(&query, limit + 5);
            prop_assert_eq!(&wider.hits[..result.hits.len()], &result.hits[..]);
        }
    }
}
