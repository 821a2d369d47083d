//! Argument checks that run before the rules: `forbidden_args` on the raw argv, and the
//! `ignore_args` normalisation that builds the vector the rules evaluate.

use crate::settings::IgnoreArgs;

/// True when `token` is `flag` itself or `flag=<anything>`.
fn is_flag(token: &str, flag: &str) -> bool {
    token
        .strip_prefix(flag)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('='))
}

/// The letter of a POSIX short option such as `-f`, if `flag` is one.
fn short_option_letter(flag: &str) -> Option<char> {
    let mut chars = flag.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (Some('-'), Some(letter), None) if letter.is_ascii_alphanumeric() => Some(letter),
        _ => None,
    }
}

/// True when `token` is a single-dash cluster (`-vf`, `-fdrop.sql`) that contains `letter`.
/// CLIs built on getopt, click or cobra read `-fdrop.sql` as `-f drop.sql` and `-vf x` as
/// `-v -f x`, so refusing only the bare `-f` would leave the channel open. Over-matching a
/// cluster only ever denies.
fn cluster_contains(token: &str, letter: char) -> bool {
    token
        .strip_prefix('-')
        .is_some_and(|rest| !rest.starts_with('-') && rest.contains(letter))
}

/// A long option's name as a CLI may read it: the part before any `=`, with `_` read as `-`
/// (Go's pflag, and so kubectl, accepts `--profile_output` for `--profile-output`).
fn long_name(token: &str) -> Option<String> {
    let name = token.split_once('=').map_or(token, |(name, _)| name);
    name.starts_with("--").then(|| name.replace('_', "-"))
}

/// True when `token` is the long option `flag` in its `_` spelling too (`--cache_dir=x` for
/// `--cache-dir`), or (before any `=`) abbreviates it: `--deb` for `--debug`. Python's argparse
/// and GNU `getopt_long` accept any unambiguous prefix of a long option, so refusing only the
/// full spelling would leave it reachable. Over-matching only ever denies.
fn names_long_option(token: &str, flag: &str) -> bool {
    let (Some(name), Some(flag)) = (long_name(token), long_name(flag)) else {
        return false;
    };
    name == flag || (name.len() > 2 && flag.starts_with(&name))
}

/// True when `token` uses the forbidden `flag` in any spelling a CLI would accept.
fn is_forbidden(token: &str, flag: &str) -> bool {
    is_flag(token, flag)
        || names_long_option(token, flag)
        || short_option_letter(flag).is_some_and(|letter| cluster_contains(token, letter))
}

/// Every place in `token` where a CLI could start reading a value: the start of the token (a
/// bare value, a positional), right after any character that is not an ASCII letter or digit
/// (`--opt=value`, and values inside structured syntax such as the AWS CLI's shorthand
/// `Key@=file://…`, `[a,file://…]`, `'file://…'`), and, in a single-dash token, right after any
/// of its letters (`-ovalue`; in a cluster such as `-Aovalue` whichever letter takes the value).
fn value_starts(token: &str) -> impl Iterator<Item = &str> {
    let cluster = token.starts_with('-') && !token.starts_with("--");
    let mut previous: Option<char> = None;
    token.char_indices().filter_map(move |(index, c)| {
        let starts = match previous {
            None => true,
            Some(before) => !before.is_ascii_alphanumeric() || (cluster && index >= 2),
        };
        previous = Some(c);
        starts.then(|| &token[index..])
    })
}

fn starts_with_ignoring_ascii_case(text: &str, prefix: &str) -> bool {
    text.len() >= prefix.len()
        && text.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// The forbidden value prefix (as listed, never the caller's value) found at any value start
/// of the first offending token (see [`value_starts`]), ignoring ASCII case. CLIs differ in
/// where they read a value from and some compare prefixes such as `file://` case-insensitively;
/// over-matching only ever denies.
pub(crate) fn find_forbidden_value<'a>(args: &[String], prefixes: &'a [String]) -> Option<&'a str> {
    args.iter().find_map(|token| {
        prefixes
            .iter()
            .find(|prefix| {
                value_starts(token).any(|value| starts_with_ignoring_ascii_case(value, prefix))
            })
            .map(String::as_str)
    })
}

/// The forbidden arg (as listed, never the caller's value) hit by the first offending token.
pub(crate) fn find_forbidden<'a>(args: &[String], forbidden: &'a [String]) -> Option<&'a str> {
    args.iter().find_map(|token| {
        forbidden
            .iter()
            .find(|flag| is_forbidden(token, flag))
            .map(String::as_str)
    })
}

