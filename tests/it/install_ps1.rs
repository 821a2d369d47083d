//! `install.ps1`, checked as text. PowerShell cannot be installed on the machines these tests
//! run on, so this is a contract check on what the script says, not an execution: it pins the
//! options, the HTTPS-only release location, the signature and the SHA-256 checks before
//! extraction, the user-only PATH and the `torii.exe.old` dance, so that none of them goes away unnoticed. The release
//! workflow runs the script for real, on the Windows runner, against the archive it has just
//! built (`.github/workflows/release.yml`, with `scripts/release-server.py`).

use std::path::Path;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn script() -> String {
    std::fs::read_to_string(repo().join("install.ps1")).unwrap()
}

/// The script without its comment lines, so that prose cannot satisfy or break a check.
fn code() -> String {
    script()
        .lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where `needle` first is in the code; fails naming it when it is not there.
fn at(code: &str, needle: &str) -> usize {
    code.find(needle)
        .unwrap_or_else(|| panic!("install.ps1 no longer has: {needle}"))
}

#[test]
fn install_ps1_takes_its_options_as_arguments_or_from_the_environment() {
    let code = code();
    for needle in [
        "function Install-Torii {",
        "[string]$Version = $env:TORII_VERSION",
        "[string]$InstallDir = $env:TORII_INSTALL_DIR",
        "[switch]$NoPathUpdate",
        "$env:TORII_NO_PATH_UPDATE",
        r"Join-Path $env:LOCALAPPDATA 'Programs\torii\bin'",
    ] {
        at(&code, needle);
    }
    // `irm | iex` binds no script-level param() block: the parameters are the function's, and
    // the script's own arguments reach it by splatting (which keeps `-InstallDir` a name).
    let first = code.lines().find(|line| !line.trim().is_empty()).unwrap();
    assert_eq!(first, "function Install-Torii {");
    assert_eq!(code.trim_end().lines().last(), Some("Install-Torii @args"));
    // The book documents the same default directory.
    let book = std::fs::read_to_string(repo().join("docs/src/installation.md")).unwrap();
    assert!(book.contains(r"$env:LOCALAPPDATA\Programs\torii\bin"));
}

#[test]
fn install_ps1_fetches_only_over_https_from_the_release_location() {
    let code = code();
    at(&code, "$base = $env:TORII_RELEASE_BASE_URL");
    at(
        &code,
        &format!("$base = '{}'", torii::release::DEFAULT_BASE),
    );
    // Refused before anything else happens, redirects included.
    assert!(
        at(&code, "if ($base -cnotlike 'https://*') {") < at(&code, "Invoke-WebRequest"),
        "the https:// check comes first"
    );
    at(&code, "must be an https:// URL");
    at(&code, "$final.Scheme -ne 'https'");
    // The layout `torii self upgrade` and install.sh use, and the release workflow publishes.
    at(&code, r#"Get-Https "$base/latest""#);
    at(&code, "'^v[0-9]+\\.[0-9]+\\.[0-9]+$'");
    at(&code, "$platform = 'windows-x86_64'");
    at(&code, r#"$asset = "torii-$Version-$platform.zip""#);
    at(&code, r#""$base/download/$Version/$asset""#);
    at(&code, r#""$base/download/$Version/$asset.sha256""#);
    at(&code, r#""torii-$Version-$platform\torii.exe""#);
    // Windows PowerShell 5.1 needs both.
    at(&code, "[Net.SecurityProtocolType]::Tls12");
    at(&code, "UseBasicParsing = $true");
}

#[test]
fn install_ps1_checks_the_sha256_before_extracting_anything() {
    let code = code();
    let extract = at(&code, "Expand-Archive");
    // The checksum file must name this asset, and its hash must match, before extraction.
    assert!(at(&code, "if ($named -cne $asset) {") < extract);
    assert!(
        at(
            &code,
            "Get-FileHash -LiteralPath $archive -Algorithm SHA256"
        ) < extract
    );
    at(&code, "does not match $asset.sha256; nothing was installed");
    // The temporary directory goes whatever happens.
    at(
        &code,
        "} finally {\n        Remove-Item -LiteralPath $tmp -Recurse -Force",
    );
}

#[test]
fn install_ps1_replaces_a_running_torii_exe_as_self_upgrade_does() {
    let code = code();
    // The name `torii self upgrade` removes next time.
    assert_eq!(
        torii::release::leftover(Path::new("torii.exe")),
        Path::new("torii.exe.old")
    );
    at(&code, r#"$old = "$exe.old""#);
    let remove_stale = at(&code, "[IO.File]::Delete($old)");
    let aside = at(&code, "[IO.File]::Move($exe, $old)");
    let into_place = at(&code, "[IO.File]::Move($staged, $exe)");
    assert!(remove_stale < aside && aside < into_place);
    assert!(
        at(&code, "[IO.File]::Move($old, $exe)") > into_place,
        "the rollback"
    );
    // It says what it replaced.
    at(&code, "replaced $previous with $current");
}

#[test]
fn install_ps1_only_ever_writes_the_user_path_and_only_once() {
    let code = code();
    let lower = code.to_ascii_lowercase();
    for machine_wide in ["machine", "hklm", "runasadministrator", "-verb runas"] {
        assert!(
            !lower.contains(machine_wide),
            "install.ps1 mentions {machine_wide}"
        );
    }
    let writes: Vec<&str> = code
        .lines()
        .filter(|line| line.contains("SetEnvironmentVariable("))
        .collect();
    assert!(!writes.is_empty());
    for line in writes {
        let end = line.trim_end().trim_end_matches('"');
        assert!(end.ends_with(", 'User')"), "{line}");
    }
    let write = at(
        &code,
        "    [Environment]::SetEnvironmentVariable('Path', (@($entries + $InstallDir)",
    );
    // Already listed (for the user or this session): nothing is written; -NoPathUpdate: neither.
    assert!(at(&code, "if ($listed) { return }") < write);
    assert!(at(&code, "if ($NoPathUpdate) {") < write);
}

#[test]
fn install_ps1_is_safe_to_run_in_the_callers_session() {
    let script = script();
    // Windows PowerShell 5.1 reads a file without a byte order mark in the ANSI code page.
    assert!(script.is_ascii(), "install.ps1 must stay ASCII");
    let code = code();
    at(&code, "    $ErrorActionPreference = 'Stop'");
    // `exit` in a script run through iex closes the caller's PowerShell: errors are thrown.
    let words = code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    assert!(
        !words
            .into_iter()
            .any(|word| word.eq_ignore_ascii_case("exit"))
    );
}

#[test]
fn the_release_workflow_runs_install_ps1_on_the_built_archive() {
    let read = |path: &str| std::fs::read_to_string(repo().join(path)).unwrap();
    let check = read("scripts/check-install-ps1.ps1");
    for needle in [
        "scripts/release-server.py",
        "$env:TORII_RELEASE_BASE_URL = Get-Content",
        "./install.ps1 -InstallDir $dir -NoPathUpdate",
        "powershell -NoProfile -Command \"irm $root/install.ps1 | iex\"",
        "[scriptblock]::Create(",
    ] {
        assert!(
            check.contains(needle),
            "check-install-ps1.ps1 no longer has: {needle}"
        );
    }
    // Both workflows run that script on the archive they built, before anything else.
    for workflow in [
        ".github/workflows/release.yml",
        ".github/workflows/test.yml",
    ] {
        let text = read(workflow);
        assert!(
            text.contains("./scripts/package-windows.ps1")
                && text.contains("./scripts/check-install-ps1.ps1"),
            "{workflow} no longer packages and installs with install.ps1"
        );
    }
}

/// The book: releases are built by GitHub Actions on a `vX.Y.Z` tag, for Windows with MSVC and
/// for Linux x86_64 (the host target of an x86_64 Ubuntu runner), each with its checksum,
/// published together.
#[test]
fn releases_are_built_on_a_version_tag_for_both_systems() {
    let workflow = std::fs::read_to_string(repo().join(".github/workflows/release.yml")).unwrap();
    let packaging = std::fs::read_to_string(repo().join("scripts/package-release.sh")).unwrap();
    for needle in [
        "tags: [\"v[0-9]+.[0-9]+.[0-9]+\"]",
        "runs-on: ubuntu-latest",
        "runs-on: windows-latest",
        "--target x86_64-pc-windows-msvc",
        "scripts/package-release.sh --tag",
        "needs: [linux, windows]",
        "sha256sum -c ./*.sha256",
    ] {
        assert!(
            workflow.contains(needle),
            "release.yml no longer has: {needle}"
        );
    }
    assert!(
        packaging.contains("name=\"torii-$tag-linux-x86_64\""),
        "package-release.sh names another archive"
    );
}

/// Issue 40: the checksum file must be signed by a release key before the checksum counts.
/// Windows has no Ed25519 of its own, so the script needs minisign, and without it (or
/// without a signature, or a key) installs nothing unless `-NoSignatureCheck` says so. The
/// workflow's run of the script opts out, since the archive is signed later; so this part has
/// never run, on any machine (PowerShell is not on the test machines, minisign not on the
/// runner).
#[test]
fn install_ps1_checks_the_signature_of_the_checksum_before_using_it() {
    let code = code();
    let checksum_used = at(&code, "Get-Content -LiteralPath $sums -TotalCount 1");
    for needle in [
        "[switch]$NoSignatureCheck",
        "$env:TORII_NO_SIGNATURE_CHECK -ne '0'",
        "$releaseKeys = -split $env:TORII_RELEASE_PUBLIC_KEY",
        "throw \"torii install: this installer trusts no release key yet: $unchecked\"",
        "Get-Command minisign -CommandType Application",
        "Get-Https \"$base/download/$Version/$asset.sha256.minisig\" $signature",
        "& $minisign.Source -Vq -m $sums -x $signature -P $key *> $null",
        "if ($LASTEXITCODE -eq 0) { $signed = $true; break }",
        "is not signed by a torii release key; nothing was installed",
    ] {
        assert!(
            at(&code, needle) < checksum_used,
            "{needle} after the checksum is used"
        );
    }
    let check = std::fs::read_to_string(repo().join("scripts/check-install-ps1.ps1")).unwrap();
    assert!(check.contains("$env:TORII_NO_SIGNATURE_CHECK = '1'"));
}

/// Red-team finding (issue 40), as in install.sh: install.ps1 does not replace a torii.exe
/// with an older latest release unless `-Version` names it.
#[test]
fn install_ps1_does_not_go_back_to_an_older_latest_release_unasked() {
    let code = code();
    let download = at(
        &code,
        "Get-Https \"$base/download/$Version/$asset\" $archive",
    );
    for needle in [
        "$chosen = $Version",
        "if (-not $chosen -and (Test-Path -LiteralPath $installedExe -PathType Leaf)) {",
        "[version]$Version.Substring(1) -lt [version]$Matches[1]",
        "(-Version $Version installs it on purpose)",
    ] {
        assert!(at(&code, needle) < download, "{needle} after the download");
    }
}
