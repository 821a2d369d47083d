//! Command text in languages other than the POSIX shell: PowerShell, cmd, and `env -S` strings.
//!
//! PowerShell and cmd are not parsed with a real grammar. Their text is split into simple
//! commands on `;`, `|`, `&`, `&&`, `||`, newlines, parentheses and braces (and `=` in PowerShell,
//! for `$x = kubectl …`), quotes are removed, and the caller examines the first word of each
//! command. That over-approximates where commands start, which is the safe direction.

use crate::word::{Arg, Piece};

/// Where command text comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    PowerShell,
    Cmd,
}

/// A simple command of a PowerShell or cmd text.
#[derive(Clone, Debug, Default)]
pub(crate) struct Command {
    pub(crate) words: Vec<Arg>,
    /// Its input comes from a pipe.
    pub(crate) piped: bool,
    /// PowerShell's call operator `&` starts it: its first word is run even when computed.
    pub(crate) called: bool,
}

/// The placeholder a caller puts where a computed part of the text was.
pub(crate) const UNKNOWN: char = '\u{e000}';

#[derive(Default)]
struct Splitter {
    commands: Vec<Command>,
    current: Command,
    raw: String,
    pieces: Vec<Piece>,
    in_word: bool,
    /// Subexpressions (`$(…)`) found, as PowerShell text.
    nested: Vec<String>,
}

impl Splitter {
    fn push(&mut self, c: char) {
        self.pieces.push(Piece::Char { c, quoted: true });
        self.in_word = true;
    }

    fn push_unknown(&mut self) {
        self.pieces.push(Piece::Unknown { splits: false });
        self.in_word = true;
    }

    fn end_word(&mut self) {
        if self.in_word {
            self.current.words.push(Arg {
                raw: std::mem::take(&mut self.raw),
                pieces: std::mem::take(&mut self.pieces),
            });
        }
        self.raw.clear();
        self.in_word = false;
    }

    fn end_command(&mut self, next_piped: bool) {
        self.end_word();
        let done = std::mem::take(&mut self.current);
        if !done.words.is_empty() {
            self.commands.push(done);
        }
        self.current.piped = next_piped;
    }
}

/// Splits PowerShell or cmd text into simple commands. Also returns the PowerShell
/// subexpressions (`$(…)`) found, whose commands run too.
pub(crate) fn split(text: &str, dialect: Dialect) -> (Vec<Command>, Vec<String>) {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize| chars.get(i).copied();
    let mut sp = Splitter::default();
    let mut i = 0;
    while let Some(c) = at(i) {
        let raw_start = i;
        match c {
            ' ' | '\t' | '\r' => {
                sp.end_word();
                i += 1;
                continue;
            }
            '\n' | ';' | '(' | ')' => {
                sp.end_command(false);
                i += 1;
                continue;
            }
            '{' | '}' | '=' if dialect == Dialect::PowerShell => {
                sp.end_command(false);
                i += 1;
                continue;
            }
            '|' => {
                let double = at(i + 1) == Some('|');
                sp.end_command(!double);
                i += if double { 2 } else { 1 };
                continue;
            }
            '&' => {
                let double = at(i + 1) == Some('&');
                sp.end_command(false);
                i += if double { 2 } else { 1 };
                if dialect == Dialect::PowerShell && !double {
                    let mut k = i;
                    while matches!(at(k), Some(' ' | '\t')) {
                        k += 1;
                    }
                    if at(k) == Some('(') {
                        // `& ("kube" + "ctl")`: the program is computed.
                        sp.current.words.push(Arg::unknown("&(…)"));
                        sp.current.called = true;
                        sp.end_command(false);
                    } else {
                        sp.current.called = true;
                    }
                }
                continue;
            }
            UNKNOWN => {
                sp.push_unknown();
                i += 1;
            }
            '"' => {
                i += 1;
                while let Some(q) = at(i) {
                    match (dialect, q) {
                        (_, '"') if at(i + 1) == Some('"') => {
                            sp.push('"');
                            i += 2;
                        }
                        (_, '"') => {
                            i += 1;
                            break;
                        }
                        (Dialect::PowerShell, '`') => {
                            if let Some(e) = at(i + 1) {
                                push_escape(&mut sp, e, at(i + 2));
                            }
                            i += 2;
                        }
                        (Dialect::PowerShell, '$') => {
                            i = powershell_dollar(&chars, i, &mut sp);
                        }
                        (Dialect::Cmd, '%') => i = cmd_percent(&chars, i, &mut sp),
                        (Dialect::Cmd, '!') => i = cmd_delayed(&chars, i, &mut sp),
                        (_, UNKNOWN) => {
                            sp.push_unknown();
                            i += 1;
                        }
                        (_, q) => {
                            sp.push(q);
                            i += 1;
                        }
                    }
                }
            }
            '\'' if dialect == Dialect::PowerShell => {
                i += 1;
                while let Some(q) = at(i) {
                    if q == '\'' {
                        if at(i + 1) == Some('\'') {
                            sp.push('\'');
                            i += 2;
                            continue;
                        }
                        i += 1;
                        break;
                    }
                    if q == UNKNOWN {
                        sp.push_unknown();
                    } else {
                        sp.push(q);
                    }
                    i += 1;
                }
            }
            '`' if dialect == Dialect::PowerShell => {
                if let Some(e) = at(i + 1) {
                    if e == '\n' {
                        // A line continuation.
                    } else {
                        push_escape(&mut sp, e, at(i + 2));
                    }
                }
                i += 2;
            }
            '^' if dialect == Dialect::Cmd => {
                match at(i + 1) {
                    // The caret goes before delayed expansion, which still sees the `!`.
                    Some('!') => sp.push_unknown(),
                    Some(e) if e != '\n' => sp.push(e),
                    _ => {}
                }
                i += 2;
            }
            '$' if dialect == Dialect::PowerShell => i = powershell_dollar(&chars, i, &mut sp),
            '%' if dialect == Dialect::Cmd => i = cmd_percent(&chars, i, &mut sp),
            '!' if dialect == Dialect::Cmd => i = cmd_delayed(&chars, i, &mut sp),
            c => {
                sp.push(c);
                i += 1;
            }
        }
        sp.raw
            .extend(chars.get(raw_start..i.min(chars.len())).unwrap_or_default());
    }
    sp.end_command(false);
    (sp.commands, sp.nested)
}

