/**
 * Memory under repeated reads of a large result: several sessions read a 200,000-person result
 * from start to end over SSE, part after part; what the server keeps afterwards (its sessions'
 * replay buffers above all) must stay bounded, not grow with every answer sent. MEM_SESSIONS and
 * MEM_READS (whole reads per session) scale it up; the defaults keep it CI-sized.
 */
import v8 from "node:v8";
import vm from "node:vm";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { TOOL, URI, WaitForJobOutput, type JobResultPage } from "../../shared/tools.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import { callTool, connectClient, startJob, useTestClient } from "../../test-kit/servers/test-server.js";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

const PEOPLE = 200_000;
const SESSIONS = Number(process.env.MEM_SESSIONS ?? 3);
const READS = Number(process.env.MEM_READS ?? 1);
const MB = 1024 * 1024;
/**
 * What the heap may grow by after the reads. Each session's replay store keeps at most 4 MB of
 * JSON (createEventBudget's default), held as two-byte strings where the text has non-Latin-1
 * characters (the generator's names do): 8 MB of heap per session. The rest is room for what any
 * run leaves behind (compiled code, the SDK's per-session state, the store's caches). Without a
 * byte budget each session kept every part it was sent: ~1.2 MB times 138 parts per whole read.
 */
const BOUND_MB = SESSIONS * 8 + 32;

// the generator's 200,000 rows are 10.4 MB: past the default CSV limit, so this server takes more
const t = useTestClient({
  jobs: createJobService({ store: createMemoryStore(), match: matchGifts, limits: { maxCsvBytes: 16 * MB } }),
  maxBodyBytes: 48 * MB,
});

/** heapUsed after a full collection, in MB. */
function heapAfterGc(): number {
  gc();
  gc();
  return v8.getHeapStatistics().used_heap_size / MB;
}

/** Reads a job's whole result part by part; returns how many people and parts it held. */
async function readWhole(client: Client, jobId: string): Promise<{ people: number; parts: number }> {
  let people = 0;
  let parts = 0;
  for (let uri: string | null = URI.jobResult(jobId); uri !== null; parts++) {
    const { contents } = await client.readResource({ uri });
    // JSON.parse only: the schema is checked elsewhere, and parsing 140 MB with it would double the time
    const part = JSON.parse("text" in contents[0] ? contents[0].text : "") as Pick<JobResultPage, "people" | "next">;
    people += part.people.length;
    uri = part.next;
  }
  return { people, parts };
}

describe("memory while sessions read a 200,000-person result again and again", () => {
  it("stays bounded: what the sessions keep for replay has a byte budget", { timeout: 300_000 }, async () => {
    const started = performance.now();
    const { jobId } = await startJob(t.client, { csv: employeeCsv(PEOPLE), occasion: "holiday", budgetPerPerson: 40 });
    for (let done = false; !done;) {
      const waited = await callTool(t.client, TOOL.waitForJob, { jobId, timeoutMs: 25_000 }, { timeout: 60_000 });
      done = WaitForJobOutput.parse(waited.structuredContent).done;
    }
    const jobSeconds = (performance.now() - started) / 1000;
    const clients = await Promise.all(Array.from({ length: SESSIONS }, () => connectClient(t.server.mcpUrl)));
    const before = heapAfterGc();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, v8.getHeapStatistics().used_heap_size / MB)), 20);
    const reading = performance.now();
    let parts = 0;
    try {
      for (let round = 0; round < READS; round++) {
        const whole = await Promise.all(clients.map((c) => readWhole(c, jobId)));
        for (const w of whole) expect(w.people).toBe(PEOPLE);
        parts += whole.reduce((n, w) => n + w.parts, 0);
      }
    } finally {
      clearInterval(sampler);
    }
    const after = heapAfterGc();
    console.log(
      `${PEOPLE.toLocaleString("en")}-person job in ${jobSeconds.toFixed(1)} s; ${SESSIONS} sessions × ${READS} whole reads ` +
        `= ${parts} resources/read over SSE in ${((performance.now() - reading) / 1000).toFixed(1)} s; heap after gc ` +
        `${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after (peak ${peak.toFixed(0)} MB; bound +${BOUND_MB} MB)`,
    );
    await Promise.all(clients.map((c) => c.close()));
    expect(after - before).toBeLessThan(BOUND_MB);
  });
});
