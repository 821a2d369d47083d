//! Regex rules: `/pattern/flags`, searched in the evaluated argv joined by single spaces.

use jasper::{Decision, IgnoreArgs, PolicySettings};

use crate::common::{allowed, argv, check_table, denied, policy, with_minimum};

fn tokens(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| item.to_string()).collect()
}

#[test]
fn regex_matches_at_any_position() {
    let rules = r#"
deny:
  - "/\\btruncate\\b/i"
  - "/copy\\s+into/i"
accept:
  - "sql -q"
"#;
    let policy = policy(rules, &with_minimum(1));
    check_table(
        &policy,
        &[
            (
                tokens(&["sql", "-q", "select 1; TRUNCATE t"]),
                denied("/\\btruncate\\b/i"),
            ),
            (
                tokens(&["sql", "-q", "copy  into t from x"]),
                denied("/copy\\s+into/i"),
            ),
            (
                tokens(&["sql", "-q", "select updated_at from t"]),
                allowed("sql -q"),
            ),
            (
                tokens(&["sql", "-q", "select truncated from t"]),
                allowed("sql -q"),
            ),
        ],
    );
}

#[test]
fn argv_is_joined_by_single_spaces_and_anchors_bind_the_whole_string() {
    let rules = r#"
deny:
  - "/-q select/"
  - "/ls$/"
  - "/^-q/"
"#;
    let policy = policy(rules, &with_minimum(1));
    check_table(
        &policy,
        &[
            // a match may span a token boundary
            (argv("sql -q select 1"), denied("/-q select/")),
            (argv("s3 ls"), denied("/ls$/")),
            (argv("s3 ls x"), Decision::Unresolved),
            (argv("sql -q"), Decision::Unresolved),
            (argv("-q sql"), denied("/^-q/")),
        ],
    );
}

#[test]
fn a_space_inside_a_token_looks_like_a_token_boundary() {
    let policy = policy("accept: [\"/^get pods$/\"]", &with_minimum(1));
    check_table(
        &policy,
        &[
            (argv("get pods"), allowed("/^get pods$/")),
            (tokens(&["get pods"]), allowed("/^get pods$/")),
            (argv("get pods -A"), Decision::Unresolved),
        ],
    );
}

#[test]
fn flags_i_m_s_x() {
    let rules = r#"
deny:
  - "/DROP/"
  - "/^delete/m"
  - "/select.*grant/s"
  - "/ alter \\s+ table  # verbose/x"
  - "/merge.+into/is"
"#;
    let flagged = policy(rules, &with_minimum(1));
    check_table(
        &flagged,
        &[
            // i
            (tokens(&["q", "DROP t"]), denied("/DROP/")),
            (tokens(&["q", "drop t"]), Decision::Unresolved),
            (tokens(&["q", "MERGE\nINTO"]), denied("/merge.+into/is")),
            // m: ^ also after a newline inside a token
            (
                tokens(&["q", "select 1;\ndelete from t"]),
                denied("/^delete/m"),
            ),
            (
                tokens(&["q", "select 1; delete from t"]),
                Decision::Unresolved,
            ),
            // s: . also matches a newline
            (
                tokens(&["q", "select 1\ngrant"]),
                denied("/select.*grant/s"),
            ),
            (tokens(&["q", "select 1 grant"]), denied("/select.*grant/s")),
            // x: whitespace and comments in the pattern are ignored
            (
                tokens(&["q", "alter   table t"]),
                denied("/ alter \\s+ table  # verbose/x"),
            ),
        ],
    );
    // Without m, ^ is the start of the joined argv, even for a deny.
    let strict = policy("deny: [\"/^delete/\"]", &with_minimum(1));
    check_table(
        &strict,
        &[(tokens(&["q", "x\ndelete"]), Decision::Unresolved)],
    );
    // Without s, an accept's `.` stops at a newline.
    let accepting = policy("accept: [\"/^q select.*from t$/\"]", &with_minimum(1));
    check_table(
        &accepting,
        &[
            (
                tokens(&["q", "select 1 from t"]),
                allowed("/^q select.*from t$/"),
            ),
            (tokens(&["q", "select 1\nfrom t"]), Decision::Unresolved),
        ],
    );
}

/// Issue 11, finding 3: `--cli-read-timeout "5\n" --with-decryption` slipped past the aws
/// readonly deny `/^ssm .*--with-decryption/`, whose `.` does not cross the newline the agent
/// put inside an earlier token. Deny regexes also see the vector with line breaks flattened.
#[test]
fn a_newline_inside_a_token_cannot_stop_a_deny_pattern() {
    let rules = "deny: [\"/^ssm .*--with-decryption/\", \"/select.*grant/\"]\naccept: [ssm get-parameter]\n";
    let policy = policy(rules, &with_minimum(1));
    check_table(
        &policy,
        &[
            (
                tokens(&[
                    "ssm",
                    "get-parameter",
                    "--cli-read-timeout",
                    "5\n",
                    "--with-decryption",
                ]),
                denied("/^ssm .*--with-decryption/"),
            ),
            (
                tokens(&[
                    "ssm",
                    "get-parameter",
                    "--name",
                    "a\r\nb",
                    "--with-decryption",
                ]),
                denied("/^ssm .*--with-decryption/"),
            ),
            (tokens(&["q", "select 1\ngrant"]), denied("/select.*grant/")),
            (
                tokens(&["ssm", "get-parameter", "--name", "a\nb"]),
                allowed("ssm get-parameter"),
            ),
        ],
    );
}

