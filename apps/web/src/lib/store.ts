/**
 * A value kept outside React (the tab's API key, the session) that components
 * follow: `set` notifies every subscriber, and {@link useStoreValue} re-renders a
 * component when it changes.
 */
import { useSyncExternalStore } from "react";

/** One value and the listeners to tell when it changes. */
export interface Store<T> {
  /** The current value. */
  readonly get: () => T;
  /** Replaces the value and tells every listener. */
  readonly set: (next: T) => void;
  /** Adds a listener; returns its removal. */
  readonly subscribe: (listener: () => void) => () => void;
}

/** A store holding `initial`. */
export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set: (next) => {
      value = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The store's value as React state. */
export function useStoreValue<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
