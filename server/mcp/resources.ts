/**
 * The resources: the catalog, each job's result in parts that link the next (JSON or CSV), and the
 * widget. An unknown URI or job is -32002 with `{ uri }`; an unreachable store -32603, never "not found".
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ReadResourceResult,
} from "@modelcontextprotocol/server";
import type { ToolError } from "../../shared/errors.js";
import { URI } from "../../shared/tools.js";
import { CURRENCIES } from "../../shared/money.js";
import type { CatalogItem } from "../gifts/catalog.js";
import type { Caller } from "../jobs/caller.js";
import type { JobService } from "../jobs/job-service.js";
import type { Widget } from "../widget.js";
import { clip } from "../input-errors.js";
import { resultCsv } from "../files/export/result-csv.js";

const JSON_MIME = "application/json";
const CSV_MIME = "text/csv";
const JOB_RESULT = /^gifts:\/\/jobs\/([^/?]+)\/result(\.csv)?(?:\?offset=(0|[1-9]\d{0,14}))?$/;
/** Where a CSV part's `_meta` says which is next. */
const NEXT_META = "giftgenius/next";

/** A job result URI's job, JSON or CSV, and part (the person it starts at); undefined for any other URI. */
function parseResultUri(uri: string) {
  const [, jobId, csv, offset] = JOB_RESULT.exec(uri) ?? [];
  if (jobId === undefined) return undefined;
  return { jobId, csv: csv !== undefined, offset: offset === undefined ? undefined : Number(offset) };
}

/** The job whose result `uri` names exactly (not a part, not the CSV): what subscriptions follow. */
export function resultJobOf(uri: string): string | undefined {
  const parsed = parseResultUri(uri);
  return parsed && !parsed.csv && parsed.offset === undefined ? parsed.jobId : undefined;
}

/** The JSON-RPC error for a URI that names nothing here; `reason` says why when it helps. */
function resourceNotFound(uri: string, reason?: { code: string; message: string }): ProtocolError {
  const data = reason ? { uri: clip(uri), reason } : { uri: clip(uri) };
  return new ProtocolError(ProtocolErrorCode.ResourceNotFound, "Resource not found", data);
}

/** An unknown or unfinished job names nothing to read (-32002); a store that does not answer is -32603. */
function unreadable(uri: string, reason: ToolError): ProtocolError {
  if (reason.code !== "store_unavailable") return resourceNotFound(uri, reason);
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `The job store is unreachable at the moment, so ${clip(uri)} cannot be read. Try again in a minute.`,
    { uri: clip(uri), reason },
  );
}

type ResourcesOptions = { jobs: JobService; widget: Widget; catalog: readonly CatalogItem[] };

export function createResources({ jobs, widget, catalog }: ResourcesOptions) {
  const catalogText = JSON.stringify({
    currencies: CURRENCIES,
    count: catalog.length,
    categories: [...new Set(catalog.map((i) => i.category))],
    occasions: [...new Set(catalog.flatMap((i) => i.occasions))].sort(),
    items: catalog,
  });
  return {
    list: resourceList(catalog, widget),
    templates: RESULT_TEMPLATES,
    async read(uri: string, caller: Caller): Promise<ReadResourceResult> {
      if (uri === URI.catalog) return { contents: [{ uri, mimeType: JSON_MIME, text: catalogText }] };
      if (uri === widget.uri)
        return { contents: [{ uri, mimeType: widget.mimeType, text: widget.html, _meta: widget.meta }] };
      const { jobId, csv, offset } = parseResultUri(uri) ?? {};
      if (jobId === undefined) throw resourceNotFound(uri);
      const outcome = await jobs.readResult(jobId, caller, offset ?? 0);
      if (!outcome.ok) throw unreadable(uri, outcome.error);
      const page = outcome.value;
      if (!csv) return { contents: [{ uri, mimeType: JSON_MIME, text: JSON.stringify(page) }] };
      const next = page.next === null ? null : URI.jobResultCsv(jobId, page.offset + page.people.length);
      return { contents: [{ uri, mimeType: CSV_MIME, text: resultCsv(page), _meta: { [NEXT_META]: next } }] };
    },
    /** Throws -32002 unless `uri` names a resource this server can have (used by subscribe). */
    assertKnown(uri: string) {
      if (uri !== URI.catalog && uri !== widget.uri && !JOB_RESULT.test(uri)) throw resourceNotFound(uri);
    },
    unreadable,
  };
}

function resourceList(catalog: readonly CatalogItem[], widget: Widget): ListResourcesResult {
  return {
    resources: [
      {
        uri: URI.catalog,
        name: "gift_catalog",
        title: "Gift catalog",
        description: `Every gift GiftGenius can suggest (${catalog.length} items): name, category, its price in each currency (prices: KRW, USD, EUR, JPY, GBP, at each market's price points; price is the US one), interest tags, occasions, and the name and category in Korean (ko).`,
        mimeType: JSON_MIME,
      },
      {
        uri: widget.uri,
        name: widget.name,
        title: widget.title,
        description: widget.description,
        mimeType: widget.mimeType,
        _meta: widget.meta,
      },
    ],
  };
}

/** The templates of a job's result: its first part, a part from one person on, and the same as CSV. */
const RESULT_TEMPLATES: ListResourceTemplatesResult = {
  resourceTemplates: [
    {
      uriTemplate: URI.jobResultTemplate,
      name: "job_result",
      title: "Gift analysis result",
      description:
        "The result of a finished bulk gift analysis, in parts of about 1 MB: the summary and total, the first " +
        "people with the gifts picked and the rows skipped among them, and `next`, the URI of the next part.",
      mimeType: JSON_MIME,
    },
    {
      uriTemplate: URI.jobResultPageTemplate,
      name: "job_result_part",
      title: "Gift analysis result, from one person on",
      description:
        "The part of a finished bulk gift analysis's result that starts at person `offset` (0-based), with " +
        "`next`, the URI of the part after it (null on the last). Follow `next` from the result to read it all.",
      mimeType: JSON_MIME,
    },
    {
      uriTemplate: URI.jobResultCsvTemplate,
      name: "job_result_csv",
      title: "Gift analysis result as CSV",
      description:
        "The same parts of a finished bulk gift analysis's result as CSV for spreadsheets (the header on the " +
        `first part only); each part's \`_meta["${NEXT_META}"]\` is the URI of the next part (null on the last).`,
      mimeType: CSV_MIME,
    },
  ],
};
