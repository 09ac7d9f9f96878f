/**
 * A call made by an effect whose answer must be dropped once the effect is cleaned
 * up (the component went away, or the name it loaded for changed): otherwise a slow
 * answer for the previous name would overwrite the current one.
 */

/**
 * Hands `promise`'s value to `onValue`, or its failure to `onError` (ignored when
 * absent), unless the returned cleanup ran first. Return it from `useEffect`.
 */
export function whileLive<T>(
  promise: Promise<T>,
  onValue: (value: T) => void,
  onError?: (err: unknown) => void,
): () => void {
  let live = true;
  promise.then(
    (value) => {
      if (live) onValue(value);
    },
    (err: unknown) => {
      if (live) onError?.(err);
    },
  );
  return () => {
    live = false;
  };
}
