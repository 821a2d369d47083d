//! An unresolved call, asked at the terminal with the window's own state
//! (`crate::dialog::operation`): the same choices, the same review tick, the same answer.

use std::io;
use std::time::Instant;

use ratatui::text::{Line, Span};

use super::listener::{Outcome, POLL, Question};
use super::screen::{Key, MinutesInput, Screen, dim, strong};
use crate::dialog::operation::{DurationChoice, Lifetime, OperationState, ScopeKind};
use crate::dialog::pills::pill_text;
use crate::prompt::{Answer, OperationRequest};

/// Asks `request` until the human decides, the server goes away or the human leaves.
pub fn ask(
    question: Question,
    request: OperationRequest,
    screen: &mut Screen,
) -> io::Result<Outcome> {
    let start = Instant::now();
    let now = || start.elapsed().as_secs_f64();
    let mut state = OperationState::new(request, now());
    let mut minutes = MinutesInput::default();
    loop {
        if let Some(decided) = state.decided() {
            question.send(Answer::Operation(decided.answer));
            return Ok(Outcome::Answered);
        }
        if question.gone() {
            return Ok(Outcome::Gone);
        }
        screen.show(
            &crate::tr!("op-title", tool = state.request().tool.as_str()),
            lines(&question.asker, &state, now()),
        )?;
        let Some(key) = screen.key(POLL)? else {
            continue;
        };
        let at = now();
        if let Some(text) = minutes.key(&key, state.minutes_text()) {
            state.set_minutes_text(text);
            continue;
        }
        match key {
            Key::Quit => {
                state.deny(at);
                if let Some(decided) = state.decided() {
                    question.send(Answer::Operation(decided.answer));
                }
                return Ok(Outcome::Quit);
            }
            Key::Esc | Key::Char('d') => state.deny(at),
            Key::Enter => state.allow(at),
            Key::Char('o') => state.set_lifetime(Lifetime::Once),
            Key::Char('t') => state.set_lifetime(Lifetime::Temporary),
            Key::Char('e') => state.set_scope(ScopeKind::Exact),
            Key::Char('p') => state.set_scope(ScopeKind::Prefix),
            Key::Left => state.set_prefix_tokens(state.prefix_tokens().saturating_sub(1)),
            Key::Right => state.set_prefix_tokens(state.prefix_tokens() + 1),
            Key::Char('s') => state.restore_suggestion(),
            Key::Char('w') => state.end_with_oldest(),
            Key::Char(' ') => state.set_reviewed(!state.reviewed()),
            Key::Char(_) | Key::Up | Key::Down | Key::Tab | Key::Paste(_) | Key::Backspace => {}
        }
    }
}

/// The question as lines: who asks, the call as tokens, the choices with their keys, what
/// Allow would grant and what is missing.
fn lines<'a>(asker: &str, state: &OperationState, now: f64) -> Vec<Line<'a>> {
    let request = state.request();
    let mut lines = vec![
        Line::from(crate::tr!("console-asked-by", asker = asker)).style(dim()),
        Line::default(),
        Line::from(vec![
            Span::styled(crate::tr!("console-tool"), dim()),
            Span::styled(request.tool.clone(), strong()),
        ]),
    ];
    if let Some(target) = &request.target {
        lines.push(Line::from(vec![
            Span::styled(crate::tr!("console-target"), dim()),
            Span::styled(target.clone(), strong()),
        ]));
    }
    let tokens: Vec<Span<'a>> = request
        .args
        .iter()
        .enumerate()
        .flat_map(|(index, token)| {
            let style = if index < state.prefix_tokens()
                && state.lifetime() == Lifetime::Temporary
                && state.scope() == ScopeKind::Prefix
            {
                strong()
            } else {
                Default::default()
            };
            [
                Span::styled(format!("[{}] ", index + 1), dim()),
                Span::styled(format!("{}  ", pill_text(token)), style),
            ]
        })
        .collect();
    lines.push(Line::from(crate::tr!("console-args")).style(dim()));
    lines.push(Line::from(tokens));
    lines.push(Line::default());
    let mark = |on: bool| if on { "(•)" } else { "( )" };
    lines.push(Line::from(format!(
        "{} {}   {} {}",
        mark(state.lifetime() == Lifetime::Once),
        crate::tr!("console-once-key"),
        mark(state.lifetime() == Lifetime::Temporary),
        crate::tr!("console-temporary-key"),
    )));
    if state.lifetime() == Lifetime::Temporary {
        lines.push(Line::from(format!(
            "    {} {}   {} {}",
            mark(state.scope() == ScopeKind::Exact),
            crate::tr!("console-exact-key"),
            mark(state.scope() == ScopeKind::Prefix),
            crate::tr!("console-prefix-key", tokens = state.prefix_tokens()),
        )));
        if let Some(suggestion) = state.suggestion() {
            lines.push(Line::from(format!("    {}", suggestion.reason())).style(dim()));
        }
        let duration = match state.duration_choice() {
            DurationChoice::Minutes => {
                crate::tr!(
                    "console-minutes",
                    minutes = state.minutes_text().to_string()
                )
            }
            DurationChoice::EndWithOldest => crate::tr!("console-end-with-oldest"),
        };
        lines.push(Line::from(format!("    {duration}")));
    }
    lines.push(Line::default());
    lines.push(Line::from(vec![
        Span::raw(format!("{} ", if state.reviewed() { "[x]" } else { "[ ]" })),
        Span::raw(state.reviewed_label().text()),
        Span::styled(format!("  {}", crate::tr!("console-review-key")), dim()),
    ]));
    lines.push(Line::from(state.summary(now)).style(strong()));
    lines.push(Line::from(state.status(now)));
    lines.push(Line::default());
    lines.push(Line::from(crate::tr!("console-op-keys")).style(dim()));
    lines
}
