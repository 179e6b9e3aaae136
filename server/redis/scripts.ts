/**
 * Lua scripts on a Redis connection, each one atomic step. A script becomes a command of the
 * connection that runs it (ioredis `defineCommand`), defined there at its first run, so every
 * connection that runs one has it, however it was opened: ioredis sends the text once per
 * connection and the hash after that, and the text again when Redis has lost it (NOSCRIPT).
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

/** A script and the command name it takes on a connection, from its hash: never Redis's own, never another's. */
export type Script = { lua: string; name: string };

type Arg = string | number | Buffer;
type ScriptCommand = (keyCount: number, ...keysAndArgs: Arg[]) => Promise<unknown>;

export function script(lua: string): Script {
  return { lua, name: `lua_${createHash("sha1").update(lua).digest("hex")}` };
}

/** The names of the scripts each connection has as commands. */
const defined = new WeakMap<Redis, Set<string>>();

/** Runs `script` on `redis` with `keys` and `args`; its reply as Redis gave it. */
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
