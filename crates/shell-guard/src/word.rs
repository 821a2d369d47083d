//! Words: bash's quoting, escapes and expansions, scanned without expanding anything.
//!
//! A word becomes a list of [`Piece`]s: characters the shell keeps (marked when quoting protects
//! them from globbing and brace expansion) and expansions whose value is unknown. The command
//! texts a word would run (`$(…)`, backquotes) are collected for the caller to analyse. The
//! scanner is linear and its recursion is bounded by [`MAX_WORD_DEPTH`].

use crate::GuardError;

/// How deeply quotes and expansions may nest inside one word.
pub(crate) const MAX_WORD_DEPTH: usize = 32;

/// One element of a scanned word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// A character of the word's value. `quoted`: quoting or escaping protects it from globbing
    /// and brace expansion.
    Char { c: char, quoted: bool },
    /// The value of an expansion. `splits`: field splitting (unquoted) or `"$@"` can turn it into
    /// zero or several words.
    Unknown { splits: bool },
}

/// A word after quote removal, as far as it is known without running anything.
#[derive(Clone, Debug)]
pub(crate) struct Arg {
    /// The word as written (for messages).
    pub(crate) raw: String,
    pub(crate) pieces: Vec<Piece>,
}

impl Arg {
    /// A word whose value is `text`, quoted (no globbing): words that come from somewhere other
    /// than bash's own word splitting, such as `env -S` or a PowerShell command.
    pub(crate) fn literal(text: &str) -> Arg {
        Arg {
            raw: text.to_owned(),
            pieces: text
                .chars()
                .map(|c| Piece::Char { c, quoted: true })
                .collect(),
        }
    }

    /// A single word whose value is unknown (a process substitution's path, a placeholder that
    /// `xargs` or `find` fills in).
    pub(crate) fn unknown(raw: &str) -> Arg {
        Arg {
            raw: raw.to_owned(),
            pieces: vec![Piece::Unknown { splits: false }],
        }
    }

    /// The word with every occurrence of `pattern` in its known characters replaced by an
    /// unknown part after `prefix` (what `xargs -I` and `find -exec` fill in), or `None` when
    /// there is none.
    pub(crate) fn fill_in(&self, pattern: &str, prefix: &str) -> Option<Arg> {
        let pattern: Vec<char> = pattern.chars().collect();
        if pattern.is_empty() {
            return None;
        }
        let mut pieces = Vec::with_capacity(self.pieces.len());
        let mut found = false;
        let mut i = 0;
        while i < self.pieces.len() {
            let matches = pattern.iter().enumerate().all(|(k, want)| {
                matches!(self.pieces.get(i + k), Some(Piece::Char { c, .. }) if c == want)
            });
            if matches {
                pieces.extend(prefix.chars().map(|c| Piece::Char { c, quoted: true }));
                pieces.push(Piece::Unknown { splits: false });
                found = true;
                i += pattern.len();
            } else {
                pieces.extend(self.pieces.get(i).copied());
                i += 1;
            }
        }
        found.then(|| Arg {
            raw: self.raw.clone(),
            pieces,
        })
    }

