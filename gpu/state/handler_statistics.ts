/**
 * A handler's statistics on the GPU, generic: the handler declares them (a name and how its u32
 * word is read, the bits of an f32 or a count), and gets one labelled `array<u32>` buffer, the
 * word of each statistic as WGSL `override` constants (`STAT_<NAME>`, defined once here), a
 * readback by name, and the words the metrics copy into a sample row's handler columns
 * (`core/result.ts` `HANDLER_SAMPLE_FIELDS`). Shared state knows none of the names: the handler's
 * folder defines them.
 *
 * @module
 */
import { HANDLER_SAMPLE_KINDS, type HandlerSampleField } from "../../core/result.ts";
import { readBuffer, storageBuffer } from "../runtime/kernel.ts";

/** How a statistic's u32 word is read: the bits of an f32, or a count. */
export type StatisticKind = "f32" | "u32";

/** A handler's statistics layout: one u32 word each, in declaration order. */
export interface StatisticsLayout<K extends string> {
  /** The word of each statistic. */
  readonly words: Readonly<Record<K, number>>;
  /** How each is read. */
  readonly kinds: Readonly<Record<K, StatisticKind>>;
  /** Number of words. */
  readonly length: number;
  /** Every word as a WGSL `override` constant: `STAT_<NAME>` (camelCase name in capitals). */
  readonly constants: Readonly<Record<string, number>>;
  /**
   * The {@link StatisticsLayout.constants} that the WGSL `code` declares as `override`s: a
   * pipeline must not be given a constant its module does not declare, and each kernel file
   * declares only the statistics it writes or reads.
   */
  constantsFor(code: string): Record<string, number>;
  /** The statistics by name from a readback of their buffer. */
  decode(raw: ArrayBuffer): Record<K, number>;
}

/** The WGSL `override` name of statistic `name`: `STAT_` and the camelCase name in capitals. */
export function statisticConstant(name: string): string {
  return `STAT_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}

/**
 * The layout of the statistics `fields` (name → kind), one u32 word each in their order.
 * Throws on a name that is not camelCase letters and digits.
 */
export function defineStatistics<K extends string>(
  fields: Readonly<Record<K, StatisticKind>>,
): StatisticsLayout<K> {
  const names = Object.keys(fields) as K[];
  for (const name of names) {
    if (!/^[a-z][A-Za-z0-9]*$/.test(name)) {
      throw new Error(
        `defineStatistics: statistic name "${name}" is not camelCase letters and digits; ` +
          `name it like "largestGroup" (it becomes the WGSL constant ${statisticConstant(name)})`,
      );
    }
  }
  const words = Object.fromEntries(names.map((n, k) => [n, k])) as Record<K, number>;
  const constants = Object.fromEntries(names.map((n, k) => [statisticConstant(n), k]));
  return {
    words,
    kinds: { ...fields },
    length: names.length,
    constants,
    constantsFor: (code) =>
      Object.fromEntries(
        Object.entries(constants).filter(([c]) => code.includes(`override ${c}:`)),
      ),
    decode(raw) {
      const u = new Uint32Array(raw);
      const f = new Float32Array(raw);
      return Object.fromEntries(
        names.map((n, k) => [n, fields[n] === "f32" ? f[k] : u[k]]),
      ) as Record<K, number>;
    },
  };
}

/**
 * A handler's statistics as the engine and the metrics see them: no names but the sample
 * columns of `core/result.ts`.
 */
export interface HandlerStatistics {
  /** `array<u32>`: one word per statistic (zero at the start), written by the handler's kernels. */
  readonly buffer: GPUBuffer;
  /**
   * The word the metrics copy into each handler column of a sample row (`HANDLER_SAMPLE_FIELDS`,
   * read as `HANDLER_SAMPLE_KINDS` says); a column not named here samples 0.
   */
  readonly sampled: Readonly<Partial<Record<HandlerSampleField, number>>>;
  /** Every statistic by name (one readback). */
  read(): Promise<Readonly<Record<string, number>>>;
}

/**
 * The buffer of the statistics `layout` (labelled `options.label`), with the statistic sampled
 * into each handler column named in `options.sampled`. Throws when a sampled statistic's kind is
 * not the column's (`HANDLER_SAMPLE_KINDS`).
 */
export function createHandlerStatistics<K extends string>(
  device: GPUDevice,
  layout: StatisticsLayout<K>,
  options: { label: string; sampled: Readonly<Partial<Record<HandlerSampleField, K>>> },
): HandlerStatistics & { read(): Promise<Record<K, number>> } {
  const sampled: Partial<Record<HandlerSampleField, number>> = {};
  for (const [column, name] of Object.entries(options.sampled) as [HandlerSampleField, K][]) {
    const want: StatisticKind = HANDLER_SAMPLE_KINDS[column];
    if (layout.kinds[name] !== want) {
      throw new Error(
        `createHandlerStatistics (${options.label}): the sample column ${column} reads a ` +
          `${want} word, but statistic "${name}" is ${
            layout.kinds[name] ?? "not in the layout"
          }; ` +
          `sample a ${want} statistic of the layout into it`,
      );
    }
    sampled[column] = layout.words[name];
  }
  const buffer = storageBuffer(device, { label: options.label, size: 4 * layout.length });
  return {
    buffer,
    sampled,
    read: async () => layout.decode(await readBuffer(device, buffer)),
  };
}
