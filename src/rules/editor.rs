//! Which editor `torii policy edit` opens: `$VISUAL`, else `$EDITOR`, else `vi` (`notepad` on
//! Windows).
//!
//! There is no shell. The variable is split on whitespace into a program and its arguments
//! (`code --wait` works; quoting does not, so a program path with spaces cannot be given this
//! way). A bare program name is resolved on `PATH` like a provider's command, never in the
//! current directory; a value containing a path separator is used as the path it names.

use std::ffi::OsStr;
use std::path::PathBuf;

use crate::runner::{self, RunError};

/// The editor to launch; the draft's path is appended as its last argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditorCommand {
    pub program: PathBuf,
    pub args: Vec<String>,
    /// Where the choice came from: `$VISUAL`, `$EDITOR` or `default`.
    pub from: &'static str,
}

/// The editor cannot be determined or found.
#[derive(Debug, thiserror::Error)]
pub enum EditorError {
    #[error("{from} is not valid UTF-8")]
    NotUtf8 { from: &'static str },
    #[error(
        "cannot use the editor `{program}` (from {from}); set $VISUAL or $EDITOR to an installed editor"
    )]
    Resolve {
        program: String,
        from: &'static str,
        #[source]
        source: RunError,
    },
    #[error("cannot make the editor path `{program}` (from {from}) absolute")]
    Absolute {
        program: String,
        from: &'static str,
        #[source]
        source: std::io::Error,
    },
}

/// The editor when neither variable names one: `notepad` on Windows, which every Windows has,
/// and `vi` elsewhere, which POSIX requires. A plain function of the system, tested on every
/// one.
pub fn default_editor(windows: bool) -> &'static str {
    if windows { "notepad" } else { "vi" }
}

/// The editor words from the values of `VISUAL` and `EDITOR` (pure). Empty or blank values
/// count as unset.
pub fn parse_editor(
    visual: Option<&OsStr>,
    editor: Option<&OsStr>,
) -> Result<(Vec<String>, &'static str), EditorError> {
    for (value, from) in [(visual, "$VISUAL"), (editor, "$EDITOR")] {
        let Some(value) = value else { continue };
        let text = value.to_str().ok_or(EditorError::NotUtf8 { from })?;
        let words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        if !words.is_empty() {
            return Ok((words, from));
        }
    }
    Ok((vec![default_editor(cfg!(windows)).to_string()], "default"))
}

/// The editor from the environment, with its program resolved to an absolute path.
pub fn editor_command() -> Result<EditorCommand, EditorError> {
    let visual = std::env::var_os("VISUAL");
    let editor = std::env::var_os("EDITOR");
    let (mut words, from) = parse_editor(visual.as_deref(), editor.as_deref())?;
    let program = words.remove(0);
    let path = if program.contains(['/', '\\']) {
        std::path::absolute(&program).map_err(|source| EditorError::Absolute {
            program: program.clone(),
            from,
            source,
        })?
    } else {
        runner::resolve(&program).map_err(|source| EditorError::Resolve {
            program: program.clone(),
            from,
            source,
        })?
    };
    Ok(EditorCommand {
        program: path,
        args: words,
        from,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(visual: Option<&str>, editor: Option<&str>) -> (Vec<String>, &'static str) {
        parse_editor(visual.map(OsStr::new), editor.map(OsStr::new)).unwrap()
    }

    #[test]
    fn visual_wins_then_editor_then_the_default() {
        assert_eq!(
            words(Some("nano"), Some("vim")),
            (vec!["nano".into()], "$VISUAL")
        );
        assert_eq!(words(None, Some("vim")), (vec!["vim".into()], "$EDITOR"));
        assert_eq!(
            words(Some("  "), Some("vim")),
            (vec!["vim".into()], "$EDITOR")
        );
        assert_eq!(
            words(None, Some("")),
            (vec![default_editor(cfg!(windows)).into()], "default")
        );
        assert_eq!(default_editor(true), "notepad");
        assert_eq!(default_editor(false), "vi");
    }

    #[test]
    fn arguments_are_split_on_whitespace_without_a_shell() {
        assert_eq!(
            words(None, Some("code --wait")).0,
            ["code".to_string(), "--wait".to_string()]
        );
        assert_eq!(
            words(None, Some("vim '$(rm -rf ~)'")).0,
            [
                "vim".to_string(),
                "'$(rm".to_string(),
                "-rf".to_string(),
                "~)'".to_string()
            ]
        );
    }
}