    /// The value, when no part of it is computed.
    pub(crate) fn value(&self) -> Option<String> {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Char { c, .. } => Some(*c),
                Piece::Unknown { .. } => None,
            })
            .collect()
    }

    /// Whether field splitting can turn this word into zero or several words.
    pub(crate) fn splits(&self) -> bool {
        self.pieces
            .iter()
            .any(|p| matches!(p, Piece::Unknown { splits: true }))
    }

    /// Whether globbing or brace expansion applies to this word.
    pub(crate) fn globs(&self) -> bool {
        has_pattern(&self.pieces)
    }

    /// Whether this word is exactly one word when the line runs.
    pub(crate) fn single(&self) -> bool {
        !self.splits() && !self.globs()
    }

    /// The value of a word that is exactly one word and fully known.
    pub(crate) fn known(&self) -> Option<String> {
        if self.single() { self.value() } else { None }
    }

    /// The known text after the last `/` or `\`, when nothing in it is computed or a pattern.
    pub(crate) fn tail(&self) -> Option<String> {
        let start = self
            .pieces
            .iter()
            .rposition(|p| matches!(p, Piece::Char { c: '/' | '\\', .. }))
            .map_or(0, |i| i + 1);
        let tail = self.pieces.get(start..)?;
        if has_pattern(tail) {
            return None;
        }
        tail.iter()
            .map(|p| match p {
                Piece::Char { c, .. } => Some(*c),
                Piece::Unknown { .. } => None,
            })
            .collect()
    }

    /// Whether the known characters include `c`.
    pub(crate) fn has_char(&self, c: char) -> bool {
        self.pieces
            .iter()
            .any(|p| matches!(p, Piece::Char { c: k, .. } if *k == c))
    }

    /// Whether the word could be an option: it starts with `-` or with something computed.
    pub(crate) fn may_be_option(&self) -> bool {
        matches!(
            self.pieces.first(),
            Some(Piece::Char { c: '-', .. } | Piece::Unknown { .. })
        )
    }

    /// The text with every computed part replaced by `placeholder`, and whether there was any.
    pub(crate) fn text_with(&self, placeholder: &str) -> (String, bool) {
        let mut text = String::new();
        let mut computed = false;
        for p in &self.pieces {
            match p {
                Piece::Char { c, .. } => text.push(*c),
                Piece::Unknown { .. } => {
                    text.push_str(placeholder);
                    computed = true;
                }
            }
        }
        (text, computed)
    }

    /// The words joined with spaces, as `eval` and `sh -c "$*"`-style wrappers do. A word that is
    /// not exactly one word counts as an unknown one.
    pub(crate) fn join(args: &[Arg]) -> Arg {
        let mut raw = String::new();
        let mut pieces = Vec::new();
        for (i, arg) in args.iter().enumerate() {
            if i > 0 {
                raw.push(' ');
                pieces.push(Piece::Char {
                    c: ' ',
                    quoted: true,
                });
            }
            raw.push_str(&arg.raw);
            if arg.single() {
                pieces.extend(arg.pieces.iter().copied());
            } else {
                pieces.push(Piece::Unknown { splits: false });
            }
        }
        Arg { raw, pieces }
    }

    /// The words joined into a Windows command line as Git Bash (MSYS) builds it: like
    /// [`Arg::join`], with double quotes around a word that is empty or holds a blank, a line
    /// break or a `"`, and each `"` inside it written `\"` (which cmd does not read as an
    /// escape: its quote ends there).
    pub(crate) fn join_quoted(args: &[Arg]) -> Arg {
        let quoted: Vec<Arg> = args
            .iter()
            .map(|arg| {
                let needs_quotes = arg.pieces.is_empty()
                    || arg.pieces.iter().any(|p| {
                        matches!(
                            p,
                            Piece::Char {
                                c: ' ' | '\t' | '\n' | '\r' | '"',
                                ..
                            }
                        )
                    });
                if !needs_quotes || !arg.single() {
                    return arg.clone();
                }
                let quote = Piece::Char {
                    c: '"',
                    quoted: true,
                };
                let mut pieces = vec![quote];
                for piece in &arg.pieces {
                    if let Piece::Char { c: '"', quoted } = piece {
                        pieces.push(Piece::Char {
                            c: '\\',
                            quoted: *quoted,
                        });
                    }
                    pieces.push(*piece);
                }
                pieces.push(quote);
                Arg {
                    raw: arg.raw.clone(),
                    pieces,
                }
            })
            .collect();
        Arg::join(&quoted)
    }

    /// The part after the first `=` in the value (`alias NAME=VALUE`), if there is one.
    pub(crate) fn after_equals(&self) -> Option<Arg> {
        let i = self
            .pieces
            .iter()
            .position(|p| matches!(p, Piece::Char { c: '=', .. }))?;
        let pieces = self.pieces.get(i + 1..)?.to_vec();
        // When the `=` is not written as such (`$'EDITOR\x3d'…`), the whole word stands for
        // the value's text: more to read, never less.
        let raw = self
            .raw
            .split_once('=')
            .map_or_else(|| self.raw.clone(), |(_, v)| v.to_owned());
        Some(Arg { raw, pieces })
    }
}

