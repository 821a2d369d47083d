//! An inactive target alias, asked at the terminal with the window's own state
//! (`crate::dialog::lease`): the requested binding, the active aliases, the duration, and
//! Replace, Add or Deny. Where the window asks to hold Add for a second because it would leave
//! several aliases active, the console asks the human to type the alias.

use std::io;
use std::time::Instant;

use ratatui::text::{Line, Span};

use super::listener::{Outcome, POLL, Question};
use super::screen::{Key, MinutesInput, Screen, dim, strong};
use crate::dialog::lease::LeaseState;
use crate::prompt::{Answer, LeaseRequest};

/// Asks `request` until the human decides, the server goes away or the human leaves.
pub fn ask(question: Question, request: LeaseRequest, screen: &mut Screen) -> io::Result<Outcome> {
    let start = Instant::now();
    let now = || start.elapsed().as_secs_f64();
    let mut state = LeaseState::new(request);
    let mut minutes = MinutesInput::default();
    // The alias typed to confirm Add, while it is being typed.
    let mut confirming: Option<String> = None;
    loop {
        if let Some(decided) = state.decided() {
            question.send(Answer::TargetLease(decided.answer));
            return Ok(Outcome::Answered);
        }
        if question.gone() {
            return Ok(Outcome::Gone);
        }
        screen.show(
            &crate::tr!(
                "lease-title",
                alias = state.request().alias.as_str(),
                tool = state.request().tool.as_str()
            ),
            lines(&question.asker, &state, confirming.as_deref()),
        )?;
        let Some(key) = screen.key(POLL)? else {
            continue;
        };
        let at = now();
        if let Some(typed) = confirming.as_mut() {
            match key {
                Key::Char(c) => typed.push(c),
                Key::Backspace => {
                    typed.pop();
                }
                Key::Enter => {
                    state.add_typed(typed, at);
                    confirming = None;
                }
                Key::Esc => confirming = None,
                Key::Quit => {
                    state.deny(at);
                    if let Some(decided) = state.decided() {
                        question.send(Answer::TargetLease(decided.answer));
                    }
                    return Ok(Outcome::Quit);
                }
                Key::Paste(text) => typed.push_str(text.trim()),
                Key::Left | Key::Right | Key::Up | Key::Down | Key::Tab => {}
            }
            continue;
        }
        if let Some(text) = minutes.key(&key, state.minutes_text()) {
            state.set_minutes_text(text);
            continue;
        }
        match key {
            Key::Quit => {
                state.deny(at);
                if let Some(decided) = state.decided() {
                    question.send(Answer::TargetLease(decided.answer));
                }
                return Ok(Outcome::Quit);
            }
            Key::Esc | Key::Char('d') => state.deny(at),
            Key::Char('r') => state.replace(at),
            Key::Char('a') if state.add_needs_hold() && state.actions_enabled() => {
                confirming = Some(String::new());
            }
            Key::Char('a') if state.add_needs_hold() => {}
            Key::Char('a') => state.add_clicked(at),
            _ => {}
        }
    }
}

fn lines<'a>(asker: &str, state: &LeaseState, confirming: Option<&str>) -> Vec<Line<'a>> {
    let request = state.request();
    let mut lines = vec![
        Line::from(crate::tr!("console-asked-by", asker = asker)).style(dim()),
        Line::default(),
        Line::from(vec![
            Span::styled(crate::tr!("console-tool"), dim()),
            Span::styled(request.tool.clone(), strong()),
            Span::styled(format!("   {}", crate::tr!("console-target")), dim()),
            Span::styled(request.alias.clone(), strong()),
        ]),
        Line::from(crate::tr!(
            "console-binding",
            binding = request.binding.as_str()
        )),
    ];
    let others = state.others();
    lines.push(Line::from(if others.is_empty() {
        crate::tr!("console-no-active")
    } else {
        crate::tr!("console-active", aliases = others.join(", "))
    }));
    lines.push(Line::from(crate::tr!(
        "console-lease-minutes",
        minutes = state.minutes_text().to_string()
    )));
    // The window's alert asks for a hold; here Add asks for the alias typed.
    if !others.is_empty() {
        lines.push(Line::default());
        lines.push(
            Line::from(crate::tr!(
                "console-lease-alert",
                count = others.len(),
                others = others.join(", "),
                alias = request.alias.as_str()
            ))
            .style(strong()),
        );
    }
    lines.push(Line::default());
    lines.push(Line::from(match state.status() {
        Ok(status) | Err(status) => status,
    }));
    lines.push(Line::default());
    match confirming {
        Some(typed) => {
            lines.push(Line::from(crate::tr!(
                "console-type-alias",
                alias = request.alias.as_str()
            )));
            lines.push(Line::from(format!("> {typed}")).style(strong()));
        }
        None => lines.push(Line::from(crate::tr!("console-lease-keys")).style(dim())),
    }
    lines
}
