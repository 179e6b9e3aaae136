/**
 * The production build's purity check (run by prod-check.sh after the build): every package a
 * built server file imports must be a production dependency (package.json `dependencies`) or a
 * Node built-in, and no test-only file may be built. Prints each offence, one a line, and exits
 * with 1 if there is any. Usage: node scripts/build-imports.mjs [dist/server]
 */
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";

const root = process.argv[2] ?? "dist/server";
const { dependencies = {} } = JSON.parse(readFileSync("package.json", "utf8"));
const allowed = new Set([...Object.keys(dependencies), ...builtinModules]);

// `import … from "x"`, `export … from "x"`, `import "x"`, `import("x")`, `require("x")`
const SPECIFIERS = [
  /\b(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']/g,
  /\bimport\s*["']([^"']+)["']/g,
  /\b(?:import|require)\(\s*["']([^"']+)["']\s*\)/g,
];
/** Test-only files by name: tests, and the test kit (shared suites and test support). */
const TEST_ONLY = /\.test\.js$|^test-kit\//;

/** The package a bare specifier names ("@scope/name/sub.js" → "@scope/name"), or undefined for a path. */
function packageOf(specifier) {
  if (specifier.startsWith(".") || specifier.startsWith("/")) return undefined;
  if (specifier.startsWith("node:")) return specifier.slice("node:".length);
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => /\.[cm]?js$/.test(f));
const offences = [];
for (const file of files) {
  const path = relative(root, join(root, file)).split("\\").join("/");
  if (TEST_ONLY.test(path)) offences.push(`${path}: a test-only file in the production build`);
  const text = readFileSync(join(root, file), "utf8");
  const packages = new Set(
    SPECIFIERS.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => packageOf(m[1]))).filter(Boolean),
  );
  for (const name of packages) {
    if (!allowed.has(name)) offences.push(`${path}: imports ${name}, which is not a production dependency`);
  }
}
if (files.length === 0) offences.push(`${root}: no built files`);
for (const line of offences) console.error(line);
if (offences.length > 0) process.exit(1);
console.log(`${files.length} built files import production dependencies and Node built-ins only`);
