//! Grants v2: fingerprints, exact and prefix scope, expiry, the file format, and that nothing
//! legacy, unknown or malformed ever authorizes.

use jasper::{GrantEntry, GrantMatcher, GrantMatcherError, GrantMode, Grants, GrantsIssue};
use sha2::{Digest, Sha256};

use crate::common::argv;

const NOW: u64 = 1_784_000_000;

fn tokens(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| item.to_string()).collect()
}

fn hex_of(tokens: &[&str]) -> String {
    GrantMatcher::exact(&self::tokens(tokens)).sha256_hex()
}

fn one_grant(matcher: GrantMatcher) -> Grants {
    let mut grants = Grants::empty();
    grants.push(GrantEntry::new(NOW + 600, matcher));
    grants
}

#[test]
fn fingerprint_follows_the_documented_encoding() {
    // tag, token count, then each token's byte length and bytes; lengths are u64 big-endian.
    let mut bytes = b"torii-grant-v2\0".to_vec();
    bytes.extend(2u64.to_be_bytes());
    bytes.extend(2u64.to_be_bytes());
    bytes.extend(b"s3");
    bytes.extend(4u64.to_be_bytes());
    bytes.extend("lsé".as_bytes());
    let expected: String = Sha256::digest(&bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    assert_eq!(hex_of(&["s3", "lsé"]), expected);
}

#[test]
fn fingerprints_are_unambiguous() {
    let pairs: &[(&[&str], &[&str])] = &[
        (&["ab", "c"], &["a", "bc"]),
        (&["a b"], &["a", "b"]),
        (&[""], &[]),
        (&["a", ""], &["a"]),
        (&["", "a"], &["a"]),
        (&["a\0"], &["a"]),
        (&["s3", "ls"], &["ls", "s3"]),
    ];
    for (left, right) in pairs {
        assert_ne!(hex_of(left), hex_of(right), "{left:?} vs {right:?}");
    }
    assert_eq!(hex_of(&["s3", "ls"]), hex_of(&["s3", "ls"]));
}

#[test]
fn exact_grant_refuses_added_removed_changed_or_reordered_args() {
    let granted = argv("get pods -n team");
    let grants = one_grant(GrantMatcher::exact(&granted));
    assert!(grants.find(&granted, NOW).is_some());
    for other in [
        "get pods -n team -o yaml",
        "get pods -n",
        "get pods -n other",
        "get pods team -n",
        "pods get -n team",
        "get pods -n Team",
        "",
    ] {
        assert!(grants.find(&argv(other), NOW).is_none(), "{other:?}");
    }
    assert!(
        grants
            .find(&tokens(&["get pods", "-n", "team"]), NOW)
            .is_none()
    );
}

#[test]
fn prefix_grant_allows_only_variation_after_the_boundary() {
    let matcher = GrantMatcher::prefix(&argv("get pods -n team"), 2).unwrap();
    assert_eq!(
        (matcher.mode(), matcher.token_count()),
        (GrantMode::Prefix, 2)
    );
    let grants = one_grant(matcher);
    for allowed in [
        "get pods",
        "get pods -n team",
        "get pods -n other",
        "get pods -A -o yaml",
    ] {
        assert!(grants.find(&argv(allowed), NOW).is_some(), "{allowed:?}");
    }
    for refused in [
        "get",
        "get pod",
        "get podsx",
        "pods get",
        "get secrets",
        "-n team get pods",
        "",
    ] {
        assert!(grants.find(&argv(refused), NOW).is_none(), "{refused:?}");
    }
}

#[test]
fn prefix_length_is_checked() {
    let args = argv("get pods");
    assert_eq!(
        GrantMatcher::prefix(&args, 0),
        Err(GrantMatcherError::PrefixOutOfRange {
            requested: 0,
            available: 2
        })
    );
    assert_eq!(
        GrantMatcher::prefix(&args, 3).unwrap_err().to_string(),
        "prefix length 3 is outside 1..=2"
    );
}

#[test]
fn expired_and_active_grants() {
    let args = argv("s3 ls");
    let mut grants = Grants::empty();
    grants.push(GrantEntry::new(NOW, GrantMatcher::exact(&args)));
    grants.push(GrantEntry::new(NOW - 1, GrantMatcher::exact(&args)));
    assert!(
        grants.find(&args, NOW).is_none(),
        "expires_at <= now is expired"
    );
    assert_eq!(
        grants.find(&args, NOW - 1).map(|entry| entry.expires_at),
        Some(NOW)
    );

    grants.push(GrantEntry::new(
        NOW + 60,
        GrantMatcher::prefix(&args, 1).unwrap(),
    ));
    assert_eq!(
        grants
            .find(&argv("s3 cp a b"), NOW)
            .map(|entry| entry.expires_at),
        Some(NOW + 60)
    );
    assert!(grants.find(&argv("s3 cp a b"), NOW + 60).is_none());

    assert_eq!(grants.prune_expired(NOW), 2);
    assert_eq!(grants.entries().len(), 1);
    assert_eq!(grants.prune_expired(NOW), 0);
}

#[test]
fn the_file_round_trips_and_holds_no_argument_text() {
    let mut grants = Grants::empty();
    grants.push(GrantEntry::new(
        NOW,
        GrantMatcher::exact(&argv("get pods -n secret-team")),
    ));
    grants.push(GrantEntry::new(
        NOW + 5,
        GrantMatcher::prefix(&argv("logs api -f"), 2).unwrap(),
    ));
    let text = grants.to_yaml();
    assert!(!text.contains("pods") && !text.contains("secret") && !text.contains("logs"));
    assert!(text.starts_with("version: \"2\"\n"), "{text}");

    let reread = Grants::parse(&text);
    assert_eq!(reread, grants, "{text}");
    assert!(reread.issues().is_empty());

    let empty = Grants::parse(&Grants::empty().to_yaml());
    assert_eq!(empty, Grants::empty());
}

#[test]
fn the_books_example_parses() {
    let text = r#"version: "2"
entries:
  - expires_at: 1784000000
    matcher:
      mode: prefix
      token_count: 2
      sha256: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
"#;
    let grants = Grants::parse(text);
    assert!(grants.issues().is_empty(), "{:?}", grants.issues());
    let entry = &grants.entries()[0];
    assert_eq!(entry.expires_at, 1_784_000_000);
    assert_eq!(entry.matcher.mode(), GrantMode::Prefix);
    assert_eq!(entry.matcher.token_count(), 2);
    assert_eq!(
        entry.matcher.sha256_hex(),
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    );
    assert_eq!(Grants::parse("version: 2\nentries: []\n").issues(), []);
}

type IssueCheck = fn(&GrantsIssue) -> bool;

#[test]
fn whole_files_that_never_authorize() {
    let sha = hex_of(&["s3", "ls"]);
    let body = format!(
        "entries:\n  - expires_at: {}\n    matcher: {{mode: exact, token_count: 2, sha256: {sha}}}\n",
        NOW + 600
    );
    let table: Vec<(String, IssueCheck)> = vec![
        (format!("{}\ts3 ls\n", NOW + 600), |issue| {
            matches!(issue, GrantsIssue::Legacy)
        }),
        (format!("\n{}\ts3\tls\n", NOW + 600), |issue| {
            matches!(issue, GrantsIssue::Legacy)
        }),
        (body.clone(), |issue| {
            matches!(issue, GrantsIssue::MissingVersion)
        }),
        (format!("version: ~\n{body}"), |issue| {
            matches!(issue, GrantsIssue::MissingVersion)
        }),
        (
            format!("version: \"1\"\n{body}"),
            |issue| matches!(issue, GrantsIssue::UnsupportedVersion(v) if v == "\"1\""),
        ),
        (format!("version: 3\n{body}"), |issue| {
            matches!(issue, GrantsIssue::UnsupportedVersion(_))
        }),
        (format!("version: \"2.0\"\n{body}"), |issue| {
            matches!(issue, GrantsIssue::UnsupportedVersion(_))
        }),
        (format!("version: 2.0\n{body}"), |issue| {
            matches!(issue, GrantsIssue::UnsupportedVersion(_))
        }),
        (format!("version: \"2\"\nextra: 1\n{body}"), |issue| {
            matches!(issue, GrantsIssue::Structure(_))
        }),
        ("version: \"2\"\nentries: {a: 1}\n".into(), |issue| {
            matches!(issue, GrantsIssue::Structure(_))
        }),
        ("- s3 ls\n".into(), |issue| {
            matches!(issue, GrantsIssue::Structure(_))
        }),
        ("s3 ls\n".into(), |issue| {
            matches!(issue, GrantsIssue::Structure(_))
        }),
        (format!("version: \"2\"\n{body}  - [\n"), |issue| {
            matches!(issue, GrantsIssue::Malformed(_))
        }),
        (format!("version: \"2\"\nversion: \"2\"\n{body}"), |issue| {
            matches!(issue, GrantsIssue::Malformed(_))
        }),
        (
            format!(
                "version: \"2\"\nentries:\n  - expires_at: 1\n    expires_at: {}\n    matcher: {{mode: exact, token_count: 2, sha256: {sha}}}\n",
                NOW + 600
            ),
            |issue| matches!(issue, GrantsIssue::Malformed(_)),
        ),
    ];
    for (text, expected) in table {
        let grants = Grants::parse(&text);
        assert!(grants.entries().is_empty(), "{text}");
        assert!(grants.find(&argv("s3 ls"), NOW).is_none(), "{text}");
        assert_eq!(grants.issues().len(), 1, "{text}: {:?}", grants.issues());
        assert!(
            expected(&grants.issues()[0]),
            "{text}: {:?}",
            grants.issues()
        );
    }
    // Sanity: the same body with the right version authorizes.
    let good = Grants::parse(&format!("version: \"2\"\n{body}"));
    assert!(good.find(&argv("s3 ls"), NOW).is_some());
}

#[test]
fn malformed_entries_never_authorize_and_are_reported() {
    let sha = hex_of(&["b"]);
    let good = hex_of(&["a"]);
    let entries = [
        format!(
            "{{expires_at: {}, matcher: {{mode: exact, token_count: 1, sha256: {good}}}}}",
            NOW + 9
        ),
        format!(
            "{{expires_at: {}, matcher: {{mode: glob, token_count: 1, sha256: {sha}}}}}",
            NOW + 9
        ),
        format!(
            "{{expires_at: {}, matcher: {{mode: Exact, token_count: 1, sha256: {sha}}}}}",
            NOW + 9
        ),
        format!(
            "{{expires_at: {}, matcher: {{token_count: 1, sha256: {sha}}}}}",
            NOW + 9
        ),
        format!(
            "{{expires_at: {}, matcher: {{mode: prefix, token_count: 0, sha256: {sha}}}}}",
            NOW + 9
        ),
        format!(
            "{{expires_at: {}, matcher: {{mode: prefix, token_count: -1, sha256: {sha}}}}}",
            NOW + 9
        ),
        format!(
            "{{expires_at: {}, matcher: {{mode: prefix, token_count: \"1\", sha256: {sha}}}}}",
            NOW + 9
        ),
        format!(
            "{{expires_at: {}, matcher: {{mode: prefix, token_count: 1.0, sha256: {sha}}}}}",
            NOW + 9
        ),
        format!(
            "{{expires_at: {}, matcher: {{mode: exact, token_count: 1}}}}",
            NOW + 9
        ),
        format!(
            "{{expires_at: {}, matcher: {{mode: exact, token_count: 1, sha256: {}}}}}",
            NOW + 9,
            &sha[..63]
        ),
        format!(
            "{{expires_at: {}, matcher: {{mode: exact, token_count: 1, sha256: {}}}}}",
            NOW + 9,
            sha.to_uppercase()
        ),
        format!(
            "{{expires_at: {}, matcher: {{mode: exact, token_count: 1, sha256: {sha}, args: [b]}}}}",
            NOW + 9
        ),
        format!("{{matcher: {{mode: exact, token_count: 1, sha256: {sha}}}}}"),
        format!("{{expires_at: soon, matcher: {{mode: exact, token_count: 1, sha256: {sha}}}}}"),
        format!("{{expires_at: -1, matcher: {{mode: exact, token_count: 1, sha256: {sha}}}}}"),
        format!(
            "{{expires_at: {}.5, matcher: {{mode: exact, token_count: 1, sha256: {sha}}}}}",
            NOW + 9
        ),
        format!(
            "{{expires_at: {}, rule: b, matcher: {{mode: exact, token_count: 1, sha256: {sha}}}}}",
            NOW + 9
        ),
        format!("{{expires_at: {}}}", NOW + 9),
        format!("{{expires_at: {}, matcher: [exact, 1, {sha}]}}", NOW + 9),
        "b".to_string(),
        "~".to_string(),
    ];
    let text = format!(
        "version: \"2\"\nentries:\n{}",
        entries
            .iter()
            .map(|entry| format!("  - {entry}\n"))
            .collect::<String>()
    );
    let grants = Grants::parse(&text);
    assert_eq!(grants.entries().len(), 1, "{:?}", grants.issues());
    assert!(grants.find(&argv("a"), NOW).is_some());
    assert!(grants.find(&argv("b"), NOW).is_none());
    let rejected: Vec<usize> = grants
        .issues()
        .iter()
        .map(|issue| match issue {
            GrantsIssue::Entry { index, .. } => *index,
            other => panic!("unexpected whole-file issue {other}"),
        })
        .collect();
    assert_eq!(rejected, (1..entries.len()).collect::<Vec<_>>());
    assert_eq!(
        grants.issues()[2].to_string(),
        "grants entries[3]: matcher: missing mode"
    );
}

#[test]
fn empty_or_hostile_documents_never_panic_or_authorize() {
    assert_eq!(Grants::parse(""), Grants::empty());
    assert_eq!(Grants::parse("# no grants\n"), Grants::empty());
    let mut laughs = String::from("version: \"2\"\na0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
    for level in 1..10 {
        let refs = vec![format!("*l{}", level - 1); 10].join(", ");
        laughs.push_str(&format!("a{level}: &l{level} [{refs}]\n"));
    }
    let grants = Grants::parse(&laughs);
    assert!(grants.entries().is_empty());
    assert_eq!(grants.issues().len(), 1);
}

#[test]
fn an_exact_grant_covers_only_as_many_tokens_as_its_file_says() {
    // The fingerprint is of two tokens, the entry claims three: the count is honoured.
    let text = format!(
        "version: 2\nentries:\n  - expires_at: {}\n    matcher: {{mode: exact, token_count: 3, sha256: {}}}\n",
        NOW + 600,
        hex_of(&["s3", "ls"])
    );
    let grants = Grants::parse(&text);
    assert_eq!(grants.issues(), []);
    assert!(grants.find(&tokens(&["s3", "ls"]), NOW).is_none());
}

#[test]
fn only_digits_then_a_tab_is_the_legacy_format() {
    for text in ["\ts3 ls\n", "x\ts3 ls\n"] {
        let grants = Grants::parse(text);
        assert!(
            !grants.issues().contains(&GrantsIssue::Legacy),
            "{text:?}: {:?}",
            grants.issues()
        );
    }
}
