//! Hostile archives: every crafted ZIP and TAR is refused with an error naming the archive
//! and the entry, and nothing is left behind (no provider, no staging, nothing outside).
//! Each archive also carries a complete valid package, written before the hostile entry, so
//! the refusal is the entry's doing and the cleanup covers files already unpacked.

use std::io::Write;

use predicates::prelude::*;
use tar::EntryType;

use crate::common::Root;
use crate::pack::{RawTarEntry, example, files, gzip, names, raw_tar, tar_of, zip_of};

/// Installs `bytes` as `name` into a fresh root and checks the refusal and the cleanup.
fn refused(name: &str, bytes: &[u8], reason: &str) {
    let root = Root::new();
    let archive = root.path().join(name);
    std::fs::write(&archive, bytes).unwrap();
    root.torii()
        .args(["provider", "install"])
        .arg(&archive)
        .assert()
        .failure()
        .stderr(predicate::str::contains(archive.display().to_string()))
        .stderr(predicate::str::contains(reason));
    // Not even the `providers/` directory the install had to create.
    assert_eq!(
        names(root.path()),
        [name],
        "{name}: something was left in the root"
    );
}

fn package() -> Vec<(String, Vec<u8>)> {
    files(&example("kubectl"))
}

fn zip_with(extra: impl FnOnce(&mut zip::ZipWriter<std::io::Cursor<Vec<u8>>>)) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for (name, bytes) in package() {
        writer.start_file(name, options).unwrap();
        writer.write_all(&bytes).unwrap();
    }
    extra(&mut writer);
    writer.finish().unwrap().into_inner()
}

