//! The operation approval window: an unresolved call, shown as token pills, with Deny, Allow
//! once and Allow temporarily (exact or prefix, for a duration).
//!
//! `crate::dialog::operation` decides; this file only draws the state and forwards clicks to it.

use crate::dialog::operation::{DurationChoice, Lifetime, Review, ScopeKind};
pub use crate::dialog::operation::{OperationState, labels};

use eframe::egui::{self, RichText, TextEdit, Ui};

use super::widgets::{self, PillKind, Status};
use super::window::Window;
use crate::dialog::{duration, pills};
use crate::prompt::{Answer, OperationAnswer, OperationRequest};

/// The window around an [`OperationState`].
pub struct OperationWindow {
    state: Option<OperationState>,
    request: OperationRequest,
}

impl OperationWindow {
    pub fn new(request: OperationRequest) -> Self {
        Self {
            state: None,
            request,
        }
    }
}

impl Window for OperationWindow {
    fn title(&self) -> String {
        crate::tr!("op-title", tool = self.request.tool.as_str())
    }

    fn ui(&mut self, ui: &mut Ui, now: f64) -> f32 {
        let request = &self.request;
        let state = self
            .state
            .get_or_insert_with(|| OperationState::new(request.clone(), now));
        if state.duration_choice() == DurationChoice::EndWithOldest
            || state.request().oldest_grant_remaining_secs.is_some()
        {
            // The remaining-time button counts down.
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(250));
        }
        let mut edits = Vec::new();
        let shown = &*state;
        let height = widgets::skeleton(
            ui,
            &mut edits,
            |ui, edits| body(ui, shown, edits),
            |ui, edits| controls(ui, shown, now, edits),
            |ui, edits| footer(ui, shown, now, edits),
        );
        if !edits.is_empty() {
            // Input is applied after drawing; draw again at once so no frame shows the old state.
            ui.ctx().request_discard("input changed the window");
        }
        for edit in edits {
            edit.apply(state, now);
        }
        height
    }

    fn decided(&self) -> Option<(Answer, f64)> {
        let decided = self.state.as_ref()?.decided()?;
        Some((Answer::Operation(decided.answer), decided.at))
    }

    fn closed(&self) -> Answer {
        Answer::Operation(OperationAnswer::Deny)
    }
}

/// A click or edit, applied after drawing so the frame draws one consistent state.
enum Edit {
    Lifetime(Lifetime),
    Scope(ScopeKind),
    PrefixTokens(usize),
    Restore,
    MinutesText(String),
    Preset(u64),
    EndWithOldest,
    Reviewed(bool),
    OpenReview(usize),
    TurnPage(bool),
    CloseReview,
    Deny,
    Allow,
}

impl Edit {
    fn apply(self, state: &mut OperationState, now: f64) {
        match self {
            Edit::Lifetime(lifetime) => state.set_lifetime(lifetime),
            Edit::Scope(scope) => state.set_scope(scope),
            Edit::PrefixTokens(tokens) => state.set_prefix_tokens(tokens),
            Edit::Restore => state.restore_suggestion(),
            Edit::MinutesText(text) => state.set_minutes_text(text),
            Edit::Preset(minutes) => state.preset(minutes),
            Edit::EndWithOldest => state.end_with_oldest(),
            Edit::Reviewed(reviewed) => state.set_reviewed(reviewed),
            Edit::OpenReview(index) => state.open_review(index),
            Edit::TurnPage(forward) => state.turn_page(forward),
            Edit::CloseReview => state.close_review(),
            Edit::Deny => state.deny(now),
            Edit::Allow => state.allow(now),
        }
    }
}

