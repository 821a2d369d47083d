//! Audit export: each event, as it is written to the local log, is also offered to the
//! organisation's log pipeline — OTLP logs over HTTP ([`otlp`]) and RFC 5424 syslog
//! ([`syslog`]).
//!
//! Export never blocks, fails or changes a call: an event is put on a bounded queue per
//! destination (or counted as dropped when the queue is full), and a thread of its own sends
//! it, retrying with back-off and dropping (and counting) a batch the destination keeps
//! refusing. Counts of dropped records go to `<root>/.audit-export`, which `torii doctor`
//! reads. The local log stays the record of truth. A record holds exactly the fields of its
//! local line, already sanitised, and the line's chain value: nothing else leaves the machine.

pub mod config;
pub mod otlp;
pub mod state;
pub mod syslog;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

pub use config::{Destination, ExportConfig};

/// Records waiting for one destination; more are dropped and counted.
const QUEUE: usize = 4096;
/// Records sent together.
const BATCH: usize = 256;
/// Tries of one batch before it is dropped: waits of 0.25, 0.5, 1, 2 and 4 s between them.
const ATTEMPTS: u32 = 6;
const FIRST_WAIT: Duration = Duration::from_millis(250);
/// How long the end of a session waits for what is queued to be sent.
pub const FINISH_WAIT: Duration = Duration::from_secs(3);

/// One audit event as exported: the columns of its local line, and the whole line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub epoch: u64,
    /// The scope column: `provider` or `provider/target`.
    pub scope: String,
    pub event: &'static str,
    /// The short-rule column (`-` when there is none).
    pub reference: String,
    pub detail: Option<String>,
    /// The line's value in the log's hash chain: the head of the chain when it was written.
    pub chain: String,
    /// The local line, exactly as written (chain value included).
    pub line: String,
}

impl Record {
    pub fn provider(&self) -> &str {
        self.scope
            .split_once('/')
            .map_or(&self.scope, |(provider, _)| provider)
    }

    pub fn target(&self) -> Option<&str> {
        self.scope.split_once('/').map(|(_, target)| target)
    }

    /// The exit code a `ran` detail carries (`exit=N`).
    pub fn exit_code(&self) -> Option<i64> {
        self.detail_value("exit")?.parse().ok()
    }

    /// Where a human answered (`via=window`, `via=console`).
    pub fn channel(&self) -> Option<&str> {
        self.detail_value("via")
    }

    fn detail_value(&self, key: &str) -> Option<&str> {
        self.detail
            .as_deref()?
            .split(' ')
            .find_map(|word| word.strip_prefix(key)?.strip_prefix('='))
    }
}

/// Somewhere records go. `send` either delivers the whole batch or fails.
pub trait Sink: Send + 'static {
    fn send(&mut self, batch: &[Record]) -> Result<(), String>;
}

/// The queues and threads of every configured destination.
#[derive(Debug, Default)]
pub struct Exporter {
    queues: Vec<Queue>,
}

#[derive(Debug)]
struct Queue {
    destination: Destination,
    /// `None` once finished: later records are not offered.
    sender: Mutex<Option<SyncSender<Record>>>,
    /// Records dropped since they were last added to the state file.
    dropped: Arc<state::Pending>,
    /// Set when the session ends: a failing batch is then dropped at once, not retried.
    finishing: Arc<AtomicBool>,
    /// Records offered and not yet taken by the thread: lost, and counted, if the thread is
    /// still stuck when the session ends.
    queued: Arc<AtomicU64>,
    state: Arc<std::path::PathBuf>,
    done: Mutex<Option<Receiver<()>>>,
}

