// The import-cycle rule on a small project of its own: a type-only cycle and a run-time one are
// reported, with their route, on every import that closes them; a one-way import is not.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { afterAll, expect, it } from "vitest";
import noImportCycle from "./no-import-cycle.js";

const dir = mkdtempSync(join(tmpdir(), "import-cycle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FILES = {
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, module: "NodeNext" }, include: ["*.ts"] }),
  "a.ts": 'import type { B } from "./b.js";\nexport type A = { b?: B };\n',
  "b.ts": 'import type { A } from "./a.js";\nexport type B = { a?: A };\n',
  "c.ts": 'import { d } from "./d.js";\nexport const c = () => d;\n',
  "d.ts": 'export { c as d } from "./c.js";\n',
  "e.ts": 'import type { A } from "./a.js";\nexport const e = (a: A) => a;\n',
};
for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);

const cycle = (...route) =>
  `Import cycle: ${route.join(" → ")}. Move what both sides need into the module that owns it.`;

it("reports type-only and run-time cycles with their route, and nothing else", async () => {
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: {
      files: ["**/*.ts"],
      languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: dir } },
      plugins: { local: { rules: { "no-import-cycle": noImportCycle } } },
      rules: { "local/no-import-cycle": "error" },
    },
  });
  const results = await eslint.lintFiles(["*.ts"]);
  const found = Object.fromEntries(
    results.map((r) => [r.filePath.slice(dir.length + 1), r.messages.map((m) => m.message)]),
  );
  expect(found).toEqual({
    "a.ts": [cycle("a.ts", "b.ts", "a.ts")],
    "b.ts": [cycle("b.ts", "a.ts", "b.ts")],
    "c.ts": [cycle("c.ts", "d.ts", "c.ts")],
    "d.ts": [cycle("d.ts", "c.ts", "d.ts")],
    "e.ts": [],
  });
});
