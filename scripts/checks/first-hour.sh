#!/usr/bin/env bash
# A newcomer's first hour on a clean clone, for the record: clones this repository's HEAD into a
# temp folder and shows what each of four first-hour troubles now says.
#
#   1. npm ci against a registry mirror without decap-cms: the install passes, with one warning,
#      and the CMS page says how to fetch the bundle.
#   2. A SESSION_SECRET under 32 characters: npm start refuses to start and names it; a request
#      run through the login handler answers 500 and its log line names it.
#   3. A port in use: npm run serve names the port and how to choose another.
#   4. The admin login over http://localhost: its Set-Cookie has neither Secure nor __Host-.
#
#   npm run check:first-hour        (about 5 minutes: an npm ci and a build)
#
# Every step has a time limit; what it started is stopped and the folder removed when it ends.
set -euo pipefail

ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
HEAD=$(git -C "$ROOT" rev-parse HEAD)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/first-hour-XXXXXX")
SITE="$WORK/site"
STARTED=()

cleanup() {
  for pid in "${STARTED[@]}"; do
    # Each was started in a process group of its own: the group goes, children included.
    kill -TERM -- "-$pid" 2>/dev/null || true
  done
  for pid in "${STARTED[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT

say() { printf '\n== %s\n' "$*"; }
# A command's output, indented, and its exit code; the script goes on whatever the code.
show() {
  local code=0
  "$@" > "$WORK/out" 2>&1 || code=$?
  grep -v 'Unknown \(user\|env\) config' "$WORK/out" | sed 's/^/   | /' || true
  echo "   exit code: $code"
}
free_port() {
  node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });"
}
# Starts a command in a process group of its own, its output into a file; its pid in STARTED_PID.
start() {
  local log=$1
  shift
  setsid "$@" > "$log" 2>&1 < /dev/null &
  STARTED_PID=$!
  STARTED+=("$STARTED_PID")
}
wait_for() {
  local log=$1 text=$2 seconds=$3
  for _ in $(seq $((seconds * 10))); do
    grep -q "$text" "$log" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "   (gave up after ${seconds} s waiting for \"$text\")"
  return 1
}
# The environment of a clean machine: nothing of this shell's own settings reaches the clone.
CLEAN=(env -u SESSION_SECRET -u ADMIN_PASSWORD -u ADMIN_PASSWORD_HASH -u UPSTASH_REDIS_REST_URL
  -u UPSTASH_REDIS_REST_TOKEN -u LOCAL_STORE_DIR -u PORT -u HOST -u SITE_LOCAL_RUN)
PASSWORD=first-hour-password

say "Clone of $HEAD into a temp folder"
git clone --quiet --no-hardlinks "$ROOT" "$SITE"
git -C "$SITE" checkout --quiet --detach "$HEAD"
cd "$SITE"

say "1. npm ci through a registry mirror that has no decap-cms"
start "$WORK/registry.log" node "$ROOT/scripts/harness/fake-registry.ts" decap-cms
wait_for "$WORK/registry.log" '^http' 20
REGISTRY=$(head -1 "$WORK/registry.log")
echo "   registry: $REGISTRY (everything but decap-cms comes from registry.npmjs.org)"
show "${CLEAN[@]}" npm_config_registry="$REGISTRY" timeout 900 npm ci --no-audit --no-fund --loglevel=error
echo "   the CMS bundle: $(ls public/admin/cms/decap 2>/dev/null | wc -l) files in public/admin/cms/decap"

say "2. SESSION_SECRET under 32 characters"
echo "   npm start:"
show "${CLEAN[@]}" SESSION_SECRET=too-short-secret ADMIN_PASSWORD=$PASSWORD timeout 120 npm start --silent
echo "   the same request through the login handler (what the function log says on Netlify):"
LOGIN_ONCE="
  import { createContext, importBundled } from './scripts/harness/functions.ts';
  const { default: login } = await importBundled(process.cwd(), 'functions/admin-login.ts');
  const request = new Request('http://localhost:4321/api/admin/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: '$PASSWORD' }),
  });
  const response = await login(request, createContext({ ip: '127.0.0.1' }));
  console.log('answer:', response.status, await response.text());
"
show "${CLEAN[@]}" SITE_LOCAL_RUN=true LOCAL_STORE_DIR="$WORK/data" SESSION_SECRET=too-short-secret \
  ADMIN_PASSWORD=$PASSWORD timeout 120 node --input-type=module -e "$LOGIN_ONCE"

say "Build (npm run build), for the server below, through the same registry"
# The build fetches a missing CMS bundle too (Netlify skips npm install on a cached build), so it
# goes through the same mirror: it warns again and builds the page that says how to fetch it.
BUILD=0
npm_config_registry="$REGISTRY" timeout 900 npm run build --silent > "$WORK/build.log" 2>&1 || BUILD=$?
echo "   exit code: $BUILD; $(grep -o '[0-9]* page(s) built in [0-9.]*m\?s' "$WORK/build.log" | tail -1)"
grep '^warning: could not fetch the CMS bundle' "$WORK/build.log" | sed 's/^/   | /' || true
echo "   the CMS page says: $(grep -o '<h1>[^<]*</h1>' dist/admin/cms/index.html || echo '(no heading)')"
grep -o 'run <code>npm run cms:vendor</code>[^.;]*' dist/admin/cms/index.html | sed 's/^/   /' || true

say "3. A port in use"
PORT_TAKEN=$(free_port)
start "$WORK/blocker.log" node -e "require('node:net').createServer().listen($PORT_TAKEN, 'localhost', () => console.log('listening'))"
wait_for "$WORK/blocker.log" listening 10
echo "   another program holds port $PORT_TAKEN; npm run serve:"
show "${CLEAN[@]}" PORT="$PORT_TAKEN" timeout 120 npm run serve --silent

say "4. The admin login over http://localhost"
PORT_FREE=$(free_port)
start "$WORK/server.log" "${CLEAN[@]}" PORT="$PORT_FREE" LOCAL_STORE_DIR="$WORK/data" \
  SESSION_SECRET="$(node -e "console.log(require('node:crypto').randomBytes(30).toString('base64url'))")" \
  ADMIN_PASSWORD=$PASSWORD npm run serve --silent
SERVER_PID=$STARTED_PID
wait_for "$WORK/server.log" 'Serving' 120
echo "   $(grep 'Serving' "$WORK/server.log")"
curl --silent --show-error --max-time 30 --output "$WORK/login.txt" --dump-header "$WORK/login.headers" \
  -X POST "http://localhost:$PORT_FREE/api/admin/login" \
  -H 'content-type: application/json' --data "{\"password\":\"$PASSWORD\"}"
echo "   $(head -1 "$WORK/login.headers" | tr -d '\r')"
# The signature is cut short: it is a live session's.
grep -i '^set-cookie:' "$WORK/login.headers" | tr -d '\r' | sed -E 's/=([A-Za-z0-9_-]{8})[^;]*/=\1…/; s/^/   /'
echo "   GET /admin/cms/: $(curl --silent --max-time 30 "http://localhost:$PORT_FREE/admin/cms/" | grep -o '<h1>[^<]*</h1>')"
kill -TERM -- "-$SERVER_PID" 2>/dev/null || true

say "Done: the server and the fake registry are stopped and the temp folder removed on exit"
