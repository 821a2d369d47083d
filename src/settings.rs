//! `settings.yaml`: the few global knobs of a Torii installation, validated on load.
//!
//! A missing file means the defaults; a present file must be valid, and every problem names
//! the file and the field (and the line, for YAML errors).

use std::path::{Path, PathBuf};

use serde::Deserialize;
use strict_yaml::{Position, Value, located};

/// Largest accepted `max_output_bytes`: the captured output is held in memory and sent back
/// over MCP, so an unbounded value would let one call exhaust the server.
pub const MAX_OUTPUT_BYTES_LIMIT: u64 = 64 * 1024 * 1024;
/// Largest accepted `call_timeout_seconds` (and provider `limits.call_timeout_seconds`): a day.
pub const MAX_CALL_TIMEOUT_SECONDS: u64 = 86_400;
/// Accepted `max_concurrent_calls`.
pub const MAX_CONCURRENT_CALLS_RANGE: std::ops::RangeInclusive<u64> = 1..=1024;
/// Leases (and, by the same bound, grant durations) last 1 to 1,440 minutes.
pub const MINUTES_RANGE: std::ops::RangeInclusive<u64> = 1..=jasper::MAX_GRANT_SECONDS / 60;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Combined stdout + stderr bytes returned to the agent.
    pub max_output_bytes: usize,
    /// Initial duration offered for a temporary grant.
    pub default_grant_minutes: u64,
    /// Initial duration of a target lease.
    pub default_target_minutes: u64,
    /// Whether a provider child may start when it cannot be kept out of the config root.
    pub child_confinement: crate::confine::Mode,
    /// How long a provider command may run, in seconds; 0 for no limit. A provider's
    /// `limits.call_timeout_seconds` overrides it.
    pub call_timeout_seconds: u64,
    /// How many provider commands one server runs at once; further calls wait for a slot.
    pub max_concurrent_calls: usize,
    /// The language of the windows and of the CLI's human messages; absent, the system's.
    pub language: Option<crate::language::Language>,
    /// Where a question no rule decides is asked: a window, `torii console`, or either.
    pub approval: crate::prompt::Approval,
    /// Keys whose signatures on catalogs and packages are trusted, beside the release keys.
    pub package_keys: Vec<crate::signature::PublicKey>,
    /// Whether a catalog or package that carries no signature may be installed.
    pub unsigned_packages: Unsigned,
    /// Where audit records are also sent as RFC 5424 syslog messages.
    pub audit_syslog: Option<crate::audit::export::config::SyslogAddress>,
    /// The OTLP base endpoint audit records are also posted to (`…/v1/logs` is appended); it
    /// wins over `OTEL_EXPORTER_OTLP_ENDPOINT`.
    pub audit_otlp_endpoint: Option<String>,
    /// Headers sent with every OTLP request, after those of the environment.
    pub audit_otlp_headers: crate::audit::export::config::Headers,
}

/// `settings.yaml` `unsigned_packages`: whether a catalog or package without a signature may
/// be installed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Unsigned {
    #[default]
    Allow,
    Refuse,
}

impl Unsigned {
    pub const ALL: [Unsigned; 2] = [Unsigned::Allow, Unsigned::Refuse];

