/**
 * `start_bulk_gift_analysis`: starts a background job for every employee of a staff list and
 * answers at once with the job id. The list is `csv`, `employees`, a host's `file` (ChatGPT's
 * `openai/fileParams`) or an `uploadId`; with none, the widget asks the person for a file.
 */
import * as z from "zod/mini";
import { AwaitingFileSchema, FILE_LIMITS, type AwaitingFile } from "../../../shared/files.js";
import { StartBulkInput, StartBulkOutput, TOOL, type StartBulkArgs } from "../../../shared/tools.js";
import { previewText } from "../../files/read/preview-text.js";
import { readStaffFile } from "../../files/read/staff-file.js";
import type { StaffTable } from "../../files/read/table.js";
import { megabytes } from "../../limits.js";
import { fail, ok, type Outcome } from "../../outcomes.js";
import { CURRENCIES, currencyForLocale, type Currency } from "../../../shared/money.js";
import { moneyText } from "../../gifts/reason.js";
import { localeOf, localeTag } from "../../jobs/runner/texts.js";
import { defineTool, failure, success, type ToolContext, type ToolDeps } from "../tool-registry.js";

/** The ways a staff list can come; one per call. */
const LISTS = ["csv", "employees", "file", "uploadId"] as const;

/** A budget that buys no gift is most often meant in another currency (50 dollars read as ₩50). */
function budgetBuysNothing(budget: number, cheapest: number, currency: Currency, implied: boolean) {
  const money = (amount: number) => moneyText(amount, currency);
  const why = implied ? ` Budgets are in ${currency}, the currency of the person's language.` : "";
  return failure({
    code: "no_gift_fits",
    message: `The budget per person, ${money(budget)}, buys no gift: the cheapest costs ${money(cheapest)}.${why}`,
    hint: `Give budgetPerPerson in ${currency} (at least ${money(cheapest)}), or name the currency the budget is in with currency.`,
  });
}

function severalLists(given: readonly string[]) {
  const named = `${given.slice(0, -1).join(", ")} and ${given[given.length - 1]}`;
  return failure({
    code: "invalid_arguments",
    message: given.length === 2 ? `Both ${named} were given.` : `${named} were all given.`,
    hint: "Send the staff list once: as file, csv, employees or uploadId.",
  });
}

/** The job's input, what the reading understood, and `read` when the list is the reader's CSV (held to the file's limits). */
type JobList = { input: StartBulkArgs; understood: string; read: boolean };

/**
 * The staff list as the job reads it: a file or upload only within the caller's quotas and with no
 * problem to settle. CSV text goes through the same reader, so the model reads how its columns were
 * taken; one it cannot start from is left to the job service's refusal, unless its budgets are
 * mostly in another currency (the job would skip most people).
 */
async function listOf(
  { file, uploadId, reading = {}, ...rest }: StartBulkArgs,
  { jobs, files }: Pick<ToolDeps, "jobs" | "files">,
  { caller, signal }: Pick<ToolContext, "caller" | "signal">,
): Promise<Outcome<JobList>> {
  const started = ({ preview, csv }: StaffTable, hint: string): Outcome<JobList> =>
    preview.ready
      ? ok({ input: { ...rest, csv }, understood: `\n${previewText(preview)}`, read: true })
      : fail("invalid_csv", `${preview.fileName} cannot start an analysis yet: ${preview.problems.join(" ")}`, hint);
  if (file !== undefined || uploadId !== undefined) {
    const admitted = await jobs.admits(caller);
    if (!admitted.ok) return admitted;
    const table = file
      ? await files.fromHost(file, reading, signal, caller)
      : await files.fromUpload(uploadId!, reading, caller);
    if (!table.ok) return table;
    return started(
      table.value,
      file
        ? "Tell the person what is wrong, or call again without a staff list so that they can choose and fix the file in the widget."
        : "Settle it in the preview, then start again.",
    );
  }
  if (rest.csv !== undefined && Buffer.byteLength(rest.csv) <= jobs.limits.maxCsvBytes) {
    const table = await readStaffFile(Buffer.from(rest.csv, "utf8"), "staff.csv", reading, jobs.limits);
    const { ready, otherCurrency } = table.ok ? table.value.preview : {};
    if (table.ok && (ready || otherCurrency !== undefined))
      return started(table.value, `Start it again with currency "${otherCurrency}" and the budget per person in it.`);
  }
  return ok({ input: rest, understood: "", read: false });
}

