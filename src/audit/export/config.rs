//! Where audit records go: `settings.yaml` (`audit_syslog`, `audit_otlp_endpoint`,
//! `audit_otlp_headers`) and the standard `OTEL_EXPORTER_OTLP_*` variables.

use std::fmt;

/// Every destination configured, in a fixed order (syslog, then OTLP).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ExportConfig {
    pub destinations: Vec<Destination>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    Syslog(SyslogAddress),
    Otlp(OtlpTarget),
}

/// `audit_syslog`: `unix:<absolute path>`, `udp:<host>:<port>` or `tcp:<host>:<port>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyslogAddress {
    Unix(std::path::PathBuf),
    Udp(String),
    Tcp(String),
}

/// An OTLP/HTTP logs endpoint and the headers sent with every request.
#[derive(Clone, PartialEq, Eq)]
pub struct OtlpTarget {
    /// The full URL records are posted to (`…/v1/logs`).
    pub url: String,
    /// Often an API key: never shown, in `Debug` either.
    pub headers: Vec<(String, String)>,
}

/// `name=value` headers; often an API key, so `Debug` shows their names only.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Headers(pub Vec<(String, String)>);

impl fmt::Debug for Headers {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_list()
            .entries(self.0.iter().map(|(name, _)| name))
            .finish()
    }
}

impl fmt::Debug for OtlpTarget {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(name, _)| name.as_str()).collect();
        formatter
            .debug_struct("OtlpTarget")
            .field("url", &self.url)
            .field("headers", &names)
            .finish()
    }
}

impl Destination {
    /// The name of its kind, as in `.audit-export` and `doctor`.
    pub fn kind(&self) -> &'static str {
        match self {
            Destination::Syslog(_) => "syslog",
            Destination::Otlp(_) => "otlp",
        }
    }

    pub fn connect(&self) -> Result<Box<dyn super::Sink>, String> {
        match self {
            Destination::Syslog(address) => {
                Ok(Box::new(super::syslog::Syslog::new(address.clone())?))
            }
            Destination::Otlp(target) => Ok(Box::new(super::otlp::Otlp::new(target.clone())?)),
        }
    }
}

impl fmt::Display for Destination {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Destination::Syslog(address) => write!(formatter, "syslog {address}"),
            Destination::Otlp(target) => write!(formatter, "OTLP {}", shown_url(&target.url)),
        }
    }
}

impl fmt::Display for SyslogAddress {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyslogAddress::Unix(path) => write!(formatter, "unix:{}", path.display()),
            SyslogAddress::Udp(address) => write!(formatter, "udp:{address}"),
            SyslogAddress::Tcp(address) => write!(formatter, "tcp:{address}"),
        }
    }
}

impl SyslogAddress {
    /// Reads `audit_syslog`; the error says what is expected.
    pub fn parse(text: &str) -> Result<Self, String> {
        const EXPECTED: &str = "expected `unix:/absolute/path`, `udp:host:port` or `tcp:host:port`";
        let (scheme, rest) = text
            .split_once(':')
            .ok_or_else(|| format!("{EXPECTED}, got `{text}`"))?;
        match scheme {
            "unix" if std::path::Path::new(rest).is_absolute() => Ok(Self::Unix(rest.into())),
            "udp" | "tcp" => {
                let port = rest
                    .rsplit_once(':')
                    .map(|(host, port)| (host, port.parse::<u16>()));
                match port {
                    Some((host, Ok(port))) if !host.is_empty() && port != 0 => {
                        Ok(if scheme == "udp" {
                            Self::Udp(rest.to_string())
                        } else {
                            Self::Tcp(rest.to_string())
                        })
                    }
                    _ => Err(format!("{EXPECTED}, got `{text}` (no host or port)")),
                }
            }
            _ => Err(format!("{EXPECTED}, got `{text}`")),
        }
    }
}

/// The OTLP variables Torii reads (the standard ones, for logs over HTTP).
pub const OTEL_ENDPOINT: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";
pub const OTEL_LOGS_ENDPOINT: &str = "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT";
pub const OTEL_HEADERS: &str = "OTEL_EXPORTER_OTLP_HEADERS";
pub const OTEL_LOGS_HEADERS: &str = "OTEL_EXPORTER_OTLP_LOGS_HEADERS";
pub const OTEL_PROTOCOL: &str = "OTEL_EXPORTER_OTLP_PROTOCOL";
pub const OTEL_LOGS_PROTOCOL: &str = "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL";

