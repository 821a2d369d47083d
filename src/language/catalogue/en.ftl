# Torii's human side in English. Every key here is in pt-BR.ftl too, with the same
# arguments, and is used by the code (src/language/tests.rs checks both).

## Shared by the windows

action-deny = Deny
access-denied = Access denied.
duration-label = Duration
duration-invalid = Enter whole minutes from 1 to 1440.
duration-unit = min
duration-minutes = { $minutes } min
duration-seconds = { $seconds } s
duration-minutes-seconds = { $minutes } min { $seconds } s
pill-empty = "" (empty)
pill-shortened = { $start }…{ $end } · { $chars } chars
future-arguments = + any arguments added later

## The operation approval window

op-title = Torii: approve a call to { $tool }
op-heading = { $tool } wants to run a call no rule decides
op-tool = Tool
op-target = · Target
op-fixed = Fixed ({ $count })
op-fixed-hint = must match exactly, in this order
op-variable = Variable ({ $count })
op-variable-hint = may change, vanish or be added
op-exact-group = Exact invocation ({ $count ->
        [one] { $count } argument
       *[other] { $count } arguments
    })
op-exact-hint = same tokens, same order, nothing more
op-arguments = Arguments ({ $count })
op-shortened-hover = Shortened: click to read the whole argument in pages
op-review-header = Argument { $index } of { $total } · { $chars } characters · page { $page } of { $pages }
op-previous-page = Previous page
op-next-page = Next page
op-close-review = Close review
op-access = Access
op-once = Once
op-temporarily = Temporarily
op-scope = Scope
op-exact = Exact
op-prefix = Prefix
op-suggested = A prefix of { $tokens } tokens is suggested.
op-restore = Restore suggestion
op-boundary = Boundary
op-fewer = Fewer fixed
op-more = More fixed
op-fixed-of = { $fixed } of { $total } tokens fixed
op-no-suggestion = No boundary is suggested: no option follows at least two tokens.
op-suggestion-reason = Suggested from the shape of the call: the { $tokens } tokens before `{ $option }`, its first option. This is not a guess at what the operation does; move the boundary if needed.
op-end-with-oldest = End together with the oldest active grant in this scope
op-grant-expired = The grant to end with has expired; choose a duration.
op-reviewed-with-target = I reviewed the invocation, the target and the scope
op-reviewed = I reviewed the invocation and the scope
op-allow = Allow
op-allowed-once = 👍 Access allowed once.
op-allowed-for = 👍 Access allowed for { $duration }.
op-on-target = { $tool } (target { $target })
op-summary-once = Allow once: this exact call on { $on } runs now; nothing is kept.
op-for = for { $duration }
op-until-oldest = until the oldest active grant ends, in { $duration }
op-summary-exact = Allow { $how_long }: calls on { $on } with exactly these { $count } arguments, in this order, and nothing more.
op-summary-prefix = Allow { $how_long }: any call on { $on } whose first { $count } arguments are { $tokens }; later arguments may change, vanish or be added.
op-status-tick = Allow is disabled until you tick the review box.
op-status-reviewed = Reviewed: Allow grants exactly what the summary says.

## The target lease window

lease-title = Torii: activate target { $alias } of { $tool }
lease-heading = { $tool } wants to use target { $alias }
lease-explainer = A lease lets calls use this binding for a while; the policy still decides every operation.
lease-requested = Requested
lease-minutes-range = min (1 to 1440)
lease-active-now = Active now ({ $count })
lease-none-active = no target of { $tool } is active
lease-replace = Replace all active
lease-add = Add to the set
lease-alert = Add keeps { $others } active too: the agent may then choose any active alias for the operations the policy allows. Hold Add to the set for 1 second to confirm.
lease-replaced = 👍 { $alias } is now the only active target, for { $minutes } min.
lease-added = 👍 { $alias } added to the active targets, for { $minutes } min.
lease-status-others = Replace makes { $alias } the only active target; Add keeps the others.
lease-status-alone = Activate { $alias } for this duration, or deny.

