#!/usr/bin/env bash
# The production path, checked: in a scratch clone of this checkout's HEAD, install, build, drop the
# dev dependencies, check that the built server imports production dependencies only
# (scripts/build-imports.mjs), start it (`npm run serve`) on a free port and talk to it with curl:
# MCP initialize, tools/list, /healthz and the short page at / (not the harness, which is for
# development). Stops the server and removes the clone whatever happens. Run from anywhere:
# bash scripts/prod-check.sh
set -euo pipefail
set -m # background jobs get their own process group: the server is stopped with everything it started

src="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/giftgenius-prod-check.XXXXXX")"
app="$work/app"
log="$work/server.log"
pid=""
started=$SECONDS

cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

step() { printf '\n== prod-check: %s (%ss)\n' "$1" "$((SECONDS - started))"; }
fail() {
  printf 'prod-check FAILED: %s\n' "$1" >&2
  if [ -f "$log" ]; then
    echo "--- server log" >&2
    cat "$log" >&2
  fi
  exit 1
}

step "clone $(git -C "$src" rev-parse --short HEAD) into $app"
git clone --quiet --no-hardlinks "$src" "$app"
git -C "$app" checkout --quiet --detach "$(git -C "$src" rev-parse HEAD)"
cd "$app"

step "npm ci"
npm ci --no-audit --no-fund

step "npm run build"
npm run build

step "npm prune --omit=dev"
npm prune --omit=dev --no-audit --no-fund
for dev in tsx typescript vite vitest; do
  [ ! -e "node_modules/$dev" ] || fail "node_modules/$dev is still there after pruning"
done

step "the build imports production dependencies only"
node scripts/build-imports.mjs dist/server || fail "dist/server imports what a production install lacks (above)"

step "npm run serve"
mkdir -p "$work/data"
PORT=0 HOST=127.0.0.1 DATA_DIR="$work/data" npm run serve >"$log" 2>&1 &
pid=$!
url=""
for _ in $(seq 1 300); do
  url="$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$log" | head -n 1 || true)"
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || fail "the server exited before listening"
  sleep 0.1
done
[ -n "$url" ] || fail "the server did not print its URL within 30 s"
base="${url%/mcp}"
echo "server $url (pid $pid)"

# Prints the JSON-RPC message of a reply, whether it came as JSON or as one SSE `data:` line.
rpc_message() {
  node -e '
    let text = "";
    process.stdin.on("data", (c) => (text += c)).on("end", () => {
      const data = text.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5));
      const message = JSON.parse(data.length > 0 ? data.join("\n") : text);
      process.stdout.write(JSON.stringify(message));
    });'
}
# Checks a JSON document on stdin with a JavaScript expression over `m`; prints it on failure.
expect_json() {
  node -e '
    let text = "";
    process.stdin.on("data", (c) => (text += c)).on("end", () => {
      const m = JSON.parse(text);
      if (!new Function("m", "return (" + process.argv[1] + ");")(m)) {
        console.error("expected " + process.argv[1] + "\ngot " + text);
        process.exit(1);
      }
    });' "$1"
}
headers=(-H 'content-type: application/json' -H 'accept: application/json, text/event-stream')

step "MCP initialize"
init_body="$(curl -sS --fail-with-body -D "$work/init.headers" "${headers[@]}" -X POST "$url" \
  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"prod-check","version":"1"}}}')" ||
  fail "initialize: $init_body"
init="$(rpc_message <<<"$init_body")"
echo "$init" | expect_json 'm.id === 1 && m.result.serverInfo.name === "giftgenius" && "tools" in m.result.capabilities' ||
  fail "initialize answer"
session="$(tr -d '\r' <"$work/init.headers" | awk -F': ' 'tolower($1) == "mcp-session-id" { print $2 }')"
[ -n "$session" ] || fail "initialize answered without an mcp-session-id header"
echo "session $session"

status="$(curl -sS -o /dev/null -w '%{http_code}' "${headers[@]}" -H "mcp-session-id: $session" \
  -H 'mcp-protocol-version: 2025-06-18' -X POST "$url" -d '{"jsonrpc":"2.0","method":"notifications/initialized"}')"
[ "$status" = 202 ] || fail "notifications/initialized: HTTP $status"

step "MCP tools/list"
list_body="$(curl -sS --fail-with-body "${headers[@]}" -H "mcp-session-id: $session" \
  -H 'mcp-protocol-version: 2025-06-18' -X POST "$url" -d '{"jsonrpc":"2.0","id":2,"method":"tools/list"}')" ||
  fail "tools/list: $list_body"
list="$(rpc_message <<<"$list_body")"
echo "$list" | expect_json '["suggest_gifts", "start_bulk_gift_analysis", "get_job_events", "get_job_result",
  "cancel_job", "wait_for_job", "delete_job"].every((name) => m.result.tools.some((t) => t.name === name))' ||
  fail "tools/list answer"
echo "$list" | node -e 'let t = ""; process.stdin.on("data", (c) => (t += c)).on("end", () =>
  console.log("tools: " + JSON.parse(t).result.tools.map((x) => x.name).join(", ")))'

step "GET /healthz and /"
health="$(curl -sS --fail-with-body "$base/healthz")" || fail "healthz: $health"
echo "$health" | expect_json 'm.status === "ok" && m.widgetBuilt === true' || fail "healthz answer"
echo "healthz $health"
page="$(curl -sS --fail "$base/")" || fail "GET / failed"
grep -q '<title>GiftGenius</title>' <<<"$page" && grep -q '<code>/mcp</code>' <<<"$page" ||
  fail "/ does not answer the short page naming the server and /mcp: $page"
! grep -q '<div id="root">' <<<"$page" || fail "/ serves the harness in production"

step "stop the server"
kill -TERM -- "-$pid"
for _ in $(seq 1 100); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$pid" 2>/dev/null; then fail "the server did not stop within 10 s of SIGTERM"; fi
wait "$pid" 2>/dev/null || true
pid=""

printf '\nprod-check passed in %ss\n' "$((SECONDS - started))"
