//! RFC 5424 syslog: one message per record, to a Unix datagram socket (`/dev/log`, which
//! journald, rsyslog and syslog-ng read), over UDP, or over TCP with octet-counting framing
//! (RFC 6587). The message is the local line (so a collector can check the chain itself); its
//! structured data holds the fields one by one.

use std::io::Write;
use std::net::{TcpStream, ToSocketAddrs, UdpSocket};
use std::time::Duration;

use syslog_fmt::v5424::{Config, Formatter};
use syslog_fmt::{Facility, Severity};

use super::config::SyslogAddress;
use super::{Record, Sink};

/// Torii has no IANA private enterprise number: the structured data carries the one RFC 5612
/// reserves for documentation, as collectors must be told anyway what to match.
pub const SD_ID: &str = "torii@32473";

const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

pub struct Syslog {
    address: SyslogAddress,
    formatter: Formatter,
    /// The TCP connection, made when needed and dropped after a failure.
    stream: Option<TcpStream>,
    /// The UDP socket and the address it sends to, resolved once and dropped after a failure
    /// (so a changed address is looked up again).
    udp: Option<(UdpSocket, std::net::SocketAddr)>,
    /// The Unix datagram socket, made once.
    #[cfg(unix)]
    unix: Option<std::os::unix::net::UnixDatagram>,
}

impl Syslog {
    pub fn new(address: SyslogAddress) -> Result<Self, String> {
        #[cfg(not(unix))]
        if let SyslogAddress::Unix(_) = address {
            return Err("Unix sockets are not available on this system".into());
        }
        let hostname = gethostname::gethostname().to_string_lossy().into_owned();
        let process = std::process::id().to_string();
        let formatter = Config {
            // Security and authorisation messages (RFC 5424's facility 4).
            facility: Facility::Auth,
            hostname: Some(header_field(&hostname)),
            app_name: Some("torii"),
            proc_id: Some(&process),
        }
        .into_formatter();
        Ok(Self {
            address,
            formatter,
            stream: None,
            udp: None,
            #[cfg(unix)]
            unix: None,
        })
    }

    /// The message of one record.
    pub fn message(&self, record: &Record) -> Vec<u8> {
        let severity = if record.event.starts_with("denied") {
            Severity::Warning
        } else {
            Severity::Info
        };
        let timestamp = chrono::DateTime::from_timestamp(record.epoch as i64, 0)
            .map(|time| time.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
        let exit = record.exit_code().map(|code| code.to_string());
        let mut params = vec![("provider", record.provider()), ("event", record.event)];
        params.extend(record.target().map(|target| ("target", target)));
        params.push(("reference", record.reference.as_str()));
        params.extend(record.detail.as_deref().map(|detail| ("detail", detail)));
        params.extend(exit.as_deref().map(|exit| ("exit", exit)));
        params.extend(record.channel().map(|channel| ("via", channel)));
        params.push(("chain", record.chain.as_str()));
        let mut message = Vec::with_capacity(256 + record.line.len());
        // Writing into a Vec cannot fail.
        let _ = self.formatter.write_with_data(
            &mut message,
            severity,
            timestamp.unwrap_or_else(|| "-".to_string()),
            record.line.as_str(),
            Some(record.event),
            [(SD_ID, params)],
        );
        message
    }

    fn send_one(&mut self, message: &[u8]) -> std::io::Result<()> {
        match &self.address {
            #[cfg(unix)]
            SyslogAddress::Unix(path) => {
                if self.unix.is_none() {
                    let socket = std::os::unix::net::UnixDatagram::unbound()?;
                    // A socket nobody reads fills up: the send then fails instead of waiting.
                    socket.set_write_timeout(Some(WRITE_TIMEOUT))?;
                    self.unix = Some(socket);
                }
                let Some(socket) = &self.unix else {
                    return Err(std::io::Error::other("no socket"));
                };
                socket.send_to(message, path).map(drop)
            }
            #[cfg(not(unix))]
            SyslogAddress::Unix(_) => Err(std::io::Error::other("no Unix sockets")),
            SyslogAddress::Udp(address) => {
                if self.udp.is_none() {
                    let target = resolve(address)?;
                    let local = if target.is_ipv4() {
                        "0.0.0.0:0"
                    } else {
                        "[::]:0"
                    };
                    let socket = UdpSocket::bind(local)?;
                    socket.set_write_timeout(Some(WRITE_TIMEOUT))?;
                    self.udp = Some((socket, target));
                }
                let Some((socket, target)) = &self.udp else {
                    return Err(std::io::Error::other("no socket"));
                };
                let sent = socket.send_to(message, *target).map(drop);
                if sent.is_err() {
                    self.udp = None;
                }
                sent
            }
            SyslogAddress::Tcp(address) => {
                if self.stream.is_none() {
                    let stream = TcpStream::connect_timeout(&resolve(address)?, CONNECT_TIMEOUT)?;
                    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
                    self.stream = Some(stream);
                }
                let Some(stream) = self.stream.as_mut() else {
                    return Err(std::io::Error::other("not connected"));
                };
                let mut framed = format!("{} ", message.len()).into_bytes();
                framed.extend_from_slice(message);
                let written = stream.write_all(&framed);
                if written.is_err() {
                    self.stream = None;
                }
                written
            }
        }
    }
}

impl Sink for Syslog {
    fn send(&mut self, batch: &[Record]) -> Result<(), String> {
        // A batch retried after a failure part-way may repeat its first records: a duplicate
        // at the collector is better than a loss, and the chain value shows it.
        for record in batch {
            let message = self.message(record);
            self.send_one(&message)
                .map_err(|error| format!("{}: {error}", self.address))?;
        }
        Ok(())
    }
}

fn resolve(address: &str) -> std::io::Result<std::net::SocketAddr> {
    address
        .to_socket_addrs()?
        .next()
        .ok_or_else(|| std::io::Error::other(format!("{address} names no address")))
}

/// A header field is printable ASCII without spaces (RFC 5424 §6): anything else becomes `_`.
fn header_field(text: &str) -> &str {
    if !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_graphic()) {
        text
    } else {
        "-"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> Record {
        Record {
            epoch: 1_784_000_000,
            scope: "kubectl/prod".into(),
            event: "denied-explicit",
            reference: "delete \"pods]".into(),
            detail: Some("via=window".into()),
            chain: "ab".repeat(32),
            line: "1784000000 | kubectl/prod | denied-explicit | delete \"pods] | via=window | chain=ab".into(),
        }
    }

    #[test]
    fn a_message_is_rfc_5424_with_every_field_escaped() {
        let syslog = Syslog::new(SyslogAddress::Udp("127.0.0.1:514".into())).unwrap();
        let message = String::from_utf8(syslog.message(&record())).unwrap();
        // facility auth (4) * 8 + warning (4)
        assert!(
            message.starts_with("<36>1 2026-07-14T03:33:20Z "),
            "{message}"
        );
        assert!(message.contains(" torii "), "{message}");
        assert!(
            message.contains(" denied-explicit [torii@32473 provider=\"kubectl\""),
            "{message}"
        );
        assert!(message.contains("target=\"prod\""), "{message}");
        // `"` and `]` in a value cannot end the parameter or the element.
        assert!(
            message.contains("reference=\"delete \\\"pods\\]\""),
            "{message}"
        );
        assert!(message.contains("via=\"window\""), "{message}");
        assert!(message.ends_with("| chain=ab"), "{message}");
    }
}
