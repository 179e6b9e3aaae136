/**
 * The widget as assistive technology and the keyboard meet it, in a real Chromium against the real
 * server, through the harness: the result table as Chromium's accessibility tree has it (a named
 * table of a header row and rows, column headers and cells, every row of a 5,000-person result
 * counted, the rows in view numbered where they stand in it, the sort a header states after a
 * click); the one polite live region telling each stage and the end, never a percentage; Escape
 * leaving fullscreen in both kinds of host; every control reached by Tab with a focus ring that
 * stands out 3:1 in both themes; reduced motion; and 390 px and 200 % zoom with nothing cut off.
 * axe-core's rules are in a11y-axe.e2e.test.ts. Needs `npm run build` first.
 *
 * CDP's accessibility tree carries roles, names and live properties but not the table's counts,
 * indexes and sort: those are read from the attributes of the DOM node behind each tree node.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import type { Frame, Page } from "playwright-core";
import { mountFrom, setUpBrowserTests, withFailureShot } from "../../test-kit/browser.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";

const JOB_TIMEOUT = 60_000;
const ROWS = 5_000;
const HOSTS = [
  ["ChatGPT (window.openai)", "openai"],
  ["MCP Apps (AppBridge)", "mcp-apps"],
] as const;

const run = setUpBrowserTests();
let dir: string;
let csvPath: string;
let people: { name: string }[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "giftgenius-a11y-"));
  csvPath = join(dir, `employees-${ROWS}.csv`);
  const csv = employeeCsv(ROWS, { seed: 34 });
  writeFileSync(csvPath, csv);
  people = parse<{ name: string }>(csv, { columns: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The harness at `viewport`, playing `host`. */
async function open(host: string, viewport = { width: 1280, height: 900 }, deviceScaleFactor = 1) {
  const opened = await run.openHarness({ viewport, deviceScaleFactor });
  await opened.page.getByRole("radio", { name: host }).click();
  return opened;
}

/** Starts the 5,000-person list at `pace` ms between slices and returns its widget. */
async function startJob(page: Page, pace: number): Promise<Frame> {
  await page.getByLabel("Upload…").setInputFiles(csvPath);
  await expect.poll(() => page.getByLabel("Uploaded CSV").textContent()).toContain("5,000 rows");
  await page.getByLabel(/^Pace/).selectOption(String(pace));
  return mountFrom(page, "Start bulk analysis");
}

/** Waits for the job to complete, then opens the full result and waits for every row. */
async function openTable(widget: Frame) {
  await widget.getByRole("button", { name: "Open the full result" }).click({ timeout: JOB_TIMEOUT });
  await widget.getByText("5,000 people", { exact: true }).waitFor({ timeout: JOB_TIMEOUT });
}

type AxNode = {
  role: string;
  name: string;
  /** The live region's politeness, where the node is one. */
  live?: string;
  /** The attributes of the DOM element behind the node. */
  attrs: Record<string, string>;
  children: AxNode[];
};

/** Chromium's accessibility tree of `frame`, ignored nodes left out (their children kept). */
async function axTree(page: Page, frame: Frame): Promise<AxNode> {
  const cdp = await page.context().newCDPSession(frame);
  try {
    const { nodes } = await cdp.send("Accessibility.getFullAXTree");
    const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
    const attrs = new Map<number, Record<string, string>>();
    const walk = (node: typeof root) => {
      const pairs = node.attributes ?? [];
      const named: Record<string, string> = {};
      for (let i = 0; i < pairs.length; i += 2) named[pairs[i]] = pairs[i + 1];
      attrs.set(node.backendNodeId, named);
      node.children?.forEach(walk);
    };
    walk(root);
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const build = (node: (typeof nodes)[number]): AxNode[] => {
      const children = (node.childIds ?? []).flatMap((id) => {
        const child = byId.get(id);
        return child ? build(child) : [];
      });
      if (node.ignored) return children;
      const live = node.properties?.find((p) => p.name === "live")?.value.value;
      return [
        {
          role: String(node.role?.value ?? ""),
          name: String(node.name?.value ?? ""),
          ...(typeof live === "string" && { live }),
          attrs: attrs.get(node.backendDOMNodeId ?? -1) ?? {},
          children,
        },
      ];
    };
    const [top] = build(nodes[0]);
    return top;
  } finally {
    await cdp.detach();
  }
}