/// A PowerShell escape of `c` (followed by `next`): `` `u{XXXX} `` is any character at all
/// (PowerShell 6+), so unknown; the others are [`powershell_escape`].
fn push_escape(sp: &mut Splitter, c: char, next: Option<char>) {
    if c == 'u' && next == Some('{') {
        sp.push_unknown();
    } else {
        sp.push(powershell_escape(c));
    }
}

/// `` `n `` and friends are control characters, any other character stands for itself.
fn powershell_escape(c: char) -> char {
    match c {
        '0' => '\0',
        'a' => '\u{7}',
        'b' => '\u{8}',
        'e' => '\u{1b}',
        'f' => '\u{c}',
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        'v' => '\u{b}',
        c => c,
    }
}

/// A `$` in PowerShell at `i`: a variable (unknown), a subexpression `$(…)` (unknown, and its
/// text runs), or a lone dollar. Returns the index after it.
fn powershell_dollar(chars: &[char], i: usize, sp: &mut Splitter) -> usize {
    let at = |k: usize| chars.get(k).copied();
    match at(i + 1) {
        Some('(') => {
            let mut depth = 0usize;
            let mut k = i + 1;
            while let Some(c) = at(k) {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                k += 1;
            }
            let inner: String = chars
                .get(i + 2..k.min(chars.len()))
                .unwrap_or_default()
                .iter()
                .collect();
            sp.nested.push(inner);
            sp.push_unknown();
            k + 1
        }
        Some('{') => {
            let mut k = i + 2;
            while at(k).is_some_and(|c| c != '}') {
                k += 1;
            }
            sp.push_unknown();
            k + 1
        }
        Some(c) if c.is_alphanumeric() || matches!(c, '_' | ':' | '?' | '^' | '$') => {
            let mut k = i + 1;
            while at(k).is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | ':')) {
                k += 1;
            }
            sp.push_unknown();
            k.max(i + 2)
        }
        _ => {
            sp.push('$');
            i + 1
        }
    }
}