/// Whether unquoted characters in `pieces` make a glob (`*`, `?`, `[…]`, extended globs) or a
/// brace expansion (`{a,b}`, `{1..3}`).
fn has_pattern(pieces: &[Piece]) -> bool {
    let unquoted = |i: usize| match pieces.get(i) {
        Some(Piece::Char { c, quoted: false }) => Some(*c),
        _ => None,
    };
    for i in 0..pieces.len() {
        match unquoted(i) {
            Some('*' | '?') => return true,
            Some('[') if (i + 1..pieces.len()).any(|j| unquoted(j) == Some(']')) => return true,
            Some('+' | '@' | '!') if unquoted(i + 1) == Some('(') => return true,
            Some('{') => {
                let mut separator = false;
                for j in i + 1..pieces.len() {
                    match unquoted(j) {
                        Some(',') => separator = true,
                        Some('.') if unquoted(j + 1) == Some('.') => separator = true,
                        Some('}') if separator => return true,
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    false
}

/// Scans an unquoted word as the tokenizer delimited it. Returns the word and the command texts
/// it would run.
pub(crate) fn scan_word(raw: &str) -> Result<(Arg, Vec<String>), GuardError> {
    scan_word_at(raw, 0)
}

fn scan_word_at(raw: &str, d: usize) -> Result<(Arg, Vec<String>), GuardError> {
    let mut scanner = Scanner::new(raw);
    let mut pieces = Vec::new();
    scanner.word(&mut pieces, d)?;
    Ok((
        Arg {
            raw: raw.to_owned(),
            pieces,
        },
        scanner.nested,
    ))
}

/// Scans text in which only `$`, backquotes and `\` are special: an unquoted here-document body
/// or an arithmetic expression. Returns its pieces and the command texts it would run.
pub(crate) fn scan_text(raw: &str) -> Result<(Vec<Piece>, Vec<String>), GuardError> {
    scan_text_at(raw, 0)
}

fn scan_text_at(raw: &str, d: usize) -> Result<(Vec<Piece>, Vec<String>), GuardError> {
    let mut scanner = Scanner::new(raw);
    let mut pieces = Vec::new();
    scanner.text(&mut pieces, d)?;
    Ok((pieces, scanner.nested))
}

fn unterminated(what: &str) -> GuardError {
    GuardError::Syntax(format!("unterminated {what}"))
}

fn too_deep() -> GuardError {
    GuardError::TooDeep {
        what: "quotes and expansions inside one word",
    }
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

struct Scanner {
    s: Vec<char>,
    /// Command texts found: what `$(…)` and backquotes run.
    nested: Vec<String>,
}

impl Scanner {
    fn new(raw: &str) -> Scanner {
        Scanner {
            s: raw.chars().collect(),
            nested: Vec::new(),
        }
    }

    fn at(&self, i: usize) -> Option<char> {
        self.s.get(i).copied()
    }

    fn slice(&self, from: usize, to: usize) -> String {
        self.s
            .get(from..to)
            .map(|chars| chars.iter().collect())
            .unwrap_or_default()
    }

    /// An unquoted word.
    fn word(&mut self, out: &mut Vec<Piece>, d: usize) -> Result<(), GuardError> {
        if d > MAX_WORD_DEPTH {
            return Err(too_deep());
        }
        let mut i = self.tilde(out);
        while let Some(c) = self.at(i) {
            i = match c {
                '\\' => match self.at(i + 1) {
                    Some('\n') => i + 2,
                    Some(next) => {
                        out.push(Piece::Char {
                            c: next,
                            quoted: true,
                        });
                        i + 2
                    }
                    None => {
                        out.push(Piece::Char {
                            c: '\\',
                            quoted: true,
                        });
                        i + 1
                    }
                },
                '\'' => {
                    let end = self.single_end(i + 1)?;
                    for k in i + 1..end {
                        if let Some(c) = self.at(k) {
                            out.push(Piece::Char { c, quoted: true });
                        }
                    }
                    end + 1
                }
                '"' => self.dquote(i + 1, out, d + 1)?,
                '$' => self.dollar(i, out, false, true, d + 1)?,
                '`' => self.backquote(i, out, false, d + 1)?,
                c => {
                    out.push(Piece::Char { c, quoted: false });
                    i + 1
                }
            };
        }
        Ok(())
    }

    /// A tilde prefix at the start of a word (`~`, `~user`, `~+`): its value is unknown.
    fn tilde(&self, out: &mut Vec<Piece>) -> usize {
        if self.at(0) != Some('~') {
            return 0;
        }
        let mut i = 1;
        while let Some(c) = self.at(i) {
            if c == '/' {
                break;
            }
            if matches!(c, '\'' | '"' | '\\' | '$' | '`') {
                // A quoted tilde prefix is not expanded.
                return 0;
            }
            i += 1;
        }
        out.push(Piece::Unknown { splits: false });
        i
    }

    /// Text in which only `$`, backquotes and `\` are special, to the end.
    fn text(&mut self, out: &mut Vec<Piece>, d: usize) -> Result<(), GuardError> {
        self.quoted(0, out, d, None).map(|_| ())
    }

    /// The index of the `'` closing a single-quoted string that starts at `from`.
    fn single_end(&self, from: usize) -> Result<usize, GuardError> {
        (from..self.s.len())
            .find(|&k| self.at(k) == Some('\''))
            .ok_or_else(|| unterminated("single quote"))
    }

    /// A double-quoted string whose content starts at `from`; returns the index after it.
    fn dquote(&mut self, from: usize, out: &mut Vec<Piece>, d: usize) -> Result<usize, GuardError> {
        self.quoted(from, out, d, Some('"'))
    }

    /// Text from `from` in which only `$`, backquotes and `\` are special (and `closing`, which
    /// ends it and which a backslash escapes); returns the index after it. Without `closing` it
    /// runs to the end (a here-document body).
    fn quoted(
        &mut self,
        from: usize,
        out: &mut Vec<Piece>,
        d: usize,
        closing: Option<char>,
    ) -> Result<usize, GuardError> {
        if d > MAX_WORD_DEPTH {
            return Err(too_deep());
        }
        let mut i = from;
        loop {
            let Some(c) = self.at(i) else {
                return match closing {
                    Some(_) => Err(unterminated("double quote")),
                    None => Ok(i),
                };
            };
            i = match c {
                c if Some(c) == closing => return Ok(i + 1),
                '\\' => match self.at(i + 1) {
                    Some('\n') => i + 2,
                    Some(next) if matches!(next, '$' | '`' | '\\') || Some(next) == closing => {
                        out.push(Piece::Char {
                            c: next,
                            quoted: true,
                        });
                        i + 2
                    }
                    _ => {
                        out.push(Piece::Char {
                            c: '\\',
                            quoted: true,
                        });
                        i + 1
                    }
                },
                '$' => self.dollar(i, out, true, false, d + 1)?,
                '`' => self.backquote(i, out, true, d + 1)?,
                c => {
                    out.push(Piece::Char { c, quoted: true });
                    i + 1
                }
            };
        }
    }

    /// Whatever starts with the `$` at `i`; returns the index after it.
    fn dollar(
        &mut self,
        i: usize,
        out: &mut Vec<Piece>,
        quoted: bool,
        ansi: bool,
        d: usize,
    ) -> Result<usize, GuardError> {
        if d > MAX_WORD_DEPTH {
            return Err(too_deep());
        }
        let unknown = |splits: bool| Piece::Unknown { splits };
        match self.at(i + 1) {
            Some('\'') if ansi => self.ansi(i + 2, out),
            Some('"') if ansi => self.dquote(i + 2, out, d + 1),
            Some('(') => {
                // bash reads `$((…))` as arithmetic when the parenthesis opened second closes
                // right before the first one does; otherwise it is `$( (…) … )`.
                if self.at(i + 2) == Some('(') {
                    let inner_end = self.paren_end(i + 2, d + 1)?;
                    if self.at(inner_end + 1) == Some(')') {
                        let expr = self.slice(i + 3, inner_end);
                        self.arithmetic(&expr, d + 1)?;
                        out.push(unknown(!quoted));
                        return Ok(inner_end + 2);
                    }
                }
                let end = self.paren_end(i + 1, d + 1)?;
                let command = self.slice(i + 2, end);
                self.nested.push(command);
                out.push(unknown(!quoted));
                Ok(end + 1)
            }
            Some('[') => {
                let end = self.bracket_end(i + 1)?;
                let expr = self.slice(i + 2, end);
                self.arithmetic(&expr, d + 1)?;
                out.push(unknown(!quoted));
                Ok(end + 1)
            }
            Some('{') => {
                let end = self.brace_end(i + 1, d + 1)?;
                let inner = self.slice(i + 2, end);
                // `${x:-$(cmd)}`, `${x/a/$(cmd)}`, `${x:$(cmd)}`: the operands are words too.
                let (_, nested) = if quoted {
                    scan_text_at(&inner, d + 1)?
                } else {
                    let (arg, nested) = scan_word_at(&inner, d + 1)?;
                    (arg.pieces, nested)
                };
                self.nested.extend(nested);
                out.push(unknown(!quoted || inner.contains('@')));
                Ok(end + 1)
            }
            Some(c) if "@*#?-$!0123456789".contains(c) => {
                out.push(unknown(!quoted || c == '@'));
                Ok(i + 2)
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                let mut j = i + 1;
                while self
                    .at(j)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    j += 1;
                }
                out.push(unknown(!quoted));
                Ok(j)
            }
            _ => {
                out.push(Piece::Char { c: '$', quoted });
                Ok(i + 1)
            }
        }
    }

    /// Command texts inside an arithmetic expression.
    fn arithmetic(&mut self, expr: &str, d: usize) -> Result<(), GuardError> {
        let (_, nested) = scan_text_at(expr, d)?;
        self.nested.extend(nested);
        Ok(())
    }

    /// A `$'…'` string whose content starts at `from`, with bash's escapes; returns the index
    /// after it. A NUL ends the string's value, as in bash.
    fn ansi(&mut self, from: usize, out: &mut Vec<Piece>) -> Result<usize, GuardError> {
        let mut bytes: Vec<u8> = Vec::new();
        let mut i = from;
        loop {
            let Some(c) = self.at(i) else {
                return Err(unterminated("$'…' string"));
            };
            match c {
                '\'' => {
                    i += 1;
                    break;
                }
                '\\' => {
                    let (decoded, next) = self.ansi_escape(i + 1);
                    bytes.extend(decoded);
                    i = next;
                }
                c => {
                    let mut buf = [0; 4];
                    bytes.extend(c.encode_utf8(&mut buf).as_bytes());
                    i += 1;
                }
            }
        }
        if let Some(nul) = bytes.iter().position(|&b| b == 0) {
            bytes.truncate(nul);
        }
        for c in String::from_utf8_lossy(&bytes).chars() {
            out.push(Piece::Char { c, quoted: true });
        }
        Ok(i)
    }

    /// The bytes of the escape after a `\` at `i - 1` in a `$'…'` string, and the index after it.
    fn ansi_escape(&self, i: usize) -> (Vec<u8>, usize) {
        let digits = |from: usize, max: usize, radix: u32| {
            let mut value: u32 = 0;
            let mut n = 0;
            while n < max {
                match self.at(from + n).and_then(|c| c.to_digit(radix)) {
                    Some(v) => value = value.saturating_mul(radix).saturating_add(v),
                    None => break,
                }
                n += 1;
            }
            (value, n)
        };
        let char_bytes = |c: char| {
            let mut buf = [0; 4];
            c.encode_utf8(&mut buf).as_bytes().to_vec()
        };
        let Some(c) = self.at(i) else {
            return (vec![b'\\'], i);
        };
        let simple = match c {
            'a' => Some(7),
            'b' => Some(8),
            'e' | 'E' => Some(27),
            'f' => Some(12),
            'n' => Some(10),
            'r' => Some(13),
            't' => Some(9),
            'v' => Some(11),
            '\\' | '\'' | '"' | '?' => u8::try_from(c).ok(),
            _ => None,
        };
        if let Some(b) = simple {
            return (vec![b], i + 1);
        }
        match c {
            '0'..='7' => {
                let (value, n) = digits(i, 3, 8);
                (vec![(value & 0xff) as u8], i + n)
            }
            'x' => match digits(i + 1, 2, 16) {
                (_, 0) => (b"\\x".to_vec(), i + 1),
                (value, n) => (vec![(value & 0xff) as u8], i + 1 + n),
            },
            'u' | 'U' => {
                let max = if c == 'u' { 4 } else { 8 };
                match digits(i + 1, max, 16) {
                    (_, 0) => {
                        let mut bytes = vec![b'\\'];
                        bytes.extend(char_bytes(c));
                        (bytes, i + 1)
                    }
                    (value, n) => (
                        char_bytes(char::from_u32(value).unwrap_or('\u{fffd}')),
                        i + 1 + n,
                    ),
                }
            }
            'c' => match self.at(i + 1) {
                Some('?') => (vec![127], i + 2),
                // The closing quote is not a character to control: `$'\c'` is `\c`.
                Some('\'') | None => (b"\\c".to_vec(), i + 1),
                // bash controls the first byte of the character and keeps the others: `\cʀ`
                // (0xCA 0x80) is a newline and 0x80, so what follows runs on a new line.
                Some(x) => {
                    let mut bytes: Vec<u8> = char_bytes(x).into_iter().collect();
                    bytes[0] &= 0x1f;
                    (bytes, i + 2)
                }
            },
            other => {
                let mut bytes = vec![b'\\'];
                bytes.extend(char_bytes(other));
                (bytes, i + 1)
            }
        }
    }

    /// A backquoted command substitution starting at the backquote at `i`; returns the index
    /// after it. The command text loses the backslashes bash removes inside backquotes.
    fn backquote(
        &mut self,
        i: usize,
        out: &mut Vec<Piece>,
        quoted: bool,
        d: usize,
    ) -> Result<usize, GuardError> {
        if d > MAX_WORD_DEPTH {
            return Err(too_deep());
        }
        let end = self.backquote_end(i + 1)?;
        let mut command = String::new();
        let mut k = i + 1;
        while k < end {
            let Some(c) = self.at(k) else { break };
            match (c, self.at(k + 1)) {
                ('\\', Some(next @ ('$' | '`' | '\\'))) => {
                    command.push(next);
                    k += 2;
                }
                ('\\', Some('"')) if quoted => {
                    command.push('"');
                    k += 2;
                }
                _ => {
                    command.push(c);
                    k += 1;
                }
            }
        }
        self.nested.push(command);
        out.push(Piece::Unknown { splits: !quoted });
        Ok(end + 1)
    }

    /// The index of the backquote closing one whose content starts at `from`.
    fn backquote_end(&self, from: usize) -> Result<usize, GuardError> {
        let mut k = from;
        loop {
            match self.at(k) {
                None => return Err(unterminated("backquote")),
                Some('\\') => k += 2,
                Some('`') => return Ok(k),
                Some(_) => k += 1,
            }
        }
    }

    /// The index after the `'` closing a `$'…'` string whose content starts at `from`.
    fn ansi_end(&self, from: usize) -> Result<usize, GuardError> {
        let mut k = from;
        loop {
            match self.at(k) {
                None => return Err(unterminated("$'…' string")),
                Some('\\') => k += 2,
                Some('\'') => return Ok(k + 1),
                Some(_) => k += 1,
            }
        }
    }

    /// The index of the `]` closing the `[` at `open` (`$[…]`).
    fn bracket_end(&self, open: usize) -> Result<usize, GuardError> {
        let mut depth = 0usize;
        let mut k = open;
        loop {
            match self.at(k) {
                None => return Err(unterminated("$[…]")),
                Some('\\') => k += 1,
                Some('[') => depth += 1,
                Some(']') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Ok(k);
                    }
                }
                Some(_) => {}
            }
            k += 1;
        }
    }

    /// The index of the `}` closing the `{` at `open` (`${…}`): quotes, nested expansions and
    /// nested braces count, as in bash.
    fn brace_end(&self, open: usize, d: usize) -> Result<usize, GuardError> {
        if d > MAX_WORD_DEPTH {
            return Err(too_deep());
        }
        let mut depth = 1usize;
        let mut i = open + 1;
        loop {
            let Some(c) = self.at(i) else {
                return Err(unterminated("${…}"));
            };
            i = match c {
                '\\' => i + 2,
                '\'' => self.single_end(i + 1)? + 1,
                '"' => self.skip_dquote(i + 1, d + 1)?,
                '`' => self.backquote_end(i + 1)? + 1,
                '$' => self.skip_dollar(i, d + 1)?,
                '{' => {
                    depth += 1;
                    i + 1
                }
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(i);
                    }
                    i + 1
                }
                _ => i + 1,
            };
        }
    }

    /// Skips what starts with the `$` at `i`, when it nests; returns the index after it.
    fn skip_dollar(&self, i: usize, d: usize) -> Result<usize, GuardError> {
        match self.at(i + 1) {
            Some('(') => Ok(self.paren_end(i + 1, d)? + 1),
            Some('{') => Ok(self.brace_end(i + 1, d)? + 1),
            Some('\'') => self.ansi_end(i + 2),
            _ => Ok(i + 1),
        }
    }

    /// Skips a double-quoted string whose content starts at `from`; returns the index after it.
    fn skip_dquote(&self, from: usize, d: usize) -> Result<usize, GuardError> {
        if d > MAX_WORD_DEPTH {
            return Err(too_deep());
        }
        let mut i = from;
        loop {
            let Some(c) = self.at(i) else {
                return Err(unterminated("double quote"));
            };
            i = match c {
                '"' => return Ok(i + 1),
                '\\' => i + 2,
                '`' => self.backquote_end(i + 1)? + 1,
                '$' if self.at(i + 1) != Some('\'') => self.skip_dollar(i, d + 1)?,
                _ => i + 1,
            };
        }
    }

    /// The index of the `)` closing the `(` at `open`, reading the inside as commands: quotes,
    /// comments and here-document bodies hide parentheses.
    fn paren_end(&self, open: usize, d: usize) -> Result<usize, GuardError> {
        if d > MAX_WORD_DEPTH {
            return Err(too_deep());
        }
        let mut depth = 1usize;
        let mut i = open + 1;
        let mut word_start = true;
        let mut heredocs: Vec<(String, bool)> = Vec::new();
        loop {
            let Some(c) = self.at(i) else {
                return Err(unterminated("$(…)"));
            };
            let mut starts_word = false;
            i = match c {
                '\\' => i + 2,
                '\'' => self.single_end(i + 1)? + 1,
                '"' => self.skip_dquote(i + 1, d + 1)?,
                '`' => self.backquote_end(i + 1)? + 1,
                '$' => self.skip_dollar(i, d + 1)?,
                '(' => {
                    depth += 1;
                    starts_word = true;
                    i + 1
                }
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(i);
                    }
                    starts_word = true;
                    i + 1
                }
                '#' if word_start => {
                    let mut k = i;
                    while self.at(k).is_some_and(|c| c != '\n') {
                        k += 1;
                    }
                    k
                }
                // A here-string `<<<word` is one operator, not a `<` and a here-document.
                '<' if self.at(i + 1) == Some('<') && self.at(i + 2) == Some('<') => {
                    starts_word = true;
                    i + 3
                }
                '<' if self.at(i + 1) == Some('<') => {
                    starts_word = true;
                    self.heredoc_operator(i + 2, &mut heredocs)
                }
                '\n' => {
                    starts_word = true;
                    self.skip_heredoc_bodies(i + 1, &mut heredocs)
                }
                c => {
                    starts_word = is_blank(c) || matches!(c, ';' | '&' | '|' | '<' | '>');
                    i + 1
                }
            };
            word_start = starts_word;
        }
    }

    /// Reads the delimiter after a `<<` whose next character is at `from`; returns the index
    /// after it.
    fn heredoc_operator(&self, from: usize, heredocs: &mut Vec<(String, bool)>) -> usize {
        let mut i = from;
        let strip_tabs = self.at(i) == Some('-');
        if strip_tabs {
            i += 1;
        }
        while self.at(i).is_some_and(is_blank) {
            i += 1;
        }
        let mut delimiter = String::new();
        while let Some(c) = self.at(i) {
            if is_blank(c) || matches!(c, '\n' | ';' | '&' | '|' | '(' | ')' | '<' | '>') {
                break;
            }
            match c {
                '\'' | '"' => {
                    let mut k = i + 1;
                    while let Some(q) = self.at(k) {
                        if q == c {
                            break;
                        }
                        delimiter.push(q);
                        k += 1;
                    }
                    i = k + 1;
                }
                '\\' => {
                    if let Some(next) = self.at(i + 1) {
                        delimiter.push(next);
                    }
                    i += 2;
                }
                c => {
                    delimiter.push(c);
                    i += 1;
                }
            }
        }
        if !delimiter.is_empty() {
            heredocs.push((delimiter, strip_tabs));
        }
        i
    }

    /// Skips the bodies of pending here-documents, which start at `from`; returns the index
    /// after them.
    fn skip_heredoc_bodies(&self, from: usize, heredocs: &mut Vec<(String, bool)>) -> usize {
        let mut i = from;
        for (delimiter, strip_tabs) in heredocs.drain(..) {
            loop {
                let end = (i..self.s.len())
                    .find(|&k| self.at(k) == Some('\n'))
                    .unwrap_or(self.s.len());
                let line = self.slice(i, end);
                let line = if strip_tabs {
                    line.trim_start_matches('\t')
                } else {
                    line.as_str()
                };
                let done = line == delimiter || end >= self.s.len();
                i = (end + 1).min(self.s.len());
                if done {
                    break;
                }
            }
        }
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(raw: &str) -> Option<String> {
        scan_word(raw).ok().and_then(|(arg, _)| arg.value())
    }

    fn nested(raw: &str) -> Vec<String> {
        scan_word(raw).map(|(_, n)| n).unwrap_or_default()
    }

    #[test]
    fn removes_quotes_like_bash() {
        assert_eq!(value("'kubectl'").as_deref(), Some("kubectl"));
        assert_eq!(value("\"kubectl\"").as_deref(), Some("kubectl"));
        assert_eq!(value("ku\"\"bectl").as_deref(), Some("kubectl"));
        assert_eq!(value("k\\ubectl").as_deref(), Some("kubectl"));
        assert_eq!(value("$'kubectl'").as_deref(), Some("kubectl"));
        assert_eq!(value("$'\\x6bube\\143tl'").as_deref(), Some("kubectl"));
        assert_eq!(value("$'\\u006bubectl'").as_deref(), Some("kubectl"));
        assert_eq!(value("$'a\\x62\\0c'd").as_deref(), Some("abd"));
        assert_eq!(value("$\"kubectl\"").as_deref(), Some("kubectl"));
        assert_eq!(value("\"a\\b\\$\"").as_deref(), Some("a\\b$"));
        assert_eq!(value("kube\\\nctl").as_deref(), Some("kubectl"));
        assert_eq!(value("$"), Some("$".to_owned()));
        assert_eq!(value("$HOME"), None);
        assert_eq!(value("~/x"), None);
        assert_eq!(value("'~'/x").as_deref(), Some("~/x"));
    }

    #[test]
    fn finds_command_texts() {
        assert_eq!(nested("$(kubectl get)"), ["kubectl get"]);
        assert_eq!(nested("\"a $(b \"$(c)\") d\""), ["b \"$(c)\""]);
        assert_eq!(nested("`k\\\\u\\$x`"), ["k\\u$x"]);
        assert_eq!(nested("${x:-$(kubectl)}"), ["kubectl"]);
        assert_eq!(nested("$(( $(kubectl) + 1 ))"), ["kubectl"]);
        assert_eq!(nested("$((echo hi) )"), ["(echo hi) "]);
        assert_eq!(nested("$((1)+(2))"), ["(1)+(2)"]);
        assert_eq!(nested("$(echo ')' \")\" # )\n)"), ["echo ')' \")\" # )\n"]);
        assert_eq!(
            nested("\"$(cat <<'EOF'\nfix 1) \"x\nEOF\n)\""),
            ["cat <<'EOF'\nfix 1) \"x\nEOF\n"]
        );
    }

    #[test]
    fn shapes() -> Result<(), GuardError> {
        let (arg, _) = scan_word("\"$HOME\"/bin/kubectl")?;
        assert_eq!(arg.tail().as_deref(), Some("kubectl"));
        assert!(arg.single());
        let (arg, _) = scan_word("$D/ls")?;
        assert!(arg.splits());
        assert_eq!(arg.tail().as_deref(), Some("ls"));
        let (arg, _) = scan_word("kube*")?;
        assert!(arg.globs());
        assert_eq!(arg.tail(), None);
        let (arg, _) = scan_word("{kubectl,x}")?;
        assert!(arg.globs());
        let (arg, _) = scan_word("[")?;
        assert!(!arg.globs());
        let (arg, _) = scan_word("'*'")?;
        assert!(!arg.globs());
        let (arg, _) = scan_word("\"$@\"")?;
        assert!(arg.splits());
        Ok(())
    }

    #[test]
    fn finds_globs_and_brace_expansions_like_bash() -> Result<(), GuardError> {
        let globs = |raw: &str| scan_word(raw).map(|(arg, _)| arg.globs());
        // A bracket expression needs a closing `]`: `a[b` is plain text.
        assert!(globs("a[b]")?);
        assert!(!globs("a[b")?);
        // An extended glob is `+`, `@` or `!` right before `(`.
        assert!(globs("+(a)")?);
        assert!(globs("x@(a|b)")?);
        assert!(!globs("g++")?);
        assert!(!globs("a!b")?);
        // A brace expansion needs a `,` or a `..` before its `}`: `{a.b}` is plain text.
        assert!(globs("{1..3}")?);
        assert!(globs("x{a..c}y")?);
        assert!(!globs("{a.b}")?);
        assert!(!globs("{a}.b")?);
        Ok(())
    }

    #[test]
    fn rejects_what_it_cannot_scan() {
        assert!(scan_word("'open").is_err());
        assert!(scan_word("\"$(x\"").is_err());
        assert!(scan_word(&"\"$(".repeat(40)).is_err());
        assert!(scan_word(&format!("{}x{}", "\"$(".repeat(40), ")\"".repeat(40))).is_err());
    }

    /// `value`, on a thread with a deadline: a scanner that stops advancing must fail the test
    /// rather than hang it.
    fn value_soon(raw: &str) -> Option<String> {
        let raw = raw.to_owned();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(value(&raw));
        });
        rx.recv_timeout(std::time::Duration::from_secs(5))
            .unwrap_or_else(|_| panic!("scanning a $'…' string did not end"))
    }

    /// `nested`, on a thread with a deadline, like `value_soon`.
    fn nested_soon(raw: &str) -> Vec<String> {
        let raw = raw.to_owned();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(nested(&raw));
        });
        rx.recv_timeout(std::time::Duration::from_secs(5))
            .unwrap_or_else(|_| panic!("finding the command texts of a word did not end"))
    }

    #[test]
    fn braces_nest_inside_parameter_expansions() -> Result<(), GuardError> {
        // `${x:-{a}}`: as in bash, the inner `{a}` does not close the expansion, which is
        // one unknown part; no `}` of it is left as text of the word.
        let (arg, _) = scan_word("\"${x:-{a}}\"")?;
        assert_eq!(arg.pieces, [Piece::Unknown { splits: false }]);
        Ok(())
    }

    #[test]
    fn a_single_less_than_inside_command_substitutions_is_a_redirection() {
        // `<in` reads a file: no here-document body follows, and the next line is a command.
        assert_eq!(
            nested_soon("$(sort <in\nkubectl get pods\n)"),
            ["sort <in\nkubectl get pods\n"]
        );
    }

    #[test]
    fn heredoc_delimiter_may_follow_blanks_inside_command_substitutions() {
        // `<< EOF` and `<<- <tab>EOF`: blanks before the delimiter are skipped, and the body,
        // whose `)` closes nothing, ends at the delimiter's line.
        assert_eq!(
            nested_soon("\"$(cat << EOF\nfix 1) \"x\nEOF\n)\""),
            ["cat << EOF\nfix 1) \"x\nEOF\n"]
        );
        assert_eq!(
            nested_soon("$(cat <<- \tEOF\n\tdone )\n\tEOF\n)"),
            ["cat <<- \tEOF\n\tdone )\n\tEOF\n"]
        );
    }

    #[test]
    fn decodes_ansi_c_escapes_like_bash() {
        // Single-character escapes decode to one byte and the scan goes on after them.
        assert_eq!(value_soon("$'kube\\tctl'").as_deref(), Some("kube\tctl"));
        assert_eq!(value_soon("$'it\\'s'").as_deref(), Some("it's"));
        assert_eq!(value_soon("$'a\\bc'").as_deref(), Some("a\u{8}c"));
        assert_eq!(
            value_soon("$'\\e[0m\\E'").as_deref(),
            Some("\u{1b}[0m\u{1b}")
        );
        // An escape bash does not know stays as written, once.
        assert_eq!(value_soon("$'\\kubectl'").as_deref(), Some("\\kubectl"));
        // `\x` without hex digits stays as written, once, and the scan goes on after it.
        assert_eq!(value_soon("$'\\xzz'").as_deref(), Some("\\xzz"));
        assert_eq!(value_soon("$'a\\x'").as_deref(), Some("a\\x"));
        // `\c` at the end of an unterminated string: an error, and the scan ends.
        assert_eq!(value_soon("$'\\c"), None);
        // `\u` and `\U` without hex digits stay as written.
        assert_eq!(value_soon("$'\\uzz'").as_deref(), Some("\\uzz"));
        assert_eq!(value_soon("$'\\Uzz'").as_deref(), Some("\\Uzz"));
        // `\cX` is the control character of the character after the `c`.
        assert_eq!(value_soon("$'\\cA'").as_deref(), Some("\u{1}"));
        assert_eq!(value_soon("$'\\c?x'").as_deref(), Some("\u{7f}x"));
    }

    #[test]
    fn arithmetic_bracket_is_one_unknown_piece() -> Result<(), GuardError> {
        // `$[…]` is replaced by its (unknown) value and the word goes on after its own `]`: as
        // in bash, the `]` of a nested `[…]` (an array subscript) and an escaped `\]` do not
        // close it, and no `]` of it is left as text. What it runs is still looked at.
        for (raw, runs) in [
            ("$[1+$(kubectl)]x", &["kubectl"][..]),
            ("$[a[1]]x", &[]),
            ("$[1\\]]x", &[]),
        ] {
            let (arg, nested) = scan_word(raw)?;
            assert_eq!(
                arg.pieces,
                [
                    Piece::Unknown { splits: true },
                    Piece::Char {
                        c: 'x',
                        quoted: false
                    }
                ],
                "{raw}"
            );
            assert_eq!(nested, runs, "{raw}");
        }
        Ok(())
    }

    #[test]
    fn depth_budget_does_not_depend_on_quoting() {
        let deep = |n: usize, quoted: bool| {
            let word = format!("{}x{}", "${a:-".repeat(n), "}".repeat(n));
            let word = if quoted { format!("\"{word}\"") } else { word };
            scan_word(&word).map(|_| ())
        };
        for quoted in [false, true] {
            assert!(deep(8, quoted).is_ok(), "8 levels, quoted: {quoted}");
            assert!(
                matches!(deep(20, quoted), Err(GuardError::TooDeep { .. })),
                "20 levels, quoted: {quoted}"
            );
        }
    }

    #[test]
    fn depth_budget_is_exact_for_each_kind_of_nesting() {
        // Each quote, expansion, operand and command text counts one level, whatever its
        // kind: a word nesting `MAX_WORD_DEPTH` levels is scanned, one more is refused. The
        // families below reach the budget through different scanners.
        assert_eq!(MAX_WORD_DEPTH, 32);
        let braces =
            |n: usize, inner: &str| format!("{}{inner}{}", "${a:-".repeat(n), "}".repeat(n));
        let quoted = |n: usize, inner: &str| format!("\"{}\"", braces(n, inner));
        let skipped = |n: usize| format!("$(: {})", braces(n, "\"x\""));
        let families: [(&str, String, String); 13] = [
            // Unquoted: each `${a:-…}` is the expansion and its operand word (2 levels).
            ("operand words", braces(16, "x"), braces(17, "x")),
            // A backquote inside the deepest operand is one level more.
            ("backquote", braces(15, "`x`"), braces(16, "`x`")),
            // Quoted: the operand is quoted text, and `$x` in it is an expansion.
            ("quoted expansion", quoted(15, "$x"), quoted(16, "$x")),
            // `$(…)` is skipped as commands one level below its `$`.
            (
                "command substitution",
                quoted(14, "$(x)"),
                quoted(15, "$(x)"),
            ),
            // `$((…))`: its expression is text one level below, where `$x` is one more.
            (
                "arithmetic",
                braces(14, "$(( $x ))"),
                braces(15, "$(( $x ))"),
            ),
            // Inside `$(…)`, braces and double quotes are only skipped: one level each.
            ("skipped text", skipped(29), skipped(30)),
            // `$((…))` in an unquoted operand: its expression is text one level below its `$`,
            // reaching the budget exactly.
            (
                "arithmetic text",
                braces(15, "$(( 1 ))"),
                braces(16, "$(( 1 ))"),
            ),
            // A backquote in that text is one level more.
            (
                "backquote in arithmetic",
                braces(14, "$(( `x` ))"),
                braces(15, "$(( `x` ))"),
            ),
            // The expression is first skipped as commands one level below its `$`, where a
            // double quote is one level more.
            (
                "quotes in arithmetic",
                braces(14, "$(( \"1\" ))"),
                braces(15, "$(( \"1\" ))"),
            ),
            // `$[…]`: its expression is text one level below, like `$((…))`'s.
            ("old arithmetic", braces(14, "$[$x]"), braces(15, "$[$x]")),
            // `$"…"` is the `$` and the quote: the text is two levels below the `$`'s word.
            (
                "locale string",
                braces(14, "$\"$x\""),
                braces(15, "$\"$x\""),
            ),
            // In quoted text a `${…}` is skipped one level below its `$`, and a double quote
            // in it one more (the text itself keeps the quote as a character).
            (
                "quotes in a quoted operand",
                braces(13, "$\"${a:-\"x\"}\""),
                braces(14, "$\"${a:-\"x\"}\""),
            ),
            // A backquote in quoted text is one level below it.
            ("quoted backquote", quoted(15, "`x`"), quoted(16, "`x`")),
        ];
        for (kind, fits, too_deep) in &families {
            assert!(scan_word(fits).is_ok(), "{kind}: {fits}");
            assert!(
                matches!(scan_word(too_deep), Err(GuardError::TooDeep { .. })),
                "{kind}: {too_deep}"
            );
        }
    }

    #[test]
    fn depth_budget_counts_expansions_inside_skipped_double_quotes() {
        // Inside `$(…)` (two levels below the word) each skipped `${a:-` is one level, a double
        // quote one more, and a `${…}` inside that quote one more again: with 28 braces the
        // innermost `${b}` is at the budget, with 29 it is refused.
        let skipped = |n: usize| format!("$(: {}\"${{b}}\"{})", "${a:-".repeat(n), "}".repeat(n));
        assert!(scan_word(&skipped(28)).is_ok());
        assert!(matches!(
            scan_word(&skipped(29)),
            Err(GuardError::TooDeep { .. })
        ));
    }

    #[test]
    fn depth_budget_covers_braces_inside_command_substitutions() {
        // The text of `$(…)` is only skipped here, but skipping recurses too: it is bounded.
        let word = format!("$(: {}x{})", "${a:-".repeat(40), "}".repeat(40));
        assert!(matches!(scan_word(&word), Err(GuardError::TooDeep { .. })));
    }
}
