/**
 * Springs and bonds as a structure of arrays: particle ends in `Uint32Array`s, parameters in
 * `Float64Array`s, one row per spring (40 bytes, outside the JavaScript heap). The scene builder
 * writes Table I's solids (up to 20.6M bonds for Fig. 6 at `paper`) into one; the GPU upload
 * (`gpu/state/spring_csr.ts`) reads its columns. `Spring` objects remain the form of the f64
 * references and of small hand-written networks: {@link SpringTable.from} and
 * {@link SpringTable.toSprings} convert.
 *
 * @module
 */
import type { Spring } from "./spring.ts";

/** The columns of a {@link SpringTable}, all of one length. */
export interface SpringColumns {
  /** First end (particle index). */
  i: Uint32Array;
  /** Second end (particle index). */
  j: Uint32Array;
  /** Rest length L (m). */
  restLength: Float64Array;
  /** Stiffness ks (N/m). */
  ks: Float64Array;
  /** Damping coefficient kd (N·s/m). */
  kd: Float64Array;
  /** Critical stretch s0 of a breakable bond (Silling & Askari 2005); 0: it never breaks. */
  breakStretch: Float64Array;
}

/** Springs as columns (see the module doc). */
export class SpringTable implements SpringColumns {
  readonly i: Uint32Array;
  readonly j: Uint32Array;
  readonly restLength: Float64Array;
  readonly ks: Float64Array;
  readonly kd: Float64Array;
  readonly breakStretch: Float64Array;

  /** A table over `columns`; throws a `RangeError` naming a column whose length differs. */
  constructor(columns: SpringColumns) {
    ({ i: this.i, j: this.j, restLength: this.restLength } = columns);
    ({ ks: this.ks, kd: this.kd, breakStretch: this.breakStretch } = columns);
    for (const key of COLUMNS) {
      if (columns[key].length !== this.i.length) {
        throw new RangeError(
          `SpringTable: column ${key} has ${columns[key].length} rows, column i ${this.i.length}`,
        );
      }
    }
  }

  /** Springs in the table. */
  get length(): number {
    return this.i.length;
  }

  /** `springs` as a table (the same table when it is one); an absent breakStretch is 0. */
  static from(springs: SpringTable | readonly Spring[]): SpringTable {
    if (springs instanceof SpringTable) return springs;
    const b = new SpringTableBuilder(springs.length);
    for (const s of springs) b.push(s.i, s.j, [s.restLength, s.ks, s.kd, s.breakStretch ?? 0]);
    return b.finish();
  }

  /** Spring `k` as an object (`breakStretch` only when it breaks). */
  at(k: number): Spring {
    const s: Spring = {
      i: this.i[k],
      j: this.j[k],
      restLength: this.restLength[k],
      ks: this.ks[k],
      kd: this.kd[k],
    };
    if (this.breakStretch[k] > 0) s.breakStretch = this.breakStretch[k];
    return s;
  }

  /** Every spring as an object, in order (for references and tests: small networks only). */
  toSprings(): Spring[] {
    return Array.from({ length: this.length }, (_, k) => this.at(k));
  }

  /** The springs `k` for which `keep(k)` holds, in order, as a new table. */
  select(keep: (k: number) => boolean): SpringTable {
    // the chosen rows as a typed array, not a JavaScript array: millions of bonds stay off the heap
    const chosen = new Uint8Array(this.length);
    let n = 0;
    for (let k = 0; k < this.length; k++) if (keep(k)) n += chosen[k] = 1;
    const c = columnsOf(n);
    for (const key of COLUMNS) {
      const from = this[key], to = c[key];
      for (let k = 0, r = 0; k < this.length; k++) if (chosen[k]) to[r++] = from[k];
    }
    return new SpringTable(c);
  }

  /** Springs with a critical stretch (breakStretch > 0). */
  breakableCount(): number {
    let n = 0;
    for (const s0 of this.breakStretch) if (s0 > 0) n++;
    return n;
  }
}

const COLUMNS = ["i", "j", "restLength", "ks", "kd", "breakStretch"] as const;

/**
 * Collects springs: single springs into growing columns (capacity doubles), whole tables as they
 * are. `finish` joins them in order into one table, without a copy when there is one part only.
 */
export class SpringTableBuilder {
  #parts: SpringTable[] = [];
  #n = 0;
  #c: SpringColumns;

  /** A builder with room for `capacity` single springs before it grows. */
  constructor(capacity = 1024) {
    this.#c = columnsOf(capacity);
  }

  /** Springs collected so far. */
  get length(): number {
    return this.#parts.reduce((a, t) => a + t.length, this.#n);
  }

  /** Appends the spring `i`–`j` with parameters [rest length, ks, kd, breakStretch (0: none)]. */
  push(i: number, j: number, params: readonly [number, number, number, number]): void {
    if (this.#n === this.#c.i.length) this.#grow(Math.max(16, 2 * this.#n));
    const c = this.#c, k = this.#n++;
    c.i[k] = i;
    c.j[k] = j;
    [c.restLength[k], c.ks[k], c.kd[k], c.breakStretch[k]] = params;
  }

  /** Appends every spring of `table`, in order (the table is kept, not copied, until `finish`). */
  append(table: SpringTable): void {
    this.#flush();
    if (table.length > 0) this.#parts.push(table);
  }

  /** The table of the springs collected, in order (the builder starts over empty). */
  finish(): SpringTable {
    this.#flush();
    const parts = this.#parts;
    this.#parts = [];
    if (parts.length === 1) return parts[0];
    const c = columnsOf(parts.reduce((a, t) => a + t.length, 0));
    let at = 0;
    for (const t of parts) {
      for (const key of COLUMNS) c[key].set(t[key] as never, at);
      at += t.length;
    }
    return new SpringTable(c);
  }

  /** Moves the single springs pushed so far into a part of their own (trimmed). */
  #flush(): void {
    if (this.#n === 0) return;
    const n = this.#n, c = this.#c;
    // full columns are handed over as they are: no copy of springs pushed to the exact capacity
    const trim = <T extends Uint32Array | Float64Array>(a: T): T =>
      a.length === n ? a : a.slice(0, n) as T;
    this.#parts.push(
      new SpringTable({
        i: trim(c.i),
        j: trim(c.j),
        restLength: trim(c.restLength),
        ks: trim(c.ks),
        kd: trim(c.kd),
        breakStretch: trim(c.breakStretch),
      }),
    );
    this.#c = columnsOf(0);
    this.#n = 0;
  }

  #grow(capacity: number): void {
    const next = columnsOf(capacity);
    for (const key of COLUMNS) next[key].set(this.#c[key].subarray(0, this.#n) as never);
    this.#c = next;
  }
}

function columnsOf(n: number): SpringColumns {
  return {
    i: new Uint32Array(n),
    j: new Uint32Array(n),
    restLength: new Float64Array(n),
    ks: new Float64Array(n),
    kd: new Float64Array(n),
    breakStretch: new Float64Array(n),
  };
}
