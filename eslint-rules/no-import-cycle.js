/**
 * No import cycles, type-only imports included: no module may reach itself through its static
 * imports and re-exports. The graph is read from the TypeScript program typescript-eslint builds
 * for the file, so modules resolve as tsc resolves them. (import-x's no-cycle skips `import type`,
 * and a type-only cycle is still a type kept away from the module that owns it.)
 */
import path from "node:path";
import ts from "typescript";

/** Per program: each project file's imports, as { statement, file }. */
const importsByProgram = new WeakMap();

/** The project files `file` imports or re-exports from, with the statement that does it. */
function importsOf(program, file) {
  let cache = importsByProgram.get(program);
  if (cache === undefined) importsByProgram.set(program, (cache = new Map()));
  let imports = cache.get(file.fileName);
  if (imports !== undefined) return imports;
  const checker = program.getTypeChecker();
  imports = [];
  for (const statement of file.statements) {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))) continue;
    if (statement.moduleSpecifier === undefined) continue;
    const target = checker.getSymbolAtLocation(statement.moduleSpecifier)?.declarations?.find(ts.isSourceFile);
    if (target === undefined || target.isDeclarationFile || program.isSourceFileFromExternalLibrary(target)) continue;
    imports.push({ statement, file: target });
  }
  cache.set(file.fileName, imports);
  return imports;
}

/** The shortest chain of imports from `from` back to `to` (both included), or null. */
function routeBack(program, from, to) {
  const cameFrom = new Map([[from.fileName, null]]);
  const queue = [from];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (file.fileName === to.fileName) {
      const route = [];
      for (let name = file.fileName; name !== null; name = cameFrom.get(name)) route.unshift(name);
      return route;
    }
    for (const next of importsOf(program, file)) {
      if (cameFrom.has(next.file.fileName)) continue;
      cameFrom.set(next.file.fileName, file.fileName);
      queue.push(next.file);
    }
  }
  return null;
}

export default {
  meta: {
    type: "problem",
    docs: { description: "Disallow import cycles, type-only imports included." },
    messages: {
      cycle: "Import cycle: {{route}}. Move what both sides need into the module that owns it.",
    },
    schema: [],
  },
  create(context) {
    const { sourceCode } = context;
    const program = sourceCode.parserServices?.program;
    const self = program?.getSourceFile(context.physicalFilename);
    if (self === undefined) return {};
    return {
      Program() {
        for (const { statement, file } of importsOf(program, self)) {
          const route = routeBack(program, file, self);
          if (route === null) continue;
          const names = [self.fileName, ...route].map((name) => path.relative(context.cwd, name));
          context.report({
            loc: {
              start: sourceCode.getLocFromIndex(statement.getStart(self)),
              end: sourceCode.getLocFromIndex(statement.getEnd()),
            },
            messageId: "cycle",
            data: { route: names.join(" → ") },
          });
        }
      },
    };
  },
};
