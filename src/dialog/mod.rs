//! The questions Torii asks the human, without any drawing: what is selected, what Allow
//! would grant, the decision and its feedback. A window (`crate::gui`, feature `gui`) draws
//! them; nothing here depends on a toolkit.
//!
//! Files: `operation.rs` (an unresolved call), `lease.rs` (an inactive target alias),
//! `auth.rs` (credentials to collect), `validator.rs` (validating a candidate off the drawing
//! thread), `clipboard.rs` (the form's paste), `feedback.rs` (the decision and status line
//! every question shares), `duration.rs`, `hold.rs` (hold-to-confirm), `pills.rs` (how a token
//! is shown).

pub mod auth;
pub mod clipboard;
pub mod duration;
pub mod feedback;
pub mod hold;
pub mod lease;
pub mod operation;
pub mod pills;
pub mod validator;
