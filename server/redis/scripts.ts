/**
 * Lua scripts, each one atomic step, defined as a command (ioredis `defineCommand`) on each
 * connection at its first run there: ioredis then sends the hash, and the text again on NOSCRIPT.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

/** A script and its command name, from its hash: never Redis's own, never another's. */
export type Script = { lua: string; name: string };

type Arg = string | number | Buffer;
type ScriptCommand = (keyCount: number, ...args: Arg[]) => Promise<unknown>;

export function script(lua: string): Script {
  return { lua, name: `lua_${createHash("sha1").update(lua).digest("hex")}` };
}

export function run(
  redis: Redis,
  { lua, name }: Script,
  args: readonly Arg[],
  /** Bulk replies as Buffers (ioredis's `<name>Buffer` command), not strings. */
  buffers = false,
): Promise<unknown> {
  // defineCommand adds the command to this connection under its name, which ioredis's types cannot know
  const commands = redis as unknown as Record<string, ScriptCommand | undefined>;
  if (commands[name] === undefined) redis.defineCommand(name, { lua });
  return commands[buffers ? `${name}Buffer` : name]!.call(redis, 0, ...args);
}
