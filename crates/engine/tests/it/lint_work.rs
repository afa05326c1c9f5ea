//! The lint's work on a catalog whose descriptions share a small vocabulary (every word common,
//! so every first sentence is a query of common words only), counted rather than timed: a busy
//! machine cannot fail these.

use schematax_engine::analyses::lint::{lint, LintWork};
use schematax_engine::nouns::config::Config;
use schematax_engine::replay::session::{Overrides, Session};
use schematax_releases::Profile;
use schematax_synthetic::small_vocabulary_catalog;

/// The lint's work on `tools` small-vocabulary tools under `profile`.
fn work(tools: usize, profile: Profile) -> LintWork {
    let captures = small_vocabulary_catalog(tools, 1);
    let overrides = Overrides {
        profile: Some(profile),
        ..Overrides::default()
    };
    let session = Session::new(&Config::default(), &captures, &overrides);
    lint(&session).work()
}

#[test]
fn a_small_vocabulary_lints_in_work_near_n_log_n() {
    // Four times the tools: N log N grows 4 x ln(4,000) / ln(1,000) = 4.8 times, a pairwise
    // pass 16 times. Postings read and terms looked up (the work of finding the best few of
    // each query) stay near N log N; what grows with the catalog for each query is the scan of
    // one machine word per tool, held here to at most one per tool and query.
    let upstream = Profile::all().next_back().expect("a profile");
    for profile in [Profile::seed(), Profile::newest(), upstream] {
        let (few, many) = (work(1_000, profile), work(4_000, profile));
        let searched = |work: LintWork| (work.search.postings + work.search.lookups) as f64;
        let ratio = searched(many) / searched(few);
        assert!(
            ratio < 6.0,
            "{}: 4x the tools took {ratio:.1}x the postings and lookups ({few:?} -> {many:?})",
            profile.id()
        );
        for (tools, work) in [(1_000, few), (4_000, many)] {
            assert!(
                work.search.scanned <= (work.searches * tools) as u64,
                "{}: {work:?} at {tools} tools",
                profile.id()
            );
        }
    }
}
