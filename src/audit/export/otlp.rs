//! OTLP logs over HTTP (`application/x-protobuf`): the OpenTelemetry protocol's own message
//! types (the `opentelemetry-proto` crate), one request per batch. The resource says who
//! wrote them: `service.name=torii`, the version, the host and the user.
//!
//! This is the one place on the server path that uses an HTTP client: it posts audit records
//! to the address the human configured and reads nothing back but the status.

use std::time::Duration;

use opentelemetry_proto::tonic::collector::logs::v1::ExportLogsServiceRequest;
use opentelemetry_proto::tonic::common::v1::{AnyValue, InstrumentationScope, KeyValue, any_value};
use opentelemetry_proto::tonic::logs::v1::{LogRecord, ResourceLogs, ScopeLogs, SeverityNumber};
use opentelemetry_proto::tonic::resource::v1::Resource;
use prost::Message;

use super::config::OtlpTarget;
use super::{Record, Sink};

const TIMEOUT: Duration = Duration::from_secs(10);

pub struct Otlp {
    target: OtlpTarget,
    client: reqwest::blocking::Client,
    resource: Resource,
}

impl Otlp {
    pub fn new(target: OtlpTarget) -> Result<Self, String> {
        // reqwest is built without a crypto provider: rustls's ring one is the process
        // default. Once installed it stays; an error only says one already is.
        let _ = rustls::crypto::ring::default_provider().install_default();
        // No proxy: the variables that name one are the environment's, which whoever starts
        // the server chooses, and the requests carry the collector's key.
        let client = reqwest::blocking::Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(TIMEOUT)
            .timeout(TIMEOUT)
            .user_agent(concat!("torii/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|error| crate::errors::chain(&error))?;
        Ok(Self {
            target,
            client,
            resource: resource(),
        })
    }

    /// The request that carries `batch`.
    pub fn request(&self, batch: &[Record]) -> ExportLogsServiceRequest {
        ExportLogsServiceRequest {
            resource_logs: vec![ResourceLogs {
                resource: Some(self.resource.clone()),
                scope_logs: vec![ScopeLogs {
                    scope: Some(InstrumentationScope {
                        name: "torii.audit".into(),
                        version: env!("CARGO_PKG_VERSION").into(),
                        ..InstrumentationScope::default()
                    }),
                    log_records: batch.iter().map(log_record).collect(),
                    schema_url: String::new(),
                }],
                schema_url: String::new(),
            }],
        }
    }
}

impl Sink for Otlp {
    fn send(&mut self, batch: &[Record]) -> Result<(), String> {
        let mut request = self
            .client
            .post(&self.target.url)
            .header("content-type", "application/x-protobuf")
            .body(self.request(batch).encode_to_vec());
        for (name, value) in &self.target.headers {
            request = request.header(name, value);
        }
        let shown = super::config::shown_url(&self.target.url);
        let response = request
            .send()
            .map_err(|error| format!("{shown}: {}", crate::errors::chain(&error.without_url())))?;
        let status = response.status();
        if status.is_success() {
            Ok(())
        } else {
            Err(format!("{shown}: HTTP {status}"))
        }
    }
}

fn text(value: &str) -> Option<AnyValue> {
    Some(AnyValue {
        value: Some(any_value::Value::StringValue(value.to_string())),
    })
}

fn attribute(key: &str, value: Option<AnyValue>) -> KeyValue {
    KeyValue {
        key: key.to_string(),
        value,
        ..KeyValue::default()
    }
}

fn resource() -> Resource {
    let host = gethostname::gethostname().to_string_lossy().into_owned();
    let mut attributes = vec![
        attribute("service.name", text("torii")),
        attribute("service.version", text(env!("CARGO_PKG_VERSION"))),
        attribute("host.name", text(&host)),
    ];
    attributes.extend(user_id().map(|id| attribute("user.id", text(&id))));
    Resource {
        attributes,
        ..Resource::default()
    }
}

/// The user as the system knows it, never an environment variable (which whoever starts the
/// server chooses). Unix only.
#[cfg(unix)]
fn user_id() -> Option<String> {
    Some(rustix::process::getuid().as_raw().to_string())
}

#[cfg(not(unix))]
fn user_id() -> Option<String> {
    None
}

fn log_record(record: &Record) -> LogRecord {
    let (severity, severity_text) = if record.event.starts_with("denied") {
        (SeverityNumber::Warn, "WARN")
    } else {
        (SeverityNumber::Info, "INFO")
    };
    let mut attributes = vec![
        attribute("torii.provider", text(record.provider())),
        attribute("torii.event", text(record.event)),
        attribute("torii.reference", text(&record.reference)),
        attribute("torii.chain", text(&record.chain)),
    ];
    attributes.extend(
        record
            .target()
            .map(|target| attribute("torii.target", text(target))),
    );
    attributes.extend(
        record
            .detail
            .as_deref()
            .map(|detail| attribute("torii.detail", text(detail))),
    );
    attributes.extend(record.exit_code().map(|code| {
        attribute(
            "torii.exit_code",
            Some(AnyValue {
                value: Some(any_value::Value::IntValue(code)),
            }),
        )
    }));
    attributes.extend(
        record
            .channel()
            .map(|channel| attribute("torii.channel", text(channel))),
    );
    let nanos = record.epoch.saturating_mul(1_000_000_000);
    LogRecord {
        time_unix_nano: nanos,
        observed_time_unix_nano: nanos,
        severity_number: severity as i32,
        severity_text: severity_text.into(),
        body: text(&record.line),
        attributes,
        event_name: format!("torii.{}", record.event),
        ..LogRecord::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_keeps_its_fields_and_the_resource_names_torii() {
        let otlp = Otlp::new(OtlpTarget {
            url: "http://127.0.0.1:9/v1/logs".into(),
            headers: Vec::new(),
        })
        .unwrap();
        let record = Record {
            epoch: 2,
            scope: "aws".into(),
            event: "ran",
            reference: "s3 ls".into(),
            detail: Some("exit=0".into()),
            chain: "c".repeat(64),
            line: "2 | aws | ran | s3 ls | exit=0 | chain=cc".into(),
        };
        let request = otlp.request(std::slice::from_ref(&record));
        let decoded = ExportLogsServiceRequest::decode(request.encode_to_vec().as_slice()).unwrap();
        let logs = &decoded.resource_logs[0];
        let service = &logs.resource.as_ref().unwrap().attributes[0];
        assert_eq!(
            (service.key.as_str(), service.value.clone()),
            ("service.name", text("torii"))
        );
        let log = &logs.scope_logs[0].log_records[0];
        assert_eq!(log.time_unix_nano, 2_000_000_000);
        assert_eq!(log.body, text(&record.line));
        let keys: Vec<&str> = log.attributes.iter().map(|kv| kv.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "torii.provider",
                "torii.event",
                "torii.reference",
                "torii.chain",
                "torii.detail",
                "torii.exit_code"
            ]
        );
    }
}
