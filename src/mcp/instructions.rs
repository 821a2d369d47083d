//! The `instructions` sent to the agent at initialisation.

pub const INSTRUCTIONS: &str = "\
Torii runs infrastructure CLIs for you under a policy that a human owns. Everything not allowed \
by a rule, a temporary grant or a human approval is denied.

1. Before choosing an operation, call `torii_policy` with the provider tool (and `target`, for \
target-aware tools) to read which argument prefixes are accepted and which are denied.
2. Call a provider tool with `args` as separate items, exactly as you would type them after the \
executable: [\"s3\", \"ls\"], never one item holding a whole command line. For target-aware tools \
set `target` to one of the announced aliases. Put the action first and flags after it \
([\"get\", \"pods\", \"-n\", \"team\"]).
3. Never ask to switch context, profile, account or region, and never send flags that would: the \
alias fixes them and only the human controls them. Do not try other targets to get around a denial.
4. A denied call is final for that form; do not retry variations of it. If an operation is needed, \
ask the human.";
