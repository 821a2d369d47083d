//! Property tests: grant scope, deny-always-wins against a naive model of the rules, and
//! parsers that never panic on arbitrary input.

use jasper::{Decision, GrantMatcher, Grants, Policy, PolicySettings, RulesFile, parse_rules};
use proptest::prelude::*;

/// Few, similar tokens, so that generated vectors often share prefixes and collide.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("s3".to_string()),
        Just("s3api".to_string()),
        Just("ls".to_string()),
        Just("get".to_string()),
        Just("".to_string()),
        "[a-c ]{0,3}",
    ]
}

fn vector(max: usize) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(token(), 0..=max)
}

/// A vector and a different one: a token changed, added, removed or two swapped.
fn vector_and_variant() -> impl Strategy<Value = (Vec<String>, Vec<String>)> {
    (
        prop::collection::vec(token(), 1..6),
        any::<prop::sample::Index>(),
        token(),
        0..4u8,
    )
        .prop_map(|(original, at, new, kind)| {
            let mut variant = original.clone();
            let i = at.index(variant.len());
            match kind {
                0 => variant[i] = new,
                1 => variant.insert(i, new),
                2 => {
                    variant.remove(i);
                }
                _ => {
                    let j = (i + 1) % variant.len();
                    variant.swap(i, j);
                }
            }
            (original, variant)
        })
}

proptest! {
    #[test]
    fn exact_grant_matches_only_the_same_vector((original, other) in vector_and_variant()) {
        let matcher = GrantMatcher::exact(&original);
        prop_assert!(matcher.matches(&original));
        prop_assert_eq!(matcher.matches(&other), other == original);
    }

    #[test]
    fn exact_grant_against_any_vector(original in vector(5), other in vector(5)) {
        let matcher = GrantMatcher::exact(&original);
        prop_assert_eq!(matcher.matches(&other), other == original && !original.is_empty());
    }

    #[test]
    fn prefix_grant_matches_iff_the_first_n_tokens_are_equal(
        original in prop::collection::vec(token(), 1..6),
        other in vector(7),
        n in any::<prop::sample::Index>(),
    ) {
        let n = n.index(original.len()) + 1;
        let matcher = GrantMatcher::prefix(&original, n).unwrap();
        let expected = other.len() >= n && other[..n] == original[..n];
        prop_assert_eq!(matcher.matches(&other), expected);
    }

    #[test]
    fn policy_agrees_with_a_naive_model(
        deny in prop::collection::vec(rule(), 0..5),
        accept in prop::collection::vec(rule(), 0..5),
        minimum in 0..4usize,
        args in prop::collection::vec(rule_token(), 0..5),
    ) {
        let settings = PolicySettings { minimum_accept_tokens: minimum, ..PolicySettings::default() };
        let policy = Policy::compile(&RulesFile::new(deny.clone(), accept.clone()), &settings).unwrap();
        let decision = policy.evaluate(&args).decision;
        let joined = args.join(" ");
        let first_deny = deny.iter().find(|rule| naive_match(rule, &args, &joined));
        let first_accept = accept.iter().find(|rule| {
            let narrow = !rule.starts_with('/') && rule.split_whitespace().count() < minimum;
            !narrow && naive_match(rule, &args, &joined)
        });
        let expected = match (first_deny, first_accept) {
            (Some(rule), _) => Decision::DeniedExplicit { rule: rule.clone() },
            (None, Some(rule)) => Decision::Allowed { rule: rule.clone() },
            (None, None) => Decision::Unresolved,
        };
        prop_assert_eq!(decision, expected);
    }

    #[test]
    fn a_matching_deny_always_wins(
        accept in prop::collection::vec(rule(), 0..8),
        (deny, witness) in deny_with_witness(),
        tail in prop::collection::vec(rule_token(), 0..3),
    ) {
        let mut args = witness;
        args.extend(tail);
        let mut accept = accept;
        accept.push(args.join(" "));
        accept.push("/.*/".into());
        let rules = RulesFile::new([deny.clone()], accept);
        let policy = Policy::compile(&rules, &PolicySettings::default()).unwrap();
        prop_assert_eq!(policy.evaluate(&args).decision, Decision::DeniedExplicit { rule: deny });
    }

    #[test]
    fn parse_rules_never_panics(text in "\\PC*") {
        let _ = parse_rules(&text);
    }

    #[test]
    fn parse_rules_never_panics_on_yaml_like_text(text in yaml_like()) {
        if let Ok(rules) = parse_rules(&text) {
            let _ = Policy::compile(&rules, &PolicySettings::default());
        }
    }

    #[test]
    fn compile_and_evaluate_never_panic(
        deny in prop::collection::vec("\\PC{0,12}", 0..4),
        accept in prop::collection::vec("\\PC{0,12}", 0..4),
        args in prop::collection::vec("\\PC{0,8}", 0..5),
    ) {
        if let Ok(policy) = Policy::compile(&RulesFile::new(deny, accept), &PolicySettings::default()) {
            let _ = policy.evaluate(&args);
        }
    }

    #[test]
    fn grants_parse_never_panics_or_authorizes_garbage(text in "\\PC*", args in vector(4)) {
        let grants = Grants::parse(&text);
        // Random text is astronomically unlikely to hold a valid fingerprint of `args`.
        prop_assert!(grants.find(&args, 0).is_none());
    }

    #[test]
    fn grants_parse_never_panics_on_yaml_like_text(text in yaml_like()) {
        let grants = Grants::parse(&text);
        let _ = grants.to_yaml();
    }
}

