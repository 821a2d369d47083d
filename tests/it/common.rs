//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// A fresh, empty Torii config root in a temporary directory, removed on drop.
pub struct Root {
    pub dir: tempfile::TempDir,
}

impl Root {
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `contents` at `relative` under the root, creating parent directories.
    pub fn write(&self, relative: &str, contents: &str) -> PathBuf {
        let path = self.dir.path().join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create parent");
        }
        std::fs::write(&path, contents).expect("write file");
        path
    }

    /// The real `torii` binary with `TORII_CONFIG_DIR` pointing at this root and no GUI.
    pub fn torii(&self) -> assert_cmd::Command {
        let mut command = assert_cmd::Command::cargo_bin("torii").expect("torii binary");
        command
            .env("TORII_CONFIG_DIR", self.dir.path())
            .env("TORII_NO_GUI", "1");
        command
    }
}
