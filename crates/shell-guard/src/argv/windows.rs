//! PowerShell and cmd: their command-line switches (`-Command`, `-EncodedCommand`, `/c`…),
//! `Invoke-Expression`, and the analysis of their text, which [`crate::foreign`] splits into
//! commands.

use std::ops::ControlFlow;

use super::{Ctx, Lang, from, opaque};
use crate::foreign::{self, Dialect};
use crate::walk::{Analyzer, Flow, Stdin};
use crate::word::Arg;
use crate::{GuardError, MAX_NESTING};

impl Analyzer<'_> {
    /// PowerShell or cmd text (see [`foreign`]).
    pub(crate) fn foreign(&mut self, text: &str, depth: usize, dialect: Dialect) -> Flow {
        if depth > MAX_NESTING {
            self.fail(GuardError::TooDeep {
                what: "command strings inside command strings",
            });
            return ControlFlow::Continue(());
        }
        if !self.take_parse() {
            return ControlFlow::Continue(());
        }
        let (commands, nested) = foreign::split(text, dialect);
        for command in commands {
            let mut words = command.words;
            let Some(first) = words.first_mut() else {
                continue;
            };
            if dialect == Dialect::Cmd {
                // `@cmd` only hides the echo; `kubectl/version`, `kubectl,get` start kubectl.
                if let Some(crate::word::Piece::Char { c: '@', .. }) = first.pieces.first() {
                    first.pieces.remove(0);
                }
                if let Some(value) = first.value()
                    && let Some(end) = value.find(['/', ',', '=', ';'])
                    && let Some(hit) = value.get(..end).and_then(|p| self.protected(p))
                {
                    return self.found(hit);
                }
            }
            // A command name quoted with its arguments (`& "kubectl get pods"`,
            // `[scriptblock]::Create('kubectl get pods')`): its first word counts too.
            if let Some(value) = first.value()
                && let Some(head) = value.split_whitespace().next()
                && head != value
                && let Some(hit) = self.protected(head)
            {
                return self.found(hit);
            }
            if dialect == Dialect::PowerShell
                && !command.called
                && words.len() == 1
                && words.iter().all(|w| w.value().is_none())
            {
                // A lone variable or subexpression: its value is output, not run.
                continue;
            }
            let ctx = Ctx {
                depth,
                stdin: if command.piped {
                    Stdin::Pipe
                } else {
                    Stdin::Inherit
                },
                appended: false,
                chain: 0,
            };
            self.argv(&words, &ctx)?;
        }
        for text in nested {
            self.foreign(&text, depth + 1, Dialect::PowerShell)?;
        }
        ControlFlow::Continue(())
    }

    /// `pwsh`, `powershell`: `-Command`, `-EncodedCommand`, `-File -`, or words that are a
    /// command.
    pub(super) fn powershell(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let lang = Lang::Foreign(Dialect::PowerShell);
        let mut i = 1;
        while let Some(arg) = args.get(i) {
            let Some(value) = arg.known() else {
                if arg.may_be_option() || arg.splits() {
                    self.fail(opaque(program, "an expansion stands where its options go"));
                    return ControlFlow::Continue(());
                }
                break;
            };
            if value == "-" || !(value.starts_with('-') || value.starts_with('/')) {
                break;
            }
            let name = value.trim_start_matches(['-', '/']).to_ascii_lowercase();
            let (name, attached) = match name.split_once(':') {
                Some((n, v)) => (n.to_owned(), Some(v.to_owned())),
                None => (name, None),
            };
            let value_at = |k: usize| args.get(k).cloned();
            match powershell_parameter(&name) {
                Some(Param::Command) => {
                    let mut rest: Vec<Arg> = attached.iter().map(|a| Arg::literal(a)).collect();
                    rest.extend(from(args, i + 1).iter().cloned());
                    if rest.first().and_then(Arg::known).as_deref() == Some("-") {
                        return self.stdin_code(program, ctx, lang);
                    }
                    if rest.is_empty() {
                        return ControlFlow::Continue(());
                    }
                    return self.windows_code(program, &rest, ctx, lang);
                }
                Some(Param::CommandWithArgs) => {
                    return match attached
                        .map(|a| Arg::literal(&a))
                        .or_else(|| value_at(i + 1))
                    {
                        Some(code) => self.code(program, &code, ctx, lang),
                        None => ControlFlow::Continue(()),
                    };
                }
                Some(Param::Encoded) => {
                    let encoded = attached.or_else(|| value_at(i + 1).and_then(|a| a.value()));
                    return match encoded.and_then(|e| foreign::decode_encoded_command(&e)) {
                        Some(text) => self.code(program, &Arg::literal(&text), ctx, lang),
                        None => {
                            self.fail(opaque(program, "its encoded command cannot be decoded"));
                            ControlFlow::Continue(())
                        }
                    };
                }
                Some(Param::File) => {
                    let file = attached.or_else(|| value_at(i + 1).and_then(|a| a.value()));
                    if file.as_deref() == Some("-") {
                        return self.stdin_code(program, ctx, lang);
                    }
                    return ControlFlow::Continue(());
                }
                Some(Param::Help) => return ControlFlow::Continue(()),
                Some(Param::Value) => i += if attached.is_some() { 1 } else { 2 },
                Some(Param::Flag) => i += 1,
                None => {
                    self.fail(GuardError::UnknownOption {
                        program: program.to_owned(),
                        option: value,
                    });
                    return ControlFlow::Continue(());
                }
            }
        }
        // A positional argument starts the command (`powershell.exe` reads it as -Command;
        // `pwsh` as -File, whose name is then examined as a program: the safer reading).
        let rest = from(args, i);
        if rest.is_empty() {
            return self.stdin_code(program, ctx, lang);
        }
        self.windows_code(program, rest, ctx, lang)
    }

    /// The words of a Windows program's command line, joined as it joins them. The program
    /// sees the words' own quotes only if the caller re-quoted them (as MSYS does for words
    /// with blanks), so that reading is checked for hits too.
    fn windows_code(&mut self, program: &str, words: &[Arg], ctx: &Ctx, lang: Lang) -> Flow {
        let quoted = Arg::join_quoted(words);
        let plain = Arg::join(words);
        if quoted.pieces != plain.pieces {
            let mut sub = self.sub();
            let _ = sub.code(program, &quoted, ctx, lang);
            if let Some(hit) = sub.into_hit() {
                return self.found(hit);
            }
        }
        self.code(program, &plain, ctx, lang)
    }

    /// `cmd /c`, `cmd /k`: the rest of the line is cmd text; without them cmd reads standard input.
    pub(super) fn cmd(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let lang = Lang::Foreign(Dialect::Cmd);
        for (i, arg) in args.iter().enumerate().skip(1) {
            let Some(value) = arg.known() else {
                self.fail(opaque(program, "an expansion stands where its options go"));
                return ControlFlow::Continue(());
            };
            let lower = value.to_ascii_lowercase();
            // Git Bash users write `//c` to keep MSYS from rewriting `/c` into a path.
            let switch = lower.strip_prefix("//").or_else(|| lower.strip_prefix('/'));
            match switch {
                Some(s) if s.starts_with(['c', 'k', 'r']) => {
                    let skip = value.len() - s.len() + 1;
                    let mut rest: Vec<Arg> = Vec::new();
                    if let Some(after) = value.get(skip..).filter(|a| !a.is_empty()) {
                        rest.push(Arg::literal(after));
                    }
                    rest.extend(from(args, i + 1).iter().cloned());
                    return self.windows_code(program, &rest, ctx, lang);
                }
                Some(_) => {}
                None => return self.windows_code(program, from(args, i), ctx, lang),
            }
        }
        self.stdin_code(program, ctx, lang)
    }

    /// `Invoke-Expression TEXT…` (`iex`): PowerShell text.
    pub(super) fn invoke_expression(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let rest: Vec<Arg> = from(args, 1)
            .iter()
            .filter(|a| {
                !a.known().is_some_and(|v| {
                    let v = v.to_ascii_lowercase();
                    v.len() > 1 && "-command".starts_with(&v)
                })
            })
            .cloned()
            .collect();
        if rest.is_empty() {
            return ControlFlow::Continue(());
        }
        self.code(
            program,
            &Arg::join(&rest),
            ctx,
            Lang::Foreign(Dialect::PowerShell),
        )
    }
}

