/**
 * The outage log by an injected clock: one line when lost, a reminder at most once a minute while
 * failures go on (with the latest reason), one line when back, and a new outage told afresh.
 */
import { createOutageLog } from "./outage-log.js";

function setUp() {
  let now = 0;
  const lines: string[] = [];
  const outage = createOutageLog({
    name: "Sign-in provider https://id.example",
    log: (l) => lines.push(l),
    now: () => now,
  });
  return { outage, lines, at: (ms: number) => (now = ms) };
}

it("tells a loss once, reminds at most once a minute, and tells the return once", () => {
  const { outage, lines, at } = setUp();
  outage.back();
  expect(lines).toEqual([]);
  outage.lost("its metadata: no answer within 2 s");
  for (let ms = 1000; ms < 60_000; ms += 1000) {
    at(ms);
    outage.lost("its metadata: no answer within 2 s");
  }
  expect(lines).toEqual(["Sign-in provider https://id.example lost: its metadata: no answer within 2 s."]);
  at(60_000);
  outage.lost("its metadata: connect ECONNREFUSED");
  at(119_999);
  outage.lost("its metadata: connect ECONNREFUSED");
  at(180_000);
  outage.lost("its metadata: connect ECONNREFUSED");
  expect(lines.slice(1)).toEqual([
    "Sign-in provider https://id.example still lost after 60 s: its metadata: connect ECONNREFUSED.",
    "Sign-in provider https://id.example still lost after 3 min: its metadata: connect ECONNREFUSED.",
  ]);
  at(190_000);
  outage.back();
  outage.back();
  expect(lines.slice(3)).toEqual(["Sign-in provider https://id.example back after 3 min."]);
  at(200_000);
  outage.lost("its keys: HTTP 500");
  expect(lines.slice(4)).toEqual(["Sign-in provider https://id.example lost: its keys: HTTP 500."]);
});

it("keeps each line on one line, whatever the reason holds", () => {
  const { outage, lines } = setUp();
  outage.lost("fetch failed\n    at node:internal/deps/undici");
  expect(lines).toEqual(["Sign-in provider https://id.example lost: fetch failed at node:internal/deps/undici."]);
});