fn tar_with(extra: &[RawTarEntry<'_>]) -> Vec<u8> {
    let mut bytes = tar_of(&package(), "");
    // Drop the two zero blocks that end the archive, then append the crafted entries.
    bytes.truncate(bytes.len() - 1024);
    let crafted = raw_tar(extra);
    bytes.extend_from_slice(&crafted);
    bytes
}

/// Rewrites the Unix mode of `name` in the ZIP central directory (the writer masks file types).
fn set_zip_mode(bytes: &mut [u8], name: &str, mode: u32) {
    let mut at = 0;
    while let Some(offset) = bytes[at..]
        .windows(4)
        .position(|window| window == b"PK\x01\x02")
    {
        let header = at + offset;
        let name_len = u16::from_le_bytes([bytes[header + 28], bytes[header + 29]]) as usize;
        if &bytes[header + 46..header + 46 + name_len] == name.as_bytes() {
            bytes[header + 5] = 3; // made by Unix, so the mode is read
            bytes[header + 38..header + 42].copy_from_slice(&(mode << 16).to_le_bytes());
            return;
        }
        at = header + 4;
    }
    panic!("{name} not found in the central directory");
}

#[test]
fn zip_path_traversal_is_refused() {
    let bytes = zip_with(|writer| {
        writer
            .start_file("../escaped.yaml", zip::write::SimpleFileOptions::default())
            .unwrap();
        writer.write_all(b"x").unwrap();
    });
    refused(
        "traversal.zip",
        &bytes,
        "entry \"../escaped.yaml\": path traversal",
    );
}

#[test]
fn zip_absolute_path_is_refused() {
    let bytes = zip_with(|writer| {
        writer
            .start_file(
                "/tmp/torii-escaped.yaml",
                zip::write::SimpleFileOptions::default(),
            )
            .unwrap();
        writer.write_all(b"x").unwrap();
    });
    refused("absolute.zip", &bytes, "absolute path");
    assert!(!std::path::Path::new("/tmp/torii-escaped.yaml").exists());
}

#[test]
fn zip_symlink_is_refused() {
    let bytes = zip_with(|writer| {
        writer
            .add_symlink(
                "link",
                "/etc/passwd",
                zip::write::SimpleFileOptions::default(),
            )
            .unwrap();
    });
    refused(
        "symlink.zip",
        &bytes,
        "entry \"link\": symbolic links are not allowed",
    );
}

#[test]
fn zip_special_file_is_refused() {
    let mut bytes = zip_with(|writer| {
        writer
            .start_file("fifo", zip::write::SimpleFileOptions::default())
            .unwrap();
    });
    set_zip_mode(&mut bytes, "fifo", 0o010_644);
    refused("fifo.zip", &bytes, "entry \"fifo\": special files");
}

#[test]
fn zip_with_too_many_files_is_refused() {
    let bytes = zip_with(|writer| {
        for index in 0..1_000 {
            writer
                .start_file(
                    format!("many/{index}"),
                    zip::write::SimpleFileOptions::default(),
                )
                .unwrap();
        }
    });
    refused("many.zip", &bytes, "more than 1000 entries");
}

#[test]
fn zip_bomb_is_refused_by_counting_written_bytes() {
    let zeros = vec![0u8; 17 * 1024 * 1024];
    let bytes = zip_with(|writer| {
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        writer.start_file("bomb", options).unwrap();
        writer.write_all(&zeros).unwrap();
    });
    assert!(
        bytes.len() < 200 * 1024,
        "the bomb is small: {}",
        bytes.len()
    );
    refused(
        "bomb.zip",
        &bytes,
        "the package expands to more than 16777216 bytes",
    );
}

#[test]
fn zip_bomb_with_lying_size_headers_is_refused() {
    let zeros = vec![0u8; 17 * 1024 * 1024];
    let mut bytes = zip_of(&[("bomb".to_string(), zeros)], "");
    // Claim one byte in both the local header (offset 22) and the central directory (24).
    let local = bytes.windows(4).position(|w| w == b"PK\x03\x04").unwrap();
    bytes[local + 22..local + 26].copy_from_slice(&1u32.to_le_bytes());
    let central = bytes.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
    bytes[central + 24..central + 28].copy_from_slice(&1u32.to_le_bytes());
    let root = Root::new();
    let archive = root.path().join("liar.zip");
    std::fs::write(&archive, &bytes).unwrap();
    root.torii()
        .args(["provider", "install"])
        .arg(&archive)
        .assert()
        .failure()
        .stderr(predicate::str::contains("entry \"bomb\": cannot unpack it"));
    assert!(names(&root.path().join("providers")).is_empty());
}

#[test]
fn tar_path_traversal_and_absolute_paths_are_refused() {
    for (name, path, reason) in [
        (
            "traversal.tar",
            b"../escaped.yaml".as_slice(),
            "path traversal",
        ),
        (
            "nested.tar",
            b"setups/../../escaped.yaml".as_slice(),
            "path traversal",
        ),
        (
            "absolute.tar",
            b"/tmp/torii-escaped.yaml".as_slice(),
            "absolute path",
        ),
    ] {
        let bytes = tar_with(&[RawTarEntry {
            name: path,
            kind: EntryType::Regular,
            data: b"x",
            link: b"",
        }]);
        refused(name, &bytes, reason);
    }
}

#[test]
fn tar_links_and_special_files_are_refused() {
    for (name, kind, link, reason) in [
        (
            "symlink.tar",
            EntryType::Symlink,
            b"/etc/passwd".as_slice(),
            "symbolic links are not allowed",
        ),
        (
            "hardlink.tar",
            EntryType::Link,
            b"manifest.yaml".as_slice(),
            "hard links are not allowed",
        ),
        (
            "chardev.tar",
            EntryType::Char,
            b"".as_slice(),
            "special files (devices, FIFOs) are not allowed",
        ),
        (
            "blockdev.tar",
            EntryType::Block,
            b"".as_slice(),
            "special files (devices, FIFOs) are not allowed",
        ),
        (
            "fifo.tar",
            EntryType::Fifo,
            b"".as_slice(),
            "special files (devices, FIFOs) are not allowed",
        ),
    ] {
        let bytes = tar_with(&[RawTarEntry {
            name: b"entry",
            kind,
            data: b"",
            link,
        }]);
        refused(name, &bytes, reason);
        refused(&format!("{name}.gz"), &gzip(&bytes), reason);
    }
}

#[test]
fn tar_with_too_many_files_is_refused() {
    let many: Vec<(String, Vec<u8>)> = (0..1_000)
        .map(|index| (format!("many/{index}"), Vec::new()))
        .collect();
    let mut all = package();
    all.extend(many);
    refused(
        "many.tar.gz",
        &gzip(&tar_of(&all, "")),
        "more than 1000 entries",
    );
}

#[test]
fn tar_too_large_once_unpacked_is_refused() {
    let mut all = package();
    all.push(("big".to_string(), vec![0u8; 17 * 1024 * 1024]));
    let tgz = gzip(&tar_of(&all, ""));
    assert!(tgz.len() < 200 * 1024, "the bomb is small: {}", tgz.len());
    refused("bomb.tgz", &tgz, "the package expands to more than");
}

#[test]
fn not_an_archive_is_refused() {
    refused(
        "script.zip",
        b"#!/bin/sh\nrm -rf ~\n",
        "not a package: expected a directory, or a ZIP, TAR or TAR.GZ archive",
    );
}

#[cfg(unix)]
#[test]
fn a_package_directory_with_a_symlink_is_refused() {
    let root = Root::new();
    let source = tempfile::tempdir().unwrap();
    for (name, bytes) in package() {
        let path = source.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    std::os::unix::fs::symlink("/etc/passwd", source.path().join("env.example.real")).unwrap();
    root.torii()
        .args(["provider", "install"])
        .arg(source.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "entry \"env.example.real\": symbolic links are not allowed",
        ));
    assert!(names(&root.path().join("providers")).is_empty());
}
