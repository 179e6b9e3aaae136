/**
 * The memory upload store against the upload store contract.
 */
import { describeUploadStore } from "../../../test-kit/upload-store-suite.js";
import { createMemoryUploadStore } from "./sqlite.js";

describeUploadStore("memory", (options) => createMemoryUploadStore(options));
