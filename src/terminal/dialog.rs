//! The one loop every question runs at the console: draw, read a key, until the human decides,
//! the server that asked goes away, or the human leaves (which answers no first).

use std::io;
use std::time::Instant;

use ratatui::text::{Line, Span};

use super::listener::{Outcome, POLL, Question};
use super::screen::{Key, Screen, dim, strong};
use crate::prompt::Answer;

/// A question's state as the console drives it.
pub trait Dialog {
    /// The answer, once the human decided.
    fn answer(&self) -> Option<Answer>;
    /// No: deny, or cancel the collection (stopping a running validator).
    fn refuse(&mut self, now: f64);
    /// Work between keys (the authentication's validator verdict).
    fn tick(&mut self, _now: f64) {}
    fn title(&self) -> String;
    fn lines(&self, asker: &str, now: f64) -> Vec<Line<'static>>;
    /// A key the human pressed at `now` (never Ctrl-C, which the loop handles).
    fn key(&mut self, key: Key, now: f64);
}

/// Asks `dialog` over `question` until it ends.
pub fn run(
    question: Question,
    mut dialog: impl Dialog,
    screen: &mut Screen,
) -> io::Result<Outcome> {
    let start = Instant::now();
    let now = || start.elapsed().as_secs_f64();
    loop {
        dialog.tick(now());
        if let Some(answer) = dialog.answer() {
            question.send(answer);
            return Ok(Outcome::Answered);
        }
        if question.gone() {
            dialog.refuse(now());
            return Ok(Outcome::Gone);
        }
        screen.show(&dialog.title(), dialog.lines(&question.asker, now()))?;
        match screen.key(POLL)? {
            None => {}
            Some(Key::Quit) => {
                dialog.refuse(now());
                if let Some(answer) = dialog.answer() {
                    question.send(answer);
                }
                return Ok(Outcome::Quit);
            }
            Some(key) => dialog.key(key, now()),
        }
    }
}

/// The first lines of every question: who asks, the tool and, for a target, its alias.
pub fn heading(asker: &str, tool: &str, target: Option<&str>) -> Vec<Line<'static>> {
    let mut names = vec![
        Span::styled(crate::tr!("console-tool"), dim()),
        Span::styled(tool.to_string(), strong()),
    ];
    if let Some(target) = target {
        names.push(Span::styled(
            format!("   {}", crate::tr!("console-target")),
            dim(),
        ));
        names.push(Span::styled(target.to_string(), strong()));
    }
    vec![
        Line::from(crate::tr!("console-asked-by", asker = asker)).style(dim()),
        Line::default(),
        Line::from(names),
    ]
}
