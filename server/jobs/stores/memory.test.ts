/**
 * The memory store: the store contract and the service suite run against it.
 */
import { describeJobService } from "../testing/service-suite.js";
import { describeJobStore } from "../testing/store-suite.js";
import { createMemoryStore } from "./memory.js";

describeJobStore("memory", () => createMemoryStore());
describeJobService("memory", () => createMemoryStore());