    pub fn as_str(self) -> &'static str {
        match self {
            Unsigned::Allow => "allow",
            Unsigned::Refuse => "refuse",
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            max_output_bytes: 262_144,
            default_grant_minutes: 2,
            default_target_minutes: 15,
            child_confinement: crate::confine::Mode::BestEffort,
            call_timeout_seconds: 600,
            max_concurrent_calls: 16,
            language: None,
            approval: crate::prompt::Approval::Auto,
            package_keys: Vec::new(),
            unsigned_packages: Unsigned::Allow,
            audit_syslog: None,
            audit_otlp_endpoint: None,
            audit_otlp_headers: crate::audit::export::config::Headers::default(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Not YAML, an unknown field, a duplicate key: the decoder's message at its position.
    #[error("{}: {message}", located(path.display(), *position))]
    Yaml {
        path: PathBuf,
        position: Option<Position>,
        message: String,
    },
    /// The administrator's layer, which locks settings, cannot be read.
    #[error(transparent)]
    Admin(Box<crate::admin::AdminError>),
    /// A known field with a value of the wrong type (at the value's position) or out of range.
    #[error("{}: field `{field}`: {message}", located(path.display(), *position))]
    Field {
        path: PathBuf,
        position: Option<Position>,
        field: String,
        message: String,
    },
}

/// The knobs as written; [`Settings::parse`] judges each value so its error names the field.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSettings {
    #[serde(default, deserialize_with = "written")]
    max_output_bytes: Option<Value>,
    #[serde(default, deserialize_with = "written")]
    default_grant_minutes: Option<Value>,
    #[serde(default, deserialize_with = "written")]
    default_target_minutes: Option<Value>,
    #[serde(default)]
    child_confinement: Option<Value>,
    #[serde(default, deserialize_with = "written")]
    call_timeout_seconds: Option<Value>,
    #[serde(default, deserialize_with = "written")]
    max_concurrent_calls: Option<Value>,
    #[serde(default, deserialize_with = "written")]
    language: Option<Value>,
    #[serde(default, deserialize_with = "written")]
    approval: Option<Value>,
    #[serde(default, deserialize_with = "key_list")]
    package_keys: Vec<Value>,
    #[serde(default, deserialize_with = "written")]
    unsigned_packages: Option<Value>,
    #[serde(default, deserialize_with = "written")]
    audit_syslog: Option<Value>,
    #[serde(default, deserialize_with = "written")]
    audit_otlp_endpoint: Option<Value>,
    #[serde(default, deserialize_with = "written")]
    audit_otlp_headers: Option<Value>,
}

/// `package_keys`: a list, each item with its position; anything else is refused naming the
/// field (the decoder's own "expected sequence start" would not).
fn key_list<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<Value>, D::Error> {
    struct List;
    impl<'de> serde::de::Visitor<'de> for List {
        type Value = Vec<Value>;
        fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
            formatter.write_str("`package_keys` to be a list of public keys (one `- RW…` per line)")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let mut items = Vec::new();
            while let Some(item) = seq.next_element::<Value>()? {
                items.push(item);
            }
            Ok(items)
        }
    }
    deserializer.deserialize_any(List)
}

/// A present key keeps its value, even `null` (which is then refused as not a number).
fn written<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

impl Settings {
    /// The settings in effect: the user's `path` with what the administrator's layer locks
    /// (see `crate::admin`). A malformed layer is an error.
    pub fn load(path: &Path) -> Result<Self, SettingsError> {
        let settings = Self::load_user(path)?;
        match crate::admin::AdminLayer::of_system() {
            Ok(Some(admin)) => Ok(admin.lock(settings)),
            Ok(None) => Ok(settings),
            Err(error) => Err(SettingsError::Admin(Box::new(error))),
        }
    }

    /// The user's `path` alone; a missing file gives the defaults.
    pub fn load_user(path: &Path) -> Result<Self, SettingsError> {
        match crate::files::read_optional_text(path, crate::files::SMALL_FILE_BYTES) {
            Ok(Some(text)) => Self::parse(path, &text),
            Ok(None) => Ok(Self::default()),
            Err(source) => Err(SettingsError::Read {
                path: path.to_path_buf(),
                source,
            }),
        }
    }

