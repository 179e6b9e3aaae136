// The rule against product code importing test code, on import forms a product file could use:
// static, type-only, re-exports, dynamic and `import("…")` types, relative to the importing file.
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, it } from "vitest";
import noTestImports from "./no-test-imports.js";

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
const filename = "/repo/server/jobs/job-service.ts";
const error = (specifier) => ({
  message: `"${specifier}" is test code: product code never imports test-kit/ or a *.test file. Move what both need into product code.`,
});

tester.run("no-test-imports", noTestImports, {
  valid: [
    { filename, code: 'import { createJobLog } from "./job-log.js";' },
    { filename, code: 'import { z } from "zod/mini";' },
    { filename, code: 'import { JobEventSchema } from "../../shared/job-events.js";' },
    // a folder or file whose name only contains the words
    { filename, code: 'import { kit } from "./test-kits.js"; import { t } from "./contest.js";' },
  ],
  invalid: [
    {
      filename,
      code: 'import { FakeClock } from "../../test-kit/jobs/fake-clock.js";',
      errors: [error("../../test-kit/jobs/fake-clock.js")],
    },
    {
      filename,
      code: 'import type { JobHistory } from "../../test-kit/servers/test-server.js";',
      errors: [error("../../test-kit/servers/test-server.js")],
    },
    {
      filename,
      code: 'export { jobEvent } from "../../test-kit/job-events.js";',
      errors: [error("../../test-kit/job-events.js")],
    },
    {
      filename,
      code: 'export * from "../../test-kit/job-events.js";',
      errors: [error("../../test-kit/job-events.js")],
    },
    {
      filename,
      code: 'const kit = await import("../../test-kit/redis.js");',
      errors: [error("../../test-kit/redis.js")],
    },
    {
      filename,
      code: 'type Clock = import("../../test-kit/jobs/fake-clock.js").FakeClock;',
      errors: [error("../../test-kit/jobs/fake-clock.js")],
    },
    { filename, code: 'import { cases } from "./waiters.test.js";', errors: [error("./waiters.test.js")] },
    {
      filename,
      code: 'import { Panel } from "../../web/widget/app.test.tsx";',
      errors: [error("../../web/widget/app.test.tsx")],
    },
  ],
});