const findAll = (node: AxNode, role: string): AxNode[] =>
  (node.role === role ? [node] : []).concat(node.children.flatMap((c) => findAll(c, role)));
/** The text a node holds, as a screen reader would read it out. */
const textOf = (node: AxNode): string => (node.role === "StaticText" ? node.name : node.children.map(textOf).join(""));
/** The body rows of a table node, through its row group. */
const bodyRows = (table: AxNode) => findAll(table, "row").slice(1);

describe("the result table in Chromium's accessibility tree", () => {
  it.each(HOSTS)(
    "in the %s host: a named table of 5,001 rows, its headers stating the sort, rows deep in it numbered where they stand",
    async (host, kind) => {
      const { page, errors } = await open(host);
      await withFailureShot(page, `a11y-table-${kind}`, async () => {
        const widget = await startJob(page, 0);
        await openTable(widget);
        const tree = await axTree(page, widget);
        const [table] = findAll(tree, "table");
        expect(table.name).toBe("People and their top picks");
        // the header row and every person, though only the rows in view are in the page
        expect(table.attrs["aria-rowcount"]).toBe(String(ROWS + 1));
        const [head] = findAll(table, "row");
        expect(head.attrs["aria-rowindex"]).toBe("1");
        const headers = findAll(head, "columnheader");
        expect(headers.map((h) => h.name)).toEqual(["Name", "Department", "Budget", "Top pick", "Spend"]);
        expect(headers.map((h) => h.attrs["aria-sort"])).toEqual(["none", "none", "none", "none", "none"]);
        // each header holds its sort button
        expect(headers.map((h) => findAll(h, "button").map((b) => b.name))).toEqual([
          ["Name"],
          ["Department"],
          ["Budget"],
          ["Top pick"],
          ["Spend"],
        ]);
        const rows = bodyRows(table);
        expect(rows.length).toBeGreaterThan(5);
        expect(rows.length).toBeLessThan(100);
        expect(rows[0].attrs["aria-rowindex"]).toBe("2");
        for (const row of rows) expect(findAll(row, "cell")).toHaveLength(5);
        expect(textOf(findAll(rows[0], "cell")[0])).toBe(people[0].name);

        // deep in the list, the rows in the page are numbered where they stand in the whole
        await widget.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight * 0.8));
        await expect
          .poll(async () => Number(bodyRows(findAll(await axTree(page, widget), "table")[0])[0].attrs["aria-rowindex"]))
          .toBeGreaterThan(3_500);
        const deep = bodyRows(findAll(await axTree(page, widget), "table")[0]);
        const indexes = deep.map((r) => Number(r.attrs["aria-rowindex"]));
        expect(indexes).toEqual(indexes.map((_, i) => indexes[0] + i));
        // in the file's order, row k is the person on the file's line k (the header is line 1)
        for (const row of deep) {
          expect(textOf(findAll(row, "cell")[0])).toBe(people[Number(row.attrs["aria-rowindex"]) - 2].name);
        }
        // and the search bar, then the headings under it, stay at the top of the window
        const top = await widget.evaluate(() =>
          [".gg-table-bar", ".gg-row-head"].map((s) => document.querySelector(s)!.getBoundingClientRect().top),
        );
        expect(top[0]).toBe(0);
        expect(top[1]).toBeGreaterThan(20);
        expect(top[1]).toBeLessThan(120);

        // a click on a header's button: it states the sort, and the others state none
        await widget.evaluate(() => window.scrollTo(0, 0));
        const spend = widget.getByRole("columnheader", { name: "Spend" }).getByRole("button");
        await spend.click();
        const sorts = async () =>
          findAll(findAll(await axTree(page, widget), "table")[0], "columnheader").map((h) => h.attrs["aria-sort"]);
        await expect.poll(sorts).toEqual(["none", "none", "none", "none", "descending"]);
        await spend.click();
        await expect.poll(sorts).toEqual(["none", "none", "none", "none", "ascending"]);
        await widget.getByRole("columnheader", { name: "Name" }).getByRole("button").click();
        await expect.poll(sorts).toEqual(["ascending", "none", "none", "none", "none"]);
        // a search counts the rows it shows
        await widget.getByRole("searchbox", { name: "Search by name" }).fill(people[4_321].name);
        const same = people.filter((p) => p.name === people[4_321].name).length;
        await expect
          .poll(async () => findAll(await axTree(page, widget), "table")[0].attrs["aria-rowcount"])
          .toBe(String(same + 1));
        expect(errors).toEqual([]);
      });
      await page.close();
    },
    3 * JOB_TIMEOUT,
  );
});

