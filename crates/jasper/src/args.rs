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

/// True when `token` (before any `=`) abbreviates the long option `flag`: `--deb` for
/// `--debug`. Python's argparse and GNU `getopt_long` accept any unambiguous prefix of a long
/// option, so refusing only the full spelling would leave it reachable. Over-matching a prefix
/// only ever denies.
fn abbreviates(token: &str, flag: &str) -> bool {
    if !flag.starts_with("--") {
        return false;
    }
    let name = token.split_once('=').map_or(token, |(name, _)| name);
    name.len() > 2 && name.starts_with("--") && flag.starts_with(name)
}

/// True when `token` uses the forbidden `flag` in any spelling a CLI would accept.
fn is_forbidden(token: &str, flag: &str) -> bool {
    is_flag(token, flag)
        || abbreviates(token, flag)
        || short_option_letter(flag).is_some_and(|letter| cluster_contains(token, letter))
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

/// The vector the rules see: drop `leading` tokens, then each listed flag — with the following
/// token when the flag is bare, alone when written `flag=value`. The token after a bare flag is
/// always taken as its value, whatever it looks like.
pub(crate) fn evaluated<'a>(args: &'a [String], ignore: &IgnoreArgs) -> Vec<&'a str> {
    let mut kept = Vec::with_capacity(args.len());
    let mut tokens = args.iter().skip(ignore.leading);
    while let Some(token) = tokens.next() {
        match ignore.flags.iter().find(|flag| is_flag(token, flag)) {
            Some(flag) if token == flag => {
                tokens.next();
            }
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
    fn forbidden_reports_the_listed_arg_of_the_first_offending_token() {
        let forbidden = strings(&["-i", "--filename"]);
        let args = strings(&["sql", "--filename=secret.sql", "-i"]);
        assert_eq!(find_forbidden(&args, &forbidden), Some("--filename"));
        assert_eq!(find_forbidden(&strings(&["sql", "-q"]), &forbidden), None);
    }

    #[test]
    fn ignore_drops_leading_then_flags() {
        let ignore = IgnoreArgs {
            leading: 1,
            flags: strings(&["--format", "-o"]),
        };
        let args = strings(&["fixed", "--format", "json", "sql", "-o=x", "-q", "-o"]);
        assert_eq!(evaluated(&args, &ignore), vec!["sql", "-q"]);
        assert!(evaluated(&strings(&["only"]), &ignore).is_empty());
    }
}
