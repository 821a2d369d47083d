//! Which protected program, if any, a shell command line would start.
//!
//! Torii's pre-shell hook hands an agent's command line to [`Guard::check`] before the agent's
//! own shell tool runs it. The guard answers with the first protected program it recognises
//! ([`Hit`]), with nothing, or with an error when it cannot tell ([`GuardError`]); the hook denies
//! on a hit and on an error alike (fail closed). The analysis is pure: it parses text and never
//! runs, reads or looks up anything (no files, no environment, no `PATH`).
//!
//! # Parser
//!
//! Programs are parsed with [`brush_parser`] 0.4, the tokenizer and grammar of the brush shell:
//! bash-compatible (subshells, groups, functions, here-documents, `[[ ]]`, `(( ))`, process
//! substitution, `coproc`), maintained, MIT-licensed, pure Rust, and its AST keeps every word as
//! written, quotes included, so quote removal can follow bash exactly. The alternatives were
//! worse: `conch-parser` is unmaintained since 2018, `yash-syntax` is GPL-3.0 and POSIX-only, and
//! `tree-sitter-bash` is C behind FFI with an error-tolerant grammar (a syntax error still yields
//! a tree, which a guard must not trust).
//!
//! brush-parser has sharp edges, measured and contained here:
//! * its recursion follows the nesting of the input (2 MiB of stack overflow at about 150 nested
//!   `$(` in a debug build), so it runs on a stack sized from the input ([`stacker`]);
//! * its grammar backtracks exponentially on unclosed `(` and `case` (25 of them take seconds),
//!   so the nesting of the tokens is bounded before the grammar runs;
//! * it tries every word as an assignment and parses a `NAME[…]` subscript with its backtracking
//!   word grammar, so such subscripts are bounded too;
//! * it reads `( (cmd) )` and `((cmd) )` as arithmetic, where bash runs nested subshells, so an
//!   arithmetic command is trusted only when written `((…))`; its tokenizer loses a
//!   here-document after `<((`, which is detected and refused;
//! * it panics on a descriptor number that does not fit an `i32` (`99999999999>x`), which is
//!   rejected beforehand (any other panic is caught and becomes an error);
//! * its *word* parser (quotes and expansions inside one word) is exponential on some inputs
//!   (20 unclosed `"$(` take seconds), so this crate does not use it: words are scanned here, by a
//!   linear scanner that follows bash's rules (`'…'`, `"…"`, `\`, line continuations, `$'…'` with
//!   its escapes, `$"…"`, backquotes and their backslashes, `$(…)`, `$((…))` versus `$( (…) )`,
//!   `${…}`, `~`), here-documents and comments inside `$(…)` included.
//!
//! # What is recognised
//!
//! Every command of the line is examined: lists, pipelines, subshells, groups, `if`/`for`/`while`/
//! `until`/`case` (conditions and bodies), function bodies, `coproc`, command and process
//! substitutions wherever they stand (arguments, double quotes, assignments, redirection targets,
//! here-document bodies, `${…}` operands, arithmetic, array subscripts). A command word matches a
//! protected program when its final path component (split on `/` and `\`), less one extension
//! among `.exe .cmd .bat .com .ps1 .sh`, equals the program's name, ASCII case ignored (Windows
//! and macOS file systems ignore case); an unquoted Windows path (`C:\tools\kubectl.exe`) and
//! zsh's `=kubectl` count too.
//!
//! Programs that run other programs are followed, recursively: `env` (its `-S` string re-split),
//! `sudo`, `doas`, `pkexec`, `run0`, `systemd-run`, `gsudo`, `command` (not `-v`/`-V`),
//! `builtin`, `exec`, `nohup`, `nice`, `ionice`, `timeout`, `time` (keyword and program), `xargs`,
//! `watch`, `find -exec`/`-execdir`/`-ok`/`-okdir`, `fd -x`/`-X`, `busybox`, `toybox`, `stdbuf`,
//! `setsid`, `chroot`, `chrt`, `taskset`, `flock`, `strace`, `ltrace`, `unshare`, `nsenter`,
//! `su -c`, `runuser`, `sg`, `script -c`, `unbuffer`, `caffeinate`, `proxychains`, `torsocks`,
//! `winpty`, `wsl`, `repeat`, `nocorrect`, `noglob`, `-`, `call`, `hash -p`, `compgen -C`,
//! `complete -C`. Their own options are skipped
//! by a table of the options each one has (clusters, attached values, unique prefixes of long
//! options); an option not in the table is an error, since it might take a value.
//!
//! Command strings are re-parsed: `sh`/`bash`/`zsh`/`dash`/`ksh`/`ash`/`mksh`/`yash`/`csh`/`tcsh`/
//! `elvish` `-c` (also in clusters such as `-lc`), `fish`/`nu`/`xonsh` `-c`, `eval`, `watch`,
//! `trap` actions, `alias` values, `mapfile -C`, `pwsh`/`powershell` `-Command` (any unique
//! prefix; `-EncodedCommand` is decoded), `cmd /c` and `/k` (a `!` there is unknown: delayed
//! expansion, which the guard cannot see, removes or replaces it), `Invoke-Expression`; so is a
//! here-document or here-string given to a shell, `source /dev/stdin`, `at` or `pwsh -Command -`
//! on its standard input. Values that other programs run as commands are analysed like the
//! line itself (a computed program in them is an error; a value computed as a whole, such as
//! `"${EDITOR:-vim}"`, is only checked for protected programs, with the defaults and
//! replacements its expansions may put there): `EDITOR=`, `PAGER=`,
//! `GIT_SSH_COMMAND=` and similar variables, `git -c` aliases (`!…` with the words they receive,
//! others as git command lines), pagers, editors and
//! helpers (also through `GIT_CONFIG_*`, in both forms of `GIT_CONFIG_PARAMETERS` entries),
//! `ssh -o ProxyCommand=`, `rsync -e`, `compgen -C`;
//! strings given to `tmux`, `screen` and `parallel`, and stored values that bash would expand
//! later (`x='a[$(…)]'`), are checked for protected programs.
//! A script named like a protected program, run by a shell or an interpreter (`bash
//! ~/.asdf/shims/kubectl`, `python3 /usr/bin/aws`), is that program, and so is a Python module
//! that is a known CLI (`python -m awscli`, `-m runpy awscli`, `-m azure.cli`), as are functions
//! exported through the environment (`env 'BASH_FUNC_f%%=() { …; }' bash -c f`). Package runners and
//! credential injectors (`uv run`, `npx`, `bundle exec`, `aws-vault exec`, `op run`, …),
//! `start`, `Start-Process`, `runas` and `open`, and debuggers, profilers, sandboxes and
//! launchers (`gdb --args`, `valgrind`, `perf`, `ssh-agent`, `fakeroot`, `prlimit`, `setarch`,
//! `xvfb-run`, `firejail`, `bwrap`, …) take options this crate does not model: there every
//! argument naming a protected program counts.
//!
//! PowerShell and cmd text (in `pwsh -Command`, `cmd /c`, or a whole line given to
//! [`Guard::check_as`]) is not parsed with a real grammar: it is split into commands on `;`,
//! `|`, `&`, `&&`, `||`, newlines, parentheses and braces (and `=` in PowerShell), quotes and
//! escapes are removed, and the first word of each command is examined; variables (`$x`,
//! `%X%`, `!X!`) are computed values.
//!
//! # Fail closed
//!
//! [`Guard::check`] returns an error, and the hook denies, when the program cannot be known from
//! the text:
//! * the line does not parse (including bash constructs brush does not support, such as
//!   `select`), is longer than [`MAX_SCRIPT_BYTES`], or nests deeper than the budgets;
//! * a command word is computed (`$K get pods`, `$(echo kubectl)`, `${CMD:-kubectl}`, a glob such
//!   as `*ctl`, brace expansion, `~`). A computed directory before a literal final component is
//!   fine when quoted (`"$HOME/bin/ls"`), but an unquoted expansion anywhere in a command word is
//!   an error unless the literal final component is itself protected (then it is a hit): field
//!   splitting can make `$D/ls` start any program. `$EDITOR file` is an error too; the agent can
//!   write the program's name instead;
//! * a command string is computed (`sh -c "$X"`, `eval "$(ssh-agent -s)"`, a here-document with
//!   `$VAR` given to `bash`), a shell reads its commands from a pipe (`curl … | sh`) or from a
//!   script a command writes (`bash <(curl …)`, `source <(…)`), `xargs` or `find` supplies the
//!   command (`xargs sh -c`, `find -exec {} \;`), `fc` re-runs history, or an unquoted expansion
//!   stands where a wrapper's options go (`sudo $CMD`, `env $(cat .env) node`).
//!
//! When the line holds both a recognised program and something that cannot be analysed, the hit
//! is returned; a hit found in the known part of a computed command string counts
//! (`sh -c "kubectl get $KIND"`).
//!
//! # Limits
//!
//! The hook guards against an agent reaching for the wrong tool; it is not a sandbox. Not seen:
//! the content of script files (`bash deploy.sh`, `source env.sh`, `./run.sh`), including a file
//! the same line writes; interpreters' inline code (`python3 -c`, `node -e`, `perl -e`, `awk`'s
//! `system()`); programs that run commands from their own configuration or arguments (`make`,
//! `npm run`, `git` hooks, `ssh host …`, `docker run …`); copies, links and renames of an
//! executable (`cp "$(which kubectl)" k; ./k`); values that reach code at run time by means not
//! followed here (`read`, files, arithmetic on variables set elsewhere); wrappers not listed
//! above. Over-approximations, which deny harmless lines: `alias NAME=VALUE` is checked as if
//! VALUE ran, and a command word naming an alias the line defines is an error (the alias runs
//! its value with the words after it); a function named like a protected program counts as
//! that program; quoted words given to runners, multiplexers and `parallel` are read as
//! commands; `git --config-env` and `BASH_ENV=/dev/stdin` are errors.
//!
//! # Budgets
//!
//! Input longer than [`MAX_SCRIPT_BYTES`] is refused; command strings are re-parsed at most
//! [`MAX_NESTING`] levels deep and at most 1000 times per line; the grammar sees at most 32
//! nested constructs, 10 of them parentheses or `case`; one word holds at most 32 nested quotes
//! or expansions; a chain of wrappers is at most 32 programs long.

