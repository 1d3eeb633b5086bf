// A class's scores out of one maximum as a histogram: about ten bins of equal width from 0, and
// one bin of its own for full marks (the bin an instructor looks for first).

/** One bin: the scores from `from` to `to`, both included, and how many students scored there. */
export interface Bin {
  from: number;
  to: number;
  count: number;
}

/** Scores out of `max`: their bins, median and mean. */
export interface Histogram {
  max: number;
  /** How many scores it counts. */
  count: number;
  bins: Bin[];
  median: number;
  mean: number;
}

/** The most bins below full marks. */
const BINS = 10;

/** The histogram of `scores` out of `max`: bins of width ceil(max / 10) from 0 below `max`, then `max` alone; a score outside 0..max counts in the nearest bin. */
export function histogram(scores: number[], max: number): Histogram {
  const width = Math.max(1, Math.ceil(max / BINS));
  const bins: Bin[] = [];
  for (let from = 0; from < max; from += width) bins.push({ from, to: Math.min(from + width, max) - 1, count: 0 });
  bins.push({ from: max, to: max, count: 0 });
  for (const score of scores) {
    const at = score >= max ? bins.length - 1 : Math.max(0, Math.min(bins.length - 2, Math.floor(score / width)));
    bins[at]!.count++;
  }
  return { max, count: scores.length, bins, median: median(scores), mean: mean(scores) };
}

/** The middle score, or the mean of the middle two; 0 for none. */
export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The mean, to one decimal; 0 for none. */
export function mean(values: number[]): number {
  if (values.length === 0) return 0;
  return Math.round((values.reduce((n, v) => n + v, 0) / values.length) * 10) / 10;
}
