/**
 * What a workbook says about itself before any sheet is read: its sheets in order with their
 * names, hidden state and part paths (from `xl/workbook.xml` and its relations, whatever the parts
 * are called), its date system, and where its shared strings and styles are.
 */
import { fail, ok, type Outcome } from "../../../outcomes.js";
import { NOT_A_WORKBOOK, type WorkbookZip } from "./unzip.js";
import { cut } from "./read-limits.js";
import { parseXmlWhole, type Clock } from "./xml-part.js";

/** A sheet as the workbook lists it. */
export type SheetEntry = { name: string; path: string; hidden: boolean };

export type WorkbookInfo = {
  sheets: SheetEntry[];
  /** Dates count from 1904-01-01 (old Mac Excel) rather than 1900-01-00. */
  date1904: boolean;
  sharedStrings: string | null;
  styles: string | null;
};

const WORKBOOK = "xl/workbook.xml";
const RELS = "xl/_rels/workbook.xml.rels";

/** An attribute by its local name, whatever prefix the writer gave it (`r:id`, `ns1:id`). */
const attribute = (attributes: Record<string, string>, name: string, prefixed: boolean): string | undefined => {
  for (const [key, value] of Object.entries(attributes)) {
    const colon = key.indexOf(":");
    if ((colon === -1 ? !prefixed : prefixed) && key.slice(colon + 1) === name) return value;
  }
  return undefined;
};

/** A relation's target as a path in the zip: relative to `xl/`, or absolute from the root. */
function partPath(target: string): string {
  const parts = (target.startsWith("/") ? target.slice(1) : `xl/${target}`).split("/");
  const out: string[] = [];
  for (const p of parts) {
    if (p === "..") out.pop();
    else if (p !== "." && p !== "") out.push(p);
  }
  return out.join("/");
}

/** The workbook's sheets, date system and parts; a zip without them is no workbook. */
export async function readWorkbookInfo(
  zip: WorkbookZip,
  clock: Clock,
  pace: () => Promise<void>,
): Promise<Outcome<WorkbookInfo>> {
  const noSheets = () =>
    fail<WorkbookInfo>(
      "unreadable_file",
      "The file is a zip but not an Excel workbook: it has no sheets.",
      NOT_A_WORKBOOK,
    );
  if (!zip.has(WORKBOOK) || !zip.has(RELS)) return noSheets();
  // read whole, without turns of the event loop: so first held to the directory's bounds
  const declared = zip.check([WORKBOOK, RELS]);
  if (!declared.ok) return declared;
  const listed: { name: string; id: string; hidden: boolean }[] = [];
  let date1904 = false;
  await parseXmlWhole(
    zip,
    WORKBOOK,
    {
      open(name, a) {
        if (name === "workbookPr") date1904 = a.date1904 === "1" || a.date1904 === "true";
        if (name === "sheet")
          listed.push({
            // Excel's names have at most 31 characters: a longer one is cut to what a refusal may echo
            name: cut(a.name ?? ""),
            id: attribute(a, "id", true) ?? "",
            hidden: (a.state ?? "visible") !== "visible",
          });
      },
    },
    clock,
    pace,
  );
  const targets = new Map<string, string>();
  const byType = new Map<string, string>();
  await parseXmlWhole(
    zip,
    RELS,
    {
      open(name, a) {
        if (name !== "Relationship" || a.TargetMode === "External" || !a.Id || !a.Target) return;
        targets.set(a.Id, partPath(a.Target));
        byType.set(a.Type?.split("/").pop() ?? "", partPath(a.Target));
      },
    },
    clock,
    pace,
  );
  const sheets = listed.flatMap(({ name, id, hidden }) => {
    const path = targets.get(id);
    return path !== undefined && zip.has(path) ? [{ name, path, hidden }] : [];
  });
  if (sheets.length === 0) return noSheets();
  const present = (path: string | undefined) => (path !== undefined && zip.has(path) ? path : null);
  return ok({
    sheets,
    date1904,
    sharedStrings: present(byType.get("sharedStrings")),
    styles: present(byType.get("styles")),
  });
}
