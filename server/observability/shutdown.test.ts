/**
 * A graceful stop on a real server process: with long polls following a running job and a
 * session's event stream open, SIGTERM turns /readyz to 503 first; once the drain time is over the
 * open long poll is answered with the job's interruption, then the stream ends, then the process
 * exits with 0. The order is what
 * the test observes from outside, and what the process's own lines say.
 */
import { GetJobEventsOutput, TOOL, StartBulkOutput } from "../../shared/tools.js";
import { PACE_META_KEY } from "../dev-pace.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { openRawSession } from "../../test-kit/servers/test-server.js";
import { startLogged } from "../../test-kit/observability/logged-process.js";

it("drains (/readyz 503), then answers long polls, then closes streams, then exits with 0", async () => {
  const server = await startLogged("main", { STORE: "memory", GIFTGENIUS_DEV: "1", DRAIN_SECONDS: "1" });
  const mcpUrl = server.mcpUrl!;
  const seen: string[] = [];
  const see = (what: string) => void (seen.includes(what) || seen.push(what));
  try {
    const session = await openRawSession(mcpUrl);
    // a job paced to the slowest: seconds between its events
    const started = await session.request("tools/call", {
      name: TOOL.startBulk,
      arguments: { occasion: "holiday", budgetPerPerson: 50, csv: employeeCsv(20_000) },
      _meta: { [PACE_META_KEY]: 3_000 },
    });
    const { jobId } = StartBulkOutput.parse((started.result as { structuredContent: unknown }).structuredContent);
    const first = await session.request("tools/call", { name: TOOL.getJobEvents, arguments: { jobId, afterSeq: 0 } });
    const { nextSeq } = (first.result as { structuredContent: { nextSeq: number } }).structuredContent;
    // the session's stream of server messages, open until the server ends it
    const stream = await fetch(mcpUrl, { headers: { ...session.headers, accept: "text/event-stream" } });
    expect(stream.status).toBe(200);
    const streamEnded = (async () => {
      const reader = stream.body!.getReader();
      while (!(await reader.read().catch(() => ({ done: true }))).done);
      see("stream closed");
    })();
    // long polls, one after another, until one is answered with the job's end or the service's
    // (closing the job service wakes the poll open at that moment); a cut connection would throw
    const poll = (async () => {
      for (let afterSeq = nextSeq; ;) {
        const reply = await session.request("tools/call", {
          name: TOOL.getJobEvents,
          arguments: { jobId, afterSeq, waitMs: 25_000 },
        });
        const result = reply.result as { isError?: boolean; structuredContent: { error?: { code: string } } };
        if (result.isError) {
          // the service's own answer as it closes, not a call it refused
          expect(result.structuredContent.error?.code).not.toBe("invalid_arguments");
          return see("long poll answered");
        }
        const page = GetJobEventsOutput.parse(result.structuredContent);
        afterSeq = page.nextSeq;
        if (page.done) return see("long poll answered");
      }
    })();
    const exited = server.exited.then((code) => see(`exited with ${code}`));

    server.signal("SIGTERM");
    while (!seen.some((s) => s.startsWith("exited"))) {
      const ready = await fetch(new URL("/readyz", mcpUrl)).then(
        (r) => r.status,
        () => "refused",
      );
      if (ready === 503) see("readyz 503");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await Promise.all([poll, streamEnded, exited]);
    expect(seen).toEqual(["readyz 503", "long poll answered", "stream closed", "exited with 0"]);
    expect(
      server
        .records()
        .filter((r) => r.msg?.startsWith("shutdown:"))
        .map((r) => r.msg),
    ).toEqual([
      "shutdown: draining, /readyz answers 503",
      "shutdown: long polls answered, closing streams",
      "shutdown: done",
    ]);
  } finally {
    await server.kill();
  }
}, 200_000);
