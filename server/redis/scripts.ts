/**
 * Lua scripts, each one atomic step, defined as a command (ioredis `defineCommand`) on each
 * connection at its first run there: ioredis then sends the hash, and the text again on NOSCRIPT.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

/** A script and its command name, from its hash: never Redis's own, never another's. */
export type Script = { lua: string; name: string };

type Arg = string | number | Buffer;
type ScriptCommand = (keyCount: number, ...keysAndArgs: Arg[]) => Promise<unknown>;

export function script(lua: string): Script {
  return { lua, name: `lua_${createHash("sha1").update(lua).digest("hex")}` };
}

const defined = new WeakMap<Redis, Set<string>>();

export function run(
  redis: Redis,
  { lua, name }: Script,
  keys: readonly string[],
  args: readonly Arg[],
): Promise<unknown> {
  let names = defined.get(redis);
  if (names === undefined) defined.set(redis, (names = new Set()));
  if (!names.has(name)) {
    redis.defineCommand(name, { lua });
    names.add(name);
  }
  // defineCommand adds the command under its name, which ioredis's types cannot know
  const command = (redis as unknown as Record<string, ScriptCommand>)[name];
  return command.call(redis, keys.length, ...keys, ...args);
}
