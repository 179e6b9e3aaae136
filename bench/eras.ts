/**
 * The protocol eras side by side: `tools/call suggest_gifts` requests per second and p99 latency
 * on our server (a child process, as in server.ts) sent three ways in the same run: the 2025-11-25
 * era without a session ("legacy stateless"), the same in one session the official client opened
 * ("legacy session"), and 2026-07-28 with the per-request envelope. Legacy stateless is the
 * baseline of the other two.
 */
import { SuggestGiftsOutput, TOOL } from "../shared/tools.js";
import { startTarget, type Target } from "./children.js";
import { legacyRequest, modernRequest, openSession, type Framed } from "./framing.js";
import { load, withId, type Load } from "./load.js";
import { parseRpcBody } from "./mcp-http.js";
import { SUGGEST_ARGS } from "./requests.js";
import { median, row, type BenchOptions, type BenchRow } from "./table.js";

const CALL = { name: TOOL.suggestGifts, arguments: SUGGEST_ARGS };
const MODERN = "2026-07-28";
const check = (body: string) => body.includes('"gifts":[{"id":');

/** One request framed as `framed` really answers gifts within the budget. */
async function checkAnswer(url: URL, mode: string, { headers, body }: Framed): Promise<void> {
  const response = await fetch(url, { method: "POST", headers, body: withId(body, 1) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${mode}: HTTP ${response.status}: ${text.slice(0, 200)}`);
  const gifts = SuggestGiftsOutput.parse(parseRpcBody(text).result?.structuredContent);
  if (gifts.gifts.length !== SUGGEST_ARGS.count || gifts.gifts.some((g) => g.price > SUGGEST_ARGS.budget))
    throw new Error(`${mode}: wrong gifts`);
}

type Mode = { name: string; framed: Framed };

/**
 * Each mode warmed up, then measured in rounds whose order rotates, so that a noisy moment of the
 * machine falls on no mode alone; a mode's figures are the medians of its rounds.
 */
async function measure(t: Target, modes: Mode[], o: BenchOptions): Promise<Load[]> {
  const rounds = o.smoke ? 1 : 3;
  const seconds = o.smoke ? 0.3 : o.quick ? 2 : 6;
  const warmup = o.smoke ? 0.1 : o.quick ? 0.5 : 1.5;
  const connections = o.smoke ? 2 : 20;
  const runs = modes.map(({ framed }) => ({ url: t.url, ...framed, check, connections }));
  const loads: Load[][] = modes.map(() => []);
  for (const [i, { name, framed }] of modes.entries()) {
    await checkAnswer(t.url, name, framed);
    await load({ ...runs[i], seconds: warmup });
  }
  for (let r = 0; r < rounds; r++)
    for (let k = 0; k < modes.length; k++) {
      const i = (r + k) % modes.length;
      const l = await load({ ...runs[i], seconds });
      if (l.ok === 0 || l.bad > l.ok / 100)
        throw new Error(`${modes[i].name}: ${l.bad} bad answers of ${l.ok + l.bad}`);
      loads[i].push(l);
    }
  return loads.map((ls) => ({
    rps: median(ls.map((l) => l.rps)),
    p50: median(ls.map((l) => l.p50)),
    p99: median(ls.map((l) => l.p99)),
    ok: ls.reduce((sum, l) => sum + l.ok, 0),
    bad: ls.reduce((sum, l) => sum + l.bad, 0),
  }));
}

/** Rows: req/s and p99 for each era, the session and the 2026-07-28 envelope beside the stateless path. */
export async function benchEras(options: BenchOptions): Promise<BenchRow[]> {
  const t = await startTarget("ours");
  try {
    const session = await openSession(t.url);
    const modes: Mode[] = [
      { name: "legacy stateless", framed: legacyRequest("tools/call", CALL) },
      { name: "legacy session", framed: session.frame("tools/call", CALL) },
      { name: MODERN, framed: modernRequest("tools/call", CALL) },
    ];
    const measured = await measure(t, modes, options).finally(() => session.close());
    return eraRows(modes.map((m, i) => [m.name, measured[i]]));
  } finally {
    await t.stop();
  }
}

function eraRows(measured: [string, Load][]): BenchRow[] {
  const section = "eras";
  const [baseName, base] = measured[0];
  const baselineName = baseName;
  const rows: BenchRow[] = [];
  for (const [name, l] of measured) {
    const isBase = l === base;
    // the 2026-07-28 path is to serve as fast as the stateless legacy one
    const held = name === MODERN ? l.rps >= base.rps : null;
    rows.push(
      row({
        section,
        metric: `suggest_gifts req/s, ${name}`,
        value: l.rps,
        unit: "req/s",
        baseline: isBase ? null : base.rps,
        baselineName: isBase ? "" : baselineName,
        target: held === null ? "for reference" : "≥ 1× legacy stateless",
        met: held,
      }),
      row({
        section,
        metric: `suggest_gifts p99 latency, ${name}`,
        value: l.p99,
        unit: "ms",
        baseline: isBase ? null : base.p99,
        baselineName: isBase ? "" : baselineName,
        target: "for reference",
        met: null,
      }),
    );
  }
  const bad = measured.reduce((sum, [, l]) => sum + l.bad, 0);
  rows.push(
    row({
      section,
      metric: "bad answers, all three",
      value: bad,
      unit: "",
      baseline: null,
      baselineName: "",
      target: "0",
      met: bad === 0,
    }),
  );
  return rows;
}