impl Exporter {
    /// Starts a thread for each destination of `config`. `state` is `<root>/.audit-export`.
    pub fn start(config: ExportConfig, state: std::path::PathBuf) -> Self {
        let state = Arc::new(state);
        let queues = config
            .destinations
            .into_iter()
            .filter_map(|destination| {
                let sink: Box<dyn Sink> = match destination.connect() {
                    Ok(sink) => sink,
                    Err(error) => {
                        eprintln!("torii: audit export to {destination}: {error}");
                        return None;
                    }
                };
                let (sender, receiver) = std::sync::mpsc::sync_channel(QUEUE);
                let (finished, done) = std::sync::mpsc::channel();
                let dropped = Arc::new(state::Pending::new(destination.kind()));
                let finishing = Arc::new(AtomicBool::new(false));
                let queued = Arc::new(AtomicU64::new(0));
                let worker = Worker {
                    sink,
                    receiver,
                    dropped: Arc::clone(&dropped),
                    state: Arc::clone(&state),
                    finishing: Arc::clone(&finishing),
                    queued: Arc::clone(&queued),
                };
                let spawned = std::thread::Builder::new()
                    .name(format!("audit-export-{}", destination.kind()))
                    .spawn(move || {
                        worker.run();
                        let _ = finished.send(());
                    });
                if let Err(error) = spawned {
                    eprintln!("torii: audit export to {destination}: {error}");
                    return None;
                }
                Some(Queue {
                    destination,
                    sender: Mutex::new(Some(sender)),
                    dropped,
                    finishing,
                    queued,
                    state: Arc::clone(&state),
                    done: Mutex::new(Some(done)),
                })
            })
            .collect();
        Self { queues }
    }

    /// Whether anything is exported at all.
    pub fn is_empty(&self) -> bool {
        self.queues.is_empty()
    }

    /// Queues `record` for every destination, without waiting: a full queue drops it.
    pub fn offer(&self, record: &Record) {
        for queue in &self.queues {
            let sender = queue.sender.lock().unwrap_or_else(PoisonError::into_inner);
            let Some(sender) = sender.as_ref() else {
                continue;
            };
            // Counted before it can be taken, so the count never goes below zero.
            queue.queued.fetch_add(1, Ordering::Relaxed);
            let refused = match sender.try_send(record.clone()) {
                Ok(()) => continue,
                Err(TrySendError::Full(_)) => "the export queue was full",
                Err(TrySendError::Disconnected(_)) => "the export thread stopped",
            };
            queue.queued.fetch_sub(1, Ordering::Relaxed);
            queue.dropped.add(1, refused);
        }
    }

    /// Stops taking records and waits, at most `wait` in all, for the queued ones to be sent.
    /// What is still queued then is lost with the process, as the threads end with it.
    pub fn finish(&self, wait: Duration) {
        let deadline = Instant::now() + wait;
        for queue in &self.queues {
            queue.finishing.store(true, Ordering::Relaxed);
            queue
                .sender
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
        }
        for queue in &self.queues {
            let done = queue
                .done
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            if let Some(done) = done {
                let left = deadline.saturating_duration_since(Instant::now());
                if done.recv_timeout(left).is_err() {
                    let lost = queue.queued.swap(0, Ordering::Relaxed);
                    queue
                        .dropped
                        .add(lost, "still queued when the session ended");
                    queue.dropped.save(&queue.state);
                    eprintln!(
                        "torii: audit export to {}: {lost} records still queued at exit are lost",
                        queue.destination
                    );
                }
            }
        }
    }
}

impl Drop for Exporter {
    fn drop(&mut self) {
        self.finish(FINISH_WAIT);
    }
}

struct Worker {
    sink: Box<dyn Sink>,
    receiver: Receiver<Record>,
    dropped: Arc<state::Pending>,
    state: Arc<std::path::PathBuf>,
    finishing: Arc<AtomicBool>,
    queued: Arc<AtomicU64>,
}

impl Worker {
    fn run(mut self) {
        // Ends when every sender is gone and the queue is empty.
        while let Ok(first) = self.receiver.recv() {
            let mut batch = vec![first];
            while batch.len() < BATCH {
                match self.receiver.try_recv() {
                    Ok(record) => batch.push(record),
                    Err(_) => break,
                }
            }
            self.queued.fetch_sub(batch.len() as u64, Ordering::Relaxed);
            self.deliver(&batch);
            self.dropped.save(&self.state);
        }
        self.dropped.save(&self.state);
    }

