/**
 * Small helpers over lists kept in order, shared by the site model, the site checks,
 * the build state and the comment cards (foundation: no layer imported).
 */

/** Where `item` is, or would go, in `list` (sorted by `compare`): a binary search. */
export function sortedIndex<T>(list: readonly T[], item: T, compare: (a: T, b: T) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(list[mid]!, item) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The items of `list` grouped by `keyOf`, each group in list order, groups in order of first appearance. */
export function groupBy<T, K>(list: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of list) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/**
 * What `after` adds to `before` at its end: the items past `before`'s length when
 * `after` starts with exactly `before`'s items (the same objects, in order), else null.
 * A post's comment list is replaced, never changed in place, so this tells a new
 * comment (the writer's usual change) from any other change.
 */
export function appendedAfter<T>(before: readonly T[], after: readonly T[]): T[] | null {
  if (after === before) return [];
  return after.length >= before.length && before.every((item, i) => after[i] === item) ? after.slice(before.length) : null;
}
