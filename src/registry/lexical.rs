//! Character-level checks shared by the provider and target rules.
//!
//! Each check returns the reason a value is refused; `validate` adds the field name and
//! `load` the file. Values end up in MCP schemas, paths and child processes, so the rules
//! are strict and purely lexical (no file system access).

/// Longest accepted name, tool, alias or scope, in bytes.
pub const NAME_MAX_BYTES: usize = 128;

/// Executable extensions refused in `command`: the bare name is resolved through `PATHEXT`.
const WINDOWS_EXTENSIONS: [&str; 5] = [".exe", ".cmd", ".bat", ".com", ".ps1"];

/// Names, tools, aliases and scopes: ASCII letters, digits, `_`, `-`, `.`; 1..=128 bytes;
/// never `.` or `..`, because aliases and scopes become directory names.
pub fn check_name(value: &str) -> Result<(), String> {
    if value.is_empty() {
        return Err("must not be empty".into());
    }
    if value.len() > NAME_MAX_BYTES {
        return Err(format!(
            "is {} bytes long; the limit is {NAME_MAX_BYTES}",
            value.len()
        ));
    }
    if let Some(bad) = value.chars().find(|c| !is_name_char(*c)) {
        return Err(format!(
            "{value:?} contains {bad:?}; only ASCII letters, digits, `_`, `-` and `.` are allowed"
        ));
    }
    if value == "." || value == ".." {
        return Err(format!("{value:?} is not a valid name"));
    }
    Ok(())
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// Environment variable names: `[A-Za-z_][A-Za-z0-9_]*`.
pub fn check_env_name(value: &str) -> Result<(), String> {
    if crate::text::is_env_name(value) {
        Ok(())
    } else {
        Err(format!(
            "{value:?} is not a valid environment variable name ([A-Za-z_][A-Za-z0-9_]*)"
        ))
    }
}

/// A bare executable name: no path, no drive, no extension, no whitespace.
pub fn check_command(value: &str) -> Result<(), String> {
    if value.is_empty() {
        return Err("must not be empty".into());
    }
    if value == "." || value == ".." {
        return Err(format!("{value:?} is a directory, not an executable name"));
    }
    if value.contains(['/', '\\', ':']) {
        return Err(format!(
            "{value:?} must be a bare executable name, not a path"
        ));
    }
    if value.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!(
            "{value:?} must not contain whitespace or control characters"
        ));
    }
    let lower = value.to_ascii_lowercase();
    if let Some(extension) = WINDOWS_EXTENSIONS.iter().find(|ext| lower.ends_with(*ext)) {
        return Err(format!(
            "{value:?} must not end in {extension}; the bare name is resolved on PATH"
        ));
    }
    Ok(())
}

/// Free text that must stay on one line (contexts, profiles, regions, identities).
pub fn check_single_line(value: &str) -> Result<(), String> {
    if value.trim().is_empty() {
        return Err("must not be empty".into());
    }
    if value.chars().any(char::is_control) {
        return Err("must be a single line without control characters".into());
    }
    Ok(())
}

/// One argument token: non-empty, no whitespace (`forbidden_args`).
pub fn check_token(value: &str) -> Result<(), String> {
    if value.is_empty() {
        return Err("must not be empty".into());
    }
    if value.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!("{value:?} must be one argument without whitespace"));
    }
    Ok(())
}

/// A flag name (`ignore_args.flags`): starts with `-`, no whitespace, no `=`.
pub fn check_flag(value: &str) -> Result<(), String> {
    check_token(value)?;
    if !value.starts_with('-') || value.trim_start_matches('-').is_empty() {
        return Err(format!(
            "{value:?} must be a flag such as \"--format\" or \"-o\""
        ));
    }
    if value.contains('=') {
        return Err(format!("{value:?} must not contain `=`"));
    }
    Ok(())
}

/// A locked long option (`targeting.locked_options`): `--name`, no whitespace, no `=`.
pub fn check_long_option(value: &str) -> Result<(), String> {
    check_token(value)?;
    if !value.starts_with("--") || value.len() == 2 {
        return Err(format!("{value:?} must start with `--` and name an option"));
    }
    if value.contains('=') {
        return Err(format!("{value:?} must not contain `=`"));
    }
    Ok(())
}

/// A file inside the provider directory: relative, no `..`, no drive or root, on any OS.
/// The check is lexical; it does not resolve symlinks.
pub fn check_relative_file(value: &str) -> Result<(), String> {
    if value.chars().any(char::is_control) {
        return Err("must not contain control characters".into());
    }
    if value.starts_with(['/', '\\']) || value.contains(':') {
        return Err(format!(
            "{value:?} must be relative to the provider directory"
        ));
    }
    let segments: Vec<&str> = value.split(['/', '\\']).collect();
    if segments.contains(&"..") {
        return Err(format!(
            "{value:?} must stay inside the provider directory (no `..`)"
        ));
    }
    if segments
        .iter()
        .all(|segment| segment.is_empty() || *segment == ".")
    {
        return Err(format!("{value:?} must name a file"));
    }
    Ok(())
}

