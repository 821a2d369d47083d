//! Globs and brace expansions, matched the way the shell or a file tool would, lexically and
//! on the disk.

use std::path::{Path, PathBuf};

use super::words::closing;
use super::{Globs, MAX_BRACE_WORDS, MAX_GLOB_ENTRIES, UNKNOWN};

/// Every word a brace expansion of `text` yields (`a{b,c}d` is `abd`, `acd`; `{a..c}` is `a`,
/// `b`, `c`); the text itself when it has none; `None` past [`MAX_BRACE_WORDS`].
pub(super) fn braces(text: &str) -> Option<Vec<String>> {
    let mut words = vec![String::new()];
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some((alternatives, close)) = brace_group(&rest[open..]) else {
            for word in &mut words {
                word.push_str(&rest[..=open]);
            }
            rest = &rest[open + 1..];
            continue;
        };
        let prefix = &rest[..open];
        let mut next = Vec::new();
        for word in &words {
            for alternative in &alternatives {
                for expanded in braces(alternative)? {
                    next.push(format!("{word}{prefix}{expanded}"));
                    if next.len() > MAX_BRACE_WORDS {
                        return None;
                    }
                }
            }
        }
        words = next;
        rest = &rest[open + close + 1..];
    }
    for word in &mut words {
        word.push_str(rest);
    }
    Some(words)
}

/// The alternatives of the brace group `text` starts with, and the index of its `}`; `None`
/// when it is not one (neither a comma at its level nor a sequence, or not closed).
pub(super) fn brace_group(text: &str) -> Option<(Vec<String>, usize)> {
    let mut depth = 0;
    let mut start = 1;
    let mut alternatives = Vec::new();
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    if alternatives.is_empty() {
                        return sequence(&text[1..i]).map(|words| (words, i));
                    }
                    alternatives.push(text[start..i].to_string());
                    return Some((alternatives, i));
                }
            }
            ',' if depth == 1 => {
                alternatives.push(text[start..i].to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    None
}

/// `a..e`, `1..10`, `z..a..2`: the words of a sequence expression.
pub(super) fn sequence(body: &str) -> Option<Vec<String>> {
    let fields: Vec<&str> = body.split("..").collect();
    let (from, to) = match fields.as_slice() {
        [from, to] | [from, to, _] => (*from, *to),
        _ => return None,
    };
    let step: usize = match fields.get(2) {
        Some(step) => step
            .trim_start_matches('-')
            .parse()
            .ok()
            .filter(|s| *s > 0)?,
        None => 1,
    };
    let range = |a: i64, b: i64| -> Vec<i64> {
        let (low, high) = (a.min(b), a.max(b));
        let mut values: Vec<i64> = (low..=high)
            .step_by(step)
            .take(MAX_BRACE_WORDS + 1)
            .collect();
        if a > b {
            values.reverse();
        }
        values
    };
    if let (Ok(a), Ok(b)) = (from.parse::<i64>(), to.parse::<i64>()) {
        return Some(range(a, b).iter().map(i64::to_string).collect());
    }
    let (mut a, mut b) = (from.chars(), to.chars());
    match (a.next(), a.next(), b.next(), b.next()) {
        (Some(a), None, Some(b), None) if a.is_ascii() && b.is_ascii() => Some(
            range(i64::from(a as u8), i64::from(b as u8))
                .iter()
                .filter_map(|&c| u8::try_from(c).ok())
                .map(|c| char::from(c).to_string())
                .collect(),
        ),
        _ => None,
    }
}

/// The paths a glob matches on the disk now (links followed as the kernel does), bounded by
/// [`MAX_GLOB_ENTRIES`]; `None` past the bound. A `**` matches what is below it only as far as
/// the lexical match sees.
pub(super) fn disk_matches(pattern: &Path, globs: Globs) -> Option<Vec<PathBuf>> {
    let mut current = vec![PathBuf::new()];
    let mut read = 0;
    for component in pattern.components() {
        let part = component.as_os_str().to_string_lossy();
        if !is_pattern(&part) {
            for path in &mut current {
                path.push(component.as_os_str());
            }
            continue;
        }
        let mut next = Vec::new();
        for dir in &current {
            let Ok(entries) = std::fs::read_dir(if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            }) else {
                continue;
            };
            for entry in entries.flatten() {
                read += 1;
                if read > MAX_GLOB_ENTRIES {
                    return None;
                }
                let name = entry.file_name().to_string_lossy().into_owned();
                if part == "**" || component_matches(&part, &name, globs) {
                    next.push(dir.join(&name));
                }
            }
        }
        current = next;
    }
    Some(current)
}

