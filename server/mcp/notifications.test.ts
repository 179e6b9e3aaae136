import type { ServerNotification } from "@modelcontextprotocol/server";
import { URI } from "../../shared/tools.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { ALICE, BOB, settle } from "../../test-kit/jobs/service-reads.js";
import { forwardJobEvents, type SessionState } from "./notifications.js";

/** A session's outgoing notifications, captured where the SDK server would send them. */
function session(sessionId: string, subject: string, subscriptions: [string, string][] = []) {
  const sent: ServerNotification[] = [];
  const server = { notification: async (n: ServerNotification) => void sent.push(n) } as unknown as Parameters<
    typeof forwardJobEvents
  >[0];
  const state: SessionState = { sessionId, subject, subscriptions: new Map(subscriptions), logLevel: "info" };
  return { server, state, sent, methods: () => sent.map((n) => n.method) };
}

describe("forwardJobEvents", () => {
  it("sends a job's events to the session that started it, and result updates only to its owner's subscriptions", async () => {
    const jobs = createJobService({ store: createMemoryStore(), match: matchGifts });
    const start = await jobs.start({ csv: employeeCsv(20), occasion: "birthday", budgetPerPerson: 40 }, ALICE);
    if (!start.ok) throw new Error(start.error.message);
    const uri = URI.jobResult(start.value.jobId);
    const owner = session(ALICE.sessionId, ALICE.subject);
    const ownerElsewhere = session("s-alice-2", ALICE.subject, [[uri, ALICE.subject]]);
    const stranger = session(BOB.sessionId, BOB.subject, [[uri, BOB.subject]]);
    // a session of another subject that somehow carries the owner's session id hears nothing
    const impostor = session(ALICE.sessionId, BOB.subject, [[uri, BOB.subject]]);
    const all = [owner, ownerElsewhere, stranger, impostor];
    const stops = all.map((s) => forwardJobEvents(s.server, s.state, jobs));
    await settle(jobs, start.value.jobId);
    stops.forEach((stop) => stop());
    await jobs.close();

    expect(owner.methods()).toContain("notifications/job/completed");
    expect(owner.methods()).toContain("notifications/message");
    expect(ownerElsewhere.methods()).toEqual(["notifications/resources/updated"]);
    expect(stranger.sent).toEqual([]);
    expect(impostor.sent).toEqual([]);
  });
});
