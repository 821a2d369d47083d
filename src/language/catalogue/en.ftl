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
op-summary-exact = Allow { $how_long }: calls on { $on } with exactly { $count ->
        [one] this argument
       *[other] these { $count } arguments
    }, in this order, and nothing more.
op-summary-prefix = Allow { $how_long }: any call on { $on } whose { $count ->
        [one] first argument is
       *[other] first { $count } arguments are
    } { $tokens }; later arguments may change, vanish or be added.
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
lease-alert = { $count ->
       *[other] Add keeps { $others } active too: the agent may then choose any active alias for the operations the policy allows. Hold Add to the set for 1 second to confirm.
    }
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
auth-missing = { $count ->
       *[other] Required: { $names }.
    }
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
cli-provider-signed = signed by key { $key }, which this torii trusts
cli-provider-unsigned = not signed; settings.yaml allows unsigned packages (unsigned_packages: allow)
cli-search-unsigned = { $location } is not signed
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
cli-upgrade-done = upgraded torii { $current } to { $latest } at { $path }, which says: { $says }; the config root was not touched. Restart your MCP clients: a running client keeps the old binary until then.
cli-upgrade-kept = The replaced executable stays as { $path } while it runs; the next torii self upgrade removes it.
doctor-ok = ok
doctor-warning = warning
doctor-problem = problem
doctor-fix = fix: { $fix }
doctor-no-root = the config root { $path } does not exist
doctor-no-root-fix = torii init (or set TORII_CONFIG_DIR to the root your clients use)
doctor-root = config root { $path }
doctor-fix-file = fix { $path }
doctor-and-more = and { $count } more
doctor-no-torii-on-path = no torii on PATH (this one is { $exe }, { $version }); clients are pinned to a full path, but a shell will not find the command
doctor-no-torii-on-path-fix = add { $dir } to PATH (see the installation page)
doctor-torii-on-path = torii on PATH is { $path } ({ $version })
doctor-release-build = this torii was built as release { $tag }, whose archive is published with a signed checksum
doctor-local-build = this torii is a local build, not a release archive checked against a signed checksum
doctor-no-release-key = this torii trusts no release key: `torii self upgrade` refuses every release
doctor-no-release-key-fix = a build of the project's releases trusts its key once the key exists (see the installation page, "Release keys")
doctor-version-unknown = version unknown
doctor-not-run = not run: { $why }
doctor-other-torii = the torii on PATH is { $path } ({ $theirs }), not this one ({ $exe }, { $version })
doctor-other-torii-fix = remove the other copy, or put the directory you install into first on PATH
doctor-why-unresolved = it cannot be resolved
doctor-why-no-cwd = the current directory is unknown
doctor-why-under-cwd = it is under the current directory
doctor-why-unreadable = it cannot be read
doctor-why-writable = it or its directory is writable by other users
doctor-confined = provider children are confined ({ $mechanism })
doctor-confined-namespace = provider children run in a mount namespace of their own, where the config root is hidden and read-only and the directories above it take new entries (a CLI's first ~/.kube)
doctor-confined-cannot-create = a confined provider child cannot create new files or directories directly in { $dirs } (what is already there stays usable): a CLI whose first run creates its directory there (~/.kube, ~/.azure, ~/.config/gcloud) needs it made once outside Torii, for example by running that CLI in a terminal
doctor-unconfined = provider children cannot be confined here ({ $reason }): they could read and write the config root
doctor-unconfined-fix = use a kernel with Landlock (Linux 5.13 or later, enabled in the LSM list)
doctor-required-unenforced = `child_confinement: required` cannot be enforced here ({ $reason }): no provider command will start
doctor-required-unenforced-fix = use a kernel with Landlock, or set `child_confinement: best-effort` in settings.yaml
doctor-headless = { $variable } is set: no window opens, and calls no rule decides are denied
doctor-no-gui-build = this build has no approval windows: calls no rule decides are denied
doctor-no-gui-build-fix = install a release build (built with the `gui` feature)
doctor-windows-can-open = approval windows can open ({ $display })
doctor-no-display = no display (neither DISPLAY nor WAYLAND_DISPLAY is set here): approval windows cannot open, and calls no rule decides will be refused
doctor-no-display-fix = run the MCP client in a desktop session, answer in a terminal with `torii console`, or reinstall its entry with `torii agent install <agent> --headless` ({ $variable }=1) to decide by rules alone
doctor-console-attached = a torii console is attached to this root: questions no rule decides go there while no window can open
doctor-desktop-session = the desktop session
doctor-permissions-unchecked = permissions are not checked on this system (the config root is under the user profile)
doctor-foreign-owner = owned by another user, who can change it: { $paths }
doctor-writable = writable by other users, who could change the policy: { $paths }
doctor-secret-readable = readable by other users, and may hold credentials or state: { $paths }
doctor-readable = readable by other users (Torii makes everything owner-only): { $paths }
doctor-unreadable = cannot be read: { $paths }
doctor-unreadable-fix = check the owner and permissions of these paths
doctor-permissions-stopped = stopped checking permissions after { $entries } entries or { $depth } levels
doctor-permissions-stopped-fix = remove what is not Torii's from the config root
doctor-owner-only = config root is owner-only ({ $entries } entries)
doctor-registry-fix = fix or remove the file named above; the server does not start until then
doctor-no-providers-fix = torii provider install <package> (see the official providers page)
doctor-runs = { $tool }: runs { $path }
doctor-package-signed = { $tool }: package { $version } signed by key { $key }
doctor-package-key-untrusted = { $tool }: package { $version } was signed by key { $key }, which this torii no longer trusts
doctor-package-key-untrusted-fix = if you still trust its publisher, put their key back in package_keys in settings.yaml; otherwise reinstall the provider from a source you trust
doctor-package-unsigned = { $tool }: package { $version } from { $origin } is not signed: nothing but your own review vouches for it
doctor-package-unsigned-fix = review { $content }, or install it again from a signed archive or catalog; unsigned_packages: refuse in settings.yaml allows only signed ones
doctor-package-lock = { $tool }: { $error }
doctor-package-lock-fix = fix the file named above, or remove it to manage the provider by hand (only provider list, doctor and upgrade read it)
doctor-command-missing-fix = install `{ $name }`, or put its directory on the PATH the MCP client starts torii with
doctor-policy-missing = { $whose }: { $path } does not exist: every call is denied
doctor-policy-invalid = { $whose }: { $error }: every call is denied
doctor-examples-fail = { $whose }: { $failed } of { $total } examples in { $path } fail
doctor-policy-valid = { $count ->
        [0] { $whose }: { $path } is valid (it has no examples)
        [1] { $whose }: { $path } is valid and its example passes
       *[other] { $whose }: { $path } is valid and its { $count } examples pass
    }
doctor-agent-fix-file = fix the file named, then torii agent status { $agent }
doctor-no-agents = no agent integration is installed from this config root
doctor-no-agents-fix = torii agent install <agent> (torii agent list names them)
doctor-agent-exe-gone = { $name }: { $file } starts { $exe }, which does not exist
doctor-agent-other-exe = { $name }: { $file } starts { $exe }, not this torii ({ $this })
doctor-agent-reinstall-fix = { $command } with the torii the client should run
doctor-agent-other-root = { $name }: { $file } pins another config root
doctor-agent-preexisting = { $name }: { $file } has a torii entry for this torii (not managed by torii)
doctor-agent-no-entry = { $name }: { $file } has no torii entry
doctor-agent-no-hook = { $name }: no shell hook (the agent's shell can run provider executables)
agent-hook-coverage = the hook guards { $tools }; it cannot see inside scripts, interpreters' code or other MCP servers' tools
agent-hook-coverage-shell-only = the hook guards { $tools } (the shell) only: { $client }'s file tools, scripts, interpreters' code and other MCP servers' tools are not seen
doctor-agent-hook = { $name }: shell hook in { $file }
doctor-agent-hook-stale = { $name }: the shell hook in { $file } runs another torii or config root
doctor-agent-hook-removed = { $name }: the shell hook was removed from { $file }
doctor-agent-hook-exe-gone = { $name }: the shell hook in { $file } runs { $exe }, which does not exist: the client runs no hook, and nothing keeps providers' programs out of its shell
agent-hook-blocks = in the agent's shell the hook blocks { $programs }: the agent runs them through Torii's tools
agent-hook-blocks-nothing = no installed provider has a program for the hook to block yet
agent-hook-agent-work = agents commonly run { $programs } for their own work (commits, builds, packages): with the hook, { $client } runs them only through Torii's tools. To leave them to its shell, remove their providers or use the MCP entry without --hook
agent-hook-agent-work-fix = torii provider list
doctor-agent-trusted = { $name }: Codex trusts the hook
doctor-agent-untrusted = { $name }: Codex does not trust the hook where it is now, and skips it
doctor-agent-cargo = { $name }: { $file } starts a cargo build ({ $exe }), which `cargo build` replaces and `cargo clean` deletes
doctor-agent-cargo-fix = install a release, then torii agent install { $name } with it
doctor-agent-starts = { $name }: { $file } starts { $exe }
cli-doctor-problems = doctor found { $count ->
        [one] { $count } problem
       *[other] { $count } problems
    }
cli-unknown-provider = no installed provider { $key } (installed: { $installed })
cli-not-target-aware = { $tool } is not target-aware, so it has no target { $alias }
cli-unknown-target = { $tool } has no target { $alias } (configured: { $configured })
cli-target-activate-needs-terminal = `torii target activate` grants the agent access to a target, so only a person at a terminal may run it: its standard input is not a terminal (an agent's shell tool, a pipe or a script). Run it yourself in a terminal.
cli-target-unknown-tool = <TOOL>: no installed provider publishes the tool `{ $tool }` (see `torii provider list`)
cli-target-not-target-aware = <TOOL>: `{ $tool }` is not target-aware: { $config } has no field `targeting`
cli-target-unknown-alias = <ALIAS>: `{ $tool }` has no target `{ $alias }` (see `torii target list { $tool }`)
cli-target-exists = `{ $tool }` already has a target `{ $alias }` ({ $config }); remove it first with `torii target remove { $tool } { $alias } --force`
cli-policy-editor = cannot run the editor { $program }
cli-policy-examples-fail = { $failed } of { $total } examples fail in { $path }
cli-unknown-agent = unknown agent `{ $name }`: expected one of { $known }
cli-pi-needs-yes = pi: no terminal to confirm on; run again with --yes (nothing was written)
cli-nothing-written = nothing was written
cli-cannot-create = cannot create { $path }
cli-no-exe = cannot find this executable
cli-cannot-remove = cannot remove { $path }
agent-added = added { $place }
agent-already-installed = already installed: { $place }
agent-updated = updated { $place }
agent-preexisting = already present, not managed by torii (uninstall leaves it): { $place }
agent-nothing-to-remove = nothing to remove: torii manages no { $client } integration (no { $state })
agent-nothing-of-kind = nothing to remove: torii manages no { $hook ->
        [yes] hook
       *[no] content
    } for { $client }
agent-kept = kept, still used by other content: { $place }
agent-removed = removed { $place }
agent-already-gone = already gone: { $place }
standing-managed = managed by torii
standing-managed-stale = managed by torii, pins another executable or config root (install again to update)
standing-changed = written by torii and changed since (uninstall will stop on it)
standing-missing = written by torii and since removed
standing-preexisting-same = pre-existing entry, not managed by torii
standing-preexisting = pre-existing entry that differs from torii's, not managed
standing-absent = not installed
standing-trusted = Codex trusts the hook
standing-untrusted = Codex does not trust the hook where it is now and skips it (install --hook again)
cli-agent-pi-warning = warning: pi does not speak MCP itself. { $file } is read only by an MCP extension you installed in pi ({ $extensions }); without one the file is ignored and nothing works. If you do not know which extension that is, stop here.
cli-agent-pi-confirm = Write the torii entry for pi's MCP extension?
cli-agent-cargo-warning = warning: this torii runs from a cargo build ({ $exe }); the client will start that binary, which `cargo build` replaces and `cargo clean` deletes. Prefer an installed release.
cli-agent-hook-note = The hook blocks direct shell calls to installed providers' executables: it reduces accidental bypass and is not a sandbox.
cli-agent-hook-no-registry = warning: the installed providers cannot be loaded ({ $reason }): until that is fixed the hook denies every shell command
cli-agent-codex-trust = Codex runs only hooks it trusts: the hook's trust is recorded in Codex's config.toml ([hooks.state]). It names the hook's position in hooks.json; after editing that file, run this command again.
cli-agent-no-hook = { $client } has no shell hook: its agent can still run provider executables in its own shell. Use the client's sandbox and least-privilege credentials.
confirm-choices = [y/N]
upgrade-bad-tag = the latest release is { $tag }, which is not a tag of the form vX.Y.Z
upgrade-no-platform = there is no release archive for this platform; build from source
upgrade-bad-checksum-file = { $asset }.sha256 does not describe { $asset }
upgrade-mismatch = the SHA-256 of { $asset } does not match { $asset }.sha256; the binary was not changed
upgrade-unsigned = the release of { $asset } carries no signature ({ $asset }.sha256.minisig: { $reason }); the binary was not changed
upgrade-bad-signature = { $asset }.sha256 is not signed by a release key this torii trusts; the binary was not changed
upgrade-new-does-not-run = the new executable at { $path } does not run ({ $reason }); reinstall torii with install.sh
upgrade-no-executable = { $asset } holds no { $entry }
upgrade-archive = cannot read { $asset }: { $reason }
upgrade-replace = cannot replace { $path }
cli-target-flag-required = { $flag }: required for `{ $mode }` targets (tool `{ $tool }`)
cli-target-unfaithful = { $path }: the values given cannot be written to YAML faithfully; nothing was written
cli-target-force = --force: removing `{ $alias }` deletes { $dir } with its target.yaml, rules.yaml, .env and grants; repeat with --force to do it
package-unknown-source = { $arg } is not an existing path, an https:// URL or a valid catalog name (see `torii provider search`)
package-unknown-builtin = this torii has no built-in package `{ $name }` (it has { $known }); install it from a path, a URL or the catalog
package-not-in-catalog = { $name } is not in the catalog { $catalog }
package-exists = { $path } already exists; install never replaces an installed provider (to change its version use `torii provider upgrade { $name }`)
package-unknown-setup = package { $package } has no setup { $setup } (available: { $available })
package-policy-not-empty = { $path } is not empty ({ $deny } deny, { $accept } accept, { $examples } examples); setup only writes over an empty policy. Review it with `torii policy show { $tool }` and empty it first if you want the setup
cli-search-none = no providers in { $location }
cli-search-none-matching = no providers matching { $query } in { $location }
cli-provider-narrow = warning: accept { $rule } is narrower than minimum_accept_tokens and is ignored
cli-provider-environment-changed = the package's environment example changed; compare it with your .env: { $path }
cli-provider-restart-load = restart the MCP server to load the new provider.yaml
cli-policy-rejected = the draft was rejected: { $reason }
cli-policy-reopen = Reopen the editor to fix it?
cli-policy-resuming = resuming the draft kept from an earlier edit: { $path } (delete it to start again from the live policy)
cli-reauth-done = session of `{ $tool }` renewed and validated
cli-cannot-read = cannot read { $path }
agent-hook-unsupported = { $client } has no event before its shell runs, so --hook is not supported for `{ $name }` (nothing was written)
agent-trust-unsupported = --trust is for Gemini CLI, whose entry says whether it asks before each tool call; { $client } has no such setting in its entry
agent-other-root = { $file } holds the `torii` entry of another config root, { $other } (nothing was written). To move it, and its hook, to this root, answer yes in a terminal or run `torii agent install { $agent } --yes`
agent-switch-confirm = Move this client's torii entry (and its hook) from { $other } to this config root?
agent-switched-root = moved from the config root { $other }, which no longer manages this client
agent-opencode-jsonc = { $path } already exists: Torii writes only opencode.json, and opencode merges both files (nothing was written); add the entry to opencode.jsonc by hand, or move the configuration to opencode.json
agent-conflict = { $file } already has a different `torii` MCP server at { $place } (nothing was written); remove or rename it first
agent-setting = { $file }: { $place } is { $found }, and the hook needs { $needed } (nothing was written); change it by hand if you want the hook
agent-changed-since = { $file }: { $place } was changed since `torii agent install` wrote it, so it is yours now (nothing was written); edit or remove it by hand
agent-foreign-record = { $state }: records { $place } in { $file }, which is not a place where torii writes for { $client } now (nothing was written); set the same location variables as at install, or remove the record
agent-hard-links = { $path }: has { $links } hard links, and Torii replaces a file by renaming a new one over it, which would leave the other names with the old content; edit it by hand
agent-owner = cannot give { $path } back to its owner
agent-state-invalid = { $path }: not a Torii agent state file
agent-no-home = cannot find the home directory: HOME is not set
agent-no-appdata = cannot find VS Code's user profile: APPDATA is not set (or set TORII_COPILOT_HOME)
agent-bad-json = not valid JSON: { $reason }
agent-bad-toml = not valid TOML: { $reason }
agent-top-not-object = the top level is not an object
agent-duplicate-key = the key `{ $key }` appears twice; the client reads only one of them, so Torii will not guess
cli-agent-not-utf8 = { $path } is not valid UTF-8, and a client's configuration can only name it as text (nothing was written)
cli-policy-no-own = target { $alias } of { $tool } has no policy of its own; it uses { $shared }. Pass --create to create { $own }, which then replaces the shared policy for this alias
cli-policy-editor-failed = the editor { $program } exited with { $status }; { $live } was not changed and the draft is kept at { $draft }
cli-policy-draft-kept = { $live } was not changed; the rejected draft is kept at { $draft }
cli-policy-changed-meanwhile = { $live } changed while you were editing, so it was not replaced; your draft is kept at { $draft }
cli-target-context-not-found = --context: `{ $command }` did not find the context (exit code { $code }): { $reason }; nothing was written
cli-cannot-write = cannot write { $path }
package-not-https = refusing { $location }: packages and catalogs are only downloaded over https://
package-bad-url = { $location }: invalid URL: { $reason }
package-download = cannot download { $url }: { $reason }
package-too-large = { $location }: larger than { $limit } bytes
package-digest-mismatch = sha256 mismatch for { $location }: the catalog lists { $expected }, the download is { $actual }; nothing was extracted
package-unknown-key = { $location } is signed by key { $key }, which this torii does not trust; if you trust its publisher, add their public key to package_keys in { $settings }. Nothing was changed
package-bad-signature = { $signature } does not match { $location } (key { $key }): the file or its signature was changed after signing. Nothing was changed
package-malformed-signature = { $signature } is not a minisign signature (truncated or damaged). Nothing was changed
package-unsigned-refused = { $location } carries no signature, and { $settings } refuses unsigned packages (unsigned_packages: refuse). Nothing was changed
package-upgrade-unsigned = { $name } was installed signed by key { $key }, but { $location } carries no signature; the upgrade is refused. Nothing was changed
package-legacy-signature = { $signature } is a minisign signature in the legacy form (minisign -S -l), which is not accepted: sign the file again without -l. Nothing was changed
package-upgrade-key-changed = { $name } was installed signed by key { $recorded }, but { $location } is signed by key { $key }; the upgrade is refused. If the publisher changed keys, run it again with --accept-key { $key }. Nothing was changed
package-not-packaged = provider { $name } was not installed from a package ({ $path } is missing), so it has no { $what ->
        [setups] setups
       *[origin] recorded origin to upgrade from
    }
package-upgrade-changes = { $location }: upgrade would change `{ $field }` from { $old } to { $new }; refused (install it as a separate provider instead)
auth-validator-exit = the validator exited with code { $code }
auth-validator-timeout = the validator did not finish within { $seconds } seconds
auth-validator-not-started = cannot start the validator: { $why }
auth-validator-cancelled = the validation was cancelled
auth-validator-stopped = the validation stopped unexpectedly
demo-title = Torii demo
demo-root = throwaway config root { $path } with one provider, `git`, and a read-only policy
demo-audit = Audit log (torii.log): decisions and exit codes, never output or secrets
demo-own-client = Use it with your own MCP client
demo-next-install = an official package, built into torii (also aws, az, snow, …)
demo-next-setup = its curated read-only policy
demo-next-agent = Torii in your agent (or codex, gemini, cursor, … : torii agent list)
demo-headless-note = nobody could be asked, so the approval interface denied in the human's place: the agent reads source human-deny, the audit says denied-interface
demo-step-list = The agent lists tools: one per provider, plus the read-only torii_policy
demo-step-policy = It reads the policy before choosing an operation
demo-step-accepted = An accepted call runs git, without a shell
demo-step-denied = An explicitly denied call (also listed in accept: deny wins)
demo-step-unresolved = A call no rule decides, in headless mode (TORII_NO_GUI=1)
demo-rule = (rule `{ $rule }`)
demo-decision = decision { $verdict } by { $source }{ $rule }
demo-no-process = no process started: the result has no `execution`
demo-message = message to the agent: { $message }
cli-policy-locked-hint = the target alias fixes the context, identity and endpoint: the server refuses this flag before it reads the policy
cli-policy-unresolved-hint = no rule decides this call: at call time an active grant or a human decides, else it is denied
cli-policy-ignored-match = note: accept { $rule } would match but is ignored (fewer than minimum_accept_tokens tokens)
cli-lease-activated = { $alias } active until { $until } ({ $minutes } min)

console-title = Torii console
console-waiting = Waiting for questions from the Torii servers of { $root }. They come here while no approval window can open.
console-leave = q or Ctrl-C: leave (a question on screen is denied first)
console-asked-by = asked by { $asker }
console-tool = tool:{" "}
console-target = target:{" "}
console-args = the call, token by token:
console-once-key = once (o)
console-temporary-key = temporarily (t)
console-exact-key = this exact call (e)
console-prefix-key = calls that start with the first { $tokens } tokens (p; ← → to change, s to restore the suggestion)
console-minutes = for { $minutes } minutes (type the number; Backspace erases)
console-end-with-oldest = until the oldest grant in this scope ends (w)
console-review-key = (space)
console-op-keys = Enter: allow as shown   d or Esc: deny
console-gone = The last question was withdrawn: the call was cancelled or its server ended.
console-no-root = the config root { $root } does not exist (run `torii init`)
console-already-attached = a console is already attached to { $root }; use that one
console-cannot-listen = cannot listen on { $path }
console-cannot-write-token = cannot write the console's token { $path }
console-no-terminal = the console needs a terminal (run it in a terminal window, a tmux pane or an SSH session)
console-binding = binding: { $binding }
console-no-active = no other alias of this tool is active
console-active = active now: { $aliases }
console-lease-minutes = for { $minutes } minutes (type the number; Backspace erases)
console-type-alias = Add leaves several aliases active: type `{ $alias }` and Enter to confirm (Esc goes back)
console-lease-keys = r: replace the active aliases   a: add to them   d or Esc: deny
console-secret-set = (typed, hidden)
console-lines = { $count } lines (paste to fill)
console-auth-keys = type into the field marked ▶ (Tab or ↑ ↓ to move; paste works)   Enter: validate and use   Esc: cancel
console-lease-alert = { $count ->
       *[other] Add keeps { $others } active too: the agent may then choose any active alias for the operations the policy allows. Add asks you to type `{ $alias }` to confirm.
    }

## torii audit verify
audit-unreadable = cannot read the audit log { $path }
audit-mid-chain = problem: the first line of { $file } does not start a chain: it was edited, lines before it were removed, or the log was rotated (give the rotated files, oldest first, or --continued when the oldest are gone)
audit-too-long = problem: { $file } line { $line } is longer than any line Torii writes
audit-changed = the audit log was changed: { $count ->
        [one] { $count } place
       *[other] { $count } places
    }
audit-lines = { $count ->
        [one] { $count } line checked
       *[other] { $count } lines checked
    }
audit-broken = problem: { $file } line { $line } does not follow the line before it: it was edited, or a line before it was removed, inserted or moved
audit-unchained = problem: { $file } line { $line } has no chain value: it was not written by Torii, or its value was removed
audit-head-mismatch = problem: the log ends before the chain's head ({ $head }): lines were removed from its end, or the head was replaced
audit-head-missing = problem: the chain's head ({ $head }) is missing
audit-whole = the chain is whole

## doctor: audit export
doctor-audit-export = audit events are also sent to { $destination }
doctor-audit-export-fix = set audit_otlp_endpoint or the OTEL_EXPORTER_OTLP_* variables as the Teams page describes
doctor-audit-dropped = audit export to { $kind } dropped { $count ->
        [one] { $count } record
       *[other] { $count } records
    }, the last at { $when }: { $error }
doctor-audit-dropped-fix = make the destination reachable; every event is still in torii.log. Delete { $path } to reset the count

## doctor: the administrator's layer
doctor-admin = administrator's layer { $path }: deny rules for { $providers }; locked settings: { $settings }
doctor-admin-broken-fix = an administrator must correct the file named above; until then the server answers every call with this error
doctor-admin-writable = { $path } can be changed by someone other than root, who could loosen what the administrator's layer denies
doctor-admin-writable-fix = an administrator: chown -R root { $path } && chmod -R go-w { $path }
