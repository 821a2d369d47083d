//! The `.env` format: persistent, non-secret variables a provider or target sets on its child.
//!
//! One `KEY=value` per line, optionally prefixed by `export `. Blank lines and lines starting
//! with `#` are ignored. Unquoted values are trimmed and end at ` #` (a `#` after whitespace).
//! Double-quoted values understand `\n`, `\r`, `\t`, `\"` and `\\`; any other backslash is kept
//! as written. Single-quoted values are taken literally. A quoted value ends on its own line.
//! Nothing is ever expanded: `$HOME` is five characters. A later line wins over an earlier one.
//!
//! Errors name the line but never echo its content, which may hold a secret.

use std::path::Path;

pub use super::error::{DotenvError, EnvFileError};
use crate::secret::{EnvVars, Secret};

/// Parses `.env` text into variables in first-appearance order, a repeated key taking its last
/// value.
pub fn parse(text: &str) -> Result<Vec<(String, String)>, DotenvError> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        match parse_line(line) {
            Ok(Some(entry)) => entries.push(entry),
            Ok(None) => {}
            Err(message) => {
                return Err(DotenvError {
                    line: index + 1,
                    message: message.into(),
                });
            }
        }
    }
    Ok(overlay(Vec::new(), entries))
}

/// `base` with every key of `over` applied on top: a key in `over` replaces the same key in
/// `base` (a target's `.env` over the provider's), new keys are appended.
pub fn overlay<V>(base: Vec<(String, V)>, over: Vec<(String, V)>) -> Vec<(String, V)> {
    let mut merged: Vec<(String, V)> = Vec::with_capacity(base.len() + over.len());
    for (key, value) in base.into_iter().chain(over) {
        match merged.iter_mut().find(|(existing, _)| *existing == key) {
            Some(entry) => entry.1 = value,
            None => merged.push((key, value)),
        }
    }
    merged
}

/// Reads and parses the `.env` file at `path`. A missing file is an empty one; a dangling
/// link, a FIFO or a file over 1 MiB is an error.
pub fn read_env_file(path: &Path) -> Result<EnvVars, EnvFileError> {
    let text = match crate::files::read_optional_text(path, crate::files::SMALL_FILE_BYTES) {
        Ok(Some(text)) => text,
        Ok(None) => return Ok(Vec::new()),
        Err(source) => {
            return Err(EnvFileError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let variables = parse(&text).map_err(|error| EnvFileError::Parse {
        path: path.to_path_buf(),
        error,
    })?;
    Ok(variables
        .into_iter()
        .map(|(name, value)| (name, Secret::from(value)))
        .collect())
}

type LineResult = Result<Option<(String, String)>, &'static str>;

fn parse_line(line: &str) -> LineResult {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let line = strip_export(line);
    let Some((key, raw_value)) = line.split_once('=') else {
        return Err("expected KEY=value");
    };
    let key = key.trim();
    if key.is_empty() {
        return Err("missing variable name before `=`");
    }
    if !crate::text::is_env_name(key) {
        return Err(
            "invalid variable name: use letters, digits and `_`, not starting with a digit",
        );
    }
    let value = parse_value(raw_value)?;
    if value.contains('\0') {
        return Err("the value contains a NUL character");
    }
    Ok(Some((key.to_string(), value)))
}

/// `export KEY=value` is accepted so a file can also be sourced by a shell.
fn strip_export(line: &str) -> &str {
    match line.strip_prefix("export") {
        Some(rest) if rest.starts_with(char::is_whitespace) => rest.trim_start(),
        _ => line,
    }
}

fn parse_value(raw: &str) -> Result<String, &'static str> {
    let trimmed = raw.trim_start();
    if let Some(inner) = trimmed.strip_prefix('"') {
        let (value, rest) = double_quoted(inner)?;
        only_comment_after_quote(rest)?;
        Ok(value)
    } else if let Some(inner) = trimmed.strip_prefix('\'') {
        let Some((value, rest)) = inner.split_once('\'') else {
            return Err("unterminated single-quoted value (a value cannot span lines)");
        };
        only_comment_after_quote(rest)?;
        Ok(value.to_string())
    } else {
        Ok(unquoted(raw))
    }
}

/// An unquoted value ends at a `#` that follows whitespace, so `a#b` keeps its `#`.
fn unquoted(raw: &str) -> String {
    let mut end = raw.len();
    let mut after_space = false;
    for (at, c) in raw.char_indices() {
        if c == '#' && after_space {
            end = at;
            break;
        }
        after_space = c.is_whitespace();
    }
    raw[..end].trim().to_string()
}

/// Decodes a double-quoted value up to its closing quote; returns it and the text after.
fn double_quoted(inner: &str) -> Result<(String, &str), &'static str> {
    let mut value = String::new();
    let mut chars = inner.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return Ok((value, &inner[at + 1..])),
            '\\' => match chars.next() {
                Some((_, 'n')) => value.push('\n'),
                Some((_, 'r')) => value.push('\r'),
                Some((_, 't')) => value.push('\t'),
                Some((_, '"')) => value.push('"'),
                Some((_, '\\')) => value.push('\\'),
                Some((_, other)) => {
                    value.push('\\');
                    value.push(other);
                }
                None => break,
            },
            _ => value.push(c),
        }
    }
    Err("unterminated double-quoted value (a value cannot span lines; write \\n for a newline)")
}

fn only_comment_after_quote(rest: &str) -> Result<(), &'static str> {
    let rest = rest.trim_start();
    if rest.is_empty() || rest.starts_with('#') {
        Ok(())
    } else {
        Err("unexpected text after the closing quote")
    }
}