/// What a PowerShell command-line parameter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Param {
    Command,
    CommandWithArgs,
    Encoded,
    File,
    Value,
    Flag,
    Help,
}

/// The parameter `name` (lower case, without its dash) stands for: its full name, an alias, or
/// a unique prefix; a prefix that could be a command parameter is taken for one.
fn powershell_parameter(name: &str) -> Option<Param> {
    const PARAMETERS: &[(&str, &[&str], Param)] = &[
        ("command", &["c"], Param::Command),
        ("commandwithargs", &["cwa"], Param::CommandWithArgs),
        ("encodedcommand", &["e", "ec", "en", "enc"], Param::Encoded),
        ("encodedarguments", &["ea"], Param::Value),
        ("file", &["f"], Param::File),
        ("executionpolicy", &["ex", "ep"], Param::Value),
        ("configurationname", &["config"], Param::Value),
        ("configurationfile", &[], Param::Value),
        ("custompipename", &[], Param::Value),
        ("inputformat", &["inp", "if"], Param::Value),
        ("outputformat", &["o", "of"], Param::Value),
        ("settingsfile", &["settings"], Param::Value),
        ("windowstyle", &["w"], Param::Value),
        ("workingdirectory", &["wd"], Param::Value),
        ("version", &["v"], Param::Value),
        ("psconsolefile", &[], Param::Value),
        ("noprofile", &["nop"], Param::Flag),
        ("nologo", &["nol"], Param::Flag),
        ("noninteractive", &["noni"], Param::Flag),
        ("noexit", &["noe"], Param::Flag),
        ("noprofileloadtime", &[], Param::Flag),
        ("login", &["l"], Param::Flag),
        ("interactive", &["i"], Param::Flag),
        ("mta", &[], Param::Flag),
        ("sta", &[], Param::Flag),
        ("help", &["h", "?"], Param::Help),
    ];
    if name.is_empty() {
        return None;
    }
    if let Some((_, _, param)) = PARAMETERS
        .iter()
        .find(|(full, aliases, _)| *full == name || aliases.contains(&name))
    {
        return Some(*param);
    }
    let candidates: Vec<Param> = PARAMETERS
        .iter()
        .filter(|(full, _, _)| full.starts_with(name))
        .map(|(_, _, param)| *param)
        .collect();
    for code in [Param::Command, Param::Encoded, Param::CommandWithArgs] {
        if candidates.contains(&code) {
            return Some(code);
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

    #[test]
    fn powershell_parameters() {
        assert_eq!(powershell_parameter("command"), Some(Param::Command));
        assert_eq!(powershell_parameter("com"), Some(Param::Command));
        assert_eq!(powershell_parameter("c"), Some(Param::Command));
        assert_eq!(powershell_parameter("noprofile"), Some(Param::Flag));
        assert_eq!(powershell_parameter("nop"), Some(Param::Flag));
        assert_eq!(powershell_parameter("executionpolicy"), Some(Param::Value));
        assert_eq!(powershell_parameter("enc"), Some(Param::Encoded));
        assert_eq!(powershell_parameter("no"), None);
        assert_eq!(powershell_parameter("bogus"), None);
    }
}