mod argv;
mod foreign;
mod names;
mod opts;
mod walk;
mod word;

/// Longest command line [`Guard::check`] analyses, in bytes; a longer one is an error.
pub const MAX_SCRIPT_BYTES: usize = 64 * 1024;

/// How deep command strings nest: `sh -c`, `eval`, command substitutions and the like each add a
/// level. Deeper is an error.
pub const MAX_NESTING: usize = 16;

/// The language of a command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Shell {
    /// bash, zsh, sh and the other POSIX shells: parsed with brush-parser.
    #[default]
    Posix,
    /// PowerShell: split into commands, not parsed (see the crate docs).
    PowerShell,
    /// cmd.exe: split into commands, not parsed (see the crate docs).
    Cmd,
}

/// The programs to recognise.
#[derive(Clone, Debug, Default)]
pub struct Guard {
    programs: Vec<Protected>,
}

/// Whether one use of a gated program is blocked, decided from its arguments (the words after
/// the program's own word), each `None` when it is computed as the line runs.
pub type Gate = fn(&[Option<String>]) -> bool;

#[derive(Clone, Debug)]
struct Protected {
    /// Compared with a command word's normalised name.
    key: String,
    /// Reported in a [`Hit`].
    name: String,
    /// `None`: every use is a hit.
    gate: Option<Gate>,
}

