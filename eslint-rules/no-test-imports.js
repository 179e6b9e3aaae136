/**
 * Product code never imports test code: a file this rule is applied to (server/, shared/, web/,
 * tests left out) may not import, re-export or dynamically import a module in a `test-kit/` folder
 * or a `*.test.*` file. Relative specifiers are resolved against the importing file; packages are
 * not this rule's business.
 */
import path from "node:path";

const TEST_FILE = /\.test\.[cm]?[jt]sx?$/;

/** Whether `specifier`, imported by `filename`, names test code. */
function isTestCode(filename, specifier) {
  if (!specifier.startsWith(".") && !path.isAbsolute(specifier)) return false;
  const target = path.resolve(path.dirname(filename), specifier);
  return target.split(path.sep).includes("test-kit") || TEST_FILE.test(target);
}

export default {
  meta: {
    type: "problem",
    docs: { description: "Disallow product code importing test code (test-kit/, *.test.* files)." },
    messages: {
      testImport:
        '"{{specifier}}" is test code: product code never imports test-kit/ or a *.test file. Move what both need into product code.',
    },
    schema: [],
  },
  create(context) {
    const check = (source) => {
      if (source?.type !== "Literal" || typeof source.value !== "string") return;
      if (isTestCode(context.physicalFilename, source.value)) {
        context.report({ node: source, messageId: "testImport", data: { specifier: source.value } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => check(node.source),
    };
  },
};
