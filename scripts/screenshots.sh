#!/usr/bin/env bash
# Screenshots of every window state, for docs/src/gui.md: each window runs natively (eframe,
# OpenGL) under Xvfb and is captured with ImageMagick's `import`.
#
# A build of torii with the test-hooks feature is used: its test driver (TORII_TEST_PROMPT_SCRIPT, see
# src/gui/driver.rs) clicks through the window by label to reach a state, then hands the window
# to the native shell (`"show": true`). The hold-to-confirm state is reached with a real press:
# xdotool holds the mouse button on Add to the set in the native window, and the script checks
# that the window answered Add once the second had passed.
#
# Usage: scripts/screenshots.sh [output dir]   (default: docs/src/images)
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=${1:-docs/src/images}
mkdir -p "$OUT"

need=()
command -v Xvfb >/dev/null || need+=(xvfb)
command -v import >/dev/null || need+=(imagemagick)
command -v xdotool >/dev/null || need+=(xdotool)
if ((${#need[@]})); then
  echo "installing ${need[*]}" >&2
  apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
fi

cargo build --quiet --bin torii --features test-hooks
TORII=$PWD/target/debug/torii

DISPLAY_NUMBER=${SCREENSHOT_DISPLAY:-:97}
Xvfb "$DISPLAY_NUMBER" -screen 0 1280x1000x24 -nolisten tcp >/dev/null 2>&1 &
XVFB=$!
WORK=$(mktemp -d)
trap 'kill "$XVFB" 2>/dev/null || true; rm -rf "$WORK"' EXIT
export DISPLAY=$DISPLAY_NUMBER
sleep 1

# start REQUEST SCRIPT: runs the prompt in the background; sets PROMPT and WINDOW.
start() {
  TORII_TEST_PROMPT_SCRIPT=$2 "$TORII" __prompt <<<"$1" >"$WORK/answer" 2>"$WORK/stderr" &
  PROMPT=$!
  WINDOW=
  for _ in $(seq 1 100); do
    WINDOW=$(xdotool search --name '^Torii' 2>/dev/null | head -1 || true)
    [[ -n $WINDOW ]] && break
    sleep 0.1
  done
  if [[ -z $WINDOW ]]; then
    echo "no window appeared; the prompt said:" >&2
    cat "$WORK/stderr" >&2
    exit 1
  fi
  sleep 1 # a few frames: the window fits its height
}

stop() {
  kill "$PROMPT" 2>/dev/null || true
  wait "$PROMPT" 2>/dev/null || true
}

# shot NAME REQUEST SCRIPT
shot() {
  start "$2" "$3"
  import -window "$WINDOW" "$OUT/$1$SUFFIX.png"
  stop
  echo "$OUT/$1$SUFFIX.png" >&2
}

# The labels the scripts click, in the language being shot (the windows' own catalogues:
# src/language/catalogue).
labels() {
  if [[ $LANGUAGE == pt-BR ]]; then
    SUFFIX=.pt-BR
    L_REVIEWED="Revisei a invocação e o escopo" L_TEMPORARILY=Temporariamente
    L_EXACT="Somente esta invocação exata" L_MORE="Mais fixos" L_NEXT_PAGE="Próxima página"
    L_CHARS=caracteres L_ALLOW=Permitir L_DENY=Negar L_ADD="Adicionar ao conjunto"
    L_VALIDATE="Validar e usar"
  else
    SUFFIX=
    L_REVIEWED="I reviewed the invocation and the scope" L_TEMPORARILY=Temporarily
    L_EXACT=Exact L_MORE="More fixed" L_NEXT_PAGE="Next page" L_CHARS=chars L_ALLOW=Allow
    L_DENY=Deny L_ADD="Add to the set" L_VALIDATE="Validate and use"
  fi
}

# Every state, in one language: English as NAME.png, Brazilian Portuguese as NAME.pt-BR.png.
all_shots() {
LANGUAGE=$1
labels
# ---- operation approval ----

operation() { # ARGS-JSON [OLDEST-SECS]
  printf '{"protocol":2,"language":"%s","request":{"operation":{"tool":"aws","target":null,"args":%s,"default_grant_minutes":2,"oldest_grant_remaining_secs":%s}}}' \
    "$LANGUAGE" "$1" "${2:-null}"
}
DESCRIBE='["ec2","describe-instances","--region","sa-east-1"]'
REVIEWED="{\"click\":\"$L_REVIEWED\"}"

shot operation-once "$(operation "$DESCRIBE")" '{"steps":[],"show":true}'
shot operation-exact "$(operation "$DESCRIBE" 83)" \
  "{\"steps\":[{\"click\":\"$L_TEMPORARILY\"},{\"click\":\"$L_EXACT\"},{\"click\":\"1:23\"}],\"show\":true}"
shot operation-prefix "$(operation "$DESCRIBE")" \
  "{\"steps\":[{\"click\":\"$L_TEMPORARILY\"},$REVIEWED],\"show\":true}"
shot operation-prefix-moved "$(operation "$DESCRIBE")" \
  "{\"steps\":[{\"click\":\"$L_TEMPORARILY\"},{\"click\":\"$L_MORE\"}],\"show\":true}"
LONG=$(printf 'arn:aws:iam::111122223333:policy/%0600d' 7)
shot operation-long-argument "$(operation "[\"iam\",\"get-policy\",\"--policy-arn\",\"$LONG\"]")" \
  "{\"steps\":[{\"click\":\"arn:aws:iam::1…0000000007 · 633 $L_CHARS\"},{\"click\":\"$L_NEXT_PAGE\"}],\"show\":true}"
MANY=$(python3 -c 'import json; print(json.dumps(["s3api","put-object-tagging"]+[f"--tag-{i}=value-{i}" for i in range(160)]))')
shot operation-many-arguments "$(operation "$MANY")" \
  "{\"steps\":[{\"click\":\"$L_TEMPORARILY\"}],\"show\":true}"
shot operation-allowed "$(operation "$DESCRIBE")" \
  "{\"steps\":[{\"click\":\"$L_TEMPORARILY\"},$REVIEWED,{\"click\":\"$L_ALLOW\"}],\"show\":true,\"linger_secs\":30}"
shot operation-denied "$(operation "$DESCRIBE")" \
  "{\"steps\":[{\"click\":\"$L_DENY\"}],\"show\":true,\"linger_secs\":30}"

# ---- target lease ----

lease() { # ACTIVE-JSON
  printf '{"protocol":2,"language":"%s","request":{"target_lease":{"tool":"kubectl","alias":"dev","binding":"context mdb-k8s-dev","active_aliases":%s,"default_minutes":15}}}' "$LANGUAGE" "$1"
}
shot lease-none-active "$(lease '[]')" '{"steps":[],"show":true}'
shot lease-others-active "$(lease '["hml","lab"]')" '{"steps":[],"show":true}'

# A real press on Add to the set: half a second in, the progress is drawn in the button; past
# one second the window answers Add.
start "$(lease '["hml","lab"]')" "{\"steps\":[],\"show\":true,\"report\":[\"$L_ADD\"]}"
read -r x y w h < <(grep -P "^rect\t$L_ADD\t" "$WORK/stderr" | cut -f3-6 | tr '\t' ' ')
cx=$(python3 -c "print(int($x + $w / 2))")
cy=$(python3 -c "print(int($y + $h / 2))")
xdotool mousemove --window "$WINDOW" "$cx" "$cy" mousedown 1
sleep 0.5
import -window "$WINDOW" "$OUT/lease-holding$SUFFIX.png"
echo "$OUT/lease-holding$SUFFIX.png" >&2
sleep 1
xdotool mouseup 1
wait "$PROMPT" || true
if ! grep -q '"add":{"minutes":15}' "$WORK/answer"; then
  echo "a one-second press on Add to the set did not answer Add: $(cat "$WORK/answer")" >&2
  exit 1
fi

shot lease-added "$(lease '[]')" "{\"steps\":[{\"click\":\"$L_ADD\"}],\"show\":true,\"linger_secs\":30}"

# ---- authentication ----

field() { # NAME LABEL SECRET MULTILINE
  printf '{"name":"%s","label":"%s","secret":%s,"required":true,"multiline":%s}' "$1" "$2" "$3" "$4"
}
auth() { # FIELDS-JSON VALIDATOR-JSON
  printf '{"protocol":2,"language":"%s","request":{"authenticate":{"tool":"aws","scope":"aws","fields":%s,"validator":%s}}}' "$LANGUAGE" "$1" "$2"
}
ONE="[$(field API_TOKEN 'API token' true false)]"
FOUR="[$(field AWS_ACCESS_KEY_ID 'Access key ID' false false),$(field AWS_SECRET_ACCESS_KEY 'Secret access key' true false),$(field AWS_REGION 'Region' false false),$(field AWS_SESSION_TOKEN 'Session token' true true)]"
validator() { # SHELL-SCRIPT
  printf '{"program":"/bin/sh","args":["-c","%s"],"base_env":[],"inject":[["API_TOKEN","API_TOKEN"]],"removed_env":[],"confine_root":"%s","confine_programs":[],"confinement":"best-effort"}' "$1" "$WORK/root"
}

shot auth-one-field "$(auth "$ONE" null)" '{"steps":[],"show":true}'
shot auth-four-fields "$(auth "$FOUR" null)" '{"steps":[],"show":true}'
shot auth-required "$(auth "$FOUR" null)" "{\"steps\":[{\"click\":\"$L_VALIDATE\"}],\"show\":true}"
shot auth-validating "$(auth "$ONE" "$(validator 'sleep 5')")" \
  "{\"steps\":[{\"fill\":{\"label\":\"API token\",\"text\":\"candidate\"}},{\"click\":\"$L_VALIDATE\"}],\"show\":true}"
shot auth-refused "$(auth "$ONE" "$(validator 'exit 1')")" \
  "{\"steps\":[{\"fill\":{\"label\":\"API token\",\"text\":\"wrong\"}},{\"click\":\"$L_VALIDATE\"},{\"wait_until_enabled\":\"$L_VALIDATE\"}],\"show\":true}"
shot auth-validated "$(auth "$ONE" "$(validator 'exit 0')")" \
  "{\"steps\":[{\"fill\":{\"label\":\"API token\",\"text\":\"right\"}},{\"click\":\"$L_VALIDATE\"}],\"show\":true,\"linger_secs\":30}"

}

all_shots en
all_shots pt-BR