/// Names Torii keeps its own files under in a provider directory (the book's layout). A
/// provider's `environment.file` must not be one of them, nor lie under one: its values would be
/// read into the child's environment (the collected credentials) or the file would be Torii's
/// state read as an environment.
const TORII_OWNED: &[&str] = &[
    "provider.yaml",
    "rules.yaml",
    "grants",
    "targets",
    "identities",
    ".torii-package",
    ".target-authorizations.yaml",
    ".target-authorizations.lock",
];

/// `environment.file`: a relative file (see [`check_relative_file`]) that is none of Torii's
/// own files, compared without ASCII case (file systems that ignore case would open them).
pub fn check_env_file(value: &str) -> Result<(), String> {
    check_relative_file(value)?;
    let first = value
        .split(['/', '\\'])
        .find(|segment| !segment.is_empty() && *segment != ".")
        .unwrap_or_default();
    let owned = TORII_OWNED
        .iter()
        .find(|name| name.eq_ignore_ascii_case(first));
    if let Some(name) = owned {
        return Err(format!(
            "{value:?} is Torii's own `{name}`; the environment file must be a file of its own, \
             such as \".env\""
        ));
    }
    if first.starts_with(".torii-tmp-") {
        return Err(format!(
            "{value:?} is a name Torii uses for temporary files"
        ));
    }
    Ok(())
}

/// The field named by a template that is exactly `${NAME}`.
pub fn template_field(template: &str) -> Option<&str> {
    let name = template.strip_prefix("${")?.strip_suffix('}')?;
    crate::text::is_env_name(name).then_some(name)
}

/// An AWS account id: exactly 12 ASCII digits.
pub fn check_account_id(value: &str) -> Result<(), String> {
    if value.len() == 12 && value.bytes().all(|b| b.is_ascii_digit()) {
        Ok(())
    } else {
        Err("must be an AWS account id: exactly 12 ASCII digits".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(check_name("aws_profile").is_ok());
        assert!(check_name("a.b-c_9").is_ok());
        assert!(check_name(&"a".repeat(128)).is_ok());
        for bad in ["", ".", "..", "a b", "a/b", "ação", &"a".repeat(129)] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn env_names() {
        for good in ["A", "_", "AWS_PROFILE", "a1"] {
            assert!(check_env_name(good).is_ok(), "{good:?}");
        }
        for bad in ["", "1A", "A-B", "A B", "A=B"] {
            assert!(check_env_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn commands() {
        assert!(check_command("kubectl").is_ok());
        assert!(check_command("az.py").is_ok());
        for bad in [
            "", ".", "..", "/bin/aws", "bin\\aws", "C:aws", "aws cli", "aws.EXE", "x.Cmd", "y.ps1",
        ] {
            assert!(check_command(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn relative_files() {
        for good in [".env", "env/.env", "./.env"] {
            assert!(check_relative_file(good).is_ok(), "{good:?}");
        }
        for bad in [
            "",
            ".",
            "/etc/env",
            "\\x",
            "C:\\x",
            "../x",
            "a/../../x",
            "a\\..\\x",
        ] {
            assert!(check_relative_file(bad).is_err(), "{bad:?}");
        }
    }

    /// Issue 11, finding 13: `environment.file` could name Torii's state, e.g. the collected
    /// credentials, which would then be read into the child's environment.
    #[test]
    fn env_files_cannot_be_torii_state() {
        for good in [
            ".env",
            "env/.env",
            "./local.env",
            "rules.yaml.env",
            "grants-notes",
        ] {
            assert!(check_env_file(good).is_ok(), "{good:?}");
        }
        for bad in [
            "identities/aws/auth/credentials.env",
            "./identities/aws/.session-cache",
            "grants",
            "GRANTS",
            "rules.yaml",
            "provider.yaml",
            "targets/lab/.env",
            ".torii-package/lock.yaml",
            ".target-authorizations.yaml",
            "Identities\\x",
            ".torii-tmp-abc",
        ] {
            assert!(check_env_file(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn templates() {
        assert_eq!(template_field("${TOKEN}"), Some("TOKEN"));
        for bad in [
            "TOKEN",
            "prefix ${TOKEN}",
            "${TOKEN} ",
            "${}",
            "${A-B}",
            "$TOKEN",
        ] {
            assert_eq!(template_field(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn flags_and_options() {
        assert!(check_flag("-o").is_ok());
        assert!(check_flag("--format").is_ok());
        for bad in ["", "-", "--", "format", "--format=json", "--a b"] {
            assert!(check_flag(bad).is_err(), "{bad:?}");
        }
        assert!(check_long_option("--custom-endpoint").is_ok());
        for bad in ["-c", "--", "--a=b", "--a b", "custom"] {
            assert!(check_long_option(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn account_ids() {
        assert!(check_account_id("009160073200").is_ok());
        for bad in [
            "",
            "00916007320",
            "0091600732001",
            "00916007320a",
            "٠٠٩١٦٠٠٧٣٢٠٠",
        ] {
            assert!(check_account_id(bad).is_err(), "{bad:?}");
        }
    }
}