pub(super) fn is_pattern(text: &str) -> bool {
    text.contains(['*', '?', '[', UNKNOWN]) || extglob_at(text).is_some()
}

/// Where an extended glob group (`@(…)`, `!(…)`, `+(…)`, `*(…)`, `?(…)`) starts, if any.
pub(super) fn extglob_at(text: &str) -> Option<usize> {
    text.find(['@', '!', '+', '*', '?'])
        .filter(|&at| text[at + 1..].starts_with('('))
}

pub(super) fn components(path: &Path) -> Vec<String> {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect()
}

/// One token of a component glob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Token {
    /// Any run of characters.
    Any,
    /// Any one character (`?`, or a bracket expression, read more widely than the shell).
    One,
    Char(char),
}

/// Whether one path component, a glob, could match `name`.
pub(super) fn component_matches(pattern: &str, name: &str, globs: Globs) -> bool {
    // The shell's wildcards do not match a leading dot (no `dotglob`): the pattern must write
    // it, first or first in an extended group.
    // A computed part may itself start with the dot.
    let explicit_dot =
        pattern.starts_with(['.', UNKNOWN]) || pattern.contains("(.") || pattern.contains("|.");
    if globs == Globs::Shell && name.starts_with('.') && !explicit_dot {
        return false;
    }
    if globs == Globs::Wide {
        let tokens = tokens(&pattern.to_lowercase());
        let name: Vec<char> = name.to_lowercase().chars().collect();
        return wildcard_match(&tokens, &name);
    }
    let tokens = tokens(pattern);
    let name: Vec<char> = name.chars().collect();
    wildcard_match(&tokens, &name)
}

pub(super) fn tokens(pattern: &str) -> Vec<Token> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        i += 1;
        match c {
            '\\' => {
                tokens.extend(chars.get(i).copied().map(Token::Char));
                i += 1;
            }
            '*' | '?' | '@' | '!' | '+' if chars.get(i) == Some(&'(') => {
                // An extended glob group: any text.
                i = closing(&chars, i, '(', ')') + 1;
                tokens.push(Token::Any);
            }
            '*' | UNKNOWN => tokens.push(Token::Any),
            '?' => tokens.push(Token::One),
            '[' => {
                // `]` right after `[` (or `[!`, `[^`) is a member; `[:class:]` holds a `]`.
                let start = i;
                let mut closed = false;
                while let Some(&c) = chars.get(i) {
                    i += 1;
                    let body = &chars[start..i - 1];
                    if c == ']' && !body.is_empty() && body != ['!'] && body != ['^'] {
                        closed = true;
                        break;
                    }
                    if c == '[' && matches!(chars.get(i), Some(':' | '.' | '=')) {
                        i = chars[i..]
                            .iter()
                            .position(|&c| c == ']')
                            .map_or(chars.len(), |at| i + at + 1);
                    }
                }
                if closed {
                    tokens.push(Token::One);
                } else {
                    tokens.extend(chars[start - 1..].iter().copied().map(Token::Char));
                }
            }
            c => tokens.push(Token::Char(c)),
        }
    }
    tokens
}

/// Wildcard matching in linear passes (the last `*` is the only one ever backtracked to).
pub(super) fn wildcard_match(tokens: &[Token], name: &[char]) -> bool {
    let (mut t, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match tokens.get(t) {
            Some(Token::Any) => {
                star = Some((t, n));
                t += 1;
            }
            Some(Token::One) => {
                t += 1;
                n += 1;
            }
            Some(Token::Char(c)) if *c == name[n] => {
                t += 1;
                n += 1;
            }
            _ => match star {
                Some((star_t, star_n)) => {
                    t = star_t + 1;
                    n = star_n + 1;
                    star = Some((star_t, star_n + 1));
                }
                None => return false,
            },
        }
    }
    tokens[t.min(tokens.len())..]
        .iter()
        .all(|token| *token == Token::Any)
}