/// How many letters of a short-option cluster may come before its value (`-vqVALUE`). A
/// longer cluster is not spread: see [`has_long_cluster`].
const MAX_CLUSTER_LETTERS: usize = 32;

/// A single-dash token with more than one character after the dash: it may carry a value.
fn carries(token: &str) -> bool {
    token.starts_with('-') && !token.starts_with("--") && token.chars().count() > 2
}

/// How many letters or digits follow the dash: a value can start only after option letters.
fn leading_letters(token: &str) -> usize {
    token[1..]
        .bytes()
        .take_while(u8::is_ascii_alphanumeric)
        .count()
}

/// `evaluated` joined by spaces, with each single-dash token that carries more than one letter
/// followed by the values it could carry, each as a token of its own: `-vqTRUNCATE t` adds
/// `qTRUNCATE t` and `TRUNCATE t`. A value starts after option letters only, so the spread
/// stops at the first character that is not a letter or digit. `None` when no token carries
/// one. For deny regexes only.
pub(crate) fn with_attached_values(evaluated: &[&str]) -> Option<String> {
    if !evaluated.iter().any(|token| carries(token)) {
        return None;
    }
    let mut spread = Vec::with_capacity(evaluated.len() * 2);
    for token in evaluated {
        spread.push(*token);
        if carries(token) {
            // Byte offsets are character offsets here: the letters are ASCII.
            let starts = leading_letters(token).min(MAX_CLUSTER_LETTERS);
            spread.extend((2..=starts + 1).filter_map(|index| token.get(index..)));
        }
    }
    Some(spread.join(" "))
}

/// Whether a single-dash token has more option letters than are spread: its value could
/// start where no deny pattern looks (`-` then 40 × `A`, then `cDROP TABLE t`).
pub(crate) fn has_long_cluster(evaluated: &[&str]) -> bool {
    evaluated
        .iter()
        .any(|token| carries(token) && leading_letters(token) > MAX_CLUSTER_LETTERS)
}

