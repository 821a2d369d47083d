//! `torii console`: the human's terminal for the questions a window would ask, for people
//! without a display (SSH, containers, WSL). It listens on the config root's console socket
//! (see `crate::prompt::console`), takes one question at a time from any server of this root,
//! asks it here with the same state the window uses (`crate::dialog`), and sends the answer
//! back. A question whose server went away is dropped; leaving the console denies the question
//! on screen.
//!
//! Files: `listener.rs` (the socket, the token, who may connect), `dialog.rs` (the loop every
//! question runs), `operation.rs` (an unresolved call), `lease.rs` (an inactive target alias),
//! `auth.rs` (a session to collect), `screen.rs` (the terminal: raw mode, drawing, keys).

#[cfg(unix)]
mod auth;
#[cfg(unix)]
mod dialog;
#[cfg(unix)]
mod lease;
#[cfg(unix)]
mod listener;
#[cfg(unix)]
mod operation;
#[cfg(unix)]
mod screen;

use std::path::Path;

#[cfg(unix)]
use crate::prompt::Request;
#[cfg(unix)]
pub use listener::ConsoleError;

/// Runs the console for the config root `root` until the human leaves it (`q`, or Ctrl-C).
#[cfg(unix)]
pub fn run(root: &Path) -> Result<(), ConsoleError> {
    let listener = listener::Listener::bind(root)?;
    let mut screen = screen::Screen::open().map_err(ConsoleError::Terminal)?;
    let served = serve(&listener, &mut screen);
    screen.close();
    served
}

/// Why the console could not run where it is not implemented yet.
#[cfg(not(unix))]
#[derive(Debug, thiserror::Error)]
#[error("{}", crate::tr!("console-unsupported"))]
pub struct ConsoleError;

#[cfg(not(unix))]
pub fn run(_root: &Path) -> Result<(), ConsoleError> {
    Err(ConsoleError)
}

/// Waits for questions and keys until the human leaves.
#[cfg(unix)]
fn serve(listener: &listener::Listener, screen: &mut screen::Screen) -> Result<(), ConsoleError> {
    let mut notice: Option<String> = None;
    loop {
        screen
            .waiting(listener.root(), notice.as_deref())
            .map_err(ConsoleError::Terminal)?;
        if screen.key(listener::POLL).map_err(ConsoleError::Terminal)?
            == Some(screen::Key::Char('q'))
            || screen.left()
        {
            return Ok(());
        }
        let Some(question) = listener.next_question() else {
            continue;
        };
        notice = None;
        let outcome = match question.request.clone() {
            Request::Operation(request) => {
                dialog::run(question, operation::OperationDialog::new(request), screen)
            }
            Request::TargetLease(request) => {
                dialog::run(question, lease::LeaseDialog::new(request), screen)
            }
            Request::Authenticate(request) => {
                dialog::run(question, auth::AuthDialog::new(request), screen)
            }
        };
        match outcome.map_err(ConsoleError::Terminal)? {
            listener::Outcome::Answered => {}
            listener::Outcome::Gone => notice = Some(crate::tr!("console-gone")),
            listener::Outcome::Quit => return Ok(()),
        }
    }
}
