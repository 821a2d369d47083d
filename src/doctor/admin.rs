//! The administrator's layer: what it holds, and whether only an administrator can change it.

use super::Finding;
use crate::admin::{AdminLayer, admin_dir};

pub fn check() -> Vec<Finding> {
    let dir = admin_dir();
    let layer = match AdminLayer::load(&dir) {
        Ok(None) => return Vec::new(),
        Ok(Some(layer)) => layer,
        Err(error) => {
            return vec![Finding::problem(
                crate::errors::chain(&error),
                crate::tr!("doctor-admin-broken-fix"),
            )];
        }
    };
    let providers: Vec<&str> = layer.providers().collect();
    let none = || "-".to_string();
    let mut findings = vec![Finding::ok(crate::tr!(
        "doctor-admin",
        path = dir.display().to_string(),
        providers = if providers.is_empty() {
            none()
        } else {
            providers.join(", ")
        },
        settings = if layer.locked_settings().is_empty() {
            none()
        } else {
            layer.locked_settings().join(", ")
        }
    ))];
    findings.extend(writable_by_others(&dir).map(|path| {
        Finding::problem(
            crate::tr!("doctor-admin-writable", path = path.display().to_string()),
            crate::tr!(
                "doctor-admin-writable-fix",
                path = dir.display().to_string()
            ),
        )
    }));
    findings
}

/// The first file of the layer (or the directory) that someone other than its owner, root, can
/// write: then a user could loosen what the layer denies.
#[cfg(unix)]
fn writable_by_others(dir: &std::path::Path) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let mut paths = vec![
        dir.to_path_buf(),
        dir.join("settings.yaml"),
        dir.join("rules"),
    ];
    if let Ok(entries) = std::fs::read_dir(dir.join("rules")) {
        paths.extend(entries.flatten().map(|entry| entry.path()));
    }
    paths.into_iter().find(|path| {
        std::fs::symlink_metadata(path)
            .is_ok_and(|metadata| metadata.uid() != 0 || metadata.mode() & 0o022 != 0)
    })
}

/// Windows: the directory's ACL is the administrator's to set; not checked here.
#[cfg(not(unix))]
fn writable_by_others(_dir: &std::path::Path) -> Option<std::path::PathBuf> {
    None
}
