//! `torii console`: the human's terminal for the questions a window would ask, for people
//! without a display (SSH, containers, WSL). It listens on the config root's console socket
//! (see `crate::prompt::console`), takes one question at a time from any server of this root,
//! asks it here with the same state the window uses (`crate::dialog`), and sends the answer
//! back. A question whose server went away is dropped; leaving the console denies the question
//! on screen.
//!
//! Files: `listener.rs` (the token, who may connect, one question per connection),
//! `endpoint/` (the Unix socket or the Windows named pipe), `dialog.rs` (the loop every
//! question runs), `operation.rs` (an unresolved call), `lease.rs` (an inactive target alias),
//! `auth.rs` (a session to collect), `screen.rs` (the terminal: raw mode, drawing, keys).

mod auth;
mod dialog;
mod endpoint;
mod lease;
mod listener;
mod operation;
mod screen;

use std::path::Path;
use std::time::Duration;

use crate::prompt::Request;
pub use listener::ConsoleError;

/// Runs the console for the config root `root` until the human leaves it (`q`, or Ctrl-C).
pub fn run(root: &Path) -> Result<(), ConsoleError> {
    let mut listener = listener::Listener::bind(root)?;
    let mut screen = screen::Screen::open().map_err(ConsoleError::Terminal)?;
    let served = serve(&mut listener, &mut screen);
    screen.close();
    served
}

/// Waits for questions and keys until the human leaves: keys are read as they are, and the
/// wait is spent on the listener (up to [`listener::POLL`]).
fn serve(
    listener: &mut listener::Listener,
    screen: &mut screen::Screen,
) -> Result<(), ConsoleError> {
    let mut notice: Option<String> = None;
    loop {
        screen
            .waiting(listener.root(), notice.as_deref())
            .map_err(ConsoleError::Terminal)?;
        if screen.key(Duration::ZERO).map_err(ConsoleError::Terminal)?
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
