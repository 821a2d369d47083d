//! Judging an edited policy before it may replace the live `rules.yaml`.
//!
//! A draft crosses only if it is not empty, parses, compiles whole with the provider's
//! settings, and satisfies its own `examples`. Pure: reading, writing and asking the human
//! belong to the caller.

use std::path::Path;

use jasper::{PolicySettings, RulesFile};

use super::file::compile;

/// The policy `torii provider install` writes: nothing crosses until the operator decides.
pub const EMPTY_POLICY: &str = "\
# Installed empty: nothing the agent sends is allowed by rules until you write a policy
# (`torii policy edit <tool>`) or apply a setup (`torii provider setup <provider> <setup>`).
version: \"1.0\"
deny: []
accept: []
";

/// What to do with a draft.
#[derive(Debug)]
pub enum Review {
    /// Byte for byte the text it started from: nothing is written.
    Unchanged,
    /// The draft may replace the live file.
    Accepted {
        rules: Box<RulesFile>,
        /// Prefix accepts narrower than `minimum_accept_tokens`, which never allow anything.
        ignored_accepts: Vec<String>,
    },
    /// The draft must not reach the live file.
    Rejected { reason: String },
}

/// Judges `draft` (the text at `draft_path`) against `original`, the text it started from.
pub fn review_draft(
    original: &str,
    draft: &str,
    draft_path: &Path,
    settings: &PolicySettings,
) -> Review {
    if draft == original {
        return Review::Unchanged;
    }
    if is_blank(draft) {
        return Review::Rejected {
            reason: format!(
                "{}: the draft is empty; to allow nothing by rules write `version: \"1.0\"`, \
                 `deny: []` and `accept: []`",
                draft_path.display()
            ),
        };
    }
    let (rules, policy) = match compile(draft_path, draft, settings) {
        Ok(compiled) => compiled,
        Err(error) => {
            return Review::Rejected {
                reason: crate::errors::chain(&error),
            };
        }
    };
    let failures = jasper::check_examples(&policy, &rules.examples);
    if !failures.is_empty() {
        let mut reason = format!(
            "{}: {} of {} examples fail:",
            draft_path.display(),
            failures.len(),
            rules.examples.len()
        );
        for failure in &failures {
            let at = strict_yaml::located(draft_path.display(), failure.example.position);
            reason.push_str(&format!("\n  {at}: {failure}"));
        }
        return Review::Rejected { reason };
    }
    Review::Accepted {
        ignored_accepts: policy.ignored_accepts().to_vec(),
        rules: Box::new(rules),
    }
}

/// Only whitespace, comments and document markers: what a crashed editor or an accidental
/// "delete all" leaves. An explicit document with empty lists is a policy; this is not.
fn is_blank(text: &str) -> bool {
    text.lines().all(|line| {
        let line = line.trim();
        line.is_empty() || line.starts_with('#') || line == "---" || line == "..."
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn review(original: &str, draft: &str) -> Review {
        let settings = PolicySettings {
            minimum_accept_tokens: 2,
            ..PolicySettings::default()
        };
        review_draft(original, draft, Path::new("/d/rules.draft.yaml"), &settings)
    }

    fn rejected(review: Review) -> String {
        match review {
            Review::Rejected { reason } => reason,
            other => panic!("expected a rejection, got {other:?}"),
        }
    }

    #[test]
    fn the_installed_empty_policy_is_a_valid_policy() {
        let rules = jasper::parse_rules(EMPTY_POLICY).unwrap();
        assert!(rules.is_empty());
        assert!(matches!(review("", EMPTY_POLICY), Review::Accepted { .. }));
    }

    #[test]
    fn unchanged_text_is_unchanged_even_when_invalid() {
        assert!(matches!(review("deny: [", "deny: ["), Review::Unchanged));
    }

    #[test]
    fn empty_drafts_are_rejected() {
        for draft in ["", "\n  \n", "# all gone\n", "---\n"] {
            let reason = rejected(review(EMPTY_POLICY, draft));
            assert!(reason.contains("the draft is empty"), "{reason}");
        }
    }

    #[test]
    fn malformed_yaml_and_bad_regex_are_rejected_naming_the_draft() {
        let reason = rejected(review("", "deny: [\n"));
        assert!(reason.starts_with("/d/rules.draft.yaml:1:"), "{reason}");
        let reason = rejected(review("", "deny:\n  - \"/(/\"\n"));
        assert_eq!(
            reason,
            "/d/rules.draft.yaml:2:5: deny[0]: invalid regex \"/(/\": unclosed group"
        );
    }

    #[test]
    fn failing_examples_are_rejected_listing_each() {
        let draft = "accept: [\"s3 ls\"]\nexamples:\n  denied:\n    - [s3, ls]\n  allowed:\n    - [s3, cp]\n";
        let reason = rejected(review("", draft));
        assert!(reason.contains("2 of 2 examples fail:"), "{reason}");
        assert!(reason.contains("examples.allowed[0]"), "{reason}");
        assert!(reason.contains("examples.denied[0]"), "{reason}");
    }

    #[test]
    fn ignored_accepts_are_reported_on_acceptance() {
        match review("", "accept: [s3, \"s3 ls\"]\n") {
            Review::Accepted {
                ignored_accepts, ..
            } => assert_eq!(ignored_accepts, ["s3"]),
            other => panic!("{other:?}"),
        }
    }
}
