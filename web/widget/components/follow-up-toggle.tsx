/**
 * "Tell the chat when it's done": a switch beside the job's actions, shown while the job runs where
 * the host takes follow-ups (follow-up.ts). The person's choice is kept for the next jobs too.
 */
import { useState } from "react";
import { isFinished } from "../../../shared/job-view.js";
import { followUpOn, setFollowUpOn } from "../conversation.js";
import { useHost } from "../host-context.js";
import { useMessages } from "../i18n.js";
import { useJobViews } from "../job-views.js";

export function FollowUpToggle({ jobId }: { jobId: string }) {
  const t = useMessages();
  const host = useHost();
  const ended = useJobViews((s) => isFinished(s.jobs[jobId]?.status ?? "pending"));
  const [on, setOn] = useState(followUpOn);
  if (ended || !host.conversation().followUp) return null;
  return (
    <p className="gg-muted">
      <label>
        <input
          type="checkbox"
          checked={on}
          onChange={(e) => {
            setFollowUpOn(e.target.checked);
            setOn(e.target.checked);
          }}
        />{" "}
        {t.tellChat}
      </label>
    </p>
  );
}
