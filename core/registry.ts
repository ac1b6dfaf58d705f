/**
 * A registry of plug-ins by string id (systems, handlers): one place that lists them in order,
 * looks them up with an error that names the valid ids, and lets user code or a test register
 * one more. Ids, never integer enums.
 *
 * @module
 */

/** Plug-ins of one kind, by id, in registration order. */
export class Registry<T extends { readonly id: string }> {
  /** What the entries are, for messages: `system`, `handler`. */
  readonly kind: string;
  readonly #entries = new Map<string, T>();

  /** @param kind what the entries are; @param entries the built-in ones, in order */
  constructor(kind: string, entries: readonly T[]) {
    this.kind = kind;
    for (const e of entries) this.register(e);
  }

  /** The entries by id, in order (a live view). */
  get map(): ReadonlyMap<string, T> {
    return this.#entries;
  }

  /** The entries, in order. */
  entries(): T[] {
    return [...this.#entries.values()];
  }

  /** The ids, in order. */
  ids(): string[] {
    return [...this.#entries.keys()];
  }

  /** Adds an entry; returns a function that removes it. Throws a `RangeError` when the id is taken. */
  register(entry: T): () => void {
    if (this.#entries.has(entry.id)) {
      throw new RangeError(`a ${this.kind} "${entry.id}" is already registered`);
    }
    this.#entries.set(entry.id, entry);
    return () => this.#entries.delete(entry.id);
  }

  /** The entry `id`; throws a `RangeError` listing the valid ids. */
  get(id: string): T {
    const e = this.#entries.get(id);
    if (!e) {
      throw new RangeError(
        `unknown ${this.kind} "${id}"; known ${this.kind}s: ${this.ids().join(", ")}`,
      );
    }
    return e;
  }
}