/// Header, the arguments (grouped when editing a prefix) and the review of a long argument.
fn body(ui: &mut Ui, state: &OperationState, edits: &mut Vec<Edit>) {
    let request = state.request();
    ui.heading(crate::tr!("op-heading", tool = request.tool.as_str()));
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(crate::tr!("op-tool")).weak());
        ui.label(RichText::new(&request.tool).monospace().strong());
        if let Some(target) = &request.target {
            ui.label(RichText::new(crate::tr!("op-target")).weak());
            ui.label(RichText::new(target).monospace().strong());
        }
    });
    ui.add_space(6.0);
    let args = state.args();
    let temporary = state.lifetime() == Lifetime::Temporary;
    if temporary && state.scope() == ScopeKind::Prefix {
        let fixed = state.prefix_tokens();
        widgets::group_title(
            ui,
            &crate::tr!("op-fixed", count = fixed),
            &crate::tr!("op-fixed-hint"),
        );
        pill_row(ui, args, 0..fixed, PillKind::Fixed, edits);
        widgets::group_title(
            ui,
            &crate::tr!("op-variable", count = args.len() - fixed),
            &crate::tr!("op-variable-hint"),
        );
        ui.horizontal_wrapped(|ui| {
            pills_into(ui, args, fixed..args.len(), PillKind::Variable, edits);
            widgets::future_arguments_marker(ui);
        });
    } else if temporary {
        widgets::group_title(
            ui,
            &crate::tr!("op-exact-group", count = args.len()),
            &crate::tr!("op-exact-hint"),
        );
        pill_row(ui, args, 0..args.len(), PillKind::Fixed, edits);
    } else {
        widgets::group_title(ui, &crate::tr!("op-arguments", count = args.len()), "");
        pill_row(ui, args, 0..args.len(), PillKind::Plain, edits);
    }
    if let Some(review) = state.review() {
        review_pane(ui, args, review, edits);
    }
}

fn pill_row(
    ui: &mut Ui,
    args: &[String],
    range: std::ops::Range<usize>,
    kind: PillKind,
    edits: &mut Vec<Edit>,
) {
    ui.horizontal_wrapped(|ui| pills_into(ui, args, range, kind, edits));
}

fn pills_into(
    ui: &mut Ui,
    args: &[String],
    range: std::ops::Range<usize>,
    kind: PillKind,
    edits: &mut Vec<Edit>,
) {
    for (index, token) in args.iter().enumerate().take(range.end).skip(range.start) {
        let long = pills::is_long(token);
        let hover = long.then(|| crate::tr!("op-shortened-hover"));
        if widgets::pill(ui, &pills::pill_text(token), kind, hover.as_deref()) && long {
            edits.push(Edit::OpenReview(index));
        }
    }
}

fn review_pane(ui: &mut Ui, args: &[String], review: Review, edits: &mut Vec<Edit>) {
    let Some(token) = args.get(review.index) else {
        return;
    };
    let pages = pills::page_count(token);
    ui.add_space(6.0);
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.label(
            RichText::new(crate::tr!(
                "op-review-header",
                index = review.index + 1,
                total = args.len(),
                chars = token.chars().count(),
                page = review.page + 1,
                pages = pages
            ))
            .strong(),
        );
        ui.label(RichText::new(pills::page(token, review.page)).monospace());
        ui.horizontal(|ui| {
            if ui
                .add_enabled(
                    review.page > 0,
                    egui::Button::new(labels::PREVIOUS_PAGE.text()),
                )
                .clicked()
            {
                edits.push(Edit::TurnPage(false));
            }
            if ui
                .add_enabled(
                    review.page + 1 < pages,
                    egui::Button::new(labels::NEXT_PAGE.text()),
                )
                .clicked()
            {
                edits.push(Edit::TurnPage(true));
            }
            if ui.button(labels::CLOSE_REVIEW.text()).clicked() {
                edits.push(Edit::CloseReview);
            }
        });
    });
}

/// Lifetime, scope, boundary and duration: pinned above the footer.
fn controls(ui: &mut Ui, state: &OperationState, now: f64, edits: &mut Vec<Edit>) {
    let enabled = state.decided().is_none();
    ui.add_enabled_ui(enabled, |ui| {
        ui.horizontal(|ui| {
            ui.label(RichText::new(crate::tr!("op-access")).strong());
            if ui
                .radio(state.lifetime() == Lifetime::Once, labels::ONCE.text())
                .clicked()
            {
                edits.push(Edit::Lifetime(Lifetime::Once));
            }
            if ui
                .radio(
                    state.lifetime() == Lifetime::Temporary,
                    labels::TEMPORARILY.text(),
                )
                .clicked()
            {
                edits.push(Edit::Lifetime(Lifetime::Temporary));
            }
        });
        if state.lifetime() == Lifetime::Once {
            return;
        }
        ui.horizontal(|ui| {
            ui.label(RichText::new(crate::tr!("op-scope")).strong());
            if ui
                .radio(state.scope() == ScopeKind::Exact, labels::EXACT.text())
                .clicked()
            {
                edits.push(Edit::Scope(ScopeKind::Exact));
            }
            if ui
                .radio(state.scope() == ScopeKind::Prefix, labels::PREFIX.text())
                .clicked()
            {
                edits.push(Edit::Scope(ScopeKind::Prefix));
            }
        });
        if state.scope() == ScopeKind::Prefix {
            prefix_controls(ui, state, edits);
        } else if let Some(suggestion) = state.suggestion() {
            ui.horizontal_wrapped(|ui| {
                ui.label(
                    RichText::new(crate::tr!("op-suggested", tokens = suggestion.tokens)).weak(),
                );
                if ui.button(labels::RESTORE.text()).clicked() {
                    edits.push(Edit::Restore);
                }
            });
        }
        duration_controls(ui, state, now, edits);
    });
}