/// What [`resolve`] makes of the settings and the environment, and what it could not use.
#[derive(Debug, Default)]
pub struct Resolved {
    pub config: ExportConfig,
    pub warnings: Vec<String>,
}

/// The destinations of `settings`, completed by the environment (`var`): the human's settings
/// win over a variable. An unusable variable is a warning, never an error: export must not
/// keep the server from starting.
pub fn resolve(
    settings: &crate::settings::Settings,
    var: impl Fn(&str) -> Option<String>,
) -> Resolved {
    let mut resolved = Resolved::default();
    if let Some(address) = &settings.audit_syslog {
        resolved
            .config
            .destinations
            .push(Destination::Syslog(address.clone()));
    }
    let var = |name: &str| var(name).filter(|value| !value.trim().is_empty());
    // The human's endpoint goes with the human's headers only, and the environment's with the
    // environment's: a key in settings.yaml never goes to an address the environment names.
    if let Some(base) = &settings.audit_otlp_endpoint {
        resolved
            .config
            .destinations
            .push(Destination::Otlp(OtlpTarget {
                url: logs_url(base),
                headers: settings.audit_otlp_headers.0.clone(),
            }));
        return resolved;
    }
    let Some(url) =
        var(OTEL_LOGS_ENDPOINT).or_else(|| var(OTEL_ENDPOINT).map(|base| logs_url(&base)))
    else {
        return resolved;
    };
    let protocol = var(OTEL_LOGS_PROTOCOL).or_else(|| var(OTEL_PROTOCOL));
    if let Some(protocol) = protocol.filter(|protocol| protocol != "http/protobuf") {
        resolved.warnings.push(format!(
            "audit export: OTLP protocol `{protocol}` is not supported (only http/protobuf); \
             nothing is sent to {}",
            shown_url(&url)
        ));
        return resolved;
    }
    let mut headers = Vec::new();
    for name in [OTEL_HEADERS, OTEL_LOGS_HEADERS] {
        if let Some(text) = var(name) {
            match parse_headers(&text) {
                Ok(parsed) => headers.extend(parsed),
                Err(error) => resolved
                    .warnings
                    .push(format!("audit export: {name}: {error}")),
            }
        }
    }
    resolved
        .config
        .destinations
        .push(Destination::Otlp(OtlpTarget { url, headers }));
    resolved
}

/// `url` as it may be shown (in `doctor`, on stderr, in `.audit-export`): without the
/// credentials of its authority (`user:password@`) nor its query and fragment, where
/// collectors take API keys.
pub fn shown_url(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let rest = rest.split(['?', '#']).next().unwrap_or_default();
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    if scheme.is_empty() {
        format!("{host}{path}")
    } else {
        format!("{scheme}://{host}{path}")
    }
}

/// The logs URL of a base endpoint, as the OTLP specification builds it.
fn logs_url(base: &str) -> String {
    let (base, query) = match base.find(['?', '#']) {
        Some(at) => base.split_at(at),
        None => (base, ""),
    };
    format!("{}/v1/logs{query}", base.trim_end_matches('/'))
}