    /// Parses the text of `path` (used for messages only).
    pub fn parse(path: &Path, text: &str) -> Result<Self, SettingsError> {
        // An empty or comment-only file is a valid "all defaults".
        let raw: RawSettings = if text.lines().all(|line| {
            let line = line.trim();
            line.is_empty() || line.starts_with('#')
        }) {
            RawSettings::default()
        } else {
            strict_yaml::from_str(text).map_err(|error| SettingsError::Yaml {
                path: path.to_path_buf(),
                position: error.position,
                message: error.message,
            })?
        };
        let defaults = Self::default();
        let field = |field: &str, message: String| SettingsError::Field {
            path: path.to_path_buf(),
            position: None,
            field: field.to_string(),
            message,
        };
        // A value of the wrong kind, named by its field, at its own position.
        let wrong = |field: &str, value: &Value, message: String| SettingsError::Field {
            path: path.to_path_buf(),
            position: value.position,
            field: field.to_string(),
            message,
        };
        // A value of the wrong type: named by its field, at its own position.
        let number = |name: &str, value: Option<Value>| match value {
            None => Ok(None),
            Some(value) => value.whole_number().map(Some).ok_or_else(|| {
                wrong(
                    name,
                    &value,
                    format!("expected a whole number written without quotes, got {value}"),
                )
            }),
        };
        let max_output_bytes = number("max_output_bytes", raw.max_output_bytes)?
            .unwrap_or(defaults.max_output_bytes as u64);
        if max_output_bytes == 0 || max_output_bytes > MAX_OUTPUT_BYTES_LIMIT {
            return Err(field(
                "max_output_bytes",
                format!("must be between 1 and {MAX_OUTPUT_BYTES_LIMIT}, got {max_output_bytes}"),
            ));
        }
        let minutes = |name: &str, value: Option<Value>, default| {
            let value = number(name, value)?.unwrap_or(default);
            if MINUTES_RANGE.contains(&value) {
                Ok(value)
            } else {
                Err(field(
                    name,
                    format!("must be between 1 and 1440 minutes, got {value}"),
                ))
            }
        };
        let call_timeout_seconds = number("call_timeout_seconds", raw.call_timeout_seconds)?
            .unwrap_or(defaults.call_timeout_seconds);
        if call_timeout_seconds > MAX_CALL_TIMEOUT_SECONDS {
            return Err(field(
                "call_timeout_seconds",
                format!(
                    "must be between 0 (no limit) and {MAX_CALL_TIMEOUT_SECONDS}, got \
                     {call_timeout_seconds}"
                ),
            ));
        }
        let max_concurrent_calls = number("max_concurrent_calls", raw.max_concurrent_calls)?
            .unwrap_or(defaults.max_concurrent_calls as u64);
        if !MAX_CONCURRENT_CALLS_RANGE.contains(&max_concurrent_calls) {
            return Err(field(
                "max_concurrent_calls",
                format!(
                    "must be between {} and {}, got {max_concurrent_calls}",
                    MAX_CONCURRENT_CALLS_RANGE.start(),
                    MAX_CONCURRENT_CALLS_RANGE.end()
                ),
            ));
        }
        Ok(Self {
            call_timeout_seconds,
            max_concurrent_calls: usize::try_from(max_concurrent_calls)
                .map_err(|_| field("max_concurrent_calls", "too large for this platform".into()))?,
            max_output_bytes: usize::try_from(max_output_bytes)
                .map_err(|_| field("max_output_bytes", "too large for this platform".into()))?,
            default_grant_minutes: minutes(
                "default_grant_minutes",
                raw.default_grant_minutes,
                defaults.default_grant_minutes,
            )?,
            default_target_minutes: minutes(
                "default_target_minutes",
                raw.default_target_minutes,
                defaults.default_target_minutes,
            )?,
            child_confinement: match raw.child_confinement {
                None => defaults.child_confinement,
                Some(value) => confinement(&value).ok_or_else(|| {
                    wrong(
                        "child_confinement",
                        &value,
                        format!("expected `best-effort` or `required`, got {value}"),
                    )
                })?,
            },
            language: match raw.language {
                None => None,
                Some(value) => Some(
                    value
                        .text()
                        .and_then(crate::language::Language::from_tag)
                        .ok_or_else(|| {
                            wrong(
                                "language",
                                &value,
                                format!("expected `en` or `pt-BR`, got {value}"),
                            )
                        })?,
                ),
            },
            approval: match raw.approval {
                None => defaults.approval,
                Some(value) => crate::prompt::Approval::ALL
                    .into_iter()
                    .find(|approval| value.text() == Some(approval.as_str()))
                    .ok_or_else(|| {
                        wrong(
                            "approval",
                            &value,
                            format!("expected `auto`, `window` or `console`, got {value}"),
                        )
                    })?,
            },
            package_keys: raw
                .package_keys
                .iter()
                .enumerate()
                .map(|(index, value)| {
                    let name = format!("package_keys[{index}]");
                    let text = value.text().ok_or_else(|| {
                        wrong(&name, value, format!("expected a public key, got {value}"))
                    })?;
                    crate::signature::PublicKey::parse(text)
                        .map_err(|message| wrong(&name, value, message))
                })
                .collect::<Result<Vec<_>, _>>()
                .and_then(|keys| unique_ids(keys, &raw.package_keys, &wrong))?,
            unsigned_packages: match raw.unsigned_packages {
                None => defaults.unsigned_packages,
                Some(value) => Unsigned::ALL
                    .into_iter()
                    .find(|choice| value.text() == Some(choice.as_str()))
                    .ok_or_else(|| {
                        wrong(
                            "unsigned_packages",
                            &value,
                            format!("expected `allow` or `refuse`, got {value}"),
                        )
                    })?,
            },
            audit_syslog: match raw.audit_syslog {
                None => None,
                Some(value) => Some(
                    crate::audit::export::config::SyslogAddress::parse(value.text().unwrap_or(""))
                        .map_err(|message| wrong("audit_syslog", &value, message))?,
                ),
            },
            audit_otlp_endpoint: match raw.audit_otlp_endpoint {
                None => None,
                Some(value) => match value.text() {
                    Some(url) if url.starts_with("http://") || url.starts_with("https://") => {
                        Some(url.to_string())
                    }
                    _ => {
                        return Err(wrong(
                            "audit_otlp_endpoint",
                            &value,
                            format!("expected an http:// or https:// URL, got {value}"),
                        ));
                    }
                },
            },
            audit_otlp_headers: match raw.audit_otlp_headers {
                None => crate::audit::export::config::Headers::default(),
                Some(value) => crate::audit::export::config::Headers(
                    crate::audit::export::config::parse_headers(value.text().unwrap_or("="))
                        .map_err(|message| wrong("audit_otlp_headers", &value, message))?,
                ),
            },
        })
    }

