/**
 * The memory store: the store contract and the service suite run against it.
 */
import { describeJobService } from "../../../test-kit/jobs/service-suite.js";
import { describeJobStore } from "../../../test-kit/jobs/store-suite.js";
import { createMemoryStore } from "./memory.js";

describeJobStore("memory", () => createMemoryStore());
describeJobService("memory", () => createMemoryStore());