fn rule_token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("s3".to_string()),
        Just("s3api".to_string()),
        Just("ls".to_string()),
        Just("rm".to_string()),
        Just("get".to_string()),
    ]
}

/// A prefix rule of 1–3 tokens, or one of a few regex rules.
fn rule() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::collection::vec(rule_token(), 1..4).prop_map(|tokens| tokens.join(" ")),
        1 => prop_oneof![
            Just("/^s3 /".to_string()),
            Just("/rm/".to_string()),
            Just("/LS/i".to_string()),
            Just("/s3\\b/".to_string()),
        ],
    ]
}

/// A deny rule and a vector it matches.
fn deny_with_witness() -> impl Strategy<Value = (String, Vec<String>)> {
    let regexes = prop_oneof![
        Just(("/^s3 /", vec!["s3", "x"])),
        Just(("/rm/", vec!["rm"])),
        Just(("/LS/i", vec!["ls"])),
        Just(("/s3\\b/", vec!["get", "s3"])),
    ]
    .prop_map(|(rule, witness)| {
        (
            rule.to_string(),
            witness.into_iter().map(str::to_string).collect(),
        )
    });
    prop_oneof![
        prop::collection::vec(rule_token(), 1..4).prop_map(|tokens| (tokens.join(" "), tokens)),
        regexes,
    ]
}

/// The rules' meaning, written as plainly as possible.
fn naive_match(rule: &str, args: &[String], joined: &str) -> bool {
    if let Some(body) = rule.strip_prefix('/') {
        let (pattern, flags) = body.rsplit_once('/').unwrap();
        let pattern = if flags.is_empty() {
            pattern.to_string()
        } else {
            format!("(?{flags}){pattern}")
        };
        return regex::Regex::new(&pattern).unwrap().is_match(joined);
    }
    let tokens: Vec<&str> = rule.split_whitespace().collect();
    tokens.len() <= args.len() && tokens.iter().zip(args).all(|(rule, arg)| *rule == arg)
}

/// Text built from YAML-ish fragments, to reach deeper into the parsers than random bytes.
fn yaml_like() -> impl Strategy<Value = String> {
    let fragment = prop_oneof![
        Just("version: \"1\"\n"),
        Just("version: \"2\"\n"),
        Just("version: 1.0\n"),
        Just("deny:\n"),
        Just("accept:\n"),
        Just("entries:\n"),
        Just("  - "),
        Just("expires_at: 1784000000\n"),
        Just("matcher: {mode: exact, token_count: 1, sha256: "),
        Just("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef}\n"),
        Just("\"/(/\"\n"),
        Just("\"s3 ls\"\n"),
        Just("&a "),
        Just("*a\n"),
        Just("[\n"),
        Just("{"),
        Just("}\n"),
        Just("\t"),
        Just("1784000000\ts3 ls\n"),
        Just("~\n"),
        Just("- "),
    ];
    prop::collection::vec(fragment, 0..24).prop_map(|fragments| fragments.concat())
}
