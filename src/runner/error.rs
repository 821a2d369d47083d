//! Errors of the runner: finding the executable, launching it, capturing its output, and reading
//! `.env` files.
//!
//! Each message names what failed (the command, the program path, the file and line) and never
//! an argument or an environment value. When an error wraps an I/O error, the cause is kept as
//! the error's `source` rather than repeated in the message, so a caller that walks the chain
//! prints it exactly once.

use std::io;
use std::path::PathBuf;

/// Why a provider CLI could not be found, started or captured.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// No acceptable executable with this name exists in any searched `PATH` directory.
    #[error("could not find the executable `{command}` in PATH")]
    NotFound { command: String },

    /// The configured command is not a bare file name (it is empty, or has a path component).
    #[error("invalid executable name `{command}`: expected a bare name without a path")]
    InvalidCommand { command: String },

    /// The directories that must be left out of the search could not be determined, so Torii
    /// refuses to search at all rather than risk running a shadowing file.
    #[error("could not determine {what}, which is excluded from the PATH search")]
    ExclusionUnknown {
        what: &'static str,
        #[source]
        source: io::Error,
    },

    /// The launcher only accepts a program that was already resolved to an absolute path, so the
    /// operating system never searches `PATH` again.
    #[error("refusing to launch `{}`: the program path must be absolute", program.display())]
    RelativeProgram { program: PathBuf },

    /// Windows runs a batch file through cmd.exe, whose command line cannot carry a line break
    /// as data (see [`super::exec::batch_argument_refused`]).
    #[error(
        "refusing to launch `{}`: argument {position} holds a line break, which a batch file \
         (.bat, .cmd) cannot receive as data",
        program.display()
    )]
    BatchArgument { program: PathBuf, position: usize },

    /// An environment variable name to set or remove is empty or contains `=` or a NUL byte.
    #[error("invalid environment variable name `{name}`")]
    InvalidEnvName { name: String },

    /// The operating system refused to start the program.
    #[error("could not start `{}`", program.display())]
    Spawn {
        program: PathBuf,
        #[source]
        source: io::Error,
    },

    /// The program was not started: it could not be confined out of the config root, as
    /// `settings.yaml` requires.
    #[error("could not start `{}`", program.display())]
    Confine {
        program: PathBuf,
        #[source]
        source: crate::confine::ConfineError,
    },

    /// Reading the child's output or waiting for it failed.
    #[error("could not collect the result of `{}`", program.display())]
    Collect {
        program: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// A malformed line in `.env` text. The caller adds the file name (see [`EnvFileError`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct DotenvError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with the line. It never quotes the value, which may be a secret.
    pub message: String,
}

/// A `.env` file that could not be read or parsed.
#[derive(Debug, thiserror::Error)]
pub enum EnvFileError {
    #[error("could not read env file `{}`", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },

    /// Named `file:line` like every other file Torii reads.
    #[error(
        "invalid env file {}: {}",
        strict_yaml::located(path.display(), Some(strict_yaml::Position { line: error.line as u64, column: None })),
        error.message
    )]
    Parse { path: PathBuf, error: DotenvError },
}
