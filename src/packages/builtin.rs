//! The official packages built into this torii (`examples/providers` of its source tree), so
//! that `torii provider install kubectl` works without the network, at the version this release
//! ships; `torii self upgrade` brings newer ones, and `provider upgrade` installs them.

use std::path::Path;

use include_dir::{Dir, DirEntry, include_dir};

use super::PackageError;

static OFFICIAL: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/examples/providers");

/// The names of the built-in packages, sorted.
pub fn names() -> Vec<&'static str> {
    let mut names: Vec<&str> = OFFICIAL
        .dirs()
        .filter_map(|dir| dir.path().file_name()?.to_str())
        .collect();
    names.sort_unstable();
    names
}

/// Whether `name` is a built-in package.
pub fn has(name: &str) -> bool {
    names().contains(&name)
}

/// Writes the built-in package `name` into the empty directory `into`.
pub fn unpack(name: &str, into: &Path) -> Result<(), PackageError> {
    let package = OFFICIAL
        .get_dir(name)
        .ok_or_else(|| PackageError::UnknownBuiltIn {
            name: name.to_string(),
        })?;
    write(package, package.path(), into)
}

fn write(dir: &Dir<'_>, base: &Path, into: &Path) -> Result<(), PackageError> {
    for entry in dir.entries() {
        // Inside the embedded tree every path is relative and made of plain names.
        let relative = entry.path().strip_prefix(base).unwrap_or(entry.path());
        let target = into.join(relative);
        match entry {
            DirEntry::Dir(sub) => {
                crate::files::create_private_dir_all(&target)
                    .map_err(|error| PackageError::write(&target, error))?;
                write(sub, base, into)?;
            }
            DirEntry::File(file) => std::fs::write(&target, file.contents())
                .map_err(|error| PackageError::write(&target, error))?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_official_package_is_built_in() {
        assert_eq!(
            super::names(),
            [
                "aws",
                "aws-profile",
                "az",
                "gcloud",
                "gh",
                "kubeconfig",
                "kubectl",
                "snow"
            ]
        );
    }
}
