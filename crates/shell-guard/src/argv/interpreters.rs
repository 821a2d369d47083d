//! Interpreters and command strings: POSIX shells (and fish, nu, xonsh, elvish), Python and
//! other script interpreters, `at` and `crontab`, which read commands on standard input; and
//! [`Analyzer::code`] and [`Analyzer::stdin_code`], through which every handler hands a command
//! string on to be parsed again.

use std::ops::ControlFlow;

use super::tables::{AT, ShellSpec};
use super::{Ctx, Lang, from, opaque};
use crate::foreign;
use crate::opts::Opt;
use crate::walk::{Analyzer, Flow, Stdin};
use crate::word::Arg;

/// Placeholder for a computed part of a POSIX command string, analysed for hits only.
const SHELL_PLACEHOLDER: &str = "${__shell_guard_unknown__}";

/// Paths through which a shell reads its standard input as a script.
pub(crate) fn is_stdin_path(path: &str) -> bool {
    // `/dev/./stdin`, `/dev//stdin`: the same file.
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    path == "-"
        || matches!(
            parts.as_slice(),
            ["dev", "stdin"] | ["dev", "fd", "0"] | ["proc", "self" | "thread-self", "fd", "0"]
        )
}

impl Analyzer<'_> {
    /// `sh`, `bash`, `fish`…: a command string (`-c`), a script file, or a script on standard
    /// input.
    pub(super) fn shell(
        &mut self,
        program: &str,
        spec: &ShellSpec,
        args: &[Arg],
        ctx: &Ctx,
    ) -> Flow {
        let Some(parsed) = self.options(program, &spec.options, args, 1) else {
            return ControlFlow::Continue(());
        };
        if let Some(code) = parsed.value(spec.code_options) {
            return self.code(program, &code.clone(), ctx, Lang::Shell);
        }
        for startup in [Opt::Long("rcfile"), Opt::Long("init-file")] {
            if parsed
                .value(&[startup])
                .is_some_and(|f| f.raw.starts_with("<("))
            {
                self.fail(opaque(
                    program,
                    "it runs a startup file that a command writes",
                ));
            }
        }
        let operands = from(args, parsed.next);
        if spec.c_operand && parsed.has(&[Opt::Short('c')]) {
            return match operands.first() {
                Some(code) => self.code(program, code, ctx, Lang::Shell),
                None => {
                    if ctx.appended {
                        self.fail(opaque(program, "its input supplies the command string"));
                    }
                    ControlFlow::Continue(())
                }
            };
        }
        if !parsed.has(&[Opt::Short('s')])
            && let Some(file) = operands.first()
        {
            return self.script_file(program, file, ctx, true);
        }
        self.stdin_code(program, ctx, Lang::Shell)
    }

    /// A shell or `source` reading the script `file`: its content is not analysed (a documented
    /// limit), unless it is standard input or computed.
    /// `options`: the program reads options before the file (a shell), so a computed name
    /// might be one (`bash "$X" CMD` runs CMD when X is `-c`); a name holding `/` cannot be.
    pub(super) fn script_file(
        &mut self,
        program: &str,
        file: &Arg,
        ctx: &Ctx,
        options: bool,
    ) -> Flow {
        self.script_name(file)?;
        match file.known() {
            Some(path) if is_stdin_path(&path) => self.stdin_code(program, ctx, Lang::Shell),
            Some(path) if path.starts_with("/dev/fd/") || path.starts_with("/proc/self/fd/") => {
                self.fail(opaque(program, "it reads a script from a descriptor"));
                ControlFlow::Continue(())
            }
            _ if file.raw.starts_with("<(") => {
                self.fail(opaque(program, "it runs a script that a command writes"));
                ControlFlow::Continue(())
            }
            None if options && file.may_be_option() && !file.has_char('/') => {
                // `bash "$X" CMD` runs CMD when X is `-c`.
                self.fail(opaque(program, "an expansion stands where its options go"));
                ControlFlow::Continue(())
            }
            _ => ControlFlow::Continue(()),
        }
    }

    /// `node`, `perl`, `ruby`…: a script named like a protected program is that program.
    pub(super) fn interpreter(&mut self, args: &[Arg]) -> Flow {
        const VALUES: &[&str] = &[
            "-W",
            "-X",
            "-Q",
            "-I",
            "-r",
            "-C",
            "-m",
            "--require",
            "--loader",
            "--import",
            "--env-file",
        ];
        let mut i = 1;
        while let Some(value) = args.get(i).and_then(Arg::known) {
            if !value.starts_with('-') || value == "-" {
                break;
            }
            i += if VALUES.contains(&value.as_str()) {
                2
            } else {
                1
            };
        }
        // What stops the options is the script: a computed word too (`~/bin/kubectl`,
        // `"$HOME/bin/kubectl"`), named by what it ends with. An unquoted computed word may
        // expand to nothing or to options: then the word after it may be the script.
        for script in from(args, i) {
            self.script_name(script)?;
            if script.known().is_some() || !script.splits() {
                break;
            }
        }
        ControlFlow::Continue(())
    }

    /// `python [options] (SCRIPT | -m MODULE | -c CODE) …`: a script or a module that is a
    /// protected program counts (inline code is not analysed).
    pub(super) fn python(&mut self, program: &str, args: &[Arg]) -> Flow {
        let mut i = 1;
        while let Some(arg) = args.get(i) {
            let Some(value) = arg.known() else {
                // One computed word is the script (`"$HOME/x.py"`); field splitting could make
                // it options and a module.
                if arg.splits() {
                    self.fail(opaque(program, "its options are computed"));
                    return ControlFlow::Continue(());
                }
                return self.script_name(arg);
            };
            if value == "--" {
                return match args.get(i + 1) {
                    Some(script) => self.script_name(script),
                    None => ControlFlow::Continue(()),
                };
            }
            if !value.starts_with('-') || value == "-" {
                return self.script_name(arg);
            }
            if value.starts_with("--") {
                i += if value == "--check-hash-based-pycs" {
                    2
                } else {
                    1
                };
                continue;
            }
            let cluster = &value[1..];
            let mut next = i + 1;
            for (at, letter) in cluster.char_indices() {
                if !matches!(letter, 'c' | 'm' | 'W' | 'X') {
                    continue;
                }
                let attached = &cluster[at + 1..];
                let (option_value, after) = if attached.is_empty() {
                    (args.get(i + 1).map(Arg::known), i + 2)
                } else {
                    (Some(Some(attached.to_owned())), i + 1)
                };
                match letter {
                    // Inline code is a documented limit.
                    'c' => return ControlFlow::Continue(()),
                    'm' => return self.python_module(program, option_value, from(args, after)),
                    _ => next = after,
                }
                break;
            }
            i = next;
        }
        ControlFlow::Continue(())
    }

    /// `python -m MODULE ARGS`: a module that is a protected program's CLI counts; `runpy` runs
    /// the module its first argument names.
    fn python_module(
        &mut self,
        program: &str,
        module: Option<Option<String>>,
        rest: &[Arg],
    ) -> Flow {
        /// Python modules that are an infrastructure CLI, and the program they are.
        const MODULES: &[(&str, &str)] = &[
            ("awscli", "aws"),
            ("azure.cli", "az"),
            ("snowflake.cli", "snow"),
            ("googlecloudsdk", "gcloud"),
        ];
        let Some(Some(module)) = module else {
            self.fail(opaque(program, "the module it runs is computed"));
            return ControlFlow::Continue(());
        };
        if module == "runpy" {
            return self.python_module(program, rest.first().map(Arg::known), from(rest, 1));
        }
        let package = module.split('.').next().unwrap_or_default();
        let named = MODULES
            .iter()
            .filter(|(name, _)| module == *name || module.starts_with(&format!("{name}.")))
            .map(|(_, cli)| *cli)
            .chain(std::iter::once(package));
        for cli in named {
            if let Some(mut hit) = self.protected(cli) {
                hit.word = format!("-m {module}");
                return self.found(hit);
            }
        }
        ControlFlow::Continue(())
    }

    /// A script run by an interpreter: a hit when it is named like a protected program.
    fn script_name(&mut self, script: &Arg) -> Flow {
        let name = script.known().or_else(|| script.tail());
        match name.and_then(|n| self.protected(&n)) {
            Some(mut hit) => {
                hit.word.clone_from(&script.raw);
                self.found(hit)
            }
            None => ControlFlow::Continue(()),
        }
    }

    /// `at`, `batch`: the commands on standard input run later; `-f FILE` and the listing and
    /// removing options read none.
    pub(super) fn at(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &AT, args, 1) else {
            return ControlFlow::Continue(());
        };
        if parsed.has(&['f', 'l', 'r', 'd', 'c'].map(Opt::Short)) {
            return ControlFlow::Continue(());
        }
        self.stdin_code(program, ctx, Lang::Shell)
    }

    /// `crontab`: the table on standard input is installed, unless a file is given or the table
    /// is listed, removed or edited.
    pub(super) fn crontab(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let operands: Vec<Option<String>> = from(args, 1).iter().map(Arg::known).collect();
        let listing = operands
            .iter()
            .flatten()
            .any(|v| v.starts_with('-') && v.contains(['l', 'r', 'e']));
        let file = operands.iter().flatten().any(|v| !v.starts_with('-'));
        if listing || file {
            return ControlFlow::Continue(());
        }
        self.stdin_code(program, ctx, Lang::Shell)
    }

    /// A program reading commands from its standard input.
    pub(super) fn stdin_code(&mut self, program: &str, ctx: &Ctx, lang: Lang) -> Flow {
        match &ctx.stdin {
            Stdin::Inherit | Stdin::File => ControlFlow::Continue(()),
            Stdin::Pipe => {
                self.fail(opaque(program, "it reads commands from a pipe"));
                ControlFlow::Continue(())
            }
            Stdin::Unknown => {
                self.fail(opaque(program, "it reads commands from a computed input"));
                ControlFlow::Continue(())
            }
            Stdin::Text(text) => {
                let text = text.clone();
                let inner = Ctx {
                    stdin: Stdin::Inherit,
                    ..ctx.clone()
                };
                self.code(program, &text, &inner, lang)
            }
        }
    }

    /// A command string: analysed at the next depth. When part of it is computed, a hit in
    /// the rest still counts; otherwise it cannot be analysed.
    pub(super) fn code(&mut self, program: &str, code: &Arg, ctx: &Ctx, lang: Lang) -> Flow {
        let placeholder = match lang {
            Lang::Shell => SHELL_PLACEHOLDER.to_owned(),
            Lang::Foreign(_) => foreign::UNKNOWN.to_string(),
        };
        let (text, computed) = code.text_with(&placeholder);
        let depth = ctx.depth + 1;
        if !computed {
            return self.code_text(&text, depth, &ctx.stdin, lang);
        }
        let mut sub = self.sub();
        let _ = sub.code_text(&text, depth, &ctx.stdin, lang);
        if let Some(hit) = sub.into_hit() {
            return self.found(hit);
        }
        self.fail(opaque(
            program,
            "its command string is computed when the line runs",
        ));
        ControlFlow::Continue(())
    }

    /// Command text in `lang`, at nesting `depth`.
    fn code_text(&mut self, text: &str, depth: usize, stdin: &Stdin, lang: Lang) -> Flow {
        match lang {
            Lang::Shell => self.script(text, depth, stdin),
            Lang::Foreign(dialect) => self.foreign(text, depth, dialect),
        }
    }
}