    /// The names of the fields the text of `path` sets (it parses: [`Self::parse`] succeeded).
    pub fn fields_set(path: &Path, text: &str) -> Result<Vec<String>, SettingsError> {
        if text
            .lines()
            .all(|line| line.trim().is_empty() || line.trim().starts_with('#'))
        {
            return Ok(Vec::new());
        }
        let fields: std::collections::BTreeMap<String, serde::de::IgnoredAny> =
            strict_yaml::from_str(text).map_err(|error| SettingsError::Yaml {
                path: path.to_path_buf(),
                position: error.position,
                message: error.message,
            })?;
        Ok(fields.into_keys().collect())
    }

    /// Takes the field named `name` from `other` (an administrator's settings, which lock it).
    pub fn take_field(&mut self, other: &Settings, name: &str) {
        match name {
            "max_output_bytes" => self.max_output_bytes = other.max_output_bytes,
            "default_grant_minutes" => self.default_grant_minutes = other.default_grant_minutes,
            "default_target_minutes" => {
                self.default_target_minutes = other.default_target_minutes;
            }
            "child_confinement" => self.child_confinement = other.child_confinement,
            "call_timeout_seconds" => self.call_timeout_seconds = other.call_timeout_seconds,
            "max_concurrent_calls" => self.max_concurrent_calls = other.max_concurrent_calls,
            "language" => self.language = other.language,
            "approval" => self.approval = other.approval,
            "package_keys" => self.package_keys.clone_from(&other.package_keys),
            "unsigned_packages" => self.unsigned_packages = other.unsigned_packages,
            "audit_syslog" => self.audit_syslog.clone_from(&other.audit_syslog),
            "audit_otlp_endpoint" => self
                .audit_otlp_endpoint
                .clone_from(&other.audit_otlp_endpoint),
            "audit_otlp_headers" => self
                .audit_otlp_headers
                .clone_from(&other.audit_otlp_headers),
            // `fields_set` only names fields `parse` accepted.
            _ => {}
        }
    }

