//! A session to collect, asked at the terminal with the window's own state
//! (`crate::dialog::auth`): the provider's fields (secrets never shown, not even their
//! length), "validate and use" with the provider's validator, its refusal shown and the form
//! given back, and Cancel.

use std::io;
use std::time::Instant;

use ratatui::text::{Line, Span};

use super::listener::{Outcome, POLL, Question};
use super::screen::{Key, Screen, dim, strong};
use crate::dialog::auth::AuthState;
use crate::dialog::feedback::Status;
use crate::prompt::{Answer, AuthRequest};

/// Asks `request` until the human decides, the server goes away or the human leaves.
pub fn ask(question: Question, request: AuthRequest, screen: &mut Screen) -> io::Result<Outcome> {
    let start = Instant::now();
    let now = || start.elapsed().as_secs_f64();
    let mut state = AuthState::new(request);
    let mut field = 0;
    loop {
        state.poll(now());
        if let Some(decided) = state.decided() {
            question.send(Answer::Authenticate(decided.answer.clone()));
            return Ok(Outcome::Answered);
        }
        if question.gone() {
            state.cancel(now());
            return Ok(Outcome::Gone);
        }
        screen.show(
            &crate::tr!("auth-title", tool = state.request().tool.as_str()),
            lines(&question.asker, &state, field),
        )?;
        let Some(key) = screen.key(POLL)? else {
            continue;
        };
        let count = state.request().fields.len();
        let at = now();
        match key {
            Key::Quit => {
                state.cancel(at);
                if let Some(decided) = state.decided() {
                    question.send(Answer::Authenticate(decided.answer.clone()));
                }
                return Ok(Outcome::Quit);
            }
            Key::Esc => state.cancel(at),
            Key::Enter => state.validate(at, || {}),
            Key::Tab | Key::Down if count > 0 => field = (field + 1) % count,
            Key::Up if count > 0 => field = (field + count - 1) % count,
            Key::Char(c) => edit(&mut state, field, |value| value.push(c)),
            Key::Paste(text) => edit(&mut state, field, |value| value.push_str(&text)),
            Key::Backspace => edit(&mut state, field, |value| {
                value.pop();
            }),
            _ => {}
        }
    }
}

/// Changes the value of field `index`, as long as the form is editable.
fn edit(state: &mut AuthState, index: usize, change: impl FnOnce(&mut String)) {
    let Some(mut value) = state.values().get(index).cloned() else {
        return;
    };
    change(&mut value);
    state.set_value(index, value);
}

fn lines<'a>(asker: &str, state: &AuthState, selected: usize) -> Vec<Line<'a>> {
    let request = state.request();
    let mut lines = vec![
        Line::from(crate::tr!("console-asked-by", asker = asker)).style(dim()),
        Line::default(),
        Line::from(vec![
            Span::styled(crate::tr!("console-tool"), dim()),
            Span::styled(request.tool.clone(), strong()),
        ]),
        Line::default(),
    ];
    for (index, (spec, value)) in request.fields.iter().zip(state.values()).enumerate() {
        let marker = if index == selected { "▶ " } else { "  " };
        let shown = if spec.secret {
            // Not even the length: only whether something was typed.
            if value.is_empty() {
                String::new()
            } else {
                crate::tr!("console-secret-set")
            }
        } else if spec.multiline {
            crate::tr!("console-lines", count = value.lines().count())
        } else {
            value.clone()
        };
        let required = if spec.required { " *" } else { "" };
        lines.push(Line::from(vec![
            Span::raw(marker.to_string()),
            Span::styled(format!("{}{required}: ", spec.label), strong()),
            Span::raw(shown),
        ]));
    }
    lines.push(Line::default());
    let (text, style) = match state.status() {
        Status::Info(text) | Status::Progress(text) => (text.clone(), Default::default()),
        Status::Error(text) => (text.clone(), strong()),
        Status::Done(feedback) => (feedback.text.clone(), strong()),
    };
    lines.push(Line::from(text).style(style));
    lines.push(Line::default());
    lines.push(Line::from(crate::tr!("console-auth-keys")).style(dim()));
    lines
}
