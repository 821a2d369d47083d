//! A wrapper's own options, skipped the way `getopt` reads them, to find the command it runs.

use crate::GuardError;
use crate::word::Arg;

/// The options a program accepts, as `getopt_long` would be told.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Spec {
    /// Short options without a value.
    pub(crate) flags: &'static str,
    /// Short options with a value, attached (`-uroot`) or in the next word.
    pub(crate) values: &'static str,
    /// Short options whose value, if any, is attached (`-d`, `-ifoo`): the rest of the cluster.
    pub(crate) optional: &'static str,
    /// Every letter is a short option without a value, except those in `values` and
    /// `optional` (shells: `-x`, `-e`, `-l`…).
    pub(crate) any_letter: bool,
    /// `+x` clusters are options too (shells).
    pub(crate) plus: bool,
    /// A short option made of digits stands for a value (`nice -5`).
    pub(crate) numeric: bool,
    /// Long options without a value (an attached `=value` is tolerated).
    pub(crate) long_flags: &'static [&'static str],
    /// Long options with a value, attached (`--user=root`) or in the next word.
    pub(crate) long_values: &'static [&'static str],
    /// An unknown long option is taken for one without a value instead of an error (shells,
    /// whose long options are many and take no value).
    pub(crate) lenient_long: bool,
}

/// An option a handler asks about: a short letter (`Opt::Short('u')` for `-u`), or a long
/// option by its full name in the [`Spec`] (`Opt::Long("user")` for `--user`, `--us`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Opt {
    Short(char),
    Long(&'static str),
}

/// An option as it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Name {
    Short(char),
    /// A long option of the [`Spec`], by its full name.
    Long(&'static str),
    /// A long option that a lenient [`Spec`] does not list, as written (`bash --norc`).
    Unlisted(String),
    /// Digits that stand for a value (`nice -5`).
    Number,
}

impl Name {
    /// Whether this is the option `opt`.
    fn is(&self, opt: Opt) -> bool {
        match (self, opt) {
            (Name::Short(letter), Opt::Short(wanted)) => *letter == wanted,
            (Name::Long(name), Opt::Long(wanted)) => *name == wanted,
            (Name::Unlisted(name), Opt::Long(wanted)) => name == wanted,
            // An unlisted one-letter long option counts as the letter too (`bash --c CMD` as
            // `bash -c CMD`): a shell that does not refuse it might read it so.
            (Name::Unlisted(name), Opt::Short(wanted)) => name.chars().eq([wanted]),
            _ => false,
        }
    }
}

/// An option found: its name, and its value.
#[derive(Clone, Debug)]
struct Found {
    name: Name,
    value: Option<Arg>,
}

/// The options read, and where the operands start.
#[derive(Clone, Debug, Default)]
pub(crate) struct Parsed {
    options: Vec<Found>,
    /// Index of the first operand (or `args.len()`).
    pub(crate) next: usize,
}

impl Parsed {
    /// Whether any of `opts` was given (`&[Opt::Short('u'), Opt::Long("user")]`: either
    /// spelling).
    pub(crate) fn has(&self, opts: &[Opt]) -> bool {
        self.options
            .iter()
            .any(|o| opts.iter().any(|&opt| o.name.is(opt)))
    }

    /// The value of the last `opts[0]` given, or if it has none, of the last `opts[1]`, and so
    /// on: the order of `opts` says which spelling wins.
    pub(crate) fn value(&self, opts: &[Opt]) -> Option<&Arg> {
        opts.iter().find_map(|&opt| {
            self.options
                .iter()
                .rev()
                .find(|o| o.name.is(opt))
                .and_then(|o| o.value.as_ref())
        })
    }

    /// The values of all the `opts` given, in the order of the command line.
    pub(crate) fn values(&self, opts: &[Opt]) -> impl Iterator<Item = &Arg> {
        self.options
            .iter()
            .filter(|o| opts.iter().any(|&opt| o.name.is(opt)))
            .filter_map(|o| o.value.as_ref())
    }
}

fn unknown(program: &str, option: &str) -> GuardError {
    GuardError::UnknownOption {
        program: program.to_owned(),
        option: option.to_owned(),
    }
}

fn computed(program: &str) -> GuardError {
    GuardError::Opaque {
        program: program.to_owned(),
        reason: "an expansion stands where its options go",
    }
}

