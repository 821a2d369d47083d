//! The walk over a parsed program: every command, word, redirection and nested command text.

use std::cell::{Cell, RefCell};
use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

use brush_parser::ast;
use brush_parser::{ParserOptions, Token};

use crate::foreign::Dialect;
use crate::word::{self, Arg, Piece};
use crate::{Guard, GuardError, Hit, MAX_NESTING, MAX_SCRIPT_BYTES, Shell, Word};

/// `Break` once a protected program is found: the walk stops there.
pub(crate) type Flow = ControlFlow<()>;

/// At most this many `$(`, `${` and `$[` in one text: the tokenizer recurses on each level.
const MAX_EXPANSIONS: usize = 4096;
/// Stack the tokenizer may use per nested expansion (a debug build uses under 20 KiB).
const STACK_PER_EXPANSION: usize = 32 * 1024;
/// At most this many constructs nested in the grammar: it recurses on each.
const MAX_CONSTRUCTS: usize = 32;
/// At most this many parentheses and `case` commands nested in the grammar: it backtracks
/// exponentially on them when they are not closed.
const MAX_PARENS: usize = 10;
/// At most this many nesting characters after `NAME[` in a word (see [`subscript_nesting`]):
/// with 11, `x[${a[${b[${c[${d[${e[0]}]}]}]}]}]` took seconds to parse.
const MAX_SUBSCRIPT_NESTING: u32 = 10;
/// The parse time of such words in one line, as the sum of 4 to the power of each one's nesting
/// (the time grows about so fast): four words at the limit, or any number of plain subscripts
/// such as `a[${#a[@]}]` that a 64 KiB line can hold (40 words of 9 took seconds).
const MAX_SUBSCRIPT_COST: u64 = 4 * 4u64.pow(MAX_SUBSCRIPT_NESTING);
/// Stack kept free for the grammar and for the walk of one program.
const STACK: usize = 4 * 1024 * 1024;
/// At most this many command texts parsed for one line (each `$(…)` is one).
const MAX_PARSES: usize = 1000;
/// At most this many second readings of a word for one line (a launcher's `/x`, a switch or a
/// program): each doubles the work of what follows it.
const MAX_READINGS: usize = 64;

/// Where a command's standard input comes from.
#[derive(Clone, Debug)]
pub(crate) enum Stdin {
    /// Whatever the line's own input is (the agent's terminal or nothing).
    Inherit,
    /// The previous command of a pipeline.
    Pipe,
    /// A file.
    File,
    /// A descriptor or a process substitution: unknown content.
    Unknown,
    /// A here-document or here-string.
    Text(Arg),
}

/// An alias the line defines: its name, and its value when known.
pub(crate) type Alias = (String, Option<String>);

/// What an inspection keeps of the walk.
#[derive(Debug, Default)]
pub(crate) struct Collected {
    /// Every word, here-document bodies included.
    pub(crate) words: Vec<Word>,
    /// The words of each simple command, in order.
    pub(crate) commands: Vec<Vec<Word>>,
}

/// Collects the first hit and the first error of a walk.
pub(crate) struct Analyzer<'g> {
    pub(crate) guard: &'g Guard,
    hit: Option<Hit>,
    error: Option<GuardError>,
    /// Parses left, shared with the analyses this one starts.
    parses: Rc<Cell<usize>>,
    /// Second readings left, shared with the analyses this one starts.
    readings: Rc<Cell<usize>>,
    /// Here-documents met in the program being walked.
    heredocs: usize,
    /// The text of the program being walked.
    source: String,
    /// Every word met, shared with the analyses this one starts; `None`: not collected.
    collected: Option<Rc<RefCell<Collected>>>,
    /// Aliases the line defines and their values (when known), shared with the analyses this
    /// one starts.
    pub(crate) aliases: Rc<RefCell<Vec<Alias>>>,
}

impl<'g> Analyzer<'g> {
    pub(crate) fn new(guard: &'g Guard) -> Analyzer<'g> {
        Analyzer {
            guard,
            hit: None,
            error: None,
            parses: Rc::new(Cell::new(MAX_PARSES)),
            readings: Rc::new(Cell::new(MAX_READINGS)),
            heredocs: 0,
            source: String::new(),
            collected: None,
            aliases: Rc::default(),
        }
    }

    /// This analysis, keeping every word it meets.
    pub(crate) fn collecting_words(mut self) -> Analyzer<'g> {
        self.collected = Some(Rc::default());
        self
    }

    /// Where the words are kept (empty when they are not collected).
    pub(crate) fn collected(&self) -> Rc<RefCell<Collected>> {
        self.collected.clone().unwrap_or_default()
    }

    fn collect(&self, add: impl FnOnce(&mut Collected)) {
        if let Some(collected) = &self.collected {
            add(&mut collected.borrow_mut());
        }
    }