#[test]
fn pattern_runs_from_the_first_to_the_last_slash() {
    let policy = policy(
        "deny: [\"/s3://prod/\"]\naccept: [\"s3 ls\"]",
        &with_minimum(2),
    );
    check_table(
        &policy,
        &[
            (argv("s3 ls s3://prod/logs"), denied("/s3://prod/")),
            (argv("s3 ls s3://dev/logs"), allowed("s3 ls")),
        ],
    );
}

#[test]
fn regex_accepts_are_exempt_from_the_minimum() {
    let policy = policy("accept: [\"/^logs /\", logs]", &with_minimum(3));
    assert_eq!(policy.ignored_accepts(), ["logs"]);
    check_table(
        &policy,
        &[
            (argv("logs pod/api"), allowed("/^logs /")),
            (argv("logs"), Decision::Unresolved),
        ],
    );
}

#[test]
fn regex_sees_the_vector_after_ignore_args() {
    let settings = PolicySettings {
        ignore_args: IgnoreArgs {
            leading: 1,
            flags: argv("--format"),
        },
        ..PolicySettings::default()
    };
    let policy = policy(
        "deny: [\"/json/\", \"/^snow/\"]\naccept: [\"/^sql/\"]",
        &settings,
    );
    check_table(
        &policy,
        &[
            (argv("snow sql --format json"), allowed("/^sql/")),
            (argv("snow sql --format=json"), allowed("/^sql/")),
            (argv("snow sql json"), denied("/json/")),
        ],
    );
}

#[test]
fn many_regex_rules_report_the_earliest() {
    let mut deny: Vec<String> = (0..200).map(|n| format!("/never{n}$/")).collect();
    deny.push("/dro+p/".into());
    deny.push("/drop/".into());
    let rules = jasper::RulesFile::new(deny, Vec::<String>::new());
    let policy = jasper::Policy::compile(&rules, &with_minimum(1)).unwrap();
    check_table(
        &policy,
        &[
            (argv("q drop"), denied("/dro+p/")),
            (argv("q never17"), denied("/never17$/")),
            (argv("q never17x"), Decision::Unresolved),
        ],
    );
}

/// Red-team finding: `["sql","-q","select 1","-qTRUNCATE TABLE T"]` was allowed by `sql -q`
/// although click runs `TRUNCATE TABLE T`: no word boundary between `q` and `T`.
#[test]
fn a_value_attached_to_a_short_option_is_seen_by_deny_patterns() {
    let rules = "deny: [\"/\\\\btruncate\\\\b/i\", \"/^x/\"]\naccept: [\"sql -q\"]\n";
    let policy = policy(rules, &with_minimum(1));
    check_table(
        &policy,
        &[
            (
                tokens(&["sql", "-q", "select 1", "-qTRUNCATE TABLE T"]),
                denied("/\\btruncate\\b/i"),
            ),
            (
                tokens(&["sql", "-q", "select 1", "-vqtruncate t"]),
                denied("/\\btruncate\\b/i"),
            ),
            (tokens(&["sql", "-q", "select 1", "-q"]), allowed("sql -q")),
            (tokens(&["sql", "-q", "select", "-qx"]), allowed("sql -q")),
            // Second review: repeated boolean letters pushed the value past the spread.
            (
                tokens(&["sql", "-q", "select 1", "-AAAAAAAAcTRUNCATE TABLE t"]),
                denied("/\\btruncate\\b/i"),
            ),
            (
                tokens(&[
                    "sql",
                    "-q",
                    "select 1",
                    &format!("-{}cTRUNCATE t", "A".repeat(29)),
                ]),
                denied("/\\btruncate\\b/i"),
            ),
            // Longer than the spread: no accept rule vouches for it.
            (
                tokens(&[
                    "sql",
                    "-q",
                    "select 1",
                    &format!("-{}cTRUNCATE t", "A".repeat(40)),
                ]),
                Decision::Unresolved,
            ),
            (
                tokens(&["sql", "-q", &format!("-{}", "A".repeat(40))]),
                Decision::Unresolved,
            ),
            // A value starts after option letters only: `-q"…"` and `-q\u{a0}…` are spread too.
            (
                tokens(&["sql", "-q", "select 1", "-q\"TRUNCATE t\""]),
                denied("/\\btruncate\\b/i"),
            ),
            (
                tokens(&["sql", "-q", "select 1", "-q\u{a0}TRUNCATE t"]),
                denied("/\\btruncate\\b/i"),
            ),
            // `--query=TRUNCATE` has its boundary already; long options are not spread.
            (
                tokens(&["sql", "-q", "select 1", "--query=truncate t"]),
                denied("/\\btruncate\\b/i"),
            ),
        ],
    );
}