describe("the live region", () => {
  it(
    "is one polite region that tells each stage as it begins and the end with its outcome, never a percentage",
    async () => {
      const { page, errors } = await open("MCP Apps (AppBridge)");
      await withFailureShot(page, "a11y-live", async () => {
        const widget = await startJob(page, 150);
        // every text the region takes, recorded in the widget as it changes
        await widget.waitForSelector('[role="status"]');
        await widget.evaluate(() => {
          const region = document.querySelector('[role="status"]')!;
          const said: string[] = [region.textContent ?? ""];
          Reflect.set(window, "__said", said);
          new MutationObserver(() => {
            const text = region.textContent ?? "";
            if (text !== said.at(-1)) said.push(text);
          }).observe(region, { subtree: true, childList: true, characterData: true });
        });
        const said = () => widget.evaluate(() => Reflect.get(window, "__said") as string[]);
        await expect
          // the first stage change told (a short stage between two replies is not: see below)
          .poll(async () => (await said()).some((s) => /^Stage [234] of 4: /.test(s)), {
            timeout: JOB_TIMEOUT,
          })
          .toBe(true);

        // at a stage change, Chromium has one polite live region in the card, saying the stage
        const running = await axTree(page, widget);
        const live = (node: AxNode): AxNode[] =>
          (node.live && node.live !== "off" ? [node] : []).concat(node.children.flatMap(live));
        expect(live(running).map((n) => [n.role, n.live])).toEqual([["status", "polite"]]);
        expect(textOf(live(running)[0])).toMatch(/^Stage [234] of 4: /);

        await expect
          .poll(() => widget.locator(".gg-status").textContent(), { timeout: 3 * JOB_TIMEOUT })
          .toBe("Completed");
        await expect.poll(async () => (await said()).at(-1)).toMatch(/^The analysis is complete\. Found /);
        const texts = (await said()).filter(Boolean);
        // each stage once, in order (one that began and ended between two replies is not told), then the end;
        // the percentage moved all along, the region did not
        const stages = texts.slice(0, -1);
        expect(stages).toContain("Stage 3 of 4: Matching gifts per person");
        for (const text of stages) expect(text).toMatch(/^Stage [1-4] of 4: /);
        const numbers = stages.map((text) => Number(text.split(" ")[1]));
        expect(numbers).toEqual([...new Set(numbers)].sort());
        expect(texts.join(" ")).not.toMatch(/\d+ ?%/);
        const ended = await axTree(page, widget);
        expect(live(ended)).toHaveLength(1);
        expect(textOf(live(ended)[0])).toBe(texts.at(-1));
        expect(errors).toEqual([]);
      });
      await page.close();
    },
    4 * JOB_TIMEOUT,
  );
});