    /// A separate analysis (whose errors will not count) sharing this one's budget.
    pub(crate) fn sub(&self) -> Analyzer<'g> {
        Analyzer {
            guard: self.guard,
            hit: None,
            error: None,
            parses: Rc::clone(&self.parses),
            readings: Rc::clone(&self.readings),
            heredocs: 0,
            source: String::new(),
            collected: self.collected.clone(),
            aliases: Rc::clone(&self.aliases),
        }
    }

    /// Takes one parse from the budget; `false` (and an error) when it is spent.
    pub(crate) fn take_parse(&mut self) -> bool {
        let budget = Rc::clone(&self.parses);
        self.take(&budget, "command strings in one line")
    }

    /// Takes one second reading from the budget; `false` (and an error) when it is spent.
    pub(crate) fn take_reading(&mut self) -> bool {
        let budget = Rc::clone(&self.readings);
        self.take(&budget, "words read two ways in one line")
    }

    fn take(&mut self, budget: &Cell<usize>, what: &'static str) -> bool {
        let left = budget.get();
        if left == 0 {
            self.fail(GuardError::TooDeep { what });
            return false;
        }
        budget.set(left - 1);
        true
    }

    /// Analyses a whole command line.
    pub(crate) fn run(mut self, shell: Shell, script: &str) -> Result<Option<Hit>, GuardError> {
        let _ = match shell {
            Shell::Posix => self.script(script, 0, &Stdin::Inherit),
            Shell::PowerShell => self.foreign(script, 0, Dialect::PowerShell),
            Shell::Cmd => self.foreign(script, 0, Dialect::Cmd),
        };
        match (self.hit, self.error) {
            (Some(hit), _) => Ok(Some(hit)),
            (None, Some(error)) => Err(error),
            (None, None) => Ok(None),
        }
    }

    /// The hit found, if any: for analyses whose errors do not count.
    pub(crate) fn into_hit(self) -> Option<Hit> {
        self.hit
    }

    /// Records an error; the walk goes on, since a hit found later is the better answer.
    pub(crate) fn fail(&mut self, error: GuardError) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }

    /// Records a hit and stops the walk.
    pub(crate) fn found(&mut self, hit: Hit) -> Flow {
        self.hit = Some(hit);
        ControlFlow::Break(())
    }

    /// Analyses shell text at nesting `depth`.
    pub(crate) fn script(&mut self, text: &str, depth: usize, stdin: &Stdin) -> Flow {
        if depth > MAX_NESTING {
            self.fail(GuardError::TooDeep {
                what: "command strings inside command strings",
            });
            return ControlFlow::Continue(());
        }
        if text.len() > MAX_SCRIPT_BYTES {
            self.fail(GuardError::TooLong {
                len: text.len(),
                limit: MAX_SCRIPT_BYTES,
            });
            return ControlFlow::Continue(());
        }
        if !self.take_parse() {
            return ControlFlow::Continue(());
        }
        match parse(text) {
            Ok((program, heredocs_read)) => {
                let outer = std::mem::replace(&mut self.heredocs, 0);
                let outer_source = std::mem::replace(&mut self.source, text.to_owned());
                let flow = stacker::maybe_grow(STACK, STACK, || {
                    for list in &program.complete_commands {
                        self.list(list, depth, stdin)?;
                    }
                    ControlFlow::Continue(())
                });
                let found = std::mem::replace(&mut self.heredocs, outer);
                self.source = outer_source;
                if found > heredocs_read {
                    // brush-parser's tokenizer missed a here-document body (after `((`, which it
                    // takes for arithmetic) and its grammar then took other tokens for the body
                    // and the delimiter.
                    self.fail(GuardError::Syntax(
                        "a here-document the parser cannot read".to_owned(),
                    ));
                }
                flow
            }
            Err(error) => {
                self.fail(error);
                ControlFlow::Continue(())
            }
        }
    }

    fn list(&mut self, list: &ast::CompoundList, d: usize, stdin: &Stdin) -> Flow {
        for item in &list.0 {
            for (_, pipeline) in item.0.iter() {
                self.pipeline(pipeline, d, stdin)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn pipeline(&mut self, pipeline: &ast::Pipeline, d: usize, stdin: &Stdin) -> Flow {
        for (i, command) in pipeline.seq.iter().enumerate() {
            let input = if i == 0 { stdin.clone() } else { Stdin::Pipe };
            let timed = i == 0 && pipeline.timed.is_some();
            self.command(command, d, &input, timed)?;
        }
        ControlFlow::Continue(())
    }

    fn command(&mut self, command: &ast::Command, d: usize, stdin: &Stdin, timed: bool) -> Flow {
        match command {
            ast::Command::Simple(simple) => self.simple(simple, d, stdin, timed),
            ast::Command::Compound(compound, redirects) => {
                let input = self.redirects(redirects.as_ref(), d, stdin)?;
                self.compound(compound, d, &input)
            }
            ast::Command::Function(function) => {
                self.word(&function.fname, d)?;
                let input = self.redirects(function.body.1.as_ref(), d, stdin)?;
                self.compound(&function.body.0, d, &input)
            }
            ast::Command::ExtendedTest(test, redirects) => {
                self.redirects(redirects.as_ref(), d, stdin)?;
                self.test(&test.expr, d)
            }
        }
    }

    fn compound(&mut self, compound: &ast::CompoundCommand, d: usize, stdin: &Stdin) -> Flow {
        use ast::CompoundCommand as C;
        match compound {
            C::Arithmetic(arithmetic) => {
                // brush-parser takes `( (cmd) )` and `((cmd) )` for arithmetic: bash reads
                // nested subshells unless the parentheses open as `((` and close as `))`.
                let (start, end) = (arithmetic.loc.start.index, arithmetic.loc.end.index);
                let written: String = self
                    .source
                    .chars()
                    .skip(start)
                    .take(end.saturating_sub(start))
                    .collect();
                let arithmetic_text = written.starts_with("((") && written.ends_with("))");
                match written.strip_prefix('(').and_then(|w| w.strip_suffix(')')) {
                    Some(inner) if !arithmetic_text => self.script(inner, d + 1, stdin),
                    _ => self.text(&arithmetic.expr.value, d),
                }
            }
            C::ArithmeticForClause(clause) => {
                for expr in [&clause.initializer, &clause.condition, &clause.updater]
                    .into_iter()
                    .flatten()
                {
                    self.text(&expr.value, d)?;
                }
                self.list(&clause.body.list, d, stdin)
            }
            C::BraceGroup(group) => self.list(&group.list, d, stdin),
            C::Subshell(subshell) => self.list(&subshell.list, d, stdin),
            C::ForClause(clause) => {
                for value in clause.values.iter().flatten() {
                    self.word(value, d)?;
                }
                self.list(&clause.body.list, d, stdin)
            }
            C::CaseClause(clause) => {
                self.word(&clause.value, d)?;
                for item in &clause.cases {
                    for pattern in &item.patterns {
                        self.word(pattern, d)?;
                    }
                    if let Some(list) = &item.cmd {
                        self.list(list, d, stdin)?;
                    }
                }
                ControlFlow::Continue(())
            }
            C::IfClause(clause) => {
                self.list(&clause.condition, d, stdin)?;
                self.list(&clause.then, d, stdin)?;
                for branch in clause.elses.iter().flatten() {
                    if let Some(condition) = &branch.condition {
                        self.list(condition, d, stdin)?;
                    }
                    self.list(&branch.body, d, stdin)?;
                }
                ControlFlow::Continue(())
            }
            C::WhileClause(clause) | C::UntilClause(clause) => {
                self.list(&clause.0, d, stdin)?;
                self.list(&clause.1.list, d, stdin)
            }
            C::Coprocess(coprocess) => {
                if let Some(name) = &coprocess.name {
                    self.word(name, d)?;
                }
                self.command(&coprocess.body, d, stdin, false)
            }
        }
    }

    fn test(&mut self, expr: &ast::ExtendedTestExpr, d: usize) -> Flow {
        use ast::ExtendedTestExpr as E;
        match expr {
            E::And(a, b) | E::Or(a, b) => {
                self.test(a, d)?;
                self.test(b, d)
            }
            E::Not(a) | E::Parenthesized(a) => self.test(a, d),
            E::UnaryTest(_, w) => self.word(w, d).map_continue(|_| ()),
            E::BinaryTest(_, a, b) => {
                self.word(a, d)?;
                self.word(b, d).map_continue(|_| ())
            }
        }
    }

    fn simple(
        &mut self,
        simple: &ast::SimpleCommand,
        d: usize,
        stdin: &Stdin,
        timed: bool,
    ) -> Flow {
        let mut args = Vec::new();
        let mut input = stdin.clone();
        for item in simple.prefix.iter().flat_map(|p| p.0.iter()) {
            input = self.item(item, d, &mut args, input)?;
        }
        if let Some(name) = &simple.word_or_name {
            let arg = self.word(name, d)?;
            args.push(arg.unwrap_or_else(|| Arg::unknown(&name.value)));
        }
        for item in simple.suffix.iter().flat_map(|s| s.0.iter()) {
            input = self.item(item, d, &mut args, input)?;
        }
        // `time -f FMT cmd`: bash's `time` keyword took the word `time`; the rest is
        // `/usr/bin/time`'s syntax.
        // Variable names with subscripts run their command substitutions in `printf -v`,
        // `read`, `unset`, `test -v` and friends: `printf -v 'a[$(cmd)]' x`.
        for arg in args.iter().skip(1) {
            if let Some(value) = arg.value()
                && value.contains('[')
                && (value.contains("$(") || value.contains('`'))
            {
                self.text_hits_only(&value, d)?;
            }
        }
        if timed
            && args
                .first()
                .and_then(Arg::known)
                .is_some_and(|v| v.starts_with('-'))
        {
            args.insert(0, Arg::literal("time"));
        }
        self.collect(|c| {
            c.commands.push(
                args.iter()
                    .map(|arg| Word {
                        written: arg.raw.clone(),
                        value: arg.value(),
                    })
                    .collect(),
            );
        });
        let ctx = crate::argv::Ctx {
            depth: d,
            stdin: input,
            appended: false,
            chain: 0,
        };
        self.argv(&args, &ctx)
    }

    /// One prefix or suffix item of a simple command: adds to its words, returns its input.
    fn item(
        &mut self,
        item: &ast::CommandPrefixOrSuffixItem,
        d: usize,
        args: &mut Vec<Arg>,
        input: Stdin,
    ) -> ControlFlow<(), Stdin> {
        use ast::CommandPrefixOrSuffixItem as I;
        match item {
            I::IoRedirect(redirect) => return self.redirect(redirect, d, input),
            I::Word(w) => {
                let arg = self.word(w, d)?;
                args.push(arg.unwrap_or_else(|| Arg::unknown(&w.value)));
            }
            I::AssignmentWord(assignment, w) => {
                // The whole `NAME=value` is a word of the line too (`GLOBIGNORE=x` changes
                // how later globs match).
                self.collect(|c| {
                    c.words.push(Word {
                        written: w.value.clone(),
                        value: None,
                    });
                });
                self.assignment(assignment, d)?;
                if !args.is_empty() {
                    // An argument of `export`, `declare`…: a word like any other (its command
                    // texts were just analysed).
                    let arg = word::scan_word(&w.value)
                        .map_or_else(|_| Arg::unknown(&w.value), |(a, _)| a);
                    args.push(arg);
                }
            }
            I::ProcessSubstitution(kind, subshell) => {
                self.list(&subshell.list, d, &Stdin::Inherit)?;
                let raw = match kind {
                    ast::ProcessSubstitutionKind::Read => "<(…)",
                    ast::ProcessSubstitutionKind::Write => ">(…)",
                };
                args.push(Arg::unknown(raw));
            }
        }
        ControlFlow::Continue(input)
    }

    fn assignment(&mut self, assignment: &ast::Assignment, d: usize) -> Flow {
        let name = match &assignment.name {
            ast::AssignmentName::ArrayElementName(name, index) => {
                self.text(index, d)?;
                name
            }
            ast::AssignmentName::VariableName(name) => name,
        };
        match &assignment.value {
            ast::AssignmentValue::Scalar(value) => {
                let arg = self.word(value, d)?;
                if let Some(arg) = &arg {
                    self.command_variable(name, arg, d)?;
                }
                self.stored_code(arg.as_ref(), d)
            }
            ast::AssignmentValue::Array(items) => {
                for (key, value) in items {
                    if let Some(key) = key {
                        self.word(key, d)?;
                    }
                    let arg = self.word(value, d)?;
                    // `PROMPT_COMMAND=(…)` runs each element (bash 5.1).
                    if let Some(arg) = &arg {
                        self.command_variable(name, arg, d)?;
                    }
                    self.stored_code(arg.as_ref(), d)?;
                }
                ControlFlow::Continue(())
            }
        }
    }

    /// Variables whose value other programs run as a command (`EDITOR=kubectl git commit`,
    /// `GIT_SSH_COMMAND=…`): the value is checked for protected programs.
    pub(crate) fn command_variable(&mut self, name: &str, value: &Arg, d: usize) -> Flow {
        const VARIABLES: &[&str] = &[
            "EDITOR",
            "VISUAL",
            "PAGER",
            "MANPAGER",
            "SYSTEMD_PAGER",
            "GIT_EDITOR",
            "GIT_PAGER",
            "GIT_SEQUENCE_EDITOR",
            "GIT_SSH",
            "GIT_SSH_COMMAND",
            "GIT_ASKPASS",
            "GIT_EXTERNAL_DIFF",
            "GIT_PROXY_COMMAND",
            "SSH_ASKPASS",
            "SUDO_ASKPASS",
            "SUDO_EDITOR",
            "BROWSER",
            "LESSOPEN",
            "LESSCLOSE",
            "PROMPT_COMMAND",
            "KUBE_EDITOR",
            "SVN_EDITOR",
            "CVS_RSH",
            "RSYNC_RSH",
            "FZF_DEFAULT_COMMAND",
            "FCEDIT",
            "PS0",
            "PS1",
            "PS2",
            "PS4",
            "TERMINAL",
            "SHELL",
        ];
        if name.starts_with("BASH_FUNC_") {
            // bash imports `BASH_FUNC_f%%=() { …; }` from its environment as the function `f`,
            // which a later `bash -c f` runs.
            return match value.value() {
                Some(body) => self.command_text(&format!("f {body}"), d + 1),
                None => {
                    self.fail(GuardError::Opaque {
                        program: name.to_owned(),
                        reason: "an exported function's body is computed",
                    });
                    ControlFlow::Continue(())
                }
            };
        }
        if matches!(name, "BASH_ENV" | "ENV")
            && value
                .value()
                .is_some_and(|path| crate::argv::is_stdin_path(&path))
        {
            // The shell this starts reads its startup commands from its input.
            self.fail(GuardError::Opaque {
                program: name.to_owned(),
                reason: "the shell reads its startup commands from its input",
            });
            return ControlFlow::Continue(());
        }
        if name == "GIT_CONFIG_PARAMETERS"
            || name.starts_with("GIT_CONFIG_VALUE_")
            || name.starts_with("GIT_CONFIG_KEY_")
        {
            return self.git_config(name, value, d);
        }
        if !VARIABLES.contains(&name) {
            return ControlFlow::Continue(());
        }
        match value.value() {
            // Prompts are expanded, not run: only their command substitutions are code.
            Some(text) if name.starts_with("PS") => self.text(&text, d),
            Some(text) => self.command_text(text.trim_start_matches(['|', '!']), d + 1),
            // A computed prompt: the command substitutions of its value, each expansion empty
            // (quotes removed and `$'…'` decoded, as the prompt's expansion reads it).
            None if name.starts_with("PS") => self.text_hits_only(&value.text_with("").0, d),
            // A computed command (`"${EDITOR:-vim}"`, common): what is written in it is checked
            // for protected programs, in the views a program that runs it may read (git runs
            // `sh -c "$EDITOR \"$@\""`, which reads the value's quotes and `${…}` again): as
            // written, without its quotes, its value with each expansion empty (`"$E kubectl"`),
            // and the text those expansions may put there (`"${E:-kubectl}"`).
            None => {
                let text = value.text_with("").0;
                let written = operands(&value.raw);
                let read_again = operands(&text);
                let mut views = vec![
                    value.raw.clone(),
                    unquoted(&value.raw),
                    text,
                    unquoted(&written),
                    // `$'…'` and `$"…"` in a double-quoted operand are decoded.
                    written.replace("$\"", "\"").replace('"', ""),
                    written.clone(),
                    read_again.clone(),
                ];
                views.sort_unstable();
                views.dedup();
                for view in &views {
                    self.hits_only(view, d + 1)?;
                    self.substituted_programs(view)?;
                }
                self.loose_commands(&written, d)?;
                self.loose_commands(&read_again, d)
            }
        }
    }

    /// Each command in `text` (a view of a computed value), read loosely, for protected
    /// programs: quotes inside an expansion can hide how bash splits the value
    /// (`${E:-'x}';kubectl}` is `x};kubectl`), so quotes, backslashes and line continuations
    /// are dropped, braces and `$` become blanks, and commands split at `;`, `&`, `|`,
    /// parentheses, backquotes and newlines, each analysed for hits on its own (an error in one
    /// hides nothing in the others, as `sh -c` runs the lines before one it cannot parse). A
    /// pattern as a command's first word is a hit when it matches a protected name.
    fn loose_commands(&mut self, text: &str, d: usize) -> Flow {
        let plain: String = text
            .replace("\\\n", "")
            .replace("$\"", "\"")
            .chars()
            .filter(|c| !matches!(c, '"' | '\'' | '\\'))
            // `{kubectl,x}` is a brace expansion: its words are separate.
            .map(|c| {
                if matches!(c, '{' | '}' | '$' | ',') {
                    ' '
                } else {
                    c
                }
            })
            .collect();
        for command in plain.split([';', '&', '|', '(', ')', '`', '\n']) {
            let mut words = command.split_whitespace();
            let Some(first) = words.next() else {
                continue;
            };
            if first.contains(['*', '?', '['])
                && let Some(hit) = self.pattern_names(first)
            {
                let args: Vec<Arg> = words.map(Arg::literal).collect();
                if !self.gate_lets_through(&hit, &args) {
                    return self.found(hit);
                }
            }
            self.hits_only(command, d + 1)?;
        }
        ControlFlow::Continue(())
    }

    /// A protected program named by a word inside a command substitution of `text`
    /// (`"$(which kubectl)"`, `` "`echo kubectl` $X" ``): what the substitution prints may be
    /// the program of the value.
    fn substituted_programs(&mut self, text: &str) -> Flow {
        let mut depth = 0usize;
        let mut backquoted = false;
        let mut word = String::new();
        let mut previous = ' ';
        for c in text.chars().chain([' ']) {
            let boundary = match c {
                '(' if previous == '$' => {
                    depth += 1;
                    true
                }
                ')' if depth > 0 => {
                    depth -= 1;
                    true
                }
                '`' => {
                    backquoted = !backquoted;
                    true
                }
                c => {
                    c.is_whitespace()
                        || matches!(
                            c,
                            ';' | '|'
                                | '&'
                                | '"'
                                | '\''
                                | '('
                                | ')'
                                | '$'
                                | '{'
                                | '}'
                                | ','
                                | '<'
                                | '>'
                                | '\\'
                        )
                }
            };
            previous = c;
            if !boundary {
                if depth > 0 || backquoted {
                    word.push(c);
                }
                continue;
            }
            if let Some(hit) = self.protected(&word)
                && !self.gate_lets_through(&hit, &[])
            {
                return self.found(hit);
            }
            word.clear();
        }
        ControlFlow::Continue(())
    }

    /// Configuration given to git through the environment, read for what git runs because of
    /// it (see [`crate::argv::setting_commands`]). `GIT_CONFIG_PARAMETERS` holds entries
    /// `'key'='value'` or (older) `'key=value'`, read as [`git_config_entries`] reads them;
    /// `GIT_CONFIG_VALUE_<n>` is a value whose key is not known here, so it is read as every
    /// kind of command; `GIT_CONFIG_KEY_<n>` may name an `ext::` transport. When a part is
    /// computed, what it holds could pair the quotes differently, so every piece between quotes
    /// counts too; a command with a computed part is an error.
    fn git_config(&mut self, name: &str, value: &Arg, d: usize) -> Flow {
        const COMPUTED: char = '\0';
        let (text, computed) = value.text_with(&COMPUTED.to_string());
        let mut entries: Vec<(String, String)> = Vec::new();
        if name == "GIT_CONFIG_PARAMETERS" {
            entries = git_config_entries(&text);
            if computed {
                entries.extend(
                    text.split('\'')
                        .map(|piece| (String::new(), piece.to_owned())),
                );
            }
        } else if name.starts_with("GIT_CONFIG_KEY_") {
            entries.push((text.clone(), String::new()));
        } else {
            entries.push(("alias.".to_owned(), text.clone()));
            entries.push(("core.editor".to_owned(), text.clone()));
        }
        for (key, value) in &entries {
            self.hits_only(&value.replace(COMPUTED, " "), d + 1)?;
            for command in crate::argv::setting_commands(key, value) {
                if command.contains(COMPUTED) {
                    self.fail(GuardError::Opaque {
                        program: name.to_owned(),
                        reason: "a command git runs from it is computed",
                    });
                } else {
                    self.command_text(&command, d + 1)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Analyses text that a program runs as shell commands (an editor or ssh command, a git
    /// alias, an exported function): like the line itself, what cannot be analysed in it is an
    /// error.
    pub(crate) fn command_text(&mut self, text: &str, depth: usize) -> Flow {
        self.script(text, depth, &Stdin::Inherit)
    }

    /// Analyses shell text for protected programs only: what cannot be analysed in it is no
    /// error (the text may not even be meant as a command).
    pub(crate) fn hits_only(&mut self, text: &str, depth: usize) -> Flow {
        let mut sub = self.sub();
        let _ = sub.script(text, depth, &Stdin::Inherit);
        self.hit_or_budget(sub)
    }

    /// The hit of an analysis whose other errors do not count (its text may not be code), or
    /// the budget it ran out of: what was not read may hold a hit, so that one does count.
    pub(crate) fn hit_or_budget(&mut self, sub: Analyzer<'g>) -> Flow {
        if let Some(error @ GuardError::TooDeep { .. }) = &sub.error {
            self.fail(error.clone());
        }
        match sub.into_hit() {
            Some(hit) => self.found(hit),
            None => ControlFlow::Continue(()),
        }
    }

    /// A value stored in a variable can run later without `eval`: bash expands command
    /// substitutions in array subscripts when arithmetic reads the variable
    /// (`x='a[$(cmd)]'; echo $((x))`), and in `PS4` under `set -x`. Such text is analysed.
    fn stored_code(&mut self, value: Option<&Arg>, d: usize) -> Flow {
        match value.and_then(Arg::value) {
            Some(text) if text.contains("$(") || text.contains('`') => {
                self.text_hits_only(&text, d)
            }
            _ => ControlFlow::Continue(()),
        }
    }

    /// [`Analyzer::text`] for protected programs only (the text may not be code at all).
    fn text_hits_only(&mut self, text: &str, d: usize) -> Flow {
        let mut sub = self.sub();
        let _ = sub.text(text, d);
        self.hit_or_budget(sub)
    }

    fn redirects(
        &mut self,
        redirects: Option<&ast::RedirectList>,
        d: usize,
        stdin: &Stdin,
    ) -> ControlFlow<(), Stdin> {
        let mut input = stdin.clone();
        for redirect in redirects.iter().flat_map(|r| r.0.iter()) {
            input = self.redirect(redirect, d, input)?;
        }
        ControlFlow::Continue(input)
    }

    /// Analyses a redirection; returns the input it leaves.
    fn redirect(
        &mut self,
        redirect: &ast::IoRedirect,
        d: usize,
        input: Stdin,
    ) -> ControlFlow<(), Stdin> {
        use ast::IoFileRedirectKind as K;
        use ast::IoFileRedirectTarget as T;
        match redirect {
            ast::IoRedirect::File(fd, kind, target) => {
                let reads = matches!(kind, K::Read | K::ReadAndWrite | K::DuplicateInput)
                    && fd.unwrap_or(0) == 0;
                let from = match target {
                    T::Filename(w) => {
                        self.word(w, d)?;
                        Stdin::File
                    }
                    T::Fd(_) => Stdin::Unknown,
                    T::ProcessSubstitution(_, subshell) => {
                        self.list(&subshell.list, d, &Stdin::Inherit)?;
                        Stdin::Unknown
                    }
                    T::Duplicate(w) => {
                        self.word(w, d)?;
                        Stdin::Unknown
                    }
                };
                ControlFlow::Continue(if reads { from } else { input })
            }
            ast::IoRedirect::HereDocument(fd, doc) => {
                self.heredocs += 1;
                let body = &doc.doc.value;
                let pieces = if doc.requires_expansion {
                    match word::scan_text(body) {
                        Ok((pieces, nested)) => {
                            for text in nested {
                                self.script(&text, d + 1, &Stdin::Inherit)?;
                            }
                            pieces
                        }
                        Err(error) => {
                            self.fail(error);
                            vec![Piece::Unknown { splits: false }]
                        }
                    }
                } else {
                    Arg::literal(body).pieces
                };
                let text = Arg {
                    raw: body.clone(),
                    pieces,
                };
                self.collect(|c| {
                    c.words.push(Word {
                        written: body.clone(),
                        value: text.value(),
                    });
                });
                ControlFlow::Continue(if fd.unwrap_or(0) == 0 {
                    Stdin::Text(text)
                } else {
                    input
                })
            }
            ast::IoRedirect::HereString(fd, w) => {
                let arg = self.word(w, d)?;
                let text = match arg {
                    Some(mut arg) => {
                        arg.pieces.push(Piece::Char {
                            c: '\n',
                            quoted: true,
                        });
                        arg
                    }
                    None => Arg::unknown(&w.value),
                };
                ControlFlow::Continue(if fd.unwrap_or(0) == 0 {
                    Stdin::Text(text)
                } else {
                    input
                })
            }
            ast::IoRedirect::OutputAndError(w, _) => {
                self.word(w, d)?;
                ControlFlow::Continue(input)
            }
        }
    }

    /// Scans a word and analyses the command texts in it. `None` when it cannot be scanned (the
    /// error is recorded).
    pub(crate) fn word(&mut self, w: &ast::Word, d: usize) -> ControlFlow<(), Option<Arg>> {
        // An array subscript is arithmetic, which runs command substitutions even quoted
        // (`[[ 'a[$(cmd)]' -eq 0 ]]`, `${a['$(cmd)']}`); `${x@P}` expands a prompt.
        if w.value.contains('[') && (w.value.contains("$(") || w.value.contains('`')) {
            let text = w.value.replace(['\'', '"'], "");
            self.text_hits_only(&text, d)?;
        }
        if w.value.contains("@P}") {
            self.fail(GuardError::Opaque {
                program: w.value.clone(),
                reason: "prompt expansion runs what the variable holds",
            });
        }
        match word::scan_word(&w.value) {
            Ok((arg, nested)) => {
                self.collect(|c| {
                    c.words.push(Word {
                        written: w.value.clone(),
                        value: arg.value(),
                    });
                });
                for text in nested {
                    self.script(&text, d + 1, &Stdin::Inherit)?;
                }
                ControlFlow::Continue(Some(arg))
            }
            Err(error) => {
                self.fail(error);
                ControlFlow::Continue(None)
            }
        }
    }

    /// Analyses the command texts in text where only `$`, backquotes and `\` are special
    /// (arithmetic, stored values).
    pub(crate) fn text(&mut self, text: &str, d: usize) -> Flow {
        match word::scan_text(text) {
            Ok((_, nested)) => {
                for text in nested {
                    self.script(&text, d + 1, &Stdin::Inherit)?;
                }
                ControlFlow::Continue(())
            }
            Err(error) => {
                self.fail(error);
                ControlFlow::Continue(())
            }
        }
    }
}

/// Parses shell text, within the budgets that keep brush-parser's recursion and backtracking
/// bounded.
/// Refuses a `<<` whose delimiter is missing (`cat << (`): a syntax error for bash, and text on
/// which brush's tokenizer loops for ever inside `$(…)` (`$(<< (#`). Quotes are not looked at, so
/// `echo '<< ('` is refused too: a denial, never a miss.
fn empty_heredoc_delimiter(text: &str) -> Result<(), GuardError> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(found) = text[i..].find("<<") {
        let mut k = i + found + 2;
        i = k;
        if bytes.get(k) == Some(&b'<') {
            // `<<<`, a here-string.
            i = k + 1;
            continue;
        }
        if bytes.get(k) == Some(&b'-') {
            k += 1;
        }
        while matches!(bytes.get(k), Some(b' ' | b'\t')) {
            k += 1;
        }
        if matches!(
            bytes.get(k),
            None | Some(b'(' | b')' | b'<' | b'>' | b';' | b'&' | b'|' | b'\n')
        ) {
            return Err(GuardError::Syntax(
                "a here-document operator `<<` without a delimiter".to_owned(),
            ));
        }
    }
    Ok(())
}

/// Returns the program and how many here-documents the tokenizer read.
fn parse(text: &str) -> Result<(ast::Program, usize), GuardError> {
    empty_heredoc_delimiter(text)?;
    let options = ParserOptions::default();
    let expansions = ["$(", "${", "$["]
        .iter()
        .map(|s| text.matches(s).count())
        .sum::<usize>();
    if expansions > MAX_EXPANSIONS {
        return Err(GuardError::TooDeep {
            what: "expansions in one command string",
        });
    }
    let stack = STACK + expansions * STACK_PER_EXPANSION;
    let tokens = stacker::maybe_grow(stack, stack, || {
        catch_unwind(AssertUnwindSafe(|| {
            brush_parser::uncached_tokenize_str(text, &options.tokenizer_options())
        }))
    })
    .map_err(|_| GuardError::Syntax("the tokenizer failed".to_owned()))?
    .map_err(|e| GuardError::Syntax(e.to_string()))?;
    let heredocs = check_tokens(&tokens)?;
    let program = stacker::maybe_grow(STACK, STACK, || {
        catch_unwind(AssertUnwindSafe(|| {
            brush_parser::parse_tokens(&tokens, &options)
        }))
    })
    .map_err(|_| GuardError::Syntax("the parser failed".to_owned()))?
    .map_err(|e| GuardError::Syntax(e.to_string()))?;
    Ok((program, heredocs))
}

/// Bounds how deeply the tokens nest, and rejects what makes brush-parser panic. Returns how
/// many here-documents the tokenizer read: `<<`, the delimiter, the body, and the closing
/// delimiter it adds (an empty span).
fn check_tokens(tokens: &[Token]) -> Result<usize, GuardError> {
    let heredocs = tokens
        .windows(4)
        .filter(|w| match w {
            [
                Token::Operator(op, _),
                Token::Word(..),
                Token::Word(..),
                Token::Word(_, end),
            ] => (op == "<<" || op == "<<-") && end.start.index == end.end.index,
            _ => false,
        })
        .count();
    #[derive(PartialEq)]
    enum Open {
        Paren,
        Brace,
        Case,
        Keyword,
    }
    let mut open: Vec<Open> = Vec::new();
    let mut subscript_cost = 0u64;
    for (i, token) in tokens.iter().enumerate() {
        match token {
            Token::Operator(op, _) if op == "(" => open.push(Open::Paren),
            Token::Operator(op, _) if op == ")" && open.last() == Some(&Open::Paren) => {
                open.pop();
            }
            Token::Word(w, _) => match w.as_str() {
                "{" => open.push(Open::Brace),
                "}" if open.last() == Some(&Open::Brace) => {
                    open.pop();
                }
                "case" => open.push(Open::Case),
                "esac" if open.last() == Some(&Open::Case) => {
                    open.pop();
                }
                "if" | "for" | "while" | "until" | "select" => open.push(Open::Keyword),
                "fi" | "done" if open.last() == Some(&Open::Keyword) => {
                    open.pop();
                }
                w if subscript_nesting(w) > 0 => {
                    let nesting = subscript_nesting(w);
                    subscript_cost += 4u64.pow(nesting.min(MAX_SUBSCRIPT_NESTING + 1));
                    if nesting > MAX_SUBSCRIPT_NESTING || subscript_cost > MAX_SUBSCRIPT_COST {
                        return Err(GuardError::TooDeep {
                            what: "expansions in array subscripts",
                        });
                    }
                }
                w if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) => {
                    // A descriptor number (`2>x`) must fit an i32: brush-parser unwraps it.
                    let redirects = matches!(tokens.get(i + 1), Some(Token::Operator(op, _))
                        if op.starts_with(['<', '>']));
                    if redirects && w.parse::<i32>().is_err() {
                        return Err(GuardError::Syntax(format!(
                            "file descriptor number {w} is too large"
                        )));
                    }
                }
                _ => {}
            },
            Token::Operator(..) => {}
        }
        if open.len() > MAX_CONSTRUCTS {
            return Err(GuardError::TooDeep {
                what: "nested commands",
            });
        }
        if open
            .iter()
            .filter(|o| matches!(o, Open::Paren | Open::Case))
            .count()
            > MAX_PARENS
        {
            return Err(GuardError::TooDeep {
                what: "nested parentheses and case commands",
            });
        }
    }
    Ok(heredocs)
}

/// The entries of `GIT_CONFIG_PARAMETERS` as git reads them, key and value: blanks separate
/// entries, `'…'` quotes, and a backslash outside quotes takes the next character (git writes
/// a `'` in a value as `'\''`). A `=` outside quotes ends the key (`'key'='value'`, where the
/// key may hold a `=`); otherwise the first `=` does (`'key=value'`). Anything else git would
/// refuse is kept as written: reading more only ever denies.
fn git_config_entries(text: &str) -> Vec<(String, String)> {
    let mut entries = Vec::new();
    let mut entry = String::new();
    // Where the key ends: the byte offset in `entry` of a `=` outside quotes.
    let mut split: Option<usize> = None;
    let mut quoted = false;
    let mut finish = |entry: &mut String, split: &mut Option<usize>| {
        if entry.is_empty() {
            return;
        }
        let at = split.take().or_else(|| entry.find('='));
        let (key, value) = match at {
            Some(at) => (entry[..at].to_owned(), entry[at + 1..].to_owned()),
            None => (entry.clone(), String::new()),
        };
        entries.push((key, value));
        entry.clear();
    };
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => quoted = !quoted,
            c if quoted => entry.push(c),
            '\\' => entry.extend(chars.next()),
            '=' if split.is_none() => {
                split = Some(entry.len());
                entry.push('=');
            }
            c if c.is_whitespace() => finish(&mut entry, &mut split),
            c => entry.push(c),
        }
    }
    finish(&mut entry, &mut split);
    entries
}

/// How many nesting characters a word starting `NAME[` holds after the `[`; 0 for any other
/// word. brush-parser tries every word as an assignment, and parses such a subscript with its
/// backtracking word grammar, whose time grows exponentially with nesting (and its stack with
/// `a[a[a[…`).
fn subscript_nesting(word: &str) -> u32 {
    let name_len = word
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    let starts_like_a_name = word
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
    match word.get(name_len..) {
        Some(rest) if starts_like_a_name && rest.starts_with('[') => rest
            .chars()
            .filter(|c| matches!(c, '(' | '{' | '[' | '"' | '`'))
            .count()
            .try_into()
            .unwrap_or(u32::MAX),
        _ => 0,
    }
}

/// `raw` with each `${…}` replaced by the text written in it that can become its value: the
/// word of `${x:-word}`, `${x-word}`, `${x:=word}`, `${x=word}`, `${x:+word}` and `${x+word}`,
/// and the replacement of `${x/pattern/replacement}` (and of `//`, `/#`, `/%`), each read the
/// same way in turn; nothing for the other forms, whose value is the variable's.
/// (`EDITOR="${E:-kubectl}"` runs kubectl when `E` is unset; `"${HOME/*/kubectl}"` always.)
/// As in bash, a `}` closes the innermost `${`, and a lone `{` is a character. One pass without
/// recursion: the text is an agent's, of any nesting. Quotes are kept, and their text is read
/// too (the program that runs the value reads it again, and its `${…}` with it).
fn operands(raw: &str) -> String {
    let chars: Vec<char> = raw.chars().collect();
    let mut out = String::new();
    // Expansions open whose operand is being copied (their `}` is not).
    let mut copying = 0usize;
    // Expansions open, the outermost of which gives nothing: nothing in them is copied.
    let mut skipping = 0usize;
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let step = match c {
            '\\' => {
                if skipping == 0 {
                    out.extend(chars.get(i..(i + 2).min(chars.len())).unwrap_or_default());
                }
                2
            }
            '$' if chars.get(i + 1) == Some(&'{') => {
                match (skipping == 0)
                    .then(|| operand_start(&chars, i + 2))
                    .flatten()
                {
                    Some(start) => {
                        copying += 1;
                        start - i
                    }
                    None => {
                        skipping += 1;
                        2
                    }
                }
            }
            '}' if skipping > 0 => {
                skipping -= 1;
                1
            }
            '}' if copying > 0 => {
                copying -= 1;
                1
            }
            _ => {
                if skipping == 0 {
                    out.push(c);
                }
                1
            }
        };
        i += step;
    }
    out
}

/// Where the operand of the expansion whose text starts at `at` (after `${`) begins, when it
/// can become the expansion's value (see [`operands`]).
fn operand_start(chars: &[char], at: usize) -> Option<usize> {
    let is_name = |c: &char| c.is_ascii_alphanumeric() || *c == '_';
    let mut i = at + usize::from(chars.get(at) == Some(&'!'));
    match chars.get(i) {
        Some(c) if c.is_ascii_alphabetic() || *c == '_' => {
            while chars.get(i).is_some_and(is_name) {
                i += 1;
            }
        }
        Some(c) if "@*#?-$!0123456789".contains(*c) => i += 1,
        _ => return None,
    }
    if chars.get(i) == Some(&'[') {
        let mut depth = 0usize;
        loop {
            match chars.get(i)? {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        i += 1;
    }
    i += usize::from(chars.get(i) == Some(&':'));
    match chars.get(i)? {
        '-' | '=' | '+' => Some(i + 1),
        '/' => {
            i += 1;
            if matches!(chars.get(i), Some('/' | '#' | '%')) {
                i += 1;
            }
            // The replacement follows the pattern's end: a `/` outside quotes and any `${…}`.
            let mut depth = 0usize;
            while let Some(&c) = chars.get(i) {
                match c {
                    '\\' => i += 1,
                    '\'' | '"' => {
                        i = (i + 1..chars.len()).find(|&j| chars.get(j) == Some(&c))?;
                    }
                    '$' if chars.get(i + 1) == Some(&'{') => depth += 1,
                    '}' if depth == 0 => return None,
                    '}' => depth -= 1,
                    '/' if depth == 0 => return Some(i + 1),
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => None,
    }
}

/// `raw` with its quotes and backslashes removed: the words a quoted value holds, as a shell
/// reads them when the value is run (`EDITOR="kubectl --context $X"`, `EDITOR=kubectl\ $X`).
fn unquoted(raw: &str) -> String {
    raw.chars()
        .filter(|c| !matches!(c, '"' | '\'' | '\\'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::operands;

    #[test]
    fn operands_are_the_text_expansions_may_put_in_a_value() {
        for (raw, expected) in [
            (r#""${E:-kubectl}""#, r#""kubectl""#),
            ("${E-a}${E:=b}${E=c}${E:+d}${E+e}", "abcde"),
            ("${HOME/*/x}${HOME//a/y}${HOME/#/z}${HOME/%/w}", "xyzw"),
            (r"${HOME/a\/b/x}", "x"),
            ("${HOME/${X}/x}${HOME/${X:-/}/y}", "xy"),
            ("${A:-${B:-kube}ctl} get", "kubectl get"),
            ("${a[0]:-x}${!p:-y}${1:-z}${@/#/w}${_e2:-v}", "xyzwv"),
            ("${a[x[1]]:-y}${a[x[1]}", "y"),
            ("${H/$x/y}${=-x}", "y"),
            (r#"${H/#[!'}']*/x}${H/"/"/y}${H/'/}"#, "xy"),
            ("${E#x}${E%y}${#E}${E:1:2}${E?m}${E^^}${E/x}${E[1}${=E}", ""),
            ("${E#${F:-x}}after", "after"),
            ("${E#{}after", "after"),
            (r"\${E:-x}a\", r"\${E:-x}a\"),
            (r"${E#\}}a", "a"),
            ("${E:-a}}", "a}"),
            ("{${E:-a}}", "{a}"),
            ("${E:-{a}b}", "{ab}"),
            ("${E:-x", "x"),
            ("$ ${", "$ "),
        ] {
            assert_eq!(operands(raw), expected, "{raw}");
        }
    }
}
