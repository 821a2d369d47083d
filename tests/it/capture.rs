//! An HTTP server on loopback that records every request whole (request line, headers, body)
//! and answers each with a 400 in the AWS JSON error shape, so a CLI gives up at once instead
//! of retrying. It stands for an endpoint: the operator's, or one an agent picked.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};

use crate::loopback::Loopback;

pub struct Capture {
    pub addr: SocketAddr,
    requests: Arc<Mutex<Vec<String>>>,
    _server: Loopback,
}

impl Capture {
    pub fn start() -> Self {
        let requests = Arc::new(Mutex::new(Vec::new()));
        let server = {
            let requests = Arc::clone(&requests);
            Loopback::start(move |stream| {
                let _ = serve(stream, &requests);
            })
        };
        Self {
            addr: server.addr,
            requests,
            _server: server,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request received so far, each as its full text.
    pub fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

/// Reads requests on one connection until the client closes it.
fn serve(stream: TcpStream, requests: &Mutex<Vec<String>>) -> std::io::Result<()> {
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut stream = stream;
    loop {
        let mut text = String::new();
        if reader.read_line(&mut text)? == 0 {
            return Ok(());
        }
        let mut length = 0usize;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header)? == 0 {
                return Ok(());
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
            text.push_str(&header);
            if header == "\r\n" || header == "\n" {
                break;
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body)?;
        text.push_str(&String::from_utf8_lossy(&body));
        requests.lock().unwrap().push(text);
        let answer = r#"{"__type":"ValidationException","message":"captured by the test"}"#;
        write!(
            stream,
            "HTTP/1.1 400 Bad Request\r\nContent-Type: application/x-amz-json-1.1\r\n\
             Content-Length: {}\r\n\r\n{answer}",
            answer.len()
        )?;
        stream.flush()?;
    }
}