describe("the keyboard", () => {
  it.each(HOSTS)(
    "in the %s host: Escape leaves fullscreen, unless it clears a search first, and the focus stays in the card",
    async (host, kind) => {
      const { page, errors } = await open(host);
      await withFailureShot(page, `a11y-escape-${kind}`, async () => {
        await page.getByRole("button", { name: "Load sample CSV" }).click();
        const widget = await mountFrom(page, "Start bulk analysis");
        await widget.getByRole("button", { name: "Open the full result" }).click({ timeout: JOB_TIMEOUT });
        const fullscreen = page.getByRole("radio", { name: "Fullscreen" });
        await expect.poll(() => fullscreen.isChecked()).toBe(true);
        const search = widget.getByRole("searchbox", { name: "Search by name" });
        await search.fill("Ada");
        await search.press("Escape");
        await expect.poll(() => search.inputValue()).toBe("");
        expect(await fullscreen.isChecked()).toBe(true);
        await search.press("Escape");
        await expect.poll(() => page.getByRole("radio", { name: "Inline" }).isChecked()).toBe(true);
        // the focus the search box had goes to the button that opens the table again, not to the page
        const openFull = widget.getByRole("button", { name: "Open the full result" });
        await expect.poll(() => openFull.evaluate((b) => b === document.activeElement)).toBe(true);
        await page.keyboard.press("Enter");
        await expect.poll(() => fullscreen.isChecked()).toBe(true);
        expect(errors).toEqual([]);
      });
      await page.close();
    },
    2 * JOB_TIMEOUT,
  );

  it(
    "reaches every control of the fullscreen result, the file picker and the preview by Tab, each with a focus ring of 3:1 or more, in both themes",
    async () => {
      const { page, errors } = await open("MCP Apps (AppBridge)");
      await withFailureShot(page, "a11y-focus", async () => {
        const widget = await startJob(page, 0);
        await openTable(widget);
        const table = await tabThrough(page, widget);
        expect(table).toContain("button Spend");
        expect(table).toContain("summary Spend by department");

        const picker = await mountFrom(page, "Ask for the file in the widget");
        await picker.getByText("Choose a file or drop it here").waitFor({ timeout: JOB_TIMEOUT });
        expect(await tabThrough(page, picker)).toEqual(["input file"]);
        await picker.locator('input[type="file"]').setInputFiles(csvPath);
        await picker.getByText("5,000 rows: 5,000 people, 0 skipped").waitFor({ timeout: JOB_TIMEOUT });
        const preview = await tabThrough(page, picker);
        // the sample rows scroll sideways in a box of their own, which takes the focus
        expect(preview).toContain("div The file's first rows");
        expect(preview).toContain("button Start");
        expect(errors).toEqual([]);
      });
      await page.close();
    },
    2 * JOB_TIMEOUT,
  );
});

/**
 * In both themes, Tabs from the widget's heading until the focus leaves the widget: every control
 * there is must be reached, each once and in order, each showing a focus ring of 3:1 or more.
 * Returns the controls reached.
 */
async function tabThrough(page: Page, widget: Frame): Promise<string[]> {
  let reached: string[] = [];
  for (const theme of ["Dark", "Light"]) {
    await page.getByRole("radio", { name: theme }).click();
    await expect.poll(() => widget.locator(".gg-root").getAttribute("data-theme")).toBe(theme.toLowerCase());
    await widget.getByRole("heading", { level: 1 }).click(); // the keyboard's focus in the widget
    reached = [];
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press("Tab");
      const focus = await widget.evaluate(focusRing);
      if (focus === null) break; // out of the widget, to the host
      reached.push(focus.what);
      expect(focus.ring, `${theme}: ${focus.what}`).toBeGreaterThanOrEqual(3);
    }
    const controls = await widget.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("button, input, select, summary, a[href], [tabindex]")]
        .filter((el) => !(el as HTMLButtonElement).disabled)
        .map(
          (el) =>
            `${el.tagName.toLowerCase()} ${el.getAttribute("aria-label") ?? (el.textContent?.trim() || el.getAttribute("type"))}`,
        ),
    );
    expect(reached).toEqual(controls);
    for (const hint of await widget.evaluate(placeholders))
      expect(hint.contrast, `${theme}: the placeholder of ${hint.what}`).toBeGreaterThanOrEqual(4.5);
  }
  return reached;
}

