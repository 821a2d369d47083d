//! `auth/credentials.env` of a bucket: the collected fields, in `.env` syntax.
//!
//! Written only after a candidate was validated, atomically (temporary file, flush, rename)
//! and owner-only, so a cancelled or refused candidate never replaces the previous file.

use std::collections::BTreeMap;
use std::path::Path;

use crate::atomic::{self, Access, WriteError};
use crate::runner::EnvFileError;
use crate::secret::Secret;

use super::cache::ensure_parent;

/// The stored values, or `None` when there is no file yet.
pub fn read(path: &Path) -> Result<Option<BTreeMap<String, Secret>>, EnvFileError> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(None);
    }
    Ok(Some(
        crate::runner::read_env_file(path)?.into_iter().collect(),
    ))
}

/// Replaces the file with `values`.
pub fn write(path: &Path, values: &BTreeMap<String, Secret>) -> Result<(), WriteError> {
    ensure_parent(path)?;
    let mut text =
        String::from("# Collected and validated by Torii. Secret: do not share or commit.\n");
    for (name, value) in values {
        text.push_str(&format!("{name}=\"{}\"\n", escape(value.expose())));
    }
    atomic::write(path, text.as_bytes(), Access::Private)
}

/// Double-quoted `.env` escaping that the runner's parser reads back exactly.
fn escape(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => escaped.push_str("\\\\"),
            '"' => escaped.push_str("\\\""),
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            '\t' => escaped.push_str("\\t"),
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_through_the_env_parser() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b/auth/credentials.env");
        assert_eq!(read(&path).unwrap(), None);
        let values: BTreeMap<String, Secret> = [
            ("A", "plain"),
            ("B", "with \"quotes\" and \\ backslash"),
            ("C", "multi\nline\ttoken $HOME #not-a-comment"),
            ("D", ""),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), Secret::from(v)))
        .collect();
        write(&path, &values).unwrap();
        assert_eq!(read(&path).unwrap(), Some(values));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
            let dir_mode = std::fs::metadata(path.parent().unwrap())
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(dir_mode & 0o777, 0o700);
        }
    }
}