fn prefix_controls(ui: &mut Ui, state: &OperationState, edits: &mut Vec<Edit>) {
    let len = state.args().len();
    let fixed = state.prefix_tokens();
    ui.horizontal(|ui| {
        ui.label(crate::tr!("op-boundary"));
        if ui
            .add_enabled(fixed > 1, egui::Button::new(labels::FEWER.text()))
            .clicked()
        {
            edits.push(Edit::PrefixTokens(fixed - 1));
        }
        ui.label(RichText::new(crate::tr!("op-fixed-of", fixed = fixed, total = len)).strong());
        if ui
            .add_enabled(fixed < len, egui::Button::new(labels::MORE.text()))
            .clicked()
        {
            edits.push(Edit::PrefixTokens(fixed + 1));
        }
        if state.can_restore_suggestion() && ui.button(labels::RESTORE.text()).clicked() {
            edits.push(Edit::Restore);
        }
    });
    if let Some(suggestion) = state.suggestion() {
        ui.label(RichText::new(suggestion.reason()).weak());
    } else {
        ui.label(RichText::new(crate::tr!("op-no-suggestion")).weak());
    }
}

fn duration_controls(ui: &mut Ui, state: &OperationState, now: f64, edits: &mut Vec<Edit>) {
    ui.horizontal_wrapped(|ui| {
        let label = ui.label(RichText::new(labels::DURATION.text()).strong());
        if let Some(left) = state.oldest_remaining(now) {
            let selected = state.duration_choice() == DurationChoice::EndWithOldest;
            if ui
                .add(egui::Button::new(duration::clock(left)).selected(selected))
                .on_hover_text(crate::tr!("op-end-with-oldest"))
                .clicked()
            {
                edits.push(Edit::EndWithOldest);
            }
        }
        let mut text = state.minutes_text().to_string();
        let field = ui
            .add(
                TextEdit::singleline(&mut text)
                    .desired_width(44.0)
                    .char_limit(5),
            )
            .labelled_by(label.id);
        if field.changed() {
            edits.push(Edit::MinutesText(text));
        }
        ui.label(crate::tr!("duration-unit"));
        for minutes in state.presets() {
            let selected = state.duration_choice() == DurationChoice::Minutes
                && duration::parse_minutes(state.minutes_text()) == Ok(minutes);
            if ui
                .add(egui::Button::new(duration::minutes(minutes)).selected(selected))
                .clicked()
            {
                edits.push(Edit::Preset(minutes));
            }
        }
    });
}

/// Summary, review tick, actions and the status or feedback bar.
fn footer(ui: &mut Ui, state: &OperationState, now: f64, edits: &mut Vec<Edit>) {
    widgets::summary(ui, &state.summary(now));
    ui.add_space(4.0);
    let mut reviewed = state.reviewed();
    let undecided = state.decided().is_none();
    if ui
        .add_enabled(
            undecided,
            egui::Checkbox::new(&mut reviewed, state.reviewed_label().text()),
        )
        .changed()
    {
        edits.push(Edit::Reviewed(reviewed));
    }
    widgets::actions(ui, |ui| {
        if ui
            .add_enabled(
                state.allow_enabled(now),
                egui::Button::new(labels::ALLOW.text()),
            )
            .clicked()
        {
            edits.push(Edit::Allow);
        }
        if ui
            .add_enabled(undecided, egui::Button::new(labels::DENY.text()))
            .clicked()
        {
            edits.push(Edit::Deny);
        }
    });
    let status = match state.decided() {
        Some(decided) => Status::Done(decided.feedback.clone()),
        None => Status::Info(state.status(now)),
    };
    widgets::status_bar(ui, &status);
}
