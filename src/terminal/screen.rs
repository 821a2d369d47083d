//! The terminal the console draws on: raw mode and the alternate screen while it runs, one
//! frame per state, and the keys it reads, through ratatui and crossterm.

use std::io;
use std::path::Path;
use std::time::Duration;

use ratatui::DefaultTerminal;
use ratatui::Frame;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Text};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

/// A key the console acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Key {
    Char(char),
    Enter,
    Esc,
    Left,
    Right,
    Up,
    Down,
    Tab,
    Backspace,
    /// Text pasted into the terminal (bracketed paste), newlines included.
    Paste(String),
    /// Ctrl-C: leave the console.
    Quit,
}

pub struct Screen {
    terminal: DefaultTerminal,
    /// Ctrl-C was pressed where no question was on screen.
    left: bool,
}

impl Screen {
    pub fn open() -> io::Result<Self> {
        let terminal = ratatui::try_init()?;
        // A pasted certificate arrives whole, not as keys (its newlines are not Enter).
        ratatui::crossterm::execute!(
            std::io::stdout(),
            ratatui::crossterm::event::EnableBracketedPaste
        )?;
        Ok(Self {
            terminal,
            left: false,
        })
    }

    /// Gives the terminal back as it was.
    pub fn close(self) {
        let _ = ratatui::crossterm::execute!(
            std::io::stdout(),
            ratatui::crossterm::event::DisableBracketedPaste
        );
        ratatui::restore();
    }

    /// Draws `lines` in a bordered box titled `title`.
    pub fn show(&mut self, title: &str, lines: Vec<Line<'_>>) -> io::Result<()> {
        self.terminal
            .draw(|frame| draw(frame, title, lines))
            .map(|_| ())
    }

    /// The screen between questions, with what happened to the last one when it is worth
    /// saying.
    pub fn waiting(&mut self, root: &Path, notice: Option<&str>) -> io::Result<()> {
        let mut lines = vec![
            Line::from(crate::tr!(
                "console-waiting",
                root = root.display().to_string()
            )),
            Line::default(),
        ];
        if let Some(notice) = notice {
            lines.push(Line::from(notice.to_string()));
            lines.push(Line::default());
        }
        lines.push(Line::from(crate::tr!("console-leave")).style(dim()));
        self.show(&crate::tr!("console-title"), lines)
    }

    /// Whether the human pressed Ctrl-C between questions.
    pub fn left(&self) -> bool {
        self.left
    }

    /// The next key pressed within `wait`, if any.
    pub fn key(&mut self, wait: Duration) -> io::Result<Option<Key>> {
        if !event::poll(wait)? {
            return Ok(None);
        }
        let key = match event::read()? {
            Event::Key(key) => key,
            Event::Paste(text) => return Ok(Some(Key::Paste(text))),
            _ => return Ok(None),
        };
        if key.kind != KeyEventKind::Press {
            return Ok(None);
        }
        Ok(match key.code {
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.left = true;
                Some(Key::Quit)
            }
            KeyCode::Char(c) => Some(Key::Char(c)),
            KeyCode::Enter => Some(Key::Enter),
            KeyCode::Esc => Some(Key::Esc),
            KeyCode::Left => Some(Key::Left),
            KeyCode::Right => Some(Key::Right),
            KeyCode::Up => Some(Key::Up),
            KeyCode::Down => Some(Key::Down),
            KeyCode::Tab => Some(Key::Tab),
            KeyCode::Backspace => Some(Key::Backspace),
            _ => None,
        })
    }
}

fn draw(frame: &mut Frame<'_>, title: &str, lines: Vec<Line<'_>>) {
    let area: Rect = frame.area();
    let block = Block::default().borders(Borders::ALL).title(
        Line::from(format!(" {title} ")).style(Style::default().add_modifier(Modifier::BOLD)),
    );
    frame.render_widget(
        Paragraph::new(Text::from(lines))
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}

pub fn dim() -> Style {
    Style::default().add_modifier(Modifier::DIM)
}

pub fn strong() -> Style {
    Style::default().add_modifier(Modifier::BOLD)
}

/// A minutes field edited with digits and Backspace: the first digit typed replaces what is
/// shown, the next ones add to it.
#[derive(Debug, Default)]
pub struct MinutesInput {
    typing: bool,
}

impl MinutesInput {
    /// The new text of the field after `key`, or `None` when `key` does not edit it (which
    /// ends the typing).
    pub fn key(&mut self, key: &Key, current: &str) -> Option<String> {
        let was_typing = std::mem::replace(&mut self.typing, false);
        let mut text = current.to_string();
        match key {
            Key::Char(digit) if digit.is_ascii_digit() => {
                if !was_typing {
                    text.clear();
                }
                text.push(*digit);
            }
            Key::Backspace => {
                text.pop();
            }
            _ => return None,
        }
        self.typing = true;
        Some(text)
    }
}