/// A `%` in cmd at `i`: `%NAME%` is unknown, a lone `%` stands for itself. Returns the index
/// after it.
///
/// A name holding a command separator (`5% & kubectl & 10%`) is read as text: cmd leaves an
/// undefined `%NAME%` as it is, and then the separators between the two `%` split commands.
fn cmd_percent(chars: &[char], i: usize, sp: &mut Splitter) -> usize {
    let close = (i + 1..chars.len()).find(|&k| matches!(chars.get(k), Some('%' | '\n' | '"')));
    let separates = |k: usize| {
        chars[i + 1..k]
            .iter()
            .any(|c| matches!(c, '&' | '|' | '<' | '>' | '(' | ')'))
    };
    match close {
        Some(k) if k > i + 1 && chars.get(k) == Some(&'%') && !separates(k) => {
            sp.push_unknown();
            k + 1
        }
        _ => {
            sp.push('%');
            i + 1
        }
    }
}

/// A `!` in cmd at `i`. With delayed expansion on (`cmd /v:on`, or a registry setting the guard
/// cannot see), `!NAME!` is a variable's value and a `!` that closes none is removed
/// (`kube!!ctl` runs `kubectl`); with it off, the `!` stays. Either way this part of the word is
/// unknown. Returns the index after it: after the closing `!` of a name, if there is one.
fn cmd_delayed(chars: &[char], i: usize, sp: &mut Splitter) -> usize {
    sp.push_unknown();
    let close = (i + 1..chars.len()).find(|&k| {
        matches!(
            chars.get(k),
            Some('!' | '\n' | '"' | ' ' | '\t' | '&' | '|' | '(' | ')')
        )
    });
    match close {
        Some(k) if chars.get(k) == Some(&'!') => k + 1,
        _ => i + 1,
    }
}

/// Splits an `env -S` string into words, as GNU env does: blanks separate, `'…'` and `"…"`
/// quote, `\` escapes (`\_` is a space, `\c` ends the string), `#` at a word's start begins a
/// comment, `${NAME}` is unknown.
pub(crate) fn split_env_string(s: &str) -> Vec<Arg> {
    let chars: Vec<char> = s.chars().collect();
    let at = |i: usize| chars.get(i).copied();
    let mut words = Vec::new();
    let mut pieces: Vec<Piece> = Vec::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut i = 0;
    let mut finish = |pieces: &mut Vec<Piece>, in_word: &mut bool| {
        if *in_word {
            let raw = pieces
                .iter()
                .map(|p| match p {
                    Piece::Char { c, .. } => *c,
                    Piece::Unknown { .. } => UNKNOWN,
                })
                .collect();
            words.push(Arg {
                raw,
                pieces: std::mem::take(pieces),
            });
        }
        *in_word = false;
    };
    let lit = |c: char| Piece::Char { c, quoted: true };
    while let Some(c) = at(i) {
        i += 1;
        match (quote, c) {
            (None, ' ' | '\t' | '\n' | '\r' | '\u{b}' | '\u{c}') => {
                finish(&mut pieces, &mut in_word)
            }
            (None, '#') if !in_word => break,
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (Some(q), c) if c == q => quote = None,
            (Some('\''), '\\') if matches!(at(i), Some('\\' | '\'')) => {
                pieces.extend(at(i).map(lit));
                i += 1;
            }
            (Some('\''), c) => pieces.push(lit(c)),
            (_, '\\') => {
                let escaped = at(i);
                i += 1;
                in_word = true;
                match escaped {
                    Some('c') => break,
                    Some('_') => {
                        if quote.is_some() {
                            pieces.push(lit(' '));
                        } else {
                            finish(&mut pieces, &mut in_word);
                        }
                    }
                    Some('n') => pieces.push(lit('\n')),
                    Some('t') => pieces.push(lit('\t')),
                    Some('r') => pieces.push(lit('\r')),
                    Some('f') => pieces.push(lit('\u{c}')),
                    Some('v') => pieces.push(lit('\u{b}')),
                    Some(other) => pieces.push(lit(other)),
                    None => {}
                }
            }
            (_, '$') if at(i) == Some('{') => {
                while at(i).is_some_and(|c| c != '}') {
                    i += 1;
                }
                i += 1;
                pieces.push(Piece::Unknown { splits: false });
                in_word = true;
            }
            (_, c) => {
                pieces.push(lit(c));
                in_word = true;
            }
        }
    }
    finish(&mut pieces, &mut in_word);
    words
}

