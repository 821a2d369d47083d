//! The human side of a decision no rule made: an unresolved operation, an inactive target
//! alias, a session to collect. Questions go through the prompt protocol to a `torii __prompt`
//! window where a display is usable, else to the `torii console` attached to the config root,
//! if one is; when neither can ask (headless `TORII_NO_GUI` or a build without windows, and no
//! console) the answer is always no: deny, or cancel the collection.

use std::future::Future;
use std::pin::Pin;

use crate::auth::{CollectRequest, Collected, Collector};
use crate::prompt::console::ConsoleAddress;
use crate::prompt::{
    self, Approval, AuthAnswer, AuthRequest, Availability, FieldSpec, Question, ValidatorSpec,
};

/// Where a human answered a question: the audit says which.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// An approval window (or, in a build with test hooks, the scripted human standing in
    /// for one).
    Window,
    /// `torii console`.
    Console,
}

impl Channel {
    /// The audit detail that names it.
    pub fn detail(self) -> &'static str {
        match self {
            Channel::Window => "via=window",
            Channel::Console => "via=console",
        }
    }
}

/// Why a question got no answer: where it was to be asked, and what failed. It means no.
#[derive(Debug)]
pub struct Unasked {
    pub channel: Channel,
    pub reason: String,
}

/// Longest client name shown by the console.
const MAX_CLIENT_NAME: usize = 64;

/// Who can answer, decided once at startup.
#[derive(Debug)]
pub struct Human {
    availability: Availability,
    /// Where a `torii console` of this config root listens, when one is attached.
    console: ConsoleAddress,
    /// `settings.yaml` `approval`.
    approval: Approval,
    /// Whether stderr was told that a window could not be opened: said once per server.
    told_window_failed: std::sync::atomic::AtomicBool,
    /// The MCP client's name, as its `initialize` gave it: the console shows who asks.
    client: std::sync::OnceLock<String>,
    #[cfg(feature = "test-hooks")]
    responder: Option<super::responder::Responder>,
}

impl Human {
    /// From the process environment: `TORII_NO_GUI`, the build's features, and (feature
    /// `test-hooks` only) the test responder; the console address of the config root
    /// `root`, and where `approval` says to ask.
    pub fn from_env(root: &std::path::Path, approval: Approval) -> Self {
        Self {
            availability: prompt::availability(),
            console: ConsoleAddress::of_root(root),
            approval,
            told_window_failed: std::sync::atomic::AtomicBool::new(false),
            client: std::sync::OnceLock::new(),
            #[cfg(feature = "test-hooks")]
            responder: super::responder::Responder::from_env(),
        }
    }

    fn scripted(&self) -> bool {
        #[cfg(feature = "test-hooks")]
        if self.responder.is_some() {
            return true;
        }
        false
    }

    /// Whether a question can reach a human at all.
    pub fn can_ask(&self) -> bool {
        let window = self.availability == Availability::Window;
        self.scripted()
            || match self.approval {
                Approval::Auto => window || self.console.attached(),
                Approval::Window => window,
                Approval::Console => self.console.attached(),
            }
    }

    /// Whether the next question goes to the console: `approval: console`, or (`auto`) one is
    /// attached and no window can be shown here (headless, no display, or a build without
    /// windows).
    fn to_console(&self) -> bool {
        match self.approval {
            Approval::Auto => {
                self.console.attached()
                    && (self.availability != Availability::Window || !prompt::display_present())
            }
            Approval::Window => false,
            Approval::Console => true,
        }
    }

    /// Remembers the MCP client's name (the first one told; a server has one client). The
    /// client chose it: it is shown without control or other deceptive characters, and at most
    /// [`MAX_CLIENT_NAME`] characters.
    pub fn client_is(&self, name: &str) {
        if self.client.get().is_none() {
            // Letters, digits, punctuation but the quote and plain spaces: nothing blank-looking,
            // combining or invisible that could push the server's part out of view, and no
            // quote that could seem to end the name.
            let shown: String = name
                .chars()
                .filter(|c| {
                    (c.is_alphanumeric() && !crate::text::is_deceptive(*c))
                        || (c.is_ascii_punctuation() && *c != '"')
                        || *c == ' '
                })
                .take(MAX_CLIENT_NAME)
                .collect();
            let _ = self.client.set(shown);
        }
    }

    /// Who asks, as the console shows it above a question: this server's process first, then
    /// the name its client gave itself, quoted (the client chose it: it is a claim, not an
    /// identity).
    fn asker(&self) -> String {
        let process = std::process::id();
        match self.client.get().filter(|name| !name.trim().is_empty()) {
            Some(client) => format!("torii server, process {process}, for the client \"{client}\""),
            None => format!("torii server, process {process}"),
        }
    }