/** When the widget picks the currency, those where the budget buys nothing: the model is told before a refusal. */
function tooLowIn(budget: number, currency: Currency | undefined, cheapest: Record<Currency, number>): string {
  if (currency !== undefined) return "";
  const low = CURRENCIES.filter((c) => budget < cheapest[c]);
  if (low.length === 0) return "";
  return (
    ` The widget reads ${budget} in the person's currency; in ${low.join(" or ")} it buys no gift and the start would be ` +
    `refused. If the person may budget in ${low.join(" or ")}, ask for the budget in their currency first and call ` +
    `${TOOL.startBulk} again with it and \`currency\`.`
  );
}

function awaitingFile(
  args: StartBulkArgs,
  locale: string,
  currency: Currency | undefined,
  cheapest: Record<Currency, number>,
) {
  const awaiting: AwaitingFile = {
    awaitingFile: true,
    occasion: args.occasion,
    budgetPerPerson: args.budgetPerPerson,
    locale,
    ...(currency && { currency }),
    maxFileBytes: FILE_LIMITS.maxFileBytes,
  };
  return success(
    awaiting,
    `No staff list was given, so the widget now asks the person to choose their staff file (.xlsx or .csv, up to ` +
      `${megabytes(FILE_LIMITS.maxFileBytes)}); it shows what it understood and starts the analysis when they confirm. ` +
      "Tell them to pick the file in the widget; do not ask them to paste it into the chat. If they attached the " +
      `file to the conversation, call ${TOOL.startBulk} again with it as \`file\`.${tooLowIn(args.budgetPerPerson, currency, cheapest)}`,
  );
}

export const startBulkAnalysisTool = defineTool(({ jobs, files, cheapestPrice, runOptionsOf }: ToolDeps) => ({
  name: TOOL.startBulk,
  title: "Start a bulk gift analysis",
  description:
    "Starts a background job that picks gifts for every employee of a team, for one occasion. Give the staff " +
    "list as exactly one of: `file`, a staff file (.xlsx or .csv) the user attached; `csv` (a header naming " +
    "name and interests (items separated by ; | , or /), optional department, budget and employee ID, in English or Korean; up to " +
    `${megabytes(jobs.limits.maxCsvBytes)} and ${jobs.limits.maxRows.toLocaleString("en-US")} rows); or ` +
    "`employees`; plus the occasion and a default budget per person. Without any list, the widget asks the user " +
    "for their file. Answers at once with a jobId while the work runs; the widget shows live progress. Then call " +
    "wait_for_job to wait for the end and get_job_result to read the picks.",
  input: StartBulkInput,
  output: z.union([StartBulkOutput, AwaitingFileSchema]),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  // the widget calls it too: to start from the file it uploaded, and to run a failed analysis again
  ui: { renders: { invoking: "Starting the gift analysis…", invoked: "Gift analysis started" }, calledByWidget: true },
  meta: { "openai/fileParams": ["file"] },
  async run(asked, { caller, meta, signal }) {
    // the model's word first, then the host's hint (ChatGPT sends openai/locale with each call)
    const locale = localeOf(asked.locale, meta["openai/locale"]);
    // the currency asked for, else the locale's (ko-KR: won); the file's budgets are read in it
    const tag = localeTag(asked.locale, meta["openai/locale"]);
    const currency = asked.currency ?? currencyForLocale(tag);
    // the job keeps both, for its files out (their headers in the person's language)
    const args: StartBulkArgs = { ...asked, currency, locale: tag, reading: { ...asked.reading, currency } };
    const given = LISTS.filter((key) => args[key] !== undefined);
    if (given.length > 1) return severalLists(given);
    // before a file is asked for: a person should not choose one for a job that cannot pick a gift
    const cheapest = cheapestPrice[currency];
    if (args.budgetPerPerson < cheapest)
      return budgetBuysNothing(args.budgetPerPerson, cheapest, currency, !asked.currency && tag !== undefined);
    // the widget asks the person: a currency neither named nor implied by a locale is theirs to decide
    if (given.length === 0)
      return awaitingFile(args, locale, tag === undefined ? asked.currency : currency, cheapestPrice);
    const list = await listOf(args, { jobs, files }, { caller, signal });
    if (!list.ok) return failure(list.error);
    const { input, understood, read } = list.value;
    const started = await jobs.start(input, caller, { runOptions: runOptionsOf(meta), locale, read });
    if (!started.ok) return failure(started.error);
    const { jobId, status, stages } = started.value;
    if (args.uploadId !== undefined) await files.uploads.usedBy(args.uploadId, jobId, caller);
    return success(
      { ...started.value, currency },
      `Started job ${jobId} (${status}); stages: ${stages.map((s) => s.label).join(", ")}. ` +
        `The widget shows its progress live. Call wait_for_job with jobId "${jobId}" to wait for it, ` +
        `then get_job_result for the gifts picked per person.${understood}`,
    );
  },
}));