/// The vector the rules see: drop `leading` tokens, then each listed flag — with the following
/// token when the flag is bare, alone when written `flag=value`.
///
/// A bare flag followed by a token that starts with `-` is kept, and so is that token: a CLI
/// may read the flag itself as the value of the option before it (click reads
/// `-q --format --query=DROP…` as the query `--format`, then a second `--query`), so dropping
/// either could hide the option that really runs.
pub(crate) fn evaluated<'a>(args: &'a [String], ignore: &IgnoreArgs) -> Vec<&'a str> {
    let mut kept = Vec::with_capacity(args.len());
    let mut tokens = args.iter().skip(ignore.leading).peekable();
    while let Some(token) = tokens.next() {
        match ignore.flags.iter().find(|flag| is_flag(token, flag)) {
            Some(flag) if token == flag => match tokens.peek() {
                Some(next) if next.starts_with('-') => kept.push(token.as_str()),
                _ => {
                    tokens.next();
                }
            },
            Some(_) => {}
            None => kept.push(token.as_str()),
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|item| item.to_string()).collect()
    }

    #[test]
    fn a_short_option_is_a_dash_and_one_letter_or_digit() {
        assert_eq!(short_option_letter("-f"), Some('f'));
        assert_eq!(short_option_letter("-9"), Some('9'));
        for flag in ["--", "-.", "-", "-ff", "f", "--f"] {
            assert_eq!(short_option_letter(flag), None, "{flag:?}");
        }
    }

    #[test]
    fn the_end_of_options_marker_abbreviates_no_long_option() {
        let forbidden = strings(&["--debug"]);
        assert_eq!(find_forbidden(&strings(&["--"]), &forbidden), None);
        assert_eq!(
            find_forbidden(&strings(&["--d"]), &forbidden),
            Some("--debug")
        );
    }

    #[test]
    fn values_spread_after_each_option_letter_of_a_cluster() {
        assert_eq!(with_attached_values(&["-v", "x"]), None);
        assert_eq!(
            with_attached_values(&["-ab=c", "x"]).as_deref(),
            Some("-ab=c b=c =c x")
        );
    }

    #[test]
    fn a_cluster_is_long_beyond_the_letters_that_are_spread() {
        let at_limit = format!("-{}", "A".repeat(MAX_CLUSTER_LETTERS));
        let beyond = format!("-{}", "A".repeat(MAX_CLUSTER_LETTERS + 1));
        assert!(!has_long_cluster(&[&at_limit]));
        assert!(has_long_cluster(&[&beyond]));
    }

    #[test]
    fn flag_matching_is_whole_token_or_equals() {
        assert!(is_flag("--filename", "--filename"));
        assert!(is_flag("--filename=x", "--filename"));
        assert!(is_flag("--filename=", "--filename"));
        assert!(!is_flag("--filenames", "--filename"));
        assert!(!is_flag("--file", "--filename"));
    }

    #[test]
    fn forbidden_short_options_are_refused_attached_and_clustered() {
        let forbidden = strings(&["-f", "--stdin"]);
        for token in ["-f", "-fdrop.sql", "-vf", "-xfv", "-f=x"] {
            assert_eq!(
                find_forbidden(&strings(&["sql", token]), &forbidden),
                Some("-f"),
                "{token}"
            );
        }
        for token in ["--filename", "-q", "--format", "f", "-"] {
            assert_eq!(
                find_forbidden(&strings(&["sql", token]), &forbidden),
                None,
                "{token}"
            );
        }
        // Long options keep whole-token matching.
        assert_eq!(
            find_forbidden(&strings(&["--stdin-like"]), &forbidden),
            None
        );
    }

    #[test]
    fn forbidden_long_options_are_refused_in_their_underscore_spelling() {
        let forbidden = strings(&["--profile-output", "--cache-dir"]);
        for token in [
            "--profile_output=/x",
            "--cache_dir",
            "--cache_d",
            "--profile_out=/x",
        ] {
            assert!(
                find_forbidden(&strings(&["get", token]), &forbidden).is_some(),
                "{token}"
            );
        }
        assert_eq!(
            find_forbidden(&strings(&["get", "--cache-dirs"]), &forbidden),
            None
        );
    }

    #[test]
    fn forbidden_reports_the_listed_arg_of_the_first_offending_token() {
        let forbidden = strings(&["-i", "--filename"]);
        let args = strings(&["sql", "--filename=secret.sql", "-i"]);
        assert_eq!(find_forbidden(&args, &forbidden), Some("--filename"));
        assert_eq!(find_forbidden(&strings(&["sql", "-q"]), &forbidden), None);
    }

    #[test]
    fn forbidden_values_are_found_in_every_spelling_of_a_value() {
        let prefixes = strings(&["file://", "go-template-file"]);
        for token in [
            "file:///etc/passwd",
            "FILE:///etc/passwd",
            "--name=file://x",
            "--cli-input-json=File://x",
            "-ofile://x",
            "-o=file://x",
            "-ogo-template-file=/x",
            "-Aogo-template-file=/x",
            "-RAogo-template-file=/x",
            "-Ao=go-template-file=/x",
            "--output=go-template-file=/x",
            "Go-Template-File=/x",
            // the AWS CLI's shorthand loads a file inside a structured value
            "Name=a,Values@=file://x",
            "Values @ = 'file://x'",
            "[b,file://x]",
            "{\"k\":\"file://x\"}",
        ] {
            assert!(
                find_forbidden_value(&strings(&["get", token]), &prefixes).is_some(),
                "{token}"
            );
        }
        for token in [
            "files://x",
            "myfile://x",
            "--name",
            "-o",
            "go-template",
            "--output=go-template={{.x}}",
            "x=y",
            "",
        ] {
            assert_eq!(
                find_forbidden_value(&strings(&["get", token]), &prefixes),
                None,
                "{token}"
            );
        }
    }

    #[test]
    fn a_forbidden_value_reports_the_listed_prefix() {
        let prefixes = strings(&["fileb://", "file://"]);
        assert_eq!(
            find_forbidden_value(&strings(&["s3", "--body", "FILE://secret"]), &prefixes),
            Some("file://")
        );
    }

    #[test]
    fn ignore_drops_leading_then_flags() {
        let ignore = IgnoreArgs {
            leading: 1,
            flags: strings(&["--format", "-o"]),
        };
        let args = strings(&["fixed", "--format", "json", "sql", "-o=x", "-q", "-o"]);
        assert_eq!(evaluated(&args, &ignore), vec!["sql", "-q"]);
        // Issue 11, finding 6: a bare ignored flag never swallows an option after it.
        let args = strings(&["x", "sql", "-q", "--format", "--query=DROP TABLE t"]);
        assert_eq!(
            evaluated(&args, &ignore),
            vec!["sql", "-q", "--format", "--query=DROP TABLE t"]
        );
        assert!(evaluated(&strings(&["only"]), &ignore).is_empty());
    }
}