    /// The file `torii init` writes: the defaults, spelled out and explained.
    pub fn default_file() -> String {
        let defaults = Self::default();
        format!(
            "# Torii settings. See the \"Configuration\" chapter of the docs.\n\
             # Combined stdout + stderr bytes returned to the agent per call.\n\
             max_output_bytes: {}\n\
             # Initial duration, in minutes, offered for a temporary grant.\n\
             default_grant_minutes: {}\n\
             # Initial duration, in minutes (1-1440), of a target lease.\n\
             default_target_minutes: {}\n\
             # Provider children never read or write this directory (Linux Landlock). Where the\n\
             # kernel cannot enforce that: best-effort starts them anyway and says so once;\n\
             # required refuses to start them.\n\
             child_confinement: {}\n\
             # Seconds a provider command may run before it is stopped (0: no limit).\n\
             call_timeout_seconds: {}\n\
             # Provider commands one server runs at once; further calls wait for a slot.\n\
             max_concurrent_calls: {}\n\
             # The language of the approval windows and of the CLI's messages: en or pt-BR.\n\
             # Without it, the system's locale decides (LC_ALL, LC_MESSAGES, LANG).\n\
             # language: pt-BR\n\
             # Where a question no rule decides is asked: auto (a window where one can open,\n\
             # else an attached `torii console`), window, or console.\n\
             # approval: auto\n\
             # Public keys (the base64 line of a minisign .pub file) whose signatures on\n\
             # provider catalogs and packages are trusted, beside Torii's release keys.\n\
             # package_keys:\n\
             #   - RWQ...\n\
             # Whether a catalog or package that carries no signature may be installed:\n\
             # allow (shown as unsigned by provider list and doctor) or refuse.\n\
             # unsigned_packages: allow\n\
             # Audit records can also go to syslog (unix:/dev/log, udp:host:514, tcp:host:601)\n\
             # and to an OTLP/HTTP collector (OTEL_EXPORTER_OTLP_ENDPOINT works too; headers as\n\
             # name=value,name=value). The local torii.log stays the record of truth.\n\
             # audit_syslog: unix:/dev/log\n\
             # audit_otlp_endpoint: http://127.0.0.1:4318\n\
             # audit_otlp_headers: authorization=Bearer%20...\n",
            defaults.max_output_bytes,
            defaults.default_grant_minutes,
            defaults.default_target_minutes,
            defaults.child_confinement.as_str(),
            defaults.call_timeout_seconds,
            defaults.max_concurrent_calls
        )
    }
}

/// Refuses two keys with one id: ids are what the human and the lock see of a key.
fn unique_ids(
    keys: Vec<crate::signature::PublicKey>,
    written: &[Value],
    wrong: &impl Fn(&str, &Value, String) -> SettingsError,
) -> Result<Vec<crate::signature::PublicKey>, SettingsError> {
    for (index, key) in keys.iter().enumerate() {
        if let Some(first) = keys[..index]
            .iter()
            .position(|other| other.id() == key.id())
        {
            return Err(wrong(
                &format!("package_keys[{index}]"),
                &written[index],
                format!(
                    "has the key id {} of package_keys[{first}]; each key must have its own id",
                    key.id()
                ),
            ));
        }
    }
    Ok(keys)
}