/// One word of a command line, as the walk met it: command names, arguments, assignment
/// values and redirection targets, in every command the line holds (nested command strings
/// included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// The word as written, quotes and expansions included.
    pub written: String,
    /// Its value after quote removal when nothing in it is computed; glob characters stay.
    pub value: Option<String>,
}

/// What [`Guard::inspect`] found in a command line.
#[derive(Clone, Debug)]
pub struct Inspection {
    /// What [`Guard::check_as`] answers.
    pub verdict: Result<Option<Hit>, GuardError>,
    /// The words the walk met before it stopped (it stops at a hit): command names,
    /// arguments, assignment values, redirection targets and here-document bodies.
    pub words: Vec<Word>,
    /// The words of each simple command met, in order (`cd DIR` is `["cd", "DIR"]`).
    pub commands: Vec<Vec<Word>>,
}

/// A protected program that the command line would start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The protected program, as given to [`Guard::new`] without directory or extension:
    /// `kubectl` for `/usr/local/bin/kubectl`.
    pub program: String,
    /// The command word that starts it, after quote removal: `/usr/bin/kubectl.exe`.
    pub word: String,
}

/// Why a command line cannot be analysed. The caller denies it (fail closed).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GuardError {
    /// The command line is longer than [`MAX_SCRIPT_BYTES`].
    #[error("the command line is {len} bytes long; the limit is {limit}")]
    TooLong {
        /// Its length in bytes.
        len: usize,
        /// [`MAX_SCRIPT_BYTES`].
        limit: usize,
    },
    /// Command strings, constructs or wrappers nest deeper than the budgets.
    #[error("the command line nests too deeply to analyse ({what})")]
    TooDeep {
        /// Which budget ran out.
        what: &'static str,
    },
    /// The text is not valid shell syntax (or uses syntax the parser does not support).
    #[error("cannot parse the command line: {0}")]
    Syntax(String),
    /// A command word is computed when the line runs: its program cannot be known.
    #[error("cannot tell which program `{word}` runs")]
    DynamicProgram {
        /// The word as written.
        word: String,
    },
    /// A program runs commands that cannot be known from the text.
    #[error("cannot tell what `{program}` runs: {reason}")]
    Opaque {
        /// The program (a shell, `xargs`, a wrapper…).
        program: String,
        /// Why, in a few words.
        reason: &'static str,
    },
    /// A wrapper has an option the guard does not know, which might take a value.
    #[error("`{program}` has an option this guard does not know: `{option}`")]
    UnknownOption {
        /// The wrapper.
        program: String,
        /// The option as written.
        option: String,
    },
}