/// `name=value,name=value`, values percent-encoded (the OTLP headers format). An error names
/// the pair by its position only: a mistyped pair may hold the secret.
pub fn parse_headers(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split(',')
        .filter(|pair| !pair.trim().is_empty())
        .enumerate()
        .map(|(index, pair)| {
            let number = index + 1;
            let (name, value) = pair.split_once('=').ok_or_else(|| {
                format!("header {number} is not `name=value` (pairs are separated by commas)")
            })?;
            let name = name.trim();
            let valid = !name.is_empty()
                && name
                    .bytes()
                    .all(|byte| byte.is_ascii_alphanumeric() || b"-_.".contains(&byte));
            if !valid {
                return Err(format!(
                    "header {number} has no valid name (letters, digits, `-`, `_`, `.`)"
                ));
            }
            let value = percent_decode(value.trim()).ok_or_else(|| {
                format!("the value of header {number} is not valid percent-encoding")
            })?;
            Ok((name.to_string(), value))
        })
        .collect()
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    let value = String::from_utf8(out).ok()?;
    // A header value cannot hold a line break.
    (!value.contains(['\r', '\n'])).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::language::tests::env;
    use crate::settings::Settings;

    #[test]
    fn syslog_addresses_are_read_or_refused_with_what_is_expected() {
        assert_eq!(
            SyslogAddress::parse("unix:/dev/log"),
            Ok(SyslogAddress::Unix("/dev/log".into()))
        );
        assert_eq!(
            SyslogAddress::parse("udp:127.0.0.1:514"),
            Ok(SyslogAddress::Udp("127.0.0.1:514".into()))
        );
        assert_eq!(
            SyslogAddress::parse("tcp:[::1]:601"),
            Ok(SyslogAddress::Tcp("[::1]:601".into()))
        );
        for bad in [
            "",
            "/dev/log",
            "unix:dev/log",
            "udp:host",
            "tcp::514",
            "udp:h:0",
            "http:x:1",
        ] {
            let error = SyslogAddress::parse(bad).unwrap_err();
            assert!(error.contains("expected `unix:"), "{bad}: {error}");
        }
    }

    #[test]
    fn the_environment_follows_the_otlp_rules_and_settings_win() {
        let settings = Settings::default();
        let none = resolve(&settings, env(&[]));
        assert!(none.config.destinations.is_empty());

        let base = resolve(
            &settings,
            env(&[
                (OTEL_ENDPOINT, "http://127.0.0.1:4318/"),
                (OTEL_HEADERS, "api-key=a%2Cb, x-team=sec"),
            ]),
        );
        let [Destination::Otlp(target)] = base.config.destinations.as_slice() else {
            panic!("{base:?}");
        };
        assert_eq!(target.url, "http://127.0.0.1:4318/v1/logs");
        assert_eq!(
            target.headers,
            [
                ("api-key".to_string(), "a,b".to_string()),
                ("x-team".into(), "sec".into())
            ]
        );
        assert!(
            !format!("{target:?}").contains("a,b"),
            "headers are not shown"
        );

        let logs = resolve(
            &settings,
            env(&[
                (OTEL_ENDPOINT, "http://a:1"),
                (OTEL_LOGS_ENDPOINT, "http://b:2/custom"),
            ]),
        );
        assert!(
            matches!(&logs.config.destinations[0], Destination::Otlp(t) if t.url == "http://b:2/custom")
        );

        let human = Settings {
            audit_otlp_endpoint: Some("https://collector.example:4318".into()),
            ..Settings::default()
        };
        let mine = resolve(
            &human,
            env(&[(OTEL_LOGS_ENDPOINT, "http://agent:1/v1/logs")]),
        );
        assert!(
            matches!(&mine.config.destinations[0], Destination::Otlp(t) if t.url == "https://collector.example:4318/v1/logs")
        );

        let grpc = resolve(
            &settings,
            env(&[(OTEL_ENDPOINT, "http://a:1"), (OTEL_PROTOCOL, "grpc")]),
        );
        assert!(grpc.config.destinations.is_empty());
        assert!(
            grpc.warnings[0].contains("`grpc` is not supported"),
            "{grpc:?}"
        );
    }

    /// Red team: headers of settings.yaml went to an endpoint the environment named, and a
    /// password in the URL was printed.
    #[test]
    fn settings_headers_go_only_to_the_settings_endpoint_and_urls_are_shown_without_secrets() {
        let settings = Settings {
            audit_otlp_headers: Headers(vec![("api-key".into(), "human-secret".into())]),
            ..Settings::default()
        };
        let resolved = resolve(&settings, env(&[(OTEL_ENDPOINT, "http://agent:1")]));
        let [Destination::Otlp(target)] = resolved.config.destinations.as_slice() else {
            panic!("{resolved:?}");
        };
        assert!(target.headers.is_empty(), "{target:?}");
        assert_eq!(
            shown_url("http://alice:S3cret@collector:4318/v1/logs?api_key=Q#f"),
            "http://collector:4318/v1/logs"
        );
        assert_eq!(shown_url("https://c.example"), "https://c.example");
        assert_eq!(logs_url("http://h:1/x?key=v"), "http://h:1/x/v1/logs?key=v");
        let destination = Destination::Otlp(OtlpTarget {
            url: "http://u:p@h:1/v1/logs?k=v".into(),
            headers: Vec::new(),
        });
        assert_eq!(destination.to_string(), "OTLP http://h:1/v1/logs");
    }

    #[test]
    fn bad_headers_are_named() {
        assert!(parse_headers("novalue").is_err());
        assert!(
            parse_headers("a=1,bad name=1")
                .unwrap_err()
                .contains("header 2")
        );
        assert!(parse_headers("a=%zz").unwrap_err().contains("header 1"));
        // Red team: a `:` typed for `=` put the key in the message.
        let error = parse_headers("x-api-key:SECRETKEY123==").unwrap_err();
        assert!(!error.contains("SECRET"), "{error}");
        assert!(
            parse_headers("a=x%0Dy").is_err(),
            "no line break in a header"
        );
        assert_eq!(parse_headers("").unwrap(), []);
    }
}