/** In the page: each field's placeholder text and its contrast against the field (WCAG 1.4.3: 4.5:1). */
function placeholders(): { what: string; contrast: number }[] {
  const luminance = (css: string) => {
    const channels = (css.match(/[\d.]+/g) ?? ["0", "0", "0"]).slice(0, 3).map((c) => Number(c) / 255);
    const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const behind = (el: HTMLElement) => {
    for (let e: HTMLElement | null = el; e; e = e.parentElement) {
      const bg = getComputedStyle(e).backgroundColor;
      if (bg !== "rgba(0, 0, 0, 0)" && bg !== "transparent") return bg;
    }
    return "rgb(255, 255, 255)";
  };
  return [...document.querySelectorAll<HTMLInputElement>("input[placeholder]")].map((el) => {
    const style = getComputedStyle(el, "::placeholder");
    // a placeholder drawn at part opacity is that much closer to its background; the widget draws it whole
    const [a, b] = [luminance(style.color), luminance(behind(el))].sort((x, y) => y - x);
    const contrast = Number(style.opacity) < 1 ? 0 : (a + 0.05) / (b + 0.05);
    return { what: el.getAttribute("aria-label") ?? el.placeholder, contrast };
  });
}

/**
 * In the page: the focused control (null when the focus is not in this document), and its focus
 * ring's contrast against what is behind it, 0 when there is no ring.
 */
function focusRing(): { what: string; ring: number } | null {
  const el = document.activeElement as HTMLElement | null;
  if (el === null || el === document.body) return null;
  const rgb = (css: string) => (css.match(/[\d.]+/g) ?? ["0", "0", "0"]).slice(0, 3).map(Number);
  const luminance = (css: string) => {
    const [r, g, b] = rgb(css).map((c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  let back = "rgb(255, 255, 255)";
  for (let e = el.parentElement; e; e = e.parentElement) {
    const bg = getComputedStyle(e).backgroundColor;
    if (bg !== "rgba(0, 0, 0, 0)" && bg !== "transparent") {
      back = bg;
      break;
    }
  }
  // the file input is unseen: the drop zone around it shows the ring
  const style = getComputedStyle(el.closest(".gg-drop") ?? el);
  const what = `${el.tagName.toLowerCase()} ${el.getAttribute("aria-label") ?? (el.textContent?.trim() || el.getAttribute("type"))}`;
  if (style.outlineStyle === "none" || parseFloat(style.outlineWidth) < 2) return { what, ring: 0 };
  const [a, b] = [luminance(style.outlineColor), luminance(back)].sort((x, y) => y - x);
  return { what, ring: (a + 0.05) / (b + 0.05) };
}

describe("motion and room", () => {
  it(
    "stills the bar for a person who asks for reduced motion, even a transition the bar would have",
    async () => {
      const { page, errors } = await open("MCP Apps (AppBridge)");
      await withFailureShot(page, "a11y-motion", async () => {
        const widget = await startJob(page, 500);
        await widget.locator(".gg-bar-fill").first().waitFor({ timeout: JOB_TIMEOUT });
        // a transition and an animation the bar might be given one day
        await widget.evaluate(() => {
          const style = document.createElement("style");
          style.textContent =
            "@keyframes gg-test-pulse{to{opacity:.5}} .gg-bar-fill{transition:width 2s;animation:gg-test-pulse 1s infinite}";
          document.head.append(style);
        });
        const motion = () =>
          widget.evaluate(() => {
            const fill = getComputedStyle(document.querySelector(".gg-bar-fill")!);
            return {
              reduce: matchMedia("(prefers-reduced-motion: reduce)").matches,
              transition: fill.transitionDuration,
              animation: fill.animationName,
              running: document.getAnimations().length,
            };
          });
        await page.emulateMedia({ reducedMotion: "no-preference" });
        expect(await motion()).toMatchObject({ reduce: false, transition: "2s", animation: "gg-test-pulse" });
        await page.emulateMedia({ reducedMotion: "reduce" });
        await expect.poll(motion).toEqual({ reduce: true, transition: "0s", animation: "none", running: 0 });
        expect(errors).toEqual([]);
      });
      await page.close();
    },
    2 * JOB_TIMEOUT,
  );

  it.each([
    ["390 px wide", { width: 390, height: 844 }, 1],
    ["200 % zoom (a 1280 px window)", { width: 640, height: 450 }, 2],
  ] as const)(
    "at %s: no sideways scroll, every control and the bar within the widget, no text cut off",
    async (what, viewport, scale) => {
      const { page, errors } = await open("MCP Apps (AppBridge)", viewport, scale);
      await withFailureShot(page, `a11y-room-${viewport.width}`, async () => {
        const running = await startJob(page, 3_000);
        await running.locator(".gg-current").waitFor({ timeout: JOB_TIMEOUT });
        expect(await running.evaluate(room), `${what}: running`).toEqual([]);
        await running.getByRole("button", { name: "Cancel" }).click();
        expect(await running.evaluate(room), `${what}: asking to cancel`).toEqual([]);
        const confirm = running.getByRole("button", { name: "Yes, cancel" });
        // the one step that loses work is painted in the danger colour, not the accent of every button
        const paint = await confirm.evaluate((button) => {
          const probe = button.ownerDocument.createElement("span");
          probe.style.color = "var(--bad)";
          button.parentElement!.append(probe);
          const bad = getComputedStyle(probe).color;
          probe.remove();
          return { background: getComputedStyle(button).backgroundColor, bad };
        });
        expect(paint.background, `${what}: "Yes, cancel"`).toBe(paint.bad);
        await confirm.click();
        await running.getByRole("button", { name: "Start again" }).waitFor({ timeout: JOB_TIMEOUT });
        expect(await running.evaluate(room), `${what}: canceled`).toEqual([]);

        const widget = await startJob(page, 0);
        await widget.locator(".gg-summary").waitFor({ timeout: JOB_TIMEOUT });
        expect(await widget.evaluate(room), `${what}: finished`).toEqual([]);
        await openTable(widget);
        expect(await widget.evaluate(room), `${what}: the table`).toEqual([]);
        expect(errors).toEqual([]);
      });
      await page.close();
    },
    4 * JOB_TIMEOUT,
  );
});

/**
 * In the page: what does not fit the width: the document scrolling sideways, a control or the bar
 * reaching past the window's edges, a button, field or line of text cut off (the table's cells end
 * in an ellipsis by design, and are left out).
 */
function room(): string[] {
  const found: string[] = [];
  const { scrollWidth, clientWidth } = document.documentElement;
  if (scrollWidth > clientWidth) found.push(`the document is ${scrollWidth} px wide in ${clientWidth}`);
  // nor a box of the card (the preview's sample rows are one, on purpose: a table scrolls on its own)
  for (const el of document.querySelectorAll<HTMLElement>(".gg-root, .gg-root *:not(.gg-scroll)")) {
    const sideways = /auto|scroll/.test(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1;
    if (sideways) found.push(`${el.className} scrolls sideways: ${el.scrollWidth} px in ${el.clientWidth}`);
  }
  const seen = (el: Element) => el.getClientRects().length > 0 && !el.closest(".gg-sr");
  for (const el of document.querySelectorAll("button, input:not([type=file]), select, summary, .gg-bar")) {
    if (!seen(el)) continue;
    const r = el.getBoundingClientRect();
    const name = `${el.tagName.toLowerCase()} "${el.textContent?.trim() || el.getAttribute("aria-label")}"`;
    if (r.left < 0 || r.right > clientWidth) found.push(`${name} spans ${r.left}-${r.right} of ${clientWidth}`);
  }
  for (const el of document.querySelectorAll<HTMLElement>(".gg-root button, .gg-root p, .gg-root h1")) {
    if (seen(el) && el.scrollWidth > el.clientWidth + 1) found.push(`"${el.textContent?.trim()}" is cut off`);
  }
  return found;
}