impl Guard {
    /// A guard for these programs: bare names (`kubectl`) or paths (`/usr/local/bin/kubectl`,
    /// `C:\tools\az.cmd`); only the final path component counts, less its extension.
    pub fn new<I, S>(programs: I) -> Guard
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut list: Vec<Protected> = Vec::new();
        for program in programs {
            let name = names::display_name(program.as_ref());
            let key = names::normalize(&name);
            if key.is_empty() || list.iter().any(|p| p.key == key) {
                continue;
            }
            list.push(Protected {
                key,
                name,
                gate: None,
            });
        }
        Guard { programs: list }
    }

    /// Adds `program`, a hit only when `blocked` says so of its arguments. The gate sees the
    /// arguments of a command the guard reads whole (`torii doctor`, also behind wrappers such
    /// as `env` or `sh -c`); where it cannot (an operand of a package runner, a script given to
    /// an interpreter) every use is a hit. A program already protected stays ungated.
    #[must_use]
    pub fn gated(mut self, program: &str, blocked: Gate) -> Guard {
        let name = names::display_name(program);
        let key = names::normalize(&name);
        if !key.is_empty() && self.lookup(&key).is_none() {
            self.programs.push(Protected {
                key,
                name,
                gate: Some(blocked),
            });
        }
        self
    }

    /// The protected programs' names, as they are reported in a [`Hit`].
    pub fn programs(&self) -> impl Iterator<Item = &str> {
        self.programs.iter().map(|p| p.name.as_str())
    }

    /// Which protected program `script`, a POSIX shell command line, would start.
    ///
    /// `Ok(None)`: none is recognised (always, for a guard protecting nothing). `Ok(Some(hit))`: the first one found. `Err`: the line
    /// cannot be analysed (it does not parse, a command word or command string is computed at run
    /// time, a budget ran out); the caller denies it. When the line holds both a recognised
    /// program and something that cannot be analysed, the hit is returned.
    pub fn check(&self, script: &str) -> Result<Option<Hit>, GuardError> {
        self.check_as(Shell::Posix, script)
    }

    /// [`Guard::check`] for a command line in another shell's language: for agents whose shell
    /// tool runs PowerShell or cmd (on Windows).
    pub fn check_as(&self, shell: Shell, script: &str) -> Result<Option<Hit>, GuardError> {
        if self.programs.is_empty() {
            // Nothing to protect: nothing to deny either.
            return Ok(None);
        }
        if script.len() > MAX_SCRIPT_BYTES {
            return Err(GuardError::TooLong {
                len: script.len(),
                limit: MAX_SCRIPT_BYTES,
            });
        }
        walk::Analyzer::new(self).run(shell, script)
    }

    /// [`Guard::check_as`], and every word the walk met: for a caller that also looks at what
    /// the words name (paths, for instance). Unlike [`Guard::check_as`], a guard protecting
    /// nothing still walks the line.
    pub fn inspect(&self, shell: Shell, script: &str) -> Inspection {
        if script.len() > MAX_SCRIPT_BYTES {
            return Inspection {
                verdict: Err(GuardError::TooLong {
                    len: script.len(),
                    limit: MAX_SCRIPT_BYTES,
                }),
                words: Vec::new(),
                commands: Vec::new(),
            };
        }
        let analyzer = walk::Analyzer::new(self).collecting_words();
        let collected = analyzer.collected();
        let verdict = analyzer.run(shell, script);
        let collected = collected.take();
        Inspection {
            verdict,
            words: collected.words,
            commands: collected.commands,
        }
    }

    /// A protected program whose normalised name the glob `pattern` matches (an invalid
    /// pattern matches none).
    fn lookup_pattern(&self, pattern: &str) -> Option<&Protected> {
        let pattern = glob::Pattern::new(pattern).ok()?;
        self.programs.iter().find(|p| pattern.matches(&p.key))
    }

    /// The protected program whose normalised name is `key`.
    fn lookup(&self, key: &str) -> Option<&Protected> {
        self.programs.iter().find(|p| p.key == key)
    }
}
