// "Did you mean ...?": the one name a mistyped word is closest to, for the command lines and the manifest.

/** The one candidate closest to `word` (a letter added, dropped, changed or two swapped count one each), when it is close enough to be a typo and no other is as close. */
export function closest(word: string, candidates: string[]): string | undefined {
  const most = Math.min(2, Math.floor(word.length / 3));
  const scored = candidates.map((c) => [c, editDistance(word.toLowerCase(), c.toLowerCase())] as const).filter(([, d]) => d <= most);
  const best = Math.min(...scored.map(([, d]) => d));
  const at = scored.filter(([, d]) => d === best);
  return at.length === 1 ? at[0]![0] : undefined;
}

/** Edits from `a` to `b`: insertions, deletions, substitutions and swaps of two neighbours (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
