/**
 * Rows appended to typed-array columns (structure of arrays) that grow by doubling: what a
 * builder of millions of rows (Table I's bonds) collects outside the JavaScript heap before it
 * knows the count.
 *
 * @module
 */

/** A typed-array constructor a column may have. */
export type ColumnType = Uint8ArrayConstructor | Uint32ArrayConstructor | Float64ArrayConstructor;

/** The columns of a {@link ColumnBuilder} with the spec `S`. */
export type Columns<S extends Record<string, ColumnType>> = { [K in keyof S]: InstanceType<S[K]> };

/** Typed columns that rows are appended to (see the module doc). */
export class ColumnBuilder<S extends Record<string, ColumnType>> {
  #spec: S;
  #columns: Columns<S>;
  #n = 0;

  /** Columns of the types in `spec`, with room for `capacity` rows before they grow. */
  constructor(spec: S, capacity = 1024) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`ColumnBuilder: capacity must be an integer ≥ 1, got ${capacity}`);
    }
    this.#spec = spec;
    this.#columns = this.#allocate(capacity);
  }

  /** Rows appended so far. */
  get length(): number {
    return this.#n;
  }

  /** Appends one row: a value for every column (missing ones are 0). */
  push(row: { [K in keyof S]: number }): void {
    if (this.#n === this.#capacity()) {
      const grown = this.#allocate(2 * this.#n);
      for (const key in grown) grown[key].set(this.#columns[key] as never);
      this.#columns = grown;
    }
    for (const key in this.#columns) this.#columns[key][this.#n] = row[key];
    this.#n++;
  }

  /** The columns trimmed to the rows appended (copies; the builder stays usable). */
  finish(): Columns<S> {
    const out = {} as Columns<S>;
    for (const key in this.#columns) {
      out[key] = this.#columns[key].slice(0, this.#n) as InstanceType<S[typeof key]>;
    }
    return out;
  }

  #capacity(): number {
    for (const key in this.#columns) return this.#columns[key].length;
    return 0;
  }

  #allocate(rows: number): Columns<S> {
    const out = {} as Columns<S>;
    for (const key in this.#spec) {
      out[key] = new this.#spec[key](rows) as InstanceType<S[typeof key]>;
    }
    return out;
  }
}