/// `child_confinement` as written: `best-effort` or `required`.
fn confinement(value: &Value) -> Option<crate::confine::Mode> {
    use crate::confine::Mode;
    [Mode::BestEffort, Mode::Required]
        .into_iter()
        .find(|mode| value.text() == Some(mode.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Settings, SettingsError> {
        Settings::parse(Path::new("/r/settings.yaml"), text)
    }

    #[test]
    fn default_file_round_trips_to_defaults() {
        assert_eq!(
            parse(&Settings::default_file()).unwrap(),
            Settings::default()
        );
    }

    #[test]
    fn missing_fields_take_defaults() {
        let settings = parse("max_output_bytes: 1024\n").unwrap();
        assert_eq!(settings.max_output_bytes, 1024);
        assert_eq!(settings.default_target_minutes, 15);
        assert_eq!(parse("# nothing\n").unwrap(), Settings::default());
        assert_eq!(parse("").unwrap(), Settings::default());
    }

    #[test]
    fn invalid_values_name_file_and_field() {
        let cases = [
            ("max_output_bytes: 0\n", "max_output_bytes"),
            ("max_output_bytes: 999999999999\n", "max_output_bytes"),
            ("default_grant_minutes: 0\n", "default_grant_minutes"),
            ("default_target_minutes: 1441\n", "default_target_minutes"),
            ("call_timeout_seconds: 86401\n", "call_timeout_seconds"),
            ("max_concurrent_calls: 0\n", "max_concurrent_calls"),
            ("max_concurrent_calls: 1025\n", "max_concurrent_calls"),
            ("language: fr\n", "language"),
            ("language: 1\n", "language"),
            ("approval: terminal\n", "approval"),
            ("unsigned_packages: no\n", "unsigned_packages"),
            ("audit_syslog: /dev/log\n", "audit_syslog"),
            ("audit_syslog: 5\n", "audit_syslog"),
            ("audit_otlp_endpoint: ftp://x\n", "audit_otlp_endpoint"),
            ("audit_otlp_headers: novalue\n", "audit_otlp_headers"),
            ("package_keys: [RWQxyz]\n", "package_keys[0]"),
            ("package_keys: [1]\n", "package_keys[0]"),
            (
                "package_keys: RWQxyz\n",
                "expected `package_keys` to be a list",
            ),
            ("package_keys:\n", "expected `package_keys` to be a list"),
        ];
        for (text, field) in cases {
            let message = parse(text).unwrap_err().to_string();
            assert!(message.contains("/r/settings.yaml"), "{message}");
            assert!(message.contains(field), "{message}");
        }
    }

    #[test]
    fn package_keys_are_minisign_keys_and_unsigned_packages_allow_by_default() {
        use super::Unsigned;
        let defaults = Settings::default();
        assert!(defaults.package_keys.is_empty());
        assert_eq!(defaults.unsigned_packages, Unsigned::Allow);
        let key = "RWRk6hcJqPxg9Q2aAwljy7deqrzWTZ8dj2rogAXQrn9kMzq4od29YkrS";
        let settings = parse(&format!(
            "package_keys:\n  - {key}\nunsigned_packages: refuse\n"
        ))
        .unwrap();
        assert_eq!(
            settings.package_keys[0].id().to_string(),
            "F560FCA80917EA64"
        );
        assert_eq!(settings.unsigned_packages, Unsigned::Refuse);
        let error = parse(&format!("package_keys:\n  - {key}\n  - RWQ{key}\n")).unwrap_err();
        let message = crate::errors::chain(&error);
        assert!(
            message.starts_with("/r/settings.yaml:3:5: field `package_keys[1]`: "),
            "{message}"
        );
        assert!(message.contains("not a minisign public key"), "{message}");
        let error = parse(&format!("package_keys: [{key}, {key}]\n")).unwrap_err();
        assert!(
            crate::errors::chain(&error).contains(
                "field `package_keys[1]`: has the key id F560FCA80917EA64 of package_keys[0]"
            ),
            "{error}"
        );
    }

    #[test]
    fn call_limits_have_defaults_and_zero_means_no_timeout() {
        let defaults = Settings::default();
        assert_eq!(defaults.call_timeout_seconds, 600);
        assert_eq!(defaults.max_concurrent_calls, 16);
        let settings = parse("call_timeout_seconds: 0\nmax_concurrent_calls: 1\n").unwrap();
        assert_eq!(settings.call_timeout_seconds, 0);
        assert_eq!(settings.max_concurrent_calls, 1);
    }

    #[test]
    fn language_is_en_or_pt_br_and_absent_by_default() {
        use crate::language::Language;
        assert_eq!(Settings::default().language, None);
        assert_eq!(
            parse("language: en\n").unwrap().language,
            Some(Language::English)
        );
        assert_eq!(
            parse("language: pt-BR\n").unwrap().language,
            Some(Language::BrazilianPortuguese)
        );
    }

    #[test]
    fn child_confinement_is_best_effort_or_required() {
        assert_eq!(
            parse("child_confinement: required\n")
                .unwrap()
                .child_confinement,
            crate::confine::Mode::Required
        );
        assert_eq!(
            parse("child_confinement: best-effort\n")
                .unwrap()
                .child_confinement,
            crate::confine::Mode::BestEffort
        );
        let message = parse("child_confinement: off\n").unwrap_err().to_string();
        assert!(message.starts_with("/r/settings.yaml:1"), "{message}");
    }

    /// Issue 11, finding 13: `max_output_bytes: "100"` (a string) was read as a number.
    #[test]
    fn numbers_written_as_strings_are_refused() {
        for text in [
            "max_output_bytes: \"100\"\n",
            "default_grant_minutes: '2'\n",
            "default_target_minutes: \"15\"\n",
        ] {
            let message = parse(text).unwrap_err().to_string();
            assert!(message.starts_with("/r/settings.yaml:1"), "{message}");
            assert!(message.contains("without quotes"), "{message}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_settings_file_is_refused_without_hanging() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.yaml");
        crate::files::make_fifo(&path);
        let message = crate::errors::chain(&Settings::load(&path).unwrap_err());
        assert!(message.contains("not a regular file"), "{message}");
    }

    /// Issue 17: `default_target_minutes: "x"` said `invalid u64` at line 1, without the field,
    /// and printed the position and the message twice.
    #[test]
    fn a_value_of_the_wrong_type_names_its_field_at_its_position() {
        let error = parse("max_output_bytes: 1024\ndefault_target_minutes: \"x\"\n").unwrap_err();
        assert_eq!(
            crate::errors::chain(&error),
            "/r/settings.yaml:2:25: field `default_target_minutes`: expected a whole number \
             written without quotes, got \"x\""
        );
        let error = parse("child_confinement: off\n").unwrap_err();
        assert_eq!(
            crate::errors::chain(&error),
            "/r/settings.yaml:1:20: field `child_confinement`: expected `best-effort` or \
             `required`, got \"off\""
        );
        // Out of range: the file and the field, exactly as the configuration chapter shows.
        let error = parse("default_target_minutes: 1441\n").unwrap_err();
        assert_eq!(
            crate::errors::chain(&error),
            "/r/settings.yaml: field `default_target_minutes`: must be between 1 and 1440 \
             minutes, got 1441"
        );
    }

    #[test]
    fn yaml_errors_name_file_and_line() {
        for text in [
            "max_output_bytes: lots\n",
            "default_grant_minutes: 2\nmax_output_bytes: [\n",
            "default_grant_minutes: 2\nunknown_knob: 1\n",
            "default_grant_minutes: -3\n",
        ] {
            let message = parse(text).unwrap_err().to_string();
            assert!(message.starts_with("/r/settings.yaml:"), "{message}");
            assert!(
                message
                    .chars()
                    .nth("/r/settings.yaml:".len())
                    .unwrap()
                    .is_ascii_digit(),
                "{message}"
            );
        }
    }
}