    /// Why no human can be asked, worded for the agent (see
    /// [`Availability::unavailable_reason`]), and a static label for the audit.
    pub fn unavailable(&self) -> (&'static str, &'static str) {
        if self.approval == Approval::Console {
            return (
                "no torii console is attached to the config root (settings.yaml approval: console)",
                "no-console",
            );
        }
        let reason = self
            .availability
            .unavailable_reason()
            .unwrap_or("the approval window could not be shown");
        let label = match self.availability {
            Availability::Headless => "headless",
            Availability::NoGuiBuild | Availability::Window => "no-window",
        };
        (reason, label)
    }

    /// Asks `question`; any failure of the window is `Err` and means no. The first failure is
    /// also told on stderr, with how to fix it: otherwise the human only sees calls denied by
    /// nobody.
    pub async fn ask<Q: Question>(&self, question: &Q) -> Result<(Q::Answer, Channel), Unasked> {
        #[cfg(feature = "test-hooks")]
        if let Some(responder) = &self.responder {
            return responder
                .answer(question)
                .map(|answer| (answer, Channel::Window))
                .map_err(|reason| Unasked {
                    channel: Channel::Window,
                    reason,
                });
        }
        if self.to_console() {
            return self
                .console
                .ask(question, &self.asker())
                .await
                .map(|answer| (answer, Channel::Console))
                .map_err(|error| Unasked {
                    channel: Channel::Console,
                    reason: crate::errors::chain(&error),
                });
        }
        prompt::ask(question)
            .await
            .map(|answer| (answer, Channel::Window))
            .map_err(|error| Unasked {
                channel: Channel::Window,
                reason: self.window_failed(&error),
            })
    }

    /// Why a window failed, as text; the first failure of a server is also told on stderr.
    fn window_failed(&self, error: &prompt::PromptError) -> String {
        let reason = crate::errors::chain(error);
        let ordering = std::sync::atomic::Ordering::Relaxed;
        if !self.told_window_failed.swap(true, ordering) {
            // stderr, never stdout: stdout belongs to the MCP protocol.
            eprintln!(
                "torii: an approval window could not be opened ({reason}); every call that \
                 needs a human is denied until one can. Run Torii where it has a display, or set \
                 TORII_NO_GUI=1 so that it stops trying."
            );
        }
        reason
    }
}

impl Collector for Human {
    fn collect<'a>(
        &'a self,
        request: CollectRequest,
    ) -> Pin<Box<dyn Future<Output = Collected> + Send + 'a>> {
        Box::pin(async move {
            #[cfg(feature = "test-hooks")]
            if let Some(responder) = &self.responder {
                return responder
                    .collect(&auth_request(&request), request.validator.as_ref())
                    .await;
            }
            if !self.can_ask() {
                return Collected::Cancelled {
                    refused: 0,
                    reason: self.unavailable().0.to_string(),
                };
            }
            let asked = if self.to_console() {
                self.console
                    .ask(&auth_request(&request), &self.asker())
                    .await
            } else {
                prompt::ask(&auth_request(&request)).await
            };
            match asked {
                Ok(AuthAnswer::Validated { values, refused }) => {
                    Collected::Validated { values, refused }
                }
                Ok(AuthAnswer::Cancelled { refused }) => Collected::Cancelled {
                    refused,
                    reason: "the human cancelled".into(),
                },
                Err(error) => Collected::Cancelled {
                    refused: 0,
                    reason: self.window_failed(&error),
                },
            }
        })
    }
}

/// The authentication window's request: the provider's fields and how to validate a candidate.
pub(super) fn auth_request(request: &CollectRequest) -> AuthRequest {
    AuthRequest {
        tool: request.tool.clone(),
        scope: request.scope.clone(),
        fields: request.fields.iter().map(FieldSpec::from).collect(),
        validator: request.validator.as_ref().map(ValidatorSpec::from),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The client chose its name: shown quoted after the server's process, without anything
    /// that looks blank, combines, hides or breaks the line, and within a bound.
    #[test]
    fn the_client_name_is_a_quoted_claim_of_plain_characters() {
        let human = Human::from_env(std::path::Path::new("/nonexistent"), Approval::Auto);
        human.client_is(
            "Claude\u{3164}\u{2800}\u{0301}\u{202e}Code\n\"x\" (torii server, process 1)",
        );
        human.client_is("second name, ignored");
        let process = std::process::id();
        assert_eq!(
            human.asker(),
            format!(
                "torii server, process {process}, for the client \
                 \"ClaudeCodex (torii server, process 1)\""
            )
        );
        let long = Human::from_env(std::path::Path::new("/nonexistent"), Approval::Auto);
        long.client_is(&"a".repeat(500));
        assert_eq!(
            long.asker(),
            format!(
                "torii server, process {process}, for the client \"{}\"",
                "a".repeat(64)
            )
        );
        let unnamed = Human::from_env(std::path::Path::new("/nonexistent"), Approval::Auto);
        unnamed.client_is(" \u{3164} ");
        assert_eq!(unnamed.asker(), format!("torii server, process {process}"));
    }
}