/// Decodes the base64 of a PowerShell `-EncodedCommand` (UTF-16LE text).
pub(crate) fn decode_encoded_command(b64: &str) -> Option<String> {
    let mut bits: u32 = 0;
    let mut nbits = 0;
    let mut bytes = Vec::new();
    for c in b64.chars() {
        let v = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 26,
            '0'..='9' => c as u32 - '0' as u32 + 52,
            '+' | '-' => 62,
            '/' | '_' => 63,
            '=' => break,
            c if c.is_whitespace() => continue,
            _ => return None,
        };
        bits = (bits << 6) | v;
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            bytes.push(((bits >> nbits) & 0xff) as u8);
        }
    }
    if bytes.len() % 2 != 0 {
        return None;
    }
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|pair| match pair {
            [lo, hi] => u16::from_le_bytes([*lo, *hi]),
            _ => 0,
        })
        .collect();
    String::from_utf16(&units).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn firsts(text: &str, dialect: Dialect) -> Vec<Option<String>> {
        split(text, dialect)
            .0
            .iter()
            .map(|c| c.words.first().and_then(Arg::value))
            .collect()
    }

    #[test]
    fn a_powershell_variable_is_one_unknown_part() {
        // `$env:HOME` is one variable: nothing of its name is left as text of the word.
        let (commands, _) = split("Get-Item $env:HOME\\x $a_1:b", Dialect::PowerShell);
        let words = &commands[0].words;
        assert_eq!(
            words[1].pieces,
            [
                Piece::Unknown { splits: false },
                Piece::Char {
                    c: '\\',
                    quoted: true
                },
                Piece::Char {
                    c: 'x',
                    quoted: true
                }
            ]
        );
        assert_eq!(words[2].pieces, [Piece::Unknown { splits: false }]);
    }

    #[test]
    fn a_lone_powershell_dollar_is_text() {
        // A `$` that names no variable stands for itself, at the start of the text, before a
        // blank, at its end and before a closing quote.
        let (commands, _) = split("$ 5$ \"$\" $", Dialect::PowerShell);
        let words: Vec<Option<String>> = commands[0].words.iter().map(Arg::value).collect();
        assert_eq!(
            words,
            [
                Some("$".to_owned()),
                Some("5$".to_owned()),
                Some("$".to_owned()),
                Some("$".to_owned())
            ]
        );
    }

    #[test]
    fn splits_powershell_and_cmd() {
        assert_eq!(
            firsts(
                "Get-Date; & 'C:\\k.exe' x | k`ubectl get",
                Dialect::PowerShell
            ),
            [
                Some("Get-Date".to_owned()),
                Some("C:\\k.exe".to_owned()),
                Some("kubectl".to_owned())
            ]
        );
        assert_eq!(
            firsts("echo a && \"kubectl\" get || k^ubectl", Dialect::Cmd),
            [
                Some("echo".to_owned()),
                Some("kubectl".to_owned()),
                Some("kubectl".to_owned())
            ]
        );
        let (_, nested) = split("echo \"$(kubectl get pods)\"", Dialect::PowerShell);
        assert_eq!(nested, ["kubectl get pods"]);
    }

    #[test]
    fn splits_env_strings() {
        let words: Vec<Option<String>> = split_env_string("-i 'a b' c\\_d \"e\\tf\" #x")
            .iter()
            .map(Arg::value)
            .collect();
        assert_eq!(
            words,
            [
                Some("-i".to_owned()),
                Some("a b".to_owned()),
                Some("c".to_owned()),
                Some("d".to_owned()),
                Some("e\tf".to_owned())
            ]
        );
    }

    #[test]
    fn env_string_single_quotes_keep_backslashes() {
        // GNU env -S: inside '…' only `\\` and `\'` are escapes; any other backslash is kept
        // (a Windows path stays a path).
        let words: Vec<Option<String>> =
            split_env_string(r"'C:\tools\kubectl.exe' 'a\\b' 'it\'s' '\c'")
                .iter()
                .map(Arg::value)
                .collect();
        assert_eq!(
            words,
            [
                Some(r"C:\tools\kubectl.exe".to_owned()),
                Some(r"a\b".to_owned()),
                Some("it's".to_owned()),
                Some(r"\c".to_owned())
            ]
        );
    }

    #[test]
    fn decodes_encoded_commands() {
        // "kubectl" in UTF-16LE, base64.
        assert_eq!(
            decode_encoded_command("awB1AGIAZQBjAHQAbAA=").as_deref(),
            Some("kubectl")
        );
        assert_eq!(decode_encoded_command("!!"), None);
    }
}
