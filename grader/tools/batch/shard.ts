// One shard of a class, so that several machines can grade it side by side: the submissions, in
// the order of their names, dealt round-robin into n shards (the 1st, (n+1)th, (2n+1)th... to
// shard 1). Round-robin keeps the shards' sizes within one of each other and spreads a run of
// similar names (a team's, a section's) over every shard; the split depends only on the names,
// so every machine that sees the same names makes the same shards.

/** The k-th of n shards, 1-based. */
export interface Shard {
  index: number;
  count: number;
}

/** The largest shard count: a GitHub Actions matrix holds at most 256 jobs. */
export const MAX_SHARDS = 256;

/** Reads "k/n" (whole numbers, 1 <= k <= n <= MAX_SHARDS); throws an Error whose message is for the user. */
export function parseShard(flag: string, text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const shard = match ? { index: Number(match[1]), count: Number(match[2]) } : undefined;
  if (!shard || shard.index < 1 || shard.index > shard.count || shard.count > MAX_SHARDS) {
    throw new Error(`${flag} expects k/n with 1 <= k <= n${shard && shard.count > MAX_SHARDS ? ` and n at most ${MAX_SHARDS}` : ""}, got ${JSON.stringify(text)}`);
  }
  return shard;
}

/** The items of `shard`, from items sorted by `nameOf` (their order in `items` does not matter). */
export function shardOf<T>(items: readonly T[], shard: Shard, nameOf: (item: T) => string): T[] {
  const sorted = [...items].sort((a, b) => compareNames(nameOf(a), nameOf(b)));
  return sorted.filter((_, i) => i % shard.count === shard.index - 1);
}

/** The shard (1-based) that the item named `name` falls in, among `names`, split into `count` shards. */
export function shardNumberOf(name: string, names: readonly string[], count: number): number {
  const position = [...names].sort(compareNames).indexOf(name);
  if (position < 0) throw new Error(`${JSON.stringify(name)} is not among the names split into shards`);
  return (position % count) + 1;
}

/** The order of names: by UTF-16 code units, as findSubmissions sorts folders (never the locale's, which differs between machines). */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
