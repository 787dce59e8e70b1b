/**
 * The edit distance of two strings (Levenshtein, with a swap of two neighbours counting
 * as one edit): how many single-character changes turn one into the other.
 *
 * @example
 * ```ts
 * editDistance('maxRetry', 'maxRetries'); // 2
 * editDistance('recieve', 'receive');   // 1 (a swap)
 * ```
 */
export function editDistance(a: string, b: string): number {
  // Three rows of the dynamic-programming table are enough: the swap looks two back.
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, before[j - 2]! + 1);
      }
      current.push(distance);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known name closest to `name`, compared case-insensitively, when it is close enough
 * to be what was meant (at most a third of the name's characters differ, and never more
 * than four); otherwise `undefined`.
 *
 * @example
 * ```ts
 * nearestName('maxRetry', ['maxRetries', 'timeoutMs']); // 'maxRetries'
 * nearestName('colour', ['maxRetries', 'timeoutMs']);   // undefined
 * ```
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const limit = Math.min(4, Math.max(1, Math.ceil(name.length / 3)));
  let nearest: string | undefined;
  let nearestDistance = Infinity;
  for (const knownName of known) {
    const distance = editDistance(name.toLowerCase(), knownName.toLowerCase());
    if (distance < nearestDistance) {
      nearest = knownName;
      nearestDistance = distance;
    }
  }
  return nearestDistance <= limit ? nearest : undefined;
}