/// Reads the options of `program` in `args[start..]`, stopping at the first operand or `--`.
pub(crate) fn parse(
    program: &str,
    spec: &Spec,
    args: &[Arg],
    start: usize,
) -> Result<Parsed, GuardError> {
    let mut parsed = Parsed {
        options: Vec::new(),
        next: args.len(),
    };
    let mut i = start;
    while let Some(arg) = args.get(i) {
        let Some(text) = arg.known() else {
            // A word that may become several, or an option whose text is computed, cannot be
            // read. A single computed word is taken for the first operand: callers treat a
            // computed operand as unknown, which fails closed either way.
            let dash = matches!(
                arg.pieces.first(),
                Some(crate::word::Piece::Char { c: '-', .. })
            );
            if !arg.single() || dash {
                return Err(computed(program));
            }
            parsed.next = i;
            return Ok(parsed);
        };
        if text == "--" {
            parsed.next = i + 1;
            return Ok(parsed);
        }
        let is_short =
            text.len() > 1 && (text.starts_with('-') || (spec.plus && text.starts_with('+')));
        if !is_short {
            parsed.next = i;
            return Ok(parsed);
        }
        i += 1;
        if let Some(long) = text.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((name, value)) => (name, Some(Arg::literal(value))),
                None => (long, None),
            };
            if spec.numeric && name.chars().all(|c| c.is_ascii_digit()) {
                parsed.options.push(Found {
                    name: Name::Number,
                    value: None,
                });
                continue;
            }
            let Some((canonical, takes_value)) = long_option(spec, name) else {
                if spec.lenient_long {
                    parsed.options.push(Found {
                        name: Name::Unlisted(name.to_owned()),
                        value: attached,
                    });
                    continue;
                }
                return Err(unknown(program, &text));
            };
            let value = match attached {
                Some(value) => Some(value),
                None if takes_value => {
                    let value = take_value(program, args, i)?;
                    i += 1;
                    value
                }
                None => None,
            };
            parsed.options.push(Found {
                name: Name::Long(canonical),
                value,
            });
            continue;
        }
        let cluster: Vec<char> = text.chars().skip(1).collect();
        if spec.numeric && cluster.iter().all(char::is_ascii_digit) {
            parsed.options.push(Found {
                name: Name::Number,
                value: None,
            });
            continue;
        }
        for (k, &c) in cluster.iter().enumerate() {
            let rest: String = cluster.get(k + 1..).unwrap_or_default().iter().collect();
            if spec.values.contains(c) {
                let value = if rest.is_empty() {
                    let value = take_value(program, args, i)?;
                    i += 1;
                    value
                } else {
                    Some(Arg::literal(&rest))
                };
                parsed.options.push(Found {
                    name: Name::Short(c),
                    value,
                });
                break;
            }
            if spec.optional.contains(c) {
                parsed.options.push(Found {
                    name: Name::Short(c),
                    value: (!rest.is_empty()).then(|| Arg::literal(&rest)),
                });
                break;
            }
            if spec.flags.contains(c) || (spec.any_letter && c.is_ascii_alphabetic()) {
                parsed.options.push(Found {
                    name: Name::Short(c),
                    value: None,
                });
                continue;
            }
            return Err(unknown(program, &format!("-{c}")));
        }
    }
    Ok(parsed)
}

/// The word after an option that takes one; `None` when there is none (the program then fails
/// without running anything). A value must be exactly one word.
fn take_value(program: &str, args: &[Arg], i: usize) -> Result<Option<Arg>, GuardError> {
    match args.get(i) {
        None => Ok(None),
        Some(value) if value.single() => Ok(Some(value.clone())),
        Some(_) => Err(computed(program)),
    }
}

/// The long option `name` stands for, `getopt_long`-style: an exact name or an unambiguous
/// prefix. Returns its canonical name and whether it takes a value.
fn long_option(spec: &Spec, name: &str) -> Option<(&'static str, bool)> {
    let all = spec
        .long_flags
        .iter()
        .map(|&o| (o, false))
        .chain(spec.long_values.iter().map(|&o| (o, true)));
    let mut candidates = Vec::new();
    for (option, takes_value) in all {
        if option == name {
            return Some((option, takes_value));
        }
        if !name.is_empty() && option.starts_with(name) {
            candidates.push((option, takes_value));
        }
    }
    match candidates.as_slice() {
        [only] => Some(*only),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUDO: Spec = Spec {
        flags: "E",
        values: "u",
        optional: "h",
        any_letter: false,
        plus: false,
        numeric: false,
        long_flags: &["login", "list"],
        long_values: &["user", "group"],
        lenient_long: false,
    };

    fn args(words: &[&str]) -> Vec<Arg> {
        words.iter().map(|w| Arg::literal(w)).collect()
    }

    #[test]
    fn reads_clusters_values_and_prefixes() -> Result<(), GuardError> {
        let a = args(&["sudo", "-Eu", "root", "--gr", "g", "--login", "kubectl"]);
        let p = parse("sudo", &SUDO, &a, 1)?;
        assert_eq!(p.next, 6);
        assert!(p.has(&[Opt::Short('E')]) && p.has(&[Opt::Long("login")]));
        assert!(!p.has(&[Opt::Short('l')]), "a letter is not a long option");
        let user = p.value(&[Opt::Short('u')]).and_then(Arg::value);
        assert_eq!(user.as_deref(), Some("root"));
        let group = p.value(&[Opt::Long("group")]).and_then(Arg::value);
        assert_eq!(group.as_deref(), Some("g"));
        let a = args(&["sudo", "-uroot", "--", "-x"]);
        assert_eq!(parse("sudo", &SUDO, &a, 1)?.next, 3);
        let a = args(&["sudo", "--l", "x"]);
        assert!(parse("sudo", &SUDO, &a, 1).is_err(), "ambiguous prefix");
        let a = args(&["sudo", "-k", "x"]);
        assert!(parse("sudo", &SUDO, &a, 1).is_err(), "unknown option");
        Ok(())
    }

    #[test]
    fn lenient_spec_keeps_unlisted_long_options_by_name() -> Result<(), GuardError> {
        // A shell's long options are many: one not listed is still read, and a handler asking
        // for it by name (`--rcfile` of a shell that does not list it) finds it and its value.
        const SHELL: Spec = Spec {
            flags: "",
            values: "",
            optional: "",
            any_letter: true,
            plus: false,
            numeric: false,
            long_flags: &[],
            long_values: &[],
            lenient_long: true,
        };
        let a = args(&["xonsh", "--rcfile=<(x)", "--norc", "-i", "script"]);
        let p = parse("xonsh", &SHELL, &a, 1)?;
        assert_eq!(p.next, 4);
        assert!(p.has(&[Opt::Long("norc")]));
        let rcfile = p.value(&[Opt::Long("rcfile")]).and_then(Arg::value);
        assert_eq!(rcfile.as_deref(), Some("<(x)"));
        assert!(
            !p.has(&[Opt::Long("rc")]),
            "an unlisted name is matched whole"
        );
        Ok(())
    }
}