## The authentication window

auth-title = Torii: sign in to { $tool }
auth-heading = { $tool } needs a session
auth-explainer = Credentials for { $scope }. They are checked before use and stored only for this scope.
auth-required = required
auth-optional = optional
auth-validate = Validate and use
auth-cancel = Cancel
auth-paste = Paste from clipboard
auth-paste-hover = Reads export KEY=value, SET KEY=value, $Env:KEY=value or KEY=value lines and fills the fields they name
auth-status-fill = Fill in the fields, then Validate and use.
auth-status-no-validator = No validator for this provider: the values are used as entered.
auth-clipboard-unreadable = Cannot read the clipboard: { $error }
auth-clipboard-empty = The clipboard has no KEY=value line for a field of this form.
auth-filled = Filled { $count ->
        [one] { $count } field
       *[other] { $count } fields
    } from the clipboard: { $names }.
auth-missing = Required: { $names }.
auth-validating = Validating the session…
auth-refused = Session refused ({ $reason }): check the values.
auth-cancelled = Authentication cancelled.
auth-validated = 👍 Session validated.
auth-accepted = 👍 Values accepted.

## The control-plane CLI (stderr, and the doctor's report)

cli-init-created = created { $path }
cli-init-exists = { $path } already exists; left unchanged
cli-target-restart = restart the MCP server so the tool's `target` list changes (activation needs no restart)
cli-target-created = created target `{ $alias }` of `{ $tool }`; it starts inactive: grant a lease with `torii target activate { $tool } { $alias }`; { $restart }
cli-target-removed = removed target `{ $alias }` of `{ $tool }` and revoked its lease; { $restart }
cli-target-none = no targets configured for `{ $tool }`; create one with `torii target add { $tool } <ALIAS> …`
cli-lease-several = warning: { $count } aliases of `{ $tool }` are active ({ $aliases }); the agent may choose any of them for allowed operations
cli-lease-in-effect = in effect now; the MCP server needs no restart
cli-lease-none = no active leases for `{ $tool }`
cli-lease-many = { $count } aliases are active: the agent may choose any of them for allowed operations
cli-lease-cleared = cleared every lease of `{ $tool }` ({ $path }); targets, rules, grants, .env, sessions and running processes are untouched
cli-provider-installed = installed { $name } { $version } (tool { $tool }) from { $origin } into { $dir }
cli-provider-empty-policy = its policy is empty: nothing the agent sends is allowed by rules until you write one
cli-provider-setup-hint = to apply the curated setup: torii provider setup { $name } { $setup }
cli-provider-restart = restart the MCP server to publish the new tool
cli-provider-applied = applied setup { $setup } to { $path }: { $deny } deny, { $accept } accept rules, { $examples } examples
cli-provider-review = review it with `torii policy show`; no restart is needed
cli-provider-upgraded = upgraded { $name } from { $from } to { $to } ({ $origin }); rules, .env, grants, targets and sessions were not touched
cli-policy-ignored = warning: accept { $rule } has fewer than minimum_accept_tokens ({ $minimum }) tokens and is ignored
cli-policy-written = { $created ->
        [yes] created
       *[no] updated
    } { $path }; the next call reads it, no restart needed
cli-policy-unchanged = no changes; { $path } { $created ->
        [yes] not created
       *[no] left as it was
    }
cli-agent-restart = Restart { $client } to load the change.
cli-upgrade-available = torii { $current } is installed; { $latest } is available (torii self upgrade)
cli-upgrade-current = torii { $current } is up to date (latest release { $latest })
cli-upgrade-already = already up to date: torii { $current } (latest release { $latest })
cli-upgrade-done = upgraded torii { $current } to { $latest } at { $path }; the config root was not touched. Restart your MCP clients: a running client keeps the old binary until then.
cli-upgrade-kept = The replaced executable stays as { $path } while it runs; the next torii self upgrade removes it.
doctor-ok = ok
doctor-warning = warning
doctor-problem = problem
doctor-fix = fix: { $fix }