    fn deliver(&mut self, batch: &[Record]) {
        let mut wait = FIRST_WAIT;
        for attempt in 1..=ATTEMPTS {
            match self.sink.send(batch) {
                Ok(()) => return,
                Err(error) if attempt == ATTEMPTS || self.finishing.load(Ordering::Relaxed) => {
                    self.dropped.add(batch.len() as u64, &error);
                    return;
                }
                Err(_) => {
                    self.pause(wait);
                    wait *= 2;
                }
            }
        }
    }

    /// Waits `wait` before the next try, or less when the session ends meanwhile.
    fn pause(&self, wait: Duration) {
        let until = Instant::now() + wait;
        while Instant::now() < until && !self.finishing.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(detail: Option<&str>) -> Record {
        Record {
            epoch: 1,
            scope: "kubectl/prod".into(),
            event: "ran",
            reference: "get pods".into(),
            detail: detail.map(str::to_string),
            chain: "0".repeat(64),
            line: String::new(),
        }
    }

    #[test]
    fn fields_are_read_from_the_columns() {
        let ran = record(Some("exit=3 timeout"));
        assert_eq!((ran.provider(), ran.target()), ("kubectl", Some("prod")));
        assert_eq!(ran.exit_code(), Some(3));
        assert_eq!(ran.channel(), None);
        let answered = record(Some("for=5min via=console"));
        assert_eq!(answered.channel(), Some("console"));
        let simple = Record {
            scope: "aws".into(),
            ..record(None)
        };
        assert_eq!((simple.provider(), simple.target()), ("aws", None));
        assert_eq!(simple.exit_code(), None);
    }

    /// A sink that fails `failures` times, then keeps what it is sent.
    struct Flaky {
        failures: u32,
        kept: Arc<Mutex<Vec<Record>>>,
    }

    impl Sink for Flaky {
        fn send(&mut self, batch: &[Record]) -> Result<(), String> {
            if self.failures > 0 {
                self.failures -= 1;
                return Err("refused".into());
            }
            self.kept.lock().unwrap().extend_from_slice(batch);
            Ok(())
        }
    }

    fn flaky_worker(
        failures: u32,
        dir: &std::path::Path,
    ) -> (Worker, SyncSender<Record>, Arc<Mutex<Vec<Record>>>) {
        let kept = Arc::default();
        let (sender, receiver) = std::sync::mpsc::sync_channel(QUEUE);
        let worker = Worker {
            sink: Box::new(Flaky {
                failures,
                kept: Arc::clone(&kept),
            }),
            receiver,
            dropped: Arc::new(state::Pending::new("test")),
            state: Arc::new(dir.join(".audit-export")),
            finishing: Arc::default(),
            queued: Arc::default(),
        };
        (worker, sender, kept)
    }

    #[test]
    fn a_refused_batch_is_retried_and_then_dropped_and_counted() {
        let dir = tempfile::tempdir().unwrap();
        let (worker, sender, kept) = flaky_worker(2, dir.path());
        worker.queued.fetch_add(1, Ordering::Relaxed);
        sender.send(record(None)).unwrap();
        drop(sender);
        worker.run();
        assert_eq!(kept.lock().unwrap().len(), 1, "delivered on the third try");

        let (worker, sender, kept) = flaky_worker(ATTEMPTS, dir.path());
        worker.finishing.store(true, Ordering::Relaxed);
        worker.queued.fetch_add(2, Ordering::Relaxed);
        sender.send(record(None)).unwrap();
        sender.send(record(None)).unwrap();
        drop(sender);
        worker.run();
        assert!(kept.lock().unwrap().is_empty());
        let counts = state::read(&dir.path().join(".audit-export")).unwrap();
        assert_eq!(counts["test"].dropped, 2, "{counts:?}");
        assert_eq!(counts["test"].last_error, "refused");
    }
}
